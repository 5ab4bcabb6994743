"""Readable tables (text, Markdown) and CSV of coreference scores."""
from __future__ import annotations

import csv as _csv
import io

from ..metrics import PRF as PRF_KEYS


def rows(scores: dict) -> list[tuple[str, dict]]:
    """(row name, object) pairs: mentions, each metric; BLANC's two link kinds before BLANC."""
    out = [("mentions", scores["mentions"])]
    for name, obj in scores["metrics"].items():
        if name == "blanc":
            out.append(("blanc-coref", obj["coref_links"]))
            out.append(("blanc-noncoref", obj["noncoref_links"]))
        out.append((name, obj))
    return out


def _pct(obj: dict, key: str) -> str:
    return f"{100 * obj[key]:.2f}" if key in obj else ""


def _ci(obj: dict) -> str:
    return f"[{100 * obj['ci'][0]:.2f}, {100 * obj['ci'][1]:.2f}]" if "ci" in obj else ""


def _ci_head(result) -> str:
    return f"{result.bootstrap.level * 100:g}% CI of F1" if result.bootstrap is not None else ""


def _ci_note(result) -> list[str]:
    b = result.bootstrap
    if b is None:
        return []
    return [f"intervals: {b.method} bootstrap, {b.resamples} resamples of documents, seed {b.seed}"]


def text(result, per_doc: bool = False) -> str:
    scores = result.scores()
    lines = [f"key:      {result.key_path}", f"response: {result.response_path}",
             f"documents: {len(result.doc_stats)}", ""]
    ci = _ci_head(result)
    lines.append(f"{'metric':<15}{'recall':>9}{'precision':>11}{'F1':>9}" + (f"  {ci}" if ci else ""))
    for name, obj in rows(scores):
        line = f"{name:<15}{_pct(obj, 'recall'):>9}{_pct(obj, 'precision'):>11}{_pct(obj, 'f1'):>9}"
        lines.append((line + "  " + _ci(obj)).rstrip() if ci else line)
    if per_doc:
        metrics = list(scores["metrics"])
        width = max([len(n) for n in result.documents] + [8])
        lines += ["", "F1 per document", f"{'document':<{width}}" + "".join(f"{m:>9}" for m in metrics)]
        for name in result.documents:
            doc = result.document(name)["metrics"]
            lines.append(f"{name:<{width}}" + "".join(f"{100 * doc[m]['f1']:>9.2f}" for m in metrics))
    lines += ["", *_ci_note(result), f"signature: {result.signature()}"]
    return "\n".join(lines) + "\n"


def csv(result, per_doc: bool = False) -> str:
    buf = io.StringIO()
    w = _csv.writer(buf, lineterminator="\n")
    ci = result.bootstrap is not None
    w.writerow(["document", "metric", *PRF_KEYS, "recall", "precision", "f1", *(("ci_low", "ci_high") if ci else ())])
    scopes = [("", result.scores())]
    if per_doc:
        scopes += [(name, result.document(name)) for name in result.documents]
    for scope, scores in scopes:
        for name, obj in rows(scores):
            interval = [repr(float(x)) for x in obj["ci"]] if "ci" in obj else ["", ""]
            w.writerow([scope, name, *(obj.get(k, "") for k in PRF_KEYS),
                        *(repr(float(obj[k])) if k in obj else "" for k in ("recall", "precision", "f1")),
                        *(interval if ci else ())])
    return buf.getvalue()


def markdown(result, per_doc: bool = False) -> str:
    scores = result.scores()
    ci = _ci_head(result)
    lines = ["| metric | recall | precision | F1 |" + (f" {ci} |" if ci else ""),
             "|---|---:|---:|---:|" + ("---:|" if ci else "")]
    for name, obj in rows(scores):
        lines.append(f"| {name} | {_pct(obj, 'recall')} | {_pct(obj, 'precision')} | {_pct(obj, 'f1')} |"
                     + (f" {_ci(obj)} |" if ci else ""))
    if per_doc:
        metrics = list(scores["metrics"])
        lines += ["", "| document | " + " | ".join(metrics) + " |", "|---|" + "---:|" * len(metrics)]
        for name in result.documents:
            doc = result.document(name)["metrics"]
            cells = " | ".join(f"{100 * doc[m]['f1']:.2f}" for m in metrics)
            lines.append(f"| {name.replace('|', chr(92) + '|')} | {cells} |")
    lines += ["", *_ci_note(result), f"`{result.signature()}`"]
    return "\n".join(lines) + "\n"
