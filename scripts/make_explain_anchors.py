"""Expectations for `fastscore explain` from the Berkeley Coreference Analyser (Kummerfeld & Klein 2013).

Seeded perturbations of generated key documents (each perturbation one error type, and mixtures) and of LitBank
documents (shared data) are classified by the Analyser, run from a checkout given on the command line; its
per-document error counts are stored as JSON beside the generated files; so are its counts on its own example
(four OntoNotes WSJ documents with full parses and Stanford's output, in its checkout: not stored here).

    python scripts/make_explain_anchors.py --analyser /work/tools/explain [--litbank DIR] [--check]

The Analyser reads a gold folder with one file per document and needs a parse: the key is written there with a
flat parse (each sentence one TOP node over its words), under which its head of a mention is the mention's last
word, as fastscore takes it.  Only the generated files and the counts are stored, never the Analyser's code.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's fastscore (its reader numbers LitBank's documents)
OUT = ROOT / "tests" / "data" / "explain_anchors"
NAMES = ["Alice", "Bob", "Carol", "Dmitri", "Elena", "Farid", "Grace", "Hiro"]
PRONOUNS = ["he", "she", "it", "they", "him", "her", "them", "his"]
NOUNS = ["dog", "house", "letter", "river", "doctor", "city", "ship", "garden"]
FILLER = [("walked", "VBD"), ("saw", "VBD"), ("near", "IN"), ("and", "CC"), ("quickly", "RB"), ("with", "IN"),
          ("gave", "VBD"), ("from", "IN")]
PUNCT = [(",", ","), (".", "."), (";", ":")]
ERRORS = ("span_error", "conflated_entities", "extra_entity", "extra_mention", "divided_entity",
          "missing_mention", "missing_entity")
PERTURBATIONS = ("identical", "end_over_punct", "end_over_word", "join_entities", "cut_entity", "drop_mention",
                 "add_mention", "drop_entity", "add_entity", "mixture")


# ---- documents: sentences of (word, tag), mentions (sentence, start, end) -> entity

def make_document(rng: random.Random, n_sentences: int):
    sentences, mentions = [], {}
    entity_count = rng.randint(3, 6)
    for s in range(n_sentences):
        tokens = []
        for _ in range(rng.randint(3, 6)):
            kind = rng.random()
            start = len(tokens)
            if kind < 0.3:
                tokens.append((rng.choice(NAMES), "NNP"))
            elif kind < 0.55:
                tokens.append((rng.choice(PRONOUNS), "PRP"))
            else:
                tokens += [("the", "DT"), (rng.choice(NOUNS), "NN")]
                if rng.random() < 0.2:  # a nested mention sharing the head
                    mentions[(s, start + 1, len(tokens))] = str(rng.randrange(entity_count))
            if rng.random() < 0.8:
                mentions[(s, start, len(tokens))] = str(rng.randrange(entity_count))
            tokens.append(rng.choice(FILLER if rng.random() < 0.7 else PUNCT))
        tokens.append((".", "."))
        sentences.append(tokens)
    return sentences, mentions


def entities(mentions: dict) -> dict:
    out: dict = {}
    for m, e in sorted(mentions.items()):
        out.setdefault(e, []).append(m)
    return out


def perturb(rng: random.Random, sentences, key: dict, how: str) -> dict:
    """A response: the key changed by one perturbation (or several: mixture)."""
    resp = dict(key)
    ents = entities(resp)
    multi = [e for e, ms in ents.items() if len(ms) > 2]
    fresh = str(1000 + rng.randrange(1000))
    if how == "end_over_punct" or how == "end_over_word":
        want = (lambda w: len(w) == 1 and not w.isalpha()) if how == "end_over_punct" else (lambda w: w.isalpha())
        options = [m for m in resp if m[2] < len(sentences[m[0]]) and want(sentences[m[0]][m[2]][0])
                   and (m[0], m[1], m[2] + 1) not in resp and len(ents[resp[m]]) > 1]
        if options:
            m = rng.choice(sorted(options))
            resp[(m[0], m[1], m[2] + 1)] = resp.pop(m)
    elif how == "join_entities" and len(ents) > 1:
        a, b = rng.sample(sorted(e for e, ms in ents.items() if len(ms) > 1) or sorted(ents), 2) if len(
            [e for e, ms in ents.items() if len(ms) > 1]) > 1 else (None, None)
        if a is not None:
            for m in ents[b]:
                resp[m] = a
    elif how == "cut_entity" and multi:
        e = rng.choice(sorted(multi))
        for m in ents[e][len(ents[e]) // 2:]:
            resp[m] = fresh
    elif how == "drop_mention" and multi:
        e = rng.choice(sorted(multi))
        resp.pop(rng.choice(ents[e][1:]))
    elif how == "add_mention" and ents:
        free = _free_spans(sentences, resp)
        if free:
            resp[rng.choice(free)] = rng.choice(sorted(e for e, ms in ents.items() if len(ms) > 1) or sorted(ents))
    elif how == "drop_entity" and ents:
        e = rng.choice(sorted(e for e, ms in ents.items() if len(ms) > 1) or sorted(ents))
        for m in ents[e]:
            resp.pop(m)
    elif how == "add_entity":
        free = _free_spans(sentences, resp)
        for m in rng.sample(free, min(len(free), rng.randint(2, 3))):
            resp[m] = fresh
    elif how == "mixture":
        for _ in range(rng.randint(2, 5)):
            resp = perturb(rng, sentences, resp, rng.choice(PERTURBATIONS[1:-1]))
    return resp


def _free_spans(sentences, mentions: dict) -> list:
    taken = {(s, t) for (s, a, e) in mentions for t in range(a, e)}
    return [(s, t, t + 1) for s, toks in enumerate(sentences) for t, (w, tag) in enumerate(toks)
            if (s, t) not in taken and tag not in (".", ",", ":")]


def conll_lines(name: str, sentences, mentions: dict, parse: bool) -> list[str]:
    """A document in CoNLL-2012 columns (word, POS, a flat parse when ``parse``, coreference last)."""
    opens: dict = {}
    closes: dict = {}
    for (s, a, e), label in mentions.items():
        if e - a == 1:
            opens.setdefault((s, a), []).append(f"({label})")
        else:
            opens.setdefault((s, a), []).append(f"({label}")
            closes.setdefault((s, e - 1), []).append(f"{label})")
    lines = [f"#begin document ({name}); part 0"]
    for s, toks in enumerate(sentences):
        for t, (word, tag) in enumerate(toks):
            bit = ("(TOP*" if t == 0 else "*") + (")" if t == len(toks) - 1 else "") if parse else "-"
            coref = "|".join(opens.get((s, t), []) + closes.get((s, t), [])) or "-"
            lines.append(f"{name}\t0\t{t}\t{word}\t{tag}\t{bit}\t-\t-\t-\t-\t*\t{coref}")
        lines.append("")
    lines.append("#end document")
    return lines


# ---- the Analyser

def load_analyser(path: str):
    """The Analyser's classify_coreference_errors module, imported from its checkout.

    Its report lines crash (KeyError) on operations it has no error name for, which happens as soon as a key
    entity has one mention (an Introduce left over): the errors are recorded before that line, so the operations
    without an error name are set aside after classification, changing no count."""
    sys.path.insert(0, path)
    import classify_coreference_errors as analyser

    classify = analyser.categorise

    def categorise(*args, **kwargs):
        changes = classify(*args, **kwargs)
        for raw in ("introduce", "remove"):
            changes.pop(raw, None)
        return changes

    analyser.categorise = categorise
    return analyser


def run_analyser(analyser, key_docs: list, response_text: str) -> dict:
    """{document name: {error: count}} as the Analyser classifies the response (response singletons dropped)."""
    from collections import Counter

    names = {"span mismatch": "span_error", "split": "conflated_entities", "extra entity": "extra_entity",
             "extra mention": "extra_mention", "merge": "divided_entity", "missing mention": "missing_mention",
             "missing entity": "missing_entity"}
    reading = analyser.coreference_reading
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        gold_path, resp_path = Path(tmp) / "gold", Path(tmp) / "response"
        gold_path.write_text("\n".join(line for _, lines in key_docs for line in lines) + "\n")
        resp_path.write_text(response_text)
        gold = reading.read_conll_doc(str(gold_path))
        auto = reading.read_conll_coref_system_output(str(resp_path))
        sink = open(os.devnull, "w")
        files = _Sink(sink)
        for doc in sorted(auto):
            for part in sorted(auto[doc]):
                auto[doc][part]["text"] = gold[doc][part]["text"]
                counts = Counter(names[e[0]] for e in analyser.process_document(
                    doc, part, gold[doc][part], auto[doc][part], files, True) if e[0] in names)
                out[f"({doc}); part {part}"] = {e: counts.get(e, 0) for e in ERRORS}
        sink.close()
    return out


class _Sink(dict):
    """The Analyser's output files, all thrown away."""

    def __init__(self, sink):
        super().__init__()
        self.sink = sink

    def __missing__(self, key):
        return self.sink


