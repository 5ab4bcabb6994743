"""The README's Python examples run as written, on the bundled example and the EvmEval demo files."""
import re
import shutil
import warnings

import pytest

from fastscore.errors import FastscoreWarning
from fastscore.examples import KEY, RESPONSE
from tests.conftest import ROOT, SHARED

BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)


@pytest.fixture
def example_folder(tmp_path, monkeypatch):
    for name, source in (("key.conll", KEY), ("response.conll", RESPONSE), ("base.conll", RESPONSE),
                         ("a.conll", RESPONSE), ("b.conll", KEY),
                         ("gold.tbf", SHARED / "evmeval-demo" / "gold.tbf"),
                         ("system.tbf", SHARED / "evmeval-demo" / "system_A.tbf")):
        shutil.copy(source, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_readme_has_python_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.strip().splitlines()[-1][:40])
def test_readme_python_example_runs(block, example_folder):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FastscoreWarning)  # a one-document example: bootstrap warnings
        exec(compile(block, "README.md", "exec"), {})
