"""score_nugget on mention records in memory: the numbers of the TBF files they come from."""
import pytest

import fastscore
from fastscore.errors import UsageError
from fastscore.formats.tbf import read_tbf
from tests.conftest import SHARED

DEMO = SHARED / "evmeval-demo"


def _records(path, as_tuples=False):
    """A TBF file's mentions as records, coreference clusters from its @Coreference lines."""
    tbf = read_tbf(path, allow_empty=True)
    out = []
    for doc in tbf.documents.values():
        cluster = {m: r.id for r in doc.relations if r.name == "Coreference" for m in r.args}
        for row in range(doc.start, doc.end):
            if as_tuples:
                out.append((doc.id, tbf.ids[row], tbf.spans[row], tbf.types[row], tbf.realis[row],
                            cluster.get(tbf.ids[row])))
            else:
                out.append({"doc": doc.id, "id": tbf.ids[row], "tokens": tbf.spans[row], "type": tbf.types[row],
                            "realis": tbf.realis[row], "text": tbf.texts[row], "cluster": cluster.get(tbf.ids[row])})
    return out


def _report(gold, system, **options):
    out = fastscore.score_nugget(gold, system, **options).to_dict()
    out.pop("signature")
    return out


@pytest.mark.parametrize("system", ["system_A.tbf", "gold.tbf"])
@pytest.mark.parametrize("as_tuples", [False, True])
def test_records_score_as_their_files(system, as_tuples):
    gold, resp = DEMO / "gold.tbf", DEMO / system
    options = dict(preset="kbp2016", coref=True)
    expected = _report(gold, resp, **options)
    assert _report(_records(gold, as_tuples), _records(resp, as_tuples), **options) == expected
    assert _report(gold, _records(resp, as_tuples), **options) == expected


def test_token_id_lists_are_joined():
    gold = [{"doc": "d", "id": "E1", "tokens": ["t1", "t2"], "type": "A", "realis": "Actual"}]
    system = [("d", "S1", "t1,t2", "A", "Actual")]
    with pytest.warns(fastscore.FastscoreWarning, match="no token table"):  # kbp2015 without token tables
        result = fastscore.score_nugget(gold, system)
    assert result.averages(0)["micro"]["f1"] == 1.0


@pytest.mark.parametrize("record, message", [
    ({"doc": "d", "id": "E1", "tokens": ["t1"], "type": "A"}, "realis missing"),
    ({"doc": "d", "id": "E 1", "tokens": ["t1"], "type": "A", "realis": "Actual"}, "cannot be written"),
    ("d E1 t1 A Actual", "mention record"),
])
def test_bad_records_are_clear_errors(record, message):
    with pytest.raises(UsageError, match=message):
        fastscore.score_nugget([record], [record])
