"""Token-id spans read for all documents at once (nugget/token_spans.py, kernels/tbf_tokens.py) against the
document-by-document reading with sets and dicts (tests/reference_nugget.token_sides), on seeded and generated
corpora with awkward token tables: the same report, warnings and numbers."""
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastscore.kernels import tbf_tokens
from fastscore.nugget.score import score_nugget
from tests import reference_nugget as ref_nugget
from tests import reference_tbf as ref

WORDS = ["the", "The", "a", "I", "kill", "attack", "war", "she", " an ", "WHO", "", "x", "\x1cwho"]
ODD_WORDS = ["Ünïcode", "\u00a0the"]
TYPES = ["Conflict_Attack", "Life_Die", "Contact_Meet"]
REALIS = ["Actual", "Generic", "Other"]


def _table(rng: random.Random, n_tok: int, odd: bool) -> str:
    """A token table with lines EvmEval reads oddly: trailing white space, an id listed again (the last word
    of four fields or more counts), lines of fewer fields (skipped, also once trailing white space is
    dropped); ``odd``: also tokens it lacks, white space and words outside ASCII (left to Python)."""
    lines = []
    for t in range(n_tok):
        if odd and rng.random() < 0.1:
            continue  # a token the table lacks
        word = rng.choice(WORDS + ODD_WORDS * odd)
        end = rng.choice(["", "", " ", "\t", "\r", "\x1c"] + ["\u00a0", "\t\u2003"] * odd)
        extra = rng.choice(["", "\textra"])
        lines.append(f"t{t}\t{word}\t0\t1{extra}{end}")
        if rng.random() < 0.2:  # listed again: counts with four fields or more, else skipped
            tail = rng.choice(["\t0\t1", "\t0", "\t0\t \t", "\t0\t1 \r", "\t0\t\x1c", "\t0\t\x1f\x0b"]
                              + ["\t0\t\u00a0"] * odd)
            lines.append(f"t{t}\t{rng.choice(WORDS)}{tail}")
    if odd and rng.random() < 0.5:
        lines.append("tö\tword\t0\t1")
    return "\n".join(lines) + rng.choice(["\n", ""])


def _span(rng: random.Random, n_tok: int, odd: bool) -> str:
    start = rng.randrange(n_tok)
    tokens = [f"t{t}" for t in range(start, min(n_tok + 2 * odd, start + rng.choice((1, 1, 2, 3))))]
    if rng.random() < 0.1:
        tokens.append(rng.choice([tokens[0]] + ["", "tö"] * odd))  # repeated; empty, outside ASCII
    rng.shuffle(tokens)
    return ",".join(tokens)


def _corpus(tmp_path, seed: int, docs: int = 30):
    rng = random.Random(seed)
    tkn = tmp_path / "tkn"
    tkn.mkdir()
    files = {"gold": [], "system": []}
    for d in range(docs):
        doc = f"D{d:03d}"
        n_tok = rng.randint(3, 30)
        odd = rng.random() < 0.3
        if rng.random() < 0.9:
            (tkn / f"{doc}.tab").write_text(_table(rng, n_tok, odd), encoding="utf-8")
        for side, lines in files.items():
            lines.append(f"#BeginOfDocument {doc}")
            n = rng.randint(0, 8)
            for k in range(n):
                span, typ, realis = _span(rng, n_tok, odd), rng.choice(TYPES), rng.choice(REALIS)
                lines.append(f"{side}\t{doc}\tE{k}\t{span}\tw\t{typ}\t{realis}")
            ids = [f"E{k}" for k in range(n)]
            rng.shuffle(ids)
            while len(ids) >= 2 and rng.random() < 0.6:
                size = rng.choice((2, 3))
                lines.append(f"@Coreference\tR{len(ids)}\t{','.join(ids[:size])}")
                ids = ids[size:]
            lines.append("#EndOfDocument")
    paths = []
    for side, lines in files.items():
        path = tmp_path / f"{side}.tbf"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    return paths, str(tkn)


def _scored(paths, tkn, monkeypatch, python: bool, **options):
    with monkeypatch.context() as m:
        if python:
            ref_nugget.documents_one_by_one(m)
        result = score_nugget(*paths, tokens=tkn, coref=True, **options)
    return result.to_dict(), result.warnings


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("preset", ["kbp2015", "kbp2016"])
def test_all_documents_at_once_equal_document_by_document(tmp_path, monkeypatch, seed, preset):
    paths, tkn = _corpus(tmp_path, seed)
    fast = _scored(paths, tkn, monkeypatch, False, preset=preset)
    assert fast == _scored(paths, tkn, monkeypatch, True, preset=preset)
    assert any("token table does not have" in w for w in fast[1])  # the corpus has such tokens


