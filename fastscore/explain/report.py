"""Reports of the explain task: text, JSON, and one self-contained HTML page."""
from __future__ import annotations

import html
import json

from ..errors import UsageError
from ..messages import counted
from ..outputs import write_output
from ..report.cells import interval
from .analyser import ERRORS, TITLES
from .result import TYPES, ExplainResult, error_dict, span_error_notes, where as mention_where


def render(result: ExplainResult, fmt: str, per_doc: bool = False, file: str | None = None) -> str:
    if file is not None and fmt != "html":
        raise UsageError(f"--output {fmt} writes to standard output: only html takes a FILE")
    if fmt == "json":
        return json.dumps(result.to_dict(per_doc), indent=2) + "\n"
    if fmt == "html":
        page = html_page(result)
        if file is None:
            return page
        write_output(file, page)  # complete or not at all; OSError -> one line naming the file
        return f"wrote {file} ({len(page.encode('utf-8')):,} bytes, {counted(len(result.analysed), 'document')})\n"
    if fmt != "text":
        raise UsageError(f"unknown output {fmt!r}: choose text, json or html")
    return text(result, per_doc)


def _ci(result: ExplainResult, metric: str) -> str:
    return interval(result.intervals().get(metric), lambda count: f"{count:g}")


def untyped_note(result: ExplainResult) -> str:
    """Why mentions are of type unknown, said once: documents without part-of-speech tags ("" when none)."""
    untyped = sum(d.doc.tags is None for d in result.analysed)
    if not untyped:
        return ""
    return (f"unknown: no part-of-speech tags in {untyped} of {counted(len(result.analysed), 'document')} (LitBank's "
            "CoNLL files and jsonlines files have none), so their mentions are not typed")


def text(result: ExplainResult, per_doc: bool = False) -> str:
    totals = result.totals()
    by_type = result.by_mention_type()
    head = f"{'error':<20}{'count':>8}" + ("  interval" if result.bootstrap else "")
    lines = [f"{counted(len(result.analysed), 'document')}, {totals['key_mentions']} key mentions, "
             f"{totals['response_mentions']} response mentions", "",
             "Kummerfeld & Klein error types (mentions involved by type: " + ", ".join(TYPES) + ")", head]
    for e in ERRORS:
        types = " ".join(str(by_type[e][t]) for t in TYPES)
        lines.append(f"{TITLES[e]:<20}{totals[e]:>8}  {_ci(result, e)}".rstrip() + f"   ({types})")
    note = untyped_note(result)
    lines += [note] * bool(note)
    cort = result.cort()
    lines += ["", "cort (spanning trees: each mention linked to its closest preceding mention)"]
    for which, column in (("recall_errors", "cort_recall_errors"), ("precision_errors", "cort_precision_errors")):
        pairs = ", ".join(f"{k} {v}" for k, v in cort[which]["by_type"].items())
        lines.append(f"{which.replace('_', ' '):<20}{cort[which]['total']:>8}  {_ci(result, column)}".rstrip()
                     + (f"   (anaphor-antecedent: {pairs})" if pairs else ""))
    if per_doc:
        lines += ["", "per document: " + " ".join(e for e in ERRORS)]
        for k, d in enumerate(result.analysed):
            lines.append(d.doc.name + ": " + " ".join(str(int(result.doc_stats.matrix[k, i]))
                                                        for i in range(len(ERRORS))))
            for err in d.errors:
                info = error_dict(d, err)
                notes = _notes(d, err)
                where = "; ".join(f"\"{m['text']}\" ({mention_where(m)}{note})"
                                  for m, note in zip(info["mentions"], notes))
                lines.append(f"  {TITLES[err.kind]}: {where}")
    lines += ["", f"signature: {result.signature()}"]
    return "\n".join(lines) + "\n"


# ---- the HTML page

