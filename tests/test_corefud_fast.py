"""The fast paths of CorefUD scoring against their plain-Python references: the CoNLL-U byte scanners
(kernels/conllu_scan.py) against tests/reference_conllu_scan.py (the whole reader against
tests/reference_conllu.py: tests/test_conllu_reader.py), the corpus-wide matching kernels
(kernels/corefud_match.py) against the matching on the scorer's own values."""
from __future__ import annotations

import random
import sys
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastscore.errors import FastscoreError, FastscoreWarning
from fastscore.formats import conllu
from tests import reference_conllu_scan as ref
from tests import reference_corefud
from tests.conftest import TESTDATA
from tests.conftest import KERNEL_RUNS

sys.path.insert(0, str(TESTDATA.parent.parent / "scripts"))
import gen_conllu as gen

LINES = ["", " ", "\t", " \t", "# c", "#", "1\tx", "2\ty\tz", "# sent_id = s", "#\tnewdoc", "3", "\u00a0",
         "\x0b \u3000", "x"]


def _bytes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode(), dtype=np.uint8)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=14), st.booleans())
def test_scan_lines_cuts_blocks_as_the_reader(lines, final_newline):
    from fastscore.kernels.conllu_scan import scan_lines

    text = "\n".join(lines) + ("\n" if final_newline else "")
    data = _bytes(text)
    newlines = np.flatnonzero(data == 10)
    _, block, b_first, _, *_, nb = scan_lines(data, np.r_[0, newlines + 1], np.r_[newlines, len(data)],
                                              *conllu._WORDS[:3])
    got = [(int(b_first[b]), [int(k) + 1 for k in np.flatnonzero(block == b)]) for b in range(nb)]
    assert got == ref.blocks(text)


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=1, max_size=30), st.binary(min_size=1, max_size=30), st.data())
def test_same_spans_matches_reference(a, b, data):
    from fastscore.kernels.conllu_scan import same_spans

    n = data.draw(st.integers(0, 8))
    spans = [sorted(data.draw(st.tuples(st.integers(0, len(a)), st.integers(0, len(a))))) +
             sorted(data.draw(st.tuples(st.integers(0, len(b)), st.integers(0, len(b))))) for _ in range(n)]
    s_a, e_a, s_b, e_b = (np.asarray([x[k] for x in spans], dtype=np.int64) for k in range(4))
    got = same_spans(np.frombuffer(a, np.uint8), s_a, e_a, np.frombuffer(b, np.uint8), s_b, e_b)
    assert got.tolist() == ref.same_spans(a, s_a, e_a, b, s_b, e_b)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 9), min_size=1, max_size=6), st.integers(0, 2),
                          st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=6))
def test_mention_heads_matches_reference(mentions):
    from fastscore.kernels.conllu_scan import mention_heads

    words = [w for w, *_ in mentions]
    events = [(kind, min(h, cnt, len(w)), min(cnt, len(w))) for w, kind, h, cnt in mentions]  # indices inside
    off = np.cumsum([0] + [len(w) for w in words]).astype(np.int64)
    heads = mention_heads(off, np.asarray([k for w in words for k in w], dtype=np.int64),
                          *(np.asarray(x, dtype=np.int64) for x in zip(*events)),
                          np.asarray([min(w) for w in words], dtype=np.int64))
    assert heads.tolist() == ref.mention_heads(words, events)


