import os
from pathlib import Path

import pytest

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
