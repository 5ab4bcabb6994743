"""TAC KBP event nugget scoring with the official scorer's (EvmEval) rules.

Presets: ``kbp2015`` = scorer_v1.7.1 (invisible words removed in token mode,
token mode by default, raw type names in the per-type table); ``kbp2016`` and
``kbp2017`` = scorer_v1.8 (no invisible words, character mode unless token
tables are given, type names normalised, type whitelist).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from itertools import chain, repeat

import numpy as np

from ..errors import InputError, ParseError
from ..formats.table import MentionTable, _numbers, offsets
from ..formats.tbf import (ASCII_BLANKS, Relation, TbfDocument, TbfFile, join_token_tables, read_token_bytes,
                           read_token_table, read_token_tables, span_kind, values_of)
from ..messages import did_you_mean, few, shown
from ..pairing import Paired, pair
from . import PAIRING
from .options import ASCII_LOWER, COREF_MAPPINGS, NOT_ANNOTATED, Options, canonical_v18
from .token_spans import TokenSpans, row_positions


@dataclass
class DocMentions:
    """One side of one document, ready for the kernel: rows of the file's mention columns."""

    file: TbfFile
    rows: object  # row indices (range or list) into the file's columns
    ids: object  # sorted unique token/char ids per mention, flattened (list or array)
    offsets: object  # CSR offsets into ids, starting at 0
    lengths: object  # per mention, the Dice denominator's share
    types: list[str]  # canonical
    realis: list[str]

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def mention_ids(self) -> list[str]:
        return _pick(self.file.ids, self.rows)


@dataclass
class Prepared:
    """Both sides of every scored document, plus what the reports need."""

    doc_ids: list[str]
    gold: list[DocMentions]
    system: list[DocMentions]
    gold_corefs: list[list[Relation]]
    system_corefs: list[list[Relation]]
    warnings: list[str] = field(default_factory=list)
    csr: dict = field(default_factory=dict)  # role -> (offsets, ids, lengths) of all scored mentions (char mode)
    members: dict = field(default_factory=dict)  # role -> Members of the scored documents (when computed)
    file_rows: dict = field(default_factory=dict, repr=False)  # role -> scored_rows(), once computed
    kept_visible: list = field(default_factory=list, repr=False)  # invisible words EvmEval keeps (for a warning)


@dataclass
class Members:
    """Every @Coreference member of the scored documents of one file, document by document (scored order)."""

    doc: np.ndarray  # index into the scored documents
    cluster: np.ndarray  # the cluster's index in its document's @Coreference lines
    serial: np.ndarray  # the cluster's index among all clusters here
    row: np.ndarray  # the member's row in the file's columns, -1 for an id no mention of the document has
    doc_start: np.ndarray  # per scored document, its first row (0 for a document the file lacks)
    duplicate_ids: np.ndarray  # per scored document, whether two of its mentions share an id
    clusters: list  # per scored document, its @Coreference relations


# what the lines of a side a warning counts have done ("FILE: N ...; first: ...")
_UNKNOWN_TOKENS = ("mention(s) name token ids that their document's token table does not have (scored as written, as "
                   "EvmEval does)")
_REPEATED_IDS = ("mention(s) reuse an id another mention of their document has; both are scored and a @Coreference "
                 "cluster naming the id takes both (as EvmEval v1.8 does)")
_UNDEFINED_MEMBERS = ("@Coreference member(s) name mentions that are not defined in their document, ignored (as "
                      "EvmEval does)")


