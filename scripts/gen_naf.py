"""Seeded generator of NAF and KAF documents (twins: the same annotation in both namings) for the triple
converters and the NAF coreference reader.

A document has a text layer, terms (one to three tokens, some multi-token), term sentiment, entities (one
or two spans), properties, opinions (holder, target, expression; with and without overlap attributes, some
without holder or target), semantic roles and coreference chains.  KAF names: ``wid``, ``tid``, ``eid``,
``pid``, ``oid``, ``coid``, property ``type``; NAF names: ``id`` everywhere, property ``lemma`` and ``type``.

    python scripts/gen_naf.py OUT_DIR --docs 6 --seed 5            # doc-N.kaf and doc-N.naf
    python scripts/gen_naf.py OUT_DIR --topics 3 --docs 4           # key/T/ and response/T/ (ECB+-style topics)
"""
from __future__ import annotations

import argparse
import os
import random
from xml.sax.saxutils import escape, quoteattr

WORDS = ("the", "hotel", "room", "was", "very", "clean", "staff", "rude", "Anna", "said", "Paris", "breakfast",
         "&", "great", "view", "noisy", "we", "loved", "it", "bar")
ENTITY_TYPES = ("PERSON", "LOCATION", "ORGANIZATION", "")
PROPERTY_TYPES = ("room", "staff", "food", "")
POLARITY = ("positive", "negative", "")
ROLES = ("A0", "A1", "AM-LOC", "")


def _a(**kw) -> str:
    return "".join(f" {k}={quoteattr(str(v))}" for k, v in kw.items() if v is not None)


def _span(ids, indent="") -> str:
    return f"{indent}<span>" + "".join(f'<target id="{i}"/>' for i in ids) + "</span>"


