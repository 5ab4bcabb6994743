#!/usr/bin/env python3
"""`fastscore explain` beside the Berkeley Coreference Analyser, on LitBank against a perturbed response.

    python bench/explain_side_by_side.py [--litbank DIR] [--analyser DIR] [--repeat 3]

The 100 LitBank files (``../shared/data/litbank/coref/conll``) are joined into one key file; the response is
each file perturbed as ``scripts/make_explain_anchors.py`` perturbs it (seeded). Measured, best of
``--repeat``: the fastscore CLI (``--output json``; ``--output html FILE``, with the page's size). With
``--analyser DIR`` (a checkout of jkkummerfeld/berkeley-coreference-analyser, imported into this Python),
the Analyser's classification of the same documents, timed once, and whether every document's seven counts
are fastscore's. The issue's targets: explain <= 2 s, the page <= 10 MB.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from make_explain_anchors import litbank_response, load_analyser, run_analyser, with_flat_parse  # noqa: E402


def best_run(cmd: list[str], repeat: int) -> tuple[float, str]:
    times, out = [], ""
    for _ in range(repeat):
        start = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT).stdout
        times.append(time.perf_counter() - start)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--litbank", type=Path, default=ROOT.parent / "shared" / "data" / "litbank" / "coref" / "conll")
    ap.add_argument("--analyser", help="a checkout of the Berkeley Coreference Analyser")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    files = sorted(args.litbank.glob("*.conll"))
    with tempfile.TemporaryDirectory() as tmp:
        key, response, page = Path(tmp) / "key.conll", Path(tmp) / "response.conll", Path(tmp) / "page.html"
        responses = [litbank_response(str(path), k) for k, path in enumerate(files)]
        key.write_text("".join(p.read_text(encoding="utf-8").rstrip("\n") + "\n" for p in files), encoding="utf-8")
        response.write_text("".join(responses), encoding="utf-8")
        explain = [sys.executable, "-m", "fastscore", "explain", str(key), str(response)]
        seconds, out = best_run(explain + ["--output", "json", "--per-doc"], args.repeat)
        print(f"fastscore explain, {len(files)} documents (json): {seconds:.2f} s")
        html_seconds, _ = best_run(explain + ["--output", "html", str(page)], args.repeat)
        print(f"fastscore explain --output html: {html_seconds:.2f} s, page {page.stat().st_size / 1e6:.1f} MB")
        if not args.analyser:
            return
        ours = {name: doc["errors"] for name, doc in json.loads(out)["per_doc"].items()}
        analyser = load_analyser(args.analyser)
        start = time.perf_counter()
        theirs = {}
        for path, resp in zip(files, responses):
            name = path.stem
            theirs.update(run_analyser(analyser, [(name, with_flat_parse(path.read_text(encoding="utf-8")))], resp))
        analyser_seconds = time.perf_counter() - start
        same = sum(ours.get(name) == counts for name, counts in theirs.items())
        print(f"Analyser (in process, reading included): {analyser_seconds:.2f} s "
              f"= {analyser_seconds / seconds:.1f}x fastscore's CLI; documents identical: {same} of {len(theirs)}")


if __name__ == "__main__":
    main()
