#!/usr/bin/env python3
"""Seeded generator of CorefUD 1.x CoNLL-U key files and perturbed response files.

Key files carry coreference in MISC (``Entity=`` bracket syntax, header
``# global.Entity = eid-etype-head-other-infstat-minspan-identity``) and cover
nested and crossing mentions, discontinuous mentions (``(e3[1/2]-...`` parts),
heads (1-based index over the mention's sorted nodes, sometimes left out so the
first node is the head), multiword tokens (``3-4`` lines), empty nodes
(``3.1`` ids with DEPS such as ``2:nsubj``) including zero mentions whose head
is an empty node, singletons, entity ids reused across documents, and
``SplitAnte``/``Bridge`` in MISC.  A response is the key after seeded
perturbations (drop/add mentions, boundary shifts by one node, head changes,
merged/split entities, dropped/added/moved zeros, changed zero DEPS); its
sentences and (non-empty) words are identical to the key's.  ``--ties`` adds
response mentions that compete for one key mention with equal similarity.

    python scripts/gen_conllu.py --seed 7 --docs 2 --sentences 12 --out DIR [--name case] [--ties]
    python scripts/gen_conllu.py --seed 7 --perturb KEY.conllu --out DIR --name case   # perturb a file

Writes DIR/NAME.key.conllu and DIR/NAME.response.conllu (with --perturb the key
is copied unchanged).  Plain Python 3, no dependencies; same arguments, same bytes.
"""
from __future__ import annotations

import argparse
import itertools
import random
import sys
from pathlib import Path

GLOBAL_ENTITY = "eid-etype-head-other-infstat-minspan-identity"


def _words(text):
    return tuple(text.split())


LEXICON = _words("the a an this man woman dog city car house book idea plan report he she it they we you him her "
                 "them his their said saw gave took made found told asked went came left met wrote read bought "
                 "and but or of in on at to with from by for about after before because that which who "
                 "old new big small red quick slow green good bad long short yesterday today here there")
UPOS = _words("DET NOUN PRON VERB ADP ADJ ADV CCONJ PROPN AUX")
DEPRELS = _words("nsubj obj iobj obl nmod amod det case advmod conj cc mark acl xcomp ccomp compound "
                 "appos nummod aux cop punct")
ZERO_RELS = ("nsubj", "obj", "iobj", "nsubj:pass", "obl", "nsubj:xsubj")
ETYPES = ("person", "place", "object", "organization", "event", "abstract", "time", "substance", "animal", "")
INFSTAT = ("", "", "new", "giv:act", "giv:inact", "acc")
EMPTY_FORMS = ("_", "_", "#PersPron", "#Gen", "#Cor")

_uid = itertools.count(1)


# --------------------------------------------------------------------------- model

class Node:
    """A word (``empty`` False) or an empty node; ``uid`` is its identity (kept by copies)."""
    __slots__ = ("cols", "deps", "empty", "misc", "uid")

    def __init__(self, empty, cols, deps=None, misc=None, uid=None):
        self.uid = next(_uid) if uid is None else uid
        self.empty = empty
        self.cols = cols          # 10 CoNLL-U columns; ID and (for deps is not None) DEPS are rewritten on output
        self.deps = deps          # None: keep cols[8]; else list of (parent, deprel), parent int word ord or Node
        self.misc = misc or []    # MISC items other than Entity / SplitAnte / Bridge


class Sentence:
    __slots__ = ("comments", "empties", "mwts", "sent_id", "words")

    def __init__(self, sent_id, words, empties=None, mwts=None, comments=None):
        self.sent_id = sent_id
        self.comments = comments  # raw comment lines (parsed files) or None (built on output)
        self.words = words
        self.empties = empties if empties is not None else [[] for _ in range(len(words) + 1)]
        self.mwts = mwts or []    # list of (first word ord, last word ord, 10 raw columns)

    def order(self):
        out = list(self.empties[0])
        for k, w in enumerate(self.words, 1):
            out.append(w)
            out.extend(self.empties[k])
        return out

    def positions(self):
        return {n.uid: i for i, n in enumerate(self.order())}

    def ids(self):
        ids = {}
        for k in range(len(self.words) + 1):
            if k:
                ids[self.words[k - 1].uid] = str(k)
            for j, e in enumerate(self.empties[k], 1):
                ids[e.uid] = f"{k}.{j}"
        return ids

    def in_mwt(self, k):
        """Is the gap after word k inside a multiword token?"""
        return any(a <= k < b for a, b, _ in self.mwts)


class Mention:
    __slots__ = ("attrs", "head", "nodes", "sent")

    def __init__(self, sent, nodes, head, attrs=None):
        self.sent = sent
        self.nodes = nodes        # list of Node (any order; sorted on output)
        self.head = head          # Node in nodes, or None: head field left out (the first node is the head)
        self.attrs = attrs or {}  # other / infstat / minspan / identity strings


class Entity:
    __slots__ = ("eid", "etype", "mentions")

    def __init__(self, eid, etype, mentions=None):
        self.eid = eid
        self.etype = etype
        self.mentions = mentions or []


class Document:
    __slots__ = ("bridges", "doc_id", "entities", "newdoc_line", "sentences", "splits")

    def __init__(self, doc_id, sentences, newdoc_line=None):
        self.doc_id = doc_id
        self.sentences = sentences
        self.entities = []
        self.bridges = []         # (target Entity, source Entity, relation)
        self.splits = []          # (antecedent Entity, this Entity)
        self.newdoc_line = newdoc_line


# --------------------------------------------------------------------------- helpers

def sorted_nodes(m):
    pos = m.sent.positions()
    return sorted(m.nodes, key=lambda n: pos[n.uid])


