#!/usr/bin/env python3
"""Differential test data for MINA: seeded key/response pairs with the inputs coval accepts and our
first generator never made, and coval's numbers on each.

The sentences, key mentions and response errors are those of scripts/make_mina_anchors.py (its grammar
and its make_key/make_response); beside them every pair may have, chosen by the seed per document:

* colliding minimum spans: a mention beside a larger or smaller NP around the same head (the same
  minimum span), in its own cluster or another, on the key side and on the response side;
* spans that are no constituent: a determiner, a conjunction or a punctuation mark alone, windows of
  1-4 tokens starting and ending anywhere;
* a mention repeated in its cluster, and a mention listed in two clusters (key and response);
* key parse bits that do not balance inside a sentence: closing brackets moved to the next sentence's
  first token (``*))`` closing what an earlier sentence opened), closings dropped (nodes still open at
  the sentence end) or added, an opening dropped, and missing parse bits (``-``) on some tokens (never a
  document's first token: coval's scorer.py runs a parser over a key whose first bit is '-');
* documents without mentions (on one side or both), documents only the response has, and documents only
  the key has (coval raises KeyError on them; the pair is then also scored with the document present and
  empty in the response, which is what fastscore scores, with a warning).

With ``--blanks`` (issue 36) the pairs are those of ``--seed`` whose documents are on both sides, with a blank
Python's ``str.split()`` splits at and ASCII does not (U+00A0, U+3000, U+001C, ...; ``OTHER_BLANKS``) put
into 1-4 key words or parts of speech (inside, at the start or at the end) and into 0-2 response words: coval's
``line.split()`` splits the field there (``with_blanks``); written to ``blanks.json.gz``, seed 36.

With ``--starts`` (issue 36, the next class: how coval's ``get_doc_lines`` finds documents) each pair of
``--seed`` with documents on both sides gets one of ``STARTS``: a byte-order mark before the key's or the
response's first line, a key document's start coval's ``startswith("#begin document")`` misses (bare, two
spaces, upper case, indented: its second document, after a closed one), a ``#`` line inside a document of both
files at the same place, CRLF line ends in both; written to ``starts.json.gz``, seed 37.

Writes ``tests/data/mina_differential/expected.json.gz``: per pair the SHA-256 of its two files (the
test regenerates them from this script and checks the digests) and per configuration (those of
make_mina_anchors.CONFIGS) coval's ``totals`` and ``per_doc`` [p_num, p_den, r_num, r_den] per metric,
or its ``error``; with ``scored_as`` the numbers of the pair whose key-only documents are empty in the
response.

    python scripts/make_mina_differential.py --coval DIR --python VENV/bin/python \
        --driver scripts/coval_driver.py [--check]

coval is ns-moosavi/coval 87071a6, imported by the driver (scripts/coval_driver.py); the same arguments
give the same bytes; ``--check`` regenerates into memory and compares.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import copy
import gzip
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_mina_anchors as anchors  # noqa: E402  (the grammar, key mentions, response errors, writer)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "mina_differential" / "expected.json.gz"
SEED = 24
N_PAIRS = 200
CONFIGS = anchors.CONFIGS


# --------------------------------------------------------------------------- mentions

def _around(sent, s, e):
    """NPs of the sentence strictly around or inside [s, e] (same head for MINA, mostly)."""
    return [(a, b) for t, a, b in sent.nodes if t == "NP" and (a, b) != (s, e) and (
        (a <= s and e <= b) or (s <= a and b <= e))]


def add_collisions(rng, sents, clusters, next_id):
    """A larger or smaller NP beside existing mentions, in the same cluster or another (new) one."""
    spans = [(c, sp) for c, sps in clusters.items() for sp in sps]
    for _ in range(rng.randint(1, 3)):
        if not spans:
            return next_id
        cid, (si, s, e) = rng.choice(spans)
        near = _around(sents[si], s, e)
        if not near:
            continue
        a, b = rng.choice(near)
        r = rng.random()
        if r < 0.4:
            target = cid
        elif r < 0.7 and len(clusters) > 1:
            target = rng.choice(list(clusters))
        else:
            target = next_id
            next_id += 1
            clusters[target] = []
        clusters[target].append((si, a, b))
    return next_id


ODD_TAGS = ("DT", "CC", "IN", ",", ".", "``", "''", "-LRB-", "-RRB-")  # words that are no minimum span alone


def add_odd_spans(rng, sents, clusters, next_id):
    """Spans that are no constituent: a determiner or a punctuation mark alone, a window of 1-4 tokens
    anywhere (starting inside a constituent, ending inside another)."""
    for _ in range(rng.randint(1, 3)):
        si = rng.randrange(len(sents))
        tokens = sents[si].tokens
        r = rng.random()
        marks = [i for i, (_, p) in enumerate(tokens) if p in ODD_TAGS]
        if r < 0.4 and marks:
            a = b = rng.choice(marks)
        else:
            a = rng.randrange(len(tokens))
            b = min(len(tokens) - 1, a + rng.randint(0, 3))
        if clusters and rng.random() < 0.6:
            clusters[rng.choice(list(clusters))].append((si, a, b))
        else:
            clusters[next_id] = [(si, a, b)]
            next_id += 1
    return next_id


def add_repeats(rng, clusters, next_id):
    """A mention twice in its cluster, or listed in two clusters."""
    spans = [(c, sp) for c, sps in clusters.items() for sp in sps]
    for _ in range(rng.randint(1, 2)):
        if not spans:
            return next_id
        cid, sp = rng.choice(spans)
        if rng.random() < 0.5:
            clusters[cid].append(sp)
        else:
            others = [c for c in clusters if c != cid]
            if others and rng.random() < 0.7:
                clusters[rng.choice(others)].append(sp)
            else:
                clusters[next_id] = [sp, rng.choice(spans)[1]]
                next_id += 1
    return next_id


def unambiguous(clusters):
    """Drop spans that cross another of their cluster (CoNLL brackets could not tell them apart); exact
    repeats stay."""
    out = {}
    for cid, spans in clusters.items():
        kept = []
        for sp in spans:
            if sp not in kept and anchors.nests_badly([x for x in kept if x != sp], sp):
                continue
            kept.append(sp)
        if kept:
            out[cid] = kept
    return out


# --------------------------------------------------------------------------- parse bits

def _split_bit(bit):
    star = bit.index("*")
    return bit[:star], bit[star + 1:]


def loosen_parse(rng, sents):
    """Key parse bits that do not balance inside a sentence, or are missing ('-')."""
    for si, sent in enumerate(sents):
        if rng.random() > 0.35:
            continue
        bits = sent.bits
        n = len(bits)
        r = rng.random()
        if r < 0.3 and si + 1 < len(sents):  # closings moved to the next sentence's first token
            opens, closes = _split_bit(bits[-1])
            k = rng.randint(1, len(closes))
            bits[-1] = opens + "*" + closes[k:]
            nxt = sents[si + 1].bits
            o, c = _split_bit(nxt[0])
            nxt[0] = o + "*" + c + ")" * k
        elif r < 0.5:  # closings dropped: nodes open at the sentence end
            t = rng.choice([i for i in range(n) if ")" in bits[i]])
            o, c = _split_bit(bits[t])
            bits[t] = o + "*" + c[rng.randint(1, len(c)):]
        elif r < 0.65:  # closings added
            t = rng.randrange(n)
            bits[t] = bits[t] + ")" * rng.randint(1, 2)
        elif r < 0.8:  # an opening dropped
            t = rng.choice([i for i in range(n) if "(" in bits[i]])
            o, c = _split_bit(bits[t])
            opens = o.split("(")[1:]
            del opens[rng.randrange(len(opens))]
            bits[t] = "".join("(" + x for x in opens) + "*" + c
        else:  # missing parse bits
            for _ in range(rng.randint(1, 3)):
                t = rng.randrange(n)
                if si or t:  # a document's first bit stays: it may be the file's
                    bits[t] = "-"


# --------------------------------------------------------------------------- pairs

def pair_docs(seed: int, i: int):
    """(key docs, response docs) of pair ``i``: make_mina_anchors' Doc objects (``.response`` set)."""
    rng = random.Random(seed * 100003 + i)
    key_docs, resp_docs = [], []
    n_docs = rng.choice((1, 1, 2, 2, 3))
    for d in range(n_docs):
        sents = [anchors.flatten(anchors.sentence(rng, depth=1 if rng.random() < 0.6 else 2))
                 for _ in range(rng.randint(2, 8))]
        doc = anchors.Doc(f"p{i:03d}/{d}", sents, anchors.make_key(rng, sents))
        doc.response = anchors.make_response(rng, sents, doc.key, rng.choice((0.15, 0.3, 0.5)))
        for side in ("key", "response"):
            clusters = getattr(doc, side)
            nxt = max(list(doc.key) + list(doc.response) + [0]) + 1
            if rng.random() < 0.5:
                nxt = add_collisions(rng, sents, clusters, nxt)
            if rng.random() < 0.4:
                nxt = add_odd_spans(rng, sents, clusters, nxt)
            if rng.random() < 0.3:
                add_repeats(rng, clusters, nxt)
            setattr(doc, side, unambiguous(clusters))
        if rng.random() < 0.6:
            doc.sents = copy.deepcopy(sents)
            loosen_parse(rng, doc.sents)
        r = rng.random()
        if r < 0.06:
            doc.key = {}
        elif r < 0.12:
            doc.response = {}
        elif r < 0.15:
            doc.key, doc.response = {}, {}
        where = rng.random()
        if where < 0.07 and d > 0:
            key_docs.append(doc)  # only the key has it
        elif where < 0.14:
            resp_docs.append(doc)  # only the response has it
        else:
            key_docs.append(doc)
            resp_docs.append(doc)
    if not key_docs:  # the response's only document: on both sides then
        key_docs.append(resp_docs[0])
    return key_docs, resp_docs


