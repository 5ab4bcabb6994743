"""How the Triple evaluation module reads a file's bytes (issue 36; slow: ``-m slow``): the seeded cases of
``scripts/make_triples_quirks.py`` (a BOM, an ignored XML declaration, UTF-16, ``İ`` in names and relations,
truncated, malformed, empty and blank files), regenerated and checked against their stored digests, scored
with and without the token range: the report identical to the one the module wrote (``--output module``)."""
import gzip
import json
import sys

import pytest

from fastscore.triples.report import render
from fastscore.triples.score import score_triples
from tests.conftest import ROOT, TESTDATA

sys.path.insert(0, str(ROOT / "scripts"))
from make_triples_quirks import RUNS, digest, quirk_case, write_files  # noqa: E402

STORED = json.loads(gzip.decompress((TESTDATA / "triples_anchors" / "quirks.json.gz").read_bytes()))


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(STORED["cases"]))
def test_quirk_case_as_the_module_reads_it(case, tmp_path, monkeypatch):
    exp = STORED["cases"][case]
    quirk, files = quirk_case(STORED["seed"], int(case.split("-")[1]))
    assert quirk == exp["quirk"] and {k: digest(v) for k, v in sorted(files.items())} == exp["inputs"]
    write_files(tmp_path, files)
    monkeypatch.chdir(tmp_path)  # the report names the files as given
    for run, report in exp["reports"].items():
        keywords = {"token_range": "range.txt"} if "--token-range" in RUNS[run] else {}
        result = score_triples("gold.trp", "system.trp", location_defect=True, **keywords)
        assert render(result, "module") == report, run