def prepare(gold: TbfFile, system: TbfFile, opts: Options, doc: str | None = None) -> Prepared:
    if not gold.documents:
        raise ParseError(gold.path, None, 'no "#BeginOfDocument" line in the gold standard: not a TBF file (or empty)')
    if doc is not None and doc not in gold.documents:
        raise InputError(f'{gold.path}: no document "{shown(doc)}" in the gold standard (--doc)'
                         + did_you_mean(doc, gold.documents))
    paired = pair(gold.documents, system.documents, PAIRING)
    pairs = [p for p in paired.pairs if doc in (None, p[0])]
    doc_ids = [d for d, _, _ in pairs]
    out = Prepared(doc_ids, [], [], [], [])
    _check_documents(gold, system, paired, doc, out.warnings)
    for _, g_doc, s_doc in pairs:  # EvmEval parses the lines of the documents it scores only
        for d in (g_doc, s_doc):
            if d is not None and d.unread is not None:
                raise d.unread
    if opts.preset.name != "kbp2015":
        _one_member_links(gold, system, pairs)
    for tbf in (gold, system):
        check_span_syntax(tbf, opts)
    # by role, not by file: gold and system may be one file
    same_span, unknown_tokens, undefined, repeated, kept = ({"gold": [], "system": []} for _ in range(5))
    wanted = opts.coref or opts.sequencing
    checked = {"gold": None, "system": None}
    unique = {"gold": None, "system": None}  # per document, whether its mention ids are known to be unique
    # token ids of all documents at once (token_spans.py)
    spans = TokenSpans.build(gold, system, [(g, s) for _, g, s in pairs]) if opts.token_mode else None
    paths = [_token_path(d, opts, g_doc) for d, g_doc, _ in pairs] if spans is not None else []
    wants_tables = bool(paths) and paths[0] is not None
    tables = read_token_tables(paths) if wants_tables else None
    # a table read_token_tables leaves (None): all read one by one in the loop, their errors met in order
    one_by_one = [] if wants_tables and tables is None else None
    if wanted:
        for role, tbf in (("gold", gold), ("system", system)):
            out.members[role] = _members(tbf, [tbf.documents.get(d) for d in doc_ids])
            unique[role] = (~out.members[role].duplicate_ids).tolist()
            checked[role] = _valid_clusters(tbf, out.members[role], spans.span_keys(role) if spans else None)
    for i, (d, g_doc, s_doc) in enumerate(pairs):
        s_doc = s_doc or TbfDocument(d, 0, file=system)
        if one_by_one is not None:
            one_by_one.append(read_token_bytes(paths[i]))
        if opts.preset.name == "kbp2015":
            _v171_stops(system, s_doc)  # before the document's other checks, as scorer_v1.7.1
        for role, tbf, doc_obj, sides, corefs in (("gold", gold, g_doc, out.gold, out.gold_corefs),
                                                  ("system", system, s_doc, out.system, out.system_corefs)):
            rows = doc_obj.rows if unique[role] is not None and unique[role][i] else \
                _checked_rows(tbf, doc_obj, repeated[role])
            if opts.whitelist is not None:
                listed = [canonical_v18(tbf.types[r]) in opts.whitelist for r in rows]
                if not opts.token_mode:  # EvmEval's parse_line reads the span before it looks at the whitelist
                    for r in (r for r, keep in zip(rows, listed) if not keep):
                        _chars(tbf, doc_obj.id, r)
                rows = [r for r, keep in zip(rows, listed) if keep]
            kept[role].append(rows)
            if wanted:
                corefs.append(_corefs(tbf, doc_obj, out.members[role].clusters[i], rows, opts, same_span[role],
                                      undefined[role], checked[role][i]))
            else:
                corefs.append([])
                _undefined_members(tbf, doc_obj, undefined[role])
    if one_by_one is not None:
        tables = join_token_tables(one_by_one)
    no_table = [d for d, present in zip(doc_ids, tables[2].tolist()) if not present] if tables is not None else []
    if not opts.token_mode:
        for role, tbf, sides in (("gold", gold, out.gold), ("system", system, out.system)):
            per_doc, out.csr[role] = _char_sides(tbf, doc_ids, kept[role], opts)
            sides.extend(per_doc)
    else:
        _token_sides(spans, tables, pairs, kept, opts, out, unknown_tokens)
    if no_table:
        out.warnings.append(_no_table_warning(no_table, len(doc_ids), opts))
    if out.kept_visible:
        out.warnings.append(f"{len(out.kept_visible)} token(s) are invisible words once Unicode white space is "
                            "stripped, which scorer_v1.7.1 (Python 2) keeps: visible, as it scores them "
                            f"(--fix-evmeval-quirks removes them); first: {out.kept_visible[0]}")
    for role, tbf in (("gold", gold), ("system", system)):
        for found, problem in ((unknown_tokens[role], _UNKNOWN_TOKENS), (repeated[role], _REPEATED_IDS),
                               (undefined[role], _UNDEFINED_MEMBERS)):
            if found:
                out.warnings.append(f"{tbf.path}: {len(found)} {problem}; first: {found[0]}")
    for found in same_span.values():
        if found:
            out.warnings.append(f"{len(found)} coreference cluster(s) hold two mentions with the same span, which "
                                f"the specification forbids (scored anyway, as EvmEval does); first: {found[0]}")
    return out


def _check_documents(gold: TbfFile, system: TbfFile, paired: Paired, doc: str | None, warnings: list[str]) -> None:
    """An empty system found nothing (warned); a system sharing no document with the gold is an error;
    gold documents absent from the system and system documents absent from the gold are warned."""
    if not system.documents:
        warnings.append(f"{system.path}: no document in the system file: scored as a system that found nothing")
        return
    extra = paired.extra
    if paired.disjoint and {d.strip() for d in gold.documents} & {d.strip() for d in system.documents}:
        warnings.append(f"{system.path}: none of its document ids is one of the gold standard's as EvmEval reads "
                        "them (Unicode white space at their ends is part of them): scored as EvmEval scores it, "
                        "every gold document as empty (--fix-evmeval-quirks strips it)")
    elif paired.disjoint and system.evmeval_structure:
        warnings.append(f"{system.path}: none of its documents is one of the gold standard's as EvmEval reads the "
                        "file (see the warning on its structure lines): scored as EvmEval scores it, every gold "
                        "document as empty")
    elif paired.disjoint:
        raise InputError(f"{system.path}: none of its {len(extra)} document(s) is in the gold standard {gold.path} "
                         f"(system: {few(sorted(extra), 3)}; gold: {few(sorted(gold.documents), 3)}): check "
                         'that the system output is for these gold documents (the names on the "#BeginOfDocument" '
                         "lines must match)")
    missing = [d for d in paired.missing if doc in (None, d)]
    if missing:
        warnings.append(f"{system.path}: {len(missing)} gold document(s) missing from the system output, "
                        f"scored as empty: {few(missing)}")
    if extra:
        warnings.append(f"{system.path}: {len(extra)} system document(s) not in the gold standard {gold.path}, "
                        f"not scored: {few(extra)}")


def _one_member_links(gold: TbfFile, system: TbfFile, pairs: list) -> None:
    """scorer_v1.8's ``parse_relation_line`` stops at an @After or @Subevent of one mention in a scored document
    (v1.7.1 checks nothing): the same, as a clear error."""
    for _, g_doc, s_doc in pairs:
        for tbf, d in ((gold, g_doc), (system, s_doc)):
            for r in d.relations if d is not None else ():
                if len(r.args) < 2 and r.name != "Coreference":
                    raise ParseError(tbf.path, r.line, f"@{r.name} relation {r.id!r} names one mention: a relation "
                                                       "joins at least two (scorer_v1.8 stops here too)", d.id)


SPAN_SAMPLE = 32  # spans looked at per file, spread over it