@st.composite
def _side(draw):
    """Mentions of one document: sorted word sets with a head, distinct in (first, last, length)."""
    out, triples = [], set()
    for _ in range(draw(st.integers(0, 8))):
        words = sorted(set(draw(st.lists(st.integers(0, 9), min_size=1, max_size=4))))
        head = draw(st.sampled_from(words))
        if (words[0], words[-1], len(words)) not in triples:
            triples.add((words[0], words[-1], len(words)))
            out.append((tuple(words), head))
    return out


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_side(), _side()), min_size=1, max_size=3), st.booleans())
def test_equal_rows_matches_reference(docs, head_mode):
    from fastscore.kernels.corefud_match import equal_rows

    from fastscore.coref.corefud import _sorted_rows
    from fastscore.formats.table import Words, offsets

    def words(ms):
        n = len(ms)
        return Words(offsets([len(w) for w, _ in ms]), np.asarray([k for w, _ in ms for k in w], dtype=np.int64),
                     np.asarray([h for _, h in ms], dtype=np.int64), np.zeros(n, bool), np.zeros(n + 1, np.int64),
                     np.zeros(0, np.int64), np.zeros(0, np.int32), [], np.zeros(n, np.int64))

    k_all = [m for k, _ in docs for m in k]
    r_all = [m for _, r in docs for m in r]
    k_off, r_off = offsets([len(k) for k, _ in docs]), offsets([len(r) for _, r in docs])
    kw, rw = words(k_all), words(r_all)
    k_ord, k_tie = _sorted_rows(kw, k_off)
    r_ord, r_tie = _sorted_rows(rw, r_off)
    assert not k_tie.any() and not r_tie.any()
    eq_k, eq_r = equal_rows(k_off, k_ord, kw.offsets, kw.keys, kw.head, r_off, r_ord, rw.offsets, rw.keys, rw.head,
                            head_mode)
    value = (lambda m: m) if head_mode else (lambda m: m[0])
    for d, (k, r) in enumerate(docs):
        want_k, want_r = ref.equal_rows([value(m) for m in k], [value(m) for m in r])
        assert [x - r_off[d] if x >= 0 else -1 for x in eq_k[k_off[d]:k_off[d + 1]]] == want_k
        assert [x - k_off[d] if x >= 0 else -1 for x in eq_r[r_off[d]:r_off[d + 1]]] == want_r


@KERNEL_RUNS
@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 2)), min_size=1, max_size=5),
       st.lists(st.tuples(st.integers(0, 4), st.integers(0, 2)), min_size=1, max_size=5))
def test_deps_similarity_matches_reference(runner, a, b):
    from fastscore.kernels.corefud_match import _f1

    _f1 = runner(_f1)
    pa, ra = (np.asarray(x, dtype=np.int64) for x in zip(*a))
    pb, rb = (np.asarray(x, dtype=np.int64) for x in zip(*b))
    assert 10 * _f1(pa, ra, pb, rb, False) + _f1(pa, ra, pb, rb, True) == ref.deps_f1(a, b)


# ---- whole pipelines against the plain-Python paths


def _assert_same_table(path):
    from tests.test_conllu_reader import assert_same_read

    assert assert_same_read(path), path


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.nested_given])  # its oracle check nests one
@given(st.integers(0, 10 ** 6))
def test_reader_reads_heads_outside_their_mention(tmp_path_factory, seed):
    """Head indices udapi reads outside their mention (on a one-node mention, 0 on the one-node last part of a
    discontinuous one): read, with the reference's table and warning."""
    p = gen.Params(p_head_outside=0.3, p_discontinuous=0.2)
    key, _ = gen.generate_case(seed, 2, 10, p)
    path = tmp_path_factory.mktemp("outside") / "k.conllu"
    path.write_text(key, encoding="utf-8")
    _assert_same_table(path)


@pytest.mark.parametrize("match", ["exact", "partial", "head"])
@pytest.mark.parametrize("zero_match", ["dependent", "linear"])
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10 ** 6), ties=st.booleans())
def test_matching_kernels_agree_with_the_scorer_values(tmp_path_factory, match, zero_match, seed, ties):
    """The kernels' alignment of every document is the one matching on the scorer's own values gives."""
    from fastscore.coref import corefud
    from fastscore.coref.score import score_coref

    p = gen.Params(ties=ties, p_twin_heads=0.3 if ties else 0.0)
    if seed % 2:  # mentions in two entities, repeats with other heads, heads udapi ignores
        p.p_two_entities, p.p_duplicate, p.p_head_outside = 0.2, 0.15, 0.1
    key, response = gen.generate_case(seed, 3, 12, p)
    folder = tmp_path_factory.mktemp("match")
    (folder / "k.conllu").write_text(key, encoding="utf-8")
    (folder / "r.conllu").write_text(response, encoding="utf-8")
    results = []
    fast = corefud.match
    for matcher in (corefud.match, reference_corefud.match_python):
        corefud.match = matcher
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FastscoreWarning)
                results.append(score_coref(folder / "k.conllu", folder / "r.conllu", match=match,
                                           zero_match=zero_match, singletons="keep").to_dict(per_doc=True))
        except FastscoreError as exc:
            results.append(str(exc))
        finally:
            corefud.match = fast
    assert results[0] == results[1]


