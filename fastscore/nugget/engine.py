"""TAC KBP event nugget scoring with the official scorer's (EvmEval) rules.

Presets: ``kbp2015`` = scorer_v1.7.1 (invisible words removed in token mode,
token mode by default, raw type names in the per-type table); ``kbp2016`` and
``kbp2017`` = scorer_v1.8 (no invisible words, character mode unless token
tables are given, type names normalised, type whitelist).
"""
from __future__ import annotations

import os
import string
from functools import lru_cache
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError, ParseError, UsageError
from ..formats.table import MentionTable
from ..formats.tbf import Mention, Relation, TbfDocument, TbfFile, read_tbf, read_token_table

NOT_ANNOTATED = "NOT_ANNOTATED"
# scorer_v1.7.1's list; it lowercases tokens before the lookup, so "I" never matches.
KBP2015_INVISIBLE = ("the", "a", "an", "I", "you", "he", "she", "we", "my", "your", "her", "our", "who", "where",
                     "when")
ATTRIBUTES = ("span", "type", "realis", "type+realis")
COREF_MAPPINGS = {"span": 0, "type": 1, "realis": 2, "type+realis": 3}
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_V17_DROP = str.maketrans("", "", string.punctuation + " \t\n\r\x0b\x0c")


@lru_cache(maxsize=None)
def canonical_v17(s: str) -> str:
    """scorer_v1.7.1: lower case, no white space, no ASCII punctuation."""
    return s.translate(_ASCII_LOWER).translate(_V17_DROP)


@lru_cache(maxsize=None)
def canonical_v18(s: str) -> str:
    """scorer_v1.8: only ASCII letters and digits, lower case."""
    return "".join(c for c in s if c.isascii() and c.isalnum()).translate(_ASCII_LOWER)


@dataclass(frozen=True)
class Preset:
    name: str
    scorer: str
    canonical: object  # str -> str
    invisible: tuple[str, ...]
    token_mode_default: bool
    raw_type_names: bool  # per-type table keyed by the raw type (v1.7.1) or the normalised one (v1.8)


PRESETS = {
    "kbp2015": Preset("kbp2015", "EvmEval scorer_v1.7.1", canonical_v17, KBP2015_INVISIBLE, True, True),
    "kbp2016": Preset("kbp2016", "EvmEval scorer_v1.8", canonical_v18, (), False, False),
    "kbp2017": Preset("kbp2017", "EvmEval scorer_v1.8", canonical_v18, (), False, False),
}


@dataclass
class Options:
    preset: Preset
    token_mode: bool
    tokens_dir: str | None
    token_ext: str
    invisible: frozenset[str]
    whitelist: frozenset[str] | None
    coref: bool
    coref_mapping: str
    coref_threshold: float
    mapping: str  # greedy | optimal
    per_type_mapping: str = "type+realis"  # EvmEval's (defective) choice; "type" corrects it


@dataclass
class DocMentions:
    """One side of one document, ready for the kernel."""

    mentions: list[Mention]
    ids: object  # sorted unique token/char ids per mention, flattened (list or array)
    offsets: object  # CSR offsets into ids, starting at 0
    lengths: object  # per mention, the Dice denominator's share
    types: list[str]  # canonical
    realis: list[str]


def resolve_options(preset: str = "kbp2015", tokens: str | None = None, token_ext: str = ".tab",
                    char_spans: bool = False, invisible_words: str | None = None, coref: bool = False,
                    coref_mapping: str = "type", coref_threshold: float = 1.0, type_whitelist: str | None = None,
                    mapping: str = "greedy", per_type_mapping: str = "type+realis") -> Options:
    if preset not in PRESETS:
        raise UsageError(f"unknown preset {preset!r}: choose from {', '.join(PRESETS)}")
    p = PRESETS[preset]
    if char_spans and tokens is not None:
        raise UsageError("--char-spans and --tokens exclude each other")
    if tokens is not None and not os.path.isdir(tokens):
        raise UsageError(f"--tokens {tokens}: not a folder")
    if coref_mapping not in COREF_MAPPINGS:
        raise UsageError(f"unknown coreference mapping {coref_mapping!r}: choose from {', '.join(COREF_MAPPINGS)}")
    if not coref_threshold > 0:
        # EvmEval aligns an unmapped gold mention with the last system mention when the threshold is <= 0
        raise UsageError(f"the coreference threshold must be > 0, not {coref_threshold!r}")
    if mapping not in ("greedy", "optimal"):
        raise UsageError(f"unknown mapping {mapping!r}: choose greedy (official) or optimal")
    if per_type_mapping not in ("type+realis", "type"):
        raise UsageError(f"unknown per-type mapping {per_type_mapping!r}: choose type+realis (official) or type")
    token_mode = not char_spans and (tokens is not None or p.token_mode_default)
    if invisible_words is None:
        invisible = frozenset(p.invisible)
    elif invisible_words == "none":
        invisible = frozenset()
    else:
        invisible = frozenset(w.strip() for w in _lines(invisible_words) if w.strip())
    whitelist = None
    if type_whitelist is not None:
        whitelist = frozenset(canonical_v18(w) for w in _lines(type_whitelist) if w.strip())
    return Options(p, token_mode, tokens, token_ext, invisible, whitelist, coref, coref_mapping, coref_threshold,
                   mapping, per_type_mapping)


