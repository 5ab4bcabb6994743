"""fastscore.pairing: the one pairing of gold and system documents, against a plain reference, and each task's
declared policy as its scorer applies it."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastscore import tasks
from fastscore.pairing import Pairing, pair


def reference_pair(gold: list[str], system: list[str], order: str):
    """Obviously correct: each gold name (position i) looks through the whole system list for its last equal
    name; missing are the gold names found nowhere, extra the system names no gold name equals."""
    pairs = []
    for i, name in enumerate(gold):
        found = None
        for j, other in enumerate(system):
            if other == name:
                found = j
        pairs.append((name, i, found))
    if order == "sorted":
        pairs = sorted(pairs, key=lambda p: (p[0], p[1]))  # stable on equal names: gold order
    missing = [name for name, _, found in pairs if found is None]
    extra = [name for name in system if name not in gold]
    disjoint = len(system) > 0 and all(name not in gold for name in system)
    return pairs, missing, extra, disjoint


names = st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f", "B", "a1"]), max_size=8)


@settings(max_examples=300, deadline=None)
@given(names, names, st.sampled_from(["gold", "sorted"]))
def test_pair_agrees_with_the_reference(gold, system, order):
    got = pair(gold, system, Pairing(order=order))
    assert (got.pairs, got.missing, got.extra, got.disjoint) == reference_pair(gold, system, order)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from("abcdef"), unique=True), st.lists(st.sampled_from("abcdef"), unique=True))
def test_mappings_pair_their_items(gold, system):
    got = pair({n: n.upper() for n in gold}, {n: n * 2 for n in system})
    assert got.pairs == [(n, n.upper(), n * 2 if n in system else None) for n in gold]
    assert got.missing == [n for n in gold if n not in system]
    assert got.extra == [n for n in system if n not in gold]


def test_sorted_order_and_missing_follow_the_pairs():
    got = pair({"z": 1, "a": 2, "m": 3}, {"m": 4, "q": 5}, Pairing(order="sorted"))
    assert got.pairs == [("a", 2, None), ("m", 3, 4), ("z", 1, None)]
    assert got.missing == ["a", "z"] and got.extra == ["q"] and not got.disjoint
    assert pair(["a"], ["b", "c"]).disjoint and not pair(["a"], []).disjoint


def test_a_policy_keys_names():
    assert Pairing().key_of("x.tml", {}) == "x.tml"
    cut = Pairing(key=lambda name, options: name[: -options["n"]])
    assert cut.key_of("doc.kaf.trp", {"n": 8}) == "doc"


def test_each_task_declares_its_policy():
    """What each official tool does with unpaired documents, as the tasks declare it."""
    declared = {name: (t.pairing.missing, t.pairing.extra, t.pairing.order) for name, t in tasks.TASKS.items()}
    assert declared == {"coref": ("empty", "warn", "gold"), "explain": ("empty", "warn", "gold"),
                        "nugget": ("empty", "warn", "sorted"), "temporal": ("error", "error", "sorted"),
                        "triples": ("error", "error", "gold")}
    assert tasks.TASKS["triples"].pairing.key_of("doc.kaf.trp", {"ignore_file_suffix": 8}) == "doc"
    assert all(t.pairing.error is None for name, t in tasks.TASKS.items() if name != "triples")


@pytest.mark.filterwarnings("ignore")
def test_tasks_apply_their_policy(tmp_path):
    """coref: a key document the response lacks is scored as empty, extra ones warned; nugget: documents in
    sorted order; temporal: an extra system file is an error."""
    import fastscore
    from fastscore.errors import InputError

    doc = lambda name: f"#begin document ({name}); part 000\n{name} 0 0 w (1)\n{name} 0 1 w (1)\n\n#end document\n"
    (tmp_path / "k.conll").write_text(doc("b") + doc("a"))
    (tmp_path / "r.conll").write_text(doc("a") + doc("c"))
    result = fastscore.score(tmp_path / "k.conll", tmp_path / "r.conll", task="coref")
    b, a = "(b); part 000", "(a); part 000"
    assert list(result.doc_stats.doc_names) == [b, a] and result.missing == [b]
    assert any('1 response document(s) not in the key, ignored: "(c); part 000"' in w for w in result.warnings)

    tbf = lambda *names: "".join(f"#BeginOfDocument {n}\nsys\t{n}\tE1\t0,3\tw\tConflict_Attack\tActual\n"
                                 "#EndOfDocument\n" for n in names)
    (tmp_path / "g.tbf").write_text(tbf("z", "a"))
    (tmp_path / "s.tbf").write_text(tbf("a"))
    result = fastscore.score(tmp_path / "g.tbf", tmp_path / "s.tbf", task="nugget", char_spans=True)
    assert list(result.doc_stats.doc_names) == ["a", "z"]

    from fastscore.formats.timeml import TimemlInput
    from fastscore.temporal.score import pairs

    folder = lambda *names: TimemlInput("gold", {n: n.upper() for n in names}, True)
    assert pairs(folder("y.tml", "x.tml"), folder("x.tml", "y.tml")) == [("x.tml", "X.TML", "X.TML"),
                                                                        ("y.tml", "Y.TML", "Y.TML")]
    with pytest.raises(InputError, match=r"1 system file\(s\) not in the gold \(first: 'y.tml'\)"):
        pairs(folder("x.tml"), folder("x.tml", "y.tml"))
