"""The TBF reader (kernels/tbf_read.py behind fastscore.formats.tbf) and the vectorised coreference checks of
the nugget engine (``span_keys`` in kernels/tbf_scan.py): kernels against their pure-Python references
(tests/reference_tbf.py), the reader against the line-by-line reader of tests/reference_tbf_reader.py (the
same file, the same warnings, or the same error), the engine's fast checks against the one-by-one checks."""
from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from fastscore.kernels import tbf_read, tbf_scan
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fastscore.errors import ParseError
from fastscore.formats import tbf
from fastscore.nugget import engine
from fastscore.nugget.options import resolve_options
from tests import reference_tbf as ref
from tests import reference_tbf_reader as oracle
from tests.conftest import plain

BEGIN, END = np.frombuffer(b"#BeginOfDocument", np.uint8), np.frombuffer(b"#EndOfDocument", np.uint8)

# ---- random TBF text: mostly well-formed lines, with the irregular ones the scan hands back

_IDS = st.sampled_from(["E1", "E2", "E3", "E10", "em-7", "E1 "])
_SPANS = st.sampled_from(["12,18", "12,15;15,18", "3,4", "30,20;5,9", "12, 18", "7", "t1,t2", "0012,18", "", "5,9;"])
_TEXT = st.text(alphabet="ab é\u201c\t\r", max_size=6)
_WS_CHOICES = ["", " ", "\t", "\r", "\x0b", "\x1c", "\u00a0", "\u2003"]  # the last two: Unicode white space
_WS = st.integers(0, 120).map(lambda k: _WS_CHOICES[k] if k < len(_WS_CHOICES) else "")


def _rarely(draw, n: int = 30) -> bool:
    return draw(st.integers(0, n)) == 0


@st.composite
def _mention(draw):
    fields = ["sys", "D1", draw(_IDS), draw(_SPANS), draw(_TEXT), draw(st.sampled_from(["Life_Die", "Contact_Meet"])),
              draw(st.sampled_from(["Actual", "Generic", "Other"]))]
    fields += draw(st.lists(st.sampled_from(["0.5", "", "x"]), max_size=2))
    if _rarely(draw):
        fields = fields[:draw(st.integers(1, 6))]
    return draw(_WS) + "\t".join(fields) + draw(_WS)


@st.composite
def _relation(draw):
    name = draw(st.sampled_from(["Coreference", "After", "Subevent", "Other"]))
    args = ",".join(draw(st.lists(_IDS, min_size=1 if _rarely(draw, 8) else 2, max_size=4)))
    parts = ["@" + draw(_WS) + name, draw(st.sampled_from(["R1", "R2", "C3", ""])), args]
    if _rarely(draw):
        parts.append("x")
    if _rarely(draw):
        parts[2] = draw(st.sampled_from(["", ",E1", "E1,", "E1,,E2"]))
    return draw(_WS) + "\t".join(parts) + draw(_WS)


@st.composite
def tbf_texts(draw):
    lines = []
    for d in range(draw(st.integers(0, 4))):
        name = draw(st.sampled_from(["D0", "", "D 9"])) if _rarely(draw, 10) else f"D{d}"
        lines.append(draw(_WS) + "#BeginOfDocument " + name + draw(_WS))
        for _ in range(draw(st.integers(0, 5))):
            kind = draw(st.integers(0, 9))
            lines.append(draw(_relation()) if kind < 2 else draw(_WS) if kind == 2
                         else "# a comment" if kind == 3 else draw(_mention()))
        if not _rarely(draw):
            lines.append("#EndOfDocument" + draw(_WS))
        if _rarely(draw):
            lines.append(draw(st.sampled_from([draw(_mention()), "@After\tR1\tE1,E2", "#EndOfDocument"])))
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines) + draw(st.sampled_from(["", "\n"]))


