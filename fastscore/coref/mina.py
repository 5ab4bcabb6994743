"""MINA: coreference scored by minimum spans, as coval (ns-moosavi/coval, ``min_span``) scores it.

The key file's parse bits give every mention of key and response a tree built over the mention's own
tokens; its minimum span is the set of the shallowest valid terminals (``kernels/mina.py``).  Mentions
are then known by (document, sentence, minimum span): two mentions with the same minimum span are the
same mention, on either side, and coval's evaluator scores clusters that may hold it twice
(``engine.coval_statistics``).  coval's ``NP_only`` (mentions whose tree is a VP dropped) and ``remove_nested``
(mentions nested in a mention of their cluster dropped) are applied in its order, after the singletons:
they also work with exact spans (``--match exact --np-only``), which then are scored the way coval scores
them.

``variant="coval"`` reproduces coval's numbers; ``variant="paper"`` follows the paper's definition
instead (docs/mina.md): prepositions may be minimum spans, terminals are known by their tokens, and
punctuation is never a terminal.
"""
from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, replace

import numpy as np

from ..errors import InputError, ParseError, UsageError
from ..formats.conll import TokenColumns, read_conll_columns
from ..formats.files import read_bytes_and_bom
from ..formats.table import MentionTable, offsets
from .choices import MINA_VARIANTS
from .metrics import COVAL_METRICS
from ..messages import shown
from ..stats.docstats import DocStats
from .engine import Aligned, align_documents, check_documents, coval_statistics, distinct_blanc

_SKIPPED_POS = {"coval": (b"CC", b"DT", b"IN"), "paper": (b"CC", b"DT")}
_CLASSES = {"NP": 1, "NM": 2, "QP": 3, "NX": 4, "VP": 5}  # kernels.mina's phrase classes
WORD, POS, PARSE = 3, 4, 5  # field numbers


@dataclass
class Options:
    min_span: bool  # False: exact spans (with --np-only or --remove-nested)
    variant: str = "coval"
    keep_singletons: bool = True
    np_only: bool = False
    remove_nested: bool = False
    fix_coval_quirks: bool = False  # fields split at ASCII blanks only, not at U+00A0 and the like as coval does


def score_mina(key, response, options: Options, doc: str | None = None) -> tuple[DocStats, Aligned, list[str]]:
    """Per-document statistics of ``response`` against ``key`` (CoNLL-2012 paths, or what
    ``read_conll_columns`` read), coval's way."""
    a, key_side, resp_side, warnings = prepare_sides(key, response, options, doc)
    return _statistics(a, key_side, resp_side), a, warnings


def prepare_sides(key, response, options: Options,
                  doc: str | None = None) -> tuple[Aligned, "_Side", "_Side", list[str]]:
    """Both sides as coval scores them: what survives singletons, NP_only and remove_nested (``alive``) and each
    mention's identity (``ident``: its minimum span, or its exact span), shared by key and response mentions that
    are one mention.  (``fastscore explain`` reads its matching from here.)"""
    if options.variant not in MINA_VARIANTS:
        raise UsageError(f"--mina-variant must be one of {', '.join(MINA_VARIANTS)}, not {options.variant!r}")
    bom_notes: list[str] = []
    k_table, k_tok = _read(key, bom=(bom_notes, True, options.fix_coval_quirks))
    r_table, r_tok = _read(response, fields=False, bom=(bom_notes, False, options.fix_coval_quirks))
    # (the response's words of a few tokens are read from their lines)
    needs_tree = options.min_span or options.np_only
    blanks = []
    if needs_tree:  # (only trees and the fallback's words read the word, POS and parse columns)
        k_tok, blank = _split_as_coval(k_tok, k_table, options.fix_coval_quirks)
        r_tok, r_blank = _split_as_coval(r_tok, r_table, options.fix_coval_quirks)
        blanks = blank + (r_blank if options.min_span else [])
    parse_warnings = _check_parse(k_tok, k_table) if needs_tree else []
    warnings = [*bom_notes, *k_table.warnings, *r_table.warnings, *_lone_cr(k_tok, k_table), *_lone_cr(r_tok, r_table),
                *blanks, *parse_warnings,
                *check_documents(k_table, r_table, doc)]
    a = align_documents(k_table, r_table, doc)
    _check_sentences(a, k_table, k_tok, r_table, r_tok)
    key_side = _Side(a, k_table, k_tok, True)
    resp_side = _Side(a, r_table, r_tok, False)
    for side in (key_side, resp_side):
        side.check_sentences()
        if not options.keep_singletons:
            side.drop_singletons()
    if needs_tree:
        root_vp = _min_spans(options, k_tok, r_tok, key_side, resp_side)
        n_k = len(key_side.rows)
        if options.np_only:
            key_side.drop_verbal(root_vp[:n_k])
            resp_side.drop_verbal(root_vp[n_k:])
    if not options.min_span:
        _span_identities(key_side, resp_side)
    if options.remove_nested:
        for side in (key_side, resp_side):
            side.remove_nested(options.keep_singletons)
    return a, key_side, resp_side, warnings


