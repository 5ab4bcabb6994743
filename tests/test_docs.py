"""The pages of docs/ start with the commands a user types, run as written (tests/doc_blocks.py says how;
a block README.md already has runs in tests/test_readme.py), and link to pages and headings that exist."""
import pytest

from tests.conftest import ROOT
from tests.doc_blocks import (NOT_RUN, PAGES, blocks, broken_links, command_options, make_folder, run_block,
                              runnable, synopsis_options)

DOCS = sorted((ROOT / "docs").glob("*.md"))
BLOCKS = [b for b in blocks(PAGES) if b.page != "README.md"]
EXPECTED = ("agreement", "coreference", "corefud", "explain", "formats", "large-corpora", "mina", "nuggets",
            "performance", "python-api", "statistics", "temporal", "triples")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return make_folder(tmp_path_factory.mktemp("docs"))


def test_every_page_is_there():
    assert {page.stem for page in DOCS} >= set(EXPECTED)


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_page_starts_with_commands(page):
    first = blocks([page])[0]  # commands (or the one writing the page's example files), or Python for the API
    assert first.text.startswith(("$ fastscore ", "$ python -m fastscore.examples ")) or first.kind in (
        "python", "pycon"), page.name
    text = page.read_text()
    assert "\n## " not in text or text.index("```") < text.index("\n## ")


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)  # README's: tests/test_readme.py
def test_links_resolve(page):
    assert broken_links(page) == []


def test_blocks_not_run_are_few_and_listed():
    others = [b for b in blocks(PAGES) if not runnable(b) and b.kind != "text"]
    assert len(others) <= len(NOT_RUN)
    for block in others:
        first = block.text.splitlines()[0]
        assert any(first.startswith(key) for key in NOT_RUN), f"{block.id}: a ```{block.kind} block not run"


def test_synopses_name_real_options():
    options = command_options()
    named = [pair for block in blocks(PAGES) if block.kind == "text" for pair in synopsis_options(block)]
    assert len(named) > 50
    assert [(command, flag) for command, flag in named if flag not in options.get(command, ())] == []


@pytest.mark.parametrize("block", [b for b in BLOCKS if runnable(b)], ids=lambda b: b.id)
def test_docs_block_runs(block, folder, monkeypatch, capsys):
    run_block(block, folder, monkeypatch, capsys)