@st.composite
def nasty_tbf_texts(draw):
    """Lines of every kind in any order: documents nested, unended, ended twice or named twice, lines outside a
    document, short lines, relations of one argument or the wrong number of fields, white space EvmEval keeps
    (0x1c-0x1f, Unicode's) at the edges or alone on a line, non-ASCII text."""
    ws = st.sampled_from(["", " ", "\t", "\x0b", "\x1c", "\x1f", "\x85", "\u00a0", "\u2003", "\u2028", "\u3000",
                          "\u00e9", "\r"])
    kinds = st.sampled_from(["begin", "end", "mention", "short", "relation", "one", "bad", "comment", "blank"])
    lines = []
    for _ in range(draw(st.integers(0, 14))):
        kind = draw(kinds)
        name = draw(st.sampled_from(["D1", "D2", "", "D\u00e9", "D 1"]))
        line = {"begin": "#BeginOfDocument " + name, "end": "#EndOfDocument", "comment": "# note",
                "blank": draw(ws) + draw(ws),
                "mention": "\t".join(["sys", name, draw(_IDS), draw(_SPANS), draw(_TEXT), "Life_Die", "Actual"]),
                "short": "\t".join(["sys", name, "E1", "1,2", "x"][:draw(st.integers(1, 5))]),
                "relation": "@Coreference\tC1\t" + ",".join(draw(st.lists(_IDS, min_size=1, max_size=3))),
                "one": draw(st.sampled_from(["@After\tR1\tE1", "@Subevent\tS1\tE2", "@After\tR2\tE1,,E2"])),
                "bad": draw(st.sampled_from(["@After\tR1", "@", "@\t\tx", "@After\tR1\tE1\tE2"]))}[kind]
        lines.append(draw(ws) + line + draw(ws))
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines) + draw(st.sampled_from(["", "\n"]))


def _read_by(reader, text: str, allow_empty: bool = False, before: int = 0):
    """What ``reader`` makes of ``text``: a TbfFile, or the error as (type, message, path, line, document)."""
    try:
        if reader is oracle.parse:
            return reader("f.tbf", text, allow_empty, before)
        return reader("f.tbf", text.encode("utf-8"), allow_empty, before)
    except ParseError as exc:
        return type(exc).__name__, str(exc), exc.path, exc.line, exc.document


def _error(exc: ParseError | None):
    return None if exc is None else (type(exc).__name__, str(exc), exc.path, exc.line, exc.document)


def _same_file(a: tbf.TbfFile, b: tbf.TbfFile) -> None:
    """``a`` (the reader's) holds exactly what ``b`` (the line reader's) holds: columns, documents, warnings."""
    for name in ("path", "system", "ids", "spans", "texts", "types", "realis", "lines", "unicode_blanks", "bom"):
        assert getattr(a, name) == getattr(b, name), name
    assert [(w, _error(e)) for w, e in a.evmeval_structure] == [(w, _error(e)) for w, e in b.evmeval_structure]
    assert list(a.documents) == list(b.documents)
    for k, x in a.documents.items():
        y = b.documents[k]
        assert (x.id, x.line, x.start, x.end, x.relations) == (y.id, y.line, y.start, y.end, y.relations)
        assert _error(x.unread) == _error(y.unread)
        assert x.file is a and y.file is b
    for column, codes in (("ids", a.id_codes), ("types", a.type_codes), ("realis", a.realis_codes)):
        if codes is not None:  # the interned column: the same values
            assert tbf.values_of(codes[1], codes[0]) == getattr(a, column), column


def _same_reading(text: str, allow_empty: bool = False, before: int = 0) -> None:
    got = _read_by(tbf.read_text, text, allow_empty, before)
    expected = _read_by(oracle.parse, text, allow_empty, before)
    if isinstance(got, tuple) or isinstance(expected, tuple):
        assert got == expected
    else:
        _same_file(got, expected)


# ---- kernels against their references

@settings(max_examples=300, deadline=None)
@given(st.one_of(tbf_texts(), nasty_tbf_texts()))
@example("#BeginOfDocument D\nsys\tD\tE1\t1,2\tx\tT\tR\n#EndOfDocument")
@example("#BeginOfDocument D\n sys\tD\tE1\t1,2\tx\tT\tR\u00a0\n#EndOfDocument")
@example("\u2003\x1c\n\u00e9\x85\n\x1c@After\tR1\tE1\n@\n")
def test_scan_lines_matches_reference(text):
    data = text.encode("utf-8")
    (m_line, fs, fe), events, (r_line, r_bounds) = tbf_read.scan_lines(np.frombuffer(data, np.uint8), BEGIN, END)
    r_mentions, r_events, r_relations = ref.scan_lines(data)
    assert m_line.tolist() == [m[0] for m in r_mentions]
    assert fs.T.tolist() == [m[1] for m in r_mentions] and fe.T.tolist() == [m[2] for m in r_mentions]
    assert list(zip(*(a.tolist() for a in events))) == r_events
    assert list(zip(r_line.tolist(), r_bounds.T.tolist())) == r_relations