def runs_of(m, pos=None):
    """Maximal runs of consecutive positions (in the sentence's node order) of a mention."""
    pos = pos or m.sent.positions()
    idx = sorted(pos[n.uid] for n in m.nodes)
    runs, start = [], idx[0]
    for a, b in itertools.pairwise(idx):
        if b != a + 1:
            runs.append((start, a))
            start = b
    runs.append((start, idx[-1]))
    return runs


def node_key(m):
    return (id(m.sent), tuple(sorted(n.uid for n in m.nodes)))


def is_zero(m):
    head = m.head if m.head is not None else sorted_nodes(m)[0]
    return head.empty


def same_entity_conflict(m1, m2):
    """Could two mentions of one entity in one sentence not be written unambiguously?"""
    if m1.sent is not m2.sent:
        return False
    pos = m1.sent.positions()
    r1, r2 = runs_of(m1, pos), runs_of(m2, pos)
    a1, b1, a2, b2 = r1[0][0], r1[-1][1], r2[0][0], r2[-1][1]
    if b1 < a2 or b2 < a1:
        return False
    if len(r1) > 1 or len(r2) > 1:
        return True
    if (a1, b1) == (a2, b2):
        return True
    return not ((a1 <= a2 and b2 <= b1) or (a2 <= a1 and b1 <= b2))


def all_mentions(doc):
    return [m for e in doc.entities for m in e.mentions]


def can_add(doc, entity, m, taken):
    if node_key(m) in taken:
        return False
    return not any(same_entity_conflict(m, o) for o in entity.mentions)


def fix_document(doc):
    """Drop nodes no longer in their sentence, empty or conflicting mentions, empty entities and
    dangling Bridge / SplitAnte links, so that the document can be written unambiguously."""
    taken = set()
    for e in doc.entities:
        kept = []
        for m in e.mentions:
            present = {n.uid for n in m.sent.order()}
            m.nodes = [n for n in m.nodes if n.uid in present]
            if not m.nodes:
                continue
            if m.head is not None and m.head.uid not in {n.uid for n in m.nodes}:
                m.head = sorted_nodes(m)[0]
            if node_key(m) in taken or any(same_entity_conflict(m, o) for o in kept):
                continue
            taken.add(node_key(m))
            kept.append(m)
        e.mentions = kept
    doc.entities = [e for e in doc.entities if e.mentions]
    alive = {id(e) for e in doc.entities}
    doc.bridges = [(t, s, r) for t, s, r in doc.bridges if id(t) in alive and id(s) in alive and t is not s]
    doc.splits = [(a, t) for a, t in doc.splits if id(a) in alive and id(t) in alive and a is not t]
    # each SplitAnte entity needs two antecedents
    seen = []
    for a, t in doc.splits:
        if (a, t) not in seen:
            seen.append((a, t))
    counts = {}
    for a, t in seen:
        counts[id(t)] = counts.get(id(t), 0) + 1
    doc.splits = [(a, t) for a, t in seen if counts[id(t)] >= 2]


# --------------------------------------------------------------------------- writing

def _written_head(m, head_idx, runs, i):
    """The head index written on part ``i`` of ``runs``: the mention's, or (``m.attrs['head_outside']``) one
    outside the mention where udapi ignores or reinterprets it: on a one-node mention, on a part before the
    last, or 0 on a one-node last part (udapi then takes the part's node, ``_words[-1]``)."""
    out = m.attrs.get("head_outside")
    if out is None:
        return head_idx
    last = i == len(runs)
    a, b = runs[i - 1]
    if len(runs) == 1 and a == b:
        return out
    if len(runs) > 1 and not last:
        return out
    if len(runs) > 1 and last and a == b:
        return 0
    return head_idx


def _chunk_fields(eid, etype, head_idx, attrs):
    if head_idx is None:  # without a head index nothing after etype can be written
        return [eid, etype] if etype else [eid]
    vals = [eid, etype, str(head_idx), attrs.get("other", ""), attrs.get("infstat", ""),
            attrs.get("minspan", ""), attrs.get("identity", "")]
    while vals and vals[-1] == "":
        vals.pop()
    return vals


def entity_chunks(doc):
    """{node uid: Entity MISC value} plus {node uid: SplitAnte value} and {node uid: Bridge value}."""
    per_node = {}  # uid -> lists of (kind, sort key, text)
    first_node = {}  # id(entity) -> (sentence index, position, node uid)
    sent_index = {id(s): i for i, s in enumerate(doc.sentences)}
    for e in doc.entities:
        for m in e.mentions:
            pos = m.sent.positions()
            order = m.sent.order()
            nodes = sorted_nodes(m)
            head_idx = None if m.head is None else 1 + [n.uid for n in nodes].index(m.head.uid)
            runs = runs_of(m, pos)
            if head_idx is None and len(runs) > 1:
                head_idx = 1  # udapi needs a head index on a one-node last part (TypeError otherwise)
            key = (sent_index[id(m.sent)], runs[0][0], order[runs[0][0]].uid)
            if id(e) not in first_node or key[:2] < first_node[id(e)][:2]:
                first_node[id(e)] = key
            for i, (a, b) in enumerate(runs, 1):
                eid = e.eid if len(runs) == 1 else f"{e.eid}[{i}/{len(runs)}]"
                opening = "(" + "-".join(_chunk_fields(eid, e.etype, _written_head(m, head_idx, runs, i), m.attrs))
                first, last = order[a].uid, order[b].uid
                if a == b:
                    per_node.setdefault(first, []).append((2, (e.eid,), opening + ")"))
                else:
                    # longer first among openings; innermost (latest opened) first among closings
                    per_node.setdefault(first, []).append((1, (-b, -len(nodes), e.eid), opening))
                    per_node.setdefault(last, []).append((0, (-a, e.eid), eid + ")"))
    ent = {uid: "".join(t for _, _, t in sorted(chunks, key=lambda c: (c[0], c[1])))
           for uid, chunks in per_node.items()}
    split, bridge = {}, {}
    for t in doc.entities:
        antes = [a.eid for a, tt in doc.splits if tt is t]
        if antes:
            uid = first_node[id(t)][2]
            split[uid] = ",".join(([split[uid]] if uid in split else []) + [f"{a}<{t.eid}" for a in antes])
    for trg, src, rel in doc.bridges:
        uid = first_node[id(src)][2]
        item = f"{trg.eid}<{src.eid}" + (f":{rel}" if rel else "")
        bridge[uid] = bridge[uid] + "," + item if uid in bridge else item
    return ent, split, bridge