def generated_cases(seed: int = 29, docs_per_case: int = 6):
    """(file stem, key documents, response documents) per perturbation."""
    rng = random.Random(seed)
    cases = []
    for how in PERTURBATIONS:
        key_docs, resp_docs = [], []
        for k in range(docs_per_case * (5 if how == "mixture" else 1)):
            name = f"{how}_{k:02d}"
            sentences, key = make_document(rng, rng.randint(3, 6))
            resp = perturb(rng, sentences, key, how)
            key_docs.append((name, sentences, key))
            resp_docs.append((name, sentences, resp))
        cases.append((how, key_docs, resp_docs))
    return cases


def with_flat_parse(text: str) -> list[str]:
    """A CoNLL-2012 file's lines with a flat parse in the parse column (the rest as it is, but brackets)."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        fields = line.split("\t")
        if len(fields) > 6 and not line.startswith("#"):
            first = i == 0 or not lines[i - 1].strip() or lines[i - 1].startswith("#")
            last = i + 1 == len(lines) or not lines[i + 1].strip() or lines[i + 1].startswith("#")
            fields[5] = ("(TOP*" if first else "*") + (")" if last else "")
            # its tree reader takes a bracket in a word for the tree's: "[" and "]" are, for its rules as
            # for fastscore's, the same one-character non-letters
            fields[3] = fields[3].replace("(", "[").replace(")", "]")
            line = "\t".join(fields)
        out.append(line)
    return out


def gum_key(conllu_path: str) -> str:
    """A GUM (OntoGUM) CoNLL-U file as a CoNLL-2012 key with its parts of speech (XPOS, Penn tags) and a flat
    parse: the words and coreference as fastscore convert writes them, the tags from the CoNLL-U words."""
    from fastscore.coref.convert import convert

    tags = [line.split("\t")[4] for line in Path(conllu_path).read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#") and line.split("\t")[0].isdigit()]
    with tempfile.TemporaryDirectory() as tmp:
        converted = Path(tmp) / "key.conll"
        convert(conllu_path, str(converted), "conll2012")
        lines = converted.read_text(encoding="utf-8").splitlines()
    out, k = [], 0
    for line in lines:
        fields = line.split("\t")
        if line.startswith("#begin document ") and ";" not in line:  # the name the Analyser reads: (NAME); part 0
            line = f"#begin document ({line.split(' ', 2)[2]}); part 0"
        if line.startswith("#end document") and out and out[-1]:
            out.append("")  # its tree reader ends a sentence only at a blank line
        if len(fields) >= 5 and not line.startswith("#"):
            word = fields[3].replace("(", "[").replace(")", "]")  # (for the Analyser's tree reader, as above)
            line = "\t".join(fields[:3] + [word, tags[k], "*", "-", "-", "-", "-", "*", fields[-1]])
            k += 1
        out.append(line)
    if k != len(tags):
        raise SystemExit(f"{conllu_path}: {k} words converted, {len(tags)} in the file")
    return "\n".join(with_flat_parse("\n".join(out))) + "\n"


def perturbed_response(key_path: str, seed: int) -> str:
    """A perturbed response of a one-document key file: its coreference changed by seeded perturbations."""
    return litbank_response(key_path, seed)


def litbank_response(key_path: str, seed: int) -> str:
    """A perturbed response of a LitBank file: coreference column changed by seeded perturbations."""
    rng = random.Random(seed)
    from fastscore.explain.documents import read_sides

    (doc,), _ = read_sides(key_path, key_path)
    sentences = [[(w, "_") for w in ws] for ws in doc.words]
    resp = dict(doc.key.entity_of)
    for _ in range(max(3, len(resp) // 25)):
        resp = perturb(rng, sentences, resp, rng.choice(PERTURBATIONS[1:-1]))
    name = doc.name.split(";")[0].strip("()")
    return "\n".join(conll_lines(name, sentences, resp, parse=False)) + "\n"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--analyser", required=True, help="a checkout of berkeley-coreference-analyser")
    p.add_argument("--litbank", help="LitBank's coref/conll folder (shared data): also its expectations")
    p.add_argument("--gum", help="OntoGUM's coref/ontogum/conllu folder (shared data): also its expectations")
    p.add_argument("--check", action="store_true", help="check the stored files instead of writing them")
    args = p.parse_args()
    analyser = load_analyser(args.analyser)
    files: dict[str, str] = {}
    expected: dict = {}
    for how, key_docs, resp_docs in generated_cases():
        key_text = "\n".join(line for n, s, m in key_docs for line in conll_lines(n, s, m, parse=True)) + "\n"
        resp_text = "\n".join(line for n, s, m in resp_docs for line in conll_lines(n, s, m, parse=False)) + "\n"
        files[f"{how}.key.conll"], files[f"{how}.response.conll"] = key_text, resp_text
        expected[how] = run_analyser(analyser, [(n, conll_lines(n, s, m, True)) for n, s, m in key_docs],
                                     resp_text)
    if args.litbank:
        for k, path in enumerate(sorted(Path(args.litbank).glob("*.conll"))):
            from fastscore.explain.documents import read_sides

            (doc,), _ = read_sides(str(path), str(path))
            name = doc.name.split(";")[0].strip("()")
            key_lines = with_flat_parse(path.read_text(encoding="utf-8"))
            counts = run_analyser(analyser, [(name, key_lines)], litbank_response(str(path), k))
            expected.setdefault("litbank", {}).update(counts)
    if args.gum:
        with tempfile.TemporaryDirectory() as tmp:
            for k, path in enumerate(sorted(Path(args.gum).glob("*.conllu"))):
                key = Path(tmp) / f"{path.stem}.conll"
                key.write_text(gum_key(str(path)), encoding="utf-8")
                try:
                    counts = run_analyser(analyser, [(path.stem, key.read_text(encoding="utf-8").splitlines())],
                                          perturbed_response(str(key), 1000 + k))
                except Exception as exc:  # the Analyser stops on this document: recorded, not compared
                    counts = {f"({path.stem}); part 0": f"the Analyser fails: {type(exc).__name__}: {exc}"}
                expected.setdefault("gum", {}).update(counts)
    stored = json.loads((OUT / "expected.json").read_text()) if (OUT / "expected.json").exists() else {}
    for corpus, given in (("litbank", args.litbank), ("gum", args.gum)):
        if not given and corpus in stored:  # kept as stored (made and checked with --litbank, --gum)
            expected[corpus] = stored[corpus]
    # the Analyser's own example (OntoNotes WSJ with full parses, Stanford's output): counts only are stored
    gold = sorted(Path(args.analyser, "data", "gold", "nw", "wsj", "00").glob("*gold_conll"))
    output = Path(args.analyser, "data", "homogenised", "stanford.homogenised.out")
    expected["analyser_example"] = run_analyser(analyser, [(f.name, f.read_text().splitlines()) for f in gold],
                                                output.read_text())
    files["expected.json"] = json.dumps(expected, indent=1, sort_keys=True) + "\n"
    bad = []
    for name, text in files.items():
        path = OUT / name
        if args.check:
            if not path.exists() or path.read_text() != text:
                bad.append(name)
        else:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    if bad:
        print("differs from the stored files: " + ", ".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