def _min_spans(options: Options, k_tok: TokenColumns, r_tok: TokenColumns, key: _Side, resp: _Side) -> np.ndarray:
    """Set both sides' identities to their minimum spans (with ``options.min_span``); returns, per mention
    (key then response), whether its tree is a VP."""
    from ..kernels import mina as kernel

    variant = kernel.COVAL if options.variant == "coval" else kernel.PAPER
    words, k_words = _vocabulary(k_tok)
    n_key_tokens = len(k_tok.line)
    m_first = np.concatenate([key.tokens(key.doc0), resp.tokens(key.doc0)])  # on the key's tokens
    if variant == kernel.COVAL:  # the whole-span fallback takes each mention's own words
        m_own = np.concatenate([key.tokens(key.doc0), resp.tokens(resp.doc0) + n_key_tokens])
    else:
        m_own = m_first
    stars = kernel.star_counts(k_tok.buf, k_tok.field_start[:, PARSE], k_tok.field_end[:, PARSE])
    # a token whose bit has no '*' (a missing bit '-') gives coval's trees no word: a word id with no features
    tree_words = np.where(stars > 0, k_words, len(words))
    m_len = np.concatenate([key.length(), resp.length()])
    m_sent_pos = np.concatenate([key.sentence_position(), resp.sentence_position()])
    el_off, el_kind, el_a, el_b, el_index, root_vp, no_tree = kernel.min_spans(
        k_tok.buf, k_tok.field_start[:, PARSE], k_tok.field_end[:, PARSE], tree_words,
        _pos_bad(k_tok, options.variant), *_word_features(words, options.variant), m_first, m_len, m_sent_pos, m_own,
        variant)
    if options.min_span:
        where = [np.concatenate(pair) for pair in ((key.doc, resp.doc), (key.sentence(), resp.sentence()),
                                                    (key.start, resp.start), (key.end, resp.end))]
        if variant == kernel.COVAL:
            # a terminal is its words (the key's, one per '*' of its tokens' bits) and its index; a fallback's
            # word is the mention's own
            fallback_tokens = el_a[(el_kind == kernel.FALLBACK) & (el_a >= n_key_tokens)] - n_key_tokens
            own_words = np.concatenate([k_words, _response_words(words, r_tok, fallback_tokens,
                                                                 not options.fix_coval_quirks)])
            strings = kernel.element_strings(el_kind, el_a, el_b, k_words, stars, own_words)
            ident = kernel.mention_identities(el_off, strings, el_index, *where, no_tree, False)
        else:  # the paper: a minimum span is a set of tokens
            ident = kernel.mention_identities(el_off, el_a, el_b, *where, no_tree, True)
        key.ident = ident[:len(key.rows)]
        resp.ident = ident[len(key.rows):]
    return root_vp


def _read(source, fields: bool = True, bom: tuple | None = None) -> tuple[MentionTable, TokenColumns]:
    """The mention table and token columns of a file: a table read with them (``coref.score.read`` with the
    minimum-span options, as compare and sweep read) or a (table, token columns) pair is used as it is; a table
    read without them is read again from its file (``fields=False``: without the fields' bounds).  ``bom``:
    (notes, is_key, fix): a file read here that starts with a byte-order mark is read as coval reads it
    (``_coval_documents``), its note added to notes."""
    if isinstance(source, tuple) and len(source) == 2 and isinstance(source[1], TokenColumns):
        return source
    if isinstance(source, MentionTable) and source.tokens is not None:
        return source, source.tokens
    path = source.path if isinstance(source, MentionTable) else os.fspath(source)
    whole_files = ("minimum spans (--match mina, --np-only, --remove-nested) read the CoNLL-2012 files themselves: "
                   "give paths (one key file, one response file)")
    if path == "-" or not os.path.isfile(path):
        raise UsageError(whole_files + ("" if path == "-" else f" ({path} is not a file)"))
    data, had_bom = read_bytes_and_bom(path)
    if bom is not None:
        data = _coval_documents(path, data, had_bom, *bom)
    read = read_conll_columns(path, data=data, fields=fields)
    if isinstance(source, MentionTable) and read[0].doc_names != source.doc_names:
        raise UsageError(whole_files + f" (a table of part of {path}, as a batch of a large file, is not one)")
    return read


