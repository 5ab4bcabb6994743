"""The ``fastscore`` command.  It only parses arguments and calls the API.

Exit codes: 0 scored, 1 invalid input, 2 bad usage.  ``--help`` and
``--version`` do not import numba.
"""
from __future__ import annotations

import argparse
import os
import sys

from ._version import __version__
from .errors import FastscoreError, UsageError

METRIC_CHOICES = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll", "all")
ONE_METRIC = ("conll", "muc", "bcub", "ceafe", "ceafm", "blanc", "lea")

COMPARE_EXAMPLE = """\
examples:
  fastscore compare key.conll baseline.conll sysA.conll sysB.conll
  fastscore compare key.conll base.conll new.conll --metric muc --test permutation --output latex
"""

SWEEP_EXAMPLE = """\
examples:
  fastscore sweep key.conll outputs/                      # every *.conll in the folder
  fastscore sweep key.conll 'runs/*/dev.conll' --bootstrap 1000 --output markdown
"""

NUGGET_EXAMPLE = """\
examples:
  fastscore nugget gold.tbf system.tbf --tokens tkn/                     # TAC KBP 2015 rules, token ids
  fastscore nugget gold.tbf system.tbf --preset kbp2016 --coref          # 2016/2017 rules, character spans
  fastscore nugget gold.tbf system.tbf --preset kbp2017 --output evmeval # the official report layout
"""

COREF_EXAMPLE = """\
examples:
  fastscore coref example example          # the bundled example (TC-A / TC-A-4)
  fastscore coref key.conll response.conll
  fastscore coref key.conll response.conll -m muc bcub ceafe --output json
  fastscore coref key.conll response.conll --output perl -m bcub   # v8.01's report layout
  fastscore coref key.conll response.conll --bootstrap 1000          # 95% intervals
"""


def _statistics_options(p: argparse.ArgumentParser, resamples_flag: str, default: int) -> None:
    p.add_argument(resamples_flag, type=int, default=default, metavar="N",
                   help=f"bootstrap resamples (default {default})")
    p.add_argument("--ci", type=float, default=0.95, metavar="LEVEL", help="confidence level (default 0.95)")
    p.add_argument("--ci-method", choices=("percentile", "bca"), default="percentile",
                   help="interval method (default percentile)")
    p.add_argument("--seed", type=int, default=12345, help="random seed (default 12345)")


def _scoring_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--singletons", choices=("keep", "drop"), default="keep",
                   help="keep one-mention clusters (v8.01, default) or drop them from key and response")
    p.add_argument("--allow-repeated", action="store_true",
                   help="score a response with more than 10 repeated mentions (v8.01 refuses to)")


def _nugget_options(p: argparse.ArgumentParser, with_coref_flag: bool = True) -> None:
    g = p.add_argument_group("event nuggets (--task nugget, and fastscore nugget)")
    g.add_argument("--tokens", metavar="DIR", help="folder of token tables: spans are token ids")
    g.add_argument("--token-ext", default=".tab", help="token table file extension (default .tab)")
    g.add_argument("--char-spans", action="store_true", help="spans are character ranges b,e;b,e")
    g.add_argument("--preset", choices=("kbp2015", "kbp2016", "kbp2017"), default="kbp2015",
                   help="kbp2015 = scorer_v1.7.1 (default), kbp2016/kbp2017 = scorer_v1.8")
    g.add_argument("--invisible-words", metavar="FILE|none",
                   help="words removed from token spans (default: the preset's; kbp2015 has a list)")
    if with_coref_flag:
        g.add_argument("--coref", action="store_true", help="also score event coreference")
    g.add_argument("--coref-mapping", choices=("span", "type", "realis", "type+realis"), default="type",
                   help="which mention mapping aligns coreference mentions (default type)")
    g.add_argument("--coref-threshold", type=float, default=1.0, metavar="X",
                   help="minimum Dice of an aligned coreference mention pair (default 1.0)")
    g.add_argument("--type-whitelist", metavar="FILE", help="score only these types (one per line)")
    g.add_argument("--mapping", choices=("greedy", "optimal"), default="greedy",
                   help="greedy (official) or optimal (maximum-weight, not official)")
    g.add_argument("--sequencing", action="store_true",
                   help="also score event sequencing (@After/@Subevent links; scorer_v1.8 -a; kbp2016/kbp2017)")
    g.add_argument("--no-script-validation", action="store_true",
                   help="score sequencing links that run both ways between two clusters (scorer_v1.8 -nv)")
    g.add_argument("--sequencing-graph", choices=("official", "exact"), default="official",
                   help="official: the TempEval-3 timegraph EvmEval uses (default); exact: the exact temporal "
                        "closure (corrects the timegraph's wrong entailments; not official)")