def check_span_syntax(tbf: TbfFile, opts: Options) -> None:
    """Refuse a file whose spans plainly have the other syntax than the options read (a ParseError naming
    the mention and the option to use); say nothing when the file does not tell.

    Up to ``SPAN_SAMPLE`` spans spread over the file are classified (``formats.tbf.span_kind``); the file has a
    syntax when they show evidence of one kind and none of the other (mixed evidence: not refused).  The one
    misreading left is a file of numeric token ids where every span looked at is two tokens with a gap, which
    token files (mostly one-token mentions) do not give.
    """
    n = len(tbf.spans)
    if not n:
        return
    step = -(-n // SPAN_SAMPLE)  # at most SPAN_SAMPLE rows, from the first to near the last
    first: dict[str, int] = {}
    for r in range(0, n, step):
        kind = span_kind(tbf.spans[r])
        side = "char" if kind in ("ranges", "wide") else "token" if kind in ("numbers", "letters") else None
        if side is not None:
            first.setdefault(side, r)
    if len(first) != 1:
        return
    ((found, row),) = first.items()
    if found == ("token" if opts.token_mode else "char"):
        return
    span = tbf.spans[row]
    preset = opts.preset.name
    if found == "char":
        looks = "character offsets ('begin,end' ranges, separated by ';')"
        # kbp2015, the default, is the one preset reading token ids: say so, the 2016/2017 files are in characters
        read = ("token ids (--tokens)" if opts.tokens_dir
                else f"token ids (the default preset, {preset} = {opts.preset.scorer} for TAC KBP 2015, reads token "
                     "ids unless --char-spans is given)")
        remedy = (f"drop --tokens (--preset {preset} then reads character spans)"
                  if opts.tokens_dir and not opts.preset.token_mode_default
                  else ("drop --tokens and " if opts.tokens_dir else "")
                  + "use --char-spans (or --preset kbp2016/kbp2017, the 2016/2017 rules)")
    else:
        looks = "token ids"
        read = ("character offsets (--char-spans)" if opts.preset.token_mode_default
                else f"character offsets (--preset {preset} reads character spans unless --tokens is given)")
        remedy = (f"use --tokens DIR (the folder of the token tables, DOCID{opts.token_ext})"
                  + (" instead of --char-spans" if opts.preset.token_mode_default else ""))
    raise ParseError(tbf.path, tbf.lines[row], f"mention {tbf.ids[row]!r} has the span {span!r}, which looks like "
                                               f"{looks}, but the spans are read as {read}: {remedy}",
                     next((d.id for d in tbf.documents.values() if d.start <= row < d.end), None))


def _token_path(doc_id: str, opts: Options, doc: TbfDocument | None = None) -> str | None:
    """The path of a document's token table, or None when no table is wanted (character mode, or no invisible
    words and no --tokens)."""
    if not (opts.token_mode and (opts.invisible or opts.tokens_dir is not None)):
        return None
    folder = opts.tokens_dir or "."
    path = os.path.join(folder, doc_id + opts.token_ext)
    # the id names the file (as in EvmEval); it may name a subfolder, never a file outside the folder
    inside = os.path.normpath(os.path.join(os.path.abspath(folder), doc_id + opts.token_ext))
    if not inside.startswith(os.path.join(os.path.abspath(folder), "")) or "\0" in doc_id:
        where = f"{doc.file.path}:{doc.line}: " if doc is not None and doc.file is not None else ""
        raise InputError(f"{where}document {doc_id[:80]!r}: its token table ({path[:200]!r}) would be read from "
                         f"outside the token folder {folder}: a document id names a file inside it")
    return path


def _token_sides(spans: TokenSpans, tables: tuple | None, pairs: list, kept: dict, opts: Options, out: Prepared,
                 unknown_tokens: dict) -> None:
    """Both sides of every document in token mode from :class:`TokenSpans` (``tables``: what
    ``read_token_tables`` gives, None: no tables wanted), and the messages on tokens a table lacks.  A table
    with a word outside ASCII on a token of its document's mentions is read by :func:`_invisible_ids` too:
    Python 3's Unicode ``lower``/``strip`` decide what --fix-evmeval-quirks hides and the warning names."""
    if tables is None:
        tables = np.zeros(0, np.uint8), np.zeros(len(pairs) + 1, np.int64), np.zeros(len(pairs), bool)
    found, hidden, wide = spans.look_up(tables[0], tables[1], opts.invisible)
    for i in wide.tolist():  # in document order, as the warning lists them
        d, g_doc, _ = pairs[i]
        path = _token_path(d, opts, g_doc)
        invisible = _invisible_ids(read_token_table(path), opts, path, out.kept_visible)
        numbers, tokens = spans.numbers_of(i)
        hidden[numbers.start:numbers.stop] = [t in invisible for t in tokens]
    for side, (role, sides) in enumerate((("gold", out.gold), ("system", out.system))):
        tbf = spans.files[role]
        for i, r, token in spans.unknown(role, kept[role], found, tables[2]):
            doc = (pairs[i][side + 1] or TbfDocument(pairs[i][0], 0)).id
            unknown_tokens[role].append(f'{tbf.path}:{tbf.lines[r]}: document "{shown(doc)}": mention '
                                        f"{tbf.ids[r]!r} names token {token!r}, which "
                                        f"{_token_path(pairs[i][0], opts)} does not have")
        _, counts, vals = spans.sides(role, kept[role], hidden)
        out.csr[role] = offsets(counts), vals, counts.astype(np.float64)
        sides.extend(_doc_sides(tbf, kept[role], out.csr[role], opts))


def _no_table_warning(docs: list[str], n_docs: int, opts: Options) -> str:
    """One warning for every document without a token table."""
    folder = opts.tokens_dir or "."
    what = ("invisible words not removed and token ids not checked there (as EvmEval does)" if opts.invisible
            else "token ids not checked there")
    where = (f'no token table for {len(docs)} of {n_docs} document(s) in the token folder "{shown(folder)}" '
             f"(DOCID{opts.token_ext}): {few(docs)}: {what}")
    if opts.tokens_dir is None:
        where += "; the token folder is the current directory unless --tokens DIR names another"
    return where


def _invisible_ids(table: dict[str, list[str]] | None, opts: Options, path: str | None = None,
                   kept_visible: list[str] | None = None) -> set[str]:
    """The ids any of whose lines holds an invisible word, the word lowered and stripped as Python 2 does a byte
    string (ASCII only: ``the`` + U+00A0 stays visible, noted in ``kept_visible``; ``--fix-evmeval-quirks``: as
    Python 3 does)."""
    if table is None or not opts.invisible:
        return set()
    # EvmEval lowercases the token, then looks it up in the list as written
    read = {tid for tid, words in table.items()
            if any(w.translate(ASCII_LOWER).strip(ASCII_BLANKS) in opts.invisible for w in words)}
    # the corrected reading differs on words outside ASCII only (the tables _token_sides reads here)
    meant = read | {tid for tid, words in table.items()
                    if any(not w.isascii() and w.lower().strip() in opts.invisible for w in words)}
    if opts.fix_evmeval_quirks:
        return meant
    if kept_visible is not None:
        kept_visible += [f"{path}: token {tid!r} ({table[tid][-1]!r})" for tid in table if tid in meant - read]
    return read


def _undefined_members(tbf: TbfFile, doc: TbfDocument, found: list[str]) -> None:
    """Collect the @Coreference members naming no mention of the document (when coreference is not scored)."""
    clusters = doc.coreference()
    if not clusters:
        return
    defined = set(tbf.ids[doc.start:doc.end])
    for r in clusters:
        for a in r.args:
            if a not in defined:
                found.append(f'{tbf.path}:{r.line}: document "{shown(doc.id)}": cluster {r.id!r} names mention {a!r}')


def _checked_rows(tbf: TbfFile, doc: TbfDocument, repeated: list[str]) -> range:
    """The document's mention rows; a mention id used twice is collected in ``repeated`` (EvmEval v1.8 warns
    that one of them "is randomly removed", but scores both)."""
    ids = tbf.ids[doc.start:doc.end]
    if len(set(ids)) != len(ids):
        for r, mid, first in _repeated_ids(tbf, doc):
            repeated.append(f'{tbf.path}:{tbf.lines[r]}: document "{shown(doc.id)}": mention id {mid!r} '
                            f"(first at line {first})")
    return doc.rows


def _v171_stops(system: TbfFile, doc: TbfDocument) -> None:
    """A clear error for a system document using a mention id twice: there scorer_v1.7.1 stops, exits 0
    and prints the scores of the documents before it as if they were the whole."""
    ids = system.ids[doc.start:doc.end]
    if len(set(ids)) != len(ids):
        r, mid, first = next(_repeated_ids(system, doc))
        raise ParseError(system.path, system.lines[r], f"duplicate mention id {mid!r} (first at line {first}): "
                                                       "EvmEval scorer_v1.7.1 stops at this document and reports "
                                                       "the documents before it as the whole score; make the ids "
                                                       "unique (--preset kbp2016 scores both mentions)", doc.id)


def _repeated_ids(tbf: TbfFile, doc: TbfDocument):
    """(row, id, line of the id's first mention) of every mention reusing an earlier mention's id."""
    seen: dict[str, int] = {}
    for r in doc.rows:
        mid = tbf.ids[r]
        if mid in seen:
            yield r, mid, seen[mid]
        else:
            seen[mid] = tbf.lines[r]


def _canonical_columns(tbf: TbfFile, opts: Options) -> tuple[list[str], list[str]]:
    """The file's type and realis columns, normalised once (the functions are memoised)."""
    canon = opts.preset.canonical
    columns = []
    for column, interned in ((tbf.types, tbf.type_codes), (tbf.realis, tbf.realis_codes)):
        codes, distinct = interned if interned is not None else _intern(column)  # the byte scan's, else
        columns.append(values_of([canon(v) for v in distinct], codes))
    return columns[0], columns[1]


def _pick(column: list, rows) -> list:
    return column[rows.start:rows.stop] if isinstance(rows, range) else [column[r] for r in rows]


def _char_sides(tbf: TbfFile, doc_ids: list[str], per_doc: list, opts: Options):
    """Character spans of every mention of one file, parsed at once (kernels/tbf_scan.py):
    the per-document sides and the whole CSR (offsets, ids, lengths) in the same order."""
    from ..kernels.tbf_scan import FULL, parse_char_spans

    spans = tbf.spans
    n_flat = sum(map(len, per_doc))
    joined = "\n".join(chain.from_iterable(_pick(spans, rows) for rows in per_doc))
    buf = np.frombuffer(joined.encode("ascii", "replace"), dtype=np.uint8)
    # the most characters the spans may list in all (each is listed, as EvmEval lists them): in proportion to
    # the size of the span fields, never to an offset; far more than any real file (9 bytes list 6 or so)
    limit = max(1 << 22, 16 * len(buf))
    cap = min(max(16, len(buf)), limit)
    while True:
        off, vals, lengths, bad = parse_char_spans(buf, n_flat, cap)
        if bad != FULL:
            break
        if cap == limit:
            _refuse_too_many_chars(tbf, doc_ids, per_doc, limit)
        cap = min(cap * 4, limit)
    if bad >= 0:
        flat = [r for rows in per_doc for r in rows]
        row = flat[bad]
        doc = next(d for d, rows in zip(doc_ids, per_doc) if row in rows)
        _chars(tbf, doc, row)  # raises the clear error
        raise InputError(f"{tbf.path}:{tbf.lines[row]}: span {tbf.spans[row]!r} refused by the span kernel and "
                         "read by EvmEval's reading: please report this as a fastscore bug")
    return _doc_sides(tbf, per_doc, (off, vals, lengths), opts), (off, vals, lengths)


def _doc_sides(tbf: TbfFile, per_doc: list, csr: tuple, opts: Options) -> list[DocMentions]:
    """Each document's side from the CSR (offsets, ids, lengths) of all their mentions, one document after
    another (views of it)."""
    off, vals, lengths = csr
    types, realis = _canonical_columns(tbf, opts)
    sizes = np.fromiter(map(len, per_doc), np.int64, len(per_doc))
    mention_off = offsets(sizes)
    # each document's offsets from 0, one more than its mentions, one document after another
    doc_of = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes + 1)
    local = off[np.arange(len(doc_of), dtype=np.int64) - doc_of] - off[mention_off[doc_of]]
    m_off, t_off = mention_off.tolist(), off.tolist()
    sides = []
    for i, rows in enumerate(per_doc):
        a, b = m_off[i], m_off[i + 1]
        sides.append(DocMentions(tbf, rows, vals[t_off[a]:t_off[b]], local[a + i:b + i + 1], lengths[a:b],
                                 _pick(types, rows), _pick(realis, rows)))
    return sides