_BEGIN = b"#begin document"
_BEGIN_LIKE = re.compile(rb"(?mi)^[ \t]*#[ \t]*begin[ \t]+document[^\n]*")


def _coval_documents(path: str, data: bytes, had_bom: bool, notes: list[str], is_key: bool, fix: bool) -> bytes:
    """The documents coval reads, as it reads them: ``startswith("#begin document")`` on the line ``open()``
    gives, byte-order mark kept, and a name from the 17th character (none for a bare ``#begin document``).
    A key's document whose start coval does not see after a closed one (a mark before the first line, no name,
    ``#begin  document``, ``#BEGIN DOCUMENT``, an indented one) is left out, its lines blanked up to the next
    start coval sees (line numbers kept; its response document is then not scored), said; a response whose
    first start the mark hides makes coval fail (KeyError): read as written, said.  ``fix``: read as written."""
    odd = [m.start() for m in _BEGIN_LIKE.finditer(data)
           if not data.startswith(_BEGIN + b" ", m.start()) or data[m.start():m.end()].rstrip(b"\r") == _BEGIN]
    if had_bom and data.startswith(_BEGIN) and not is_key:
        notes.append(f"{path}:1: the file starts with a byte-order mark, which coval keeps: its first line is no "
                     "\"#begin document\" to coval, so coval fails on this response (KeyError on its first "
                     "document); fastscore reads the document")
    notes += _comment_lines(path, data)
    if not is_key or not (odd or had_bom and data.startswith(_BEGIN)):
        return data
    lines = data.split(b"\n")
    inside, skip, left_out = False, False, []
    for k, raw in enumerate(lines):
        line = raw[:-1] if raw.endswith(b"\r") else raw
        if k == 0 and had_bom:
            line = b"\xef\xbb\xbf" + line
        if line.startswith(_BEGIN):
            inside = line != _BEGIN
            skip = not inside
            if skip:
                left_out.append((k, "a bare \"#begin document\" (no name)"))
        elif line.startswith(b"#end document"):
            inside = False
        elif not inside and not skip and _BEGIN_LIKE.match(line.lstrip(b"\xef\xbb\xbf")):
            skip = True
            left_out.append((k, "a byte-order mark before its first line" if k == 0 and had_bom else
                             f"{line.decode('utf-8', 'replace')!r}, no \"#begin document\" to coval's startswith"))
        if skip:
            lines[k] = b"\r" if raw.endswith(b"\r") else b""
    if not left_out:
        return data
    k, why = left_out[0]
    where = (f"{path}:{k + 1}: coval leaves out {len(left_out)} document{'s' if len(left_out) > 1 else ''} of the key "
             f"(the first: {why})")
    if fix:
        notes.append(where + ": read here as written (--fix-coval-quirks)")
        return data
    kept = b"\n".join(lines)
    if _BEGIN_LIKE.search(kept) is None:
        raise InputError(f"{where}: coval reads no document of this key and scores nothing (0 everywhere); "
                         "--fix-coval-quirks reads it as written")
    notes.append(where + ", and the response's of the same names: scored without them, as coval does "
                 "(--fix-coval-quirks reads them as written)")
    return kept


_COMMENT = re.compile(rb"(?m)^#(?!begin document|end document)")