def generate(seed: int, kind: str) -> str:
    """One document, KAF (``kind="kaf"``) or NAF, from ``seed`` (twins share a seed)."""
    rng = random.Random(seed)
    naf = kind == "naf"
    idk = (lambda k: "id") if naf else (lambda k: k)
    n_words = rng.randint(15, 40)
    words = [rng.choice(WORDS) for _ in range(n_words)]
    terms: list[list[str]] = []
    w = 1
    while w <= n_words:
        size = min(n_words - w + 1, rng.choice((1, 1, 1, 2, 3)))
        terms.append([f"w{k}" for k in range(w, w + size)])
        w += size
    tids = [f"t{k + 1}" for k in range(len(terms))]

    def some_terms(k=3):
        start = rng.randrange(len(tids))
        return tids[start: start + rng.randint(1, k)]

    root = "NAF" if naf else "KAF"
    version = ' version="v3"' if naf else ""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', f'<{root} xml:lang="en"{version}>', "<text>"]
    for k, word in enumerate(words, 1):
        out.append(f'  <wf{_a(**{idk("wid"): f"w{k}", "sent": str(1 + k // 12)})}>{escape(word)}</wf>')
    out += ["</text>", "<terms>"]
    for tid, span in zip(tids, terms):
        out.append(f'  <term{_a(**{idk("tid"): tid, "lemma": "x", "pos": "N"})}>')
        if rng.random() < 0.25:
            attrs = _a(polarity=rng.choice(POLARITY) or None, strength=rng.choice(("1", "2", None)),
                       resource=rng.choice(("lex", None)), sentiment_modifier=rng.choice(("intensifier", None)),
                       sentiment_semantic_type=rng.choice(("behaviour", None)))
            out.append(f"    <sentiment{attrs}/>")
        out.append(_span(span, "    "))
        out.append("  </term>")
    out.append("</terms>")
    entities = []
    out.append("<entities>")
    for e in range(rng.randint(0, 4)):
        eid = f"e{e + 1}"
        spans = [some_terms(2) for _ in range(rng.choice((1, 1, 2, 0)))]
        entities.append((eid, spans))
        out.append(f'  <entity{_a(**{idk("eid"): eid, "type": rng.choice(ENTITY_TYPES) or None})}>')
        out.append("    <references>" + "".join(_span(s) for s in spans) + "</references>")
        out.append("  </entity>")
    out.append("</entities>")
    props = []
    if naf:
        out.append("<features><properties>")
    else:
        out.append("<properties>")
    for p in range(rng.randint(0, 3)):
        pid = f"p{p + 1}"
        spans = [some_terms(2) for _ in range(rng.choice((1, 2)))]
        props.append((pid, spans))
        ptype = rng.choice(PROPERTY_TYPES)
        attrs = {idk("pid"): pid, "lemma": ptype or "thing" if naf else None, "type": ptype or None}
        out.append(f"  <property{_a(**attrs)}>")
        out.append("    <references>" + "".join(_span(s) for s in spans) + "</references>")
        out.append("  </property>")
    out.append("</properties></features>" if naf else "</properties>")
    out.append("<opinions>")
    for o in range(rng.randint(0, 4)):
        overlap = {}
        if rng.random() < 0.5 and entities:
            overlap["overlap_ents"] = rng.choice(entities)[0]
        if rng.random() < 0.3 and props:
            overlap["overlap_props"] = rng.choice(props)[0]
        out.append(f'  <opinion{_a(**{idk("oid"): f"o{o + 1}"}, **overlap)}>')
        if rng.random() < 0.7:
            holder_type = rng.choice(("Speaker", None))
            out.append(f"    <opinion_holder{_a(type=holder_type)}>{_span(some_terms(1))}</opinion_holder>")
        if rng.random() < 0.7:
            out.append(f"    <opinion_target>{_span(some_terms(2))}</opinion_target>")
        attrs = _a(polarity=rng.choice(POLARITY) or None, strength=rng.choice(("1", "2", None)),
                   subjectivity=rng.choice(("subjective", None)))
        out.append(f"    <opinion_expression{attrs}>{_span(some_terms(2))}</opinion_expression>")
        out.append("  </opinion>")
    out.append("</opinions>")
    out.append("<srl>")
    for pr in range(rng.randint(0, 3)):
        out.append(f'  <predicate{_a(**{idk("prid"): f"pr{pr + 1}"})}>{_span(some_terms(1))}')
        for r in range(rng.randint(0, 3)):
            role = rng.choice(ROLES)
            out.append(f'    <role{_a(**{idk("rid"): f"r{pr + 1}_{r + 1}", "semRole": role or None})}>'
                       f"{_span(some_terms(3))}</role>")
        out.append("  </predicate>")
    out.append("</srl>")
    out.append("<coreferences>")
    for c in range(rng.randint(0, 3)):
        spans = [some_terms(2) for _ in range(rng.randint(1, 3))]
        out.append(f'  <coref{_a(**{idk("coid"): f"co{c + 1}", "type": "entity" if naf else None})}>'
                   + "".join(_span(s) for s in spans) + "</coref>")
    out.append("</coreferences>")
    out.append(f"</{root}>")
    return "\n".join(out) + "\n"


def generate_tuples(seed: int) -> str:
    """A KYOTO Kybot tuple file: one or two sources, tuples of an event and participants (roles, token lists
    ``w1;w2``, lemmas; now and then a participant without a role, a second event, a confidence that is not a
    whole number)."""
    rng = random.Random(seed)
    out = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>', "<kafkybot-results>"]
    for src in range(rng.randint(1, 2)):
        out.append(f'  <tuples source="doc{seed}-{src}.kaf">')
        for t in range(rng.randint(1, 6)):
            confidence = rng.choice(("30", "0", "75", "x"))
            out.append(f'    <tuple id="{t + 1}" profile="{rng.choice(("agent-1-sem", "patient-2"))}" '
                       f'profileConfidence="{confidence}" sentenceId="s{t}">')
            out.append("      <!--a comment-->")
            w = rng.randint(1, 50)
            out.append(f'      <event lemma="{rng.choice(("respond", "die", "R&amp;D"))}" mention="t{w}" '
                       f'tokens="w{w}"/>')
            if rng.random() < 0.2:
                out.append(f'      <event lemma="go" tokens="w{w + 1};w{w + 2}"/>')
            for p in range(rng.randint(1, 3)):
                role = rng.choice(("agent", "patient", "done-by", None))
                toks = ";".join(f"w{w + 3 + p + k}" for k in range(rng.randint(1, 2)))
                out.append(f'      <participant lemma="{rng.choice(("firefighter", "bus"))}"{_a(role=role)} '
                           f'tokens="{toks}"/>')
            out.append("    </tuple>")
        out.append("  </tuples>")
    out.append("</kafkybot-results>")
    return "\n".join(out) + "\n"


