"""Triple evaluation (NewsReader, KYOTO, OpeNER), as the Triple evaluation module (cltl/TripleEvaluation)
counts it: ``task.py`` (the task), ``score.py`` (reading and scoring), ``engine.py`` (filters, layout,
kernels), ``metrics.py`` (registry and statistics), ``result.py``, ``report.py`` (including the module's own
report layout), ``java.py`` (what the module's reports inherit from Java), ``convert.py`` (NAF/KAF layers
and KYOTO tuples to triples)."""
from ..pairing import Pairing
from ..task import lazy

# the module's: a folder's files by name (--ignore-file-suffix cut off), each paired exactly once, in the gold's order
PAIRING = Pairing("error", "error", "gold", lazy("fastscore.triples.engine", "pair_name"),
                  lazy("fastscore.triples.engine", "unpaired_error"))
