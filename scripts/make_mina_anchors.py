#!/usr/bin/env python3
"""Generate CoNLL-2012 cases with constituency parses and record coval's MINA (min_span) numbers.

Writes ``tests/data/mina_anchors/``:

* ``NAME.key`` / ``NAME.response``: CoNLL-2012 files (12 columns: document, part, word number,
  word, POS, parse bit, lemma, frameset, sense, speaker, named entity, coreference).  Sentences
  come from a small seeded grammar (NPs with determiners, adjectives, PPs, nested NPs,
  appositions, coordination, possessives, NML, QP, parentheses and quotes, relative clauses,
  pronouns, VPs) written as the CoNLL-2012 parse bits (``(TOP(S(NP*``, ``*``, ``*))``).  Key
  mentions are mostly NPs, some VPs or verbs (events), some spans that are not constituents;
  responses are derived from the key with boundary errors (an extra or missing determiner, an
  extra PP, comma, apposition or relative clause, a different head, another sentence, a split
  coordination) and cluster errors (merges, splits, spurious and missing mentions, singletons,
  a span twice, two mentions with one minimum span, nested coreferring mentions).
  ``edge-*`` cases are written by hand (``edge_docs``); ``bad-*`` cases (``bad_inputs``) are inputs
  coval crashes on or scores quietly (``NAME.json`` says which), which fastscore refuses.
* ``NAME.json``: per configuration (``CONFIGS``) coval's exact numbers, from a driver that
  imports coval's reader and evaluator: per metric (mentions, muc, b_cubed, ceafe, ceafm, lea)
  ``[p_num, p_den, r_num, r_den]`` summed over documents in key order (``totals``) and per
  document (``per_doc``, only for cases of several documents), what coval printed while
  reading (``printed``; for generated cases without remove_nested's dumps of mentions), the
  exception when it raised (``error``), and what coval's ``scorer.py`` printed with the same options:
  its report lines (``report``), and whatever it printed before them when that is not ``printed``
  (``stdout_head``), with its exit code and last line of stderr when it failed.  Edge and bad cases
  also keep both sides' clusters with coval's minimum spans (``clusters``).

coval is ns-moosavi/coval (commit 87071a6); the driver, scripts/coval_driver.py, imports coval and
calls its reader and evaluator.  With a Python that has numpy and scipy:

    python scripts/make_mina_anchors.py --coval DIR --python VENV/bin/python --driver scripts/coval_driver.py [--check]

The same arguments reproduce the same bytes (PYTHONHASHSEED=0 for coval; its numbers do not
depend on it); ``--check`` regenerates into a temporary directory and compares.
"""
from __future__ import annotations

import argparse
import filecmp
import gzip
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "mina_anchors"
SEED = 2019
COVAL_COMMIT = "87071a6"

# name -> coval's flags; the test maps each to fastscore's keywords
CONFIGS = {
    "min_span": ("min_span",),
    "min_span+remove_singletons": ("min_span", "remove_singletons"),
    "min_span+NP_only": ("min_span", "NP_only"),
    "min_span+remove_nested": ("min_span", "remove_nested"),
    "min_span+NP_only+remove_nested+remove_singletons": ("min_span", "NP_only", "remove_nested", "remove_singletons"),
    "NP_only": ("NP_only",),
    "remove_nested": ("remove_nested",),
}

# --------------------------------------------------------------------------- grammar

W = {
    "DT": ["the", "a", "this", "that", "every", "some", "an", "these"],
    "JJ": ["old", "new", "big", "local", "former", "small", "red", "famous", "public", "early"],
    "NN": ["man", "company", "city", "report", "car", "dog", "president", "river", "market", "idea",
           "plan", "house", "deal", "bank", "court", "story"],
    "NNS": ["people", "shares", "years", "reports", "children", "officials", "cars", "prices"],
    "NNP": ["John", "Smith", "Mary", "Boston", "Acme", "Jones", "Paris", "Lee", "Chen", "Garcia"],
    "PRP": ["he", "she", "it", "they", "we", "him", "her", "them"],
    "PRP$": ["his", "her", "its", "their", "our"],
    "IN": ["in", "of", "on", "with", "near", "from", "about", "for"],
    "VBD": ["said", "saw", "bought", "left", "visited", "sold", "announced", "built", "met", "liked"],
    "VB": ["buy", "see", "leave", "sell", "visit", "build"],
    "MD": ["will", "could", "may"],
    "CC": ["and", "or", "but"],
    "CD": ["20", "3", "1990", "two", "million", "five", "12.5", "100"],
    "RB": ["about", "nearly", "also", "only"],
    "WDT": ["which", "that"],
    "WP": ["who"],
}


def leaf(rng, pos, word=None):
    return (word if word is not None else rng.choice(W[pos]), pos)


def node(tag, *children):
    return (tag, [c for c in children if c is not None])