def conll_text(docs, side: str, parse: str = "key") -> bytes:
    """The CoNLL-2012 text of ``docs`` (make_mina_anchors.write_conll's lines)."""
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "f"
        anchors.write_conll(p, docs, side, parse)
        return p.read_bytes()


def pair_texts(seed: int, i: int) -> tuple[bytes, bytes, bytes | None]:
    """Key text, response text and, when the key has documents the response lacks, the response with
    them present and empty (None otherwise)."""
    key_docs, resp_docs = pair_docs(seed, i)
    key = conll_text(key_docs, "key")
    resp = conll_text(resp_docs, "response", ("key", "star", "none")[i % 3])
    names = {d.name for d in resp_docs}
    if all(d.name in names for d in key_docs):
        return key, resp, None
    filled = []
    for d in key_docs + [d for d in resp_docs if d.name not in {k.name for k in key_docs}]:
        if d.name in names:
            filled.append(d)
        else:
            empty = copy.copy(d)
            empty.response = {}
            filled.append(empty)
    return key, resp, conll_text(filled, "response", ("key", "star", "none")[i % 3])


OTHER_BLANKS = "\x1c\x1d\x1e\x1f\x85\xa0\u1680" + "".join(chr(c) for c in range(0x2000, 0x200B)) + \
    "\u2028\u2029\u202f\u205f\u3000"
