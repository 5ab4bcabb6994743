#!/usr/bin/env python3
"""Generate CorefUD key/response cases and record what the official CorefUD scorer prints for them.

Writes ``tests/data/corefud_anchors/``:

* ``cases/NAME.key.conllu`` and ``cases/NAME.response.conllu``: synthetic cases from
  ``scripts/gen_conllu.py`` (seeded) and a few OntoGUM files (``gum_*``, keys copied
  unchanged from the shared GUM data, responses perturbed; see ``GUM_LICENSE_NOTE.md``);
* ``expected.json``: per case and configuration (matching exact / partial / head x
  singletons kept / dropped x zero matching dependent / linear) the scorer's command
  line, exit code, full stdout and the numbers parsed from it (recall / precision / F1
  in percent, two decimals, per metric; the CoNLL score), plus ``internal``: the same
  figures unrounded with the scorer's raw counts (``[p_num, p_den, r_num, r_den]``,
  two such lists for BLANC: coreference links, non-coreference links), mention and
  entity totals and the non-identical key/response mention alignments, obtained by
  importing the scorer's own modules (the scorer's code is not part of this repository);
* ``failures/`` and ``failures.json``: small inputs on which the scorer crashes or
  quietly does something questionable, with exit code, stdout and the tail of stderr.

The official scorer is ufal/corefud-scorer (v1.2, commit 4fd7b0e); get it yourself and
install its requirements (udapi, numpy, scipy) into a virtual environment, then:

    python scripts/make_corefud_anchors.py --scorer DIR/corefud-scorer.py --python VENV/bin/python
        [--seed 2024] [--cases 40] [--gum-dir ../shared/data/gum/coref/ontogum/conllu] [--check]

The same arguments reproduce the same bytes; ``--check`` regenerates into a temporary
directory and compares it with the stored data instead of writing.
"""
from __future__ import annotations

import argparse
import filecmp
import hashlib
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_conllu as gen

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "corefud_anchors"
SHARED = ROOT.parent / "shared" / "data" / "gum"
SCORER_REPO = "ufal/corefud-scorer"
SCORER_COMMIT = "4fd7b0e0c661aeeff88bc60c19ef507b84d1b590"
GUM_FILES = ("GUM_news_worship", "GUM_news_stampede", "GUM_news_crane", "GUM_news_asylum", "GUM_news_flag")
METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero")


def configs():
    """Configuration name -> scorer options (all metrics, the default)."""
    out = {}
    for match in ("exact", "partial", "head"):
        for single in ("drop", "keep"):
            for zero in ("dependent", "linear"):
                args = ["-a", match] + (["-s"] if single == "keep" else []) + ["-z", zero]
                out[f"{match}-{single}-{zero}"] = args
    return out


# --------------------------------------------------------------------------- cases

def synthetic_specs(seed, n):
    """(name, seed, docs, sentences, Params, special) for n synthetic cases."""
    specials = ["perfect", "empty_response", "zeros_heavy", "ties_heavy"]
    specs = []
    for i in range(n):
        s = seed * 1000 + i
        special = specials[i] if i < len(specials) else None
        p = gen.Params(strength=(0.15, 0.3, 0.5)[i % 3], ties=i % 3 == 0,
                       p_twin_heads=0.3 if i % 4 == 1 else 0.0, reuse_eids=i % 5 == 2)
        if i % 10 == 9:
            p.p_empty, p.node_ops = 0.0, False
        docs = 1 + i % 4
        sentences = 5 + (i * 7) % 36
        if special == "zeros_heavy":
            p.p_empty, p.p_zero_mention, p.strength = 0.9, 0.95, 0.5
            docs, sentences = 2, 16
        elif special == "ties_heavy":
            p.ties, p.p_twin_heads, p.strength = True, 0.4, 0.6
            docs, sentences = 2, 14
        name = f"syn{i + 1:02d}" + (f"_{special}" if special else "")
        specs.append((name, s, docs, sentences, p, special))
    return specs


