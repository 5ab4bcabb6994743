#!/usr/bin/env python3
"""Driver of the UA scorer for scripts/make_ua_anchors.py: run with a Python that has numpy and scipy, from any
folder, as ``python ua_driver.py SCORER_DIR < jobs.json``.  Each job ``{"key", "sys", "flags"}`` gets one JSON line:
the scorer's report (ua-scorer.py run with those flags, its standard output), and the numerators and denominators of
its evaluator per metric (``[pn, pd, rn, rd]``, and the split-antecedent alignment's), or the error it raised
(``AssertionError``, ``timeout`` after 3 s: the ElementOf cycles it loops on)."""
import contextlib
import io
import json
import runpy
import signal
import sys
import traceback

sys.path.insert(0, sys.argv[1])
from coval.ua import reader  # noqa: E402
from coval.eval import evaluator  # noqa: E402

METRICS = {"muc": evaluator.muc, "bcub": evaluator.b_cubed, "ceafe": evaluator.ceafe, "ceafm": evaluator.ceafm,
           "lea": evaluator.lea, "blancc": evaluator.blancc, "blancn": evaluator.blancn}


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


def counts(key, sys_, flags):
    keep_singletons = "remove_singletons" not in flags
    keep_split = "remove_split_antecedent" not in flags
    use_min = "min" in flags
    nonref = "keep_non_referring" in flags
    bridging = "keep_bridging" in flags
    only_split = "only_split_antecedent" in flags
    deixis = "evaluate_discourse_deixis" in flags
    if only_split:
        keep_split, keep_singletons, bridging, nonref = True, True, False, False
    if deixis:
        keep_split, keep_singletons, bridging, nonref = True, True, False, False
    with contextlib.redirect_stdout(io.StringIO()):
        infos, _, _ = reader.get_coref_infos(key, sys_, keep_singletons, keep_split, bridging, nonref, deixis,
                                             use_min)
    out = {}
    for name, metric in METRICS.items():
        e = evaluator.Evaluator(metric)
        for doc in infos:
            e.update(infos[doc])
        out[name] = [float(x) for x in e.get_counts()] + [float(x) for x in e.split_antecedent_counter]
    return out


def main():
    signal.signal(signal.SIGALRM, _alarm)
    script = sys.argv[1] + "/ua-scorer.py"
    for line in sys.stdin:
        job = json.loads(line)
        result = {}
        signal.alarm(3)
        try:
            buf = io.StringIO()
            argv = sys.argv
            sys.argv = ["ua-scorer.py", job["key"], job["sys"], *job["flags"]]
            try:
                with contextlib.redirect_stdout(buf):
                    runpy.run_path(script, run_name="__main__")
            finally:
                sys.argv = argv
            result["report"] = buf.getvalue()
            result["counts"] = counts(job["key"], job["sys"], job["flags"])
        except Timeout:
            result = {"error": "timeout"}
        except Exception as e:  # what the scorer raises
            result = {"error": type(e).__name__, "detail": traceback.format_exception_only(type(e), e)[-1].strip()}
        finally:
            signal.alarm(0)
        print(json.dumps(result), flush=True)


main()
