"""CorefUD (CoNLL-U) files as Universal Anaphora files: their split antecedents (``SplitAnte=``) and bridging
(``Bridge=``) scored with the UA scorer's definitions, and the conversions both ways (``fastscore convert``).

A CoNLL-U file is written as the UA file the UA scorer would read (:func:`corefud_as_ua`), and that text is what
is scored: the numbers of ``fastscore coref KEY SYS --format conllu --split-antecedents keep --bridging`` are those
of the UA scorer on the two converted files, by construction.  What the writing keeps and loses is said in
docs/ua.md ("CorefUD files"):

- every line of the CoNLL-U file is a line of the UA file (its ten columns, white space inside a column made
  ``_``, MISC without its Entity, Bridge and SplitAnte items), with three more columns: IDENTITY, BRIDGING and
  DISCOURSE_DEIXIS (``_``); a token of the UA scorer is a word, an empty node or a multiword-token line;
- a mention is a markable from its first node to its last (a discontinuous mention covers its gaps), of the
  entity of its id, with its head as its ``Min``;
- ``SplitAnte=A<P`` puts ``ElementOf=P`` on the first markable of ``A`` in the document;
- ``Bridge=T<S`` (udapi gives it to the last mention of ``S`` opened at its node) is a bridging pair from that
  mention to the last mention of ``T`` opened before it (else the first of ``T``): UA bridging names an anchor
  markable, CorefUD an antecedent entity.  Relations (``:part``) are not written.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ..errors import FastscoreError, InputError
from .reader import UASource

_WHITE = re.compile(r"\s")  # what the UA scorer's str.split() splits at, U+00A0 included
_LINK_ITEMS = ("Entity", "Bridge", "SplitAnte", "Split")


class CorefUDSource(UASource):
    """A CoNLL-U file named for scoring with the UA options: read when scored (as its UA text, whose reading
    depends on the options); its document names on demand (compare and sweep check them)."""

    batch = None  # (a whole file, no batch of one)

    def _read_names(self) -> list[str]:
        from ..formats.conllu import read_conllu

        return read_conllu(self.path).doc_names


@dataclass
class UAText:
    """A CoNLL-U file written as UA text, and what the writing lost (counts by kind, with a first place)."""

    text: str
    doc_names: list[str]
    read_warnings: list[str] = field(default_factory=list)  # the CoNLL-U reader's
    tokens: dict[str, int] = field(default_factory=dict)  # document -> its tokens (lines the UA scorer counts)
    lost: Counter = field(default_factory=Counter)
    first: dict[str, str] = field(default_factory=dict)

    def note(self, kind: str, where: str) -> None:
        self.lost[kind] += 1
        self.first.setdefault(kind, where)


_LOSSES = {
    "discontinuous": "discontinuous mention(s) written as the markable covering their parts",
    "crossing": "mention(s) crossing another (neither inside the other): UA brackets close the last markable "
                "open, so the UA scorer reads them with another end (and without a Min where the head falls out)",
    "bridge_other_doc": "Bridge link(s) whose anaphor (the last mention of its entity so far) or antecedent entity "
                        "has no mention in the link's document, not written",
    "split_other_doc": "SplitAnte link(s) naming an entity without a mention in the link's document, not written",
    "bridge_dropped": "Bridge link(s) of a mention left open (udapi deletes the mention with them), not written",
    "white_space": "CoNLL-U column(s) holding white space, written with '_' for it (the UA scorer splits columns "
                   "at white space)",
}


def loss_warnings(path: str, ua: UAText) -> list[str]:
    """The reader's warnings, then one per kind of loss: its count and first place."""
    return ua.read_warnings + [f"{path}: {n} {_LOSSES[kind]}; first: {ua.first[kind]}" for kind, n in ua.lost.items()]


def _clean(cell: str) -> str:
    return _WHITE.sub("_", cell) or "_"


