"""The CoNLL reference scorer v8.01 report layout, for scripts that parse it.

Numbers print as Perl prints them (integers plainly, other numbers with 15
significant digits); percentages are truncated, not rounded, to two
decimals: ``int(x * 10000) / 100``.
"""
from __future__ import annotations

from ...metrics import PRF as PRF_COLUMNS
from ...metrics import truncated_percent_value


def perl_number(x: float) -> str:
    """A number as Perl stringifies it (``%.15g``; integral values without a point)."""
    x = float(x)
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.15g}"


def truncated_percent(fraction: float) -> str:
    """v8.01's percentage: ``int(fraction * 10000) / 100`` printed as Perl prints it."""
    return perl_number(truncated_percent_value(fraction))


RULE = "-" * 74
PERL_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")  # what v8.01 computes; lea is our addition


def rpf_line(r_num, r_den, p_num, p_den, f=None) -> str:
    """v8.01's ``ShowRPF``: ``Recall: (n / d) x%<TAB>Precision: (n / d) x%<TAB>F1: x%``."""
    r = r_num / r_den if r_den else 0.0
    p = p_num / p_den if p_den else 0.0
    if f is None:
        f = 2 * p * r / (p + r) if (r + p) else 0.0
    return (f"Recall: ({perl_number(r_num)} / {perl_number(r_den)}) {truncated_percent(r)}%"
            f"\tPrecision: ({perl_number(p_num)} / {perl_number(p_den)}) {truncated_percent(p)}%"
            f"\tF1: {truncated_percent(f)}%\n{RULE}\n")


def _entities(name: str | None, chains, discarded: list[str]) -> str:
    """v8.01's verbose dump of one side of a document (token offsets inclusive), with the split
    antecedents it discarded while reading it."""
    shown = "" if name is None else name
    lines = [f"====> {shown}:", *(f"Discarded ({label})" for label in discarded), f"File {shown}:"]
    for e, chain in enumerate(chains):
        lines.append(f"Entity {e}:" + "".join(f" ({s},{t - 1})" for s, t in chain))
    return "\n".join(lines) + "\n"


def _identification(key_chains, resp_chains) -> str:
    """The repeated-mention lines and mention counts v8.01 prints per document."""
    out = []
    key_id: dict = {}
    position = 0
    for chain in key_chains:
        for span in chain:
            if span in key_id:
                out.append(f"Repeated mention in the key: {span[0]}, {span[1] - 1} {key_id[span]}{position}")
            key_id[span] = position
            position += 1
    seen, new = set(), set()
    for chain in resp_chains:
        for span in chain:
            if span in key_id:
                if span in seen:
                    out.append(f"Repeated mention in the response: {span[0]}, {span[1] - 1} "
                               f"{key_id[span]}{key_id[span]}")
                seen.add(span)
            else:
                new.add(span)
    exact = len(seen)
    out += [
        f"Total key mentions: {len(key_id)}",
        f"Total response mentions: {exact + len(new)}",
        f"Strictly correct identified mentions: {exact}",
        "Partially correct identified mentions: 0",
        f"No identified: {len(key_id) - exact}",
        f"Invented: {position + len(new) - len(key_id)}",
    ]
    return "\n".join(out) + "\n"


def _metric_report(metric: str, result, per_doc: bool) -> str:
    stats = result.doc_stats
    key, resp = result.tables
    r_index = resp.doc_index()
    k_index = key.doc_index()
    parts = []
    if per_doc:
        named = result.options.get("doc") is not None  # v8.01 prints a named document's name first
        for i, name in enumerate(stats.doc_names):
            row = stats.row(i)
            kc = key.document(k_index[name])
            ri = r_index.get(name)
            rc = resp.document(ri) if ri is not None else []
            if named:
                parts.append(f"{name}:\n")
            unseen = name in getattr(key, "v801_unseen", ())  # (an empty key document v8.01 did not find)
            parts.append(_entities(None if unseen else name, kc, key.discarded.get(name, [])))
            parts.append(_entities(name if ri is not None else None, rc,
                                   resp.discarded.get(name, []) if ri is not None else []))
            if not named:  # v8.01's BLANC prints the (undefined) run name instead of the document's
                parts.append(":\n" if metric == "blanc" else f"{name}:\n")
            parts.append(_identification(kc, rc))
            if metric != "blanc":
                parts.append(rpf_line(*(row[f"{metric}_{c}"] for c in PRF_COLUMNS)))
    sums = stats.sums()
    value = lambda c: float(sums[c])
    parts.append("\n====== TOTALS =======\nIdentification of Mentions: ")
    parts.append(rpf_line(*(value(f"mentions_{c}") for c in PRF_COLUMNS)))
    if metric == "blanc":
        from ..metrics import blanc_score

        b = {k: float(v) for k, v in blanc_score(sums).items()}
        parts.append("\nCoreference:\nCoreference links: ")
        parts.append(rpf_line(*(value(f"blanc_coref_{c}") for c in PRF_COLUMNS)))
        parts.append("Non-coreference links: ")
        parts.append(rpf_line(*(value(f"blanc_noncoref_{c}") for c in PRF_COLUMNS)))
        parts.append("BLANC: ")
        parts.append(rpf_line(b["recall"], 1, b["precision"], 1, b["f1"]))
    else:
        parts.append("Coreference: ")
        parts.append(rpf_line(*(value(f"{metric}_{c}") for c in PRF_COLUMNS)))
    return "".join(parts)



def render(result, per_doc: bool = True) -> str:
    """The report ``perl scorer.pl METRIC KEY RESPONSE`` prints (``none`` as NAME: ``per_doc=False``).

    With several metrics, each comes after a ``METRIC name:`` line, as in
    v8.01's ``all`` mode; the CoNLL average is not part of v8.01's report, and LEA
    (not computed by v8.01) comes last, only when named (``-m lea``).
    """
    from ..._version import __version__

    # v8.01's `all` order, then what v8.01 does not compute (LEA), only when asked for by name
    metrics = [m for m in PERL_METRICS if m in result.metrics]
    metrics += [m for m in result.metrics if m not in PERL_METRICS and m != "conll" and m in result.asked]
    head = f"version: 8.01 (fastscore {__version__})\n"
    if len(metrics) == 1:
        return head + _metric_report(metrics[0], result, per_doc)
    return head + "".join(f"\nMETRIC {m}:\n" + _metric_report(m, result, per_doc) for m in metrics)
