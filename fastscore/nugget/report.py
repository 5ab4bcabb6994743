"""Event nugget reports: EvmEval's layout (to the digit), a readable table, CSV, Markdown."""
from __future__ import annotations

import csv as _csv
import io
import json
import math
from itertools import chain

from .options import ATTRIBUTES, COREF_METRICS, EVMEVAL_COREF_ORDER, REPORTED, SKIPPED
from .sequencing import official_section
from ..report.cells import ci_head, ci_note, interval, pct

SMALL_HEADER = "Prec  \tRec  \tF1   "
EVMEVAL_NAMES = ("plain", "mention_type", "realis_status", "mention_type+realis_status")


def _pad(s: str, n: int) -> str:
    """``s`` right-aligned to ``n`` bytes, as Python 2's "%*s" aligns EvmEval's byte strings."""
    return " " * (n - _bytes(s)) + s


def _bytes(s: str) -> int:
    return len(s.encode("utf-8", "surrogateescape"))


def _document_rows(result, width: int) -> str:
    """One line per document (P, R, F1 of every attribute), formatted at once: one format string for all."""
    ids = [_pad(d, width) for d in result.documents]
    scores = [result.doc_score_rows(a, percent=True) for a in range(len(ATTRIBUTES))]
    line = "%s\t" + "\t|\t".join(["%.2f\t%.2f\t%.2f"] * len(ATTRIBUTES)) + "\n"
    values: list = []
    for d, doc_id in enumerate(ids):
        values += [doc_id, *chain.from_iterable(rows[d] for rows in scores)]
    return (line * len(ids)) % tuple(values)


def official(result) -> str:
    """The report of EvmEval's scorer (print_eval_results), without its log lines."""
    out = []
    width = max((_bytes(d) for d in result.documents), default=0)
    headers = [_pad(n, len(SMALL_HEADER)) for n in EVMEVAL_NAMES]
    out.append("========Document Mention Detection Results==========\n")
    out.append(_pad("", width) + "\t" + "\t|\t".join(headers) + "\n")
    out.append(_pad("Doc ID", width) + "\t" + "\t|\t".join([SMALL_HEADER] * len(EVMEVAL_NAMES)) + "\n")
    out.append(_document_rows(result, width))
    per_type = result.per_type()
    out.append("\n\n========Mention Type Results==========\n")
    if per_type:
        tw = max(_bytes(t) for t in per_type)
        out.append("%s\tPrec\tRec\tF1\t#Gold\t#Sys\n" % _pad("Type", tw))
        zero = lambda x: 0 if math.isnan(x) else x
        for t, o in per_type.items():
            out.append("%s\t%.2f\t%.2f\t%.2f\t%d\t%d\n" % (_pad(t, tw), zero(o["precision"]), zero(o["recall"]),
                                                          zero(o["f1"]), o["gold"], o["system"]))
    out.append("\n=======Final Mention Detection Results=========\n")
    aw = max(len(h) for h in headers)
    out.append(_pad("", aw) + "\t" + "\t".join(_pad(h, len(SMALL_HEADER)) for h in ("Micro Average",
                                                                                    "Macro Average")) + "\n")
    out.append(_pad("Attributes", aw) + "\t" + "\t".join([SMALL_HEADER] * 2) + "\n")
    for a, header in enumerate(headers):
        avg = result.averages(a, percent=True)
        values = [avg[k][m] for k in ("micro", "macro") for m in ("precision", "recall", "f1")]
        out.append(_pad(header, aw) + "\t" + "\t".join("%.2f" % v for v in values) + "\n")
    coref = result.coref_scores()
    if coref is not None:
        out.append("\n=======Final Mention Coreference Results=========\n")
        printed = coref["printed_percent"]
        for m in EVMEVAL_COREF_ORDER:
            out.append(("Metric : %s\tScore\t%.2f *\n" if m == SKIPPED else "Metric : %s\tScore\t%.2f\n")
                       % (m, printed[m]))
        out.append("Overall Average CoNLL score\t%.2f\n" % coref["average_percent"])
        out.append("\n* Score not included for final CoNLL score.\n")
    if result.sequencing is not None:
        out.append(official_section({k: result.sequencing_scores(k) for k in REPORTED}))
    return "".join(out)