def base_np(rng):
    r = rng.random()
    if r < 0.30:
        return node("NP", leaf(rng, "DT"), *[leaf(rng, "JJ") for _ in range(rng.choice((0, 0, 1, 2)))],
                    leaf(rng, "NN"))
    if r < 0.42:
        return node("NP", leaf(rng, "PRP"))
    if r < 0.54:
        return node("NP", *[leaf(rng, "NNP") for _ in range(rng.choice((1, 2, 2, 3)))])
    if r < 0.62:
        return node("NP", *[leaf(rng, "JJ") for _ in range(rng.choice((0, 1)))], leaf(rng, "NNS"))
    if r < 0.70:
        return node("NP", leaf(rng, "PRP$"), leaf(rng, "NN"))
    if r < 0.77:  # possessive: (NP (NP the company 's) president)
        return node("NP", node("NP", leaf(rng, "DT"), leaf(rng, "NN"), leaf(rng, "POS", "'s")), leaf(rng, "NN"))
    if r < 0.83:  # NML: (NP the (NML New York) office)
        return node("NP", leaf(rng, "DT"), node("NML", leaf(rng, "NNP"), leaf(rng, "NNP")), leaf(rng, "NN"))
    if r < 0.90:  # QP: about 20 people, 3 million shares
        qp = node("QP", leaf(rng, "RB", "about"), leaf(rng, "CD")) if rng.random() < 0.5 else \
            node("QP", leaf(rng, "CD"), leaf(rng, "CD", "million"))
        return node("NP", qp, leaf(rng, "NNS"))
    if r < 0.95:  # 20 %
        return node("NP", leaf(rng, "CD"), leaf(rng, "NN", "%"))
    return node("NP", leaf(rng, "DT"), leaf(rng, "NN"), leaf(rng, "NN"))


def np_(rng, depth):
    if depth <= 0 or rng.random() < 0.45:
        return base_np(rng)
    r = rng.random()
    if r < 0.30:  # NP PP
        return node("NP", np_(rng, depth - 1), pp(rng, depth - 1))
    if r < 0.45:  # apposition, the closing comma inside or left out
        return node("NP", base_np(rng), leaf(rng, ",", ","), np_(rng, depth - 1),
                    leaf(rng, ",", ",") if rng.random() < 0.6 else None)
    if r < 0.60:  # coordination
        return node("NP", np_(rng, depth - 1), leaf(rng, "CC"), base_np(rng))
    if r < 0.75:  # relative clause
        wh = node("WHNP", leaf(rng, "WP") if rng.random() < 0.5 else leaf(rng, "WDT"))
        return node("NP", base_np(rng), leaf(rng, ",", ",") if rng.random() < 0.3 else None,
                    node("SBAR", wh, node("S", vp(rng, depth - 1))))
    if r < 0.85:  # parenthesis
        return node("NP", base_np(rng), leaf(rng, "-LRB-", "-LRB-"), base_np(rng), leaf(rng, "-RRB-", "-RRB-"))
    if r < 0.93:  # quoted
        return node("NP", leaf(rng, "``", "``"), base_np(rng), leaf(rng, "''", "''"))
    return node("NP", node("NP", leaf(rng, "DT"), leaf(rng, "JJ"), leaf(rng, "NN"), leaf(rng, "POS", "'s")),
                leaf(rng, "NNS"))


def pp(rng, depth):
    return node("PP", leaf(rng, "IN"), np_(rng, depth))


def vp(rng, depth):
    r = rng.random()
    if r < 0.35:
        return node("VP", leaf(rng, "VBD"), np_(rng, depth))
    if r < 0.55:
        return node("VP", leaf(rng, "VBD"), np_(rng, depth), pp(rng, max(depth - 1, 0)))
    if r < 0.68 and depth > 0:
        return node("VP", leaf(rng, "VBD"), node("SBAR", leaf(rng, "IN", "that"), s_inner(rng, depth - 1)))
    if r < 0.82:
        return node("VP", leaf(rng, "MD"), node("VP", leaf(rng, "VB"), np_(rng, depth)))
    if r < 0.92:
        return node("VP", leaf(rng, "VBD"))
    return node("VP", leaf(rng, "VBD"), node("ADVP", leaf(rng, "RB", "also")), np_(rng, depth))


def s_inner(rng, depth):
    return node("S", np_(rng, depth), vp(rng, depth))


def sentence(rng, depth=2):
    r = rng.random()
    if r < 0.55:
        s = node("S", np_(rng, depth), vp(rng, depth), leaf(rng, ".", "."))
    elif r < 0.70:
        s = node("S", pp(rng, 1), leaf(rng, ",", ","), np_(rng, depth - 1), vp(rng, depth - 1), leaf(rng, ".", "."))
    elif r < 0.85:
        s = node("S", leaf(rng, "``", "``"), s_inner(rng, 1), leaf(rng, ",", ","), leaf(rng, "''", "''"),
                 node("NP", leaf(rng, "PRP")), node("VP", leaf(rng, "VBD", "said")), leaf(rng, ".", "."))
    else:
        s = node("S", s_inner(rng, 1), leaf(rng, ",", ","), leaf(rng, "CC"), s_inner(rng, 1), leaf(rng, ".", "."))
    return node("TOP", s)