def make_synthetic(spec):
    _name, s, docs, sentences, p, special = spec
    rng = random.Random(s)
    key = gen.make_key(rng, docs, sentences, p)
    if special == "perfect":
        resp = gen.clone_documents(key)
    elif special == "empty_response":
        resp = gen.clone_documents(key)
        for d in resp:
            d.entities, d.bridges, d.splits = [], [], []
    elif special == "zeros_heavy":
        resp = gen.perturb(rng, key, p, ops=[(gen.op_drop_mention, 1), (gen.op_change_head, 1)])
    elif special == "ties_heavy":
        resp = gen.perturb(rng, key, p, ops=[(gen.op_drop_mention, 1), (gen.op_move_mention, 1)])
    else:
        resp = gen.perturb(rng, key, p)
    return gen.write_documents(key), gen.write_documents(resp)


def make_gum(path, s):
    text = path.read_text(encoding="utf-8")
    p = gen.Params(strength=0.25, ties=True, node_ops=False)
    return text, gen.perturb_text(s, text, p, zero_prob=1.0)


# --------------------------------------------------------------------------- failure inputs

def _tok(i, form, misc="_", deps=None, head=None, deprel="dep"):
    if "." in str(i):
        return "\t".join([str(i), form, "_", "_", "_", "_", "_", "_", deps or "_", misc])
    h = 0 if head is None else head
    rel = "root" if h == 0 else deprel
    return "\t".join([str(i), form, form.lower(), "_", "_", "_", str(h), rel, deps or f"{h}:{rel}", misc])


def _sent(sent_id, toks, newdoc=None, header="eid-etype-head-other"):
    lines = []
    if newdoc:
        lines.append(f"# newdoc id = {newdoc}")
        if header:
            lines.append(f"# global.Entity = {header}")
    lines.append(f"# sent_id = {sent_id}")
    lines.append("# text = " + " ".join(t.split("\t")[1] for t in toks if "." not in t.split("\t")[0]
                                         and "-" not in t.split("\t")[0]))
    return "\n".join(lines + toks) + "\n\n"


def _base_doc(doc="doc1", zero_deps="2:nsubj", zero_entity="Entity=(e1-person-1)", s2_extra=None,
              header="eid-etype-head-other", e2_last="(e2-object-1)"):
    """Two sentences: John(e1) saw Mary(e3) ; [zero e1] he(e1) took it(e2) the book(e2) ."""
    s1 = _sent(f"{doc}-1", [
        _tok(1, "John", "Entity=(e1-person-1)", head=2, deprel="nsubj"),
        _tok(2, "saw"),
        _tok(3, "Mary", "Entity=(e3-person-1)", head=2, deprel="obj"),
        _tok(4, "and", head=5, deprel="cc"),
        _tok(5, "Sue", "Entity=(e3-person-1)", head=3, deprel="conj"),
    ], newdoc=doc, header=header)
    toks = [
        _tok(1, "Then", head=2, deprel="advmod"),
        _tok(2, "took"),
        _tok("2.1", "_", zero_entity, deps=zero_deps),
        _tok(3, "he", "Entity=(e1-person-1)", head=2, deprel="nsubj"),
        _tok(4, "the", "Entity=(e2-object-2", head=5, deprel="det"),
        _tok(5, "book", "Entity=e2)", head=2, deprel="obj"),
        _tok(6, "and", head=7, deprel="cc"),
        _tok(7, "it", "Entity=" + e2_last, head=2, deprel="conj"),
    ]
    if s2_extra:
        toks = s2_extra(toks)
    return s1 + _sent(f"{doc}-2", toks)


def _case(description, key, response):
    return description, key, response


