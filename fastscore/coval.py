"""``fastscore.coval``: the public path of the ``evaluate`` coval metric's interface (``compute``, ``score`` and
their many-document forms).  The code is coreference's (``fastscore/coref/coval_metric.py``); this module only
gives it the path users import, and is the one module outside a task's folder besides the registry that imports
from one (``tests/test_layers.py``)."""
from .coref.coval_metric import compute, compute_documents, score, score_documents

__all__ = ["compute", "compute_documents", "score", "score_documents"]
