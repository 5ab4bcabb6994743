#!/usr/bin/env python3
"""Seeded generator of CoNLL-2012 corpora with constituency parses, for MINA benchmarks.

Sentences come from a small grammar (NPs with determiners, adjectives, PPs, appositions, coordination,
relative clauses; VPs); key mentions are mostly NP constituents, some VPs; the response moves mention
boundaries the way parsers and systems do (a determiner or a PP more or less, a neighbouring
constituent), misses and invents mentions, and merges and splits clusters.  The default size is that of
the CoNLL-2012 English test set (348 documents, ~170k tokens, ~19k key mentions).

    python scripts/gen_parsed_corpus.py OUTDIR [--docs 348] [--tokens 170000] [--seed 7]

writes OUTDIR/key.conll and OUTDIR/response.conll (the response's parse column is '-').
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

from fastscore.formats.conll import bracket_items

NOUNS = ["man", "company", "report", "city", "deal", "market", "official", "year", "plan", "bank"]
NAMES = ["John", "Mary", "Acme", "Boston", "Smith", "Reuters"]
ADJ = ["new", "big", "local", "former"]
VERBS = ["said", "saw", "bought", "left", "signed"]
PREP = ["of", "in", "with", "for"]


class Sentence:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.words: list[str] = []
        self.pos: list[str] = []
        self.opens: list[str] = []
        self.closes: list[int] = []
        self.nps: list[tuple[int, int]] = []
        self.vps: list[tuple[int, int]] = []

    def leaf(self, word: str, pos: str) -> None:
        self.words.append(word)
        self.pos.append(pos)
        self.opens.append("")
        self.closes.append(0)

    def phrase(self, tag: str, build) -> tuple[int, int]:
        start = len(self.words)
        pending = f"({tag}"
        build()
        self.opens[start] = pending + self.opens[start]
        self.closes[-1] += 1
        return start, len(self.words)

    def np(self, depth: int = 0) -> None:
        r = self.rng.random()
        if depth < 2 and r < 0.15:  # NP PP
            span = self.phrase("NP", lambda: (self.np(depth + 1), self.phrase("PP", lambda: (
                self.leaf(self.rng.choice(PREP), "IN"), self.np(depth + 1)))))
        elif depth < 2 and r < 0.22:  # apposition
            span = self.phrase("NP", lambda: (self.np(depth + 1), self.leaf(",", ","), self.np(depth + 1),
                                              self.leaf(",", ",")))
        elif depth < 2 and r < 0.3:  # coordination
            span = self.phrase("NP", lambda: (self.np(depth + 1), self.leaf("and", "CC"), self.np(depth + 1)))
        elif r < 0.45:
            span = self.phrase("NP", lambda: self.leaf(self.rng.choice(["he", "it", "they"]), "PRP"))
        elif r < 0.6:
            span = self.phrase("NP", lambda: [self.leaf(self.rng.choice(NAMES), "NNP")
                                              for _ in range(self.rng.randint(1, 2))])
        else:
            def simple():
                self.leaf(self.rng.choice(["the", "a", "this"]), "DT")
                if self.rng.random() < 0.4:
                    self.leaf(self.rng.choice(ADJ), "JJ")
                self.leaf(self.rng.choice(NOUNS), "NN")
            span = self.phrase("NP", simple)
        self.nps.append(span)

    def vp(self, depth: int) -> None:
        def build():
            self.leaf(self.rng.choice(VERBS), "VBD")
            self.np(1)
            if depth < 1 and self.rng.random() < 0.3:
                self.phrase("SBAR", lambda: (self.leaf("that", "IN"), self.s(depth + 1)))
        self.vps.append(self.phrase("VP", build))

    def s(self, depth: int = 0) -> None:
        self.phrase("S", lambda: (self.np(), self.vp(depth)))

    def build(self) -> "Sentence":
        self.phrase("TOP", lambda: self.phrase("S", lambda: (self.np(), self.vp(0), self.leaf(".", "."))))
        return self

    def bits(self) -> list[str]:
        return [o + "*" + ")" * c for o, c in zip(self.opens, self.closes)]


def make_document(rng: random.Random, n_tokens: int):
    sentences: list[Sentence] = []
    total = 0
    while total < n_tokens:
        s = Sentence(rng).build()
        sentences.append(s)
        total += len(s.words)
    candidates, offset = [], 0
    for s in sentences:
        candidates += [(a + offset, b + offset) for a, b in s.nps]
        candidates += [(a + offset, b + offset) for a, b in s.vps if rng.random() < 0.1]
        offset += len(s.words)
    candidates = sorted(set(candidates))
    chosen = [c for c in candidates if rng.random() < 0.6]
    rng.shuffle(chosen)
    n_clusters = max(1, len(chosen) // 4)
    clusters: list[list[tuple[int, int]]] = [[] for _ in range(n_clusters)]
    for span in chosen:
        c = min(int(rng.paretovariate(1.3)) - 1, n_clusters - 1) if rng.random() < 0.3 else rng.randrange(n_clusters)
        clusters[c].append(span)
    clusters = [sorted(c) for c in clusters if len(c) >= 2]
    return sentences, clusters, candidates


def make_response(rng: random.Random, clusters, candidates, sentence_of):
    out = []
    used = set()
    for chain in clusters:
        new = []
        for s, e in chain:
            r = rng.random()
            if r < 0.1:
                continue
            if r < 0.3:  # a boundary error inside the sentence
                inside = [c for c in candidates if sentence_of[c[0]] == sentence_of[s] and (
                    c[0] == s or c[1] == e)]
                s, e = rng.choice(inside) if inside else (s, e)
                if rng.random() < 0.3 and e < len(sentence_of) and sentence_of[e] == sentence_of[s]:
                    e += 1
            if (s, e) not in used:
                used.add((s, e))
                new.append((s, e))
        if len(new) > 3 and rng.random() < 0.15:
            cut = rng.randrange(1, len(new))
            out += [new[:cut], new[cut:]]
        elif new:
            out.append(new)
    for _ in range(len(out) // 12):
        if len(out) > 2:
            a = out.pop(rng.randrange(len(out)))
            out[rng.randrange(len(out))].extend(a)
    spare = [c for c in candidates if c not in used]
    rng.shuffle(spare)
    for span in spare[:len(candidates) // 15]:  # invented mentions: joined to a chain, or new ones
        if out and rng.random() < 0.6:
            rng.choice(out).append(span)
        else:
            out.append([span])
    return [c for c in out if c]


def write_conll(path: Path, docs, parse: bool) -> None:
    with open(path, "w") as fh:
        for name, sentences, clusters in docs:
            fh.write(f"#begin document ({name}); part 000\n")
            n = sum(len(s.words) for s in sentences)
            col = ["|".join(x) if x else "-" for x in bracket_items(enumerate(clusters), n)]
            t = 0
            for s in sentences:
                for i, (w, p, b) in enumerate(zip(s.words, s.pos, s.bits())):
                    fh.write(f"{name}\t0\t{i}\t{w}\t{p}\t{b if parse else '-'}\t-\t-\t-\tSpeaker\t*\t{col[t]}\n")
                    t += 1
                fh.write("\n")
            fh.write("#end document\n")


def generate(outdir: Path, docs: int = 348, tokens: int = 170_000, seed: int = 7) -> list[Path]:
    rng = random.Random(seed)
    outdir.mkdir(parents=True, exist_ok=True)
    weights = [rng.uniform(0.3, 1.7) for _ in range(docs)]
    total = sum(weights)
    key_docs, resp_docs = [], []
    for d, w in enumerate(weights):
        sentences, clusters, candidates = make_document(rng, max(30, int(tokens * w / total)))
        sentence_of = [k for k, s in enumerate(sentences) for _ in s.words]
        name = f"mina/doc_{d:04d}"
        key_docs.append((name, sentences, clusters))
        resp_docs.append((name, sentences, make_response(rng, clusters, candidates, sentence_of)))
    paths = [outdir / "key.conll", outdir / "response.conll"]
    write_conll(paths[0], key_docs, True)
    write_conll(paths[1], resp_docs, False)
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--docs", type=int, default=348)
    ap.add_argument("--tokens", type=int, default=170_000)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    print("\n".join(map(str, generate(a.outdir, a.docs, a.tokens, a.seed))))


if __name__ == "__main__":
    main()