@dataclass
class Sentence:
    tokens: list  # (word, pos)
    nodes: list  # (tag, start, end) inclusive, preorder
    bits: list = field(default_factory=list)


def flatten(tree) -> Sentence:
    tokens, nodes = [], []

    def walk(t):
        tag, rest = t
        if isinstance(rest, str):  # a leaf: (word, pos)
            tokens.append((tag, rest))
            return
        k = len(nodes)
        nodes.append(None)
        start = len(tokens)
        for c in rest:
            walk(c)
        nodes[k] = (tag, start, len(tokens) - 1)

    walk(tree)
    return Sentence(tokens, nodes, parse_bits(len(tokens), nodes))


def parse_bits(n, nodes):
    opens, closes = [""] * n, [0] * n
    for tag, s, e in nodes:  # preorder: outer nodes open first
        opens[s] += "(" + tag
        closes[e] += 1
    return [opens[i] + "*" + ")" * closes[i] for i in range(n)]


# --------------------------------------------------------------------------- key mentions

@dataclass
class Doc:
    name: str
    sents: list
    key: dict  # cluster id -> list of (sentence, start, end)


def nests_badly(spans, sp):
    """A span that crosses a span of the same cluster or shares exactly one edge token with it in a way
    that makes the CoNLL bracket pairing ambiguous (one ends where the other starts)."""
    s, a, b = sp
    for t, c, d in spans:
        if t != s:
            continue
        if (a, b) == (c, d):
            return True
        crossing = (a < c <= b < d) or (c < a <= d < b)
        if crossing or b == c or d == a:
            return True
    return False


def make_key(rng, sents, p_mention=0.45):
    clusters = {}
    used = set()
    n_ent = 0
    events = []
    for si, sent in enumerate(sents):
        cands = [(tag, s, e) for tag, s, e in sent.nodes if tag == "NP"]
        verbs = [(tag, s, e) for tag, s, e in sent.nodes if tag == "VP"]
        picks = [c for c in cands if rng.random() < p_mention]
        for tag, s, e in verbs:
            if rng.random() < 0.15:
                if rng.random() < 0.5:
                    picks.append(("VP", s, e))
                else:
                    picks.append(("V", s, s))  # the verb alone
        if rng.random() < 0.12 and len(sent.tokens) > 3:  # not a constituent
            a = rng.randrange(len(sent.tokens) - 2)
            picks.append(("X", a, min(len(sent.tokens) - 1, a + rng.randint(1, 3))))
        for tag, s, e in picks:
            sp = (si, s, e)
            if sp in used:
                continue
            if tag in ("VP", "V"):
                pool = events
            else:
                pool = [c for c in clusters if c not in events]
            choice = None
            if pool and rng.random() < 0.6:
                choice = rng.choice(pool)
                if nests_badly(clusters[choice], sp):
                    choice = None
                elif any(t == si and c <= s and e <= d or t == si and s <= c and d <= e
                         for t, c, d in clusters[choice]) and rng.random() < 0.7:
                    choice = None  # nested coreferring mentions: kept rare
            if choice is None:
                n_ent += 1
                choice = n_ent
                clusters[choice] = []
                if tag in ("VP", "V"):
                    events.append(choice)
            clusters[choice].append(sp)
            used.add(sp)
    return clusters


# --------------------------------------------------------------------------- responses

def constituents(sent, tag=None):
    return [(t, s, e) for t, s, e in sent.nodes if tag is None or t == tag]


def boundary_error(rng, sents, sp):
    """A response span for key span ``sp``: an error MINA may forgive or one it does not."""
    si, s, e = sp
    sent = sents[si]
    n = len(sent.tokens)
    pos = [p for _, p in sent.tokens]
    r = rng.random()
    if r < 0.10 and pos[s] == "DT" and e > s:  # missing determiner
        return (si, s + 1, e)
    if r < 0.18 and s > 0 and pos[s - 1] in ("DT", "PRP$", "JJ", "``", ",", "IN"):  # extra word before
        return (si, s - 1, e)
    if r < 0.40:  # attached to a larger NP: extra PP, apposition, relative clause, coordination
        ups = [(t, a, b) for t, a, b in sent.nodes if t == "NP" and a <= s and e <= b and (a, b) != (s, e)]
        if ups:
            _, a, b = min(ups, key=lambda x: x[2] - x[1])
            return (si, a, b)
    if r < 0.52:  # a smaller NP inside: the head NP without its PP, one conjunct, one apposition part
        downs = [(t, a, b) for t, a, b in sent.nodes if t == "NP" and s <= a and b <= e and (a, b) != (s, e)]
        if downs:
            _, a, b = rng.choice(downs)
            return (si, a, b)
    if r < 0.62 and e + 1 < n and pos[e + 1] in (",", ".", "''", "-RRB-", "POS"):  # extra punctuation
        return (si, s, e + 1)
    if r < 0.68 and e > s and pos[e] in (",", ".", "''", "-RRB-"):
        return (si, s, e - 1)
    if r < 0.74 and e + 1 < n:  # extra trailing tokens, whatever they are
        return (si, s, min(n - 1, e + rng.randint(1, 3)))
    if r < 0.80:  # a different head: another NP of the sentence
        others = [(t, a, b) for t, a, b in sent.nodes if t == "NP" and (a, b) != (s, e)]
        if others:
            _, a, b = rng.choice(others)
            return (si, a, b)
    if r < 0.84 and len(sents) > 1:  # the same place in another sentence
        sj = rng.choice([j for j in range(len(sents)) if j != si])
        m = len(sents[sj].tokens)
        a = min(s, m - 1)
        return (sj, a, min(m - 1, a + (e - s)))
    return sp


