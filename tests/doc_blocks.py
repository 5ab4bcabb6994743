"""The code blocks of README.md and docs/*.md, and how tests/test_readme.py and tests/test_docs.py run them.

Each fence says what its block is:

- ```python: exec'd as written;
- ```pycon: a doctest (`>>> ` lines run, the lines under them are what they print);
- ```console: `$ fastscore ...` commands run as written, in order; the lines under a command are what it
  prints (checked when given; `...` stands for any text, runs of blanks count as one);
- ```text: a usage synopsis (`fastscore COMMAND [--option ...]`) or a data layout: not run, but every
  `--option` of a synopsis must be one the command has;
- anything else (```bash) must be listed in NOT_RUN, with the reason it cannot run in a test.

Every block runs in one folder outside the checkout, shared by the blocks of a test module, that starts empty
as a user's folder does: a page's examples write their files first (``python -m fastscore.examples NAME``), so
a path into the repository (``tests/data/...``) fails.
"""
from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import ROOT

PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")

# Blocks that cannot run in a test, by their first line, with the reason.
NOT_RUN = {
    "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/fastscore coref example example":
        "the set-up itself (a fresh virtual environment): .ci/run runs exactly these lines, "
        "tests/test_readme.py checks that they are the same",
    "pip install fastscore-ie ": "installs from the package index",
}
CHECK = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@dataclass(frozen=True)
class Block:
    page: str
    kind: str
    text: str
    line: int

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(pages: list[Path]) -> list[Block]:
    """The fenced blocks of these pages, each once (a block repeated on another page runs once)."""
    found, seen = [], set()
    for page in pages:
        text = page.read_text()
        for m in FENCE.finditer(text):
            kind, body = m.group(1), m.group(2)
            if (kind, body) not in seen:
                seen.add((kind, body))
                found.append(Block(page.name, kind, body, text.count("\n", 0, m.start()) + 1))
    return found


def make_folder(folder: Path) -> Path:
    """The folder the blocks run in: an empty one outside the checkout, as a user's after ``pip install`` (a
    page's example writes its files there first: ``python -m fastscore.examples NAME``, or a command that writes
    them); a path into the repository (``tests/data/...``) fails there."""
    assert ROOT not in folder.resolve().parents, folder
    return folder


def commands(block: Block) -> list[tuple[str, str]]:
    """A console block's commands, each with the output written under it ("" when none is written)."""
    runs: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            runs.append((line[2:], []))
        elif runs:
            runs[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"{block.id}: a console block starts with a `$ ` command: {line!r}")
    return [(command, "\n".join(out).strip("\n")) for command, out in runs]


def run_command(command: str, folder: Path, capsys) -> tuple[int, str, str]:
    """Run one documented command: `fastscore ...` in this process (the worktree's fastscore), anything
    else through bash, where `fastscore` is `python -m fastscore` and `python` this interpreter, both with this
    worktree's fastscore."""
    words = shlex.split(command, comments=True)
    if words and words[0] == "fastscore" and not re.search(r"[|<>;&$`]", command):
        from fastscore.cli import main

        capsys.readouterr()
        try:
            code = main(words[1:])
        except SystemExit as stop:  # --version, --help
            code = stop.code or 0
        out, err = capsys.readouterr()
        return code, out, err
    bin_dir = folder / ".bin"
    if not bin_dir.is_dir():
        bin_dir.mkdir()
        (bin_dir / "fastscore").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m fastscore "$@"\n')
        (bin_dir / "fastscore").chmod(0o755)
        (bin_dir / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
        (bin_dir / "python").chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(["bash", "-c", f"set -o pipefail; {command}"], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def output_matches(want: str, got: str) -> bool:
    return doctest.OutputChecker().check_output(want + "\n", got, CHECK)


def run_doctest(block: Block) -> str:
    """Run a pycon block; the report of its failures ("" when none)."""
    test = doctest.DocTestParser().get_doctest(block.text, {}, block.id, block.page, block.line)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=CHECK)
    runner.run(test, out=report.append, clear_globs=True)
    return "".join(report)


def command_options() -> dict[str, set[str]]:
    """Every option of every command; for compare and sweep, those of every task's variant."""
    from fastscore.cli import _parser
    from fastscore.tasks import TASKS

    options: dict[str, set[str]] = {}
    for task in TASKS.values():
        for name, parser in _parser(task)[1].items():
            options.setdefault(name, set()).update(
                flag for action in parser._actions for flag in action.option_strings)
    return options


def synopsis_options(block: Block) -> list[tuple[str, str]]:
    """(command, --option) for every option a text block's synopses name."""
    named, command = [], None
    for line in block.text.splitlines():
        if line.startswith("fastscore "):
            command = line.split()[1].split("|")[0]
        elif not line.startswith(" "):
            command = None
        code = line.split("#", 1)[0]
        if command is not None:
            named += [(command, flag) for flag in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", code)]
    return named


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def broken_links(page: Path) -> list[str]:
    """The relative links of a page whose file (or heading, after `#`) does not exist."""
    broken = []
    for target in LINK.findall(page.read_text()):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md":
            headings = re.findall(r"^#+ (.*)$", file.read_text(), re.M)
            if anchor not in {github_anchor(h) for h in headings}:
                broken.append(target)
    return broken


def run_block(block: Block, folder: Path, monkeypatch, capsys) -> None:
    """Run a block as its fence says, in the shared folder; fail with what differs."""
    import warnings

    from fastscore.errors import FastscoreWarning

    monkeypatch.chdir(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FastscoreWarning)  # one-document bootstraps and the like
        if block.kind == "python":
            exec(compile(block.text, block.page, "exec"), {})
        elif block.kind == "pycon":
            report = run_doctest(block)
            assert not report, report
        elif block.kind == "console":
            for command, want in commands(block):
                code, out, err = run_command(command, folder, capsys)
                assert code == 0, f"{block.id}: {command}\nexit {code}\n{err}"
                assert not want or output_matches(want, out), \
                    f"{block.id}: {command}\nwritten:\n{want}\nprinted:\n{out}"
        else:
            raise AssertionError(f"{block.id}: a ```{block.kind} block is not run")


def runnable(block: Block) -> bool:
    return block.kind in ("python", "pycon", "console")