BLANKS_SEED = 36
BLANKS_OUT = ROOT / "tests" / "data" / "mina_differential" / "blanks.json.gz"


def with_blanks(text: bytes, rng: random.Random, n_lines: int, fields: tuple[int, ...]) -> bytes:
    """``text`` with a blank of OTHER_BLANKS put into field ``fields`` (chosen per line) of ``n_lines`` token
    lines: inside the field, or at its start or end (beside the separator)."""
    lines = text.split(b"\n")
    tokens = [k for k, line in enumerate(lines) if line and not line.startswith(b"#")]
    for k in sorted(rng.sample(tokens, min(n_lines, len(tokens)))):
        cols = lines[k].decode("utf-8").split(" ")
        f = rng.choice(fields)
        at = rng.randint(0, len(cols[f]))
        cols[f] = cols[f][:at] + rng.choice(OTHER_BLANKS) + cols[f][at:]
        lines[k] = " ".join(cols).encode("utf-8")
    return b"\n".join(lines)


def blank_pair_texts(seed: int, i: int) -> tuple[bytes, bytes] | None:
    """Pair i of ``seed`` with blanks in key and response fields (None: a pair with documents on one side)."""
    key, resp, filled = pair_texts(seed, i)
    if filled is not None or b"#begin" not in resp:
        return None
    rng = random.Random(f"blanks {seed} {i}")
    return with_blanks(key, rng, rng.randint(1, 4), (3, 3, 4)), with_blanks(resp, rng, rng.randint(0, 2), (3,))


STARTS = ("bom key", "bom response", "bare begin", "two spaces", "upper case", "indented", "comment both", "crlf")
STARTS_SEED = 37
STARTS_OUT = ROOT / "tests" / "data" / "mina_differential" / "starts.json.gz"


def _second_begin(text: bytes, new: bytes) -> bytes:
    lines = text.split(b"\n")
    begins = [k for k, line in enumerate(lines) if line.startswith(b"#begin document")]
    if len(begins) > 1:
        lines[begins[1]] = new if new == b"#begin document" else new + lines[begins[1]][len(b"#begin document"):]
    return b"\n".join(lines)


def _comment(text: bytes, at: int) -> bytes:
    lines = text.split(b"\n")
    tokens = [k for k, line in enumerate(lines) if line and not line.startswith(b"#")]
    lines.insert(tokens[at % len(tokens)], b"# a comment")
    return b"\n".join(lines)