def _misc_without_links(misc: str) -> str:
    kept = [item for item in misc.split("|") if item.partition("=")[0] not in _LINK_ITEMS]
    return "|".join(kept) if kept and kept != [""] else "_"


@dataclass
class _Markable:
    row: int
    mid: str
    label: str
    start: int
    end: int
    head: int
    element_of: list[str] = field(default_factory=list)


def _documents(blocks) -> list[tuple[str, list]]:
    """(name, blocks) per document, cut as the CoNLL-U reader cuts them (an id-less newdoc named by number)."""
    docs: list[tuple[str, list]] = []
    for block in blocks:
        if block.newdoc is not None or not docs:
            docs.append((block.newdoc if isinstance(block.newdoc, str) else str(len(docs) + 1), []))
        docs[-1][1].append(block)
    return docs


def corefud_as_ua(path, fix_corefud_quirks: bool = False) -> UAText:
    """The UA text of a CoNLL-U file (see the module's help)."""
    from ..formats.conllu import read_conllu_blocks, read_conllu_links, word_key
    from ..formats.files import read_bytes

    path = os.fspath(path)
    data = read_bytes(path)  # once: "-" (standard input) cannot be read twice
    table, links = read_conllu_links(path, fix_corefud_quirks, data)
    blocks = read_conllu_blocks(path, data)
    out = UAText("", [], list(table.warnings))
    docs = _documents(blocks)
    if [name for name, _ in docs] != list(table.doc_names):
        raise InputError(f"{path}: the documents of the file do not match its mentions: please report this as a "
                         "fastscore bug")
    by_doc: dict[str | None, list] = {}
    for link in links:
        by_doc.setdefault(link.doc, []).append(link)
    lines: list[str] = []
    s = 0
    for d, (name, doc_blocks) in enumerate(docs):
        index: dict[int, int] = {}  # word key -> the UA scorer's token number in the document
        t = 0
        for block in doc_blocks:
            for line in block.lines:
                if not line.startswith("#"):
                    ident = line.split("\t", 1)[0]
                    if "-" not in ident:
                        index[word_key(s, ident)] = t
                    t += 1
            s += 1
        markables = _markables(table, d, index, out)
        by_label: dict[str, list[_Markable]] = {}
        for m in markables:
            by_label.setdefault(m.label, []).append(m)
        here = by_doc.get(name, [])
        _split_antecedents([x for x in here if x.attribute != "Bridge"], by_label, out)
        bridging = _bridging([x for x in here if x.attribute == "Bridge"], markables, by_label, out)
        out.doc_names.append(name)
        out.tokens[name] = t
        lines += _document_lines(name, doc_blocks, markables, bridging, out)
    out.text = "\n".join(lines) + "\n"
    return out


def _markables(table, d: int, index: dict[int, int], out: UAText) -> list[_Markable]:
    words = table.words
    labels = table.cluster_labels[d]
    nodes = np.sort(np.fromiter(index.values(), dtype=np.int64, count=len(index)))
    found = []
    for r in range(int(table.doc_offsets[d]), int(table.doc_offsets[d + 1])):
        keys = words.keys[words.offsets[r]:words.offsets[r + 1]].tolist()
        start, end = index[keys[0]], index[keys[-1]]
        inside = int(np.searchsorted(nodes, end, side="right") - np.searchsorted(nodes, start))
        if inside > len(keys):  # nodes left out between its first and last
            out.note("discontinuous", f"line {int(words.lines[r])}")
        found.append(_Markable(r, f"m{r - int(table.doc_offsets[d]) + 1}", labels[int(table.cluster[r])], start, end,
                               index[int(words.head[r])]))
    return found


def _split_antecedents(links, by_label: dict, out: UAText) -> None:
    for link in links:
        ante, plural = (x.split(":", 1)[-1] for x in (link.ante, link.entity))
        if ante not in by_label or plural not in by_label:
            out.note("split_other_doc", f"line {link.line}")
            continue
        first = by_label[ante][0]
        if plural not in first.element_of:
            first.element_of.append(plural)