def _comment_lines(path: str, data: bytes) -> list[str]:
    """A ``#`` line inside a document is a token line to coval (``line.strip()`` is not empty), numbered in
    its sentence (or starting one after a blank line); fastscore's reader skips it: said, once per file."""
    found = [m.start() for m in _COMMENT.finditer(data)]
    if not found:
        return []
    begins = np.array([m.start() for m in re.finditer(rb"(?m)^#begin document", data)] or [-1])
    ends = np.array([m.start() for m in re.finditer(rb"(?m)^#end document", data)] or [-1])
    at = np.array(found)
    last_begin = begins[np.maximum(np.searchsorted(begins, at) - 1, 0)]
    last_end = ends[np.maximum(np.searchsorted(ends, at) - 1, 0)]
    inside = at[(last_begin >= 0) & (last_begin < at) & ((last_end < last_begin) | (last_end > at))]
    if not len(inside):
        return []
    line = data.count(b"\n", 0, int(inside[0])) + 1
    n = len(inside)
    return [f"{path}:{line}: a '#' line inside a document ({n} such line{'s' if n > 1 else ''} in the file): coval "
            "reads it as a token of its sentence, so where a mention spans it or key and response differ there its "
            "figures differ from these (or it fails); fastscore's reader skips it"]


# ---- checks


def _check_parse(tok: TokenColumns, table: MentionTable) -> list[str]:
    """Every key token has a 6th column; the first one is a parse bit (coval's scorer.py runs a parser over
    a key whose first bit is '-').  Bits that are not a sentence's tree (missing bits, brackets that do not
    balance inside a sentence) are read as coval reads them, each mention's tree from its own tokens: one
    warning names the first place and counts the sentences."""
    from ..kernels import mina as kernel

    short = np.flatnonzero(tok.n_fields < 7)
    if len(short):
        t = int(short[0])
        raise ParseError(tok.path, int(tok.line[t]) + 1,
                         f"{int(tok.n_fields[t])} columns: minimum spans need the parse bits of the key's 6th "
                         "column (CoNLL-2012: document, part, number, word, POS, parse bit, ..., coreference)",
                         _doc_name(tok, table, t))
    if len(tok.line) and tok.field(0, PARSE) == "-":
        raise ParseError(tok.path, int(tok.line[0]) + 1,
                         "the key has no parse bits ('-' in its 6th column): minimum spans need a parse tree "
                         "(coval's scorer.py would parse the key with the Stanford parser)", _doc_name(tok, table, 0))
    bad, why, n_bad = kernel.check_parse_bits(tok.buf, tok.field_start[:, PARSE], tok.field_end[:, PARSE],
                                              tok.position == 0)
    if bad < 0:
        return []
    t = int(bad)
    bit = tok.field(t, PARSE)
    problem = (f"parse bit {bit!r} closes a bracket its sentence never opened" if why == 1 else
               f"the parse brackets of the sentence ending here do not balance (bit {bit!r})" if why == 2 else
               f"parse bit {bit!r} is not '(TAG'... '*' ')'...")
    return [f"{tok.path}:{int(tok.line[t]) + 1}: document \"{shown(_doc_name(tok, table, t))}\": {problem}; "
            f"{n_bad} sentence{'s' if n_bad > 1 else ''} of the key with such parse bits, read as coval reads "
            "them (each mention's tree from its own tokens' bits: closings of what opened before it ignored, "
            "what is open at its end closed)"]


def _doc_name(tok: TokenColumns, table: MentionTable, token: int) -> str:
    d = int(np.searchsorted(tok.doc_offsets, token, side="right") - 1)
    return table.doc_names[d]


def _check_sentences(a: Aligned, k_table: MentionTable, k_tok: TokenColumns, r_table: MentionTable,
                     r_tok: TokenColumns) -> None:
    """The response's sentences must be the key's (mentions are compared inside sentences)."""
    r_index = r_table.doc_index()
    k_index = k_table.doc_index()
    if _same_sentences(a.doc_names, k_index, k_tok, r_index, r_tok):
        return
    for name in a.doc_names:  # the first difference, told
        if name not in r_index:
            continue
        kd, rd = k_index[name], r_index[name]
        ks = k_tok.sentence[k_tok.doc_offsets[kd]:k_tok.doc_offsets[kd + 1]]
        rs = r_tok.sentence[r_tok.doc_offsets[rd]:r_tok.doc_offsets[rd + 1]]
        differ = np.flatnonzero(ks != rs)
        if len(differ):
            t = int(differ[0])
            raise InputError(
                f"{r_tok.path}:{int(r_tok.line[r_tok.doc_offsets[rd] + t]) + 1}: document \"{shown(name)}\": token "
                f"{t} is in sentence {int(rs[t]) + 1} of the response but in sentence {int(ks[t]) + 1} of the key "
                f"({k_tok.path}:{int(k_tok.line[k_tok.doc_offsets[kd] + t]) + 1}): the response must have the key's "
                "sentences (blank lines)")


