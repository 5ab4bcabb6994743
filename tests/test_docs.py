"""The examples of docs/*.md run as written: every Python block, and every `$ fastscore ...` line of a console
block exits 0 (README's run in tests/test_readme.py). They run in an empty folder where ``tests/`` is the
repository's, so the docs' paths to its data work as written."""
import re
import shlex
import warnings

import pytest

from fastscore.errors import FastscoreWarning
from tests.conftest import ROOT

BLOCKS = [(page.name, block) for page in sorted((ROOT / "docs").glob("*.md"))
          for block in re.findall(r"```python\n(.*?)```", page.read_text(), re.S)]
COMMANDS = [(page.name, line) for page in sorted((ROOT / "docs").glob("*.md"))
            for block in re.findall(r"```console\n(.*?)```", page.read_text(), re.S)
            for line in block.splitlines() if line.startswith("$ fastscore ")]


def test_docs_have_python_examples():
    assert len([1 for page, _ in BLOCKS if page == "python-api.md"]) >= 4


@pytest.mark.parametrize("page, block", BLOCKS, ids=lambda x: x.strip().splitlines()[-1][:40] if "\n" in x else x)
def test_docs_python_example_runs(page, block, tmp_path, monkeypatch):
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FastscoreWarning)
        exec(compile(block, page, "exec"), {})


@pytest.mark.parametrize("page, line", COMMANDS, ids=lambda x: x[:60])
def test_docs_command_runs(page, line, tmp_path, monkeypatch, capsys):
    from fastscore.cli import main

    (tmp_path / "tests").symlink_to(ROOT / "tests")
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FastscoreWarning)
        assert main(shlex.split(line)[2:]) == 0, capsys.readouterr().err
