"""The coreference task: CoNLL-2011/2012 files, the numbers of the reference scorer v8.01 (and coval's LEA).

Light at import (the command line is built from it): the engine is imported when something is scored.
"""
from __future__ import annotations

import argparse

from ..task import Option, Task

METRIC_CHOICES = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll", "all")
ONE_METRIC = ("conll", "muc", "bcub", "ceafe", "ceafm", "blanc", "lea")

EXAMPLE = """\
examples:
  fastscore coref example example          # the bundled example (TC-A / TC-A-4)
  fastscore coref key.conll response.conll
  fastscore coref key.conll response.conll -m muc -m bcub -m ceafe --output json
  fastscore coref key.conll response.conll --output perl -m bcub   # v8.01's report layout
  fastscore coref key.conll response.conll --bootstrap 1000          # 95% intervals
"""



def _metric_names(text: str) -> str:
    """A `-m` value: one metric name, or several separated by commas."""
    wrong = [n for n in text.split(",") if n.strip().lower() not in METRIC_CHOICES]
    if wrong:
        raise argparse.ArgumentTypeError(f"unknown metric {wrong[0]!r}: choose from {', '.join(METRIC_CHOICES)}")
    return text


OPTIONS = (
    Option(("-m", "--metric"), "metrics", f"metric to report: {', '.join(METRIC_CHOICES)} (repeatable, or "
           "comma-separated; default: all)", type=_metric_names, metavar="METRIC", repeatable=True,
           scope="command"),
    Option(("--singletons",), "singletons", "keep one-mention clusters (v8.01, default) or drop them from key "
           "and response", default="keep", choices=("keep", "drop")),
    Option(("--allow-repeated",), "allow_repeated", "score a response with more than 10 repeated mentions "
           "(v8.01 refuses to)", switch=True, default=False),
    Option(("--doc",), "doc", "score only this key document (its full name, part included)", metavar="NAME",
           scope="command"),
    Option(("--totals-only",), "totals_only", "with --output perl: only the TOTALS (as v8.01 with the name "
           "'none')", switch=True, default=False, scope="report"),
)


def _read(source):
    from .score import read

    return read(source)


def _doc_names(table) -> list[str]:
    return list(table.doc_names)


def _score(key, response, **options):
    from .score import score_coref

    return score_coref(key, response, **options)


def _report(result, fmt: str, per_doc: bool = False, totals_only: bool = False) -> str:
    from ..errors import UsageError
    from ..report import render

    if fmt == "perl" and result.bootstrap is not None:
        raise UsageError("--output perl is v8.01's report, which has no place for intervals: use --bootstrap "
                         "with --output text, json, csv or markdown")
    if totals_only and fmt != "perl":
        raise UsageError("--totals-only shapes the v8.01 report: use it with --output perl")

    return render(result, fmt, per_doc=per_doc, totals_only=totals_only)


def _bundled() -> tuple[str, str]:
    from ..examples import KEY, RESPONSE

    return str(KEY), str(RESPONSE)


COREF = Task(
    name="coref",
    summary="score CoNLL-2011/2012 coreference output (MUC, B3, CEAF, BLANC, LEA, CoNLL)",
    description="Score a CoNLL-2011/2012 response against a key, with the numbers of the CoNLL reference "
                "scorer v8.01 (and coval's LEA).",
    example=EXAMPLE,
    gold_help="gold CoNLL file ('example' for the bundled example)",
    system_help="system CoNLL file ('example' for the bundled example)",
    extensions=(".conll",),
    default_metric="conll",
    metric_help=f"{'|'.join(ONE_METRIC)} (default conll)",
    outputs=(("text", "readable table, default"), ("perl", "v8.01 report layout"), ("json", "JSON"),
             ("csv", "CSV"), ("markdown", "Markdown")),
    options=OPTIONS,
    read=_read,
    doc_names=_doc_names,
    score=_score,
    report=_report,
    bundled_example=_bundled,
    input_names=("KEY", "RESPONSE"),
)
