"""Results as pandas data frames, for those who have pandas (an optional dependency)."""
from __future__ import annotations

from .errors import UsageError


def to_pandas(table):
    """A ``pyarrow.Table`` as a ``pandas.DataFrame``; a clear error when pandas is not installed."""
    try:
        import pandas  # noqa: F401  (pyarrow needs it to convert)
    except ImportError:
        raise UsageError("to_pandas() needs pandas, which is not installed: pip install pandas "
                         "(or use to_arrow() / to_dict())") from None
    return table.to_pandas()


class PerDocumentTables:
    """``to_arrow`` / ``to_pandas`` of a result's per-document statistics (its ``doc_stats``)."""

    def to_arrow(self):
        """Per-document statistics as a ``pyarrow.Table``."""
        return self.doc_stats.to_arrow()

    def to_pandas(self):
        """Per-document statistics as a ``pandas.DataFrame`` (needs pandas)."""
        return to_pandas(self.to_arrow())