def _lines(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read().splitlines()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None


@dataclass
class Prepared:
    """Both sides of every scored document, plus what the reports need."""

    doc_ids: list[str]
    gold: list[DocMentions]
    system: list[DocMentions]
    gold_corefs: list[list[Relation]]
    system_corefs: list[list[Relation]]
    warnings: list[str] = field(default_factory=list)


def prepare(gold: TbfFile, system: TbfFile, opts: Options, doc: str | None = None) -> Prepared:
    if doc is not None:
        if doc not in gold.documents:
            raise InputError(f'{gold.path}: no document "{doc}" in the gold standard (--doc)')
        doc_ids = [doc]
    else:
        doc_ids = sorted(gold.documents)
    out = Prepared(doc_ids, [], [], [], [])
    same_span: dict[str, list[str]] = {"gold": [], "system": []}  # by role: gold and system may be one file
    missing = [d for d in doc_ids if d not in system.documents]
    if missing:
        out.warnings.append(f"{system.path}: {len(missing)} gold document(s) missing from the system output, "
                            "scored as empty: " + ", ".join(f'"{d}"' for d in missing[:5])
                            + (" ..." if len(missing) > 5 else ""))
    kept: dict[str, list[list[Mention]]] = {"gold": [], "system": []}
    for d in doc_ids:
        g_doc = gold.documents[d]
        s_doc = system.documents.get(d, TbfDocument(d, 0))
        invisible = _invisible_ids(d, opts, out.warnings)
        token_ids: dict[str, int] = {}
        for role, tbf, doc_obj, sides, corefs in (("gold", gold, g_doc, out.gold, out.gold_corefs),
                                                  ("system", system, s_doc, out.system, out.system_corefs)):
            mentions = _check_mentions(tbf.path, doc_obj)
            if opts.whitelist is not None:
                mentions = [m for m in mentions if canonical_v18(m.type) in opts.whitelist]
            kept[role].append(mentions)
            if opts.token_mode:
                sides.append(_token_side(mentions, opts, invisible, token_ids))
            corefs.append(_corefs(tbf.path, doc_obj, mentions, opts, same_span[role]) if opts.coref else [])
    if not opts.token_mode:
        for role, tbf, sides in (("gold", gold, out.gold), ("system", system, out.system)):
            sides.extend(_char_sides(tbf, doc_ids, kept[role], opts))
    for found in same_span.values():
        if found:
            out.warnings.append(f"{len(found)} coreference cluster(s) hold two mentions with the same span, which "
                                f"the specification forbids (scored anyway, as EvmEval does); first: {found[0]}")
    return out


def _invisible_ids(doc_id: str, opts: Options, warnings: list[str]) -> set[str]:
    if not (opts.token_mode and opts.invisible):
        return set()
    path = os.path.join(opts.tokens_dir or ".", doc_id + opts.token_ext)
    table = read_token_table(path)
    if table is None:
        warnings.append(f"{path}: no token table for document \"{doc_id}\": invisible words not removed "
                        "(as EvmEval does)")
        return set()
    # EvmEval lowercases the token, then looks it up in the list as written
    return {tid for tid, tok in table.items() if tok.lower().strip() in opts.invisible}


def _check_mentions(path: str, doc: TbfDocument) -> list[Mention]:
    seen: dict[str, int] = {}
    for m in doc.mentions:
        if m.id in seen:
            raise ParseError(path, m.line, f"duplicate mention id {m.id!r} (first at line {seen[m.id]}): mention ids "
                                           "must be unique in a document", doc.id)
        seen[m.id] = m.line
    return doc.mentions


def _token_side(mentions: list[Mention], opts: Options, invisible: set[str],
                token_ids: dict[str, int]) -> DocMentions:
    canon = opts.preset.canonical
    ids: list[int] = []
    offsets = [0]
    lengths: list[float] = []
    for m in mentions:
        kept = {t for t in m.span.split(",") if t not in invisible}
        ids.extend(sorted(token_ids.setdefault(t, len(token_ids)) for t in kept))
        offsets.append(len(ids))
        lengths.append(len(kept))
    return DocMentions(mentions, ids, offsets, lengths, [canon(m.type) for m in mentions],
                       [canon(m.realis) for m in mentions])


def _char_sides(tbf: TbfFile, doc_ids: list[str], per_doc: list[list[Mention]], opts: Options) -> list[DocMentions]:
    """Character spans of every mention of one file, parsed at once (kernels/tbf_scan.py)."""
    from ..kernels.tbf_scan import parse_char_spans

    canon = opts.preset.canonical
    flat = [m for mentions in per_doc for m in mentions]
    buf = np.frombuffer("\n".join(m.span for m in flat).encode("ascii", "replace"), dtype=np.uint8)
    off, vals, lengths, bad = parse_char_spans(buf, len(flat))
    if bad >= 0:
        m = flat[bad]
        doc = next(d for d, ms in zip(doc_ids, per_doc) if any(x is m for x in ms))
        _chars(tbf.path, tbf.documents.get(doc, TbfDocument(doc, 0)), m)  # raises the clear error
    sides = []
    k = 0
    for mentions in per_doc:
        n = len(mentions)
        base = off[k]
        sides.append(DocMentions(mentions, vals[base:off[k + n]], off[k:k + n + 1] - base, lengths[k:k + n],
                                 [canon(m.type) for m in mentions], [canon(m.realis) for m in mentions]))
        k += n
    return sides


def _chars(path: str, doc: TbfDocument, m: Mention) -> list[int]:
    chars: list[int] = []
    for part in m.span.split(";"):
        bounds = part.split(",")
        try:
            b, e = int(bounds[0]), int(bounds[1])
        except (ValueError, IndexError):
            raise ParseError(path, m.line, f"bad character span {m.span!r} of mention {m.id!r}: expected "
                                           "'begin,end' ranges separated by ';' (or pass --tokens for token "
                                           "ids)", doc.id) from None
        chars.extend(range(b, e))
    return chars


def _corefs(path: str, doc: TbfDocument, mentions: list[Mention], opts: Options, same_span: list[str]):
    """Coreference clusters, validated (spec 4.4) and, with a whitelist, filtered as EvmEval does.

    Two mentions with the same span in one cluster break the specification, but EvmEval
    scores them: they are collected in ``same_span`` and reported as one warning.
    """
    defined = {m.id: m for m in doc.mentions}
    clusters = doc.coreference()
    owner: dict[str, Relation] = {}
    for r in clusters:
        spans: dict[str, str] = {}
        for a in r.args:
            if a not in defined:
                raise ParseError(path, r.line, f"coreference cluster {r.id!r} names mention {a!r}, which is not "
                                               "defined in the document", doc.id)
            if a in owner and owner[a] is not r:
                raise ParseError(path, r.line, f"mention {a!r} is in clusters {owner[a].id!r} (line "
                                               f"{owner[a].line}) and {r.id!r}: resolve the transitive closure "
                                               "(merge the clusters)", doc.id)
            owner[a] = r
            span = defined[a].span
            if span in spans and spans[span] != a:
                same_span.append(f"{path}:{r.line}: document \"{doc.id}\": cluster {r.id!r} has mentions "
                                 f"{spans[span]!r} and {a!r} with the same span {span!r}")
            spans[span] = a
    if opts.whitelist is None:
        return clusters
    remaining = {m.id for m in mentions}
    kept = []
    for r in clusters:
        args = [a for a in r.args if a in remaining]
        if len(args) > 1:  # EvmEval drops clusters left with one mention
            kept.append(Relation(r.name, r.id, args, r.line))
    return kept


@dataclass
class Aligned:
    """Kernel results: TP per document and mapping; per gold mention and mapping the system mention."""

    tp: np.ndarray  # (n_docs, 4)
    n_gold: np.ndarray
    n_sys: np.ndarray
    map_sys: list[np.ndarray]  # per document (4, n_gold) document-local system index, -1 none
    map_score: list[np.ndarray]


def align(prep: Prepared, opts: Options) -> Aligned:
    """Run the Dice/greedy kernel (or the optimal assignment) over all documents."""
    from ..kernels import nugget

    type_codes: dict[str, int] = {}
    realis_codes: dict[str, int] = {}
    na = opts.preset.canonical(NOT_ANNOTATED)

    def arrays(sides: list[DocMentions]):
        doc_off = np.concatenate([[0], np.cumsum([len(x.mentions) for x in sides])]).astype(np.int64)
        vals = [np.asarray(x.ids, dtype=np.int64) for x in sides]
        base = np.concatenate([[0], np.cumsum([len(v) for v in vals])])
        off = np.concatenate([[0]] + [np.asarray(x.offsets[1:], dtype=np.int64) + b for x, b in zip(sides, base)])
        lens = np.concatenate([[]] + [np.asarray(x.lengths, dtype=np.float64) for x in sides])
        types = [t for x in sides for t in x.types]
        realis = [r for x in sides for r in x.realis]
        typ = np.fromiter((type_codes.setdefault(t, len(type_codes)) for t in types), np.int64, len(types))
        rea = np.fromiter((realis_codes.setdefault(r, len(realis_codes)) for r in realis), np.int64, len(realis))
        typ_any = np.fromiter((t == na for t in types), np.bool_, len(types))
        rea_any = np.fromiter((r == na for r in realis), np.bool_, len(realis))
        return (doc_off, off.astype(np.int64), np.concatenate([np.zeros(0, np.int64)] + vals), lens, typ, rea,
                typ_any, rea_any)

    g = arrays(prep.gold)
    s = arrays(prep.system)
    n_gold = np.diff(g[0])
    n_sys = np.diff(s[0])
    if opts.mapping == "greedy":
        tp, map_sys, map_score, _ = nugget.greedy_mappings(*g, *s[:6])
        split = np.asarray(g[0])
        ms = [map_sys[:, split[d]:split[d + 1]] for d in range(len(prep.doc_ids))]
        sc = [map_score[:, split[d]:split[d + 1]] for d in range(len(prep.doc_ids))]
        return Aligned(tp, n_gold, n_sys, ms, sc)
    return _optimal(prep, g, s, n_gold, n_sys)


def _optimal(prep, g, s, n_gold, n_sys) -> Aligned:
    """Maximum-weight one-to-one mappings (not official): the Hungarian method on the Dice matrix."""
    from ..kernels import nugget
    from ..kernels.ceaf import max_weight_assignment

    tp = np.zeros((len(prep.doc_ids), 4))
    ms, sc = [], []
    g_off, s_off = np.asarray(g[1], np.int64), np.asarray(s[1], np.int64)
    for d in range(len(prep.doc_ids)):
        ga, gb, sa, sb = g[0][d], g[0][d + 1], s[0][d], s[0][d + 1]
        mp = np.full((4, gb - ga), -1, dtype=np.int64)
        score = np.zeros((4, gb - ga))
        if gb > ga and sb > sa:
            dice, sys_i, gold_i = nugget.doc_dice_pairs(
                g_off[ga:gb + 1], np.asarray(g[2], np.int64), np.asarray(g[3][ga:gb], np.float64),
                s_off[sa:sb + 1], np.asarray(s[2], np.int64), np.asarray(s[3][sa:sb], np.float64))
            gt, gr, gta, gra = (np.asarray(x[ga:gb]) for x in (g[4], g[5], g[6], g[7]))
            st_, sr = (np.asarray(x[sa:sb]) for x in (s[4], s[5]))
            type_ok = gta[gold_i] | (gt[gold_i] == st_[sys_i])
            realis_ok = gra[gold_i] | (gr[gold_i] == sr[sys_i])
            for m, ok in enumerate((np.ones_like(type_ok), type_ok, realis_ok, type_ok & realis_ok)):
                w = np.zeros((gb - ga, sb - sa))
                w[gold_i[ok], sys_i[ok]] = dice[ok]
                cols = max_weight_assignment(w)
                rows = np.flatnonzero(cols >= 0)
                cols = cols[rows]
                keep = w[rows, cols] > 0
                mp[m, rows[keep]] = cols[keep]
                score[m, rows[keep]] = w[rows, cols][keep]
                tp[d, m] = score[m].sum()
        ms.append(mp)
        sc.append(score)
    return Aligned(tp, n_gold, n_sys, ms, sc)


def coref_tables(prep: Prepared, al: Aligned, opts: Options) -> tuple[MentionTable, MentionTable]:
    """EvmEval's conversion for the CoNLL scorer: one position per gold mention (the system mention
    aligned to it when its Dice reaches the threshold), then one per unaligned system mention;
    mentions outside every cluster become singletons.  Built for all documents at once."""
    m = COREF_MAPPINGS[opts.coref_mapping]
    k_doc, k_pos, k_lab, r_doc, r_pos, r_lab, tokens = [], [], [], [], [], [], []
    for d in range(len(prep.doc_ids)):
        g_lab = _labels(prep.gold[d].mentions, prep.gold_corefs[d])
        s_lab = _labels(prep.system[d].mentions, prep.system_corefs[d])
        n_g, n_s = len(g_lab), len(s_lab)
        j = al.map_sys[d][m]
        aligned = (j >= 0) & (al.map_score[d][m] >= opts.coref_threshold)
        extra = np.ones(n_s, dtype=bool)
        extra[j[aligned]] = False
        extra_idx = np.flatnonzero(extra)
        k_doc.append(np.full(n_g, d))
        k_pos.append(np.arange(n_g))
        k_lab.append(g_lab)
        pos = np.flatnonzero(aligned)
        r_doc.append(np.full(len(pos) + len(extra_idx), d))
        r_pos.append(np.concatenate([pos, n_g + np.arange(len(extra_idx))]))
        r_lab.append(np.concatenate([s_lab[j[aligned]], s_lab[extra_idx]]))
        tokens.append(n_g + len(extra_idx))
    tokens = np.asarray(tokens, dtype=np.int64)
    cat = lambda parts: np.concatenate(parts) if parts else np.zeros(0, np.int64)
    return (_one_token_table(prep.doc_ids, tokens, cat(k_doc), cat(k_pos), cat(k_lab), "gold"),
            _one_token_table(prep.doc_ids, tokens, cat(r_doc), cat(r_pos), cat(r_lab), "system"))


def _labels(mentions: list[Mention], clusters: list[Relation]) -> np.ndarray:
    """Cluster number of each mention: its first cluster, else a new singleton number."""
    cluster_of: dict[str, int] = {}
    for c, r in enumerate(clusters):
        for a in r.args:
            cluster_of.setdefault(a, c)
    lab = np.fromiter((cluster_of.get(mm.id, -1) for mm in mentions), dtype=np.int64, count=len(mentions))
    alone = lab < 0
    lab[alone] = len(clusters) + np.arange(int(alone.sum()))
    return lab


def _one_token_table(names, tokens, doc, pos, lab, path) -> MentionTable:
    """One-token mentions at (doc, pos) with cluster labels; chains numbered by first position (v8.01)."""
    order = np.lexsort((pos, doc))
    doc, pos, lab = doc[order], pos[order], lab[order]
    key = doc * (np.int64(lab.max()) + 1 if len(lab) else 1) + lab
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    by_first = np.argsort(first, kind="stable")  # labels in order of first appearance (doc-major)
    rank = np.empty(len(first), dtype=np.int64)
    rank[by_first] = np.arange(len(first))
    label_doc = doc[first[by_first]]
    n_chains = np.bincount(label_doc, minlength=len(names))
    chain_start = np.concatenate([[0], np.cumsum(n_chains)])
    chain = rank[inverse] - chain_start[doc]
    rows = np.lexsort((pos, chain, doc))
    sizes = np.bincount(doc, minlength=len(names))
    from ..formats.table import _numbers

    return MentionTable(
        path=path, doc_names=list(names), doc_lines=np.zeros(len(names), dtype=np.int64), doc_tokens=tokens,
        doc_offsets=np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
        start=pos[rows].astype(np.int32), end=(pos[rows] + 1).astype(np.int32),
        cluster=chain[rows].astype(np.int32), cluster_labels=[_numbers(int(n)) for n in n_chains])


def score_nugget(gold, system, **kwargs):
    """See :func:`fastscore.api.score_nugget`."""
    from .result import NuggetResult

    doc = kwargs.pop("doc", None)
    opts = resolve_options(**kwargs)
    g = gold if isinstance(gold, TbfFile) else read_tbf(gold)
    s = system if isinstance(system, TbfFile) else read_tbf(system)
    prep = prepare(g, s, opts, doc)
    al = align(prep, opts)
    coref = None
    if opts.coref:
        from ..coref.engine import align_documents, score_aligned

        key, resp = coref_tables(prep, al, opts)
        coref = score_aligned(align_documents(key, resp), allow_repeated=True).stats
    return NuggetResult(g, s, opts, prep, al, coref)
