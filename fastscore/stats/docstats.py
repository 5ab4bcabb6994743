"""Per-document sufficient statistics: one row per document, one column per
numerator or denominator.  Corpus scores are functions of column sums, so
totals, per-document scores and resampling all reuse the metric registry.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

import numpy as np

from ..messages import counted, shown
from ..metrics import NAMED_REGISTRIES, MetricSpec, f1_of, layout_of, named_registry


@dataclass(repr=False)
class DocStats:
    doc_names: list[str]
    matrix: np.ndarray  # float64 (n_docs, len(columns)); counts are exact integers
    columns: tuple[str, ...]
    registry: dict[str, MetricSpec]  # the metrics these columns serve
    # each document's stratum (its dataset: resamples draw documents within each), or None: one population
    strata: np.ndarray | None = None
    # totals add the documents one after another in their order, as the scorers that loop over documents do (UA,
    # CorefUD, coval); else correctly rounded (v8.01 adds them in Perl's hash order): see :meth:`total`
    in_file_order: bool = False

    def __post_init__(self):
        if self.matrix.shape != (len(self.doc_names), len(self.columns)):
            raise ValueError("statistics matrix does not match documents x columns")
        if self.strata is not None and self.strata.shape != (len(self.doc_names),):
            raise ValueError("strata do not match the documents")

    @classmethod
    def from_columns(cls, doc_names: list[str], columns: Mapping[str, np.ndarray],
                     registry: dict[str, MetricSpec], layout: tuple[str, ...] | None = None) -> "DocStats":
        """Statistics laid out by name: ``layout`` (default: the registry's columns in registry order)
        must name exactly the given columns, and cover every column a metric of the registry reads."""
        layout = layout_of(registry) if layout is None else layout
        needed = set(layout_of(registry))
        if set(layout) != set(columns) or not needed <= set(layout) or len(set(layout)) != len(layout):
            raise ValueError(f"statistics columns {sorted(columns)} do not fit the layout {list(layout)} "
                             f"of the registry ({sorted(needed - set(columns))} missing)")
        n = len(doc_names)
        matrix = np.empty((n, len(layout)), dtype=np.float64)
        for k, name in enumerate(layout):
            matrix[:, k] = columns[name]
        return cls(list(doc_names), matrix, tuple(layout), registry)

    def __repr__(self) -> str:  # one line: the matrix and the registry's functions would fill a screen
        names = ", ".join(map(repr, self.doc_names[:3])) + (", ..." if len(self.doc_names) > 3 else "")
        return (f"DocStats({counted(len(self.doc_names), 'document')} [{names}], "
                f"{counted(len(self.columns), 'column')}, metrics {', '.join(self.registry)})")

    def __reduce__(self):  # a named registry travels as its name, so that it is the same object where it lands
        name = next((n for n, r in NAMED_REGISTRIES.items() if r is self.registry), None)
        return _unpickle, (self.doc_names, self.matrix, self.columns, name or self.registry, self.strata,
                           self.in_file_order)

    def column(self, name: str) -> np.ndarray:
        """One statistics column (a view), by name."""
        return self.matrix[:, self.columns.index(name)]

    def ordered_sums(self, scale: float = 1.0) -> dict[str, float]:
        """Column totals added in document order, each value multiplied by ``scale`` first: the
        arithmetic of scorers that add per-document numbers one by one (EvmEval).  Use
        :meth:`total` unless a reference scorer's order of additions must be kept."""
        scaled = self.matrix * scale
        last = np.cumsum(scaled, axis=0)[-1] if len(scaled) else np.zeros(len(self.columns))  # cumsum: sequential
        return {c: float(last[k]) for k, c in enumerate(self.columns)}

    def __len__(self) -> int:
        return len(self.doc_names)

    def f1(self, metric: str, sums: np.ndarray) -> np.ndarray:
        """F1 of a metric of the registry for each row of summed statistics."""
        return f1_of(metric, sums, self.columns, self.registry)

    def of_metrics(self, metrics: list[str]) -> "DocStats":
        """The columns that ``metrics`` read, and no other (a copy): what resampling them needs to sum.
        Each column is the same, so every sum and F1 is the same, bit for bit."""
        for m in metrics:
            self.f1(m, np.zeros((1, len(self.columns))))  # an unknown metric is refused as f1 refuses it
        columns = layout_of({m: self.registry[m] for m in metrics})
        index = [self.columns.index(c) for c in columns]
        return DocStats(self.doc_names, np.ascontiguousarray(self.matrix[:, index]), columns, self.registry,
                        self.strata, self.in_file_order)

    def in_order(self, names: list[str]) -> "DocStats | None":
        """The rows of the documents ``names``, in that order (a name given twice: its rows in their order), or
        None when these are not the statistics of exactly those documents.  Paired tests draw the same rows of
        both sides: a system whose documents came in another order (shards cut otherwise) is put in the
        baseline's order, which leaves every total (``math.fsum``) and resample the same."""
        if self.doc_names == names:
            return self
        if sorted(self.doc_names) != sorted(names):
            return None
        rows: dict[str, list[int]] = {}
        for i, name in reversed(list(enumerate(self.doc_names))):
            rows.setdefault(name, []).append(i)
        index = [rows[name].pop() for name in names]
        return DocStats(list(names), np.ascontiguousarray(self.matrix[index]), self.columns, self.registry,
                        None if self.strata is None else self.strata[index], self.in_file_order)

    def row(self, i: int) -> dict[str, float]:
        return dict(zip(self.columns, self.matrix[i].tolist()))

    def total(self) -> np.ndarray:
        """Corpus totals: the correctly rounded sum of each column (``math.fsum``), or with ``in_file_order``
        the documents' numbers added one after another in their order.

        v8.01 adds documents in Perl's hash order, which changes from run to run, so
        the last bit of a fractional numerator (B-cubed, CEAFe) can differ between two
        runs of v8.01 on the same files, and a truncated percentage with it.  The
        correctly rounded sum is what v8.01 prints whenever its own sum is exact, and
        it does not depend on the order of the documents.  The UA, CorefUD and coval scorers add each
        document's numbers to running totals in the key's order: the last bit, and a percentage rounded at
        its fifth thousandth, follow that order.
        """
        matrix = self.matrix
        if self.in_file_order:
            return np.cumsum(matrix, axis=0)[-1] if len(matrix) else np.zeros(len(self.columns))  # sequential
        total = matrix.sum(axis=0)
        # whole numbers whose sum stays under 2**53 add exactly in any order: only the other columns need fsum
        exact = (matrix == np.rint(matrix)).all(axis=0) & (np.abs(matrix).sum(axis=0) < 2.0 ** 53)
        for k in np.flatnonzero(~exact).tolist():
            total[k] = math.fsum(matrix[:, k].tolist())  # Python floats: fsum's fast path
        return total

    def sums(self, weights: np.ndarray | None = None) -> dict[str, object]:
        """Column totals; with ``weights`` (n_docs,) or (k, n_docs), weighted sums per row of weights."""
        total = self.total() if weights is None else np.asarray(weights, np.float64) @ self.matrix
        return {c: total[..., k] for k, c in enumerate(self.columns)}

    def to_arrow(self, meta: Mapping[str, object] | None = None):
        """The statistics as a ``pyarrow.Table``: ``doc``, then one column per statistic (integer columns
        as int64).  The schema's ``fastscore`` metadata (JSON) holds the fastscore version, the columns, the
        registry's metrics and ``meta`` (what produced them: task, options), so that statistics can travel
        (shards, Parquet files, other processes) and be checked when they come back."""
        import json

        import pyarrow as pa

        from .._version import __version__

        integral = {c for m in self.registry.values() if m.integral for c in m.columns}
        data = {"doc": pa.array(self.doc_names, pa.string())}
        for k, c in enumerate(self.columns):
            col = self.matrix[:, k]
            data[c] = pa.array(col.astype(np.int64) if c in integral else col)
        info = {"version": __version__, "columns": list(self.columns), "metrics": list(self.registry),
                **({"in_file_order": True} if self.in_file_order else {}), **(meta or {})}
        return pa.table(data).replace_schema_metadata({"fastscore": json.dumps(info)})

    def to_pandas(self):
        """:meth:`to_arrow` as a ``pandas.DataFrame`` (needs pandas): the raw numerators and denominators."""
        from ..frames import to_pandas

        return to_pandas(self.to_arrow())

    @classmethod
    def from_arrow(cls, table, registry: dict[str, MetricSpec], source: str = "statistics") -> "DocStats":
        """Statistics written by :meth:`to_arrow` (or read from Parquet), for ``registry``; they must come
        from this version of fastscore and have the registry's columns and metrics."""
        import json

        from .._version import __version__
        from ..errors import InputError

        raw = (table.schema.metadata or {}).get(b"fastscore")
        if raw is None:
            raise InputError(f"{source}: not fastscore statistics (no 'fastscore' metadata in the Arrow schema)")
        try:
            info = json.loads(raw)
        except (ValueError, RecursionError):
            info = None
        if not isinstance(info, dict) or not all(
                isinstance(info.get(k), list) and all(isinstance(x, str) for x in info[k]) for k in ("columns", "metrics")):
            raise InputError(f"{source}: its 'fastscore' metadata is not that of fastscore statistics (a JSON object "
                             "with lists of columns and metrics)")
        if info.get("version") != __version__:
            raise InputError(f"{source}: statistics of fastscore {info.get('version')}, not {__version__}: "
                             "score again with this version (numbers may differ between versions)")
        columns = tuple(info.get("columns", ()))
        if list(info.get("metrics", ())) != list(registry) or set(columns) != set(layout_of(registry)):
            raise InputError(f"{source}: statistics of the metrics {info.get('metrics')}, not of "
                             f"{list(registry)} (another task or other options)")
        if table.column_names != ["doc", *columns]:
            raise InputError(f"{source}: columns {table.column_names[:4]}... do not match its metadata")
        import pyarrow as pa

        wrong = [c for c in columns if not (pa.types.is_integer(table.column(c).type)
                                            or pa.types.is_floating(table.column(c).type))]
        if wrong:
            raise InputError(f"{source}: column {wrong[0]!r} holds {table.column(wrong[0]).type}, not numbers")
        matrix = np.empty((table.num_rows, len(columns)), dtype=np.float64)
        for k, c in enumerate(columns):
            matrix[:, k] = table.column(c).to_numpy(zero_copy_only=False)
        return cls(table.column("doc").to_pylist(), matrix, columns, registry,
                   in_file_order=info.get("in_file_order") is True)

    def write_parquet(self, path, meta: Mapping[str, object] | None = None) -> None:
        import pyarrow.parquet as pq

        from ..outputs import output_path

        with output_path(path) as tmp:
            pq.write_table(self.to_arrow(meta), tmp)

    @classmethod
    def read_parquet(cls, path, registry: dict[str, MetricSpec]) -> "DocStats":
        import pyarrow.parquet as pq

        return cls.from_arrow(pq.read_table(path), registry, str(path))

    @classmethod
    def concat(cls, parts: list["DocStats"], sources: list[str] | None = None,
               layout: tuple[str, ...] | None = None) -> "DocStats":
        """Statistics of several shards as one: the same registry, documents named once.  The totals are those
        of one file whatever the partitioning (:meth:`total` sums the documents exactly, or in their order: the
        parts' in the file's).  Parts have the same
        columns, or, given a ``layout`` (for columns made per name, which a shard may lack), columns among
        its own: a column a part lacks is zero for its documents."""
        from ..errors import InputError

        if not parts:
            raise ValueError("no statistics to concatenate")
        first = parts[0]
        seen: dict[str, int] = {}
        for i, part in enumerate(parts):
            same = part.columns == first.columns if layout is None else set(part.columns) <= set(layout)
            if not same or list(part.registry) != list(first.registry):
                raise InputError(f"{_source(sources, i)}: statistics of other metrics than "
                                 f"{_source(sources, 0)}'s")
            for name in part.doc_names:
                if name in seen:
                    raise InputError(f'document "{shown(name)}" is in two shards: {_source(sources, seen[name])} and '
                                     f"{_source(sources, i)}")
                seen[name] = i
        if layout is not None:
            parts = [p._laid_out(tuple(layout)) for p in parts]
        matrix = np.concatenate([p.matrix for p in parts]) if len(parts) > 1 else parts[0].matrix
        return cls([n for p in parts for n in p.doc_names], matrix, parts[0].columns, first.registry,
                   in_file_order=first.in_file_order)

    def _laid_out(self, layout: tuple[str, ...]) -> "DocStats":
        """These statistics in the columns of ``layout`` (a superset of this one's), zeros where they have none."""
        if layout == self.columns:
            return self
        matrix = np.zeros((len(self.doc_names), len(layout)), dtype=np.float64)
        at = {c: k for k, c in enumerate(layout)}
        matrix[:, [at[c] for c in self.columns]] = self.matrix
        return DocStats(list(self.doc_names), matrix, layout, self.registry, in_file_order=self.in_file_order)


def _unpickle(doc_names, matrix, columns, registry, strata=None, in_file_order=False) -> DocStats:
    return DocStats(doc_names, matrix, columns, named_registry(registry) if isinstance(registry, str) else registry,
                    strata, in_file_order)


def _source(sources: list[str] | None, i: int) -> str:
    return sources[i] if sources else f"shard {i + 1}"
