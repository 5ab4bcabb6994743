#!/usr/bin/env python3
"""Test data for scoring by file (``fastscore coref GOLD_DIR SYS_DIR --by-file``, the CRAC ranking): a few small
"treebanks" (generated CorefUD files, and OntoGUM documents) with seeded perturbed systems, and what corefud-scorer
1.2 counts on each gold/system file pair with each CRAC preset's options.

Writes ``tests/data/crac_datasets/expected.json``.  The files are not stored: :func:`write_datasets` regenerates
them (``scripts/gen_conllu.py``, seeded; the OntoGUM ones from the shared data) and each one's SHA-256 is kept,
so a changed generator is noticed.  Per system, dataset and configuration (``match-singletons-zeros``: the
scorer's ``-a``, ``-s`` and ``-z``): its summed counts per metric (``[p_num, p_den, r_num, r_den]``; BLANC:
coreference links, then non-coreference links) read from its own modules (the harness of
``make_corefud_differential.py``), its printed ``CoNLL score`` and the CoNLL F1 computed from its counts as it
computes it (the mean of the MUC, B-cubed and CEAFe F1).

Get ufal/corefud-scorer (v1.2, commit 4fd7b0e) and a Python with its requirements (udapi, numpy, scipy), then:

    python scripts/make_crac_datasets.py --scorer DIR/corefud-scorer.py --python VENV/bin/python [--check]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_conllu as gen  # noqa: E402
import make_corefud_anchors as anchors  # noqa: E402
import make_corefud_differential as differential  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "crac_datasets"
FILE = "expected.json"
ONTOGUM = Path("gum") / "coref" / "ontogum" / "conllu"  # under the shared data folder

# the scorer's options of each CRAC preset (crac2025 has crac2024's)
PRESETS = {"crac2022": "partial-drop-linear", "crac2023": "head-drop-linear", "crac2024": "head-drop-dependent",
           "crac2025": "head-drop-dependent"}

# the treebanks: generated ones (one to three documents; zeros, discontinuous mentions, ties) and OntoGUM documents
DATASETS = (
    {"name": "xx_plain", "seed": 11, "documents": 3, "sentences": 12, "params": {"p_empty": 0.0}},
    {"name": "xx_zeros", "seed": 12, "documents": 2, "sentences": 10, "params": {"p_empty": 0.7}},
    {"name": "xx_discontinuous", "seed": 13, "documents": 3, "sentences": 9,
     "params": {"p_discontinuous": 0.25, "ties": True}},
    {"name": "xx_one_doc", "seed": 14, "documents": 1, "sentences": 8, "params": {"p_empty": 0.35}},
    {"name": "en_ontogum_a", "ontogum": ["GUM_news_worship", "GUM_news_stampede"]},
    {"name": "en_ontogum_b", "ontogum": ["GUM_news_crane"]},
)
# the systems: how strongly each perturbs every key
SYSTEMS = {"sys_a": 0.15, "sys_b": 0.3, "sys_c": 0.5}


def _params(spec: dict, strength: float | None = None) -> gen.Params:
    p = gen.Params(**spec.get("params", {}))
    if strength is not None:
        p.strength = strength
    if p.p_empty == 0.0 or "ontogum" in spec:
        p.node_ops = False
    return p


def key_text(spec: dict, shared: Path) -> str:
    """A dataset's gold file."""
    if "ontogum" in spec:
        return "".join((shared / ONTOGUM / f"{name}.conllu").read_text(encoding="utf-8").rstrip("\n") + "\n\n"
                       for name in spec["ontogum"])
    rng = random.Random(spec["seed"])
    return gen.write_documents(gen.make_key(rng, spec["documents"], spec["sentences"], _params(spec)))


def system_text(spec: dict, key: str, system: str) -> str:
    """A system's file of a dataset: the key perturbed with the system's strength (seeded by both names)."""
    seed = int(hashlib.sha256(f"{system}/{spec['name']}".encode()).hexdigest()[:8], 16)
    return gen.perturb_text(seed, key, _params(spec, SYSTEMS[system]))


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_datasets(folder: Path, shared: Path, systems=tuple(SYSTEMS), expected: dict | None = None) -> Path:
    """``folder/gold/NAME.conllu`` and ``folder/SYSTEM/NAME.conllu`` for every dataset (checked against the
    digests of ``expected``, when given); returns ``folder``."""
    (folder / "gold").mkdir(parents=True, exist_ok=True)
    for spec in DATASETS:
        key = key_text(spec, shared)
        _check(expected, ["gold", spec["name"]], key)
        (folder / "gold" / f"{spec['name']}.conllu").write_text(key, encoding="utf-8")
        for system in systems:
            text = system_text(spec, key, system)
            _check(expected, [system, spec["name"]], text)
            (folder / system).mkdir(exist_ok=True)
            (folder / system / f"{spec['name']}.conllu").write_text(text, encoding="utf-8")
    return folder


