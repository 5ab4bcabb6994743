#!/usr/bin/env python3
"""Generate inputs of ``evaluate``'s coval metric and record coval's numbers for them.

Writes ``tests/data/coval_compute/cases.json.gz``: seeded random cases, each ``references`` and ``predictions``
as evaluate takes them (lists of examples, each a list of CoNLL-2012 lines: ``doc 0 N wN NN * - COREF``), and
per configuration (``CONFIGS``: keep_singletons and remove_nested, the options that need no parse) the flat
dict evaluate's coval metric returns (``mentions/recall`` ... ``conll_score``), or ``{"error": ...}`` when coval
fails.  Cases hold what evaluate hands coval and files do not: clusters across examples (one label, one entity
in the whole call), ``#`` lines (tokens to coval), examples of different lengths on the two sides, more
examples on one side, mentions nested in mentions of their cluster, a span in two clusters.  Options that read
parse bits (min_span, NP_only) are compared on tests/data/mina_anchors (each document's sentences as examples).

coval (ns-moosavi/coval, commit 87071a6) is imported from ``--coval DIR``; this script calls its reader and
evaluator the way evaluate's ``metrics/coval/coval.py`` does (all examples as the sentences of one document
``dummy_doc``) and copies nothing of either.  The Python running it needs numpy and scipy:

    python scripts/make_coval_compute_anchors.py --coval DIR [--check]

The same arguments give the same bytes; ``--check`` compares with the stored file instead of writing it.
"""
from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import random
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "coval_compute" / "cases.json.gz"
SEED = 28
N_CASES = 60
CONFIGS = {
    "plain": {},
    "drop_singletons": {"keep_singletons": False},
    "remove_nested": {"remove_nested": True},
    "remove_nested+drop_singletons": {"remove_nested": True, "keep_singletons": False},
}
METRICS = (("mentions", "mentions"), ("muc", "muc"), ("bcub", "b_cubed"), ("ceafe", "ceafe"), ("lea", "lea"))


# ---- inputs