STYLE = """
body{font:15px/1.6 system-ui,sans-serif;margin:0 auto;max-width:1400px;padding:0 1rem;color:#111;background:#fff}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:2px 8px;text-align:right}th{background:#eee}
td:first-child,th:first-child{text-align:left}
details{border:1px solid #ccc;border-radius:4px;margin:.5rem 0;padding:.2rem .6rem}
summary{cursor:pointer;font-weight:600}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:1rem}.cols h4{margin:.3rem 0}
.txt p{margin:.2rem 0}.m{border:2px solid hsl(var(--h),70%,40%);border-radius:3px;padding:0 1px;
background:hsla(var(--h),80%,60%,.12)}.m>b{font-size:.7em;color:hsl(var(--h),70%,30%);vertical-align:sub}
.x{border-style:dashed}:target{outline:3px solid #000;outline-offset:1px}
a:focus{outline:3px solid #05f}.errs li{margin:.1rem 0}kbd{border:1px solid #999;border-radius:3px;padding:0 3px}
"""


def anchor(m: tuple) -> str:
    """A mention's place in a page's ids: sentence-start-end (and a discontinuous mention's positions)."""
    positions = "-" + ".".join(map(str, m[3])) if len(m) > 3 else ""
    return f"{m[0]}-{m[1]}-{m[2]}{positions}" + ("-u" if len(m) > 4 else "")  # -u: matching.unpaired


def _hue(label: str) -> int:
    return (sum(ord(c) * 131 for c in label) * 47) % 360


def response_labels(key, response) -> dict[str, str]:
    """Each response entity's label on the page: the label of the key entity sharing most of its mentions (where
    two response entities want one key entity, the one sharing more, then the earlier, gets it), so that one
    entity has one number on both sides; the others are numbered after the key's labels."""
    from collections import Counter

    entities: dict[str, list] = {}
    for m, label in response.entity_of.items():
        entities.setdefault(label, []).append(m)
    wants = []
    for order, (label, mentions) in enumerate(entities.items()):
        shared = Counter(key.entity_of[m] for m in mentions if m in key.entity_of)
        if shared:
            best, n = max(shared.items(), key=lambda item: item[1])  # the first of a tie
            wants.append((-n, order, label, best))
    shown: dict[str, str] = {}
    for _, _, label, best in sorted(wants):
        if best not in shown.values():
            shown[label] = best
    used = set(key.entity_of.values()) | set(shown.values())
    n = 1 + max((int(x) for x in used if x.isdigit()), default=-1)
    for label in entities:
        if label not in shown:
            while str(n) in used:
                n += 1
            shown[label] = str(n)
            used.add(str(n))
    return shown


def _side_html(doc, side, prefix: str, other, labels: dict[str, str] | None = None) -> str:
    """The document's sentences with ``side``'s mentions marked; a mention not on the other side dashed;
    ``labels``: the entities' labels on the page (default: the file's)."""
    name = (lambda label: label) if labels is None else labels.__getitem__
    opens: dict = {}
    closes: dict = {}
    for m, label in side.entity_of.items():
        opens.setdefault((m[0], m[1]), []).append(m)
        closes.setdefault((m[0], m[2] - 1), []).append(m)
    out = []
    for s, words in enumerate(doc.words):
        parts = []
        for t, w in enumerate(words):
            for m in sorted(opens.get((s, t), ()), key=lambda m: -m[2]):
                label = html.escape(name(side.entity_of[m]))
                own = html.escape(side.entity_of[m])
                own = f", the file's {own}" if own != label else ""
                dashed = " x" if m not in other.entity_of else ""
                gaps = (f" (discontinuous: {html.escape(' '.join(doc.words_of(m)))})"
                        if len(m) > 3 and m[3] != tuple(range(m[1], m[2])) else "")
                parts.append(f'<span class="m{dashed}" id="{prefix}{anchor(m)}" style="--h:{_hue(label)}" '
                             f'title="entity {label}{own}{gaps}">')
            parts.append(html.escape(w))
            for m in sorted(closes.get((s, t), ()), key=lambda m: m[1], reverse=True):
                parts.append(f"<b>{html.escape(name(side.entity_of[m]))}</b></span>")
            parts.append(" ")
        out.append("<p>" + "".join(parts) + "</p>")
    return "".join(out)


def _notes(d, err) -> tuple[str, ...]:
    """What follows each mention's line in an error's listing: for a span error of the same words, what differs."""
    notes = span_error_notes(d, err) if err.kind == "span_error" else ("",) * len(err.mentions)
    return tuple(f", {n}" if n else "" for n in notes)


