"""Triple evaluation (NewsReader, KYOTO, OpeNER), as the Triple evaluation module (cltl/TripleEvaluation)
counts it: ``task.py`` (the task), ``score.py`` (reading and scoring), ``engine.py`` (filters, layout,
kernels), ``metrics.py`` (registry and statistics), ``result.py``, ``report.py`` (including the module's own
report layout), ``java.py`` (what the module's reports inherit from Java), ``convert.py`` (NAF/KAF layers
and KYOTO tuples to triples)."""
