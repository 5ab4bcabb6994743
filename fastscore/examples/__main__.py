"""``python -m fastscore.examples NAME ... [--to FOLDER]``: write bundled examples into a folder, as files to try
commands on (``fastscore compare corpus/key.conll ...``)."""
from __future__ import annotations

import argparse
import sys

from ..errors import FastscoreError
from . import EXAMPLES, write


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fastscore.examples",
                                     description="Write bundled examples into a folder: FOLDER/NAME/key.EXT, "
                                                 "response.EXT and LICENSE.md (a file already there is never "
                                                 "overwritten).")
    parser.add_argument("names", nargs="+", metavar="NAME", choices=[*EXAMPLES, "all"],
                        help=f"{', '.join(EXAMPLES)}, or all")
    parser.add_argument("--to", default=".", metavar="FOLDER", help="where (default: the current folder)")
    args = parser.parse_args(argv)
    try:
        for path in write(args.names, args.to):
            print(path)
    except (FastscoreError, OSError) as exc:
        print(f"python -m fastscore.examples: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