def _bridging(links, markables: list[_Markable], by_label: dict, out: UAText) -> list[tuple[_Markable, _Markable]]:
    """(anaphor, anchor) pairs: the anchor is the mention of the antecedent entity opened last before the
    anaphor (in the order the markables open), else the entity's first."""
    row_of = {m.row: m for m in markables}
    pairs = []
    for link in links:
        target = link.ante.split(":", 1)[-1]
        if link.row is None:
            out.note("bridge_dropped", f"line {link.line}")
            continue
        if target not in by_label or link.row not in row_of:  # (udapi's anaphor may lie in an earlier document)
            out.note("bridge_other_doc", f"line {link.line}")
            continue
        anaphor = row_of[link.row]
        before = [m for m in by_label[target] if (m.start, -m.end) < (anaphor.start, -anaphor.end)]
        pairs.append((anaphor, max(before, key=lambda m: (m.start, -m.end)) if before else by_label[target][0]))
    return pairs


def _document_lines(name: str, blocks, markables: list[_Markable], bridging, out: UAText) -> list[str]:
    opening: dict[int, list[_Markable]] = {}
    closing: Counter = Counter()
    for m in markables:
        opening.setdefault(m.start, []).append(m)
        if m.end > m.start:
            closing[m.end] += 1
    anchors: dict[int, list[str]] = {}
    for anaphor, anchor in bridging:
        anchors.setdefault(anaphor.start, []).append(f"(MarkableID={anaphor.mid}|MentionAnchor={anchor.mid})")
    ends = _read_ends(name, markables, opening, closing, out)
    lines = [f"# newdoc id = {name}"]
    t = 0
    for block in blocks:
        for i, line in enumerate(block.lines):
            if line.startswith("#"):
                if not line.startswith("# newdoc") and not line.startswith("# global.Entity"):
                    lines.append(line)
                continue
            cols = line.split("\t")[:10]
            cols += ["_"] * (10 - len(cols))
            cols[9] = _misc_without_links(cols[9])
            cleaned = [_clean(c) for c in cols]
            if cleaned != [c or "_" for c in cols]:
                out.note("white_space", f"line {block.line + i} (document {name!r}, token {t + 1})")
            lines.append("\t".join(cleaned + [_identity(t, opening, closing, ends), "".join(anchors.get(t, ())) or "_",
                                              "_"]))
            t += 1
        lines.append("")
    return lines


def _read_ends(name: str, markables: list[_Markable], opening: dict, closing: Counter, out: UAText) -> dict:
    """Each markable's end as the UA scorer reads the written brackets (a ``)`` closes the last markable open): a
    mention crossing another (neither inside the other) is read with another end, which is noted."""
    ends: dict[str, int] = {}
    stack: list[_Markable] = []
    for t in sorted(set(opening) | set(closing)):
        for _ in range(closing[t]):
            ends[stack.pop().mid] = t
        for m in sorted(opening.get(t, ()), key=lambda m: -m.end):
            if m.end > m.start:
                stack.append(m)
            else:
                ends[m.mid] = t
    for m in markables:
        if ends[m.mid] != m.end:
            out.note("crossing", f"document {name!r}, tokens {m.start + 1}-{m.end + 1} read as {m.start + 1}-"
                                 f"{ends[m.mid] + 1}")
    return ends


def _identity(t: int, opening: dict, closing: Counter, ends: dict) -> str:
    """The IDENTITY cell of token ``t``: a ``)`` per markable ending here (the UA scorer closes the last one
    open), then the markables opening here, the longest first (one-token ones closed at once); the head as Min
    where it lies in the markable as read."""
    cell = ")" * closing[t]
    for m in sorted(opening.get(t, ()), key=lambda m: -m.end):
        fields = f"EntityID={m.label}|MarkableID={m.mid}"
        if m.head <= ends[m.mid]:
            fields += f"|Min={m.head + 1}"
        if m.element_of:
            fields += "|ElementOf=" + ",".join(m.element_of)
        cell += "(" + fields + (")" if m.end == m.start else "")
    return cell or "_"


