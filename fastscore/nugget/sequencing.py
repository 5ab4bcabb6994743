"""Event sequencing (``@After`` and ``@Subevent`` links) as EvmEval scorer_v1.8 scores it (``-a``).

Per document and side:

1. mentions get interval names: gold mention ``i`` is ``te{i}``; a system
   mention mapped to it (the coreference mapping, ``--coref-mapping``, any Dice)
   shares the name; unmapped system mentions follow (``te{#gold + k}``); a link
   names mentions by id, and of two mentions sharing an id the one named last
   in that order is the one it joins (EvmEval's dictionaries);
2. links are lifted to coreference clusters (mentions outside clusters are
   clusters of one); links inside one cluster are dropped (with a warning);
3. per link type, links implied through other clusters are dropped (transitive
   reduction of the cluster graph), and the rest expanded back to every pair of
   member mentions — in the iteration order of EvmEval's Python 2 set;
4. with validation on (EvmEval's default), links both ways between two
   clusters are an error;
5. After becomes TimeML ``BEFORE``, Subevent ``INCLUDES``; ``All`` is the
   Subevent links followed by the After links.

Each link type is then scored with temporal awareness
(:mod:`fastscore.temporal.awareness`) and summed over documents.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from ..errors import InputError, ParseError
from ..formats.tbf import Relation
from ..messages import shown
from ..temporal.awareness import Counts, ZeroWeightError, build, score_document
from .options import COREF_MAPPINGS, LINK_TYPES, REPORTED
from .py2order import set_order

TIMEML = {"After": "BEFORE", "Subevent": "INCLUDES"}


@dataclass
class Side:
    """One side of one document as EvmEval writes it to TimeML: interval names and links per type."""

    nodes: list[str]
    links: dict[str, list[tuple[str, str, str]]]  # Subevent | After | All -> (name, name, BEFORE|INCLUDES)


@dataclass
class Sequencing:
    """Temporal awareness counts per link type (Subevent, After, All) and document."""

    doc_ids: list[str]
    counts: dict[str, list[Counts]]
    warnings: list[str] = field(default_factory=list)
    sides: list[tuple[Side, Side]] = field(default_factory=list)  # per document: (gold, system)


def py2_percent(x: float) -> str:
    """``str(100 * round(x, 6))`` in Python 2: half away from zero, then 12 significant digits."""
    v = 100 * float(Decimal(x).quantize(Decimal("1e-6"), rounding=ROUND_HALF_UP))
    s = format(v, ".12g")
    return s if any(c in s for c in ".ein") else s + ".0"


def seq_out(sc: dict) -> str:
    """The temporal-awareness scorer's output for one link type (EvmEval's ``TYPE/seq.out``),
    from its scores (``NuggetResult.sequencing_scores``)."""
    f, p, r = (py2_percent(sc[k]) for k in ("f1", "precision", "recall"))
    return ("=== Temporal Awareness Score ===\n"
            "Evaluated considering implicit relations in recall as well\n"
            "Temporal Score\tF1\tP\tR\n"
            f"\t\t{f}\t{p}\t{r}\t\n"
            f"Overall Temporal Awareness Score (F1 score): {f}\n\n")


def official_section(scores: dict[str, dict]) -> str:
    """The lines EvmEval appends to its report for ``-a``: the seq.out of each link type."""
    return "\n" + "".join(f"=======Event Sequencing Results for {kind} =======\n" + seq_out(scores[kind])
                           for kind in REPORTED)


_TIMEML_HEAD = ('<?xml version="1.0" ?>\n<TimML xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                'xsi:noNamespaceSchemaLocation="http://timeml.org/timeMLdocs/TimeML_1.2.1.xsd">\n  <DCT>\n'
                '    <TIMEX3 functionInDocument="CREATION_TIME" scriptFunction="false" tid="t0" type="TIME" '
                'value=""/>\n  </DCT>\n')


def timeml(side: Side, kind: str) -> str:
    """One side of one document and link type as the TimeML file EvmEval writes (its layout, to the byte)."""
    out = [_TIMEML_HEAD]
    if side.nodes:
        out += ["  <TEXT>\n", *(f'    <EVENT eid="{n}"/>\n' for n in side.nodes), "  </TEXT>\n"]
    else:
        out.append("  <TEXT/>\n")
    out += [f'  <MAKEINSTANCE eid="{n}" eiid="instance_{n}"/>\n' for n in side.nodes]
    out += [f'  <TLINK eventInstanceID="{a}" lid="l0" relType="{rel}" relatedToEventInstance="{b}"/>\n'
            for a, b, rel in side.links[kind]]
    out.append("</TimML>\n")
    return "".join(out)


def write_timeml(seq: Sequencing, scores: dict[str, dict], folder: str) -> None:
    """EvmEval's ``-a`` folder: ``TYPE/gold/DOC.tml``, ``TYPE/sys/DOC.tml`` and ``TYPE/seq.out`` for
    Subevent, After and All (for other TimeML tools, or to compare with EvmEval's files).

    ``DOC`` is the document id made a file name (:func:`fastscore.outputs.file_name_of`: the id itself for
    letters, digits and ``-_.+~``, ``%XX`` for any other byte), so that every file lands in its folder and no
    two documents share one; a link already there is replaced, not followed."""
    from ..outputs import cannot_write, refuse_shared_names, write_output

    names = refuse_shared_names(seq.doc_ids, ".tml", f"--timeml {folder}")  # before anything is written
    for kind in REPORTED:
        for sub in ("gold", "sys"):
            where = os.path.join(folder, kind, sub)
            try:
                os.makedirs(where, exist_ok=True)
            except OSError as exc:
                raise cannot_write(where, exc) from None
        for doc_id, (gold, system) in zip(seq.doc_ids, seq.sides):
            for sub, side in (("gold", gold), ("sys", system)):
                write_output(os.path.join(folder, kind, sub, names[doc_id]), timeml(side, kind), follow_links=False)
        write_output(os.path.join(folder, kind, "seq.out"), seq_out(scores[kind]), follow_links=False)


def score_sequencing(prep, al, opts) -> Sequencing:
    """Score the After and Subevent links of every document (see the module docstring)."""
    m = COREF_MAPPINGS[opts.coref_mapping]
    exact = opts.sequencing_graph == "exact"
    seq = Sequencing(list(prep.doc_ids), {k: [] for k in REPORTED})
    self_links: list[str] = []
    undefined: list[str] = []
    for d, doc_id in enumerate(prep.doc_ids):
        gold, system = prep.gold[d], prep.system[d]
        g_ids, s_ids = gold.mention_ids, system.mention_ids
        # names by mention, ids to names by dictionary: of two mentions sharing an id, the later one names it
        g_nodes = [f"te{i}" for i in range(len(g_ids))]
        g_names = dict(zip(g_ids, g_nodes))
        named = [(j, f"te{i}") for i, j in enumerate(al.map_sys[d][m].tolist()) if j >= 0]  # mapped, in gold order
        mapped = {j for j, _ in named}
        named += [(j, f"te{len(g_ids) + k}") for k, j in enumerate(j for j in range(len(s_ids)) if j not in mapped)]
        s_names = {s_ids[j]: name for j, name in named}
        s_nodes = [name for _, name in named]
        sides = []
        for role, side, names, corefs, nodes in (("gold", gold, g_names, prep.gold_corefs[d], g_nodes),
                                                 ("system", system, s_names, prep.system_corefs[d], s_nodes)):
            links = _expanded_links(side, doc_id, corefs, opts, self_links, role, undefined)
            by_type = {k: [(names[a], names[b], TIMEML[k]) for a, b in links[k]] for k in LINK_TYPES}
            by_type["All"] = by_type["Subevent"] + by_type["After"]
            sides.append(Side(nodes, by_type))
        seq.sides.append((sides[0], sides[1]))
        for kind in REPORTED:
            g, s = (x.links[kind] for x in sides)
            try:
                seq.counts[kind].append(score_document(build(g, exact), build(s, exact)))
            except ZeroWeightError as exc:
                raise InputError(f'{gold.file.path} and {system.file.path}: document "{shown(doc_id)}": event '
                                 f"sequencing ({kind}): the implicit-recall weight 0.99 / (1 + n(n-1)/2 - matched) "
                                 f"divides by zero ({exc}); EvmEval stops with ZeroDivisionError here — the links "
                                 "contradict each other (a cycle, or two relations between the same events)") from None
    if undefined:
        seq.warnings.append(f"{len(undefined)} event sequencing link(s) name a mention that is not defined in "
                            f"their document and were skipped (as EvmEval does); first: {undefined[0]}")
    if self_links:
        seq.warnings.append(f"{len(self_links)} event sequencing link(s) join two mentions of one coreference "
                            f"cluster and were ignored (as EvmEval does); first: {self_links[0]}")
    return seq


def _expanded_links(side, doc_id: str, clusters: list[Relation], opts, self_links: list[str],
                    role: str, undefined: list[str]) -> dict[str, list[tuple[str, str]]]:
    """Mention-level links per type after lifting to clusters, reduction and expansion (in EvmEval's order).
    A mention in two clusters belongs to the later one and is expanded in both, as in EvmEval; a link
    naming no mention or cluster member is skipped (collected in ``undefined``)."""
    path = side.file.path
    mentions = side.mention_ids
    defined = set(mentions)
    cluster_of: dict[str, int] = {}
    members: list[list[str]] = []
    for c in clusters:
        for a in c.args:
            cluster_of[a] = len(members)
        members.append(list(c.args))
    for mid in mentions:
        if mid not in cluster_of:
            cluster_of[mid] = len(members)
            members.append([mid])
    remaining = set(mentions) if opts.whitelist is not None else None
    by_type: dict[str, list[tuple[int, int, int]]] = {k: [] for k in LINK_TYPES}
    doc = side.file.documents.get(doc_id)
    for r in (r for r in (doc.relations if doc is not None else ()) if r.name in TIMEML):
        args = r.args if remaining is None else [a for a in r.args if a in remaining]
        if remaining is not None and len(args) < 2:
            continue  # EvmEval drops relations the type whitelist leaves with fewer than two mentions
        if len(args) != 2:
            raise ParseError(path, r.line, f"@{r.name} relation {r.id!r} has {len(args)} mentions; a sequencing "
                                           "link joins exactly two (EvmEval stops with a ValueError here)", doc_id)
        absent = next((a for a in args if a not in cluster_of), None)
        if absent is not None:  # EvmEval logs an error and skips the link
            undefined.append(f'{path}:{r.line}: document "{shown(doc_id)}": @{r.name} {r.id} names mention {absent!r}')
            continue
        c1, c2 = cluster_of[args[0]], cluster_of[args[1]]
        if c1 == c2:
            self_links.append(f"{path}:{r.line}: document \"{shown(doc_id)}\": @{r.name} {r.id} {args[0]},{args[1]}")
            continue
        by_type[r.name].append((c1, c2, r.line))
    out = {}
    for kind, links in by_type.items():
        kept = _reduced(links)
        expanded = set_order([(a, b, kind) for c1, c2, _ in kept for a in members[c1] for b in members[c2]])
        if not opts.no_script_validation:
            _check_acyclic(expanded, kept, members, path, doc_id, kind, role)
        # a cluster member no mention defines is validated with the others, then left out of the TimeML (as EvmEval)
        out[kind] = [(a, b) for a, b, _ in expanded if a in defined and b in defined]
    return out


def _reduced(links: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """EvmEval's reduction: drop a link (a, c) when some b other than a and c has a ->* b ->* c
    (so links on a cycle of three or more clusters go too)."""
    succ: dict[int, set[int]] = {}
    for a, c, _ in links:
        succ.setdefault(a, set()).add(c)
    reach: dict[int, set[int]] = {}
    for start in succ:
        seen = {start}
        stack = [start]
        while stack:
            for nxt in succ.get(stack.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        reach[start] = seen
    return [(a, c, line) for a, c, line in links
            if not any(b != c and c in reach.get(b, ()) for b in reach[a] if b != a)]


def _check_acyclic(expanded, kept, members: list[list[str]], path: str, doc_id: str, kind: str, role: str) -> None:
    """EvmEval's script validation: no mention-level link whose reverse is also there.  A link from a mention
    to itself (a mention in two linked clusters) is its own reverse, which EvmEval does not count."""
    present = {(a, b) for a, b, _ in expanded}
    for a, b, _ in expanded:
        if a != b and (b, a) in present:
            line = next(ln for c1, c2, ln in kept if b in members[c1] and a in members[c2])
            raise ParseError(path, line, f"the {role} @{kind} links run both ways between the clusters of "
                                         f"{a!r} and {b!r}: not a valid event sequence (EvmEval stops here; "
                                         "--no-script-validation scores it anyway)", doc_id)