def _task_arguments(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--task", choices=("coref", "nugget"), default="coref",
                   help="coref (CoNLL files, default) or nugget (TAC KBP TBF files)")
    p.add_argument("--metric", metavar="METRIC",
                   help=f"{what}: coref {'|'.join(ONE_METRIC)} (default conll); nugget span|type|realis|"
                        "type+realis (micro), ...-macro, and with --coref muc|bcub|ceafe|ceafm|blanc|coref-average "
                        "(default span)")


def _nugget_kwargs(args) -> dict:
    """The score_nugget options of the nugget option group."""
    return {"preset": args.preset, "tokens": args.tokens, "token_ext": args.token_ext, "char_spans": args.char_spans,
            "invisible_words": args.invisible_words, "coref": args.coref, "coref_mapping": args.coref_mapping,
            "coref_threshold": args.coref_threshold, "type_whitelist": args.type_whitelist,
            "mapping": args.mapping, "sequencing": args.sequencing,
            "no_script_validation": args.no_script_validation, "sequencing_graph": args.sequencing_graph}


def _task_options(args) -> dict:
    if args.task == "coref":
        return {"singletons": args.singletons, "allow_repeated": args.allow_repeated}
    return _nugget_kwargs(args)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fastscore",
        description="Exact, fast scorers for coreference (CoNLL-2012 reference scorer v8.01, LEA), "
                    "with bootstrap intervals, significance tests and sweeps.",
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
    _scoring_options(c)
    c.add_argument("--doc", metavar="NAME", help="score only this key document (its full name, part included)")
    c.add_argument("--per-doc", action="store_true", help="also report every document")
    c.add_argument("--output", "-o", choices=("text", "perl", "json", "csv", "markdown"), default="text",
                   help="text (readable table, default), perl (v8.01 report layout), json, csv, markdown")
    c.add_argument("--totals-only", action="store_true",
                   help="with --output perl: only the TOTALS (as v8.01 with the name 'none')")
    _statistics_options(c, "--bootstrap", 0)

    m = sub.add_parser(
        "compare", help="paired significance tests of systems against a baseline",
        description="Compare systems with a baseline on the same gold: scores with intervals, differences "
                    "with intervals, p-values (paired bootstrap or approximate randomization) and "
                    "Holm-Bonferroni adjusted p-values.",
        epilog=COMPARE_EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    m.add_argument("key", metavar="KEY", help="gold CoNLL file")
    m.add_argument("baseline", metavar="BASELINE", help="baseline system output")
    m.add_argument("systems", metavar="SYSTEM", nargs="+", help="system outputs to compare with the baseline")
    _task_arguments(m, "metric whose F1 is compared")
    m.add_argument("--test", choices=("bootstrap", "permutation"), default="bootstrap",
                   help="paired bootstrap (default) or approximate randomization")
    _statistics_options(m, "--resamples", 10000)
    _scoring_options(m)
    _nugget_options(m)
    m.add_argument("--output", "-o", choices=("text", "json", "markdown", "latex"), default="text")
    m.add_argument("--plot", metavar="FILE.png", help="draw the bootstrap distributions of the differences")

    w = sub.add_parser(
        "sweep", help="score many system outputs against one gold",
        description="Score many system outputs against one gold (read once), best first.",
        epilog=SWEEP_EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    w.add_argument("key", metavar="KEY", help="gold CoNLL file")
    w.add_argument("systems", metavar="SYSTEM", nargs="+",
                   help="system outputs: files, folders (every *.conll, or *.tbf with --task nugget) or glob patterns")
    _task_arguments(w, "ranking metric")
    _statistics_options(w, "--bootstrap", 0)
    _scoring_options(w)
    _nugget_options(w)
    w.add_argument("--output", "-o", choices=("text", "csv", "json", "markdown", "latex"), default="text")
    n = sub.add_parser(
        "nugget", help="score TAC KBP event nuggets and event coreference (TBF), as EvmEval does",
        description="Score TAC KBP event nugget detection (span, type, realis) and event coreference with "
                    "the numbers of the official EvmEval scorer (kbp2015 = scorer_v1.7.1, kbp2016/2017 = v1.8).",
        epilog=NUGGET_EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    n.add_argument("gold", metavar="GOLD", help="gold TBF file")
    n.add_argument("system", metavar="SYSTEM", help="system TBF file")
    _nugget_options(n)
    n.add_argument("--per-type-mapping", choices=("type+realis", "type"), default="type+realis",
                   help="mapping behind the per-type table: type+realis (EvmEval's, default) or type (corrected)")
    n.add_argument("--doc", metavar="ID", help="score only this document")
    n.add_argument("--diff", metavar="FILE", help="write the gold/system mention mapping to FILE")
    n.add_argument("--timeml", metavar="DIR",
                   help="with --sequencing: also write EvmEval's -a folder (TYPE/gold|sys/DOC.tml, TYPE/seq.out)")
    n.add_argument("--per-doc", action="store_true", help="also report every document")
    n.add_argument("--output", "-o", choices=("text", "evmeval", "json", "csv", "markdown"), default="text",
                   help="text (default), evmeval (the official report layout), json, csv, markdown")
    _statistics_options(n, "--bootstrap", 0)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return {"coref": _coref, "compare": _compare, "sweep": _sweep, "nugget": _nugget}[args.command](args)
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
    if args.bootstrap:
        from .api import bootstrap

        bootstrap(result, args.bootstrap, level=args.ci, seed=args.seed, method=args.ci_method)
    for warning in result.warnings:
        print(f"fastscore: warning: {warning}", file=sys.stderr)
    sys.stdout.write(render(result, args.output, per_doc=args.per_doc, totals_only=args.totals_only))
    return 0


def _nugget(args) -> int:
    from .api import score_nugget
    from .report import evmeval

    result = score_nugget(args.gold, args.system, doc=args.doc, per_type_mapping=args.per_type_mapping,
                          **_nugget_kwargs(args))
    for warning in result.warnings:
        print(f"fastscore: warning: {warning}", file=sys.stderr)
    if args.bootstrap:
        from .api import bootstrap

        bootstrap(result, args.bootstrap, level=args.ci, seed=args.seed, method=args.ci_method)
    if args.diff:
        from .nugget.diff import write_diff

        write_diff(result, args.diff)
    if args.timeml:
        if result.sequencing is None:
            raise UsageError("--timeml needs --sequencing")
        from .nugget.sequencing import write_timeml

        write_timeml(result.sequencing, args.timeml)
    sys.stdout.write(evmeval.render(result, args.output, per_doc=args.per_doc))
    return 0


def _compare(args) -> int:
    from .api import compare
    from .report import stats_tables

    result = compare(args.key, args.baseline, args.systems, args.metric, task=args.task, test=args.test,
                     resamples=args.resamples, seed=args.seed, level=args.ci, method=args.ci_method,
                     **_task_options(args))
    if args.plot:
        from .report.plot import plot_deltas

        plot_deltas(result, args.plot)
    sys.stdout.write(stats_tables.comparison(result, args.output))
    return 0


def expand_systems(items: list[str], ext: str = ".conll") -> list[str]:
    """Files as given; folders -> their *EXT files (sorted); glob patterns -> their matches (sorted)."""
    import glob

    out: list[str] = []
    for item in items:
        if os.path.isdir(item):
            found = sorted(glob.glob(os.path.join(glob.escape(item), "*" + ext)))
            if not found:
                raise UsageError(f"{item}: folder has no *{ext} file")
            out += found
        elif glob.has_magic(item) and not os.path.exists(item):
            found = sorted(glob.glob(item))
            if not found:
                raise UsageError(f"{item}: the pattern matches no file")
            out += found
        else:
            out.append(item)
    return out


def _sweep(args) -> int:
    from .api import sweep
    from .report import stats_tables

    systems = expand_systems(args.systems, ".conll" if args.task == "coref" else ".tbf")
    result = sweep(args.key, systems, args.metric, task=args.task, resamples=args.bootstrap, seed=args.seed,
                   level=args.ci, method=args.ci_method, progress=_progress("scoring"), **_task_options(args))
    sys.stdout.write(stats_tables.sweep(result, args.output))
    return 0


def _progress(what: str):
    """A progress callback writing to stderr, or None when stderr is not a terminal."""
    if not sys.stderr.isatty():
        return None

    def report(done: int, total: int) -> None:
        end = "\n" if done == total else ""
        print(f"\r{what} {done}/{total}", end=end, file=sys.stderr, flush=True)

    return report


def run() -> None:
    """Console entry point: ``main``, then exit without tearing the interpreter down.

    After a large run the interpreter would spend a noticeable time (0.4 s on the
    5,000-document nugget benchmark) freeing objects one by one; the output is
    flushed first, and nothing else needs the orderly shutdown.
    """
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader of our output went away (e.g. `| head`)
        code = code or 1
    os._exit(code)


if __name__ == "__main__":
    run()
