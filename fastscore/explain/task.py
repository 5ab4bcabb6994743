"""The explain task: coreference error analysis (Kummerfeld & Klein's error types, cort's errors) whose counts are
per-document statistics, so `compare --task explain --metric divided_entity` tests a change in an error type."""
from __future__ import annotations

from dataclasses import dataclass

from ..task import Option, Task, lazy
from . import PAIRING
from .names import CORT, ERRORS

EXAMPLE = """\
examples:
  fastscore explain key.conll response.conll                     # the seven error types, cort's errors
  fastscore explain key.conll response.conll --output json --per-doc
  fastscore explain key.conll response.conll --output html report.html
  fastscore compare key.conll base.conll new.conll --metric divided_entity   # is the drop significant?
"""

OPTIONS = (
    Option(("--format",), "format", "input format: auto (from the key's content, default), conll2012 or jsonl",
           default="auto", choices=("auto", "conll2012", "jsonl")),
    Option(("--singletons",), "singletons", "drop (default, as the Analyser) or keep the response's one-mention "
           "entities", default="drop", choices=("keep", "drop")),
    Option(("--doc",), "doc", "explain only this key document (its full name, part included)", metavar="NAME",
           scope="command"),
)


@dataclass(frozen=True)
class ExplainInput:
    """A file to explain: read with its pair when scored (the analysis needs both sides' tokens)."""

    path: str


def _read(source) -> ExplainInput:
    return source if isinstance(source, ExplainInput) else ExplainInput(str(source))


def _doc_names(source: ExplainInput) -> list[str]:
    from ..coref.score import read

    return list(read(source.path).doc_names)


EXPLAIN = Task(
    name="explain",
    summary="coreference error analysis: Kummerfeld & Klein's error types and cort's errors, per document",
    description="Explain a coreference response's errors: the seven error types of the Berkeley Coreference "
                "Analyser (Kummerfeld & Klein 2013), cort's recall and precision errors (Martschat & Strube "
                "2014), by mention type and per document; --output html writes a page to read them.",
    example=EXAMPLE,
    gold_help="key file (CoNLL-2012 or jsonlines)",
    system_help="response file, in the key's format",
    extensions=(".conll", ".jsonl"),
    default_metric="divided_entity",
    metric_help="|".join(ERRORS + CORT) + " (default divided_entity; error counts)",
    outputs=(("text", "readable tables, default"), ("json", "JSON"), ("html", "a self-contained page: --output html FILE")),
    options=OPTIONS,
    read=_read,
    doc_names=_doc_names,
    score=lazy("fastscore.explain.result", "score_explain"),
    report=lazy("fastscore.explain.report", "render"),
    input_names=("KEY", "RESPONSE"),
    kernels=("conll_scan",),  # reading CoNLL-2012 (the analysis itself is per-document Python)
    output_file=True,
    metric_names=ERRORS + CORT,
    pairing=PAIRING,
)