def _check(expected: dict | None, where: list[str], text: str) -> None:
    if expected is not None and expected["sha256"][where[0]][where[1]] != digest(text):
        raise AssertionError(f"{'/'.join(where)}: the generator changed: rerun scripts/make_crac_datasets.py")


def f1(counts: list[float]) -> float:
    """F1 from ``[p_num, p_den, r_num, r_den]`` as the scorer's evaluator computes it."""
    p_num, p_den, r_num, r_den = counts
    p = p_num / p_den if p_den else 0.0
    r = r_num / r_den if r_den else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def build(out: Path, a) -> None:
    scorer_dir = Path(a.scorer).resolve().parent
    shared = Path(a.shared)
    configs = {c: {} for c in dict.fromkeys(PRESETS.values())}
    expected = {
        "scorer": {"repository": anchors.SCORER_REPO, "commit": a.scorer_commit, "version": "1.2",
                   "sources_sha256": anchors.sha256_tree(scorer_dir)},
        "environment": json.loads(anchors.run([a.python, "-c", anchors.VERSIONS], ROOT)[1]),
        "generator": {"script": "scripts/make_crac_datasets.py", "datasets": list(DATASETS), "systems": SYSTEMS},
        "presets": PRESETS,
        "notes": ("sha256: of each generated file (gold, then each system, by dataset). results[system][dataset]"
                  "[config]: the scorer's summed counts [p_num, p_den, r_num, r_den] per metric (blanc: "
                  "coreference links, then non-coreference links), its printed CoNLL score, and conll_f1: the "
                  "mean F1 of muc, bcub and ceafe from those counts."),
        "sha256": {}, "results": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_datasets(Path(tmp), shared)
        for side in ["gold", *SYSTEMS]:
            expected["sha256"][side] = {spec["name"]: digest((folder / side / f"{spec['name']}.conllu").read_text(
                encoding="utf-8")) for spec in DATASETS}
        cases = [[f"{system}/{spec['name']}", str(folder / "gold" / f"{spec['name']}.conllu"),
                  str(folder / system / f"{spec['name']}.conllu")] for system in SYSTEMS for spec in DATASETS]
        print(f"scoring {len(cases)} pairs x {len(configs)} configurations", file=sys.stderr, flush=True)
        p = subprocess.run([a.python, "-c", differential.HARNESS, str(scorer_dir), json.dumps(cases),
                            json.dumps(configs)], capture_output=True, text=True, check=False)
        if p.returncode != 0:
            raise SystemExit(f"harness failed:\n{p.stderr[-3000:]}")
        for case, results in json.loads(p.stdout).items():
            system, name = case.split("/")
            for config, got in results.items():
                if "error" in got:
                    raise SystemExit(f"{case} {config}: the scorer stops ({got['error']}: {got['message']}): "
                                     "choose other seeds")
                counts = got["counts"]
                printed = float(re.search(r"CoNLL score: ([0-9.]+)", got["stdout"]).group(1))
                conll = sum(f1(counts[m]) for m in ("muc", "bcub", "ceafe")) / 3
                assert abs(100 * conll - printed) <= 0.005 + 1e-9, (case, config, conll, printed)
                expected["results"].setdefault(system, {}).setdefault(name, {})[config] = {
                    "counts": counts, "printed_conll": printed, "conll_f1": conll}
    out.mkdir(parents=True)
    (out / FILE).write_text(anchors.dumps(expected, 4) + "\n", encoding="utf-8")


def load(path: Path = OUT / FILE) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scorer", required=True, help="path to corefud-scorer.py")
    ap.add_argument("--python", required=True, help="Python with udapi, numpy and scipy")
    ap.add_argument("--scorer-commit", default=anchors.SCORER_COMMIT)
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"),
                    help="the shared test data folder (OntoGUM)")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--check", action="store_true", help="regenerate into a temporary directory and compare")
    a = ap.parse_args()
    return anchors.write_or_check(Path(a.out), lambda new: build(new, a), a.check)


if __name__ == "__main__":
    sys.exit(main())