def read_corefud_as_ua(path, settings, key: bool, fix_corefud_quirks: bool = False):
    """A CoNLL-U file read as the UA scorer would read its UA text (:class:`~fastscore.ua.reader.UAFile`, named by
    the CoNLL-U file), the warnings of what the writing lost, and each document's number of tokens."""
    from .score import read

    path = os.fspath(path)
    ua = corefud_as_ua(path, fix_corefud_quirks)
    try:  # read from memory: the text the UA scorer would read from a file written with --to ua
        read_back = read(path, settings, key, data=ua.text.encode("utf-8"))
    except InputError as e:
        raise InputError(f"{path}: its UA text does not read back ({e}): please report this as a fastscore "
                         "bug") from None
    read_back.path = path
    return read_back, loss_warnings(path, ua), ua.tokens


def score_corefud_ua(key, response, metrics=None, *, singletons=None, split_antecedents=None, match=None,
                     non_referring=False, bridging=False, only_split_antecedents=False, discourse_deixis=False,
                     doc=None, fix_corefud_quirks=False):
    """CoNLL-U files scored with the UA scorer's definitions (split antecedents from ``SplitAnte``, bridging from
    ``Bridge``): the numbers of the UA scorer on the files written as UA (:func:`corefud_as_ua`)."""
    from ..errors import UsageError
    from .score import Settings, score_ua

    if non_referring:
        raise UsageError("--non-referring scores the UA scorer's non-referring (-Pseudo) markables, which CorefUD "
                         "files have no field for: score without it, or convert to UA and mark them there")
    if discourse_deixis:
        raise UsageError("--discourse-deixis scores the UA DISCOURSE_DEIXIS column, which CorefUD files have no field "
                         "for: score without it")
    if match not in (None, "exact", "min"):
        raise UsageError(f"--match {match} is the CorefUD scorer's matching; with the UA options (--split-antecedents, "
                         "--bridging, --only-split-antecedents) CoNLL-U files are scored as the UA scorer scores "
                         "them: --match exact (default) or min (the key's heads as its Min spans)")
    settings = Settings.of(singletons, split_antecedents, match, False, bridging, only_split_antecedents, False)
    kfile, kwarn, ktokens = read_corefud_as_ua(key, settings, True, fix_corefud_quirks)
    rfile, rwarn, rtokens = read_corefud_as_ua(response, settings, False, fix_corefud_quirks)
    other = [name for name, n in ktokens.items() if name in rtokens and rtokens[name] != n]
    if other:
        kwarn.append(f"{rfile.path}: {len(other)} document(s) with another number of tokens (words, empty nodes, "
                     f"multiword-token lines) than in {kfile.path}, first {other[0]!r}: the UA scorer numbers tokens "
                     "by line, so mentions after the first difference are matched to no key mention (give the "
                     "response the key's empty nodes, e.g. with fastscore convert --template)")
    result = score_ua(kfile, rfile, metrics, singletons=singletons, split_antecedents=split_antecedents, match=match,
                      bridging=bridging, only_split_antecedents=only_split_antecedents, doc=doc)
    result.options["format"] = "conllu"
    result.warnings[:0] = kwarn + rwarn
    return result


# ---- fastscore convert: CoNLL-U -> UA, UA -> CoNLL-U -------------------------------------------------------------

def looks_like_ua(path) -> bool:
    """Whether a file's start holds UA markables (``MarkableID=``), which a CoNLL-U file has not."""
    from ..formats.files import read_head

    return b"MarkableID=" in read_head(os.fspath(path))


