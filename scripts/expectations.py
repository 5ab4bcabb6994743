"""Storing an official tool's outputs as test expectations: one gzipped JSON file per family, written again
or checked (``--check``) by the family's ``make_*`` script."""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path


def gzipped_json(data: object, indent: int = 1) -> bytes:
    """``data`` as sorted JSON, gzipped without a time stamp: the same data gives the same bytes."""
    return gzip.compress((json.dumps(data, indent=indent, sort_keys=True) + "\n").encode(), mtime=0)


def store_or_check(target: Path, data: bytes, check: bool) -> None:
    """Write ``data`` to ``target``; with ``check``, compare it with the stored file instead and exit 0 when
    identical, 1 when not (the JSON is compared, not the compression)."""
    if check:
        same = target.exists() and gzip.decompress(target.read_bytes()) == gzip.decompress(data)
        print(f"{target}: {'reproduced' if same else 'DIFFERS'}")
        sys.exit(0 if same else 1)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def parser(doc: str, cases: int, seed: int) -> argparse.ArgumentParser:
    """The arguments every differential script takes (``--cases``, ``--seed``, ``--check``); it adds its
    official tool's paths."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=cases)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--check", action="store_true", help="compare with the stored file instead of writing it")
    return ap