def test_documents_with_ties_are_found():
    """Two mentions of one side sharing (first, last, length) make their document one for the matching on
    the scorer's own values (only there does its sets' order decide)."""
    from fastscore.coref.corefud import _sorted_rows
    from fastscore.formats.table import Words, offsets

    def words(mentions):
        n = len(mentions)
        return Words(offsets([len(m) for m in mentions]), np.asarray([k for m in mentions for k in m], dtype=np.int64),
                     np.asarray([m[0] for m in mentions], dtype=np.int64), np.zeros(n, bool), np.zeros(n + 1, np.int64),
                     np.zeros(0, np.int64), np.zeros(0, np.int32), [], np.zeros(n, np.int64))

    order, tie = _sorted_rows(words([[1, 2, 3], [1, 3], [0, 5]]), offsets([2, 1]))
    assert order.tolist() == [1, 0, 2] and not tie.any()
    order, tie = _sorted_rows(words([[5], [1, 2, 4], [1, 3, 4]]), offsets([1, 2]))
    assert order.tolist() == [0, 1, 2] and tie.tolist() == [False, True]


def _with_copies(table, rng: random.Random):
    """The table with some mentions repeated: in their own entity, or in another of their document."""
    from fastscore.formats.table import MentionTable, offsets

    rows, cluster, sizes = [], [], []
    for d in range(table.n_docs):
        lo, hi = int(table.doc_offsets[d]), int(table.doc_offsets[d + 1])
        n_clusters = len(table.cluster_labels[d])
        extra: dict[int, list[int]] = {}
        for row in range(lo, hi):
            if rng.random() < 0.15:
                extra.setdefault(rng.randrange(n_clusters), []).append(row)
        n = 0
        for c in range(n_clusters):
            mine = [r for r in range(lo, hi) if table.cluster[r] == c] + extra.get(c, [])
            rows += mine
            cluster += [c] * len(mine)
            n += len(mine)
        sizes.append(n)
    rows = np.asarray(rows, dtype=np.int64)
    return MentionTable(table.path, table.doc_names, table.doc_lines, table.doc_tokens, offsets(sizes),
                        table.start[rows], table.end[rows], np.asarray(cluster, dtype=np.int32), table.cluster_labels,
                        table.words.take(rows))


def _check_prepare(tmp_path_factory, seed, mode, keep) -> bool:
    """Repeats and singletons removed, and mentions in two entities counted (and kept), by the kernel as by
    dictionaries of the scorer's values (twin heads and ties make both kinds of repeat)."""
    from fastscore.coref.corefud import Matching, prepare
    from tests.reference_corefud import prepare_python

    _, response = gen.generate_case(seed, 2, 10, gen.Params(ties=True, p_twin_heads=0.4))
    path = tmp_path_factory.mktemp("prepare") / "r.conllu"
    path.write_text(response, encoding="utf-8")
    table = _with_copies(conllu.read_conllu(path), random.Random(seed))
    a, wa = prepare(table, Matching(mode), keep)
    b, wb = prepare_python(table, Matching(mode), keep)
    assert wa == wb and a.cluster_labels == b.cluster_labels
    for name in ("doc_offsets", "start", "end", "cluster"):
        assert np.array_equal(getattr(a, name), getattr(b, name))
    assert np.array_equal(a.words.keys, b.words.keys) and np.array_equal(a.words.head, b.words.head)
    return wa[0] > 0


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10 ** 6), st.sampled_from(["exact", "partial", "head"]), st.booleans())
def test_prepare_matches_the_dictionaries_of_the_scorer_values(tmp_path_factory, seed, mode, keep):
    _check_prepare(tmp_path_factory, seed, mode, keep)


