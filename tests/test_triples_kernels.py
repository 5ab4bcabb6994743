"""The triple kernels against the pure-Python oracle (tests/reference_triples.py) on random documents."""
import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fastscore.formats.triples import TripleDoc, TripleSet
from fastscore.triples.engine import P, PR, REL, X, XR, prepare, run
from fastscore.triples.options import resolve_options
from tests import reference_triples as ref
from tests.conftest import KERNEL_RUNS

IDS = st.sampled_from(["w0", "w1", "w2", "w3", "w4", "w5"])
ELEMENT = st.lists(IDS, max_size=3)
TRIPLE = st.builds(ref.T, ELEMENT, ELEMENT, st.sampled_from(["a", "A", "b", "participant", "patient", "done-by"]),
                   st.sampled_from(["", "", "x", "y"]), st.sampled_from(["", "", "x", "y"]))
DOC = st.tuples(st.lists(TRIPLE, max_size=8), st.lists(TRIPLE, max_size=8))


def _doc(name, triples):
    d = TripleDoc(name, name)
    for k, t in enumerate(triples):
        d.append(f"t{k}", t.relation, t.first, t.second, first_label=t.first_label, second_label=t.second_label)
    return d


def _run(docs, dedup, token_range=None):
    gold = TripleSet("g", {f"d{i}": _doc(f"d{i}", g) for i, (g, _) in enumerate(docs)}, folder=True)
    system = TripleSet("s", {f"d{i}": _doc(f"d{i}", s) for i, (_, s) in enumerate(docs)}, folder=True)
    opts = resolve_options(dedup=dedup)
    if token_range is not None:
        opts.range_tokens = token_range
    return run(prepare(gold, system, opts))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(DOC, min_size=1, max_size=3), st.sampled_from(["overlap", "exact"]))
@example([([ref.T(["w1"], ["w2"], "a")], [ref.T(["w1", "w0"], ["w2", "w3"], "a"), ref.T(["w1"], ["w3", "w4"], "A")])],
         "overlap")
@example([([ref.T([], [], "a"), ref.T([], ["w1"], "b")], [ref.T([], [], "A"), ref.T([], ["w1"], "b")])], "exact")
@example([([ref.T(["w1", "w1"], ["w2"], "patient")], [ref.T(["w1", "w2"], ["w2"], "participant")])], "exact")
def test_matching_kernel_agrees_with_the_oracle(docs, dedup):
    prep = _run(docs, dedup)
    g0 = s0 = 0
    for d, (gold, system) in enumerate(docs):
        want = ref.evaluate(gold, system, dedup == "exact")
        for v, row in (("P", P), ("X", X), ("PR", PR), ("XR", XR)):
            got_match = [int(m) - g0 if m >= 0 else -1 for m in prep.match[row, s0: s0 + len(system)]]
            assert got_match == want[v]["match"], (d, v)
            assert prep.unique[row, s0: s0 + len(system)].tolist() == want[v]["unique"], (d, v)
            assert prep.counted[row, g0: g0 + len(gold)].tolist() == want[v]["counted"], (d, v)
        assert prep.unique[REL, s0: s0 + len(system)].tolist() == want["unique_rel"]
        g0 += len(gold)
        s0 += len(system)


@settings(max_examples=150, deadline=None)
@given(st.lists(DOC, min_size=1, max_size=3), st.lists(IDS, max_size=4))
def test_element_kernel_agrees_with_the_oracle(docs, token_range):
    prep = _run(docs, "overlap", token_range or None)
    for side in ("first", "second"):
        el = prep.elements[side]
        g0 = s0 = o0 = 0
        n_gold, n_sys = prep.n_gold, prep.n_system
        for d, (gold, system) in enumerate(docs):
            kept = [system[k] for k in prep.system.rows[d]]
            out = [system[k] for k in prep.out.rows[d]]
            want = ref.elements(gold, kept, out, side)
            assert el["gold_new"][g0: g0 + len(gold)].tolist() == want["gold_new"]
            got = [int(m) - n_gold - s0 if m >= 0 else -1 for m in el["gold_match"][g0: g0 + len(gold)]]
            assert got == want["gold_match"]
            pairs = [(int(g) - g0, int(s) - n_gold - s0) for g, s in el["pairs"] if g0 <= g < g0 + len(gold)]
            assert pairs == want["pairs"]
            assert el["system_new"][s0: s0 + len(kept)].tolist() == want["system_new"]
            assert el["system_matched"][s0: s0 + len(kept)].tolist() == want["system_matched"]
            assert el["system_new"][n_sys + o0: n_sys + o0 + len(out)].tolist() == want["out_new"]
            g0 += len(gold)
            s0 += len(kept)
            o0 += len(out)


@settings(max_examples=100, deadline=None)
@given(st.lists(DOC, min_size=1, max_size=3))
def test_relation_mismatch_kernel_agrees_with_the_oracle(docs):
    prep = _run(docs, "overlap")
    got = prep.mismatches()
    want = []
    g0 = s0 = 0
    for gold, system in docs:
        want += [(prep.n_gold + s0 + s, g0 + g) for s, g in ref.relation_mismatches(gold, system)]
        g0 += len(gold)
        s0 += len(system)
    assert [tuple(map(int, p)) for p in got] == want


@KERNEL_RUNS
def test_postings_list_a_row_once_per_id(runner):
    from fastscore.kernels.triples import postings, sort_elements

    postings, sort_elements = runner(postings), runner(sort_elements)
    off = np.array([0, 3, 4], dtype=np.int64)
    ids = sort_elements(off, np.array([2, 0, 2, 2], dtype=np.int64))
    p_off, p = postings(off, ids, 0, 2, 3)
    assert p_off.tolist() == [0, 1, 1, 3] and p.tolist() == [0, 0, 1]


def test_parallel_kernel_equals_the_serial_one():
    """The prange driver (large corpora) gives the serial kernel's arrays, whatever the threads."""
    import random

    from fastscore.kernels.triples import match_triples, match_triples_parallel

    rng = random.Random(3)
    ids = [f"w{k}" for k in range(12)]
    docs = []
    for _ in range(20):
        def t():
            return ref.T(rng.sample(ids, rng.randint(0, 2)), rng.sample(ids, rng.randint(0, 2)),
                         rng.choice(["a", "A", "b", "participant", "patient"]))
        docs.append(([t() for _ in range(rng.randint(0, 15))], [t() for _ in range(rng.randint(0, 15))]))
    prep = _run(docs, "exact")
    st = prep.store
    args = (st["f_off"], st["f_ids"], st["s_off"], st["s_ids"], st["fold"], st["rel"], st["flags"], st["doc"],
            prep.offsets["gold"], prep.offsets["system"], st["n_keys"], True)
    for a, b in zip(match_triples(*args), match_triples_parallel(*args)):
        assert np.array_equal(a, b)
