#!/usr/bin/env python3
"""Seeded generator of TAC KBP event nugget corpora (TBF, character spans) for benchmarks.

    python scripts/gen_nuggets.py OUTDIR [--docs 5000] [--mentions 32] [--seed 7] [--links] [--tokens]

writes OUTDIR/gold.tbf and OUTDIR/system.tbf: about docs x mentions gold
mentions with double annotation, NOT_ANNOTATED realis and coreference
clusters; the system output has shifted spans, wrong types and realis,
missed and invented mentions, and its own clusters.  ``--links`` adds event
sequencing links (@After, @Subevent) that follow an order of the clusters,
the system's partly copied from the gold ones.  ``--tokens`` shapes the corpus as TAC KBP data is
distributed: spans as token ids and one token table per document (OUTDIR/tkn/DOCID.tab), scored with
``-t OUTDIR/tkn`` (EvmEval) or ``--tokens OUTDIR/tkn`` (fastscore).
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_nugget_anchors import REALIS, TYPES, clusters, make_words, write_tbf  # noqa: E402
from make_sequencing_anchors import lines, ordered_links, system_links  # noqa: E402


def make_doc(rng: random.Random, doc_id: str, n_mentions: int):
    n_tok = n_mentions * 12
    words, offsets = make_words(rng, n_tok)
    gold = []
    for _ in range(n_mentions):
        s = rng.randrange(n_tok)
        span = list(range(s, min(n_tok, s + rng.choice((1, 1, 1, 2, 3)))))
        if gold and rng.random() < 0.1:
            span = list(gold[rng.randrange(len(gold))][0])
        gold.append((span, rng.choice(TYPES), rng.choice(REALIS + ["NOT_ANNOTATED"])))
    system = []
    for span, typ, realis in gold:
        r = rng.random()
        if r < 0.15:
            continue
        if r < 0.3:
            span = list(range(max(0, span[0] - 1), min(n_tok, span[-1] + 2)))
        if rng.random() < 0.2:
            typ = rng.choice(TYPES)
        if rng.random() < 0.3 or realis == "NOT_ANNOTATED":
            realis = rng.choice(REALIS)
        system.append((span, typ, realis))
    for _ in range(n_mentions // 8):
        s = rng.randrange(n_tok)
        system.append(([s], rng.choice(TYPES), rng.choice(REALIS)))
    return {"id": doc_id, "words": words, "offsets": offsets, "gold": gold, "system": system}


def generate(outdir: Path, docs: int = 5000, mentions: int = 32, seed: int = 7,
             links: bool = False, tokens: bool = False) -> tuple[Path, Path]:
    rng = random.Random(seed)
    outdir.mkdir(parents=True, exist_ok=True)
    all_docs = [make_doc(rng, f"NW_{d:05d}", max(1, int(rng.uniform(0.5, 1.5) * mentions))) for d in range(docs)]
    corefs = {d["id"]: {"gold": clusters(rng, len(d["gold"])), "system": clusters(rng, len(d["system"]))}
              for d in all_docs}
    extra = {}
    if links:
        for d in all_docs:
            cl = corefs[d["id"]]
            g = ordered_links(rng, len(d["gold"]), cl["gold"])
            extra[d["id"]] = {"gold": lines(g), "system": lines(system_links(rng, g, d, cl["system"], False))}
    gold, system = outdir / "gold.tbf", outdir / "system.tbf"
    mode = "token" if tokens else "char"
    if tokens:
        write_token_tables(outdir / "tkn", all_docs)
    write_tbf(gold, all_docs, "gold", mode, corefs, "gold", extra)
    write_tbf(system, all_docs, "system", mode, corefs, "sysA", extra)
    return gold, system


def write_token_tables(folder: Path, docs) -> None:
    """One token table per document, as TAC KBP distributes them (``t0<TAB>word<TAB>begin<TAB>end``)."""
    folder.mkdir(parents=True, exist_ok=True)
    for doc in docs:
        rows = [f"t{t}\t{w}\t{b}\t{e}\n" for t, (w, (b, e)) in enumerate(zip(doc["words"], doc["offsets"]))]
        (folder / f"{doc['id']}.tab").write_text("".join(rows))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--docs", type=int, default=5000)
    ap.add_argument("--mentions", type=int, default=32)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--links", action="store_true", help="add event sequencing links")
    ap.add_argument("--tokens", action="store_true", help="token ids and one token table per document (OUTDIR/tkn)")
    a = ap.parse_args()
    print(*generate(a.outdir, a.docs, a.mentions, a.seed, a.links, a.tokens), sep="\n")


if __name__ == "__main__":
    main()