def _same_sentences(names: list[str], k_index: dict, k_tok: TokenColumns, r_index: dict,
                    r_tok: TokenColumns) -> bool:
    """Whether every document of both files has the same tokens in the same sentences on both sides."""
    both = [(k_index[n], r_index[n]) for n in names if n in r_index and n in k_index]
    if not both:
        return True
    kd, rd = np.asarray(both, dtype=np.int64).T
    k_len = np.diff(k_tok.doc_offsets)[kd]
    if not np.array_equal(k_len, np.diff(r_tok.doc_offsets)[rd]):
        return False
    within = np.arange(int(k_len.sum())) - np.repeat(offsets(k_len)[:-1], k_len)  # token number in its document
    k_at = np.repeat(k_tok.doc_offsets[kd], k_len) + within
    r_at = np.repeat(r_tok.doc_offsets[rd], k_len) + within
    return bool(np.array_equal(k_tok.sentence[k_at], r_tok.sentence[r_at]))


# ---- words


def _vocabulary(k_tok: TokenColumns) -> tuple[list[str], np.ndarray]:
    """Distinct words of the key and each key token's word id."""
    from ..kernels import conll_scan

    fs, fe = k_tok.field_start[:, WORD], k_tok.field_end[:, WORD]
    ids, first = conll_scan.intern_fields(k_tok.buf, fs, fe)
    words = [k_tok.buf[a:b].tobytes().decode("utf-8") for a, b in zip(fs[first].tolist(), fe[first].tolist())]
    return words, ids


def _response_words(words: list[str], r_tok: TokenColumns, tokens: np.ndarray, as_coval: bool) -> np.ndarray:
    """Word ids of the response's ``tokens`` in the numbering of the key's ``words`` (a word the key lacks gets
    a new id); the other response tokens get -1.  (Only whole-span fallbacks read a response's words.)"""
    out = np.full(len(r_tok.line), -1, dtype=np.int64)
    ids = {w: i for i, w in enumerate(words)}
    for t in dict.fromkeys(tokens.tolist()):  # (a few hundred: no np.unique, whose first call is slow)
        out[t] = ids.setdefault(_word(r_tok, t, as_coval), len(ids))
    return out


def _word(tok: TokenColumns, t: int, as_coval: bool) -> str:
    """Token t's word, from the field bounds when they were read, else split from its line as they would be
    (``as_coval``: at every blank Python's str.split() splits at, as coval's ``line.split()``; else at ASCII
    blanks, as the scanner)."""
    if tok.field_start.shape[1] > WORD:
        return tok.field(t, WORD)
    line = tok.buf[tok.line_start[t]:tok.line_end[t]].tobytes()
    fields = line.decode("utf-8").split() if as_coval else [f.decode("utf-8") for f in line.split()]
    return fields[WORD] if len(fields) > WORD else ""


# ---- fields split as coval splits them

# what Python's str.split() (coval's ``line.split()``) splits at beside the ASCII blanks the scanner splits at:
# U+001C-U+001F, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000
_OTHER_BLANK = re.compile(r"(?![ \t\r\x0b\x0c])\s")
_FIELD = re.compile(r"\S+")


def _other_blank_tokens(tok: TokenColumns) -> np.ndarray:
    """The tokens whose line holds a blank of ``_OTHER_BLANK`` (their UTF-8 bytes found without decoding)."""
    buf = np.asarray(tok.buf, dtype=np.uint8)
    if tok.line_start is None or not len(tok.line) or not len(buf):
        return np.zeros(0, dtype=np.int64)
    b0 = buf
    b1 = np.append(buf[1:], np.uint8(0))
    b2 = np.append(buf[2:], np.zeros(min(2, len(buf)), dtype=np.uint8))
    hit = ((b0 >= 0x1C) & (b0 <= 0x1F)) | ((b0 == 0xC2) & ((b1 == 0x85) | (b1 == 0xA0)))
    hit |= (b0 == 0xE1) & (b1 == 0x9A) & (b2 == 0x80)
    hit |= (b0 == 0xE2) & (b1 == 0x80) & (((b2 >= 0x80) & (b2 <= 0x8A)) | (b2 == 0xA8) | (b2 == 0xA9) | (b2 == 0xAF))
    hit |= (b0 == 0xE2) & (b1 == 0x81) & (b2 == 0x9F)
    hit |= (b0 == 0xE3) & (b1 == 0x80) & (b2 == 0x80)
    return _token_lines_at(tok, np.flatnonzero(hit))


