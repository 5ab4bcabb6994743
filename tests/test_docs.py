"""The Python examples of docs/*.md run as written (README's run in tests/test_readme.py)."""
import re
import warnings

import pytest

from fastscore.errors import FastscoreWarning
from tests.conftest import ROOT

BLOCKS = [(page.name, block) for page in sorted((ROOT / "docs").glob("*.md"))
          for block in re.findall(r"```python\n(.*?)```", page.read_text(), re.S)]


def test_docs_have_python_examples():
    assert len([1 for page, _ in BLOCKS if page == "python-api.md"]) >= 4


@pytest.mark.parametrize("page, block", BLOCKS, ids=lambda x: x.strip().splitlines()[-1][:40] if "\n" in x else x)
def test_docs_python_example_runs(page, block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FastscoreWarning)
        exec(compile(block, page, "exec"), {})
