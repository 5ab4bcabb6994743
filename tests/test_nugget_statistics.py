"""Event nugget statistics feed bootstrap, compare and sweep like coreference (issue 4)."""
import json

import pytest

import fastscore
from fastscore.cli import main
from fastscore.formats.tbf import TbfFile, read_tbf
from fastscore.stats.resample import bootstrap_indices
from tests.conftest import NUGGET_INPUT_NOTES, TESTDATA

# the nugget anchors hold clusters with two mentions of one span, as EvmEval allows
pytestmark = NUGGET_INPUT_NOTES

CASE = TESTDATA / "nugget_anchors" / "case-001"
CASES = sorted((TESTDATA / "nugget_anchors").glob("case-0[0-4]*"))


def _largest_case():
    return max(CASES, key=lambda c: len(read_tbf(c / "gold.char.tbf").documents))


def _write_resampled(path, tbf: TbfFile, names: list[str]):
    """A TBF file with the documents ``names`` in that order, repeats renamed."""
    lines = []
    for k, name in enumerate(names):
        if name not in tbf.documents:
            continue
        doc = tbf.documents[name]
        lines.append(f"#BeginOfDocument {k:03d}#{name}")
        lines += ["\t".join(["s", name, m.id, m.span, m.text, m.type, m.realis]) for m in doc.mentions]
        lines += [f"@{r.name}\t{r.id}\t{','.join(r.args)}" for r in doc.relations]
        lines.append("#EndOfDocument")
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("seed", [3, 8])
def test_bootstrap_equals_physically_resampled_corpus(seed, tmp_path):
    case = _largest_case()
    gold, system = read_tbf(case / "gold.char.tbf"), read_tbf(case / "system.char.tbf")
    with pytest.warns(fastscore.FastscoreWarning, match="only 4 resamples"):  # enough to compare two ways
        result = fastscore.bootstrap(fastscore.score_nugget(gold, system, preset="kbp2016", coref=True), 4,
                                     seed=seed)
    names = result.documents
    index = next(bootstrap_indices(len(names), 4, seed))
    for b in range(4):
        chosen = [names[i] for i in index[b]]
        again = fastscore.score_nugget(_write_resampled(tmp_path / f"g{b}.tbf", gold, chosen),
                                       _write_resampled(tmp_path / f"s{b}.tbf", system, chosen), preset="kbp2016",
                                       coref=True)
        stats = again.doc_stats
        for m in result.metrics:
            want = float(stats.f1(m, stats.total())[0])
            assert result.bootstrap.samples[m][b] == pytest.approx(want, rel=1e-12, abs=1e-12), m


def test_nugget_bootstrap_json(capsys):
    assert main(["nugget", str(CASE / "gold.char.tbf"), str(CASE / "system.char.tbf"), "--preset", "kbp2016",
                 "--coref", "--bootstrap", "300", "-o", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    lo, hi = data["metrics"]["span"]["micro"]["ci"]
    assert lo <= data["metrics"]["span"]["micro"]["f1"] <= hi
    assert "ci" in data["coref"]["muc"] and "average_ci" in data["coref"]


def test_compare_and_sweep_nuggets(capsys, tmp_path):
    case = _largest_case()
    gold, system = str(case / "gold.char.tbf"), str(case / "system.char.tbf")
    full = tmp_path / "system-full.tbf"  # the system with every gold document (compare needs them all)
    sys_docs = read_tbf(system).documents
    lines = []
    for doc_id in sorted(read_tbf(gold).documents):
        lines.append(f"#BeginOfDocument {doc_id}")
        for m in (sys_docs[doc_id].mentions if doc_id in sys_docs else []):
            lines.append("\t".join(["s", doc_id, m.id, m.span, m.text, m.type, m.realis]))
        lines.append("#EndOfDocument")
    full.write_text("\n".join(lines) + "\n")
    assert main(["compare", "--task", "nugget", "--preset", "kbp2016", gold, str(full), gold,
                 "--metric", "type", "--resamples", "500", "-o", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["task"] == "nugget" and data["metric"] == "type"
    assert data["systems"][0]["score"] == 1.0 and data["systems"][0]["delta"] > 0
    assert main(["sweep", "--task", "nugget", "--preset", "kbp2016", gold, str(full), gold, "-o", "json"]) == 0
    ranked = json.loads(capsys.readouterr().out)["systems"]
    assert ranked[0]["name"] == gold and set(ranked[0]["metrics"]) >= {"span", "type", "realis", "type+realis"}
    assert main(["compare", "--task", "nugget", "--preset", "kbp2016", gold, str(full), gold, "--metric", "muc"]) == 2
    if len(read_tbf(system).documents) < len(read_tbf(gold).documents):
        assert main(["compare", "--task", "nugget", "--preset", "kbp2016", gold, system, gold]) == 1