def convert_to_ua(source, target, fix_corefud_quirks: bool = False) -> list[str]:
    """``fastscore convert FILE.conllu OUT.ua --to ua``: the UA text of a CoNLL-U file (:func:`corefud_as_ua`),
    written safely; returns the reader's warnings and what the writing lost."""
    from ..outputs import output_path, refuse_outputs_on_inputs

    source = os.fspath(source)
    refuse_outputs_on_inputs([source], [target])
    ua = corefud_as_ua(source, fix_corefud_quirks)
    warnings = loss_warnings(source, ua)
    with output_path(os.fspath(target)) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(ua.text)
    return warnings


_ID_SAFE = re.compile(r"[^\w.]")
_CONLLU_ID = re.compile(r"[0-9]+(?:\.[0-9]+|-[0-9]+)?")


def _bad_id(ident: str, tokens: list[list[str]]) -> str | None:
    """What makes a UA token's ID no CoNLL-U ID of its sentence (None: nothing)."""
    if any(t[0] == ident for t in tokens):  # (sentences are short)
        return "an ID the sentence has already"
    if not _CONLLU_ID.fullmatch(ident):
        return "no CoNLL-U ID (1, 2, 2.1 or 3-4)"
    from ..formats.conllu import MAX_ORD  # (not at import: UA scoring does not read CoNLL-U)

    if int(re.match("[0-9]+", ident)[0]) > MAX_ORD:  # (its word key would not fit)
        return f"an ID over {MAX_ORD}, the most words and empty nodes of a sentence fastscore reads"
    return None


def _ua_lines(path: str, text: str) -> dict[str, list[tuple[list[str], list[list[str]]]]]:
    """Document name -> its sentences (comments, token columns), documents cut as the UA scorer cuts them (a name
    given twice: its last lines, in its first place); a blank line ends a sentence; ``# newdoc`` and ``# global.``
    comments are left out."""
    docs: dict[str, list] = {}
    current: list | None = None
    comments: list[str] = []
    tokens: list[list[str]] = []

    def end_sentence():
        nonlocal comments, tokens
        if current is not None and tokens:
            current.append((comments, tokens))
        comments, tokens = [], []

    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if line.startswith("# newdoc"):
            end_sentence()
            current = docs[line[len("# newdoc id = "):]] = []
        elif not line:
            end_sentence()
        elif line.startswith("#"):
            if not line.startswith("# global."):
                comments.append(line)
        else:
            if current is None:
                raise InputError(f"{path}:{number}: a token before the first '# newdoc id = ...' line: the UA scorer "
                                 "reads it as part of the first document, which CoNLL-U cannot say")
            cols = line.split()
            what = _bad_id(cols[0], tokens)
            if what:
                raise InputError(f"{path}:{number}: document {list(docs)[-1]!r}: {cols[0]!r} in the first column is "
                                 f"{what}: --to conllu writes the UA file's first ten columns as CoNLL-U (a blank "
                                 "line between sentences)")
            tokens.append(cols)
    end_sentence()
    return docs