def _mentions(rng: random.Random, lengths: list[int], labels: int) -> list[tuple[int, int, int, int]]:
    """(example, start, end inclusive, label); mentions of one label never overlap within an example."""
    out = []
    for ex, n in enumerate(lengths):
        taken: dict[int, list[tuple[int, int]]] = {}
        for _ in range(rng.randint(0, max(1, n // 2))):
            start = rng.randrange(n)
            end = min(n - 1, start + rng.choice((0, 0, 0, 1, 2, 4)))
            label = rng.randint(1, labels)
            if any(not (end < s or start > e) for s, e in taken.get(label, [])):
                continue
            taken.setdefault(label, []).append((start, end))
            out.append((ex, start, end, label))
    return out


def _response(rng: random.Random, key: list[tuple[int, int, int, int]], lengths: list[int],
              labels: int) -> list[tuple[int, int, int, int]]:
    """The key's mentions with errors: dropped, relabelled, boundaries moved, spurious ones added."""
    out = []
    for ex, s, e, label in key:
        r = rng.random()
        if r < 0.15:
            continue
        if r < 0.3:
            label = rng.randint(1, labels + 2)
        elif r < 0.4:
            e = min(lengths[ex] - 1, e + 1)
        out.append((ex, s, e, label))
    out += _mentions(rng, lengths, labels + 2)[: rng.randint(0, 3)]
    return _non_overlapping(out)


def _non_overlapping(mentions):
    kept: list[tuple[int, int, int, int]] = []
    for m in mentions:
        if any(k[0] == m[0] and k[3] == m[3] and not (m[2] < k[1] or m[1] > k[2]) for k in kept):
            continue
        kept.append(m)
    return kept


def _lines(lengths: list[int], mentions, comments: set[tuple[int, int]]) -> list[list[str]]:
    """Examples of CoNLL-2012 lines; ``comments``: (example, line) places holding a ``#`` line instead."""
    examples = []
    for ex, n in enumerate(lengths):
        lines = []
        for t in range(n):
            if (ex, t) in comments:
                lines.append("#begin document (c); part 000" if t == 0 else "#end document")
                continue
            parts = []
            for mex, s, e, label in mentions:
                if mex != ex:
                    continue
                if s == e == t:
                    parts.append(f"({label})")
                elif s == t:
                    parts.append(f"({label}")
                elif e == t:
                    parts.append(f"{label})")
            lines.append(f"doc 0 {t} w{t} NN * - {'|'.join(parts) or '-'}")
        examples.append(lines)
    return examples


def make_case(rng: random.Random, i: int) -> dict:
    lengths = [rng.randint(1, 12) for _ in range(rng.randint(1, 6))]
    labels = rng.randint(1, 6)
    key = _mentions(rng, lengths, labels)
    r_lengths = list(lengths)
    if i % 5 == 1:  # the predictions' examples longer or shorter, or one more
        r_lengths = [n + rng.choice((-1, 0, 1, 2)) if n > 1 else n for n in lengths]
    if i % 7 == 2:
        r_lengths.append(rng.randint(1, 5))
    resp = _response(rng, [m for m in key if m[2] < r_lengths[m[0]]], r_lengths, labels)
    comments: set[tuple[int, int]] = set()
    if i % 6 == 3:  # '#' lines at the same places on both sides
        comments = {(0, 0)} | {(ex, n - 1) for ex, n in enumerate(lengths) if n > 1 and n == r_lengths[ex]}
        key = [m for m in key if not any(m[0] == ex and m[1] <= t <= m[2] for ex, t in comments)]
        resp = [m for m in resp if not any(m[0] == ex and m[1] <= t <= m[2] for ex, t in comments)]
    return {"name": f"case-{i:03d}", "references": _lines(lengths, key, comments),
            "predictions": _lines(r_lengths, resp, comments)}


# ---- coval, called as evaluate calls it


def coval_compute(reader, evaluator, predictions, references, keep_singletons=True, remove_nested=False) -> dict:
    doc = "dummy_doc"
    key, _ = reader.get_doc_mentions(doc, references, keep_singletons)
    sys_, _ = reader.get_doc_mentions(doc, predictions, keep_singletons)
    if remove_nested:
        reader.remove_nested_coref_mentions(key, keep_singletons)
        reader.remove_nested_coref_mentions(sys_, keep_singletons)
    infos = {doc: (key, sys_, reader.get_mention_assignments(key, sys_), reader.get_mention_assignments(sys_, key))}
    out, conll = {}, 0
    for name, metric in METRICS:
        recall, precision, f1 = evaluator.evaluate_documents(infos, getattr(evaluator, metric), beta=1)
        out.update({f"{name}/recall": recall, f"{name}/precision": precision, f"{name}/f1": f1})
        if name in ("muc", "bcub", "ceafe"):
            conll += f1
    out["conll_score"] = conll / 3 * 100
    return out


def record(reader, evaluator, case: dict) -> dict:
    results = {}
    for config, options in CONFIGS.items():
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                got = coval_compute(reader, evaluator, case["predictions"], case["references"], **options)
            results[config] = {k: float(v) for k, v in got.items()}
        except BaseException as err:  # coval calls sys.exit on some input
            results[config] = {"error": type(err).__name__}
    return {**case, "results": results}


def build(coval: str) -> bytes:
    sys.path.insert(0, coval)
    from coval.conll import reader
    from coval.eval import evaluator

    rng = random.Random(SEED)
    cases = [record(reader, evaluator, make_case(rng, i)) for i in range(N_CASES)]
    text = json.dumps({"coval_commit": "87071a6", "seed": SEED, "configs": CONFIGS, "cases": cases}, indent=0,
                      sort_keys=True)
    return gzip.compress(text.encode(), mtime=0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--coval", required=True, help="a checkout of ns-moosavi/coval")
    ap.add_argument("--check", action="store_true", help="compare with the stored file instead of writing it")
    a = ap.parse_args()
    data = build(a.coval)
    if a.check:
        same = OUT.exists() and gzip.decompress(OUT.read_bytes()) == gzip.decompress(data)
        print("same" if same else f"{OUT} differs")
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(data)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