def _refuse_too_many_chars(tbf: TbfFile, doc_ids: list[str], per_doc: list, limit: int):
    """The ParseError for spans that list more than ``limit`` characters in all, at the mention listing most."""
    from ..kernels.tbf_scan import MAX_MENTION_CHARS

    def listed(row: int) -> int:
        try:
            return sum(max(e - b, 0) for b, e in _py2_ranges(tbf.spans[row]))
        except ValueError:  # a malformed span after those that fill the limit
            return 0

    doc, row = max(((d, r) for d, rows in zip(doc_ids, per_doc) for r in rows), key=lambda dr: listed(dr[1]))
    raise ParseError(tbf.path, tbf.lines[row], f"bad character span {tbf.spans[row]!r} of mention "
                                               f"{tbf.ids[row]!r}: the file's spans cover more than {limit} "
                                               f"characters in all, more than fastscore reads for a file of this size "
                                               f"(this mention covers {listed(row)}; at most {MAX_MENTION_CHARS} "
                                               "each, far fewer in real files)", doc)


def _chars(tbf: TbfFile, doc_id: str, row: int) -> list[int]:
    """The characters of a mention's span (as EvmEval lists them), or a ParseError: also for an offset that is
    negative or of more than ``MAX_DIGITS`` digits (the kernels' int64), and for a mention listing more than
    ``MAX_MENTION_CHARS`` characters (they are listed one by one: a span ``4,200000000`` would take gigabytes).
    ``kernels/tbf_scan.parse_char_spans`` refuses exactly these spans (this function then names the problem)."""
    from ..kernels.tbf_scan import MAX_DIGITS, MAX_MENTION_CHARS

    span = tbf.spans[row]
    chars: list[int] = []

    def refuse(problem: str):
        return ParseError(tbf.path, tbf.lines[row], f"bad character span {span!r} of mention {tbf.ids[row]!r}: "
                                                    + problem, doc_id)

    for part in span.split(";"):
        bounds = part.split(",")
        if any(len(x) > 4000 for x in bounds[:2]):  # int() refuses more than 4,300 digits (a ValueError)
            raise refuse(f"an offset of {max(map(len, bounds[:2]))} characters is too large (at most "
                         f"{MAX_DIGITS} digits)")
        try:
            b, e = py2_int(bounds[0]), py2_int(bounds[1])
        except (ValueError, IndexError):
            raise refuse("expected 'begin,end' ranges separated by ';' (or pass --tokens for token ids)") from None
        for x in (b, e):
            if x < 0:
                raise refuse(f"offset {x} is negative (character offsets count from 0)")
            if x >= 10 ** MAX_DIGITS:
                raise refuse(f"offset {x} is too large (at most {MAX_DIGITS} digits)")
        if len(chars) + max(e - b, 0) > MAX_MENTION_CHARS:
            raise refuse(f"it covers more than {MAX_MENTION_CHARS} characters, more than fastscore reads for one "
                         "mention (an event nugget is a word or a phrase)")
        chars.extend(range(b, e))
    return chars