def _token_lines_at(tok: TokenColumns, at: np.ndarray) -> np.ndarray:
    """The tokens whose line holds one of the byte positions ``at`` (sorted, distinct)."""
    if not len(at) or tok.line_start is None or not len(tok.line):
        return np.zeros(0, dtype=np.int64)
    t = np.searchsorted(tok.line_start, at, side="right") - 1
    inside = (t >= 0) & (at < tok.line_end[np.maximum(t, 0)])
    return np.unique(t[inside]).astype(np.int64)


def _lone_cr(tok: TokenColumns, table: MentionTable) -> list[str]:
    """coval's ``open()`` (universal newlines) ends a line at a carriage return not followed by a line feed:
    a token line holding one is two lines to coval, which then numbers the tokens after it otherwise (or fails).
    fastscore reads it as a blank between fields, as the CoNLL-2012 reader does: said, once per file."""
    buf = np.asarray(tok.buf, dtype=np.uint8)
    lone = np.flatnonzero((buf == 13) & (np.append(buf[1:], np.uint8(10)) != 10))
    lines = _token_lines_at(tok, lone)
    if not len(lines):
        return []
    t, n = int(lines[0]), len(lines)
    return [f"{tok.path}:{int(tok.line[t]) + 1}: document \"{shown(_doc_name(tok, table, t))}\": a carriage return "
            f"inside the line ({n} line{'s' if n > 1 else ''} of the file): coval's open() ends a line there, so its "
            "tokens after it, and its figures, differ from these (or it fails); fastscore reads it as a blank"]


def _split_as_coval(tok: TokenColumns, table: MentionTable, fix: bool) -> tuple[TokenColumns, list[str]]:
    """coval reads a token line with ``line.split()``, which also splits at U+00A0, U+3000 and the other blanks of
    ``_OTHER_BLANK``: a word holding one becomes two fields, and the POS and parse columns shift on that line.
    Read so (the fields of those lines split again; a new TokenColumns, the given one may be shared), with one
    warning naming the first line; ``fix`` (``--fix-coval-quirks``): read as written, and the warning says so."""
    lines = _other_blank_tokens(tok)
    if not len(lines):
        return tok, []
    t = int(lines[0])
    text = tok.buf[tok.line_start[t]:tok.line_end[t]].tobytes().decode("utf-8")
    blank = _OTHER_BLANK.search(text).group()
    name = unicodedata.name(blank, "") or "a control character"
    for u in lines.tolist():  # a line of blanks only: an empty line (a sentence break) to coval, a token here
        only = tok.buf[tok.line_start[u]:tok.line_end[u]].tobytes().decode("utf-8")
        if not only.split():
            raise ParseError(tok.path, int(tok.line[u]) + 1,
                             f"the line holds only blanks ({', '.join(f'U+{ord(c):04X}' for c in dict.fromkeys(only))}): "
                             "coval's line.strip() reads it as an empty line (a sentence break), fastscore's reader "
                             "as a token: make it empty (a sentence break) or remove it", _doc_name(tok, table, u))
    n = len(lines)
    where = (f"{tok.path}:{int(tok.line[t]) + 1}: document \"{shown(_doc_name(tok, table, t))}\": a field holds "
             f"U+{ord(blank):04X} ({name}), a blank coval's line.split() splits at "
             f"({n} line{'s' if n > 1 else ''} of the file)")
    if fix:
        return tok, [where + ": read as written (--fix-coval-quirks), coval would shift its columns there"]
    fs, fe, count = tok.field_start.copy(), tok.field_end.copy(), tok.n_fields.copy()
    for t in lines.tolist():
        raw = tok.buf[tok.line_start[t]:tok.line_end[t]].tobytes()
        text = raw.decode("utf-8")
        fields = list(_FIELD.finditer(text))
        count[t] = len(fields)
        fs[t], fe[t] = 0, 0
        for k, f in enumerate(fields[:fs.shape[1]]):
            fs[t, k] = tok.line_start[t] + len(text[:f.start()].encode("utf-8"))
            fe[t, k] = tok.line_start[t] + len(text[:f.end()].encode("utf-8"))
    return replace(tok, field_start=fs, field_end=fe, n_fields=count), [
        where + ": read as coval reads it, its word, POS and parse columns shifted (--fix-coval-quirks reads it "
        "as written)"]