def make_response(rng, sents, key, strength):
    resp = {}
    for cid, spans in key.items():
        out = []
        for sp in spans:
            r = rng.random()
            if r < 0.12 * strength * 2:
                continue  # missing mention
            if r < 0.55 * strength * 2:
                sp = boundary_error(rng, sents, sp)
            out.append(sp)
        if out:
            resp[cid] = out
    ids = list(resp)
    nxt = max(list(key) + [0]) + 1
    # splits
    for cid in ids:
        if len(resp[cid]) >= 3 and rng.random() < 0.25 * strength * 2:
            k = rng.randint(1, len(resp[cid]) - 1)
            resp[nxt] = resp[cid][k:]
            resp[cid] = resp[cid][:k]
            nxt += 1
    # merges
    ids = list(resp)
    if len(ids) >= 2 and rng.random() < 0.6 * strength * 2:
        a, b = rng.sample(ids, 2)
        resp[a] = resp[a] + resp.pop(b)
    # split coordination: a coordinated NP replaced by its conjuncts
    for cid in list(resp):
        new = []
        for si, s, e in resp[cid]:
            sent = sents[si]
            kids = [(t, a, b) for t, a, b in sent.nodes if t == "NP" and s <= a and b <= e and (a, b) != (s, e)]
            has_cc = any(p == "CC" for _, p in sent.tokens[s:e + 1])
            if has_cc and kids and rng.random() < 0.4:
                tops = [k for k in kids if not any(o != k and o[1] <= k[1] and k[2] <= o[2] for o in kids)]
                new.extend((si, a, b) for _, a, b in tops)
            else:
                new.append((si, s, e))
        resp[cid] = new
    # spurious mentions and singletons
    for _ in range(rng.randint(0, int(6 * strength) + 1)):
        si = rng.randrange(len(sents))
        cands = constituents(sents[si], "NP")
        if not cands:
            continue
        _, a, b = rng.choice(cands)
        if rng.random() < 0.5 or not resp:
            resp[nxt] = [(si, a, b)]
            nxt += 1
        else:
            resp[rng.choice(list(resp))].append((si, a, b))
    # the same span twice; two mentions with one minimum span (a mention and its extension)
    for _ in range(rng.choice((0, 0, 1, 2))):
        cid = rng.choice(list(resp)) if resp else None
        if cid is None or not resp[cid]:
            continue
        si, s, e = rng.choice(resp[cid])
        kind = rng.random()
        if kind < 0.3:  # the same span again, same cluster or another
            target = cid if rng.random() < 0.5 else rng.choice(list(resp))
            resp[target].append((si, s, e))
        else:  # a larger or smaller NP around the same head
            ups = [(a, b) for t, a, b in sents[si].nodes if t == "NP" and a <= s and e <= b and (a, b) != (s, e)]
            downs = [(a, b) for t, a, b in sents[si].nodes if t == "NP" and s <= a and b <= e and (a, b) != (s, e)]
            if ups or downs:
                a, b = rng.choice(ups + downs)
                target = cid if rng.random() < 0.5 else rng.choice(list(resp))
                resp[target].append((si, a, b))
    # keep the CoNLL brackets unambiguous within a cluster: drop spans crossing their cluster's others
    clean = {}
    for cid, spans in resp.items():
        kept = []
        for sp in spans:
            same = [x for x in kept if x != sp]
            if nests_badly(same, sp) and sp not in kept:
                continue
            kept.append(sp)
        if kept:
            clean[cid] = kept
    return clean


# --------------------------------------------------------------------------- writing

