"""MINA minimum-span matching (issue 11): agreement with coval's ``min_span`` (ns-moosavi/coval) on
generated CoNLL-2012 files with constituency parses and on hand-written edge cases
(tests/data/mina_anchors, made by scripts/make_mina_anchors.py; what each configuration means is in
its docstring), in coval's seven configurations; coval's printed report; inputs to refuse."""
import contextlib
import io
import json
import math
import re
from pathlib import Path

import pytest

import fastscore
from fastscore.cli import main
from fastscore.errors import InputError
from tests.conftest import TESTDATA, sample_in_default_run

ANCHORS = TESTDATA / "mina_anchors"
INDEX = json.loads((ANCHORS / "index.json").read_text())
CASES = {k[len("case "):]: v for k, v in INDEX.items() if k.startswith("case ")}
CONFIGS = INDEX["configs"]

# coval's metric (the driver's names) -> fastscore's registry name
METRIC_NAMES = {"mentions": "mentions", "muc": "muc", "b_cubed": "bcub", "ceafe": "ceafe", "ceafm": "ceafm",
                "lea": "lea"}
FRACTIONAL = {"bcub", "ceafe", "lea"}  # numerators are sums of fractions: compared to 1e-9 relative
# coval's ceafm (in its evaluator, not in scorer.py's list) divides by the number of clusters, not of mentions
# (F1 can exceed 1): a defect; only its numerators are compared
NUMERATORS_ONLY = {"ceafm"}
ORDER = ("precision_num", "precision_den", "recall_num", "recall_den")  # the driver's [p_num, p_den, r_num, r_den]

# coval's flags -> fastscore's keywords
KEYWORDS = {
    "min_span": {"match": "mina", "mina_variant": "coval", "singletons": "keep"},
    "min_span+remove_singletons": {"match": "mina", "mina_variant": "coval", "singletons": "drop"},
    "min_span+NP_only": {"match": "mina", "mina_variant": "coval", "singletons": "keep", "np_only": True},
    "min_span+remove_nested": {"match": "mina", "mina_variant": "coval", "singletons": "keep",
                               "remove_nested": True},
    "min_span+NP_only+remove_nested+remove_singletons": {"match": "mina", "mina_variant": "coval", "singletons": "drop",
                                                         "np_only": True, "remove_nested": True},
    "NP_only": {"match": "exact", "singletons": "keep", "np_only": True},
    "remove_nested": {"match": "exact", "singletons": "keep", "remove_nested": True},
}
MINA_CONFIGS = [c for c in CONFIGS if c.startswith("min_span")]
CLI_CASES = ("case-001", "case-007", "case-012", "edge-coordination", "edge-star-runs", "edge-verbal")


def path(name: str, side: str) -> str:
    """A case file: generated cases are stored gzipped (fastscore reads them as they are)."""
    plain = ANCHORS / f"{name}.{side}"
    return str(plain if plain.exists() else ANCHORS / f"{name}.{side}.gz")


def expected(name: str) -> dict:
    return json.loads((ANCHORS / f"{name}.json").read_text())


def scored_params():
    out = []
    for name, info in CASES.items():
        if info["kind"] == "bad":
            continue
        for config in CONFIGS:
            if config in info.get("coval_raised", ()):
                continue
            out.append(pytest.param(name, config, id=f"{name}-{config}"))
    return out


def score(name: str, config: str):
    return fastscore.score_coref(path(name, "key"), path(name, "response"), **KEYWORDS[config])


def _close(got: float, want: float, fractional: bool) -> bool:
    if not fractional:
        return got == want
    return math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12)


def _compare(row, want: dict, where: str) -> list[str]:
    """Differences between fastscore's statistics (``row[column]``) and coval's numbers."""
    bad = []
    for coval_name, numbers in want.items():
        m = METRIC_NAMES[coval_name]
        for part, value in zip(ORDER, numbers):
            if m in NUMERATORS_ONLY and part.endswith("_den"):
                continue
            got = float(row[f"{m}_{part}"])
            if not _close(got, float(value), m in FRACTIONAL and part.endswith("_num")):
                bad.append(f"{where} {m}_{part}: fastscore {got!r}, coval {value!r}")
    return bad


def _coval_f1(p_num, p_den, r_num, r_den) -> float:
    p = 0 if p_den == 0 else p_num / p_den
    r = 0 if r_den == 0 else r_num / r_den
    return 0 if p + r == 0 else 2 * p * r / (p + r)


def test_anchor_data_cover_every_configuration():
    assert INDEX["configs"].keys() == KEYWORDS.keys()
    kinds = {info["kind"] for info in CASES.values()}
    assert kinds == {"generated", "edge", "bad"}
    assert sum(info["kind"] == "generated" for info in CASES.values()) >= 40
    for name, info in CASES.items():
        exp = expected(name)
        assert exp.keys() == CONFIGS.keys(), name
        for side in ("key", "response"):
            assert (ANCHORS / f"{name}.{side}").exists() or (ANCHORS / f"{name}.{side}.gz").exists()
        if info["kind"] != "bad":
            assert not info.get("coval_raised"), name  # coval scores every generated and edge case


def _sentences(text: str):
    """(parse bits of each sentence) of a CoNLL file's text."""
    sent = []
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            if sent:
                yield sent
            sent = []
            continue
        sent.append(line.split()[5])
    if sent:
        yield sent