def _deps_str(node, ids):
    def key(dep):
        p = dep[0]
        if isinstance(p, Node):
            k, j = ids[p.uid].split(".")
            return (int(k), int(j), dep[1])
        return (p, 0, dep[1])
    parts = []
    for p, rel in sorted(node.deps, key=key):
        parts.append(f"{ids[p.uid] if isinstance(p, Node) else p}:{rel}")
    return "|".join(parts) if parts else "_"


def write_documents(docs, header=GLOBAL_ENTITY):
    """CoNLL-U text of the documents (every document starts with newdoc and global.Entity)."""
    out = []
    for doc in docs:
        ent, split, bridge = entity_chunks(doc)
        for si, sent in enumerate(doc.sentences):
            ids = sent.ids()
            if sent.comments is not None:
                for line in sent.comments:
                    out.append(f"# global.Entity = {header}" if line.startswith("# global.Entity") else line)
            else:
                if si == 0:
                    out.append(f"# newdoc id = {doc.doc_id}")
                    out.append(f"# global.Entity = {header}")
                out.append(f"# sent_id = {sent.sent_id}")
                out.append("# text = " + sentence_text(sent))
            mwt_at = {a: cols for a, b, cols in sent.mwts}
            for k in range(len(sent.words) + 1):
                nodes = list(sent.empties[k])
                if k:
                    nodes.insert(0, sent.words[k - 1])
                    if k in mwt_at:
                        out.append("\t".join(mwt_at[k]))
                for n in nodes:
                    cols = list(n.cols)
                    cols[0] = ids[n.uid]
                    if n.deps is not None:
                        cols[8] = _deps_str(n, ids)
                    misc = []
                    if n.uid in ent:
                        misc.append("Entity=" + ent[n.uid])
                    if n.uid in split:
                        misc.append("SplitAnte=" + split[n.uid])
                    if n.uid in bridge:
                        misc.append("Bridge=" + bridge[n.uid])
                    misc.extend(n.misc)
                    cols[9] = "|".join(misc) if misc else "_"
                    out.append("\t".join(cols))
            out.append("")
    return "\n".join(out) + "\n"


def sentence_text(sent):
    toks, k = [], 1
    mwt_at = {a: (b, cols) for a, b, cols in sent.mwts}
    while k <= len(sent.words):
        if k in mwt_at:
            b, cols = mwt_at[k]
            toks.append((cols[1], cols[9]))
            k = b + 1
        else:
            toks.append((sent.words[k - 1].cols[1], "|".join(sent.words[k - 1].misc)))
            k += 1
    text = ""
    for form, misc in toks:
        text += form + ("" if "SpaceAfter=No" in misc.split("|") else " ")
    return text.rstrip()


# --------------------------------------------------------------------------- reading (for --perturb)

def _split_chunks(value):
    """Split an Entity value into bracket chunks: '(x', 'x)' or '(x)'."""
    chunks, cur = [], ""
    for ch in value:
        if ch == "(" and cur:
            chunks.append(cur)
            cur = ch
        elif ch == ")":
            chunks.append(cur + ch)
            cur = ""
        else:
            cur += ch
    if cur:
        chunks.append(cur)
    return chunks


def parse_conllu(text):
    """Parse a CorefUD CoNLL-U text into Documents (the coreference part of MISC into entities).

    Meant for well-formed files (each mention inside one sentence); entity ids are per document.
    """
    docs, header = [], ["eid", "etype", "head", "other"]
    blocks = [b for b in text.split("\n\n") if b.strip()]
    doc = None
    for block in blocks:
        lines = [ln for ln in block.split("\n") if ln]
        comments = [ln for ln in lines if ln.startswith("#")]
        rows = [ln.split("\t") for ln in lines if not ln.startswith("#")]
        sent_id = next((c.split("=", 1)[1].strip() for c in comments if c.startswith("# sent_id")), None)
        newdoc = next((c for c in comments if c.startswith("# newdoc")), None)
        for c in comments:
            if c.startswith("# global.Entity"):
                header = c.split("=", 1)[1].strip().split("-")
        words, empties, mwts, ent_vals = [], [[]], [], []
        for cols in rows:
            if "-" in cols[0]:
                a, b = cols[0].split("-")
                mwts.append((int(a), int(b), cols))
                continue
            misc = [x for x in cols[9].split("|") if x and x != "_"]
            value = {}
            rest = []
            for item in misc:
                k = item.split("=", 1)[0]
                if k in ("Entity", "SplitAnte", "Bridge"):
                    value[k] = item.split("=", 1)[1]
                else:
                    rest.append(item)
            if "." in cols[0]:
                node = Node(True, list(cols), None, rest)
                empties[-1].append(node)
            else:
                node = Node(False, list(cols), None, rest)
                words.append(node)
                empties.append([])
            ent_vals.append((node, value))
        sent = Sentence(sent_id, words, empties, mwts, comments)
        if doc is None or newdoc is not None:
            doc_id = newdoc.split("=", 1)[1].strip() if newdoc and "=" in newdoc else f"doc{len(docs) + 1}"
            doc = Document(doc_id, [], newdoc)
            ents = {}
            docs.append(doc)
        doc.sentences.append(sent)
        _read_entities(doc, ents, sent, ent_vals, header)
    for d in docs:
        fix_document(d)
    return docs