def coref_column(n_tokens, spans_by_cluster, si):
    """Per token the coreference items of sentence ``si``: openings (longest first), one-token
    mentions, closings (shortest first)."""
    opens = [[] for _ in range(n_tokens)]
    singles = [[] for _ in range(n_tokens)]
    closes = [[] for _ in range(n_tokens)]
    for cid, spans in spans_by_cluster.items():
        for t, s, e in spans:
            if t != si:
                continue
            if s == e:
                singles[s].append(f"({cid})")
            else:
                opens[s].append((-(e - s), cid))
                closes[e].append((e - s, cid))
    out = []
    for i in range(n_tokens):
        items = [f"({c}" for _, c in sorted(opens[i])] + singles[i] + [f"{c})" for _, c in sorted(closes[i])]
        out.append("|".join(items) if items else "-")
    return out


def write_conll(path, docs, side, parse="key", gz=False):
    lines = []
    for doc in docs:
        clusters = doc.key if side == "key" else doc.response
        lines.append(f"#begin document ({doc.name}); part 000")
        for si, sent in enumerate(doc.sents):
            col = coref_column(len(sent.tokens), clusters, si)
            for i, (word, pos) in enumerate(sent.tokens):
                bit = sent.bits[i] if parse == "key" else ("-" if parse == "none" else "*")
                lines.append(f"{doc.name} 0 {i} {word} {pos} {bit} - - - - * {col[i]}")
            lines.append("")
        lines.append("#end document")
    data = ("\n".join(lines) + "\n").encode()
    Path(path).write_bytes(gzip.compress(data, 9, mtime=0) if gz else data)


# --------------------------------------------------------------------------- cases

def generated(seed, n_cases):
    """(name, docs, response parse column) for the seeded cases."""
    cases = []
    for i in range(n_cases):
        rng = random.Random(seed * 1000 + i)
        large = i % 13 == 12
        n_docs = 4 if large else 1 + i % 4
        strength = (0.15, 0.3, 0.5)[i % 3]
        docs = []
        for d in range(n_docs):
            n_sent = rng.randint(20, 30) if large else rng.randint(3, 15)
            sents = [flatten(sentence(rng, depth=1 if rng.random() < 0.6 else 2)) for _ in range(n_sent)]
            name = f"c{i:02d}/{d}"
            doc = Doc(name, sents, make_key(rng, sents))
            if i == 0:
                doc.response = {c: list(s) for c, s in doc.key.items()}  # identical: 1.0 everywhere
            else:
                doc.response = make_response(rng, sents, doc.key, strength)
            docs.append(doc)
        parse = "none" if i % 7 == 5 else ("star" if i % 11 == 4 else "key")  # the response's parse is unused
        cases.append((f"case-{i:03d}", docs, parse))
    return cases


def sent_from(rows):
    """A hand-written sentence: rows of 'word POS bit'."""
    tokens, bits = [], []
    for row in rows:
        word, pos, bit = row.split()
        tokens.append((word, pos))
        bits.append(bit)
    return Sentence(tokens, [], bits)


S_APPOS = sent_from([  # (TOP (S (NP (NP John Smith) , (NP the president) ,) (VP left (NP the big (NML New York) office)) .))
    "John NNP (TOP(S(NP(NP*", "Smith NNP *)", ", , *", "the DT (NP*", "president NN *)", ", , *)",
    "left VBD (VP*", "the DT (NP*", "big JJ *", "New NNP (NML*", "York NNP *)", "office NN *))", ". . *))"])
S_COORD = sent_from([  # (TOP (S (NP (NP the cars) and (NP the old houses) (PP in (NP Paris))) (VP sold (NP 20 %)) .))
    "the DT (TOP(S(NP(NP*", "cars NNS *)", "and CC *", "the DT (NP*", "old JJ *", "houses NNS *)",
    "in IN (PP*", "Paris NNP (NP*)))", "sold VBD (VP*", "20 CD (NP*", "% NN *))", ". . *))"])
S_QUOTE = sent_from([  # `` (S (NP it) (VP will (VP sell (NP (QP about 20) cars)))) , '' (NP he) (VP said) .
    "`` `` (TOP(S*", "it PRP (S(NP*)", "will MD (VP*", "sell VB (VP*", "about RB (NP(QP*", "20 CD *)",
    "cars NNS *))))", ", , *", "'' '' *", "he PRP (NP*)", "said VBD (VP*)", ". . *))"])
S_REL = sent_from([  # (NP (NP the man) , (SBAR (WHNP who) (S (VP met (NP Lee)))) ,) (VP left (PP from (NP -LRB- Boston -RRB-)))
    "the DT (TOP(S(NP(NP*", "man NN *)", ", , *", "who WP (SBAR(WHNP*)", "met VBD (S(VP*", "Lee NNP (NP*)))))",
    "left VBD (VP*", "from IN (PP*", "-LRB- -LRB- (NP*", "Boston NNP *", "-RRB- -RRB- *)))", ". . *))"])