def test_invisible_words_outside_ascii_read_as_the_oracle_reads_them(tmp_path, monkeypatch):
    paths, tkn = _corpus(tmp_path, 11)
    words = tmp_path / "invisible.txt"
    words.write_text("ünïcode\nkill\n  war \n", encoding="utf-8")
    options = {"preset": "kbp2015", "invisible_words": str(words)}
    assert _scored(paths, tkn, monkeypatch, False, **options) == _scored(paths, tkn, monkeypatch, True, **options)


def test_tokens_with_one_hash_and_other_bytes_are_told_apart(monkeypatch):
    """Two tokens of a document whose hashes collide: two numbers, each found in the table by its bytes."""
    buf = np.frombuffer(b"t1,t2\nt1", dtype=np.uint8)
    span, start, end, first = tbf_tokens.split_tokens(buf, 2)
    assert span.tolist() == [0, 0, 1] and first.tolist() == [0, 2, 3]
    doc = np.zeros(3, dtype=np.int64)
    real = tbf_tokens.slice_hashes(buf, start, end)
    for key in (np.full(3, real[1]), real):  # every hash that of t2 (looked up by the table's line), or not
        code, groups = tbf_tokens.group_tokens(buf, start, end, key, doc, 1)
        assert code.tolist() == [0, 1, 0] and groups[0].tolist() == [0, 0]
        tab = np.frombuffer(b"t2\tthe\t0\t1\n", dtype=np.uint8)
        words = np.frombuffer(b"the", dtype=np.uint8)
        found, hidden = tbf_tokens.table_lookup(tab, np.array([0]), np.array([len(tab)]), buf, *groups, words,
                                                np.array([0, 3]))
        assert found.tolist() == [False, True] and hidden.tolist() == [0, 1]


_TOKENS = st.lists(st.tuples(st.sampled_from([b"t1", b"t2", b"t10", b"", b"x", b"t1 ", b"\xc3\xa9"]),
                             st.integers(0, 3)), max_size=40)


@settings(max_examples=200, deadline=None)
@given(_TOKENS, st.integers(0, 4))
def test_group_tokens_matches_reference(tokens, n_docs):
    """Tokens of several documents in any order: the numbers and groups of the plain-Python reference."""
    tokens = [(t, d) for t, d in tokens if d < n_docs]
    data = b",".join(t for t, _ in tokens)
    buf = np.frombuffer(data, dtype=np.uint8)
    starts = np.asarray([sum(len(t) + 1 for t, _ in tokens[:k]) for k in range(len(tokens))], dtype=np.int64)
    ends = starts + np.asarray([len(t) for t, _ in tokens], dtype=np.int64)
    docs = np.asarray([d for _, d in tokens], dtype=np.int64)
    code, (g_doc, g_key, g_start, g_end) = tbf_tokens.group_tokens(
        buf, starts, ends, tbf_tokens.slice_hashes(buf, starts, ends), docs, n_docs)
    numbers, groups = ref.group_tokens([t for t, _ in tokens], docs.tolist(), n_docs)
    assert code.tolist() == numbers
    assert [(d, data[s:e]) for d, s, e in zip(g_doc.tolist(), g_start.tolist(), g_end.tolist())] == groups
    assert g_key.tolist() == tbf_tokens.slice_hashes(buf, g_start, g_end).tolist()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(0, 6), st.booleans()), max_size=6), max_size=12))
def test_span_numbers_match_reference(spans):
    """Per span, its distinct kept numbers, sorted: as the plain-Python reference."""
    numbers = [n for span in spans for n, _ in span]
    keep = [k for span in spans for _, k in span]
    first = np.cumsum([0] + [len(span) for span in spans]).astype(np.int64)
    counts, values = tbf_tokens.span_numbers(first, np.asarray(numbers, dtype=np.int64), np.asarray(keep, dtype=bool))
    expected = ref.span_numbers([list(range(first[k], first[k + 1])) for k in range(len(spans))], keep, numbers)
    assert counts.tolist() == [len(e) for e in expected]
    assert values.tolist() == [n for e in expected for n in e]


