"""Readable tables (text, Markdown) and CSV of coreference scores."""
from __future__ import annotations

from ...metrics import PRF as PRF_KEYS
from ...report.cells import (ci_head, ci_note, ci_of, csv_scores, markdown_per_document, markdown_scores,
                              pct_of)


NO_ZEROS = "zero: no row, no zero (empty node) to score on either side"


def without_zeros(scores: dict) -> bool:
    """Whether the zero metric counts nothing on either side (CoNLL-U files without empty nodes): the readable
    tables then leave its row of 0.00 out, with :data:`NO_ZEROS` under them."""
    zero = scores["metrics"].get("zero")
    return zero is not None and zero["recall_den"] == zero["precision_den"] == 0


def shown_metrics(scores: dict) -> list[str]:
    """The metrics a readable table shows: every one, but ``zero`` where neither side has zeros."""
    return [m for m in scores["metrics"] if not (m == "zero" and without_zeros(scores))]


def rows(scores: dict, shown: list[str] | None = None) -> list[tuple[str, dict]]:
    """(row name, object) pairs: mentions, each metric (those ``shown``, default all); BLANC's two link kinds
    before BLANC."""
    out = [("mentions", scores["mentions"])]
    for name, obj in scores["metrics"].items():
        if shown is not None and name not in shown:
            continue
        if name == "blanc":
            out.append(("blanc-coref", obj["coref_links"]))
            out.append(("blanc-noncoref", obj["noncoref_links"]))
        out.append((name, obj))
    return out


def text(result, per_doc: bool = False) -> str:
    scores = result.scores()
    lines = [f"key:      {result.key_path}", f"response: {result.response_path}",
             f"documents: {len(result.doc_stats)}", ""]
    ci = ci_head(result, " of F1")
    lines.append(f"{'metric':<15}{'recall':>9}{'precision':>11}{'F1':>9}" + (f"  {ci}" if ci else ""))
    metrics = shown_metrics(scores)
    for name, obj in rows(scores, metrics):
        line = f"{name:<15}{pct_of(obj, 'recall'):>9}{pct_of(obj, 'precision'):>11}{pct_of(obj, 'f1'):>9}"
        lines.append((line + "  " + ci_of(obj)).rstrip() if ci else line)
    if per_doc:
        width = max([len(n) for n in result.documents] + [8])
        lines += ["", "F1 per document", f"{'document':<{width}}" + "".join(f"{m:>9}" for m in metrics)]
        for name in result.documents:
            doc = result.document(name)["metrics"]
            lines.append(f"{name:<{width}}" + "".join(f"{100 * doc[m]['f1']:>9.2f}" for m in metrics))
    lines += ["", NO_ZEROS] * without_zeros(scores)
    lines += ["", *ci_note(result), f"signature: {result.signature()}"]
    return "\n".join(lines) + "\n"


def csv(result, per_doc: bool = False) -> str:
    scopes = [("", rows(result.scores()))]
    scopes += [(name, rows(result.document(name))) for name in result.documents] if per_doc else []
    return csv_scores(result, scopes, ("recall", "precision", "f1"), counts=PRF_KEYS)


def markdown(result, per_doc: bool = False) -> str:
    scores = result.scores()
    metrics = shown_metrics(scores)
    lines = markdown_scores(rows(scores, metrics), ("recall", "precision", "f1"), ci_head(result, " of F1"))
    if per_doc:
        lines += markdown_per_document(metrics, (
            (name.replace("|", "\\|"), [f"{100 * result.document(name)['metrics'][m]['f1']:.2f}" for m in metrics])
            for name in result.documents))
    lines += ["", NO_ZEROS] * without_zeros(scores)
    lines += ["", *ci_note(result), f"`{result.signature()}`"]
    return "\n".join(lines) + "\n"