S_WORDS = sent_from([  # runs of words with neither only letters nor only digits ('U.S.', '12.5', '-LRB-')
    "the DT (TOP(S(NP(NP(NP*", "dog NN *", "'s POS *)", "U.S. NNP *", "office NN (NML*", "building NN *))",
    "in IN (PP*", "12.5 CD (NP*", "-LRB- -LRB- (PRN*", "Boston NNP (NP*)", "-RRB- -RRB- *))))",
    "rose VBD (VP*", "3.5 CD (NP*", "% NN *))", ". . *))"])


def edge_docs():
    """Hand-written cases: name -> (docs, response parse)."""
    def doc(name, sents, key, resp):
        d = Doc(name, sents, key)
        d.response = resp
        return d

    four = [S_APPOS, S_COORD, S_QUOTE, S_REL]
    edges = {}
    # tokens with only '*': a mention inside a run (no bracket at all); runs flushed by '(' or by ')'
    edges["edge-star-runs"] = [doc("edge/runs", four, {
        1: [(0, 8, 9), (0, 7, 11)],          # 'big New' (only '*' ... '(NML*'), 'the big New York office'
        2: [(0, 9, 11), (0, 11, 11)],        # 'New York office', 'office'
        3: [(1, 3, 4)],                      # 'the old' (only '*')
        5: [(1, 4, 5)],                      # 'old houses'
        4: [(0, 7, 8)],                      # 'the big': run flushed by nothing (end of mention)
    }, {
        1: [(0, 8, 8), (0, 9, 11)],          # 'big', 'New York office'
        2: [(0, 10, 11)],                    # 'York office'
        3: [(1, 3, 5), (1, 4, 4)],           # 'the old houses', 'old'
        4: [(0, 7, 9)],                      # 'the big New'
    })]
    # spans that are not constituents (dummy root), punctuation-only and determiner-only mentions
    edges["edge-dummy-root"] = [doc("edge/dummy", four, {
        1: [(0, 1, 3), (0, 4, 6)],           # 'Smith , the', 'president , left'
        2: [(0, 2, 2), (1, 11, 11)],         # ',' and '.': punctuation only -> the whole span
        3: [(1, 0, 0), (1, 3, 3)],           # 'the' twice (determiner only): equal by coval's fallback
        4: [(3, 1, 4)],                      # 'man , who met'
        5: [(2, 7, 8)],                      # ", ''"
    }, {
        1: [(0, 1, 3)],
        2: [(0, 5, 5), (2, 8, 8)],           # another ',' (same relative index 0) in sentence 0; "''"
        3: [(1, 0, 0)],
        6: [(1, 3, 3)],                      # the second 'the' in another cluster
        4: [(3, 0, 4)],
        5: [(2, 7, 7)],
    })]
    # a one-token mention in two clusters; the same span twice; nested coreferring mentions
    edges["edge-two-clusters"] = [doc("edge/two", four, {
        1: [(2, 1, 1), (2, 9, 9)],           # 'it' ... 'he'
        2: [(2, 1, 1), (1, 7, 7)],           # 'it' again, 'Paris'
        3: [(0, 0, 5), (0, 3, 4)],           # 'John Smith , the president ,' and 'the president' (nested)
        4: [(3, 0, 5), (3, 0, 1)],           # 'the man , who met Lee' and 'the man'
    }, {
        1: [(2, 1, 1), (2, 9, 9)],
        2: [(2, 1, 1), (1, 7, 7), (1, 7, 7)],  # 'Paris' twice in one cluster
        3: [(0, 0, 5), (0, 0, 1)],           # the apposition with its first NP: one minimum span?
        4: [(3, 0, 1)],
        5: [(3, 0, 5)],                      # same min span as cluster 4's, in another cluster
    })]
    # verbal mentions: VPs, verbs, a VP with an object; NP_only prunes them (partly, or whole clusters)
    edges["edge-verbal"] = [doc("edge/verbal", four, {
        1: [(0, 6, 11), (2, 2, 6)],          # 'left the big New York office', 'will sell about 20 cars'
        2: [(2, 10, 10), (3, 6, 6), (1, 8, 8)],  # 'said', 'left', 'sold'
        3: [(1, 8, 10), (1, 9, 10)],         # 'sold 20 %' with '20 %'
    }, {
        1: [(0, 6, 6), (2, 3, 6)],           # the verb only; 'sell about 20 cars'
        2: [(2, 10, 10), (3, 6, 10)],        # 'said'; 'left from -LRB- Boston -RRB-'
        3: [(1, 8, 10), (1, 9, 10), (1, 9, 9)],  # '20' alone
    })]
    # coordination: the whole, each conjunct, a conjunct plus the PP
    edges["edge-coordination"] = [doc("edge/coord", four, {
        1: [(1, 0, 7)],                      # 'the cars and the old houses in Paris'
        2: [(1, 0, 1), (3, 8, 10)],          # 'the cars', '-LRB- Boston -RRB-'
        3: [(1, 3, 5), (3, 9, 9)],           # 'the old houses', 'Boston'
    }, {
        1: [(1, 0, 5)],                      # without the PP
        2: [(1, 0, 1), (3, 9, 9)],
        3: [(1, 3, 7), (3, 8, 10)],          # 'the old houses in Paris'; the parenthesis
    })]
    # runs flushed by '(' are dropped unless a word is all letters or all digits ('U.S.', '12.5', '-LRB-')
    edges["edge-word-runs"] = [doc("edge/words", [S_WORDS, S_APPOS], {
        1: [(0, 0, 5), (0, 3, 5)],           # 'the dog 's U.S. office building', 'U.S. office building'
        2: [(0, 7, 10), (0, 12, 13)],        # '12.5 -LRB- Boston -RRB-', '3.5 %'
        3: [(0, 7, 7)],                      # '12.5' alone (flushed by the end of the mention)
        4: [(0, 1, 2), (1, 0, 1)],           # "dog 's", 'John Smith'
    }, {
        1: [(0, 0, 5), (0, 4, 5)],           # 'office building'
        2: [(0, 9, 9), (0, 12, 13)],         # 'Boston'
        3: [(0, 7, 8)],                      # '12.5 -LRB-'
        4: [(0, 2, 3), (1, 0, 1)],           # "'s U.S."
    })]
    # a response document without mentions (what fastscore scores when the response lacks the document:
    # bad-missing-document, on which coval raises KeyError)
    runs = edges["edge-star-runs"][0]
    empty = doc(runs.name, runs.sents, runs.key, {})
    edges["edge-empty-document"] = [empty, edges["edge-coordination"][0]]
    return edges