def _ci(result, metric: str) -> str:
    return interval(result.intervals().get(metric))


def text(result, per_doc: bool = False) -> str:
    undefined = []

    def shown(x) -> str:
        """A percentage, or "-" for a score that divides by zero (noted under the table)."""
        if x is None or math.isnan(x):
            undefined.append(x)
            return "-"
        return pct(x)

    lines = [f"gold:     {result.gold.path}", f"system:   {result.system.path}",
             f"documents: {len(result.documents)}", f"rules:    {result.options.preset.scorer}"]
    if result.options.mapping == "optimal":
        lines.append("mapping:  optimal (maximum-weight one-to-one; not the official greedy mapping)")
    head = ci_head(result)
    with_ci = (lambda line, metric: (line + "  " + _ci(result, metric)).rstrip()) if head else (lambda line, _: line)
    lines += ["",
             f"{'attribute':<14}{'micro P':>9}{'R':>8}{'F1':>8}{'macro P':>10}{'R':>8}{'F1':>8}"
             + (f"  micro F1 {head}" if head else "")]
    for a, name in enumerate(ATTRIBUTES):
        avg = result.averages(a)
        mi, ma = avg["micro"], avg["macro"]
        lines.append(with_ci(f"{name:<14}{shown(mi['precision']):>9}{shown(mi['recall']):>8}{shown(mi['f1']):>8}"
                             f"{shown(ma['precision']):>10}{shown(ma['recall']):>8}{shown(ma['f1']):>8}", name))
    coref = result.coref_scores()
    if coref is not None:
        lines += ["", f"{'coreference':<14}{'recall':>9}{'precision':>11}{'F1':>9}" + (f"  {head}" if head else "")]
        for m in COREF_METRICS:
            o = coref[m]
            lines.append(with_ci(f"{m:<14}{shown(o['recall']):>9}{shown(o['precision']):>11}{shown(o['f1']):>9}", m))
        lines.append(f"{'average':<14}{'':>9}{'':>11}{shown(coref['average']):>9}  (official: mean of the "
                     "truncated F1 of bcub, ceafe, muc, blanc)"
                     + (f"; untruncated mean: {head} {_ci(result, 'coref-average')}" if head else ""))
    if result.sequencing is not None:
        lines += ["", f"{'sequencing':<14}{'recall':>9}{'precision':>11}{'F1':>9}{'gold':>7}{'system':>8}"
                  + (f"  {head}" if head else "")]
        for kind in REPORTED:
            o = result.sequencing_scores(kind)
            lines.append(with_ci(f"{kind:<14}{shown(o['recall']):>9}{shown(o['precision']):>11}{shown(o['f1']):>9}"
                                 f"{o['gold']:>7}{o['system']:>8}", f"sequencing-{kind.lower()}"))
        lines.append("(temporal awareness, implicit relations in recall: scorer_v1.8 -a"
                     + ("; exact closure, not the official timegraph)" if result.options.sequencing_graph == "exact"
                        else ")"))
    if per_doc:
        width = max([len(d) for d in result.documents] + [8])
        lines += ["", "span F1 per document", f"{'document':<{width}}{'P':>8}{'R':>8}{'F1':>8}"]
        for d, doc_id in enumerate(result.documents):
            p, r, f = result.doc_scores(d, 0)
            lines.append(f"{doc_id:<{width}}{shown(p):>8}{shown(r):>8}{shown(f):>8}")
    if undefined:
        lines += ["", "-: not defined, a division by zero (a precision with no system mention, a recall with no gold "
                  "mention, an F1 of a precision and a recall both 0 or not defined; EvmEval prints nan)"]
    lines += ["", *ci_note(result, " (of the micro F1, and of each F1 shown)"), f"signature: {result.signature()}"]
    return "\n".join(lines) + "\n"


