#!/usr/bin/env python3
"""Write kernels/aot_signatures.py: the argument types with which the command line calls each kernel, to be
compiled ahead of time at installation (kernels/_aot_build.py).

    python scripts/aot_signatures.py

Runs every task's command on small bundled inputs in this process, with numba's JIT, and records the
numba types of the arguments of every kernel called from Python.  Rerun it after changing a kernel's arguments: a call
whose types are not listed still works, through the JIT (``kernels/_jit.py``), only slower to start.
"""
from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
D = ROOT / "tests" / "data"
CONLLU = D / "corefud_anchors" / "cases" / "gum_news_crane"
NUGGET = D / "nugget_anchors" / "case-003"
SEQUENCING = D / "sequencing_anchors" / "case-000"
CORPUS = ROOT / "fastscore" / "examples" / "corpus"
MAY_FAIL = "<may fail>"  # a marker in a command, not an option: some anchors are bad input on purpose (exit 1)


def commands(tmp: Path) -> list[list[str]]:
    key, response = f"{CONLLU}.key.conllu", f"{CONLLU}.response.conllu"
    jsonl = [str(tmp / "key.jsonl"), str(tmp / "response.jsonl")]
    from fastscore.examples import KEY, RESPONSE

    out = [
        ["convert", str(KEY), jsonl[0], "--to", "jsonl"],
        ["convert", str(RESPONSE), jsonl[1], "--to", "jsonl"],
        ["coref", "example", "example", "-m", "all"],
        ["coref", "example", "example", "--output", "perl"],
        ["coref", "example", "example", "--singletons", "drop", "--per-doc"],
        # resampling (kernels/resample.py): intervals, both tests of compare, a sweep's intervals
        ["coref", str(KEY), str(RESPONSE), "--bootstrap", "100"],
        # (on the 30-document corpus: a one-document compare runs no test)
        ["compare", str(CORPUS / "key.conll"), str(CORPUS / "response.conll"), str(CORPUS / "key.conll"),
         "--resamples", "100"],
        ["compare", str(CORPUS / "key.conll"), str(CORPUS / "response.conll"), str(CORPUS / "key.conll"),
         "--resamples", "100", "--test", "permutation"],
        ["sweep", str(KEY), str(RESPONSE), str(KEY), "--bootstrap", "100"],
        ["coref", *jsonl],
        ["coref", str(D / "mina_anchors" / "case-000.key.gz"), str(D / "mina_anchors" / "case-000.response.gz"),
         "--match", "mina"],
        ["coref", str(D / "mina_anchors" / "case-000.key.gz"), str(D / "mina_anchors" / "case-000.response.gz"),
         "--match", "mina", "--np-only", "--remove-nested", "--singletons", "drop"],
        ["nugget", str(NUGGET / "gold.char.tbf"), str(NUGGET / "system.char.tbf"), "--char-spans", "--coref"],
        ["nugget", str(NUGGET / "gold.token.tbf"), str(NUGGET / "system.token.tbf"), "--tokens", str(NUGGET / "tkn"),
         "--coref"],
        ["nugget", str(NUGGET / "gold.char.tbf"), str(NUGGET / "system.char.tbf"), "--char-spans", "--mapping",
         "optimal"],
        ["nugget", str(SEQUENCING / "gold.char.tbf"), str(SEQUENCING / "system.char.tbf"), "--char-spans",
         "--sequencing", "--preset", "kbp2017", "--coref"],
    ]
    # a TimeML folder is a corpus of shards: --jobs 1 scores it in this process, where the calls are recorded
    timeml = [str(D / "temporal_anchors" / "chains-0" / "gold"), str(D / "temporal_anchors" / "chains-0" / "system")]
    out += [["temporal", *timeml, "--jobs", "1"], ["temporal", *timeml, "--fix-toolkit-quirks", "--jobs", "1"]]
    trp = D / "triples_anchors" / "case-003"
    for side in ("gold", "system"):  # folders of two documents: shards of one document each, and the module's
        (tmp / f"trp-{side}").mkdir()  # report matches the whole corpus again (the parallel matching: PARALLEL_FROM)
        for name in ("a", "b"):
            (tmp / f"trp-{side}" / f"{name}.trp").write_bytes((trp / f"{side}.trp").read_bytes())
    out += [["triples", str(trp / "gold.trp"), str(trp / "system.trp")],
            ["triples", str(tmp / "trp-gold"), str(tmp / "trp-system"), "--jobs", "1", "--output", "module"]]
    ua = D / "ua_anchors" / "edge-readings"  # the UA reader's scanner (kernels/ua_scan.py)
    out += [["coref", f"{ua}.key", f"{ua}.sys", "--format", "ua"],
            ["coref", f"{ua}.key", f"{ua}.sys", "--format", "ua", "--bridging", "--non-referring"]]
    for k in sorted((D / "anchors").glob("*.key")):  # v8.01's anchors: repeated mentions, singletons, ...
        out.append(["coref", str(k), str(k.with_suffix(".response")), "-m", "all", MAY_FAIL])
    # generated corpora: the readers' byte scanners and the matchers' tie paths need regular, larger input
    sys.path.insert(0, str(ROOT / "scripts"))
    import gen_conllu
    import gen_nuggets

    gen_nuggets.generate(tmp / "nuggets", docs=40, links=True)
    gen_conllu.main(["--seed", "3", "--docs", "10", "--sentences", "1500", "--out", str(tmp), "--name", "g", "--ties",
                     "--twin-heads", "0.2"])
    nuggets = [str(tmp / "nuggets" / "gold.tbf"), str(tmp / "nuggets" / "system.tbf")]
    out.append(["nugget", *nuggets, "--char-spans", "--coref"])
    out.append(["nugget", *nuggets, "--char-spans", "--sequencing", "--preset", "kbp2017", "--no-script-validation"])
    for k, r in ((key, response), (str(tmp / "g.key.conllu"), str(tmp / "g.response.conllu"))):
        for match in ("head", "partial", "exact"):
            out.append(["coref", k, r, "--match", match, "-m", "all", "-m", "mor", "-m", "zero"])
        out.append(["coref", k, r, "--zero-match", "linear", "--singletons", "keep"])
    return out