def bad_inputs(tmp: Path):
    """Inputs coval crashes on or scores quietly: name -> (key text, response text).  fastscore refuses
    them with a clear error, but for the missing document (a warning; scored as an empty document)."""
    good = edge_docs()["edge-coordination"]
    key_p, resp_p = tmp / "g.key", tmp / "g.resp"
    write_conll(key_p, good, "key")
    write_conll(resp_p, good, "response")
    key, resp = key_p.read_text(), resp_p.read_text()
    bad = {}
    # no parse column: '-' in column 6 (coval's scorer.py then wants the Stanford parser)
    bad["bad-no-parse"] = ("\n".join(
        " ".join(l.split()[:5] + ["-"] + l.split()[6:]) if l and not l.startswith("#") else l
        for l in key.split("\n")), resp)
    # unbalanced parse brackets: the first sentence's tree is never closed
    lines = key.split("\n")
    i = next(k for k, l in enumerate(lines) if l.split()[5:6] == ["*))"])
    bad["bad-unbalanced-parse"] = ("\n".join(l.replace(" *)) ", " *) ", 1) if k == i else l
                                             for k, l in enumerate(lines)), resp)

    def add(line, item):
        head, col = line.rsplit(" ", 1)
        return f"{head} {item if col == '-' else col + '|' + item}"

    # a response mention crossing sentences (opened in the first, closed in the second)
    rl = resp.split("\n")
    first = next(k for k, l in enumerate(rl) if l and not l.startswith("#"))
    end_s1 = next(k for k in range(first, len(rl)) if rl[k] == "") + 2
    rl[first], rl[end_s1] = add(rl[first], "(9"), add(rl[end_s1], "9)")
    bad["bad-crossing-sentences"] = (key, "\n".join(rl))
    # a closing bracket never opened (coval: an empty cluster)
    rl = resp.split("\n")
    rl[first + 2] = add(rl[first + 2], "8)")
    bad["bad-stray-close"] = (key, "\n".join(rl))
    # a response without one of the key's documents
    two = edge_docs()["edge-star-runs"] + good
    write_conll(key_p, two, "key")
    write_conll(resp_p, two[1:], "response")
    bad["bad-missing-document"] = (key_p.read_text(), resp_p.read_text())
    # a response sentence longer than the key's (a mention on tokens the key does not have)
    rl = resp.split("\n")
    k = end_s1 - 2  # the blank line after the first sentence
    prev = rl[k - 1].split()
    rl.insert(k, f"{prev[0]} 0 {int(prev[2]) + 1} extra NN * - - - - * (7)")
    bad["bad-longer-sentence"] = (key, "\n".join(rl))
    return bad


# --------------------------------------------------------------------------- running coval

