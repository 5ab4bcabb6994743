import os
from pathlib import Path

import pytest

# the kernels' threads as the command line runs them (cli.run): a fork-safe threading layer, so that the tests'
# process pools and LocalClusters fork their workers whatever parallel kernel ran before in the same process
os.environ.setdefault("NUMBA_THREADING_LAYER", "forksafe")

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("FASTSCORE_SHARED", ROOT.parent / "shared")) / "data"
TESTDATA = Path(__file__).resolve().parent / "data"


def pytest_configure(config):
    """Many tests read the shared test data: without it the whole run stops with one reason
    (rather than some tests skipping and others failing, or parametrized lists coming out empty)."""
    if not SHARED.is_dir():
        raise pytest.UsageError(f"the shared test data is not at {SHARED}: put the shared/ folder beside the "
                                "project, or set FASTSCORE_SHARED to the folder that holds data/")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    return SHARED


def _ignoring(*messages: str) -> list:
    """Marks that ignore FastscoreWarnings whose text contains one of these phrases (and no other warning)."""
    return [pytest.mark.filterwarnings(f"ignore:.*{m}:fastscore.errors.FastscoreWarning") for m in messages]


# What a scorer warns about on inputs made nasty on purpose (the official test cases, the seeded generators,
# the fuzzers). Modules that score such inputs for their numbers ignore these warnings by name, so that the
# test run ends without a page of expected warnings; the warnings themselves are checked where they are the
# subject (pytest.warns in test_bad_input, test_nugget_inputs, test_tbf_reader, test_sequencing ...).
COREF_INPUT_NOTES = _ignoring(
    "repeated response mention\\(s\\) of key spans dropped",  # v8.01 drops repeats with a note
    "key document\\(s\\) missing from the response",  # generated responses leave documents out
    "response document\\(s\\) not in the key",  # and fuzzed ones rename them
)
NUGGET_INPUT_NOTES = _ignoring(
    "gold document\\(s\\) missing from the system output",
    "system document\\(s\\) not in the gold standard",
    "@Coreference member\\(s\\) name mentions that are not defined",
    "mention\\(s\\) reuse an id",
    "coreference cluster\\(s\\) hold two mentions with the same span",  # EvmEval scores them anyway
    "event sequencing link\\(s\\) join two mentions of one coreference cluster",
    "event sequencing link\\(s\\) name a mention that is not defined",
)