def spec(ty) -> tuple | None:
    """The compact form of a numba type that _jit.fits checks without numba, or None (not exported)."""
    from numba.core import types
    from numba.np.numpy_support import as_dtype

    if isinstance(ty, types.Array) and ty.layout in ("C", "A") and ty.aligned:
        return ("array", as_dtype(ty.dtype).name, ty.ndim, ty.layout, not ty.mutable)
    for name, t in (("int64", types.int64), ("float64", types.float64), ("bool", types.boolean)):
        if ty == t:
            return ("scalar", name)
    return None


def record() -> dict[str, list]:
    os.environ["FASTSCORE_JIT"] = "always"  # numba's dispatchers, whose calls are recorded (before any kernel loads)
    import numba
    from numba.core.dispatcher import Dispatcher

    calls: dict[str, list] = {}
    base_call = Dispatcher.__call__  # numba's C dispatch; calls from compiled code do not come here

    def recording(self, *args, **kws):
        module = self.py_func.__module__
        if module.startswith("fastscore.kernels."):
            argtys = tuple(self.typeof_pyval(a) for a in args)
            key = f"{module.rsplit('.', 1)[-1]}.{self.py_func.__name__}"
            calls.setdefault(key, [])
            if argtys not in calls[key]:
                calls[key].append(argtys)
        return base_call(self, *args, **kws)

    Dispatcher.__call__ = recording
    from fastscore.cli import main
    from fastscore.triples import engine as triples_engine

    triples_engine.PARALLEL_FROM = 0  # the kernel for large corpora, on the small ones here

    with tempfile.TemporaryDirectory() as tmp:
        for cmd in commands(Path(tmp)):
            may_fail = MAY_FAIL in cmd
            cmd = [c for c in cmd if c != MAY_FAIL]
            err = io.StringIO()
            try:
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                    code = main(cmd)
            except SystemExit as exc:  # a usage error
                code = exc.code
            if code and not (may_fail and code == 1):
                raise SystemExit(f"failed ({code}): fastscore {' '.join(cmd)}\n{err.getvalue()}")
    Dispatcher.__call__ = base_call
    out = {}
    for key, sigs in sorted(calls.items()):
        entries = []
        for argtys in sigs:
            specs = [spec(t) for t in argtys]
            if None in specs:
                print(f"not compiled ahead of time: {key}{argtys} (types kernels/_jit.fits does not check)")
                continue
            entries.append((tuple(specs), tuple(repr(t) for t in argtys)))
        if entries:
            out[key] = entries
    assert numba  # imported: the JIT ran
    return out


HEADER = '''"""Generated by scripts/aot_signatures.py: the argument types of the kernels the command line calls, compiled
ahead of time at installation (kernels/_aot_build.py).  Per kernel, each signature: the compact argument
types checked before a call (kernels/_jit.fits) and numba's argument types (numba infers the return type
when it compiles).  Do not edit."""

SIGNATURES = {
'''


def main() -> None:
    os.environ.pop("NUMBA_DISABLE_JIT", None)
    os.environ["FASTSCORE_JIT"] = "always"  # numba's dispatchers, whose calls are recorded
    signatures = record()
    lines = [HEADER]
    for key, entries in signatures.items():
        lines.append(f"    {key!r}: [\n")
        for specs, args in entries:
            lines.append(f"        ({specs!r},\n         {args!r}),\n")
        lines.append("    ],\n")
    lines.append("}\n")
    target = ROOT / "kernels" / "aot_signatures.py"
    target.write_text("".join(lines), encoding="utf-8")
    n = sum(len(e) for e in signatures.values())
    print(f"{target}: {len(signatures)} kernels, {n} signatures")


if __name__ == "__main__":
    main()