@pytest.mark.parametrize("odd", ["", "gzip", "bom", "utf8"])
def test_tables_read_into_one_buffer_equal_file_by_file(tmp_path, monkeypatch, odd):
    """tbf.read_token_tables (one growing buffer, a few system calls a file) gives each table's bytes as
    read_token_bytes does, missing files included; a gzip-compressed table, a byte-order mark or bytes outside
    ASCII anywhere: None (every table read by read_token_bytes, its gunzipping and checks, then joined)."""
    import gzip

    from fastscore.formats import tbf

    rng = random.Random(7)
    monkeypatch.setattr(tbf, "TABLES_BUFFER", 64)  # small, so that the buffer grows, inside a file too
    paths = []
    for d in range(12):
        path = tmp_path / f"D{d}.tab"
        paths.append(str(path))
        if d % 5 == 3:
            continue  # no such file
        data = _table(rng, rng.randrange(0, 40), odd=False).encode()
        if d == 7 and odd == "gzip":
            data = gzip.compress(data)
        elif d == 7 and odd == "bom":
            data = b"\xef\xbb\xbf" + data
        elif d == 7 and odd == "utf8":
            data += "t9\tÜ\t0\t1\n".encode()
        path.write_bytes(data)
    expected = [tbf.read_token_bytes(p) for p in paths]
    read = tbf.read_token_tables(paths)
    assert (read is None) == bool(odd)
    data, bounds, present = read or tbf.join_token_tables(expected)
    assert not data.flags.writeable  # the compiled kernel's argument type
    assert present.tolist() == [e is not None for e in expected]
    assert [data[bounds[d]:bounds[d + 1]].tobytes() for d in range(len(paths))] == [e or b"" for e in expected]


_TOKEN_IDS = st.sampled_from(["t1", "t2", "t3", "T1", "t1 ", "", "tö", "t\u00a0"])
_WORDS = st.sampled_from(["the", "THE", " the\t", "the\u00a0", "\u2003The", "Ünïcode", "ünïcode", "kill", "\x1cthe",
                          "\u212a", "x", ""])
_ENDS = st.sampled_from(["", " ", "\t", "\r", "\x1c", "\u00a0", "\tx\u00e9", "\t\u2003"])


@st.composite
def _token_corpus(draw):
    """One or two documents: spans of awkward token ids, each document's table (or none) of awkward lines."""
    docs = []
    for d in range(draw(st.integers(1, 2))):
        lines = [f"{draw(_TOKEN_IDS)}\t{draw(_WORDS)}\t{draw(st.sampled_from(['0', '0'+chr(9)+'1', '']))}"
                 f"{draw(_ENDS)}" for _ in range(draw(st.integers(0, 6)))]
        table = "\n".join(lines) if draw(st.booleans()) else None
        mentions = {side: [",".join(draw(st.lists(_TOKEN_IDS, min_size=1, max_size=3)))
                           for _ in range(draw(st.integers(0, 3)))] for side in ("gold", "system")}
        docs.append((f"D{d}", table, mentions))
    return docs


@settings(max_examples=60, deadline=None)
@given(_token_corpus(), st.booleans(), st.sampled_from(["the\nkill\n", "ünïcode\nthe\n", "k\n"]))
def test_token_sides_match_the_document_by_document_oracle(docs, fix, invisible):
    """Generated nasty tables and spans (ids with white space or outside ASCII, words an invisible word once
    Unicode white space is stripped or lowered, lines of three fields, ids a table lacks): the report, numbers
    and warnings of the document-by-document oracle, with and without --fix-evmeval-quirks."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "tkn").mkdir()
        (root / "words.txt").write_text(invisible, encoding="utf-8")
        for side in ("gold", "system"):
            lines = []
            for doc, table, mentions in docs:
                lines.append(f"#BeginOfDocument {doc}")
                lines += [f"{side}\t{doc}\tE{k}\t{span}\tw\tLife_Die\tActual" for k, span in enumerate(mentions[side])]
                lines.append("#EndOfDocument")
            (root / f"{side}.tbf").write_text("\n".join(lines) + "\n", encoding="utf-8")
        for doc, table, _ in docs:
            if table is not None:
                (root / "tkn" / f"{doc}.tab").write_text(table, encoding="utf-8")
        paths = [str(root / "gold.tbf"), str(root / "system.tbf")]
        monkeypatch = pytest.MonkeyPatch()  # each run undoes its patch (_scored)
        options = {"preset": "kbp2015", "invisible_words": str(root / "words.txt"), "fix_evmeval_quirks": fix}
        assert _scored(paths, str(root / "tkn"), monkeypatch, False, **options) == \
            _scored(paths, str(root / "tkn"), monkeypatch, True, **options)