def failure_inputs():
    """name -> (description, key text, response text)."""
    F = {}
    key = _base_doc()
    F["zero_without_deps"] = _case(
        "A key zero (empty node 2.1, mention head) has DEPS '_' and the response has a zero in the same sentence: "
        "the dependent zero matching divides by the number of key dependencies (ZeroDivisionError); linear is fine.",
        _base_doc(zero_deps="_"), key)
    F["zero_without_deps_response"] = _case(
        "The response zero has DEPS '_' (the key's has 2:nsubj): ZeroDivisionError with dependent zero matching.",
        key, _base_doc(zero_deps="_"))
    F["zero_without_deps_other_sentence"] = _case(
        "A key zero without DEPS, but the response zero is in another sentence: no crash (the sentence check "
        "comes before the F-score).",
        _base_doc(zero_deps="_"),
        _base_doc(zero_entity="_").replace("# text = John saw Mary and Sue\n",
                                           "# text = John saw Mary and Sue\n").replace(
            "5\tSue\tsue\t_\t_\t_\t3\tconj\t3:conj\tEntity=(e3-person-1)",
            "5\tSue\tsue\t_\t_\t_\t3\tconj\t3:conj\tEntity=(e3-person-1)\n5.1\t_\t_\t_\t_\t_\t_\t_\t2:nsubj\tEntity=(e1-person-1)"))
    F["zero_deps_bad_parent"] = _case(
        "An empty node whose DEPS names word 9 of a 7-word sentence: udapi raises IndexError when the scorer "
        "reads the head's dependencies (in every configuration, for any mention head).",
        _base_doc(zero_deps="9:nsubj"), key)
    two = _base_doc("doc1") + _base_doc("doc2").replace("(e", "(e1").replace("\te", "\te1").replace("=e", "=e1")
    same_ids = _base_doc("doc1") + _base_doc("doc2")
    F["response_fewer_sentences"] = _case(
        "The response lacks the last sentence: sentences are zipped, so no alignment error; the key mentions "
        "of the missing sentence are simply not found.",
        two, two[: two.rindex("# sent_id = doc2-2")])
    F["response_sentence_fewer_words"] = _case(
        "The response's first sentence lacks its last word ('Sue', a mention of e3): words are zipped, so no "
        "alignment error; the key mention on the missing word is simply not found.",
        key, key.replace("\n5\tSue\tsue\t_\t_\t_\t3\tconj\t3:conj\tEntity=(e3-person-1)", "").replace(
            "# text = John saw Mary and Sue", "# text = John saw Mary and").replace("5\tcc\t5:cc", "3\tcc\t3:cc"))
    F["basic_head_out_of_range"] = _case(
        "A regular word whose HEAD (5) is beyond the sentence's last word: udapi raises ValueError 'HEAD is out "
        "of range'.",
        key, key.replace("\n5\tSue\tsue\t_\t_\t_\t3\tconj\t3:conj\tEntity=(e3-person-1)", "").replace(
            "# text = John saw Mary and Sue", "# text = John saw Mary and"))
    F["response_missing_document"] = _case(
        "The response lacks the whole last document: AssertionError (docname in sys_doc_clusters).",
        two, _base_doc("doc1"))
    F["response_extra_sentence"] = _case(
        "The response has one more sentence (with a mention) at the end: ignored by the alignment check, and "
        "its mention counts as a response mention of the last document.",
        _base_doc("doc1"), _base_doc("doc1") + _sent("doc1-3", [_tok(1, "She", "Entity=(e3-person-1)", head=2,
                                                                      deprel="nsubj"), _tok(2, "left")]))
    ten = "".join(f"\n2.{j}\t_\t_\t_\t_\t_\t_\t_\t2:nsubj\t{m}" for j, m in
                  [(k, "Entity=(e9-person-1)" if k == 1 else ("Entity=(e8-person-1)" if k == 10 else "_"))
                   for k in range(1, 11)])
    ten_key = _base_doc().replace("2\ttook\ttook\t_\t_\t_\t0\troot\t0:root\t_\n2.1\t_\t_\t_\t_\t_\t_\t_\t2:nsubj\t"
                                  "Entity=(e1-person-1)", "2\ttook\ttook\t_\t_\t_\t0\troot\t0:root\t_" + ten)
    ten_key = ten_key.replace("Entity=(e9-person-1)", "Entity=(e1-person-1)", 1)
    F["empty_node_2_10"] = _case(
        "Ten empty nodes 2.1 .. 2.10 after word 2; 2.1 is a zero of e1 and 2.10 a zero of e8 (a singleton kept with "
        "-s). udapi stores empty-node ords as floats, so 2.10 == 2.1 and the two mentions are the same mention for "
        "the scorer (one of them vanishes, one cluster id overwrites the other).",
        ten_key, ten_key.replace("Entity=(e8-person-1)", "_"))
    F["empty_node_2_10_deps_ref"] = _case(
        "The DEPS of the zero 2.1 (a mention head) name empty node 2.10 ('2.10:conj'): udapi looks the parent up "
        "by str(float) and fails (ValueError: Empty node with ord=2.10 not found). DEPS of nodes that head no "
        "mention are never parsed.",
        ten_key.replace("2.1\t_\t_\t_\t_\t_\t_\t_\t2:nsubj", "2.1\t_\t_\t_\t_\t_\t_\t_\t2.10:conj"), ten_key)
    F["mention_in_two_entities"] = _case(
        "The response puts the span 'Mary' (1 word) in two entities e3 and e4: the scorer logs 'Mention span ... "
        "has been already indexed' and the later cluster wins in the mention->cluster map, while both clusters "
        "keep the mention.",
        key, key.replace("Entity=(e3-person-1)", "Entity=(e3-person-1)(e4-person-1)", 1).replace(
            "4\tand\tand\t_\t_\t_\t5\tcc\t5:cc\t_", "4\tand\tand\t_\t_\t_\t5\tcc\t5:cc\tEntity=(e4-person-1)", 1))
    F["duplicate_mention_in_entity"] = _case(
        "The response has the mention 'the book' twice in e2 with different heads (1 and 2): removed as a duplicate "
        "with exact and partial matching (same words), kept twice with head matching (same words, other head).",
        key, key.replace("Entity=(e2-object-2", "Entity=(e2-object-2(e2-object-1").replace(
            "Entity=e2)", "Entity=e2)e2)"))
    F["head_index_outside_mention"] = _case(
        "Head index 5 on a 2-word mention: udapi (strict loading) raises ValueError 'Invalid head_idx'.",
        key, key.replace("Entity=(e2-object-2", "Entity=(e2-object-5"))
    F["head_index_outside_single_word"] = _case(
        "Head index 7 on a single-word mention '(e1-person-7)': never checked (a one-node mention's head is its "
        "node); scores as with head 1.",
        key, key.replace("Entity=(e1-person-1)", "Entity=(e1-person-7)"))
    F["head_index_zero"] = _case(
        "Head index 0 on 'the book' (key head is 'book' = 2): 0 is falsy, so the head silently becomes the first "
        "word ('the'), exactly as if the head field were left out.",
        key, key.replace("Entity=(e2-object-2", "Entity=(e2-object-0"))
    F["head_field_empty"] = _case(
        "An empty head field '(e2-object--new': int('') fails, udapi raises ValueError (non-integer head).",
        key.replace("eid-etype-head-other", "eid-etype-head-other-infstat"),
        key.replace("eid-etype-head-other", "eid-etype-head-other-infstat").replace(
            "Entity=(e2-object-2", "Entity=(e2-object--new"))
    F["discontinuous_last_part_no_head"] = _case(
        "A discontinuous mention whose last part is one word and has no head index ('(e2[2/2]-object)'): udapi "
        "computes None - 1 (TypeError).",
        key, key.replace("Entity=(e2-object-2", "Entity=(e2[1/2]-object-1").replace(
            "Entity=e2)", "Entity=e2[1/2])").replace("Entity=(e2-object-1)", "Entity=(e2[2/2]-object)"))
    F["discontinuous_head_from_last_part"] = _case(
        "A discontinuous mention 'the book ... it' whose parts carry different head indices (1 on the first part, "
        "3 on the last): the last part's index counts (head = 'it'); exit 0.",
        key, key.replace("Entity=(e2-object-2", "Entity=(e2[1/2]-object-1").replace(
            "Entity=e2)", "Entity=e2[1/2])").replace("Entity=(e2-object-1)", "Entity=(e2[2/2]-object-3)"))
    F["cross_sentence_mention"] = _case(
        "A mention opened in sentence 1 and closed in sentence 2: udapi (strict) raises ValueError.",
        key, key.replace("Entity=(e3-person-1)", "Entity=(e3-person-1", 1).replace(
            "1\tThen\tthen\t_\t_\t_\t2\tadvmod\t2:advmod\t_", "1\tThen\tthen\t_\t_\t_\t2\tadvmod\t2:advmod\tEntity=e3)"))
    F["unclosed_mention"] = _case(
        "A mention that is opened but never closed: udapi warns and deletes it; exit 0.",
        key, key.replace("Entity=(e3-person-1)", "Entity=(e3-person-1", 1))
    F["closing_without_opening"] = _case(
        "A closing bracket 'e5)' without an opening one: udapi raises ValueError.",
        key, key.replace("4\tand\tand\t_\t_\t_\t5\tcc\t5:cc\t_", "4\tand\tand\t_\t_\t_\t5\tcc\t5:cc\tEntity=e5)", 1))
    F["no_newdoc"] = _case(
        "Neither file has a '# newdoc' line: the document id is None and the scorer fails (TypeError).",
        key.replace("# newdoc id = doc1\n", ""), key.replace("# newdoc id = doc1\n", ""))
    F["duplicate_doc_ids"] = _case(
        "Two documents with the same newdoc id in both files: silently scored as ONE document (entity e1 of both "
        "documents becomes one cluster).",
        two.replace("doc2", "doc1"), two.replace("doc2", "doc1").replace("Entity=(e2-object-1)", "_"))
    F["newdoc_id_mismatch"] = _case(
        "The response's newdoc id differs: DataAlignError (a BaseException) 'Newdoc labels in key and sys are not "
        "aligned'.",
        key, key.replace("# newdoc id = doc1", "# newdoc id = docX"))
    F["word_form_mismatch"] = _case(
        "A word form differs ('Mary' vs 'Marie'): DataAlignError 'Words in key and sys are not aligned'.",
        key, key.replace("3\tMary\tmary", "3\tMarie\tmarie"))
    F["no_final_blank_line"] = _case(
        "The response ends with a single newline (no blank line after the last sentence): udapi's reader hits "
        "an empty line (IndexError).",
        key, key.rstrip("\n") + "\n")
    F["duplicate_sent_id"] = _case(
        "Two consecutive sentences share a sent_id: udapi puts them into one bundle and fails ('Tree with zone '' "
        "already exists').",
        key.replace("doc1-2", "doc1-1"), key.replace("doc1-2", "doc1-1"))
    F["no_global_entity"] = _case(
        "The response has Entity annotations but no '# global.Entity' header: udapi raises ValueError.",
        key, key.replace("# global.Entity = eid-etype-head-other\n", ""))
    F["bridge_to_undefined_entity"] = _case(
        "Bridge=e7<e2 where e7 has no mention: udapi (strict) raises ValueError.",
        key, key.replace("Entity=(e2-object-2", "Entity=(e2-object-2|Bridge=e7<e2"))
    F["entity_across_documents"] = _case(
        "Entity ids e1..e3 are reused in the second document (plain eid header): udapi makes one entity of both, "
        "the scorer logs 'Cluster e1 spans two documents' and splits it; scores as for separate entities.",
        same_ids, same_ids.replace("Entity=(e2-object-1)", "Entity=(e1-person-1)"))
    def sort_tie(resp):
        s1 = _sent("doc1-1", [
            _tok(1, "the", "Entity=(e1-x-1)" if resp else "Entity=(e1[1/2]-x-1(e2[1/2]-x-1)", head=5, deprel="det"),
            _tok(2, "big", "_" if resp else "Entity=e1[1/2])", head=5, deprel="amod"),
            _tok(3, "red", "_" if resp else "Entity=(e2[2/2]-x-1", head=5, deprel="amod"),
            _tok(4, "old", "_" if resp else "Entity=e2[2/2])(e1[2/2]-x-1)", head=5, deprel="amod"),
            _tok(5, "car")], newdoc="doc1")
        return s1 + _sent("doc1-2", [_tok(1, "it", "Entity=(e1-x-1)", head=2, deprel="nsubj"), _tok(2, "hit"),
                                     _tok(3, "her", "Entity=(e2-x-1)", head=2, deprel="obj")])
    F["sort_tie_set_order"] = _case(
        "Two key mentions {the, big, old} (e1) and {the, red, old} (e2), both discontinuous with head 'the', tie "
        "in the mention order (same first word, last word and length), and the response mention 'the' (head "
        "'the') scores 1/3 with both under head matching. Which key mention gets it depends on the order in which "
        "the Python set of key mentions yields the two (hash-table order); here e1's (exit 0).",
        sort_tie(False), sort_tie(True))
    F["basic_head_underscore"] = _case(
        "A regular word with HEAD '_': udapi logs a warning and attaches it to the root; exit 0.",
        key, key.replace("4\tand\tand\t_\t_\t_\t5\tcc", "4\tand\tand\t_\t_\t_\t_\tcc"))
    return F