def _word_features(words: list[str], variant: str) -> tuple[np.ndarray, ...]:
    """word_ok, word_keep, word_cat, word_vp (see kernels.mina), computed with Python's str methods as
    coval does."""
    ok = np.fromiter(((any(c.isalpha() or c.isdigit() for c in w) or w == "%") and w not in ("-LRB-", "-RRB-")
                      for w in words), dtype=np.bool_, count=len(words))
    if variant == "coval":  # a run flushed by '(' survives if one of its words is all letters or all digits
        keep = np.fromiter((w.isalpha() or w.isdigit() for w in words), dtype=np.bool_, count=len(words))
    else:  # punctuation-only runs never make terminals
        keep = np.fromiter((any(c.isalpha() or c.isdigit() for c in w) for w in words), dtype=np.bool_,
                           count=len(words))
    cat = np.fromiter((_CLASSES.get(w[:2], 0) if len(w) >= 2 else 0 for w in words), dtype=np.int64,
                      count=len(words))
    vp = np.fromiter((w == "VP" for w in words), dtype=np.bool_, count=len(words))
    # and one more id, for tokens without a '*': no features
    return (np.append(ok, False), np.append(keep, False), np.append(cat, 0).astype(np.int64), np.append(vp, False))


def _pos_bad(tok: TokenColumns, variant: str) -> np.ndarray:
    """The tokens whose part of speech a minimum span skips."""
    from ..kernels import mina as kernel

    skipped = _SKIPPED_POS[variant]
    tags = np.frombuffer(b"".join(skipped), dtype=np.uint8)
    return kernel.fields_among(tok.buf, tok.field_start[:, POS], tok.field_end[:, POS], tags,
                               offsets([len(t) for t in skipped]))


# ---- one side's mentions


class _Side:
    """The mentions of the aligned documents of one file, with coval's cluster order and what pruning
    removes (``alive``)."""

    def __init__(self, a: Aligned, table: MentionTable, tok: TokenColumns, is_key: bool):
        self.table, self.tok = table, tok
        self.rows = a.k_rows if is_key else a.r_rows
        off = a.k_off if is_key else a.r_off
        self.doc = np.repeat(np.arange(len(a.doc_names)), np.diff(off))
        index = table.doc_index()
        table_doc = np.asarray([index.get(n, -1) for n in a.doc_names], dtype=np.int64)
        self.doc_name = [table.doc_names[d] if d >= 0 else "" for d in table_doc.tolist()]
        self.doc0 = np.where(table_doc >= 0, tok.doc_offsets[np.maximum(table_doc, 0)], 0)  # first token
        self.start = table.start[self.rows].astype(np.int64)
        self.end = table.end[self.rows].astype(np.int64)
        self.labels = [table.cluster_labels[d] if d >= 0 else [] for d in table_doc.tolist()]
        self.chain, self.n_chains = _completion_order(table.cluster[self.rows].astype(np.int64),
                                                      tok.completion[self.rows], off)
        self.alive = np.ones(len(self.rows), dtype=bool)
        self.ident = np.zeros(len(self.rows), dtype=np.int64)

    def tokens(self, doc0: np.ndarray) -> np.ndarray:
        """File token number of each mention's first token, given the first token of each document."""
        return doc0[self.doc] + self.start

    def length(self) -> np.ndarray:
        return self.end - self.start

    def sentence(self) -> np.ndarray:
        return self.tok.sentence[self.tokens(self.doc0)]

    def sentence_position(self) -> np.ndarray:
        return self.tok.position[self.tokens(self.doc0)]

    def check_sentences(self) -> None:
        """A mention lies inside one sentence."""
        t0 = self.tokens(self.doc0)
        across = np.flatnonzero(self.tok.sentence[t0] != self.tok.sentence[t0 + self.length() - 1])
        if len(across):
            m = int(across[0])
            label = self.labels[int(self.doc[m])][int(self.table.cluster[self.rows[m]])]
            raise ParseError(self.tok.path, int(self.tok.line[t0[m]]) + 1,
                             f"the mention of cluster {label} opened here (tokens {int(self.start[m])}-"
                             f"{int(self.end[m]) - 1}) crosses a sentence boundary: minimum spans are found inside "
                             "one sentence", self.doc_name[int(self.doc[m])])

    def global_chain(self) -> np.ndarray:
        return offsets(self.n_chains)[self.doc] + self.chain

    def chain_sizes(self) -> np.ndarray:
        """Mentions alive in each chain (chains numbered across documents)."""
        return np.bincount(self.global_chain()[self.alive], minlength=int(self.n_chains.sum()))

    def drop_singletons(self) -> None:
        self.alive &= self.chain_sizes()[self.global_chain()] > 1

    def drop_verbal(self, verbal: np.ndarray) -> None:
        """NP_only: mentions whose tree is a VP go; a cluster that lost one stays only if two remain."""
        g = self.global_chain()
        touched = np.zeros(int(self.n_chains.sum()), dtype=bool)
        touched[g[verbal & self.alive]] = True
        self.alive &= ~verbal
        small = touched & (self.chain_sizes() <= 1)
        self.alive &= ~small[g]

    def remove_nested(self, keep_singletons: bool) -> None:
        """coval's remove_nested: per cluster, every mention nested in another (not equal) one is listed;
        when that leaves one mention by count, the cluster is dropped without singletons and left whole
        with them; otherwise every mention equal to a listed one goes."""
        from ..kernels import mina as kernel

        g = self.global_chain()
        rows = np.flatnonzero(self.alive)
        order = rows[np.argsort(g[rows], kind="stable")]
        chain_off = offsets(np.bincount(g[order], minlength=int(self.n_chains.sum())))
        remove = kernel.nested_removals(chain_off, order, self.sentence(), self.start, self.end, self.ident,
                                        keep_singletons)
        self.alive &= ~remove