def convert_ua_to_conllu(source, target) -> list[str]:
    """``fastscore convert FILE.ua OUT.conllu --to conllu``: a UA file as CorefUD CoNLL-U (its first ten columns,
    markables as mentions, ElementOf as SplitAnte, bridging pairs as Bridge); returns what could not be written
    (see docs/ua.md)."""
    from ..formats.conllu import read_conllu, read_conllu_blocks, word_key, write_conllu
    from ..formats.files import read_bytes_and_bom
    from ..formats.table import MentionTable, Words, offsets
    from ..outputs import output_path, refuse_outputs_on_inputs
    from .reader import read_ua_bytes

    source = os.fspath(source)
    refuse_outputs_on_inputs([source], [target])
    data, bom = read_bytes_and_bom(source)  # once: "-" (standard input) cannot be read twice
    ua = read_ua_bytes(source, data, bom, with_min=True, with_bridging=True)
    docs = {name: sentences for name, sentences in _ua_lines(source, data.decode("utf-8")).items()
            if name in ua.documents}
    lost: Counter = Counter()
    lines: list[str] = []
    keys: dict[str, list[int | None]] = {}  # token number in each document -> word key (None: a multiword line)
    s = 0
    for name, sentences in docs.items():
        lines.append(f"# newdoc id = {name}")
        here: list[int | None] = []
        for n, (comments, tokens) in enumerate(sentences, 1):
            if not any(c.startswith("# sent_id") for c in comments):
                comments = [f"# sent_id = {_ID_SAFE.sub('_', name) or 'doc'}-{n}", *comments]
            lines += comments
            for cols in tokens:
                if len(cols) > 12 and cols[12] != "_":
                    lost["deixis"] += 1
                cols = (cols[:10] + ["_"] * 10)[:10]
                cols[9] = _misc_without_links(cols[9])
                lines.append("\t".join(cols))
                here.append(None if "-" in cols[0] else word_key(s, cols[0]))
            lines.append("")
            s += 1
        keys[name] = here
    blocks = read_conllu_blocks(source, ("\n".join(lines) + "\n").encode())
    rows, labels, extra = _ua_mentions(ua, keys, lost)
    order = [r for d in rows for r in d]
    words = Words(offsets([len(r["keys"]) for r in order]), np.asarray([k for r in order for k in r["keys"]],
                                                                        dtype=np.int64),
                  np.asarray([r["head"] for r in order], dtype=np.int64), np.zeros(len(order), dtype=bool),
                  np.zeros(len(order) + 1, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32),
                  [], np.zeros(len(order), dtype=np.int64))
    names = list(docs)
    table = MentionTable("<converted>", names, np.zeros(len(names), dtype=np.int64),
                         np.zeros(len(names), dtype=np.int64), offsets([len(d) for d in rows]),
                         np.asarray([r["keys"][0] for r in order], dtype=np.int64),
                         np.asarray([r["keys"][-1] + 1 for r in order], dtype=np.int64),
                         np.asarray([r["cluster"] for r in order], dtype=np.int32), labels, words)
    _add_links(blocks, extra)
    with output_path(os.fspath(target)) as tmp:
        write_conllu(table, tmp, blocks, labels=labels, fields=[{} for _ in order], heads=True, links=True)
        try:
            read_conllu(tmp)  # what the CorefUD scorer reads, or an error now
        except FastscoreError as e:
            raise InputError(f"{source}: its tokens do not make CoNLL-U the CorefUD scorer reads ({e}): each "
                             "sentence must number its words 1, 2, ... in the first column") from None
    return [f"{source}: {n} {_UA_LOSSES[kind]}" for kind, n in lost.items()]


_UA_LOSSES = {
    "pseudo": "markable(s) of non-referring (-Pseudo) entities not written (CorefUD has no field for them)",
    "deixis": "DISCOURSE_DEIXIS cell(s) not written (CorefUD has no field for them)",
    "sentences": "markable(s) across sentences not written (CorefUD mentions lie in one sentence)",
    "min": "Min span(s) of more than one token written as the head of their first token",
    "self_bridge": "bridging pair(s) inside one entity not written (udapi refuses a Bridge to its own entity)",
    "split_no_markable": "ElementOf naming an entity without a markable in its document, not written",
}