# --------------------------------------------------------------------------- running the scorer

HARNESS = r'''
import contextlib, importlib, io, json, logging, sys
scorer_dir, key, resp = sys.argv[1:4]
sys.path.insert(0, scorer_dir)
logging.disable(logging.CRITICAL)
cf = importlib.import_module("corefud-scorer")
ua = importlib.import_module("ua-scorer")
from scorer.corefud.reader import CorefUDReader
from scorer.eval import evaluator as ev
out = {}
for match in ("exact", "partial", "head"):
    for single in ("drop", "keep"):
        for zero in ("dependent", "linear"):
            args = cf.corefud_to_ua_args({"key_file": key, "sys_file": resp, "metrics": ["all"],
                                          "keep_singletons": single == "keep", "match": match,
                                          "exact_match": False, "zero_match_method": zero})
            with contextlib.redirect_stdout(io.StringIO()):
                ua.process_arguments(args)
            reader = CorefUDReader(**args)
            reader.get_coref_infos(key, resp)
            infos = reader.doc_coref_infos
            res = {"documents": {}, "_check": {}}
            for doc in infos:
                kc, sc = infos[doc][0], infos[doc][1]
                pairs = sorted([str(k), str(s)] for k, s in reader.doc_mention_aligns[doc] if str(k) != str(s))
                res["documents"][str(doc)] = {
                    "key_entities": len(kc), "key_mentions": sum(len(c) for c in kc),
                    "response_entities": len(sc), "response_mentions": sum(len(c) for c in sc),
                    "aligned": len(reader.doc_mention_aligns[doc]), "aligned_nonidentical": pairs}
            conll = []
            for name, metric in args["metrics"]:
                subs = metric if isinstance(metric, list) else [metric]
                counts = []
                for sub in subs:
                    e = ev.Evaluator(sub, beta=1)
                    for doc in infos:
                        e.update(infos[doc])
                    counts.append([float(x) for x in e.get_counts()])
                r, p, f = ev.evaluate_documents(infos, metric, beta=1)
                res[name] = counts if len(counts) > 1 else counts[0]
                res["_check"][name] = [float(r), float(p), float(f)]
                if name in ("muc", "bcub", "ceafe"):
                    conll.append(float(f))
            res["conll"] = sum(conll) / 3 * 100
            out[f"{match}-{single}-{zero}"] = res
print(json.dumps(out))
'''

