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
from fastscore.report import corefud as corefud_report

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


def differences(case: dict, folder: Path) -> list[str]:
    """The configurations of a case where fastscore's report or counts differ from the scorer's."""
    kp, rp = write_pair(case, folder)
    out = []
    for config, want in case["results"].items():
        mode, singletons, zeros = config.split("-")
        if "error" in want:  # the scorer stops: one clear error line
            err = io.StringIO()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                code = main(["coref", str(kp), str(rp), "--match", mode, "--singletons", singletons,
                             "--zero-match", zeros, "-o", "corefud"])
            lines = [ln for ln in err.getvalue().splitlines() if ln.startswith("fastscore: error:")]
            if code != 1 or len(lines) != 1:
                out.append(f"{config}: the scorer stops ({want['error']}), fastscore exit {code}")
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FastscoreWarning)
                result = fastscore.score_coref(kp, rp, match=mode, singletons=singletons, zero_match=zeros)
        except FastscoreError as exc:
            out.append(f"{config}: refused ({str(exc)[:80]})")
            continue
        got = result.to_dict()["metrics"]
        counts = {m: [got[m][c] for c in PRF] for m in METRICS}
        counts["blanc"] = [[got["blanc"][part][c] for c in PRF] for part in ("coref_links", "noncoref_links")]
        wrong = [m for m in counts if not _same_counts(counts[m], want["counts"][m])]
        text = corefud_report.render(result)
        if wrong or text != want["stdout"]:
            out.append(f"{config}: counts of {wrong or 'none'} differ" + ("" if text == want["stdout"] else
                                                                            ", report differs"))
    return out


@pytest.mark.slow
def test_generated_pairs_score_as_the_corefud_scorer(tmp_path):
    expected = differential.load()
    assert len(expected["cases"]) >= 200
    found = {name: differences(case, tmp_path) for name, case in expected["cases"].items()}
    wrong = {name: d for name, d in found.items() if d}
    assert not wrong, f"{len(wrong)} cases differ, first: {next(iter(wrong.items()))}"


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