def _read_entities(doc, ents, sent, ent_vals, header):
    order = sent.order()
    pos = {n.uid: i for i, n in enumerate(order)}
    stacks, pending = {}, {}  # eid -> open (mention, start position, head index); eid -> unfinished discontinuous
    id_field = "GRP" if "GRP" in header else "eid"

    def entity(eid, etype):
        if eid not in ents:
            ents[eid] = Entity(eid, etype)
            doc.entities.append(ents[eid])
        return ents[eid]

    def close(eid, part, end_node):
        m, start, head_idx = stacks[eid].pop()
        m.nodes.extend(order[start:pos[end_node.uid] + 1])
        if part is None or part[0] == part[1]:
            if head_idx:
                m.head = sorted(m.nodes, key=lambda n: pos[n.uid])[head_idx - 1]
            if part:
                pending.pop(eid, None)

    for node, value in ent_vals:
        for chunk in _split_chunks(value.get("Entity", "")):
            opening, closing = chunk.startswith("("), chunk.endswith(")")
            body = chunk.strip("()")
            if opening:
                vals = dict(zip(header, body.split("-")))
                eid = vals.get(id_field, "")
                part = None
                if eid.endswith("]"):
                    eid, frac = eid[:-1].split("[")
                    part = tuple(int(x) for x in frac.split("/"))
                head_idx = int(vals["head"]) if vals.get("head", "").isdigit() else None
                attrs = {k: vals[k] for k in ("other", "infstat", "minspan", "identity") if vals.get(k)}
                e = entity(eid, vals.get("etype", vals.get("entity", "")))
                if part and part[0] > 1:
                    m = pending[eid]
                else:
                    m = Mention(sent, [], None, attrs)
                    e.mentions.append(m)
                    if part:
                        pending[eid] = m
                stacks.setdefault(eid, []).append((m, pos[node.uid], head_idx))
                if closing:
                    close(eid, part, node)
            else:
                eid, part = body, None
                if eid.endswith("]"):
                    eid, frac = eid[:-1].split("[")
                    part = tuple(int(x) for x in frac.split("/"))
                close(eid, part, node)
    for node, value in ent_vals:
        for item in filter(None, value.get("Bridge", "").split(",")):
            trg, src = item.split("<")
            rel = ""
            if ":" in src:
                src, rel = src.split(":", 1)
            if trg in ents and src in ents:
                doc.bridges.append((ents[trg], ents[src], rel))
        for item in filter(None, value.get("SplitAnte", "").split(",")):
            ante, this = item.split("<")
            if ante in ents and this in ents:
                doc.splits.append((ents[ante], ents[this]))


# --------------------------------------------------------------------------- generation

class Params:
    """Generation / perturbation knobs (probabilities unless said otherwise)."""

    def __init__(self, **kw):
        self.words = (3, 14)
        self.p_mwt = 0.15
        self.p_empty = 0.35
        self.mentions_per_sentence = (0, 4)
        self.p_new_entity = 0.35
        self.p_discontinuous = 0.08
        self.p_nohead = 0.08
        self.p_zero_mention = 0.7
        self.p_empty_head = 0.35
        self.p_twin_heads = 0.0      # key: two mentions (two entities) sharing a head
        self.reuse_eids = False      # restart e1, e2, ... in every document
        self.p_bridge = 0.5
        self.p_split = 0.3
        self.strength = 0.3          # response: operations per key mention
        self.ties = False            # response: equal-similarity competitors
        self.node_ops = True         # response: add / drop / move empty nodes
        # inputs the official scorer reads with surprising semantics (0: off; see ``widen``)
        self.p_two_entities = 0.0    # per mention: a copy in another entity (key and response)
        self.p_duplicate = 0.0       # per mention: a copy in its own entity (same or other head)
        self.p_head_outside = 0.0    # per mention: a head index outside it where the scorer ignores it
        self.p_empty_doc = 0.0       # per document and side: no mentions at all
        for k, v in kw.items():
            if not hasattr(self, k):
                raise TypeError(f"unknown parameter {k}")
            setattr(self, k, v)


def make_word(rng, k, head, deprel):
    form = rng.choice(LEXICON)
    if k == 1 and rng.random() < 0.5:
        form = form.capitalize()
    cols = [str(k), form, form.lower(), rng.choice(UPOS), "_", "_", str(head), deprel, f"{head}:{deprel}", "_"]
    return Node(False, cols)


def make_empty(rng, sent, k):
    """A new empty node (not yet placed) with 1-2 enhanced dependencies."""
    n = len(sent.words)
    deps = [(rng.randint(1, n), rng.choice(ZERO_RELS))]
    if rng.random() < 0.2:
        p = rng.randint(0, n)
        if p != deps[0][0]:
            deps.append((p, rng.choice(ZERO_RELS) if p else "root"))
    others = [e for es in sent.empties for e in es]
    if others and rng.random() < 0.15:
        deps.append((rng.choice(others), "conj"))
    form = rng.choice(EMPTY_FORMS)
    cols = ["_", form, "_" if form == "_" else form.lstrip("#").lower(), "PRON" if form != "_" else "_",
            "_", "_", "_", "_", "_", "_"]
    return Node(True, cols, deps)


def empty_slots(sent):
    return [k for k in range(1, len(sent.words) + 1) if not sent.in_mwt(k) and len(sent.empties[k]) < 9]