def test_prepare_sees_mentions_in_two_entities(tmp_path_factory):
    """The copies make mentions in two entities (the warning) in most generated files."""
    assert sum(_check_prepare(tmp_path_factory, seed, mode, False)
               for seed in range(4) for mode in ("exact", "head")) >= 4


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.lists(st.integers(0, 5), min_size=1, max_size=3, unique=True),
                          st.integers(0, 2)), max_size=12), st.booleans())
def test_identity_groups_match_equality(rows, head_mode):
    from fastscore.kernels.corefud_match import identity_groups

    from fastscore.formats.table import offsets

    rows = sorted(rows, key=lambda r: r[0])
    doc = np.asarray([d for d, _, _ in rows], dtype=np.int64)
    ws = [sorted(w) for _, w, _ in rows]
    off = offsets([len(w) for w in ws])
    keys = np.asarray([k for w in ws for k in w], dtype=np.int64)
    head = np.asarray([h for _, _, h in rows], dtype=np.int64)
    n = len(rows)
    first = keys[off[:-1]] if n else keys
    last = keys[off[1:] - 1] if n else keys
    order = np.lexsort((head if head_mode else np.zeros(n, np.int64), np.diff(off), last, first, doc))
    group = identity_groups(order.astype(np.int64), doc, off, keys, head, head_mode)
    ident = [(d, tuple(w), h if head_mode else 0) for (d, _, h), w in zip(rows, ws)]
    for i in range(n):
        for j in range(n):
            assert (group[i] == group[j]) == (ident[i] == ident[j])


# ---- the anchor cases (the CorefUD scorer's own outputs are checked in test_corefud.py)

ANCHOR_CASES = sorted((TESTDATA / "corefud_anchors" / "cases").glob("*.key.conllu"))


def test_reader_grows_its_relation_table(tmp_path):
    """Heads with more distinct DEPS relations than the first table has slots (64): the table grows (a full
    one made the kernel's lookup loop forever)."""
    from fastscore.formats import conllu

    lines = ["# newdoc id = d1", "# global.Entity = eid-etype-head-other"]
    for s in range(80):
        lines += [f"# sent_id = s{s}", "# text = a b", f"1\ta\ta\tNOUN\t_\t_\t2\tnsubj\t2:rel{s}\tEntity=(e{s}-person-1)",
                  "2\tb\tb\tVERB\t_\t_\t0\troot\t0:root\t_", ""]
    path = tmp_path / "relations.conllu"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert len(conllu.read_conllu(path).words.rel_names) == 80
    _assert_same_table(path)

def test_reader_grows_its_word_log_and_deps_arrays(tmp_path):
    """One mention over 300 words (its word log outgrows the first guess, 4 per opening bracket) and a head
    with 40 DEPS items (more than the first guess, 2 per head): both kernels ask again with larger arrays
    and read what the Python reader reads."""
    from fastscore.formats import conllu

    n = 300
    deps = "|".join(f"{k}:r{k}" for k in range(2, 42))
    rows = []
    for k in range(1, n + 1):
        misc = "Entity=(e1-person-1" if k == 1 else ("Entity=e1)" if k == n else "_")
        rows.append(f"{k}\tw{k}\tw\tNOUN\t_\t_\t{0 if k == 1 else 1}\tdep\t{deps if k == 1 else '1:dep'}\t{misc}")
    lines = ["# newdoc id = d1", "# global.Entity = eid-etype-head-other", "# sent_id = s1", "# text = long",
             *rows, ""]
    path = tmp_path / "long.conllu"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    table = conllu.read_conllu(path)
    assert len(table.words.keys) == n and len(table.words.dep_parent) == 40
    _assert_same_table(path)



