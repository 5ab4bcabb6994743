"""README.md is a short guide whose every block runs as written (tests/doc_blocks.py says how), whose
set-up lines are the ones CI runs, and which has a quick start for every task."""
import re

import pytest

from tests.conftest import ROOT
from tests.doc_blocks import PAGES, blocks, broken_links, make_folder, run_block, runnable

README = ROOT / "README.md"
BLOCKS = [b for b in blocks(PAGES) if b.page == "README.md"]
QUICK_STARTS = ("Coreference (CoNLL-2012)", "CorefUD (CoNLL-U)", "Event nuggets", "Temporal relations",
                "Triples")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return make_folder(tmp_path_factory.mktemp("readme"))


def test_readme_is_a_short_guide():
    assert len(README.read_text().splitlines()) <= 300


def test_setup_lines_are_the_ones_ci_runs():
    first = blocks([README])[0]
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert first.kind == "bash" and README.read_text().index("```bash") < README.read_text().index("\n## ")
    for line in first.text.splitlines():
        assert line in ci, line


def test_every_task_has_a_quick_start_with_a_command_and_a_python_call():
    text = README.read_text()
    for task in QUICK_STARTS:
        section = re.search(rf"^### {re.escape(task)}\n(.*?)(?=^##)", text, re.S | re.M)
        assert section, f"no quick start for {task}"
        assert "```console\n$ fastscore " in section.group(1) and "```pycon\n>>> " in section.group(1), task


def test_readme_links_resolve():
    assert broken_links(README) == []


@pytest.mark.parametrize("block", [b for b in BLOCKS if runnable(b)], ids=lambda b: b.id)
def test_readme_block_runs(block, folder, monkeypatch, capsys):
    run_block(block, folder, monkeypatch, capsys)
