#!/usr/bin/env python3
"""How the seeded fuzz mutations of tests/test_bad_input.py end, per format: refused (errors), scored, scored
with a warning, and how many were mutations known to be harmful (each must be refused or warned).

    python scripts/fuzz_counts.py [--mutations 500]      # the slow run's count
"""
import argparse
import pathlib
import sys
import tempfile
import warnings

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from tests import test_bad_input as fuzz  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mutations", type=int, default=500)
    n = ap.parse_args().mutations
    warnings.simplefilter("ignore")
    runs = [(fmt, fuzz._fuzz) for fmt in sorted(fuzz.FUZZ)] + [(kind, fuzz._fuzz_table) for kind in ("parquet", "arrow")]
    for fmt, run in runs:
        with tempfile.TemporaryDirectory() as tmp:
            print(fmt, run(fmt, pathlib.Path(tmp), n), flush=True)


if __name__ == "__main__":
    main()