def _corefs(tbf: TbfFile, doc: TbfDocument, clusters: list[Relation], rows, opts: Options, same_span: list[str],
            undefined: list[str], valid: bool = False):
    """The document's ``@Coreference`` clusters, filtered by the whitelist as EvmEval does, then validated (spec
    4.4) as EvmEval validates them, unless ``valid`` (:func:`_valid_clusters` found they pass).  Members naming no
    mention are kept (EvmEval's checks see them; every later step passes over them), collected in ``undefined``;
    two mentions of a cluster with the same span (the same tokens or characters, however written) break the
    specification, but EvmEval scores them: collected in ``same_span`` (each list makes one warning)."""
    if opts.whitelist is not None:  # EvmEval drops clusters left with one mention
        remaining = {tbf.ids[r] for r in rows}
        clusters = [Relation(r.name, r.id, args, r.line) for r in clusters
                    if len(args := [a for a in r.args if a in remaining]) > 1]
    if not valid:
        _check_clusters(tbf, doc, clusters, opts, same_span, undefined)
    return clusters


def _check_clusters(tbf: TbfFile, doc: TbfDocument, clusters: list[Relation], opts: Options,
                    same_span: list[str], undefined: list[str]) -> None:
    """EvmEval's coreference check: with --coref, no id (defined or not) in two clusters (an error, as
    EvmEval stops); without it EvmEval checks nothing (event sequencing reads such clusters as it does)."""
    path = tbf.path
    defined = {tbf.ids[r]: r for r in doc.rows}
    owner: dict[str, Relation] = {}
    for r in clusters:
        spans: dict[object, str] = {}
        for a in r.args:
            if opts.coref and a in owner and owner[a] is not r:
                raise ParseError(path, r.line, f"mention {a!r} is in clusters {owner[a].id!r} (line "
                                               f"{owner[a].line}) and {r.id!r}: resolve the transitive closure "
                                               "(merge the clusters)", doc.id)
            owner[a] = r
            if a not in defined:
                undefined.append(f'{path}:{r.line}: document "{shown(doc.id)}": cluster {r.id!r} names mention {a!r}')
                continue
            span = tbf.spans[defined[a]]
            key = _span_set(span, opts.token_mode)
            other = spans.get(key)
            if other is not None and other != a:
                written = tbf.spans[defined[other]]
                same = repr(span) if written == span else f"({written!r} and {span!r})"
                same_span.append(f"{path}:{r.line}: document \"{shown(doc.id)}\": cluster {r.id!r} has mentions "
                                 f"{other!r} and {a!r} with the same span {same}")
            spans[key] = a