def csv(result, per_doc: bool = False) -> str:
    buf = io.StringIO()
    w = _csv.writer(buf, lineterminator="\n")
    with_ci = result.bootstrap is not None
    w.writerow(["document", "attribute", "average", "precision", "recall", "f1", "tp", "system", "gold",
                *(("ci_low", "ci_high") if with_ci else ())])
    num = lambda x: "" if x is None or (isinstance(x, float) and math.isnan(x)) else repr(float(x))

    def interval(metric):
        ci = result.intervals().get(metric)
        return () if not with_ci else ("", "") if ci is None else (repr(float(ci[0])), repr(float(ci[1])))

    for a, name in enumerate(ATTRIBUTES):
        avg = result.averages(a)
        mi, ma = avg["micro"], avg["macro"]
        w.writerow(["", name, "micro", num(mi["precision"]), num(mi["recall"]), num(mi["f1"]), repr(float(mi["tp"])),
                    mi["system"], mi["gold"], *interval(name)])
        w.writerow(["", name, "macro", num(ma["precision"]), num(ma["recall"]), num(ma["f1"]), "", "", "",
                    *interval(f"{name}-macro")])
    coref = result.coref_scores()
    if coref is not None and with_ci:  # coreference rows only with intervals, so the plain CSV is unchanged
        for m in COREF_METRICS:
            o = coref[m]
            w.writerow(["", m, "", num(o["precision"]), num(o["recall"]), num(o["f1"]), "", "", "", *interval(m)])
        w.writerow(["", "coref-average", "", "", "", num(coref["average"]), "", "", "", *interval("coref-average")])
    if result.sequencing is not None:
        for kind in REPORTED:
            o = result.sequencing_scores(kind)
            w.writerow(["", f"sequencing-{kind.lower()}", "micro", num(o["precision"]), num(o["recall"]),
                        num(o["f1"]), "", o["system"], o["gold"], *interval(f"sequencing-{kind.lower()}")])
    if per_doc:
        for d, doc_id in enumerate(result.documents):
            row = result.doc_stats.row(d)
            for a, name in enumerate(ATTRIBUTES):
                p, r, f = result.doc_scores(d, a)
                w.writerow([doc_id, name, "", num(p), num(r), num(f), repr(float(row[f"{name}_tp"])),
                            int(row["system_mentions"]), int(row["gold"]), *(("", "") if with_ci else ())])
    return buf.getvalue()


def markdown(result, per_doc: bool = False) -> str:
    head = ci_head(result)
    col = (lambda metric: f" {_ci(result, metric)} |") if head else (lambda metric: "")
    lines = ["| attribute | micro P | micro R | micro F1 | macro P | macro R | macro F1 |"
             + (f" micro F1 {head} |" if head else ""), "|---|" + "---:|" * (7 if head else 6)]
    for a, name in enumerate(ATTRIBUTES):
        avg = result.averages(a)
        mi, ma = avg["micro"], avg["macro"]
        cells = [mi["precision"], mi["recall"], mi["f1"], ma["precision"], ma["recall"], ma["f1"]]
        lines.append(f"| {name} | " + " | ".join(pct(c) for c in cells) + " |" + col(name))
    coref = result.coref_scores()
    if coref is not None:
        lines += ["", "| coreference | F1 |" + (f" {head} |" if head else ""), "|---|---:|" + ("---:|" if head else "")]
        lines += [f"| {m} | {pct(coref[m]['f1'])} |" + col(m) for m in COREF_METRICS]
        lines.append(f"| average (official) | {pct(coref['average'])} |" + (" |" if head else ""))
    if result.sequencing is not None:
        lines += ["", "| sequencing | P | R | F1 |" + (f" {head} |" if head else ""),
                  "|---|---:|---:|---:|" + ("---:|" if head else "")]
        for kind in REPORTED:
            o = result.sequencing_scores(kind)
            lines.append(f"| {kind} | {pct(o['precision'])} | {pct(o['recall'])} | {pct(o['f1'])} |"
                         + col(f"sequencing-{kind.lower()}"))
    lines += ["", *ci_note(result, " (of the micro F1, and of each F1 shown)"), f"`{result.signature()}`"]
    return "\n".join(lines) + "\n"


def render(result, fmt: str, per_doc: bool = False) -> str:
    if fmt == "evmeval":
        return official(result)
    if fmt == "json":
        return json.dumps(result.to_dict(per_doc=per_doc), indent=2) + "\n"
    return {"text": text, "csv": csv, "markdown": markdown}[fmt](result, per_doc)
