"""Differential testing against the TempEval-3 toolkit (slow: ``-m slow``).

The cases (scripts/make_temporal_differential.py, one seed per case) hold what the anchor cases lack:
TLINKs repeated with a conflicting relation, events with no TLINK, documents with no entity, TLINKs to
absent entities, EVENT/TIMEX3 ids used twice, documents on one side only.  Each case is regenerated
here (its files checked against the digests stored with the toolkit's outputs), then scored with every
method: the toolkit's entity and relation lines to the digit where it finishes, one clear error where
its normaliser or a script stops (the entity lines then still where only the relation script stopped).
"""
import gzip
import json
import sys

import pytest

from fastscore.cli import main
from tests.conftest import ROOT, TESTDATA

sys.path.insert(0, str(ROOT / "scripts"))
from make_temporal_differential import case_corpus, digest, quirk_corpus, write_inputs  # noqa: E402

STORED = json.loads(gzip.decompress((TESTDATA / "temporal_differential" / "expected.json.gz").read_bytes()))
CASES = STORED["cases"]
# issue 36: the same cases with one quirk each (a character the normaliser stops on, a TLINK with both sources,
# attribute text naming an end), made by make_temporal_differential.py --quirks
QUIRKS = json.loads(gzip.decompress((TESTDATA / "temporal_differential" / "expected_quirks.json.gz").read_bytes()))
METHODS = ("te3", "acl11", "implicit_in_recall")


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["temporal", *args, "--output", "te3"])
    out, err = capsys.readouterr()
    return code, out, err


def _one_clear_error(code: int, out: str, err: str) -> bool:
    lines = err.strip().splitlines()
    return code == 1 and out == "" and len(lines) == 1 and lines[0].startswith("fastscore: error: ")


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_toolkit_differential(case, tmp_path, capsys):
    _compare(case_corpus(STORED["seed"], int(case.split("-")[1])), CASES[case], tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(QUIRKS["cases"]))
def test_toolkit_differential_quirks(case, tmp_path, capsys):
    _compare(quirk_corpus(QUIRKS["seed"], int(case.split("-")[1])), QUIRKS["cases"][case], tmp_path, capsys)


def _compare(files: dict, exp: dict, tmp_path, capsys) -> None:
    """The toolkit's lines to the digit where it finishes (warnings aside), one clear error where it stops."""
    assert {k: digest(v) for k, v in files.items()} == exp["inputs"]
    write_inputs(tmp_path, files)
    gold, system = str(tmp_path / "gold"), str(tmp_path / "system")
    for method in METHODS:
        code, out, err = _run(capsys, gold, system, "--method", method)
        if exp["normalizer_errors"] or exp["entities"]["exit"]:
            assert _one_clear_error(code, out, err), f"the toolkit stopped ({exp['normalizer_errors']}): {err}"
        elif exp[method]["exit"]:
            assert _one_clear_error(code, out, err), f"{method} stopped ({exp[method]['error']}): {err}"
            assert _run(capsys, gold, system, "--entities-only")[1] == exp["entities"]["stdout"]
        else:
            assert (code, out) == (0, exp["entities"]["stdout"] + exp[method]["stdout"]), f"{method}: {err}"
