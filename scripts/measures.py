"""Issue 37's measures of the product (fastscore/ and kernels/): run from the repository root.

    python scripts/measures.py            # the three measures
    python scripts/measures.py --list     # and the glue functions over the limit, by name

Glue functions: functions in fastscore/ (kernels/ is numba's: its kernels take plain arrays positionally) with
more than 8 positional parameters (positional-only and regular ones, self and cls not counted; keyword-only ones
are free). Product lines: every line of fastscore/ and kernels/ *.py. Duplicate pairs: the `duplicates` command's
rows whose two sides both lie in the product, boilerplate rows left out (the command is a developer tool; the
measure is skipped where it is not installed).
"""

from __future__ import annotations

import argparse
import ast
import re
import shutil
import subprocess
from pathlib import Path

PRODUCT = ("fastscore", "kernels")
GLUE = "fastscore"
MAX_POSITIONAL = 8


def product_files(root: Path, folders: tuple[str, ...] = PRODUCT) -> list[Path]:
    return sorted(path for folder in folders for path in (root / folder).rglob("*.py"))


def positional_count(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    names = [arg.arg for arg in function.args.posonlyargs + function.args.args]
    if names and names[0] in ("self", "cls"):
        names = names[1:]
    return len(names)


def wide_functions(root: Path) -> list[tuple[str, int, str, int]]:
    """(file, line, name, positional parameters) of each glue function over the limit."""
    found = []
    for path in product_files(root, (GLUE,)):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                count = positional_count(node)
                if count > MAX_POSITIONAL:
                    found.append((str(path.relative_to(root)), node.lineno, node.name, count))
    return found


def product_lines(root: Path) -> int:
    return sum(len(path.read_text(encoding="utf-8").splitlines()) for path in product_files(root))


_ROW = re.compile(r"^D\d+ (\S+?):\d+-\d+ ~ (\S+?):\d+-\d+")


def duplicate_pairs(root: Path) -> list[str] | None:
    """The product's non-boilerplate `duplicates` rows, or None without the command."""
    command = shutil.which("duplicates")
    if command is None:
        return None
    listing = subprocess.run(
        [command, "--repo", str(root), "--most", "200", "--seconds", "120"],
        capture_output=True, text=True, check=False, timeout=300,
    ).stdout
    rows = []
    for line in listing.splitlines():
        row = _ROW.match(line)
        if row and "boilerplate" not in line and all(side.split("/")[0] in PRODUCT for side in row.groups()):
            rows.append(line)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="name the functions and the duplicate pairs")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the repository root (default: here)")
    options = parser.parse_args()
    wide = wide_functions(options.root)
    print(f"glue functions with more than {MAX_POSITIONAL} positional parameters: {len(wide)}")
    if options.list:
        for file, line, name, count in wide:
            print(f"  {file}:{line} {name} ({count})")
    print(f"product lines (fastscore/ and kernels/, *.py): {product_lines(options.root):,}")
    pairs = duplicate_pairs(options.root)
    if pairs is None:
        print("duplicate pairs inside the product: not measured (no `duplicates` command)")
        return
    print(f"duplicate pairs inside the product (boilerplate left out): {len(pairs)}")
    if options.list:
        for row in pairs:
            print(f"  {row}")


if __name__ == "__main__":
    main()