@pytest.mark.parametrize("name", [n for n, i in CASES.items() if i["kind"] != "bad"])
def test_keys_have_complete_balanced_trees(name):
    """The generator's parses: every sentence one tree under TOP, brackets balanced, one '*' per token."""
    import gzip

    p = path(name, "key")
    data = Path(p).read_bytes()
    text = (gzip.decompress(data) if p.endswith(".gz") else data).decode()
    n = 0
    for bits in _sentences(text):
        n += 1
        depth = 0
        for k, bit in enumerate(bits):
            assert re.fullmatch(r"(\([A-Z$]+)*\*\)*", bit), (name, bit)
            depth += bit.count("(") - bit.count(")")
            assert depth > 0 or k == len(bits) - 1, (name, n, k)
        assert depth == 0 and bits[0].startswith("(TOP"), (name, n)
    assert n > 0


@pytest.mark.parametrize("name,config", sample_in_default_run(scored_params(), 3))
def test_agreement_with_coval(name, config):
    want = expected(name)[config]
    result = score(name, config)
    stats = result.doc_stats
    assert list(stats.doc_names) == want["docs"]
    bad = _compare(stats.sums(), want["totals"], "total")
    for k, doc in enumerate(want["docs"]):
        rows = want.get("per_doc")
        if rows is None:  # one document: its row is the total
            per = want["totals"]
        else:
            per = {metric: values[k] for metric, values in rows.items()}
        bad += _compare({c: stats.column(c)[k] for c in stats.columns}, per, doc)
    sums = stats.sums()
    for coval_name, numbers in want["totals"].items():
        m = METRIC_NAMES[coval_name]
        if m in NUMERATORS_ONLY:
            continue
        spec = stats.registry[m]
        f1 = float(spec.score(sums)["f1"])
        if not math.isclose(f1, _coval_f1(*numbers), rel_tol=1e-9, abs_tol=1e-12):
            bad.append(f"F1 {m}: fastscore {f1!r}, coval {_coval_f1(*numbers)!r}")
    assert not bad, "\n".join(bad[:20])


SCORED_WHERE_CRASH = {"bad-missing-document": "edge-empty-document"}  # coval: KeyError; fastscore: a warning
SCORED_WITH_WARNING = {"bad-unbalanced-parse"}  # coval reads it quietly; fastscore as coval, with a warning


@pytest.mark.parametrize("name", [n for n, i in CASES.items() if i["kind"] == "bad"
                                  and n not in SCORED_WHERE_CRASH and n not in SCORED_WITH_WARNING])
@pytest.mark.parametrize("config", MINA_CONFIGS)
def test_refused_inputs(name, config):
    """Inputs coval crashes on or scores quietly (a key without parses, a response mention crossing
    sentences or on tokens the key lacks, a stray closing bracket):
    fastscore stops with one clear line (an InputError, not a usage error)."""
    with pytest.raises(InputError) as info:
        score(name, config)
    assert "\n" not in str(info.value) and str(info.value)


@pytest.mark.parametrize("name", SCORED_WITH_WARNING)
@pytest.mark.parametrize("config", list(CONFIGS))
def test_loose_parse_scored_as_coval(name, config):
    """A sentence whose parse brackets do not balance: coval builds each mention's tree from its own
    tokens; fastscore gives its numbers, with one warning naming the place."""
    want = expected(name)[config]
    if config.startswith("min_span") or "NP_only" in config:
        with pytest.warns(fastscore.FastscoreWarning, match=r"\.key:[0-9]+: .*do not balance"):
            result = score(name, config)
    else:
        result = score(name, config)
    assert list(result.doc_stats.doc_names) == want["docs"]
    bad = _compare(result.doc_stats.sums(), want["totals"], "total")
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("name", SCORED_WHERE_CRASH)
@pytest.mark.parametrize("config", MINA_CONFIGS)
def test_missing_document_scored_as_empty(name, config):
    """A key document the response lacks: coval raises KeyError; fastscore warns and scores it as an
    empty document, which is what coval gives for the same response with the document present and empty."""
    assert "error" in expected(name)[config]
    with pytest.warns(fastscore.FastscoreWarning, match="missing from the response"):
        result = score(name, config)
    want = expected(SCORED_WHERE_CRASH[name])[config]
    stats = result.doc_stats
    assert list(stats.doc_names) == want["docs"]
    bad = _compare(stats.sums(), want["totals"], "total")
    for k, doc in enumerate(want["docs"]):
        per = {metric: values[k] for metric, values in want["per_doc"].items()}
        bad += _compare({c: stats.column(c)[k] for c in stats.columns}, per, doc)
    assert not bad, "\n".join(bad[:20])


def _cli(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse refusing an unknown option
            code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", CLI_CASES)
def test_cli_prints_coval_report(name):
    """``--output coval``: coval's scorer.py report lines (mentions, muc, bcub, ceafe, lea, CoNLL
    score), two decimals, to the character (coval's reading messages are warnings: not on stdout)."""
    want = expected(name)["min_span"]["report"]
    code, out, err = _cli("coref", path(name, "key"), path(name, "response"), "--match", "mina",
                          "--output", "coval")
    assert code == 0, err
    assert out == want


def test_mina_forgives_what_exact_matching_does_not():
    """Sanity check on the data: on some generated cases, min spans score higher than exact spans
    (coval's numbers, no fastscore involved): the boundary errors do reach MINA."""
    higher = 0
    for name, info in CASES.items():
        if info["kind"] != "generated":
            continue
        exp = expected(name)
        mina = exp["min_span+NP_only"]["totals"]["mentions"]
        exact = exp["NP_only"]["totals"]["mentions"]
        higher += mina[2] * exact[3] > exact[2] * mina[3]
    assert higher >= 10