def _members(tbf: TbfFile, docs: list[TbfDocument | None]) -> Members:
    """The @Coreference members of ``docs`` (None: a document the file lacks), their mention rows found
    at once for the file (ids as codes, (document, id code) keys of every scored row sorted), and which
    documents use a mention id twice."""
    per_doc = [doc.coreference() if doc is not None else [] for doc in docs]
    clusters = [(i, c, r.args) for i, relations in enumerate(per_doc) for c, r in enumerate(relations)]
    doc_of, index, arg_lists = zip(*clusters) if clusters else ((), (), ())
    sizes = np.fromiter(map(len, arg_lists), np.int64, len(clusters))
    doc = np.repeat(np.asarray(doc_of, dtype=np.int64), sizes)
    cluster = np.repeat(np.asarray(index, dtype=np.int64), sizes)
    serial = np.repeat(np.arange(len(clusters), dtype=np.int64), sizes)
    doc_start = np.fromiter((d.start if d is not None else 0 for d in docs), np.int64, len(docs))
    n_rows = np.fromiter((d.end - d.start if d is not None else 0 for d in docs), np.int64, len(docs))
    id_code, distinct = tbf.id_codes if tbf.id_codes is not None else _intern(tbf.ids)  # the byte scan's, else
    n_codes = len(distinct) + 1
    # every scored row, document by document
    row_doc = np.repeat(np.arange(len(docs), dtype=np.int64), n_rows)
    rows = np.repeat(doc_start - offsets(n_rows)[:-1], n_rows) + np.arange(len(row_doc), dtype=np.int64)
    keys = row_doc * n_codes + id_code[rows]
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    duplicate_ids = np.zeros(len(docs), dtype=bool)
    duplicate_ids[row_doc[order[1:][keys[1:] == keys[:-1]]]] = True
    row = np.full(len(doc), -1, dtype=np.int64)
    if clusters and len(keys):
        code = {v: k for k, v in enumerate(distinct)}
        args = list(chain.from_iterable(arg_lists))
        arg_code = np.fromiter(map(code.get, args, repeat(-1)), np.int64, len(args))
        wanted = doc * n_codes + arg_code
        at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
        found = (arg_code >= 0) & (keys[at] == wanted)
        row[found] = rows[order[at[found]]]  # the first of a document's mentions with the id
    return Members(doc, cluster, serial, row, doc_start, duplicate_ids, per_doc)


def _valid_clusters(tbf: TbfFile, members: Members, span_keys=None) -> list[bool]:
    """Per scored document, whether its coreference clusters certainly pass :func:`_check_clusters`
    without an error or a warning: mention ids unique, every member defined, no mention in two clusters,
    every member's span plain ``b,e;b,e`` digits and no two members of a cluster with the same span hash
    (kernels/tbf_scan.py ``span_keys``; token ids: ``span_keys`` given, from :meth:`TokenSpans.span_keys`).
    All at once for the file; the other documents are checked one by one (the messages)."""
    from ..kernels.tbf_scan import span_keys as char_span_keys

    valid = ~members.duplicate_ids
    if not len(members.row):
        return valid.tolist()
    row, cluster, doc_of = members.row, members.serial, members.doc
    defined = row >= 0
    valid[doc_of[~defined]] = False  # undefined members
    row, cluster, doc_of = row[defined], cluster[defined], doc_of[defined]
    if span_keys is None:  # character spans
        buf = np.frombuffer("\n".join(tbf.spans).encode("utf-8"), dtype=np.uint8)
        keys, ok = char_span_keys(buf, len(tbf.spans))
    else:  # token ids: TokenSpans.span_keys
        keys, ok = span_keys
    valid[doc_of[~ok[row]]] = False  # spans _span_set reads in Python
    # a mention in two clusters
    order = np.lexsort((cluster, row))
    r, c = row[order], cluster[order]
    twice = (r[1:] == r[:-1]) & (c[1:] != c[:-1])
    valid[doc_of[order[1:][twice]]] = False
    # two mentions of a cluster with the same span (hash)
    key = keys[row]
    order = np.lexsort((row, key, cluster))
    r, c, k = row[order], cluster[order], key[order]
    same = (c[1:] == c[:-1]) & (k[1:] == k[:-1]) & (r[1:] != r[:-1])
    valid[doc_of[order[1:][same]]] = False
    return valid.tolist()


_PY2_INT = re.compile(r"[ \t\n\r\x0b\x0c]*[+-]?[0-9]+[ \t\n\r\x0b\x0c]*")


def py2_int(text: str) -> int:
    """``text`` read as Python 2's ``int()`` reads EvmEval's byte strings: ASCII digits with a sign and ASCII
    white space around them, nothing else (Python 3 also takes ``4_0``, other scripts' digits and Unicode white
    space); a ValueError otherwise."""
    if not _PY2_INT.fullmatch(text):
        raise ValueError(text)
    return int(text)


def _py2_ranges(span: str) -> list[tuple[int, int]]:
    """The ``b,e`` ranges of a character span as EvmEval reads them (:func:`py2_int`); a ValueError if malformed."""
    return [(py2_int(b), py2_int(e)) for b, e in (part.split(",") for part in span.split(";"))]


def _span_set(span: str, token_mode: bool):
    """A key equal for two spans exactly when they cover the same tokens or characters: the token set, or
    the character ranges sorted and merged (a malformed character span: its text; scoring reports it)."""
    if token_mode:
        return frozenset(span.split(","))
    try:
        ranges = sorted(_py2_ranges(span))
    except ValueError:
        return span
    merged: list[list[int]] = []
    for b, e in ranges:
        if b >= e:
            continue  # an empty range covers nothing
        if merged and b <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([b, e])
    return tuple(map(tuple, merged))


@dataclass
class Aligned:
    """Kernel results: TP per document and mapping; per gold mention and mapping the system mention."""

    tp: np.ndarray  # (n_docs, 4)
    n_gold: np.ndarray
    n_sys: np.ndarray
    map_sys: list[np.ndarray]  # per document (4, n_gold) document-local system index, -1 none
    map_score: list[np.ndarray]