VERSIONS = r'''
import json, platform
from importlib.metadata import version
print(json.dumps({"python": platform.python_version(), "udapi": version("udapi"), "numpy": version("numpy"),
                  "scipy": version("scipy")}))
'''


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    return p.returncode, p.stdout, p.stderr


def parse_stdout(stdout):
    """{metric: {recall, precision, f1}} and 'conll' from the scorer's report."""
    out, name = {}, None
    for line in stdout.splitlines():
        s = line.strip()
        if s in METRICS:
            name = s
        elif s.startswith("Recall:") and name:
            parts = s.replace(":", "").split()
            out[name] = {"recall": float(parts[1]), "precision": float(parts[3]), "f1": float(parts[5])}
            name = None
        elif s.startswith("CoNLL score:"):
            out["conll"] = float(s.split(":")[1])
    return out


def tail(text, n=500):
    return text if len(text) <= n else text[-n:]


def score_case(python, scorer, cwd, key, resp, cfgs, internal):
    res = {}
    for name, args in cfgs.items():
        cmd = [python, scorer, key, resp] + args
        rc, out, err = run(cmd, cwd)
        entry = {"exit_code": rc, "stdout": out, "parsed": parse_stdout(out) if rc == 0 else {}}
        if err:
            entry["stderr_tail"] = tail(err)
        if internal is not None and rc == 0:
            check = internal[name].pop("_check")
            check_internal(entry["parsed"], check, internal[name]["conll"], key, name)
            entry["internal"] = internal[name]
        res[name] = entry
    return res