def test_is_space_is_pythons():
    """The kernel's white space is Python 3's ``str.isspace``, code point by code point."""
    is_space = getattr(tbf_read.is_space, "py_func", tbf_read.is_space)
    assert [c for c in range(0x110000) if is_space(c)] == [c for c in range(0x110000) if chr(c).isspace()]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab\u00e9\t ", max_size=5), max_size=30))
def test_gather_and_intern_match_reference(fields):
    data = "\n".join(fields).encode("utf-8")
    starts, ends, at = [], [], 0
    for f in fields:
        starts.append(at)
        at += len(f.encode("utf-8"))
        ends.append(at)
        at += 1
    buf = np.frombuffer(data, np.uint8)
    s, e = np.asarray(starts, np.int64), np.asarray(ends, np.int64)
    assert tbf_read.gather(buf, s, e).tobytes() == ref.gather(data, starts, ends)
    ids, first = tbf_read.intern_fields(buf, s, e)
    assert (ids.tolist(), first.tolist()) == ref.intern_fields(data, starts, ends)


_RANGE = st.tuples(st.integers(0, 40), st.integers(0, 40)).map(lambda p: f"{p[0]},{p[1]}")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.lists(_RANGE, min_size=1, max_size=4).map(";".join),
                          st.text(alphabet="0123456789,; +", max_size=12)), max_size=20))
@example(["12,18", "12,15;15,18", "15,18;12,15", "12,18;13,14", "18,12", "", "1234567890123456789,1234567890123456790",
          "123456789012345678,123456789012345679", "0012,18"])
def test_span_keys_match_reference(spans):
    data = "\n".join(spans).encode("ascii")
    keys, ok = tbf_scan.span_keys(np.frombuffer(data, np.uint8), len(spans))
    assert list(zip(ok.tolist(), keys.tolist())) == [ref.span_key(s) for s in spans]
    for a, b in pairwise(spans):  # the same characters: the same key, however written
        if ref.merged_ranges(a) is not None and ref.merged_ranges(a) == ref.merged_ranges(b):
            assert engine._span_set(a, False) == engine._span_set(b, False)


def test_kernels_give_the_same_results_as_plain_python():
    """The plain-Python run (a first run after installation) runs the same functions without numba."""
    data = b"#BeginOfDocument D\nsys\tD\tE1\t300,304;1000,1002\tx\tT\tR\n@Coreference\tC1\tE1\n#EndOfDocument\n"
    buf = np.frombuffer(data, np.uint8)
    irregular = np.frombuffer(data + "\u3000\n\x1cx\u00e9".encode(), np.uint8)  # Unicode: a code point past 255
    for kernel, args in ((tbf_read.scan_lines, (irregular, BEGIN, END)),
                         (tbf_read.intern_fields, (buf, np.array([0, 0, 4]), np.array([3, 3, 8])))):
        if hasattr(kernel, "py_func"):
            assert repr(kernel(*args)) == repr(plain(kernel)(*args))
    spans = np.frombuffer(b"300,304;1000,1002\n999,1001", np.uint8)
    for kernel, args in ((tbf_scan.span_keys, (spans, 2)), (tbf_scan.parse_char_spans, (spans, 2, 16))):
        if hasattr(kernel, "py_func"):  # character offsets past 255: no uint8 arithmetic in Python
            assert repr(kernel(*args)) == repr(plain(kernel)(*args))
    _, vals, _, bad = tbf_scan.parse_char_spans(spans, 2, 16)
    assert bad == -1 and vals.tolist() == [300, 301, 302, 303, 1000, 1001, 999, 1000]
    assert tbf_scan.parse_char_spans(spans, 2, 7)[3] == tbf_scan.FULL  # 8 characters: call again, larger


# ---- the reader: the byte scan and the line reader agree

