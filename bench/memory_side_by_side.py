#!/usr/bin/env python3
"""Scores from memory beside the Python evaluators they replace, on the same documents, in one run.

    python bench/memory_side_by_side.py --e2e-coref DIR [--coval DIR] [--docs 1000] [--epochs 3]

A seeded dev set of ``--docs`` OntoNotes-sized documents (about 490 tokens in sentences of about 20, 55
mentions in 13 clusters of two or more, as CoNLL-2012 test; predictions with missed, spurious, moved and
relabelled mentions, no singletons and no mention in two clusters: e2e-coref's output) is held in memory.

- e2e-coref: ``metrics.CorefEvaluator`` imported from ``--e2e-coref DIR`` (kentonl/e2e-coref; its
  ``sklearn.utils.linear_assignment_`` import, gone from scikit-learn, is given scipy's assignment here)
  against ``fastscore.CorefEvaluator``: per epoch, ``update`` for every document then ``get_f1``, the
  dicts built beforehand (the model code builds them).  Times: the first epoch (fastscore compiles or loads
  its kernels there) and the median of the others.  Agreement: MUC, B-cubed and CEAFe precision, recall and F1.
- ``--coval DIR`` (ns-moosavi/coval): Hugging Face evaluate's coval metric, called once per document as
  evaluate calls coval (the document's sentences as examples; ``scripts/make_coval_compute_anchors.py``'s
  ``coval_compute``), against ``fastscore.coval.compute`` per document and ``fastscore.coval.compute_documents``
  (every document in one call).  Agreement: every output key.

Prints times and ratios.  e2e-coref and coval are not part of fastscore: fetch them yourself.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import time
import types
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def dev_set(n_docs: int, seed: int) -> list[tuple[list, list, list[int]]]:
    """(predicted clusters, gold clusters, sentence lengths) per document."""
    rng = np.random.default_rng(seed)
    docs = []
    for _ in range(n_docs):
        lengths = [int(x) for x in rng.integers(8, 33, size=int(rng.integers(18, 32)))]
        starts = np.cumsum([0] + lengths[:-1])
        spans = set()
        while len(spans) < int(rng.integers(40, 70)):
            s = int(rng.integers(len(lengths)))
            a = int(rng.integers(lengths[s]))
            b = min(lengths[s] - 1, a + int(rng.choice([0, 0, 0, 1, 2, 3, 5])))
            spans.add((int(starts[s]) + a, int(starts[s]) + b))
        spans = sorted(spans)
        gold_ids = rng.integers(0, max(2, len(spans) // 4), size=len(spans))
        gold = _clusters(spans, gold_ids)
        predicted_spans, predicted_ids = [], []
        for (a, b), c in zip(spans, gold_ids):
            r = rng.random()
            if r < 0.1:
                continue  # missed
            if r < 0.2:
                c = int(rng.integers(0, len(spans)))  # another cluster
            elif r < 0.25 and a < b and (a + 1, b) not in spans:
                a += 1  # a boundary error
            predicted_spans.append((a, b))
            predicted_ids.append(int(c))
        docs.append((_clusters(predicted_spans, np.asarray(predicted_ids)), gold, lengths))
    return docs


def _clusters(spans, ids) -> list[tuple]:
    """Clusters of two or more mentions (no singletons, one cluster per mention), in order of first mention."""
    groups: dict[int, list] = {}
    for span, c in zip(spans, ids):
        groups.setdefault(int(c), []).append(tuple(span))
    return [tuple(g) for g in groups.values() if len(g) > 1]


def load_e2e(folder: str):
    """e2e-coref's metrics module, with scipy's assignment under the scikit-learn name it imports."""
    from scipy.optimize import linear_sum_assignment

    shim = types.ModuleType("sklearn.utils.linear_assignment_")
    shim.linear_assignment = lambda cost: np.stack(linear_sum_assignment(cost), axis=1)
    for name in ("sklearn", "sklearn.utils"):
        sys.modules.setdefault(name, types.ModuleType(name))
    sys.modules["sklearn.utils.linear_assignment_"] = shim
    sys.path.insert(0, folder)
    import metrics

    return metrics


def epochs(make, docs, n: int):
    """Seconds of each epoch (update every document, then get_f1) and the last evaluator."""
    times = []
    for _ in range(n):
        ev = make()
        t = time.perf_counter()
        for predicted, gold, m2p, m2g in docs:
            ev.update(predicted, gold, m2p, m2g)
        ev.get_f1()
        times.append(time.perf_counter() - t)
    return times, ev


def conll_lines(clusters, lengths) -> list[list[str]]:
    """The document's sentences as examples of CoNLL-2012 lines (coreference in the last column)."""
    n = sum(lengths)
    marks = [[] for _ in range(n)]
    for label, cluster in enumerate(clusters):
        for a, b in cluster:
            if a == b:
                marks[a].append(f"({label})")
            else:
                marks[a].append(f"({label}")
                marks[b].append(f"{label})")
    examples, t = [], 0
    for length in lengths:
        examples.append([f"doc 0 {i} w{i} NN * - {'|'.join(marks[t + i]) or '-'}" for i in range(length)])
        t += length
    return examples


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--e2e-coref", required=True, help="a checkout of kentonl/e2e-coref (its metrics.py)")
    ap.add_argument("--coval", help="a checkout of ns-moosavi/coval")
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=28)
    a = ap.parse_args()

    import fastscore

    docs = dev_set(a.docs, a.seed)
    with_dicts = [(p, g, {m: c for c in p for m in c}, {m: c for c in g for m in c}) for p, g, _ in docs]
    n_mentions = sum(len(m) for _, g, _ in docs for m in g)
    print(f"dev set: {len(docs)} documents, {sum(sum(x[2]) for x in docs)} tokens, {n_mentions} gold mentions")

    e2e = load_e2e(a.e2e_coref)
    theirs, e2e_ev = epochs(e2e.CorefEvaluator, with_dicts, a.epochs)
    ours, fast_ev = epochs(fastscore.CorefEvaluator, with_dicts, a.epochs)
    rest_theirs, rest_ours = statistics.median(theirs[1:] or theirs), statistics.median(ours[1:] or ours)
    print(f"{'CorefEvaluator, one epoch':34} {'e2e-coref':>10} {'fastscore':>10} {'ratio':>7}")
    print(f"{'  first epoch':34} {theirs[0]:10.3f} {ours[0]:10.3f} {theirs[0] / ours[0]:6.1f}x")
    print(f"{'  later epochs (median)':34} {rest_theirs:10.3f} {rest_ours:10.3f} {rest_theirs / rest_ours:6.1f}x")
    worst = 0.0
    for e, name in zip(e2e_ev.evaluators, ("muc", "bcub", "ceafe")):
        worst = max(worst, *(abs(x - y) for x, y in zip(e.get_prf(), fast_ev.metrics[name].get_prf())))
    worst = max(worst, abs(e2e_ev.get_f1() - fast_ev.get_f1()))
    print(f"  MUC, B-cubed, CEAFe P/R/F1 and the average: largest difference {worst:.1e} "
          f"(F1 {100 * fast_ev.get_f1():.4f})")

    if a.coval:
        sys.path.insert(0, a.coval)
        from coval.conll import reader
        from coval.eval import evaluator

        sys.path.insert(0, str(ROOT / "scripts"))
        from make_coval_compute_anchors import coval_compute

        pairs = [(conll_lines(p, lengths), conll_lines(g, lengths)) for p, g, lengths in docs]
        t = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            expected = [coval_compute(reader, evaluator, p, g) for p, g in pairs]
        coval_time = time.perf_counter() - t
        fastscore.coval.compute(*pairs[0])  # kernels compiled or loaded before timing
        t = time.perf_counter()
        one_by_one = [fastscore.coval.compute(p, g) for p, g in pairs]
        each_time = time.perf_counter() - t
        t = time.perf_counter()
        together = fastscore.coval.compute_documents([p for p, _ in pairs], [g for _, g in pairs])
        together_time = time.perf_counter() - t
        worst = max(abs(got[k] - exp[k]) / (100 if k == "conll_score" else 1)
                    for results in (one_by_one, together) for got, exp in zip(results, expected) for k in exp)
        print(f"{'coval metric, every document':34} {'coval':>10} {'fastscore':>10} {'ratio':>7}")
        print(f"{'  compute, one call per document':34} {coval_time:10.3f} {each_time:10.3f} "
              f"{coval_time / each_time:6.1f}x")
        print(f"{'  compute_documents, one call':34} {coval_time:10.3f} {together_time:10.3f} "
              f"{coval_time / together_time:6.1f}x")
        print(f"  every output of every document: largest difference {worst:.1e} (fractions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