def _completion_order(raw_chain: np.ndarray, completion: np.ndarray, off: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Chains renumbered, per document, in the order their first mention is completed (coval's cluster
    order)."""
    from ..kernels import mina as kernel

    n_docs = len(off) - 1
    doc = np.repeat(np.arange(n_docs), np.diff(off))
    width = int(raw_chain.max()) + 1 if len(raw_chain) else 1
    uniq, inverse = np.unique(doc * width + raw_chain, return_inverse=True)  # chains present, by document
    first = kernel.first_completions(inverse.reshape(-1).astype(np.int64, copy=False),
                                   completion.astype(np.int64, copy=False), len(uniq))
    chain_doc = uniq // width
    order = np.lexsort((first, chain_doc))  # by document, then by first completion
    n_chains = np.bincount(chain_doc, minlength=n_docs).astype(np.int64)
    rank = np.empty(len(uniq), dtype=np.int64)
    rank[order] = np.arange(len(uniq)) - offsets(n_chains)[chain_doc[order]]
    return rank[inverse.reshape(-1)], n_chains


def _span_identities(key: _Side, resp: _Side) -> None:
    """Exact spans as identities: (document, start, end), shared by both sides."""
    doc, start, end = (np.concatenate([getattr(key, f), getattr(resp, f)]) for f in ("doc", "start", "end"))
    n_start, n_end = int(start.max(initial=0)) + 1, int(end.max(initial=0)) + 1
    if (int(doc.max(initial=0)) + 1) * n_start * n_end < 1 << 62:  # one integer per span, ordered as the triples
        _, ident = np.unique((doc.astype(np.int64) * n_start + start) * n_end + end, return_inverse=True)
    else:
        _, ident = np.unique(np.stack([doc, start, end], 1), axis=0, return_inverse=True)
    ident = ident.reshape(-1)
    key.ident = ident[:len(key.rows)]
    resp.ident = ident[len(key.rows):]


def _statistics(a: Aligned, key: _Side, resp: _Side) -> DocStats:
    n_docs = len(a.doc_names)
    k_rows = np.flatnonzero(key.alive)
    r_rows = np.flatnonzero(resp.alive)
    k_off = offsets(np.bincount(key.doc[k_rows], minlength=n_docs))
    r_off = offsets(np.bincount(resp.doc[r_rows], minlength=n_docs))
    sides = (k_off, key.ident[k_rows], key.chain[k_rows], key.n_chains, r_off, resp.ident[r_rows],
             resp.chain[r_rows], resp.n_chains)
    blocks = {**coval_statistics(*sides), "blanc": distinct_blanc(*sides)}  # BLANC over distinct minimum spans
    columns = {c: block[:, i] for m, block in blocks.items() for i, c in enumerate(COVAL_METRICS[m].columns)}
    stats = DocStats.from_columns(a.doc_names, columns, COVAL_METRICS)
    stats.in_file_order = True  # coval adds each document's numbers to running totals, in the key's order
    return stats
