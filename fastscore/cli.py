"""The ``fastscore`` command.  It only parses arguments and calls the API.

Exit codes: 0 scored, 1 invalid input, 2 bad usage.  ``--help`` and
``--version`` do not import numba.
"""
from __future__ import annotations

import argparse
import sys

from ._version import __version__
from .errors import FastscoreError, UsageError

METRIC_CHOICES = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll", "all")

COREF_EXAMPLE = """\
examples:
  fastscore coref example example          # the bundled example (TC-A / TC-A-4)
  fastscore coref key.conll response.conll
  fastscore coref key.conll response.conll -m muc bcub ceafe --output json
  fastscore coref key.conll response.conll --output perl -m bcub   # v8.01's report layout
"""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fastscore",
        description="Exact, fast scorers for coreference (CoNLL-2012 reference scorer v8.01, LEA).",
    )
    p.add_argument("--version", action="version", version=f"fastscore {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    c = sub.add_parser(
        "coref", help="score CoNLL-2011/2012 coreference output (MUC, B3, CEAF, BLANC, LEA, CoNLL)",
        description="Score a CoNLL-2011/2012 response against a key, with the numbers of the "
                    "CoNLL reference scorer v8.01 (and coval's LEA).",
        epilog=COREF_EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    c.add_argument("key", metavar="KEY", help="gold CoNLL file ('example' for the bundled example)")
    c.add_argument("response", metavar="RESPONSE", help="system CoNLL file ('example' for the bundled example)")
    c.add_argument("-m", "--metric", dest="metrics", nargs="+", action="extend", choices=METRIC_CHOICES,
                   metavar="METRIC", help=f"metrics to report: {', '.join(METRIC_CHOICES)} (default: all)")
    c.add_argument("--singletons", choices=("keep", "drop"), default="keep",
                   help="keep one-mention clusters (v8.01, default) or drop them from key and response")
    c.add_argument("--doc", metavar="NAME", help="score only this key document (its full name, part included)")
    c.add_argument("--per-doc", action="store_true", help="also report every document")
    c.add_argument("--output", "-o", choices=("text", "perl", "json", "csv", "markdown"), default="text",
                   help="text (readable table, default), perl (v8.01 report layout), json, csv, markdown")
    c.add_argument("--totals-only", action="store_true",
                   help="with --output perl: only the TOTALS (as v8.01 with the name 'none')")
    c.add_argument("--allow-repeated", action="store_true",
                   help="score a response with more than 10 repeated mentions (v8.01 refuses to)")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return _coref(args)
    except UsageError as exc:
        print(f"fastscore: error: {exc}", file=sys.stderr)
        return 2
    except FastscoreError as exc:
        print(f"fastscore: error: {exc}", file=sys.stderr)
        return 1


def _coref(args) -> int:
    from .api import score_coref
    from .report import render

    if args.key == "example" and args.response == "example":
        from .examples import KEY, RESPONSE

        args.key, args.response = str(KEY), str(RESPONSE)
    result = score_coref(args.key, args.response, args.metrics, singletons=args.singletons, doc=args.doc,
                         allow_repeated=args.allow_repeated)
    for warning in result.warnings:
        print(f"fastscore: warning: {warning}", file=sys.stderr)
    sys.stdout.write(render(result, args.output, per_doc=args.per_doc, totals_only=args.totals_only))
    return 0


if __name__ == "__main__":
    sys.exit(main())
