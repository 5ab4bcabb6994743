"""Reports of a TempEval-3 run: ``te3`` (the toolkit's printed lines, to the digit), a readable
table (``text``), JSON, CSV and Markdown."""
from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal

from ..report.cells import ci_head, ci_note, ci_of, csv_scores, markdown_per_document, markdown_scores, pct_of
from .entities import KINDS

METHOD_LINE = {"te3": "", "acl11": "Evaluated with ACL'11 score, not taking the reduced graph for relations.",
               "implicit_in_recall": "Evaluated considering implicit relations in recall as well"}


def py2_round(x: float, digits: int) -> float:
    """Python 2's ``round``: the exact binary value rounded half away from zero."""
    return float(Decimal(float(x)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def py2_str(x: float) -> str:
    """Python 2's ``str`` of a float: 12 significant digits, ``.0`` on whole numbers."""
    s = format(float(x), ".12g")
    return s if any(c in s for c in ".ein") else s + ".0"


def _ent(x: float) -> str:  # evaluate_entities.py: str(round(x*100, 2))
    return py2_str(py2_round(float(x) * 100, 2))


def _rel(x: float) -> str:  # temporal_evaluation.py: str(100*round(x, 6))
    return py2_str(100 * py2_round(x, 6))


def te3(result) -> str:
    """What the toolkit prints (after its normaliser's own lines): the entity block, then the relation block."""
    out = []
    if "entities" in result.parts:
        e = result.entities()
        for kind, title, attrs in (("event", "Event", ("class", "tense", "aspect")),
                                   ("timex", "Timex", ("value", "type"))):
            k = e[kind]
            out.append(f"=== {title} Performance ===")
            for m, name in (("strict", "Strict Match"), ("relaxed", "Relaxed Match")):
                out.append(f"{name}\tF1\tP\tR")
                out.append("\t\t" + "\t".join(_ent(k[m][x]) for x in ("f1", "precision", "recall")))
            out.append("Attribute F1\t" + "\t".join(a.capitalize() for a in attrs))
            out.append("\t\t" + "\t".join(_ent(k["attributes"][a]) for a in attrs))
            out.append("")
    if "relations" in result.parts:
        r = result.relations()
        f, p, rc = (_rel(r[x]) for x in ("f1", "precision", "recall"))
        out += ["=== Temporal Awareness Score ===", METHOD_LINE[result.method], "Temporal Score\tF1\tP\tR",
                f"\t\t{f}\t{p}\t{rc}\t", f"Overall Temporal Awareness Score (F1 score): {f}", ""]
    return "\n".join(out) + "\n"


def _rows(result, scores: dict) -> list[tuple[str, dict]]:
    """(row name, object with precision / recall / f1 or f1 only, optional ci)."""
    rows = []
    if scores["relations"] is not None:
        rows.append(("temporal awareness", scores["relations"]))
    if scores["entities"] is not None:
        for kind, attrs in KINDS.items():
            k = scores["entities"][kind]
            rows.append((f"{kind} strict", k["strict"]))
            rows.append((f"{kind} relaxed", k["relaxed"]))
            for a in attrs:
                obj = {"f1": k["attributes"][a]}
                if a in k.get("attribute_ci", {}):
                    obj["ci"] = k["attribute_ci"][a]
                rows.append((f"{kind} {a}", obj))
    return rows


def _numbers(result, per_doc: bool) -> dict:
    """The JSON object's numbers; the documents' (``per_doc``) only when they are printed (a corpus of many
    documents spends more on them than on its totals)."""
    return result.to_dict() if per_doc else result.summary()


def text(result, per_doc: bool = False) -> str:
    d = _numbers(result, per_doc)
    ci = ci_head(result, " of F1")
    lines = [f"gold:      {result.gold.path}", f"system:    {result.system.path}",
             f"documents: {len(result.documents)}   method: {result.method}"
             + ("   (--fix-toolkit-quirks: exact closure)" if result.fix_toolkit_quirks else ""), ""]
    lines.append(f"{'':<20}{'precision':>10}{'recall':>9}{'F1':>9}" + (f"  {ci}" if ci else ""))
    for name, obj in _rows(result, d):
        line = f"{name:<20}{pct_of(obj, 'precision'):>10}{pct_of(obj, 'recall'):>9}{pct_of(obj, 'f1'):>9}"
        lines.append((line + "  " + ci_of(obj)).rstrip() if ci else line)
    if d["relations"] is not None:
        r = d["relations"]
        lines += ["", f"relations: {r['system_verified']:g} of {r['system_total']:g} system relations verified, "
                      f"{r['gold_verified']:g} of {r['gold_total']:g} gold relations verified"]
    if per_doc:
        metrics = [n for n, _ in _rows(result, d)]
        width = max([len(n) for n in result.documents] + [8])
        lines += ["", "F1 per document", f"{'document':<{width}}" + "".join(f"{m:>20}" for m in metrics)]
        for name, scores in d["per_doc"].items():
            lines.append(f"{name:<{width}}" + "".join(f"{pct_of(obj, 'f1'):>20}" for _, obj in _rows(result, scores)))
    if result.bootstrap is not None:
        lines += ["", *ci_note(result)]
    lines += ["", f"signature: {result.signature()}"]
    return "\n".join(lines) + "\n"


def csv(result, per_doc: bool = False) -> str:
    d = _numbers(result, per_doc)
    scopes = [("", _rows(result, d))] + ([(n, _rows(result, s)) for n, s in d["per_doc"].items()] if per_doc else [])
    return csv_scores(result, scopes, ("precision", "recall", "f1"))


def markdown(result, per_doc: bool = False) -> str:
    d = _numbers(result, per_doc)
    lines = markdown_scores(_rows(result, d), ("precision", "recall", "f1"), ci_head(result, " of F1"), ci_rule="---|")
    if per_doc:
        lines += markdown_per_document([n for n, _ in _rows(result, d)], (
            (name, [pct_of(obj, "f1") for _, obj in _rows(result, scores)]) for name, scores in d["per_doc"].items()))
    return "\n".join(lines) + "\n"


def render(result, fmt: str, per_doc: bool = False) -> str:
    if fmt == "te3":
        return te3(result)
    if fmt == "json":
        return json.dumps(result.to_dict(per_doc), indent=2) + "\n"
    return {"csv": csv, "markdown": markdown}.get(fmt, text)(result, per_doc)