def test_reader_reads_ontogum_files_as_the_reference():
    from tests.conftest import SHARED

    files = sorted((SHARED / "gum" / "coref" / "ontogum" / "conllu").glob("*.conllu"))[:20]
    for path in files:
        _assert_same_table(path)


def _match_both(key, response, **options):
    from fastscore.coref import corefud
    from fastscore.coref.score import score_coref

    results = []
    fast = corefud.match
    for matcher in (corefud.match, reference_corefud.match_python):
        corefud.match = matcher
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FastscoreWarning)
                results.append(score_coref(key, response, **options).to_dict(per_doc=True))
        finally:
            corefud.match = fast
    return results


@pytest.mark.parametrize("options", [{}, {"match": "exact", "zero_match": "linear", "singletons": "keep"}],
                         ids=["defaults", "exact-linear-keep"])
def test_matching_kernels_agree_on_the_anchor_cases(options):
    for key in ANCHOR_CASES:
        a, b = _match_both(key, key.with_name(key.name.replace(".key.", ".response.")), **options)
        assert a == b, key


@pytest.mark.slow
@pytest.mark.parametrize("match", ["exact", "partial", "head"])
@pytest.mark.parametrize("zero_match", ["dependent", "linear"])
@pytest.mark.parametrize("singletons", ["keep", "drop"])
def test_matching_kernels_agree_on_the_anchor_cases_in_every_configuration(match, zero_match, singletons):
    for key in ANCHOR_CASES:
        a, b = _match_both(key, key.with_name(key.name.replace(".key.", ".response.")), match=match,
                           zero_match=zero_match, singletons=singletons)
        assert a == b, key


_CONLLU_HEAD = "# newdoc id = d\n# global.Entity = eid-etype-head-other\n# sent_id = s1\n# text = x\n"


@pytest.mark.parametrize("body, problem", [
    ("1\tA\ta\tX\t_\t_\t0\troot\t_\tEntity=(e1-x-1\n2\tb\tb\tX\t_\t_\t1\tdep\t_\tEntity=e1[2/2])\n",
     "is not discontinuous"),
    ("\u00b2\tA\ta\tX\t_\t_\t0\troot\t_\tEntity=(e1-x-1)\n", "bad ID '\u00b2'"),  # a digit int() does not read
])
def test_reader_errors_instead_of_tracebacks(tmp_path, body, problem):
    """Inputs the Python reader used to crash on (a KeyError or ValueError traceback): one clear line now."""
    from fastscore.errors import ParseError
    from fastscore.formats.conllu import read_conllu

    path = tmp_path / "bad.conllu"
    path.write_text(_CONLLU_HEAD + body + "\n")
    with pytest.raises(ParseError, match=problem) as err:
        read_conllu(path)
    assert "bad.conllu:" in str(err.value)


def test_a_zero_without_deps_beside_another_zero_is_a_clear_error(tmp_path):
    """The kernel flags the document, the message names the zero's line (the response's here: its DEPS is _)."""
    from fastscore.coref.score import score_coref

    def doc(deps: str) -> str:
        return (_CONLLU_HEAD + "1\ta\ta\tX\t_\t_\t0\troot\t0:root\tEntity=(e1-x-1)\n"
                f"1.1\tshe\tshe\tPRON\t_\t_\t_\t_\t{deps}\tEntity=(e1-x-1)\n2\tb\tb\tX\t_\t_\t1\tdep\t1:dep\t_\n\n")

    (tmp_path / "k.conllu").write_text(doc("1:nsubj"), encoding="utf-8")
    (tmp_path / "r.conllu").write_text(doc("_"), encoding="utf-8")
    with pytest.raises(FastscoreError, match=r"r\.conllu:6: a zero mention whose head has no DEPS meets another "
                                             r"zero of its sentence"):
        score_coref(tmp_path / "k.conllu", tmp_path / "r.conllu", match="head", zero_match="dependent",
                    singletons="keep")