def generate_topic(seed: int, n_docs: int = 4) -> tuple[dict[str, str], dict[str, str]]:
    """An ECB+-style topic: ``n_docs`` NAF documents whose coreference chains use topic-wide ids (a chain
    may have mentions in several documents), as a key and a response (chains merged, split, mentions
    dropped, spans shifted, spurious chains).  Returns ({file name: NAF} of the key, of the response)."""
    rng = random.Random(seed)
    topic = 1 + seed % 40
    entities = [f"ent{k}" for k in range(rng.randint(2, 6))]
    key_docs, resp_docs = {}, {}
    for d in range(n_docs):
        n_words = rng.randint(12, 30)
        words = [rng.choice(WORDS) for _ in range(n_words)]
        body = ['<?xml version="1.0" encoding="UTF-8"?>', '<NAF xml:lang="en" version="v3">',
                f'<nafHeader><public publicId="{topic}_{d}ecb"/></nafHeader>', "<text>"]
        body += [f'  <wf id="w{k}" sent="1">{escape(w)}</wf>' for k, w in enumerate(words, 1)]
        body += ["</text>", "<terms>"]
        body += [f'  <term id="t{k}"><span><target id="w{k}"/></span></term>' for k in range(1, n_words + 1)]
        body.append("</terms>")
        key: dict[str, list[list[int]]] = {}
        for e in entities:
            if rng.random() < 0.6:
                key[e] = []
                for _ in range(rng.randint(1, 3)):
                    start = rng.randint(1, n_words)
                    key[e].append(list(range(start, min(n_words, start + rng.randint(0, 2)) + 1)))
        resp: dict[str, list[list[int]]] = {}
        for e, mentions in key.items():
            for m in mentions:
                roll = rng.random()
                if roll < 0.1:
                    continue  # missed
                label = e if roll < 0.75 else rng.choice(entities + ["new" + e])  # merged or split
                if rng.random() < 0.1:
                    m = [max(1, m[0] - 1)] + m  # boundary error
                resp.setdefault(label, []).append(m)
        if rng.random() < 0.5:
            resp["spurious"] = [[rng.randint(1, n_words)]]

        def layer(chains):
            out = ["<coreferences>"]
            for label, mentions in chains.items():
                spans = "".join("<span>" + "".join(f'<target id="t{t}"/>' for t in m) + "</span>" for m in mentions)
                out.append(f'  <coref id="{label}" type="entity">{spans}</coref>')
            return out + ["</coreferences>", "</NAF>"]

        name = f"{topic}_{d + 1}ecb.naf"
        key_docs[name] = "\n".join(body + layer(key)) + "\n"
        resp_docs[name] = "\n".join(body + layer(resp)) + "\n"
    return key_docs, resp_docs


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--docs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--tuples", action="store_true", help="also write doc-N.tpl KYOTO tuple files")
    ap.add_argument("--topics", type=int, default=0, help="write key/T/ and response/T/ topic folders instead")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    if args.topics:
        for t in range(args.topics):
            key, resp = generate_topic(args.seed * 1000 + t, args.docs)
            for side, docs in (("key", key), ("response", resp)):
                folder = os.path.join(args.out, side, str(1 + (args.seed * 1000 + t) % 40))
                os.makedirs(folder, exist_ok=True)
                for name, text in docs.items():
                    with open(os.path.join(folder, name), "w", encoding="utf-8", newline="\n") as fh:
                        fh.write(text)
        return
    for k in range(args.docs):
        if args.tuples:
            with open(os.path.join(args.out, f"doc-{k:03d}.tpl"), "w", encoding="utf-8", newline="\n") as fh:
                fh.write(generate_tuples(args.seed * 1000 + k))
        for kind in ("kaf", "naf"):
            with open(os.path.join(args.out, f"doc-{k:03d}.{kind}"), "w", encoding="utf-8", newline="\n") as fh:
                fh.write(generate(args.seed * 1000 + k, kind))


if __name__ == "__main__":
    main()
