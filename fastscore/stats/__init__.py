"""Per-document sufficient statistics and what is computed from them."""
from .docstats import DocStats

__all__ = ["DocStats"]
