"""Results as tables: per-document statistics as Arrow, and tidy score tables (pandas is an optional dependency)."""
from __future__ import annotations

from .errors import UsageError


def to_pandas(table):
    """A ``pyarrow.Table`` as a ``pandas.DataFrame``; a clear error when pandas is not installed."""
    try:
        import pandas  # noqa: F401  (pyarrow needs it to convert)
    except ImportError:
        raise UsageError("to_pandas() needs pandas, which is not installed: pip install pandas "
                         "(or pip install fastscore-ie[pandas]; or use to_arrow() / to_dict())") from None
    return table.to_pandas()


def score_table(result, per_doc: bool = False):
    """A result's scores as a tidy ``pyarrow.Table``: one row per metric (``per_doc``: then one per document and
    metric), columns ``document`` (with ``per_doc``: None on the corpus rows), ``metric``, ``recall``,
    ``precision``, ``f1`` (null where a metric has only an F1, as the CoNLL average) and, after a bootstrap,
    ``ci_low`` and ``ci_high`` (the F1 interval; null on document rows).  Every number comes from the
    result's ``doc_stats`` sums through its metric registry (the raw numerators and denominators stay in
    ``doc_stats``)."""
    import numpy as np
    import pyarrow as pa

    stats = result.doc_stats
    names = list(getattr(result, "table_metrics", result.metrics))
    rows: list[tuple] = []
    sums = [(None, stats.sums())]
    if per_doc:
        sums += [(name, stats.row(i)) for i, name in enumerate(stats.doc_names)]
    for doc, s in sums:
        for m in names:
            score = stats.registry[m].score(s)
            value = (lambda k: float(np.asarray(score[k])) if k in score else None)
            rows.append((doc, m, value("recall"), value("precision"), value("f1")))
    fields = (("document", pa.string()), ("metric", pa.string()), ("recall", pa.float64()),
              ("precision", pa.float64()), ("f1", pa.float64()))  # the rows' tuples
    columns = {name: pa.array([r[i] for r in rows], kind) for i, (name, kind) in enumerate(fields)
               if per_doc or name != "document"}
    boot = getattr(result, "bootstrap", None)
    if boot is not None:
        ends = [boot.intervals.get(r[1]) if r[0] is None else None for r in rows]
        columns["ci_low"] = pa.array([None if e is None else float(e[0]) for e in ends], pa.float64())
        columns["ci_high"] = pa.array([None if e is None else float(e[1]) for e in ends], pa.float64())
    return pa.table(columns)