def align(prep: Prepared, opts: Options) -> Aligned:
    """Run the mapping kernel (EvmEval's greedy mappings, or the optimal ones) over all documents."""
    from ..kernels import nugget

    type_codes: dict[str, int] = {}
    realis_codes: dict[str, int] = {}
    na = opts.preset.canonical(NOT_ANNOTATED)

    def arrays(role: str, csr):
        sides = getattr(prep, role)
        doc_off = offsets([len(x) for x in sides])
        if csr is not None:  # character mode: already one CSR over all scored mentions
            off, vals, lens = csr
        else:
            vals = [np.asarray(x.ids, dtype=np.int64) for x in sides]
            base = offsets([len(v) for v in vals])
            off = np.concatenate([[0]] + [np.asarray(x.offsets[1:], dtype=np.int64) + b for x, b in zip(sides, base)])
            lens = np.concatenate([[]] + [np.asarray(x.lengths, dtype=np.float64) for x in sides])
            vals = np.concatenate([np.zeros(0, np.int64)] + vals)
        typ, rea = (_label_codes(prep, role, column, codes, opts) for column, codes in
                    (("types", type_codes), ("realis", realis_codes)))
        typ_any = typ == type_codes.get(na, -1)
        rea_any = rea == realis_codes.get(na, -1)
        return doc_off, off.astype(np.int64), vals, lens, typ, rea, typ_any, rea_any

    g = arrays("gold", prep.csr.get("gold"))
    s = arrays("system", prep.csr.get("system"))
    tp, map_sys, map_score = nugget.mappings(*g, *s[:6], optimal=opts.mapping == "optimal")
    split = g[0]
    ms = [map_sys[:, split[d]:split[d + 1]] for d in range(len(prep.doc_ids))]
    sc = [map_score[:, split[d]:split[d + 1]] for d in range(len(prep.doc_ids))]
    return Aligned(tp, np.diff(g[0]), np.diff(s[0]), ms, sc)


def _label_codes(prep: Prepared, role: str, column: str, codes: dict[str, int], opts: Options) -> np.ndarray:
    """The code of every mention's canonical type (``column="types"``) or realis, all sides one after another;
    new labels get codes in sorted order (not in hashing order)."""
    labels, label = mention_labels(prep, role, column, opts)
    for v in sorted({labels[k] for k in np.unique(label).tolist()}):  # few distinct labels
        codes.setdefault(v, len(codes))
    return np.asarray([codes.get(v, -1) for v in labels], dtype=np.int64)[label] if labels else label


def scored_rows(prep: Prepared, role: str) -> tuple[TbfFile, np.ndarray] | None:
    """(the file, its rows of every scored mention, document after document) of a role's sides, or None where
    the sides are not all of one file; computed once."""
    if role not in prep.file_rows:
        sides = getattr(prep, role)
        tbf = sides[0].file if sides else None
        one_file = tbf is not None and all(x.file is tbf for x in sides)
        prep.file_rows[role] = (tbf, row_positions([x.rows for x in sides])) if one_file else None
    return prep.file_rows[role]


def mention_labels(prep: Prepared, role: str, column: str, opts: Options, raw: bool = False) -> tuple[list, np.ndarray]:
    """Every mention's canonical type (``column="types"``; ``raw``: the type as written) or realis, the role's
    sides one after another, as (distinct labels, an index into them per mention).  From the byte scan's
    interning of the file's column when every side is of that file (each distinct value normalised once),
    else from the sides' lists."""
    sides = getattr(prep, role)
    rows = scored_rows(prep, role)
    interned = None if rows is None else rows[0].type_codes if column == "types" else rows[0].realis_codes
    if interned is not None:
        row_code, distinct = interned
        values = distinct if raw else [opts.preset.canonical(v) for v in distinct]  # two may normalise alike
        row_code = row_code[rows[1]]
    elif raw:
        values = [x.file.types[r] for x in sides for r in x.rows]
        row_code = np.arange(len(values), dtype=np.int64)
    else:
        values = list(chain.from_iterable(getattr(x, column) for x in sides))
        row_code = np.arange(len(values), dtype=np.int64)
    codes, labels = _intern(values)
    return labels, codes[row_code] if labels else np.zeros(len(row_code), dtype=np.int64)


def _intern(values: list) -> tuple[np.ndarray, list]:
    """(a code per value, the distinct values in order of first appearance)."""
    index = {v: k for k, v in enumerate(dict.fromkeys(values))}
    return np.fromiter(map(index.__getitem__, values), np.int64, len(values)), list(index)


def coref_tables(prep: Prepared, al: Aligned, opts: Options) -> tuple[MentionTable, MentionTable]:
    """EvmEval's conversion for the CoNLL scorer: one position per gold mention (the system mention
    aligned to it when its Dice reaches the threshold), then one per unaligned system mention;
    mentions outside every cluster become singletons.  Built for all documents at once."""
    m = COREF_MAPPINGS[opts.coref_mapping]
    n_docs = len(prep.doc_ids)
    n_gold = np.asarray([len(x) for x in prep.gold], dtype=np.int64)
    n_sys = np.asarray([len(x) for x in prep.system], dtype=np.int64)
    gold_doc = np.repeat(np.arange(n_docs), n_gold)
    sys_doc = np.repeat(np.arange(n_docs), n_sys)
    gold_pos = np.arange(len(gold_doc)) - offsets(n_gold)[gold_doc]
    sys_base = offsets(n_sys)
    g_lab = _labels(prep.gold, prep.gold_corefs, gold_doc, _found_members(prep, "gold", opts))
    s_lab = _labels(prep.system, prep.system_corefs, sys_doc, _found_members(prep, "system", opts))
    j = np.concatenate([x[m] for x in al.map_sys]) if n_docs else np.zeros(0, np.int64)
    score = np.concatenate([x[m] for x in al.map_score]) if n_docs else np.zeros(0)
    aligned = (j >= 0) & (score >= opts.coref_threshold)
    aligned_sys = j[aligned] + sys_base[gold_doc[aligned]]
    extra = np.ones(len(sys_doc), dtype=bool)
    extra[aligned_sys] = False
    extra_doc = sys_doc[extra]
    n_extra = np.bincount(extra_doc, minlength=n_docs)
    extra_rank = np.arange(len(extra_doc)) - offsets(n_extra)[extra_doc]
    tokens = n_gold + n_extra
    r_doc, r_pos = np.concatenate([gold_doc[aligned], extra_doc]), np.concatenate([gold_pos[aligned],
                                                                                    n_gold[extra_doc] + extra_rank])
    r_lab = np.concatenate([s_lab[aligned_sys], s_lab[extra]])
    ended = _ended_early(prep, opts)
    if ended is not None:  # v8.01 reads none of these documents' lines: no mention on either side
        tokens[ended] = 0
        g_keep, r_keep = ~ended[gold_doc], ~ended[r_doc]
        gold_doc, gold_pos, g_lab = gold_doc[g_keep], gold_pos[g_keep], g_lab[g_keep]
        r_doc, r_pos, r_lab = r_doc[r_keep], r_pos[r_keep], r_lab[r_keep]
    key = _one_token_table(prep.doc_ids, tokens, gold_doc, gold_pos, g_lab, "gold")
    resp = _one_token_table(prep.doc_ids, tokens, r_doc, r_pos, r_lab, "system")
    return key, resp