@settings(max_examples=250, deadline=None)
@given(st.one_of(tbf_texts(), nasty_tbf_texts()), st.booleans(), st.sampled_from([0, 0, 41]))
@example("", True, 0)
@example("\u2003\n \x1c\n", True, 0)
@example("\u2003\n \x1c\n", False, 0)
@example("sys\tD\tE1\t1,2\tx\tT\tR\n#EndOfDocument\n", False, 0)  # a stray end, no document begun: outside
@example("#EndOfDocument\n#BeginOfDocument D\n#EndOfDocument\n", False, 0)
@example("#BeginOfDocument D\n@After\tR1\tE1\n@Subevent\tS1\tE1,,E2\n#EndOfDocument\n", False, 0)
@example("#BeginOfDocument D\n\x1csys\tD\tE1\t1,2\tx\tT\tR\x1f\n#EndOfDocument\n", False, 7)
@example("<?xml version='1.0'?>\n<TimeML>\n", False, 0)
def test_reader_reads_as_the_line_reader(text, allow_empty, before):
    _same_reading(text, allow_empty, before)


_MENTION = "sys\tD\tE1\t1,2\tx\tT\tR"
IRREGULAR = ["#BeginOfDocument A\n#BeginOfDocument B\n" + _MENTION + "\n#EndOfDocument\n",  # nested
             "#BeginOfDocument A\n" + _MENTION + "\n",  # no end
             "#BeginOfDocument A\n#EndOfDocument\n" + _MENTION + "\n#EndOfDocument\n",  # outside, stray end
             "#BeginOfDocument A\n" + _MENTION + "\n#EndOfDocument\n" + (_MENTION + "\n") * 2 + "#EndOfDocument\n",
             "#BeginOfDocument A\n#EndOfDocument\n" + _MENTION + "\n",  # after the last end
             "#BeginOfDocument A\nsys\tD\tE1\n#EndOfDocument\n",  # short
             "#BeginOfDocument A\n#EndOfDocument\n#BeginOfDocument A\n#EndOfDocument\n",  # twice
             "#BeginOfDocument A\n@After\tR1\n#EndOfDocument\n",  # two fields
             "#BeginOfDocument A\n@After\tR1\tE1\n@Subevent\tS1\tE1,,E2\n#EndOfDocument\n",  # one argument
             "#BeginOfDocument A\n\x1c" + _MENTION + "\u3000\n\u2003\x85\n#EndOfDocument\n",  # kept blanks
             "#BeginOfDocument \u00e9\n" + _MENTION.replace("x", "\u201c\u00e9") + "\n#EndOfDocument\n",
             "", "\n \n", "# only a comment\n", _MENTION + "\n"]


def test_irregular_files_are_read_as_the_line_reader_reads_them():
    """One of each irregular case, named (the property test above draws them at random)."""
    for text in IRREGULAR:
        for allow_empty in (False, True):
            _same_reading(text, allow_empty)


def test_irregular_files_are_read_by_the_kernels_compiled_at_installation(monkeypatch):
    """No argument of another type than those compiled ahead of time (the rows of reordered documents were once
    columns of a Fortran-ordered copy, which sent ``gather`` to numba's JIT)."""
    from fastscore.kernels import _jit

    if _jit.MODE != "aot":
        pytest.skip("the kernels are not compiled ahead of time here")
    monkeypatch.setattr(_jit.Kernel, "dispatcher", lambda self: pytest.fail(f"{self.__name__}: not compiled"))
    for text in IRREGULAR:
        try:
            tbf.read_text("f.tbf", text.encode("utf-8"), allow_empty=True)
        except ParseError:
            pass


