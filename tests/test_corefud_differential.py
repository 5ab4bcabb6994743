"""CorefUD: generated pairs with mentions in two entities, repeated spans, heads outside mentions and empty
documents, against corefud-scorer 1.2 in all 12 configurations (tests/data/corefud_differential, made by
scripts/make_corefud_differential.py, which regenerates the pairs from scripts/gen_conllu.py)."""
import contextlib
import io
import math
import sys
import warnings
from pathlib import Path

import pytest

import fastscore
from fastscore.cli import main
from fastscore.errors import FastscoreError, FastscoreWarning
from fastscore.coref.reports import corefud as corefud_report

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import make_corefud_differential as differential  # noqa: E402

PRF = ("precision_num", "precision_den", "recall_num", "recall_den")  # the scorer's order of counts
METRICS = ("muc", "bcub", "ceafe", "ceafm", "lea", "mor", "zero")


def _same_counts(got, want) -> bool:
    """Counts equal; sums of fractions (B-cubed, CEAFe, LEA numerators) to the last bits only: the scorer adds
    them in its own order (numpy's pairwise sums, documents one by one), fastscore exactly (``math.fsum``)."""
    flat = lambda x: [v for part in x for v in part] if isinstance(x[0], list) else list(x)  # noqa: E731
    got, want = flat(got), flat(want)
    return len(got) == len(want) and all(g == w or ((g != int(g) or w != int(w)) and math.isclose(g, w, rel_tol=1e-12))
                                         for g, w in zip(got, want))


def write_pair(case: dict, folder: Path) -> tuple[Path, Path]:
    """The case's key and response, regenerated and checked against the digests the scorer saw."""
    key, resp = differential.pair(case)
    assert differential.digest(key) == case["key_sha256"], "the generator changed: rerun the make script"
    assert differential.digest(resp) == case["response_sha256"], "the generator changed: rerun the make script"
    kp, rp = folder / f"{case['name']}.key.conllu", folder / f"{case['name']}.response.conllu"
    kp.write_text(key, encoding="utf-8")
    rp.write_text(resp, encoding="utf-8")
    return kp, rp


def outcomes(case: dict, folder: Path) -> dict[str, str]:
    """Per configuration: "identical" (counts and report; warnings allowed), "refused" (the scorer stops, fastscore
    gives one clear error), "warned" (the scorer crashes on what fastscore scores with a warning saying so, as the
    scorer scores the pair without the edit: ``plain_results``), else what differs."""
    kp, rp = write_pair(case, folder)
    out = {}
    for config, want in case["results"].items():
        plain = case.get("plain_results", {}).get(config)
        if "error" in want and plain is not None and "error" not in plain:
            found = _compare(kp, rp, config, plain, crash=True)
            out[config] = "warned" if not found else found
        else:
            out[config] = _compare(kp, rp, config, want) or ("refused" if "error" in want else "identical")
    return out


def differences(case: dict, folder: Path) -> list[str]:
    """The configurations of a case where fastscore's report or counts differ from the scorer's."""
    return [f"{config}: {found}" for config, found in outcomes(case, folder).items()
            if found not in ("identical", "refused", "warned")]


def _compare(kp: Path, rp: Path, config: str, want: dict, crash: bool = False) -> str:
    """What differs between fastscore's run and the scorer's (``want``), "" if nothing; ``crash``: the scorer
    crashes on these files, and fastscore must say so in a warning."""
    mode, singletons, zeros = config.split("-")
    if "error" in want:  # the scorer stops: one clear error line
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(["coref", str(kp), str(rp), "--match", mode, "--singletons", singletons,
                         "--zero-match", zeros, "-o", "corefud"])
        lines = [ln for ln in err.getvalue().splitlines() if ln.startswith("fastscore: error:")]
        return "" if code == 1 and len(lines) == 1 else f"the scorer stops ({want['error']}), fastscore exit {code}"
    try:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always", FastscoreWarning)
            result = fastscore.score_coref(kp, rp, match=mode, singletons=singletons, zero_match=zeros)
    except FastscoreError as exc:
        return f"refused ({str(exc)[:80]})"
    if crash and not any("CorefUD scorer crashes" in str(w.message) for w in said):
        return "scored without saying that the scorer crashes"
    got = result.to_dict()["metrics"]
    counts = {m: [got[m][c] for c in PRF] for m in METRICS}
    counts["blanc"] = [[got["blanc"][part][c] for c in PRF] for part in ("coref_links", "noncoref_links")]
    wrong = [m for m in counts if not _same_counts(counts[m], want["counts"][m])]
    text = corefud_report.render(result)
    if wrong or text != want["stdout"]:
        return f"counts of {wrong or 'none'} differ" + ("" if text == want["stdout"] else ", report differs")
    return ""


@pytest.mark.slow
def test_generated_pairs_score_as_the_corefud_scorer(tmp_path):
    expected = differential.load()
    assert len(expected["cases"]) >= 200
    found = {name: differences(case, tmp_path) for name, case in expected["cases"].items()}
    wrong = {name: d for name, d in found.items() if d}
    assert not wrong, f"{len(wrong)} cases differ, first: {next(iter(wrong.items()))}"


