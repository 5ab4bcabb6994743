#!/usr/bin/env python3
"""Seeded generator of CoNLL-2012-style key/response corpora for benchmarks.

The default size is that of the CoNLL-2012 English test set: 348 documents,
~170k tokens, ~19k key mentions in ~4.7k clusters (no singletons).  The
response has realistic errors: missed and invented mentions, shifted
boundaries, merged and split clusters.

    python scripts/gen_corpus.py OUTDIR [--docs 348] [--tokens 170000]
        [--mentions 19000] [--clusters 4700] [--seed 12345] [--responses 1]

writes OUTDIR/key.conll and OUTDIR/response.conll (response-1.conll ... with
--responses N > 1).  ``--docs 1 --tokens 20000 --mentions 5000 --clusters
1200`` gives the single large document of the benchmark suite.
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

from fastscore.formats.conll import bracket_items


def make_document(rng: random.Random, n_tokens: int, n_mentions: int, n_clusters: int):
    """Clusters of distinct (start, end) spans, end exclusive; every cluster has >= 2 mentions."""
    spans: set[tuple[int, int]] = set()
    while len(spans) < n_mentions:
        s = rng.randrange(n_tokens)
        length = min(int(rng.expovariate(0.6)) + 1, 8, n_tokens - s)
        spans.add((s, s + length))
    spans_list = sorted(spans)
    rng.shuffle(spans_list)
    n_clusters = max(1, min(n_clusters, n_mentions // 2))
    clusters: list[list[tuple[int, int]]] = [[] for _ in range(n_clusters)]
    for span in spans_list:
        for _ in range(10):
            # skewed cluster sizes: a few long chains, many short ones
            c = (min(int(rng.paretovariate(1.2)) - 1, n_clusters - 1) if rng.random() < 0.3
                 else rng.randrange(n_clusters))
            if len(clusters[c]) < 2 or rng.random() < 0.5:
                if not overlaps(clusters[c], span):
                    clusters[c].append(span)
                    break
    return [c for c in clusters if len(c) >= 2]


def overlaps(chain, span) -> bool:
    """Mentions of one cluster that share a token make v8.01 pair brackets differently."""
    return any(s < span[1] and span[0] < e for s, e in chain)


def make_response(rng: random.Random, clusters, n_tokens: int):
    """Perturb a key document: drop / shift / invent mentions, merge / split clusters."""
    out = []
    used: set[tuple[int, int]] = set()

    def add(chain, span):
        if span not in used and not overlaps(chain, span):
            used.add(span)
            chain.append(span)

    for chain in clusters:
        new = []
        for s, e in chain:
            r = rng.random()
            if r < 0.12:
                continue  # missed mention
            if r < 0.17:
                s, e = (max(0, s - 1), e) if rng.random() < 0.5 else (s, min(n_tokens, e + 1))
            add(new, (s, e))
        if len(new) > 3 and rng.random() < 0.15:  # split
            cut = rng.randrange(1, len(new))
            out += [new[:cut], new[cut:]]
        elif new:
            out.append(new)
    for _ in range(len(out) // 12):  # merges
        if len(out) > 2:
            a = out.pop(rng.randrange(len(out)))
            out[rng.randrange(len(out))].extend(a)
    for _ in range(sum(map(len, clusters)) // 10):  # invented mentions, in pairs or joined to a chain
        s = rng.randrange(n_tokens)
        span = (s, min(n_tokens, s + rng.randint(1, 3)))
        if rng.random() < 0.5 and out:
            add(rng.choice(out), span)
        else:
            s2 = rng.randrange(n_tokens)
            pair: list = []
            add(pair, span)
            add(pair, (s2, s2 + 1))
            if pair:
                out.append(pair)
    return [c for c in out if c]


def write_conll(path: Path, docs) -> None:
    with open(path, "w") as fh:
        for name, n_tokens, clusters in docs:
            fh.write(f"#begin document ({name}); part 000\n")
            col = ["|".join(x) if x else "-" for x in bracket_items(enumerate(clusters), n_tokens)]
            for t in range(n_tokens):
                if t and t % 23 == 0:
                    fh.write("\n")
                fh.write(f"{name}\t0\t{t % 23}\tword\tNN\t*\t-\t-\t-\tSpeaker\t*\t{col[t]}\n")
            fh.write("\n#end document\n")


def generate(outdir: Path, docs: int = 348, tokens: int = 170_000, mentions: int = 19_000,
             clusters: int = 4_700, seed: int = 12345, responses: int = 1) -> list[Path]:
    """Write the key and responses; returns [key, response, ...]."""
    rng = random.Random(seed)
    outdir.mkdir(parents=True, exist_ok=True)
    weights = [rng.uniform(0.3, 1.7) for _ in range(docs)]
    total = sum(weights)
    key_docs = []
    for d, w in enumerate(weights):
        n_tok = max(30, int(tokens * w / total))
        n_men = max(2, min(int(mentions * w / total), n_tok // 2))
        n_cl = max(1, int(clusters * w / total))
        key_docs.append((f"bench/doc_{d:04d}", n_tok, make_document(rng, n_tok, n_men, n_cl)))
    paths = [outdir / "key.conll"]
    write_conll(paths[0], key_docs)
    for r in range(responses):
        name = "response.conll" if responses == 1 else f"response-{r + 1}.conll"
        resp_docs = [(name_, n, make_response(rng, cl, n)) for name_, n, cl in key_docs]
        write_conll(outdir / name, resp_docs)
        paths.append(outdir / name)
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--docs", type=int, default=348)
    ap.add_argument("--tokens", type=int, default=170_000)
    ap.add_argument("--mentions", type=int, default=19_000)
    ap.add_argument("--clusters", type=int, default=4_700)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--responses", type=int, default=1)
    a = ap.parse_args()
    paths = generate(a.outdir, a.docs, a.tokens, a.mentions, a.clusters, a.seed, a.responses)
    print("\n".join(map(str, paths)))


if __name__ == "__main__":
    main()