def _error_item(d, k: int, err, labels: dict[str, str]) -> str:
    info = error_dict(d, err)
    links = []
    for mention, m, note in zip(err.mentions, info["mentions"], _notes(d, err)):
        prefix = f"d{k}{'k' if m['side'] == 'key' else 'r'}"
        links.append(f'<a href="#{prefix}{anchor(mention)}">{html.escape(m["text"])}</a> '
                     f'({html.escape(mention_where(m) + note)})')
    ents = []
    if info["key_entities"]:
        ents.append("key " + ", ".join(map(html.escape, info["key_entities"])))
    if info["response_entities"]:
        ents.append("response " + ", ".join(html.escape(labels.get(e, e)) for e in info["response_entities"]))
    return f"<li><strong>{TITLES[err.kind]}</strong>: {'; '.join(links)}" + (f" — {'; '.join(ents)}" if ents else "") + "</li>"


def html_page(result: ExplainResult) -> str:
    totals = result.totals()
    note = untyped_note(result)
    by_type = result.by_mention_type()
    rows = []
    interval = result.bootstrap is not None
    for e in ERRORS + ("cort_recall_errors", "cort_precision_errors"):
        title = TITLES.get(e, e.replace("_", " "))
        types = "".join(f"<td>{by_type[e][t]}</td>" for t in TYPES) if e in by_type else "<td></td>" * len(TYPES)
        rows.append(f"<tr><td>{title}</td><td>{totals[e]}</td>" + (f"<td>{_ci(result, e)}</td>" if interval else "")
                    + types + "</tr>")
    head = ("<tr><th>error</th><th>count</th>" + ("<th>interval</th>" if interval else "")
            + "".join(f"<th>{t}</th>" for t in TYPES) + "</tr>")
    docs = []
    for k, d in enumerate(result.analysed):
        n = len(d.errors)
        labels = response_labels(d.doc.key, d.response_view)
        items = "".join(_error_item(d, k, err, labels) for err in d.errors) or "<li>no errors</li>"
        counts = ", ".join(f"{TITLES[e]} {c}" for e in ERRORS
                           if (c := sum(1 for err in d.errors if err.kind == e)))
        docs.append(
            f'<details id="doc{k}"{" open" if len(result.analysed) == 1 else ""}><summary>{html.escape(d.doc.name)} '
            f"— {n} error{'s' if n != 1 else ''}{': ' + counts if counts else ''}</summary>"
            f'<h3>Errors</h3><ol class="errs">{items}</ol>'
            f'<div class="cols"><section class="txt" aria-label="key"><h4>Key (gold) entities</h4>'
            f'{_side_html(d.doc, d.doc.key, f"d{k}k", d.response_view)}</section>'
            f'<section class="txt" aria-label="response"><h4>Response (system) entities</h4>'
            f'{_side_html(d.doc, d.response_view, f"d{k}r", d.doc.key, labels)}</section></div></details>')
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
            "content=\"width=device-width,initial-scale=1\"><title>fastscore explain</title>"
            f"<style>{STYLE}</style></head><body><h1>Coreference errors</h1>"
            f"<p>Key <code>{html.escape(result.key_path)}</code>, response <code>{html.escape(result.response_path)}"
            f"</code>: {counted(len(result.analysed), 'document')}, {totals['key_mentions']} key and "
            f"{totals['response_mentions']} response mentions. Mentions are boxed and labelled with their entity "
            "at their end (colour repeats the label); a dashed box is a mention the other side lacks. Each error "
            "links to its mentions; open a document with <kbd>Enter</kbd> on its title.</p>"
            f'<h2>Error counts</h2><table aria-label="error counts">{head}{"".join(rows)}</table>'
            "<p>Mentions involved by type; cort: key (recall) and response (precision) spanning-tree edges not "
            f"recovered by the other side.{' ' + html.escape(note) + '.' if note else ''}</p><h2>Documents</h2>{''.join(docs)}"
            f"<p><small>{html.escape(result.signature())}</small></p></body></html>\n")