def run_coval(a, key: Path, resp: Path, dump: bool):
    env = dict(os.environ, PYTHONHASHSEED="0")
    cmd = [a.python, a.driver, "--coval", a.coval, str(key), str(resp), *CONFIGS] + (["--mentions"] if dump else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    numbers = json.loads(proc.stdout)
    out = {}
    for name, flags in CONFIGS.items():
        rec = numbers[name]
        entry = {}
        if "error" in rec:
            entry["error"] = rec["error"]
        else:
            entry["docs"] = rec["docs"]
            entry["totals"] = rec["totals"]
            if len(rec["docs"]) > 1:
                entry["per_doc"] = rec["per_doc"]
            if dump and "min_span" in flags:
                entry["clusters"] = rec["clusters"]
        printed = rec["printed"]
        if printed:
            entry["printed"] = printed if dump else _summary(printed)
        s = subprocess.run([a.python, "scorer.py", str(key), str(resp), *flags], capture_output=True, text=True,
                           env=env, cwd=a.coval, check=False)  # its exit code is recorded
        lines = s.stdout.splitlines(keepends=True)
        k = len(lines)
        while k and REPORT.match(lines[k - 1]):
            k -= 1
        entry["report"] = "".join(lines[k:])
        if "".join(lines[:k]) != printed:  # scorer.py printed something else before its report
            entry["stdout_head"] = "".join(lines[:k])
        if s.returncode:
            entry["exit"] = s.returncode
            entry["stderr_tail"] = s.stderr.strip().splitlines()[-1] if s.stderr.strip() else ""
        out[name] = entry
    return out


REPORT = re.compile(r"(mentions|muc|bcub|ceafe|lea) +Recall: [0-9.]+  Precision: [0-9.]+  F1: [0-9.]+\n|"
                    r"CoNLL score: [0-9.]+\n")
SUMMARY = re.compile(r"Warning: |Number of |Problem in |A mention span |[0-9]+ and [0-9]+ singletons ")


def _summary(printed: str) -> str:
    """coval's messages without remove_nested's dumps of mentions and trees (counted instead)."""
    lines = printed.splitlines(keepends=True)
    kept = [line for line in lines if SUMMARY.match(line)]
    dropped = len(lines) - len(kept)
    return "".join(kept) + (f"[{dropped} lines of remove_nested's mention dumps left out]\n" if dropped else "")


def dump_json(path, obj):
    """One line per top-level key (a configuration, a case), compact inside: small, and diffs stay readable."""
    rows = [f"{json.dumps(k)}:{json.dumps(v, sort_keys=True, separators=(',', ':'))}" for k, v in sorted(obj.items())]
    Path(path).write_text("{\n" + ",\n".join(rows) + "\n}\n")


def build(a, out: Path):
    out.mkdir(parents=True, exist_ok=True)
    index = {"coval_commit": COVAL_COMMIT, "configs": {k: list(v) for k, v in CONFIGS.items()}, "cases": {}}
    cases = index["cases"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        todo = [(n, d, p, "generated") for n, d, p in generated(a.seed, a.cases)]
        todo += [(n, d, "key", "edge") for n, d in edge_docs().items()]
        for name, docs, parse, kind in todo:  # generated cases gzipped (fastscore reads them so), coval reads copies
            write_conll(tmp / f"{name}.key", docs, "key")
            write_conll(tmp / f"{name}.response", docs, "response", parse)
            suffix = ".gz" if kind == "generated" else ""
            for side in ("key", "response"):
                data = (tmp / f"{name}.{side}").read_bytes()
                (out / f"{name}.{side}{suffix}").write_bytes(gzip.compress(data, 9, mtime=0) if suffix else data)
        for name, (k, r) in bad_inputs(tmp).items():
            for side, text in (("key", k), ("response", r)):
                (out / f"{name}.{side}").write_text(text)
                (tmp / f"{name}.{side}").write_text(text)
            todo.append((name, None, None, "bad"))
        for name, _, _, kind in todo:
            print(name, file=sys.stderr)
            res = run_coval(a, tmp / f"{name}.key", tmp / f"{name}.response", dump=kind != "generated")
            dump_json(out / f"{name}.json", res)
            crashed = sorted(c for c, e in res.items() if "error" in e)
            cases[name] = {"kind": kind, **({"coval_raised": crashed} if crashed else {})}
    dump_json(out / "index.json", {"coval_commit": COVAL_COMMIT, "configs": index["configs"],
                                   **{f"case {k}": v for k, v in cases.items()}})


def _content(path: Path) -> bytes:
    """A file's bytes, gunzipped (two zlib versions may compress the same text differently)."""
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--coval", required=True, help="coval's folder (scorer.py and the coval package)")
    ap.add_argument("--python", required=True, help="a Python with numpy and scipy")
    ap.add_argument("--driver", required=True, help="the driver that imports coval (see the docstring)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--check", action="store_true", help="regenerate into a temporary directory and compare")
    a = ap.parse_args()
    a.coval, a.driver = os.path.abspath(a.coval), os.path.abspath(a.driver)
    if not a.check:
        build(a, Path(a.out))
        return
    with tempfile.TemporaryDirectory() as tmp:
        build(a, Path(tmp))
        cmp = filecmp.dircmp(tmp, a.out)
        bad = cmp.left_only + cmp.right_only + [f for f in cmp.common_files if _content(Path(tmp) / f)
                                                != _content(Path(a.out) / f)]
        if bad:
            sys.exit(f"differs from {a.out}: {sorted(bad)}")
        print(f"{a.out}: identical")


if __name__ == "__main__":
    main()