def check_internal(parsed, check, conll, case, cfg):
    """The unrounded figures from the scorer's modules print as the CLI did."""
    assert set(parsed) == set(check) | {"conll"}, (case, cfg)
    assert f"{conll:.2f}" == f"{parsed['conll']:.2f}", (case, cfg)
    for m, (r, p, f) in check.items():
        got = [f"{x * 100:.2f}" for x in (r, p, f)]
        want = [f"{parsed[m][k]:.2f}" for k in ("recall", "precision", "f1")]
        assert got == want, (case, cfg, m, got, want)


def dumps(obj, levels, depth=0):
    """JSON with the first ``levels`` levels of dicts indented and anything deeper on one line."""
    if depth >= levels or not isinstance(obj, dict) or not obj:
        return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    pad = " " * (depth + 1)
    items = [f"{pad}{json.dumps(k)}: {dumps(obj[k], levels, depth + 1)}" for k in sorted(obj)]
    return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"


def sha256_tree(scorer_dir):
    h = hashlib.sha256()
    files = [scorer_dir / "corefud-scorer.py", scorer_dir / "ua-scorer.py"]
    files += sorted((scorer_dir / "scorer").rglob("*.py"))
    for f in files:
        h.update(str(f.relative_to(scorer_dir)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def build(out, a):
    scorer = str(Path(a.scorer).resolve())
    scorer_dir = Path(scorer).parent
    cfgs = configs()
    cases_dir, fail_dir = out / "cases", out / "failures"
    cases_dir.mkdir(parents=True)
    fail_dir.mkdir()
    gum_dir = Path(a.gum_dir)
    shutil.copyfile(gum_dir.parent.parent.parent / "LICENSE_NOTE.md", out / "GUM_LICENSE_NOTE.md")

    cases = []
    for spec in synthetic_specs(a.seed, a.cases):
        key, resp = make_synthetic(spec)
        p = spec[4]
        desc = {"source": "synthetic", "seed": spec[1], "documents": spec[2], "sentences": spec[3],
                "special": spec[5], "ties": p.ties, "twin_heads": p.p_twin_heads, "reuse_eids": p.reuse_eids,
                "strength": p.strength, "empty_nodes": p.p_empty > 0}
        cases.append((spec[0], key, resp, desc))
    for i, g in enumerate(GUM_FILES):
        key, resp = make_gum(gum_dir / f"{g}.conllu", a.seed * 1000 + 900 + i)
        cases.append(("gum_" + g[4:].lower(), key, resp,
                      {"source": f"OntoGUM {g}.conllu (key unchanged; CC BY, see GUM_LICENSE_NOTE.md)",
                       "seed": a.seed * 1000 + 900 + i}))

    expected = {
        "scorer": {"repository": SCORER_REPO, "commit": a.scorer_commit, "version": "1.2",
                   "sources_sha256": sha256_tree(scorer_dir)},
        "environment": json.loads(run([a.python, "-c", VERSIONS], out)[1]),
        "command": "cd tests/data/corefud_anchors && PYTHON SCORER KEY RESPONSE ARGS...",
        "python": a.python, "scorer_path": scorer,
        "configs": cfgs,
        "generator": {"script": "scripts/make_corefud_anchors.py", "seed": a.seed, "cases": a.cases,
                      "gum_files": list(GUM_FILES)},
        "notes": ("parsed: the printed percentages. internal (from the scorer's own modules, checked to print "
                  "the same): per metric the summed counts [p_num, p_den, r_num, r_den] (blanc: two such lists, "
                  "coreference links then non-coreference links; P = p_num/p_den and R = r_num/r_den, 0 when the "
                  "numerator is 0; F = 2PR/(P+R); BLANC averages R, P and F over the parts whose p_den and r_den "
                  "are not both 0), the unrounded CoNLL score, and per document the entity/mention totals after "
                  "singleton removal and the aligned key/response mention pairs that differ (words as "
                  "(sentence-ord, ...), * on the head; sentence = 1-based index in the file)."),
        "cases": {},
    }
    for name, key, resp, desc in cases:
        kp, rp = f"cases/{name}.key.conllu", f"cases/{name}.response.conllu"
        (out / kp).write_text(key, encoding="utf-8")
        (out / rp).write_text(resp, encoding="utf-8")
        rc, hout, herr = run([a.python, "-c", HARNESS, str(scorer_dir), kp, rp], out)
        if rc != 0:
            raise SystemExit(f"harness failed on {name}:\n{herr}")
        internal = json.loads(hout)
        print(f"{name}: scoring", file=sys.stderr, flush=True)
        expected["cases"][name] = {"key": kp, "response": rp, "description": desc,
                                   "results": score_case(a.python, scorer, out, kp, rp, cfgs, internal)}
    (out / "expected.json").write_text(dumps(expected, 5) + "\n", encoding="utf-8")

    failures = {"scorer": expected["scorer"], "python": a.python, "scorer_path": scorer, "configs": cfgs,
                "cases": {}}
    for name, (desc, key, resp) in failure_inputs().items():
        kp, rp = f"failures/{name}.key.conllu", f"failures/{name}.response.conllu"
        (out / kp).write_text(key, encoding="utf-8")
        (out / rp).write_text(resp, encoding="utf-8")
        print(f"failure {name}", file=sys.stderr, flush=True)
        results = score_case(a.python, scorer, out, kp, rp, cfgs, None)
        failures["cases"][name] = {"description": desc, "key": kp, "response": rp,
                                   "exit_codes": sorted({r["exit_code"] for r in results.values()}),
                                   "results": results}
    (out / "failures.json").write_text(dumps(failures, 5) + "\n", encoding="utf-8")


def same_tree(a, b):
    cmp = filecmp.dircmp(a, b)
    if cmp.left_only or cmp.right_only or cmp.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, cmp.common_files, shallow=False)
    if mismatch or errors:
        print("differ:", mismatch + errors, file=sys.stderr)
        return False
    return all(same_tree(a / d, b / d) for d in cmp.common_dirs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scorer", required=True, help="path to corefud-scorer.py")
    ap.add_argument("--python", required=True, help="Python with udapi, numpy and scipy")
    ap.add_argument("--scorer-commit", default=SCORER_COMMIT)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--cases", type=int, default=40, help="synthetic cases")
    ap.add_argument("--gum-dir", default=str(SHARED / "coref" / "ontogum" / "conllu"))
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--check", action="store_true", help="regenerate into a temporary directory and compare")
    a = ap.parse_args()
    return write_or_check(Path(a.out), lambda new: build(new, a), a.check)


def write_or_check(out: Path, build_into, check: bool) -> int:
    """Build the data into a temporary folder, then compare it with ``out`` (``check``: exit status 1 if
    different) or replace ``out`` with it."""
    with tempfile.TemporaryDirectory() as tmp:
        new = Path(tmp) / out.name
        build_into(new)
        if check:
            ok = same_tree(new, out)
            print("identical" if ok else "DIFFERENT", file=sys.stderr)
            return 0 if ok else 1
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(new, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