@settings(max_examples=100, deadline=None)
@given(st.one_of(tbf_texts(), nasty_tbf_texts()))
def test_read_tbf_gives_the_line_readers_file_or_message(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("tbf") / "f.tbf"
    path.write_bytes(text.encode("utf-8"))
    try:
        got = tbf.read_tbf(path)
    except ParseError as exc:
        got = str(exc)
    try:
        expected = oracle.parse(str(path), text)
    except ParseError as exc:
        expected = str(exc)
    if isinstance(expected, str) or isinstance(got, str):
        assert got == expected
    else:
        _same_file(got, expected)


def test_a_regular_file_is_read_by_the_scan():
    text = ("#BeginOfDocument D1\nsys\tD1\tE1\t1,5\tab c\tLife_Die\tActual\n"
            "sys\tD1\tE2\t7,9;10,12\tx\tLife_Die\tOther\t0.5\n@Coreference\tC1\tE1,E2\n#EndOfDocument\n\n"
            "# comment\n#BeginOfDocument D2\n#EndOfDocument\n")
    scanned = tbf.read_text("f.tbf", text.encode())
    _same_file(scanned, oracle.parse("f.tbf", text))
    assert scanned.documents["D2"].rows == range(2, 2)


# ---- the engine: documents passed by the fast checks are the ones the one-by-one checks pass silently

@st.composite
def _cluster_docs(draw):
    spans = ["1,5", "1,3;3,5", "3,5;1,3", "1,5;2,3", "2,6", "8,9", "8, 9", "x", "9,8;1,5", "1,5;6,6"]
    lines = []
    for d in range(draw(st.integers(1, 4))):
        lines.append(f"#BeginOfDocument D{d}")
        n = draw(st.integers(1, 5))
        for m in range(n):
            lines.append(f"sys\tD{d}\tE{m}\t{draw(st.sampled_from(spans))}\tx\tLife_Die\tActual")
        for c in range(draw(st.integers(0, 3))):
            args = draw(st.lists(st.integers(0, n), min_size=1, max_size=3))
            lines.append(f"@Coreference\tC{c}\t" + ",".join(f"E{a}" for a in args))
        lines.append("#EndOfDocument")
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None)
@given(_cluster_docs())
def test_valid_clusters_are_checked_clusters(text):
    f = tbf.read_text("f.tbf", text.encode())
    opts = resolve_options(char_spans=True, coref=True)
    docs = list(f.documents.values())
    valid = engine._valid_clusters(f, engine._members(f, docs))
    for doc, ok in zip(docs, valid):
        found: list[str] = []
        undefined: list[str] = []
        try:
            engine._check_clusters(f, doc, doc.coreference(), opts, found, undefined)
            silent = not found and not undefined
        except ParseError:
            silent = False
        if ok:
            assert silent, doc.id


def test_spans_python_reads_and_the_kernel_does_not_are_read_as_python_does(tmp_path):
    """' 974' is a number to Python's int() (EvmEval's reading): the span is scored, not garbled."""
    def corpus(span):
        return ("#BeginOfDocument D\n" + f"sys\tD\tE1\t{span}\tx\tLife_Die\tActual\n"
                + "sys\tD\tE2\t300,310\ty\tLife_Die\tActual\n#EndOfDocument\n")
    from fastscore import score_nugget

    (tmp_path / "g.tbf").write_text(corpus("971,974"))
    (tmp_path / "s.tbf").write_text(corpus("971, 974"))
    (tmp_path / "s2.tbf").write_text(corpus("971,974"))
    a = score_nugget(tmp_path / "g.tbf", tmp_path / "s.tbf", char_spans=True)
    b = score_nugget(tmp_path / "g.tbf", tmp_path / "s2.tbf", char_spans=True)
    assert a.to_dict(per_doc=True) == b.to_dict(per_doc=True)


# ---- character spans: the kernel reads every span Python 2's int() reads (no document left to Python)

_SPAN_PIECES = ["1", "0", "12", "9" * 18, "1" + "0" * 18, "0" * 20 + "7", "-", "+", " ", "\t", "\x0b", "\r", ",",
                ",", ";", ";", "x", "\u00a0", "\u0661", "_", "-0", "4001"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_SPAN_PIECES), max_size=12))
def test_parse_char_spans_reads_as_python2_int(pieces):
    """Each span alone: the characters and length the plain-Python reading gives, or refused where it
    refuses (signs, white space around offsets, leading zeros, a third field in a part, other scripts'
    digits, Unicode white space, ``_``)."""
    span = "".join(pieces)
    expected = ref.char_span(span)
    buf = np.frombuffer(span.encode("ascii", "replace"), dtype=np.uint8)
    off, vals, lengths, bad = tbf_scan.parse_char_spans(buf, 1, 1 << 12)
    if expected is None:
        assert bad == 0
    else:
        assert bad == -1 and vals.tolist() == sorted(set(expected)) and lengths.tolist() == [len(expected)]


def test_parse_char_spans_refuses_long_fields():
    """More than 4,000 characters in an offset (Python's int() stops at 4,300 digits): refused, even zeros."""
    for span, bad in (("0" * 3999 + "1,3", -1), ("0" * 4000 + "1,3", 0), ("1,3," + "x" * 5000, -1)):
        assert tbf_scan.parse_char_spans(np.frombuffer(span.encode(), np.uint8), 1, 16)[3] == bad
