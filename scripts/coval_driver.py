#!/usr/bin/env python3
"""Exact numbers from coval (ns-moosavi/coval) for one key/response pair, in several configurations.

Run with the coval venv, coval's folder on the path:

    VENV/bin/python scripts/coval_driver.py --coval COVAL_DIR KEY SYS CONFIG [CONFIG ...]

CONFIG is a '+'-joined set of coval's flags (min_span, remove_singletons, NP_only, remove_nested), or
'plain' for none.  Prints one JSON object: per configuration, the documents (key file order), per metric
the totals [p_num, p_den, r_num, r_den] (coval's Evaluator, documents added in order) and the per-document
rows (get_document_evaluations), what coval printed while reading (captured: remove_nested prints mentions),
and, when coval raised, the exception.  Floats are Python floats (JSON keeps repr's digits).
A tool to make tests/data/mina_anchors (scripts/make_mina_anchors.py); it copies nothing of coval.
"""
import argparse
import contextlib
import io
import json
import sys
import traceback

FLAGS = ("min_span", "remove_singletons", "NP_only", "remove_nested")
METRICS = ("mentions", "muc", "b_cubed", "ceafe", "ceafm", "lea")


def number(x):
    x = float(x)
    return int(x) if x.is_integer() and abs(x) < 2 ** 53 else x


def clusters_of(clusters):
    """Each mention as [sentence, start, end, min spans sorted by (index, string)] (inclusive end)."""
    return [[[m.sent_num, m.start, m.end, sorted(([t, i] for t, i in m.min_spans), key=lambda e: (e[1], e[0]))]
             for m in c] for c in clusters]


def run(reader, evaluator, key, sys_file, flags, dump=False):
    out = io.StringIO()
    record = {}
    try:
        with contextlib.redirect_stdout(out):
            infos = reader.get_coref_infos(key, sys_file, "NP_only" in flags, "remove_nested" in flags,
                                           "remove_singletons" not in flags, "min_span" in flags)
            record["docs"] = [d.rstrip("\n") for d in infos]
            totals, per_doc = {}, {}
            for name in METRICS:
                metric = getattr(evaluator, name)
                ev = evaluator.Evaluator(metric)
                for d in infos:
                    ev.update(infos[d])
                totals[name] = [number(v) for v in ev.get_counts()]
                pn, pd, rn, rd = evaluator.get_document_evaluations(infos, metric)
                per_doc[name] = [[number(a), number(b), number(c), number(e)] for a, b, c, e in zip(pn, pd, rn, rd)]
            record["totals"] = totals
            record["per_doc"] = per_doc
            if dump:
                record["clusters"] = [{"key": clusters_of(infos[d][0]), "sys": clusters_of(infos[d][1])}
                                      for d in infos]
    except BaseException as err:  # SystemExit too: coval calls sys.exit on some input
        tb = traceback.extract_tb(err.__traceback__)
        where = tb[-1] if tb else None
        record = {"error": {"type": type(err).__name__, "message": str(err),
                            "where": f"{where.filename.rsplit('/coval/', 1)[-1]}:{where.lineno} {where.name}"
                            if where else None}}
    record["printed"] = out.getvalue()
    return record


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--coval", required=True)
    ap.add_argument("key")
    ap.add_argument("sys_file")
    ap.add_argument("configs", nargs="+")
    ap.add_argument("--mentions", action="store_true", help="also each side's clusters with min spans")
    args = ap.parse_args()
    sys.path.insert(0, args.coval)
    from coval.conll import reader
    from coval.eval import evaluator

    result = {}
    for config in args.configs:
        flags = () if config == "plain" else tuple(config.split("+"))
        unknown = set(flags) - set(FLAGS)
        if unknown:
            sys.exit(f"unknown flags {sorted(unknown)}")
        result[config] = run(reader, evaluator, args.key, args.sys_file, flags, args.mentions)
    json.dump(result, sys.stdout, indent=None, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
