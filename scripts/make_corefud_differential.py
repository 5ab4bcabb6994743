#!/usr/bin/env python3
"""Differential test data for CorefUD: many small generated key/response pairs with the features the official
scorer reads with surprising semantics, and what corefud-scorer 1.2 prints and counts for each of them.

Writes ``tests/data/corefud_differential/expected.json.gz`` (gzip without a time stamp: the same arguments give
the same bytes).  The pairs are not stored: ``pair(spec)`` regenerates them from ``scripts/gen_conllu.py``
(seeded) and each case records the SHA-256 of both texts, so a changed generator is noticed.  Per case and
configuration (matching exact / partial / head x singletons kept / dropped x zero matching dependent / linear):
the scorer's standard output, or the class and first line of the exception it stops with, and its summed counts
per metric (``[p_num, p_den, r_num, r_den]``; BLANC: coreference links, then non-coreference links), read from
its own modules (the scorer's code is not part of this repository).

Features (``gen_conllu.Params`` and ``gen_conllu.widen``) beside the generator's usual ones (nested, crossing
and discontinuous mentions, zeros, empty nodes with DEPS, multiword tokens, ties, shared heads): a mention in
two entities on the key and the response side, the same span twice in one entity with the same or another
head, heads outside the mention where the scorer ignores or reinterprets them, documents without mentions.

With ``--quirks``: ``quirks.json.gz`` beside it, cases of issue 36's classes (``QUIRKS``: a generated pair, then
an edit udapi reads otherwise than written or stops on: headers, head digits, comment blocks, short lines, blank
lines, newdoc ids); where the scorer crashes on a class fastscore scores with a warning, its figures on the pair
without the edit too (``plain_results``).

Get ufal/corefud-scorer (v1.2, commit 4fd7b0e) and a Python with its requirements (udapi, numpy, scipy), then:

    python scripts/make_corefud_differential.py --scorer DIR/corefud-scorer.py --python VENV/bin/python
        [--seed 24] [--cases 240] [--check]
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_conllu as gen
import make_corefud_anchors as anchors

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "corefud_differential"
FILE = "expected.json.gz"


def specs(seed: int, n: int) -> list[dict]:
    """The cases: name, seed, documents, sentences and generator parameters."""
    out = []
    for i in range(n):
        rng = random.Random(seed * 100003 + i)
        params = {"strength": rng.choice((0.1, 0.25, 0.4)), "ties": rng.random() < 0.4,
                  "p_twin_heads": rng.choice((0.0, 0.0, 0.3)), "reuse_eids": rng.random() < 0.2,
                  "p_two_entities": rng.choice((0.0, 0.1, 0.2, 0.35)), "p_duplicate": rng.choice((0.0, 0.1, 0.25)),
                  "p_head_outside": rng.choice((0.0, 0.1, 0.2)), "p_empty_doc": rng.choice((0.0, 0.0, 0.2)),
                  "p_empty": rng.choice((0.0, 0.35, 0.7)), "p_discontinuous": rng.choice((0.08, 0.25))}
        out.append({"name": f"d{i + 1:03d}", "seed": seed * 1000 + i, "documents": rng.randint(1, 3),
                    "sentences": rng.randint(4, 10), "params": params})
    return out


def pair(spec: dict) -> tuple[str, str]:
    """(key text, response text) of a case."""
    p = gen.Params(**spec["params"])
    if p.p_empty == 0.0:
        p.node_ops = False
    rng = random.Random(spec["seed"])
    key = gen.widen(rng, gen.make_key(rng, spec["documents"], spec["sentences"], p), p)
    resp = gen.widen(rng, gen.perturb(rng, key, p), p)
    texts = gen.write_documents(key), gen.write_documents(resp)
    if spec.get("quirk"):
        texts = QUIRKS[spec["quirk"]][0](random.Random(spec["seed"] + 7), *texts)
    return texts


def plain_pair(spec: dict) -> tuple[str, str]:
    """A quirk case's pair without its edit (the reading fastscore gives, with a warning, where the scorer
    crashes)."""
    return pair({k: v for k, v in spec.items() if k != "quirk"})


# ---- issue 36's classes: texts udapi (and so the scorer) reads otherwise than written, or stops on

QUIRKS_FILE = "quirks.json.gz"
_HEADER_LINE = re.compile(r"^# global\.Entity = .*\n", re.M)
_HEAD_FIELD = re.compile(r"(\((?:[^()\-|\t]*)-[^()\-|\t]*-)([0-9]+)")  # an opening's eid, etype, then its head
_SEPARATOR = re.compile(r"\n\n(?=# sent_id)")
_PLAIN_LINE = re.compile(r"^([0-9]+\t[^\t\n]*)((?:\t[^\t\n]*){8})$", re.M)  # a word line, its last 8 columns


def _header_only_in_later_documents(rng, key, resp):
    """The first document has no header (udapi keeps the file's last, for every document)."""
    return tuple(_HEADER_LINE.sub("", t, count=1) for t in (key, resp))


def _header_at_the_end(rng, key, resp):
    """No header but one in a block of comments closing the file."""
    return tuple(_HEADER_LINE.sub("", t) + "# global.Entity = eid-etype-head-other-infstat-minspan-identity\n\n"
                 for t in (key, resp))


def _later_header_without_head(rng, key, resp):
    """The last document's header names no head field: udapi reads no head in the whole file."""
    which = rng.choice(((0,), (1,), (0, 1)))

    def later(t):
        at = [m.start() for m in _HEADER_LINE.finditer(t)]
        return t[:at[-1]] + _HEADER_LINE.sub("# global.Entity = eid-etype\n", t[at[-1]:], count=1)
    return tuple(later(t) if n in which else t for n, t in enumerate((key, resp)))


def _head_in_other_digits(rng, key, resp):
    """Head indices written with Arabic-Indic digits (udapi's int() reads them)."""
    n = rng.randrange(2)
    digits = str.maketrans("0123456789", "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669")
    out = [key, resp]
    out[n] = _HEAD_FIELD.sub(lambda m: m.group(1) + m.group(2).translate(digits), out[n])
    return tuple(out)


def _comment_block(rng, key, resp):
    """A block of comments only (udapi drops it) in one file: at its end, or between two sentences."""
    n = rng.randrange(2)
    out = [key, resp]
    block = "# a comment only\n# sent_id = extra\n"
    places = [m.start() for m in _SEPARATOR.finditer(out[n])]
    if rng.random() < 0.5 or not places:
        out[n] = out[n] + block + "\n"
    else:
        at = rng.choice(places)
        out[n] = out[n][:at] + "\n\n" + block + out[n][at:]
    return tuple(out)


def _short_lines(rng, key, resp):
    """Token lines of one file cut after their 2nd to 9th column (udapi fills in '_')."""
    n = rng.randrange(2)
    out = [key, resp]

    def cut(m):
        if rng.random() > 0.3 or not m.group(2).endswith("\t_"):  # (lines without coreference)
            return m.group(0)
        return m.group(1) + "".join("\t" + c for c in m.group(2).split("\t")[1:][:rng.randrange(8)])
    out[n] = _PLAIN_LINE.sub(cut, out[n])
    return tuple(out)


def _newdoc_trailing_space(rng, key, resp):
    """'# newdoc id = d1 ' in the key only: the scorer's DataAlignError."""
    return key.replace("# newdoc id = d1\n", "# newdoc id = d1 \n", 1), resp


def _leading_empty_line(rng, key, resp):  # the scorer crashes; the reading intended is plain
    return ("\n" + key, resp) if rng.random() < 0.5 else (key, "\n" + resp)


def _line_of_one_space(rng, key, resp):
    n = rng.randrange(2)
    out = [key, resp]
    places = [m.start() for m in _SEPARATOR.finditer(out[n])]
    at = rng.choice(places) if places else len(out[n]) - 1
    out[n] = out[n][:at] + "\n \n" + out[n][at + 2:]
    return tuple(out)


def _one_newline_at_the_end(rng, key, resp):
    return tuple(t.rstrip("\n") + "\n" for t in (key, resp))


# name -> (transform, the scorer crashes where fastscore warns and scores as without it)
QUIRKS = {
    "header_only_in_later_documents": (_header_only_in_later_documents, False),
    "header_at_the_end": (_header_at_the_end, False),
    "later_header_without_head": (_later_header_without_head, False),
    "head_in_other_digits": (_head_in_other_digits, False),
    "comment_block": (_comment_block, False),
    "short_lines": (_short_lines, False),
    "newdoc_trailing_space": (_newdoc_trailing_space, False),
    "leading_empty_line": (_leading_empty_line, True),
    "line_of_one_space": (_line_of_one_space, True),
    "one_newline_at_the_end": (_one_newline_at_the_end, True),
}


def quirk_specs(seed: int, per_class: int) -> list[dict]:
    """Cases of each class: a generated pair (two or three documents), then the class's edit."""
    out = []
    for c, name in enumerate(QUIRKS):
        for spec in specs(seed * 31 + c, per_class):
            spec["documents"] = max(2, spec["documents"])
            out.append(dict(spec, name=f"{name}-{len(out) % per_class + 1:02d}", quirk=name))
    return out


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# Runs in the scorer's Python: argv = scorer folder, then a JSON list of [case, key path, response path].
HARNESS = r'''
import contextlib, importlib, io, json, logging, sys
scorer_dir, cases = sys.argv[1], json.loads(sys.argv[2])
sys.path.insert(0, scorer_dir)
logging.disable(logging.CRITICAL)
cf = importlib.import_module("corefud-scorer")
ua = importlib.import_module("ua-scorer")
from scorer.corefud.reader import CorefUDReader
from scorer.eval import evaluator as ev
loaded, readers = {}, []
load = CorefUDReader.load_conllu
def cached(self, path):  # the scorer never changes a loaded document: read each file once
    if path not in loaded:
        loaded[path] = load(self, path)
    return loaded[path]
CorefUDReader.load_conllu = cached
class Kept(CorefUDReader):
    def __init__(self, **kw):
        super().__init__(**kw)
        readers.append(self)
ua.CorefUDReader = Kept
configs = json.loads(sys.argv[3])
out = {}
for case, key, resp in cases:
    loaded.clear()
    res = {}
    for name, options in configs.items():
        match, single, zero = name.split("-")
        args = cf.corefud_to_ua_args({"key_file": key, "sys_file": resp, "metrics": ["all"],
                                      "keep_singletons": single == "keep", "match": match, "exact_match": False,
                                      "zero_match_method": zero})
        text = io.StringIO()  # the command's whole standard output: the settings, then the scores
        with contextlib.redirect_stdout(text):
            ua.process_arguments(args)
        readers.clear()
        try:
            with contextlib.redirect_stdout(text):
                ua.evaluate(args)
        except BaseException as exc:  # noqa: the scorer's data errors are BaseExceptions
            res[name] = {"error": type(exc).__name__, "message": (str(exc).splitlines() or [""])[0][:300]}
            continue
        infos = readers[-1].doc_coref_infos
        counts = {}
        for metric_name, metric in args["metrics"]:
            subs = metric if isinstance(metric, list) else [metric]
            got = []
            for sub in subs:
                e = ev.Evaluator(sub, beta=1)
                for doc in infos:
                    e.update(infos[doc])
                got.append([float(x) for x in e.get_counts()])
            counts[metric_name] = got if len(got) > 1 else got[0]
        res[name] = {"stdout": text.getvalue(), "counts": counts}
    out[case] = res
print(json.dumps(out))
'''


def build(out: Path, a) -> None:
    scorer_dir = Path(a.scorer).resolve().parent
    cfgs = anchors.configs()
    cases = quirk_specs(a.seed, a.per_class) if a.quirks else specs(a.seed, a.cases)
    expected = {
        "scorer": {"repository": anchors.SCORER_REPO, "commit": a.scorer_commit, "version": "1.2",
                   "sources_sha256": anchors.sha256_tree(scorer_dir)},
        "environment": json.loads(anchors.run([a.python, "-c", anchors.VERSIONS], ROOT)[1]),
        "generator": {"script": "scripts/make_corefud_differential.py", "seed": a.seed,
                      **({"quirks": list(QUIRKS), "per_class": a.per_class} if a.quirks else {"cases": a.cases})},
        "configs": cfgs,
        "notes": ("Per case: the generator's arguments and the SHA-256 of the key and response it writes; per "
                  "configuration the scorer's stdout and its summed counts [p_num, p_den, r_num, r_den] per metric "
                  "(blanc: coreference links, then non-coreference links), or the exception it stops with."),
        "cases": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for spec in cases:
            key, resp = pair(spec)
            kp, rp = Path(tmp) / f"{spec['name']}.key.conllu", Path(tmp) / f"{spec['name']}.response.conllu"
            kp.write_text(key, encoding="utf-8")
            rp.write_text(resp, encoding="utf-8")
            expected["cases"][spec["name"]] = dict(spec, key_sha256=digest(key), response_sha256=digest(resp))
            paths.append([spec["name"], str(kp), str(rp)])
            if spec.get("quirk") and QUIRKS[spec["quirk"]][1]:  # the scorer crashes: its figures without the edit
                plain = [side.with_name(side.name.replace(".conllu", ".plain.conllu")) for side in (kp, rp)]
                for side, text in zip(plain, plain_pair(spec)):
                    side.write_text(text, encoding="utf-8")
                paths.append([spec["name"] + "~plain", *map(str, plain)])
        for lo in range(0, len(paths), 40):  # a few processes: the command line stays short
            chunk = paths[lo:lo + 40]
            print(f"scoring cases {lo + 1}-{lo + len(chunk)}", file=sys.stderr, flush=True)
            p = subprocess.run([a.python, "-c", HARNESS, str(scorer_dir), json.dumps(chunk), json.dumps(cfgs)],
                               capture_output=True, text=True, check=False)
            if p.returncode != 0:
                raise SystemExit(f"harness failed:\n{p.stderr[-3000:]}")
            for name, results in json.loads(p.stdout).items():
                if name.endswith("~plain"):
                    expected["cases"][name[:-len("~plain")]]["plain_results"] = results
                else:
                    expected["cases"][name]["results"] = results
    out.mkdir(parents=True)
    data = (anchors.dumps(expected, 3) + "\n").encode("utf-8")
    (out / (QUIRKS_FILE if a.quirks else FILE)).write_bytes(gzip.compress(data, mtime=0))


def load_quirks() -> dict:
    return load(OUT / QUIRKS_FILE)


def load(path: Path = OUT / FILE) -> dict:
    return json.loads(gzip.decompress(path.read_bytes()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scorer", required=True, help="path to corefud-scorer.py")
    ap.add_argument("--python", required=True, help="Python with udapi, numpy and scipy")
    ap.add_argument("--scorer-commit", default=anchors.SCORER_COMMIT)
    ap.add_argument("--seed", type=int, default=24)
    ap.add_argument("--cases", type=int, default=240)
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--check", action="store_true", help="regenerate into a temporary directory and compare")
    ap.add_argument("--quirks", action="store_true", help=f"issue 36's classes ({QUIRKS_FILE}), not the main cases")
    ap.add_argument("--per-class", type=int, default=8, help="cases per class (--quirks)")
    a = ap.parse_args()
    if a.quirks:  # one file of the folder: built beside the others, not in place of them
        with tempfile.TemporaryDirectory() as tmp:
            build(Path(tmp) / "new", a)
            new, old = Path(tmp) / "new" / QUIRKS_FILE, Path(a.out) / QUIRKS_FILE
            if a.check:
                same = old.exists() and old.read_bytes() == new.read_bytes()
                print("identical" if same else "DIFFERENT", file=sys.stderr)
                return 0 if same else 1
            Path(a.out).mkdir(parents=True, exist_ok=True)
            old.write_bytes(new.read_bytes())
        return 0
    return anchors.write_or_check(Path(a.out), lambda new: build(new, a), a.check)


if __name__ == "__main__":
    sys.exit(main())