def start_pair_texts(seed: int, i: int) -> tuple[str, bytes, bytes] | None:
    """Pair i of ``seed`` with one of STARTS (chosen by i), or None (a pair with documents on one side)."""
    key, resp, filled = pair_texts(seed, i)
    if filled is not None or b"#begin" not in resp:
        return None
    kind = STARTS[i % len(STARTS)]
    bom = b"\xef\xbb\xbf"
    if kind == "bom key":
        key = bom + key
    elif kind == "bom response":
        resp = bom + resp
    elif kind in ("bare begin", "two spaces", "upper case", "indented"):
        key = _second_begin(key, {"bare begin": b"#begin document", "two spaces": b"#begin  document",
                                  "upper case": b"#BEGIN DOCUMENT", "indented": b"  #begin document"}[kind])
    elif kind == "comment both":
        at = random.Random(f"starts {seed} {i}").randint(0, 10 ** 6)
        key, resp = _comment(key, at), _comment(resp, at)
    else:
        key, resp = key.replace(b"\n", b"\r\n"), resp.replace(b"\n", b"\r\n")
    return kind, key, resp


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------- coval

def coval_numbers(a, key: Path, resp: Path) -> dict:
    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.run([a.python, a.driver, "--coval", a.coval, str(key), str(resp), *CONFIGS],
                          capture_output=True, text=True, env=env, check=True)
    out = {}
    for name, rec in json.loads(proc.stdout).items():
        if "error" in rec:
            out[name] = {"error": rec["error"]}
        else:
            out[name] = {"docs": rec["docs"], "totals": rec["totals"], "per_doc": rec["per_doc"]}
    return out


def one_pair(a, i: int) -> tuple[str, dict] | None:
    if a.blanks or a.starts:
        texts = blank_pair_texts(a.seed, i) if a.blanks else start_pair_texts(a.seed, i)
        if texts is None:
            return None
        key, resp, filled = *texts[-2:], None
    else:
        key, resp, filled = pair_texts(a.seed, i)
    with tempfile.TemporaryDirectory() as tmp:
        k, r, f = Path(tmp) / "k", Path(tmp) / "r", Path(tmp) / "f"
        k.write_bytes(key)
        r.write_bytes(resp)
        entry = {"key_sha256": sha(key), "response_sha256": sha(resp), "coval": coval_numbers(a, k, r)}
        if a.starts:
            entry["kind"] = texts[0]
        if filled is not None:
            f.write_bytes(filled)
            entry["scored_as"] = coval_numbers(a, k, f)
    return f"pair-{i:03d}", entry


def build(a) -> bytes:
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        pairs = dict(p for p in pool.map(lambda i: one_pair(a, i), range(a.pairs)) if p is not None)
    rows = [f"{json.dumps(k)}:{json.dumps(v, sort_keys=True, separators=(',', ':'))}" for k, v in sorted(pairs.items())]
    head = json.dumps({"coval_commit": anchors.COVAL_COMMIT, "seed": a.seed, "pairs": a.pairs, **({"blanks": True} if a.blanks else {}), **({"starts": True} if a.starts else {}),
                       "configs": {k: list(v) for k, v in CONFIGS.items()}}, sort_keys=True)
    text = '{\n"about":' + head + ",\n" + ",\n".join(rows) + "\n}\n"
    return gzip.compress(text.encode(), 9, mtime=0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--coval", required=True, help="coval's folder (the coval package)")
    ap.add_argument("--python", required=True, help="a Python with numpy and scipy")
    ap.add_argument("--driver", required=True, help="scripts/coval_driver.py")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--pairs", type=int, default=N_PAIRS)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--check", action="store_true", help="regenerate and compare with --out")
    ap.add_argument("--blanks", action="store_true", help=f"Unicode blanks in fields (seed {BLANKS_SEED}, "
                    f"{BLANKS_OUT.name} unless --seed, --out)")
    ap.add_argument("--starts", action="store_true", help=f"documents coval finds otherwise (seed {STARTS_SEED}, "
                    f"{STARTS_OUT.name} unless --seed, --out)")
    a = ap.parse_args()
    if a.starts:
        a.seed = STARTS_SEED if a.seed == SEED else a.seed
        a.out = str(STARTS_OUT) if a.out == str(OUT) else a.out
    if a.blanks:
        a.seed = BLANKS_SEED if a.seed == SEED else a.seed
        a.out = str(BLANKS_OUT) if a.out == str(OUT) else a.out
    a.coval, a.driver = os.path.abspath(a.coval), os.path.abspath(a.driver)
    data = build(a)
    out = Path(a.out)
    if a.check:
        if gzip.decompress(out.read_bytes()) != gzip.decompress(data):
            sys.exit(f"differs from {out}")
        print(f"{out}: identical")
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)


if __name__ == "__main__":
    main()