def make_sentence(rng, sent_id, p):
    n = rng.randint(*p.words)
    perm = rng.sample(range(1, n + 1), n)
    heads = {perm[0]: 0}
    placed = [perm[0]]
    for w in perm[1:]:
        heads[w] = rng.choice(placed)
        placed.append(w)
    words = [make_word(rng, k, heads[k], "root" if heads[k] == 0 else rng.choice(DEPRELS)) for k in range(1, n + 1)]
    sent = Sentence(sent_id, words)
    if n >= 3 and rng.random() < p.p_mwt:
        a = rng.randint(1, n - 1)
        form = words[a - 1].cols[1] + words[a].cols[1]
        sent.mwts.append((a, a + 1, [f"{a}-{a + 1}", form, "_", "_", "_", "_", "_", "_", "_", "_"]))
        if rng.random() < 0.5 and a + 2 <= n - 1:
            b = rng.randint(a + 2, n - 1)
            form = words[b - 1].cols[1] + words[b].cols[1]
            sent.mwts.append((b, b + 1, [f"{b}-{b + 1}", form, "_", "_", "_", "_", "_", "_", "_", "SpaceAfter=No"]))
    if rng.random() < 0.1:
        words[rng.randrange(n)].misc.append("SpaceAfter=No")
    if rng.random() < p.p_empty:
        for _ in range(rng.choice((1, 1, 2))):
            slots = empty_slots(sent)
            if slots:
                k = rng.choice(slots)
                sent.empties[k].append(make_empty(rng, sent, k))
    return sent


def random_attrs(rng):
    attrs = {}
    inf = rng.choice(INFSTAT)
    if inf:
        attrs["infstat"] = inf
    if rng.random() < 0.2:
        attrs["minspan"] = str(rng.randint(1, 3))
    if rng.random() < 0.1:
        attrs["identity"] = rng.choice(("Paris", "Prague", "Barack_Obama", "UFAL"))
    return attrs


def random_mention(rng, sent, p, kind=None):
    """A random mention in a sentence: 'span', 'zero', 'disc' or 'emptyhead' (None: pick)."""
    order = sent.order()
    empties = [n for n in order if n.empty]
    if kind is None:
        r = rng.random()
        if empties and r < 0.25 * p.p_zero_mention:
            kind = "zero"
        elif r < 0.25 + p.p_discontinuous and len(order) >= 4:
            kind = "disc" if r >= 0.25 else "span"
        else:
            kind = "span"
    if kind == "zero":
        if not empties:
            return None
        e = rng.choice(empties)
        return Mention(sent, [e], e, random_attrs(rng))
    if kind == "disc":
        if len(order) < 4:
            return None
        a = rng.randrange(len(order) - 3)
        b = rng.randint(a, min(a + 2, len(order) - 3))
        c = rng.randint(b + 2, min(b + 4, len(order) - 1))
        d = rng.randint(c, min(c + 2, len(order) - 1))
        nodes = order[a:b + 1] + order[c:d + 1]
    else:
        length = rng.choice((1, 1, 1, 2, 2, 3, 4, 5))
        a = rng.randrange(len(order))
        nodes = order[a:a + length]
        if all(n.empty for n in nodes) and kind == "span":
            words = [n for n in order if not n.empty]
            w = rng.choice(words)
            nodes = [w]
    if rng.random() < p.p_nohead:
        head = None
    else:
        es = [n for n in nodes if n.empty]
        if es and rng.random() < p.p_empty_head:
            head = rng.choice(es)
        else:
            head = rng.choice([n for n in nodes if not n.empty] or nodes)
    return Mention(sent, nodes, head, random_attrs(rng))


class EidAllocator:
    def __init__(self, prefix="e"):
        self.prefix, self.n = prefix, 0

    def __call__(self):
        self.n += 1
        return f"{self.prefix}{self.n}"


def new_entity(rng, doc, alloc):
    e = Entity(alloc(), rng.choice(ETYPES))
    doc.entities.append(e)
    return e


def place(rng, doc, m, alloc, p_new, taken, candidates=None):
    """Add a mention to an existing (recently used) or a new entity; False if it cannot be placed."""
    if node_key(m) in taken:
        return False
    pool = candidates if candidates is not None else doc.entities[-8:]
    if pool and rng.random() >= p_new:
        order = list(pool)
        rng.shuffle(order)
        for e in order:
            if can_add(doc, e, m, taken):
                e.mentions.append(m)
                taken.add(node_key(m))
                return True
    e = new_entity(rng, doc, alloc)
    e.mentions.append(m)
    taken.add(node_key(m))
    return True


def make_document(rng, doc_id, n_sents, p, alloc):
    doc = Document(doc_id, [make_sentence(rng, f"{doc_id}-s{i}", p) for i in range(1, n_sents + 1)])
    taken = set()
    for sent in doc.sentences:
        for _ in range(rng.randint(*p.mentions_per_sentence)):
            m = random_mention(rng, sent, p)
            if m is not None:
                place(rng, doc, m, alloc, p.p_new_entity, taken)
        # zero mentions on (most) empty nodes
        for e in [n for n in sent.order() if n.empty]:
            if rng.random() < p.p_zero_mention:
                place(rng, doc, Mention(sent, [e], e if rng.random() > 0.1 else None, random_attrs(rng)),
                      alloc, p.p_new_entity * 0.5, taken)
        # two mentions of two entities with the same head
        ws = [w for w in sent.words]
        if len(ws) >= 3 and rng.random() < p.p_twin_heads:
            k = rng.randrange(1, len(ws) - 1)
            order = sent.order()
            pos = sent.positions()
            h = ws[k]
            left = order[pos[ws[k - 1].uid]:pos[h.uid] + 1]
            right = order[pos[h.uid]:pos[ws[k + 1].uid] + 1]
            for nodes in (left, right):
                place(rng, doc, Mention(sent, nodes, h, random_attrs(rng)), alloc, 0.0, taken,
                      candidates=[e for e in doc.entities if len(e.mentions) >= 1][-6:])
    if len(doc.entities) >= 2 and rng.random() < p.p_bridge:
        for _ in range(rng.randint(1, 2)):
            t, s = rng.sample(doc.entities, 2)
            doc.bridges.append((t, s, rng.choice(("", "part", "subset", "funct"))))
    if len(doc.entities) >= 3 and rng.random() < p.p_split:
        t, a1, a2 = rng.sample(doc.entities, 3)
        doc.splits.extend([(a1, t), (a2, t)])
    fix_document(doc)
    return doc


