"""The TempEval-3 task: TimeML files or folders, the numbers of the official TempEval-3 toolkit
(temporal awareness of the relations, event and TIMEX3 extraction).

Light at import (the command line is built from it): the engine is imported when something is scored.
"""
from __future__ import annotations

from ..examples import command_inputs
from ..task import Corpus, Option, Task
from . import PAIRING

EXAMPLE = """\
examples:
  fastscore temporal example example                          # the bundled example (one TimeML file each)
  fastscore temporal gold/ system/                            # TempEval-3 default (reduced graphs)
  fastscore temporal gold/ system/ --output te3               # the toolkit's report lines
  fastscore temporal gold/ system/ --method acl11 --relations-only
  fastscore temporal gold/ system/ --fix-toolkit-quirks       # exact closure, corrected implicit recall
  fastscore compare gold/ base/ new/ --task temporal --metric temporal
"""

OPTIONS = (
    Option(("--method",), "evaluation_method", "te3 (the toolkit's default: counts over the reduced graphs), acl11 "
           "(every relation, both directions), implicit_in_recall (implied system relations weighted into recall)",
           default="te3", choices=("te3", "acl11", "implicit_in_recall")),
    Option(("--fix-toolkit-quirks",), "fix_toolkit_quirks", "corrected behaviour, not official: the exact temporal "
           "closure instead of the toolkit's timegraph (BEGINS verifiable, no wrong entailments) and implicit recall "
           "at most 100%% per document", switch=True, default=False),
    Option(("--relations-only",), "relations_only", "score only the temporal relations", switch=True, default=False,
           scope="command"),
    Option(("--entities-only",), "entities_only", "score only event and TIMEX3 extraction", switch=True,
           default=False, scope="command"),
)


class TemporalCorpus(Corpus):
    def concat(self, reads: list, name: str, like):
        from ..formats.timeml import concat_timeml

        return concat_timeml(reads, name, like)

    def folder_files(self, folder: str) -> list[str]:
        from ..formats.timeml import timeml_files

        return timeml_files(folder)


class TemporalTask(Task):
    name = "temporal"
    summary = ("score TempEval-3 temporal relations (temporal awareness) and entities (TimeML), as the toolkit "
               "does")
    description = ("Score TimeML annotations with the numbers of the official TempEval-3 toolkit: temporal "
                   "awareness of the TLINKs (UzZaman & Allen: relations verified through the other side's temporal "
                   "closure) and event / TIMEX3 extraction (strict and relaxed match, attribute F1).  GOLD and "
                   "SYSTEM are TimeML files or folders holding the same file names.")
    example = EXAMPLE
    api_doc = ("gold and system may also be inputs read with fastscore.read_timeml.  Returns a TemporalResult "
               "(scores(), to_dict(), doc_stats).")
    docs_page = "docs/temporal.md"
    gold_help = "gold TimeML file or folder ('example' for the bundled example)"
    system_help = "system TimeML file or folder (same file names, same texts)"
    extensions = (".tml",)
    reads = (("timeml", ""),)
    default_metric = "temporal"
    metric_help = ("temporal (temporal awareness), event-strict|event-relaxed|event-class|event-tense|event-aspect, "
                   "timex-strict|timex-relaxed|timex-type|timex-value (default temporal)")
    outputs = (("text", "default"), ("te3", "the toolkit's report lines"), ("json", "JSON"), ("csv", "CSV"),
               ("markdown", "Markdown"))
    interval_free = ("te3",)
    options = OPTIONS
    corpus = TemporalCorpus()
    pairing = PAIRING

    def read(self, source):
        from .score import read

        return read(source)

    def doc_names(self, read) -> list[str]:
        return sorted(read.documents)

    def score(self, gold, system, **keywords):
        from .score import score_temporal

        return score_temporal(gold, system, **keywords)

    def report(self, result, fmt: str, per_doc: bool = False) -> str:
        from .report import render

        return render(result, fmt, per_doc)

    def bundled_example(self, keywords: dict) -> tuple[str, str, dict]:
        return command_inputs("temporal")

    def metric_choices(self, options: dict) -> tuple[str, ...]:
        """Every metric of the task's registries (whichever its options and inputs make)."""
        from ..metrics import every_metric
        from .metrics import TEMPORAL_METRICS

        return every_metric(TEMPORAL_METRICS)


TEMPORAL = TemporalTask()