@pytest.mark.slow
def test_pairs_of_issue_36s_classes_score_as_the_corefud_scorer(tmp_path):
    """Headers, head digits, comment blocks, short lines, newdoc ids: identical or refused as the scorer stops;
    blank and empty lines it crashes on: scored as it scores the pair without them, with a warning."""
    expected = differential.load_quirks()
    found = {name: differences(case, tmp_path) for name, case in expected["cases"].items()}
    wrong = {name: d for name, d in found.items() if d}
    assert not wrong, f"{len(wrong)} cases differ, first: {next(iter(wrong.items()))}"


def test_pairs_of_issue_36s_classes_were_made_for_every_class():
    expected = differential.load_quirks()
    classes = {case["quirk"] for case in expected["cases"].values()}
    assert classes == set(differential.QUIRKS)
    for case in expected["cases"].values():
        if differential.QUIRKS[case["quirk"]][1]:  # the scorer crashes: its figures without the edit are kept
            assert all("error" in r for r in case["results"].values()) and "plain_results" in case


def test_generated_pairs_have_the_features_and_the_scorer_read_them():
    """The stored pairs hold every feature they are meant to (checked on the scorer's own warnings'
    subject: spans in two entities) and almost all were scored, not refused."""
    expected = differential.load()
    runs = [r for case in expected["cases"].values() for r in case["results"].values()]
    assert len(runs) >= 2400
    assert sum("error" in r for r in runs) < len(runs) // 10
    params = [case["params"] for case in expected["cases"].values()]
    for feature in ("p_two_entities", "p_duplicate", "p_head_outside", "p_empty_doc", "ties", "p_twin_heads"):
        assert sum(bool(p[feature]) for p in params) > 20, feature


def _joined(cases: list[dict], folder: Path) -> tuple[Path, Path]:
    """The cases' pairs joined into one key and one response file (document ids made unique), and each
    pair also as a shard of a key folder and a response folder (``folder/key``, ``folder/response``)."""
    texts: dict[str, list[str]] = {"key": [], "response": []}
    for case in cases:
        for side, text in zip(("key", "response"), differential.pair(case)):
            text = text.replace("# newdoc id = ", f"# newdoc id = {case['name']}-")
            texts[side].append(text)
            (folder / side).mkdir(exist_ok=True)
            (folder / side / f"{case['name']}.conllu").write_text(text, encoding="utf-8")
    for side in texts:
        (folder / f"{side}.conllu").write_text("".join(texts[side]), encoding="utf-8")
    return folder / "key.conllu", folder / "response.conllu"


def _case_counts(result, case: dict) -> dict[str, list[float]]:
    """The integral counts (MUC, CEAFm, zero) of one case's documents in a result of joined cases."""
    stats = result.doc_stats
    rows = [i for i, name in enumerate(stats.doc_names) if name.startswith(case["name"] + "-")]
    sums = stats.matrix[rows].sum(axis=0)
    return {m: [float(sums[stats.columns.index(f"{m}_{c}")]) for c in PRF] for m in ("muc", "ceafm", "zero")}


def _check_batches_and_shards(cases: list[dict], folder: Path, configs: list[str]) -> None:
    from fastscore.api import score_corpus
    from fastscore.formats.conllu_batches import BYTES_PER_SENTENCE

    key, resp = _joined(cases, folder)
    for config in configs:
        mode, singletons, zeros = config.split("-")
        options = {"match": mode, "singletons": singletons, "zero_match": zeros}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FastscoreWarning)
            whole = fastscore.score_coref(key, resp, **options)
            batched = score_corpus(key, resp, batch_size=2 * BYTES_PER_SENTENCE, jobs=1, **options)
            shards = score_corpus(folder / "key", folder / "response", jobs=1, **options)
        assert batched.doc_stats.doc_names == whole.doc_stats.doc_names
        assert (batched.doc_stats.matrix == whole.doc_stats.matrix).all(), config
        for case in cases:  # a shard is one case's file: the scorer's counts on it
            want = case["results"][config]["counts"]
            assert _case_counts(shards, case) == {m: want[m] for m in ("muc", "ceafm", "zero")}, (case["name"], config)


def _listed_twice(case: dict) -> bool:
    return bool(case["params"]["p_two_entities"]) and "error" not in case["results"]["head-drop-dependent"]


def test_mentions_in_two_entities_in_batches_and_shards(tmp_path):
    """Cases with mentions in two entities joined into one file, read in batches of a few sentences: each
    document's statistics are those of the whole file; as a folder of shards, one case a shard: each case's
    counts are the scorer's on its file.  (Shards are not compared with the joined file: where mentions tie,
    the scorer's set order follows sentence numbers in the file, which a shard numbers from 1.)"""
    cases = [c for c in differential.load()["cases"].values() if _listed_twice(c)][:10]
    _check_batches_and_shards(cases, tmp_path, ["head-drop-dependent", "exact-keep-linear"])


@pytest.mark.slow
def test_every_case_in_batches_and_shards(tmp_path):
    cases = [c for c in differential.load()["cases"].values()
             if all("error" not in r for r in c["results"].values())]
    _check_batches_and_shards(cases, tmp_path, ["exact-keep-linear", "partial-drop-dependent", "head-drop-dependent",
                                                "head-keep-linear"])