_V801_END = re.compile(r"#[ \t\r\x0b\x0c]*end document")  # v8.01's end test (CorScorer.pm), not anchored


def _ended_early(prep: Prepared, opts: Options) -> np.ndarray | None:
    """The documents whose id holds ``#end document``: EvmEval writes the id first on every line of the CoNLL
    files it gives v8.01, whose unanchored end test ends the document at its first line, so v8.01 scores it
    without mentions (warned; ``--fix-evmeval-quirks`` scores them).  None when there is none."""
    ended = [_V801_END.search(d) is not None for d in prep.doc_ids]
    if not any(ended):
        return None
    first = prep.doc_ids[ended.index(True)]
    more = f" (and {sum(ended) - 1} more)" if sum(ended) > 1 else ""
    if opts.fix_evmeval_quirks:
        return None
    prep.warnings.append(f'document "{shown(first)}"{more}: its id holds "#end document", which ends the document '
                         "at its first line for v8.01, the CoNLL scorer EvmEval runs (its end test "
                         "/\\#\\s*end document/ is not anchored): its coreference is scored without mentions, as "
                         "EvmEval scores it (--fix-evmeval-quirks scores them)")
    return np.asarray(ended)


def _found_members(prep: Prepared, role: str, opts: Options) -> Members | None:
    """The members found at once for the file, when they hold for the scored clusters: without a whitelist
    (then the clusters are the files') and with every mention id unique (a member then names one row)."""
    members = prep.members.get(role)
    if members is None or opts.whitelist is not None or members.duplicate_ids.any():
        return None
    return members


def _labels(sides: list[DocMentions], clusters: list[list[Relation]], doc_of: np.ndarray,
            members: Members | None = None) -> np.ndarray:
    """Cluster number of every mention of every document: its first cluster, else a new singleton number
    (after the document's clusters, in mention order).  A cluster naming an id two mentions use takes both
    (EvmEval looks each mention's id up in the clusters).  ``members``: the clusters' members found already
    (:func:`_members`; the sides hold every mention of their documents)."""
    n = len(doc_of)
    if members is not None:
        known = members.row >= 0
        pos = (offsets([len(x) for x in sides])[members.doc] + members.row - members.doc_start[members.doc])[known]
        member_cluster = members.cluster[known]
    else:
        positions: list[int] = []  # of every cluster member among all mentions (a member no mention has: none)
        found: list[int] = []
        base = 0
        for side, rels in zip(sides, clusters):
            if rels:
                where: dict[str, list[int]] = {}  # a mention id used twice names both mentions (as EvmEval)
                for k, mid in enumerate(side.mention_ids, base):
                    where.setdefault(mid, []).append(k)
                for c, r in enumerate(rels):
                    at = [k for a in r.args for k in where.get(a, ())]
                    positions.extend(at)
                    found.extend([c] * len(at))
            base += len(side)
        pos = np.asarray(positions, dtype=np.int64)
        member_cluster = np.asarray(found, dtype=np.int64)
    none = np.iinfo(np.int64).max
    lab = np.full(n, none, dtype=np.int64)
    np.minimum.at(lab, pos, member_cluster)  # its first cluster
    lab[lab == none] = -1
    alone = lab < 0
    n_clusters = np.asarray([len(r) for r in clusters], dtype=np.int64)
    rank = np.cumsum(alone) - 1
    first = offsets(np.bincount(doc_of[alone], minlength=len(sides)))
    lab[alone] = n_clusters[doc_of[alone]] + rank[alone] - first[doc_of[alone]]
    return lab


def _one_token_table(names, tokens, doc, pos, lab, path) -> MentionTable:
    """One-token mentions at (doc, pos) with cluster labels; chains numbered by first position (v8.01)."""
    # stable sorts of one int64 key each: as np.lexsort((pos, doc)), several times faster
    order = np.argsort(doc * (np.int64(pos.max()) + 1 if len(pos) else 1) + pos, kind="stable")
    doc, pos, lab = doc[order], pos[order], lab[order]
    key = doc * (np.int64(lab.max()) + 1 if len(lab) else 1) + lab
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    by_first = np.argsort(first, kind="stable")  # labels in order of first appearance (doc-major)
    rank = np.empty(len(first), dtype=np.int64)
    rank[by_first] = np.arange(len(first))
    label_doc = doc[first[by_first]]
    n_chains = np.bincount(label_doc, minlength=len(names))
    chain_start = offsets(n_chains)
    chain = rank[inverse] - chain_start[doc]
    # (doc, chain, pos): stable on rows already by (doc, pos)
    rows = np.argsort(doc * (np.int64(chain.max()) + 1 if len(chain) else 1) + chain, kind="stable")
    sizes = np.bincount(doc, minlength=len(names))
    return MentionTable(
        path=path, doc_names=list(names), doc_lines=np.zeros(len(names), dtype=np.int64), doc_tokens=tokens,
        doc_offsets=offsets(sizes),
        start=pos[rows].astype(np.int32), end=(pos[rows] + 1).astype(np.int32),
        cluster=chain[rows].astype(np.int32), cluster_labels=[_numbers(int(n)) for n in n_chains])