def make_key(rng, n_docs, n_sents, p, doc_prefix="d"):
    """n_docs documents with n_sents sentences in total (at least two per document)."""
    n_docs = max(1, min(n_docs, n_sents // 2))
    cuts = sorted(rng.sample(range(2, n_sents - 1), n_docs - 1)) if n_docs > 1 else []
    sizes, prev = [], 0
    for c in cuts + [n_sents]:
        sizes.append(c - prev)
        prev = c
    sizes = [max(2, s) for s in sizes]
    alloc = EidAllocator()
    docs = []
    for i, size in enumerate(sizes, 1):
        if p.reuse_eids:
            alloc = EidAllocator()
        docs.append(make_document(rng, f"{doc_prefix}{i}", size, p, alloc))
    return docs


# --------------------------------------------------------------------------- perturbation

def clone_documents(docs):
    """Deep copy keeping node uids (so key and response nodes correspond)."""
    out = []
    for doc in docs:
        node_map, sent_map = {}, {}

        def cp(n, node_map=node_map):
            if n.uid not in node_map:
                node_map[n.uid] = Node(n.empty, list(n.cols), None, list(n.misc), uid=n.uid)
            return node_map[n.uid]
        sents = []
        for s in doc.sentences:
            ns = Sentence(s.sent_id, [cp(w) for w in s.words], [[cp(e) for e in es] for es in s.empties],
                          [(a, b, list(c)) for a, b, c in s.mwts], None if s.comments is None else list(s.comments))
            sent_map[id(s)] = ns
            sents.append(ns)
        for s in doc.sentences:
            for n in s.order():
                if n.deps is not None:
                    cp(n).deps = [(node_map[p.uid] if isinstance(p, Node) else p, r) for p, r in n.deps]
        nd = Document(doc.doc_id, sents, doc.newdoc_line)
        emap = {}
        for e in doc.entities:
            ne = Entity(e.eid, e.etype)
            for m in e.mentions:
                ne.mentions.append(Mention(sent_map[id(m.sent)], [node_map[n.uid] for n in m.nodes],
                                           None if m.head is None else node_map[m.head.uid], dict(m.attrs)))
            emap[id(e)] = ne
            nd.entities.append(ne)
        nd.bridges = [(emap[id(t)], emap[id(s)], r) for t, s, r in doc.bridges]
        nd.splits = [(emap[id(a)], emap[id(t)]) for a, t in doc.splits]
        out.append(nd)
    return out


def _entity_of(doc, m):
    for e in doc.entities:
        for x in e.mentions:
            if x is m:
                return e
    return None


def _pick_mention(rng, doc, pred=None):
    ms = [m for m in all_mentions(doc) if pred is None or pred(m)]
    return rng.choice(ms) if ms else None


def op_drop_mention(rng, doc, p, alloc):
    m = _pick_mention(rng, doc)
    if m:
        _entity_of(doc, m).mentions.remove(m)


def op_add_mention(rng, doc, p, alloc):
    sent = rng.choice(doc.sentences)
    m = random_mention(rng, sent, p)
    if m is not None:
        place(rng, doc, m, alloc, 0.4, {node_key(x) for x in all_mentions(doc)})


def op_shift(rng, doc, p, alloc):
    m = _pick_mention(rng, doc, lambda x: len(runs_of(x)) == 1)
    if not m:
        return
    order = m.sent.order()
    (a, b), = runs_of(m)
    side, grow = rng.choice(("left", "right")), rng.random() < 0.5
    if side == "left":
        a = a - 1 if grow else a + 1
    else:
        b = b + 1 if grow else b - 1
    if a < 0 or b >= len(order) or a > b:
        return
    m.nodes = order[a:b + 1]
    if m.head is not None and m.head.uid not in {n.uid for n in m.nodes}:
        m.head = rng.choice(m.nodes)


def op_change_head(rng, doc, p, alloc):
    m = _pick_mention(rng, doc, lambda x: len(x.nodes) > 1)
    if m:
        choices = [n for n in m.nodes if m.head is None or n.uid != m.head.uid]
        m.head = rng.choice(choices)


def op_omit_head(rng, doc, p, alloc):
    m = _pick_mention(rng, doc)
    if m:
        m.head = None


def op_merge(rng, doc, p, alloc):
    if len(doc.entities) >= 2:
        a, b = rng.sample(doc.entities, 2)
        a.mentions.extend(b.mentions)
        b.mentions = []
        doc.bridges = [(a if t is b else t, a if s is b else s, r) for t, s, r in doc.bridges]
        doc.splits = [(a if x is b else x, a if t is b else t) for x, t in doc.splits]


def op_split(rng, doc, p, alloc):
    es = [e for e in doc.entities if len(e.mentions) >= 2]
    if es:
        e = rng.choice(es)
        moved = [m for m in e.mentions if rng.random() < 0.5] or [e.mentions[-1]]
        e.mentions = [m for m in e.mentions if all(m is not x for x in moved)]
        ne = new_entity(rng, doc, alloc)
        ne.mentions = moved


def op_move_mention(rng, doc, p, alloc):
    m = _pick_mention(rng, doc)
    if m and len(doc.entities) >= 2:
        src = _entity_of(doc, m)
        dst = rng.choice([e for e in doc.entities if e is not src])
        src.mentions.remove(m)
        dst.mentions.append(m)


def _zero_mentions(doc):
    return [m for m in all_mentions(doc) if len(m.nodes) == 1 and m.nodes[0].empty]


def op_drop_zero_mention(rng, doc, p, alloc):
    zs = _zero_mentions(doc)
    if zs:
        m = rng.choice(zs)
        _entity_of(doc, m).mentions.remove(m)


def _remove_empty(sent, node):
    for es in sent.empties:
        if any(e is node for e in es):
            es.remove(node)
    for e in [n for n in sent.order() if n.empty]:
        if e.deps:
            repl = node.deps[0][0] if node.deps else 1
            e.deps = [(repl if (isinstance(q, Node) and q is node) else q, r) for q, r in e.deps]
            e.deps = [(q, r) for q, r in e.deps if q is not e]


def op_drop_zero_node(rng, doc, p, alloc):
    sents = [s for s in doc.sentences if any(s.empties)]
    if sents:
        s = rng.choice(sents)
        node = rng.choice([n for n in s.order() if n.empty])
        _remove_empty(s, node)


def op_add_zero(rng, doc, p, alloc):
    sent = rng.choice(doc.sentences)
    slots = empty_slots(sent)
    if not slots:
        return
    k = rng.choice(slots)
    node = make_empty(rng, sent, k)
    sent.empties[k].insert(rng.randint(0, len(sent.empties[k])), node)
    # mentions around the new node take it in (most of the time) so they stay continuous
    pos = sent.positions()
    for m in all_mentions(doc):
        if m.sent is sent and len(runs_of(m, pos)) == 1:
            (a, b), = runs_of(m, pos)
            if a < pos[node.uid] < b and rng.random() < 0.8:
                m.nodes.append(node)
    place(rng, doc, Mention(sent, [node], node, random_attrs(rng)), alloc, 0.3,
          {node_key(x) for x in all_mentions(doc)})


def op_change_zero_deps(rng, doc, p, alloc):
    zs = [m.nodes[0] for m in _zero_mentions(doc) if m.nodes[0].deps]
    if zs:
        node = rng.choice(zs)
        sent = next(s for s in doc.sentences if any(n is node for n in s.order()))
        i = rng.randrange(len(node.deps))
        q, r = node.deps[i]
        if rng.random() < 0.5:
            r = rng.choice([x for x in ZERO_RELS if x != r])
        else:
            q = rng.randint(1, len(sent.words))
        node.deps[i] = (q, r)
        if rng.random() < 0.2:
            node.deps.append((rng.randint(1, len(sent.words)), rng.choice(ZERO_RELS)))


def op_move_zero(rng, doc, p, alloc):
    """Move an empty node (with its DEPS and zero mentions) to another position in its sentence."""
    cands = []
    for s in doc.sentences:
        for n in s.order():
            if n.empty and not any(len(m.nodes) > 1 and any(x is n for x in m.nodes) for m in all_mentions(doc)):
                cands.append((s, n))
    if not cands:
        return
    s, n = rng.choice(cands)
    slots = empty_slots(s)
    if not slots:
        return
    for es in s.empties:
        if any(e is n for e in es):
            es.remove(n)
    k = rng.choice(slots)
    s.empties[k].insert(rng.randint(0, len(s.empties[k])), n)


def op_rename(rng, doc, p, alloc):
    if len(doc.entities) >= 2:
        a, b = rng.sample(doc.entities, 2)
        a.eid, b.eid = b.eid, a.eid


def op_tie(rng, doc, p, alloc):
    """Replace a key mention by two competitors with equal similarity, in two entities."""
    m = _pick_mention(rng, doc, lambda x: len(runs_of(x)) == 1)
    if not m:
        return
    e = _entity_of(doc, m)
    order = m.sent.order()
    (a, b), = runs_of(m)
    head = m.head if m.head is not None else order[a]
    hp = order.index(head)
    kind = rng.choice(("sub", "super", "zero"))
    if kind == "zero":  # two zeros with the same DEPS in one sentence
        zs = [z for z in _zero_mentions(doc) if z.sent is m.sent and z.nodes[0].deps]
        slots = empty_slots(m.sent)
        if not zs or not slots:
            kind = "sub"
        else:
            z = rng.choice(zs)
            twin = Node(True, list(z.nodes[0].cols), [(q, r) for q, r in z.nodes[0].deps])
            k = rng.choice(slots)
            m.sent.empties[k].append(twin)
            place(rng, doc, Mention(m.sent, [twin], twin), alloc, 0.0, {node_key(x) for x in all_mentions(doc)},
                  candidates=[x for x in doc.entities if x is not _entity_of(doc, z)])
            return
    if kind == "sub" and b - a >= 2 and a < hp < b:   # partial match: both drop one node, keep the head
        spans = [order[a + 1:b + 1], order[a:b]]
    elif a > 0 and b + 1 < len(order):                # head match: both add one node, same head
        spans = [order[a - 1:b + 1], order[a:b + 2]]
    else:
        return
    e.mentions.remove(m)
    others = [x for x in doc.entities if x is not e] or [new_entity(rng, doc, alloc)]
    taken = {node_key(x) for x in all_mentions(doc)}
    for nodes, dst in zip(spans, (e, rng.choice(others))):
        nm = Mention(m.sent, nodes, head, dict(m.attrs))
        if node_key(nm) not in taken and can_add(doc, dst, nm, taken):
            dst.mentions.append(nm)
            taken.add(node_key(nm))


OPS = [(op_drop_mention, 3), (op_add_mention, 3), (op_shift, 3), (op_change_head, 3), (op_omit_head, 1),
       (op_merge, 1), (op_split, 1), (op_move_mention, 2), (op_drop_zero_mention, 1), (op_rename, 1)]
NODE_OPS = [(op_drop_zero_node, 1), (op_add_zero, 2), (op_change_zero_deps, 2), (op_move_zero, 1)]


def perturb(rng, key_docs, p, ops=None):
    """A perturbed copy of the documents; ``ops`` replaces the general (non-node) operations."""
    docs = clone_documents(key_docs)
    ops = (OPS if ops is None else ops) + (NODE_OPS if p.node_ops else [])
    if p.ties:
        ops = ops + [(op_tie, 4)]
    funcs = [f for f, _ in ops]
    weights = [w for _, w in ops]
    for doc in docs:
        n = len(all_mentions(doc))
        alloc = EidAllocator("r")
        alloc.n = rng.randint(0, 3)
        for _ in range(max(1, round(p.strength * n))):
            rng.choices(funcs, weights)[0](rng, doc, p, alloc)
            fix_document(doc)
    return docs


def add_zero_mentions_on_existing_empties(rng, docs, prob=0.5):
    """Response-side zero mentions on the key's empty nodes (for files whose empty nodes have no mentions)."""
    for doc in docs:
        taken = {node_key(x) for x in all_mentions(doc)}
        alloc = EidAllocator("z")
        for s in doc.sentences:
            for n in s.order():
                if n.empty and rng.random() < prob:
                    place(rng, doc, Mention(s, [n], n), alloc, 0.3, taken)
        fix_document(doc)


def _copy_mention(rng, m):
    """The same nodes, with the same head, another head or none."""
    r = rng.random()
    if r < 0.4 or len(m.nodes) == 1:
        head = m.head
    elif r < 0.85:
        head = rng.choice(m.nodes)
    else:
        head = None
    return Mention(m.sent, list(m.nodes), head, dict(m.attrs))


def _conflicts(entity, m):
    """Would ``m`` make its entity ambiguous to write (identical spans aside)?"""
    key = node_key(m)
    return any(node_key(o) != key and same_entity_conflict(m, o) for o in entity.mentions)


def widen(rng, docs, p):
    """Features our other operations never make, each where the CorefUD scorer reads it (on by ``Params``):
    a mention listed in two entities (a copy in another entity), the same span twice in one entity (same or
    another head; continuous only, which brackets can write), head indices outside the mention where the
    scorer ignores them, and documents without mentions.  Call last: ``fix_document`` would undo it."""
    for doc in docs:
        if p.p_empty_doc and rng.random() < p.p_empty_doc:
            doc.entities, doc.bridges, doc.splits = [], [], []
            continue
        for m in all_mentions(doc):
            src = _entity_of(doc, m)
            if p.p_two_entities and len(doc.entities) >= 2 and rng.random() < p.p_two_entities:
                dst = rng.choice([e for e in doc.entities if e is not src])
                copy = _copy_mention(rng, m)
                if not any(node_key(o) == node_key(copy) for o in dst.mentions) and not _conflicts(dst, copy):
                    dst.mentions.append(copy)
            if p.p_duplicate and len(runs_of(m)) == 1 and rng.random() < p.p_duplicate:
                copy = _copy_mention(rng, m)
                if not _conflicts(src, copy):
                    src.mentions.insert(src.mentions.index(m) + 1, copy)
            if p.p_head_outside and rng.random() < p.p_head_outside:
                runs = runs_of(m)
                if len(runs) > 1 and runs[-1][0] == runs[-1][1]:
                    m.head = m.sent.order()[runs[-1][0]]  # written as 0: the scorer takes the last node
                m.attrs["head_outside"] = rng.randint(len(m.nodes) + 1, len(m.nodes) + 6)
    return docs


# --------------------------------------------------------------------------- CLI

def generate_case(seed, docs, sentences, p):
    """(key text, response text) for a seed."""
    rng = random.Random(seed)
    key = widen(rng, make_key(rng, docs, sentences, p), p)
    resp = widen(rng, perturb(rng, key, p), p)
    return write_documents(key), write_documents(resp)


def perturb_text(seed, text, p, zero_prob=0.0):
    rng = random.Random(seed)
    docs = parse_conllu(text)
    resp = perturb(rng, docs, p)
    if zero_prob:
        add_zero_mentions_on_existing_empties(rng, resp, zero_prob)
    return write_documents(resp)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--docs", type=int, default=2)
    ap.add_argument("--sentences", type=int, default=12, help="sentences in all documents together")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--name", default="case")
    ap.add_argument("--strength", type=float, default=0.3, help="perturbation operations per key mention")
    ap.add_argument("--ties", action="store_true", help="add equal-similarity competitors to the response")
    ap.add_argument("--twin-heads", type=float, default=0.0, help="key: chance per sentence of two mentions sharing a head")
    ap.add_argument("--reuse-eids", action="store_true", help="restart entity ids in every document")
    ap.add_argument("--no-empty-nodes", action="store_true")
    ap.add_argument("--perturb", metavar="KEY", help="perturb this CoNLL-U file instead of generating a key")
    ap.add_argument("--response-zeros", type=float, default=0.0,
                    help="with --perturb: chance of a response zero mention on each existing empty node")
    a = ap.parse_args(argv)
    p = Params(strength=a.strength, ties=a.ties, p_twin_heads=a.twin_heads, reuse_eids=a.reuse_eids)
    if a.no_empty_nodes:
        p.p_empty, p.node_ops = 0.0, False
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.perturb:
        key = Path(a.perturb).read_text(encoding="utf-8")
        p.node_ops = False
        resp = perturb_text(a.seed, key, p, a.response_zeros)
    else:
        key, resp = generate_case(a.seed, a.docs, a.sentences, p)
    (out / f"{a.name}.key.conllu").write_text(key, encoding="utf-8")
    (out / f"{a.name}.response.conllu").write_text(resp, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