def _ua_mentions(ua, keys: dict, lost: Counter):
    """Per document its mentions (keys, head, cluster), per document the entity id of each cluster (e1, e2, ...
    over the file), and the links to write: (word key of the node, attribute, value)."""
    rows: list[list[dict]] = []
    labels: list[list[str]] = []
    extra: list[tuple[int, str, str]] = []
    n = 0
    keep = _keep_ids(ua, keys)
    for name, doc in ua.documents.items():
        if name not in keys:
            continue
        here, ids = keys[name], {}
        first: dict[str, dict] = {}  # markable id -> its mention
        out: list[dict] = []
        for mid, m in doc.markables.items():
            if m.entity.endswith("-Pseudo"):
                lost["pseudo"] += 1
                continue
            nodes = [k for k in here[m.start:m.end + 1] if k is not None]
            if not nodes or len({k >> 24 for k in nodes}) > 1:
                lost["sentences"] += 1
                continue
            head = nodes[0]
            if m.min is not None:
                if m.min[1] > m.min[0]:
                    lost["min"] += 1
                head = next((k for k in here[m.min[0]:m.min[1] + 1] if k is not None and k in nodes), nodes[0])
            if m.entity not in ids:
                n += 1
                ids[m.entity] = (len(ids), m.entity if keep else f"e{n}")
            first[mid] = {"keys": nodes, "head": head, "cluster": ids[m.entity][0], "entity": m.entity}
            out.append(first[mid])
        out.sort(key=lambda r: (r["cluster"], r["keys"][0], -len(r["keys"]), r["keys"][-1]))
        rows.append(out)
        labels.append([label for _, label in sorted(ids.values())])
        opened: dict[str, dict] = {}
        for r in sorted(out, key=lambda r: (r["keys"][0], -len(r["keys"]))):
            opened.setdefault(r["entity"], r)
        for plural, members in doc.element_of.items():
            if plural not in ids:
                lost["split_no_markable"] += 1
                continue
            antes = list(dict.fromkeys(doc.markables[mid].entity for mid in members
                                       if doc.markables[mid].entity in ids))
            value = ",".join(f"{ids[a][1]}<{ids[plural][1]}" for a in antes if a != plural)
            if value:
                extra.append((opened[plural]["keys"][0], "SplitAnte", value))
        for anaphor, anchor in doc.bridging.items():
            a, t = first.get(anaphor), first.get(anchor)
            if a is None or t is None:
                continue
            if a["entity"] == t["entity"]:
                lost["self_bridge"] += 1
                continue
            extra.append((a["keys"][0], "Bridge", f"{ids[t['entity']][1]}<{ids[a['entity']][1]}"))
    return rows, labels, extra


def _keep_ids(ua, keys: dict) -> bool:
    """Whether the UA entity ids can be the CorefUD ones: each a valid id, none in two documents (CorefUD ids name
    entities over the file)."""
    from ..formats.conllu import _ENTITY_ID

    seen: dict[str, str] = {}
    for name, doc in ua.documents.items():
        if name not in keys:
            continue
        for m in doc.markables.values():
            if m.entity.endswith("-Pseudo"):  # (not written)
                continue
            if (not _ENTITY_ID.fullmatch(m.entity) or set(m.entity) & set("<,:")  # (links' separators)
                    or seen.setdefault(m.entity, name) != name):
                return False
    return True


def _add_links(blocks, extra: list[tuple[int, str, str]]) -> None:
    """The SplitAnte and Bridge items put in the MISC of their nodes (several on one node joined by commas)."""
    from ..formats.conllu import word_key

    at: dict[int, dict[str, list[str]]] = {}
    for key, attribute, value in extra:
        at.setdefault(key, {}).setdefault(attribute, []).append(value)
    if not at:
        return
    for s, block in enumerate(blocks):
        for i, line in enumerate(block.lines):
            if line.startswith("#"):
                continue
            cols = line.split("\t")
            if "-" in cols[0] or word_key(s, cols[0]) not in at:
                continue
            items = [x for x in cols[9].split("|") if x and x != "_"]
            for attribute in ("Bridge", "SplitAnte"):
                values = at[word_key(s, cols[0])].get(attribute)
                if values:
                    items.append(f"{attribute}={','.join(values)}")
            cols[9] = "|".join(items)
            block.lines[i] = "\t".join(cols)
