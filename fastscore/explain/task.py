"""The explain task: coreference error analysis (Kummerfeld & Klein's error types, cort's errors) whose counts are
per-document statistics, so `compare --task explain --metric divided_entity` tests a change in an error type."""
from __future__ import annotations

from dataclasses import dataclass

from ..examples import command_inputs
from ..task import Option, Task
from ..coref.choices import KEEP_DROP, MATCHES, TEXT_FORMATS, ZERO_MATCHES
from . import PAIRING
from .names import CORT, ERRORS

EXAMPLE = """\
examples:
  fastscore explain key.conll response.conll                     # the seven error types, cort's errors
  fastscore explain key.conll response.conll --output json --per-doc
  fastscore explain key.conll response.conll --output html report.html
  fastscore explain key.conllu response.conllu --match partial  # CorefUD files, matched as fastscore coref
  fastscore compare key.conll base.conll new.conll --metric divided_entity   # is the drop significant?
"""

OPTIONS = (
    Option(("--format",), "format", "input format: auto (from the key's content, default), conll2012, conllu "
           "(CorefUD) or jsonl", default="auto", choices=("auto", *TEXT_FORMATS)),
    Option(("--match",), "match", "mention matching, as fastscore coref: exact; mina (CoNLL-2012: minimum spans from "
           "the key's parse); partial, head (CoNLL-U); default exact (CoNLL-2012, jsonlines), head (CoNLL-U). A "
           "response mention matched to a key mention is analysed with the key mention's span",
           choices=(*MATCHES, "mina")),
    Option(("--np-only",), "np_only", "CoNLL-2012: only mentions whose parse is not a VP (as fastscore coref)",
           switch=True, default=False),
    Option(("--remove-nested",), "remove_nested", "CoNLL-2012: drop mentions nested in a mention of their own "
           "entity (as fastscore coref)", switch=True, default=False),
    Option(("--zero-match",), "zero_match", "CoNLL-U zeros: dependent (paired first by their DEPS, default) or "
           "linear (as fastscore coref)", choices=ZERO_MATCHES),
    Option(("--singletons",), "singletons", "drop (default, as the Analyser) or keep the response's one-mention "
           "entities; with fastscore coref's matching (CoNLL-U, --match mina, --np-only, --remove-nested) both "
           "sides', as it does", default="drop", choices=KEEP_DROP),
    Option(("--doc",), "doc", "explain only this key document (its full name, part included)", metavar="NAME",
           scope="command"),
)


@dataclass(frozen=True)
class ExplainInput:
    """A file to explain: read with its pair when scored (the analysis needs both sides' tokens)."""

    path: str


class ExplainTask(Task):
    name = "explain"
    summary = "coreference error analysis: Kummerfeld & Klein's error types and cort's errors, per document"
    description = ("Explain a coreference response's errors: the seven error types of the Berkeley Coreference "
                   "Analyser (Kummerfeld & Klein 2013), cort's recall and precision errors (Martschat & Strube "
                   "2014), by mention type and per document; --output html writes a page to read them.")
    example = EXAMPLE
    api_doc = ("key and response are CoNLL-2012, CoNLL-U or jsonlines files.  Returns an ExplainResult (the error "
               "counts as doc_stats, to_dict()).")
    docs_page = "docs/explain.md"
    gold_help = "key file (CoNLL-2012, CoNLL-U or jsonlines)"
    system_help = "response file, in the key's format"
    extensions = (".conll", ".conllu", ".jsonl")
    default_metric = "divided_entity"
    metric_help = "|".join(ERRORS + CORT) + " (default divided_entity; error counts)"
    outputs = (("text", "readable tables, default"), ("json", "JSON"),
               ("html", "a self-contained page: --output html FILE"))
    options = OPTIONS
    input_names = ("KEY", "RESPONSE")
    output_file = ("html",)
    reads_patterns = True  # explain.corpus
    metric_names = ERRORS + CORT
    pairing = PAIRING
    also_reads = (("conll", ""), ("conllu", "--format conllu"), ("jsonl", "--format jsonl"))  # coref's, as coref

    def read(self, source) -> ExplainInput:
        return source if isinstance(source, ExplainInput) else ExplainInput(str(source))

    def doc_names(self, source: ExplainInput) -> list[str]:
        from .corpus import doc_names

        return doc_names(source.path, self)

    def score(self, key, response, **keywords):
        from .corpus import is_several, score_files
        from .result import score_explain

        paths = [str(getattr(x, "path", x)) for x in (key, response)]
        if any(map(is_several, paths)):  # folders or patterns of files: each pair explained, the results joined
            return score_files(*paths, score_explain, self, **keywords)
        return score_explain(key, response, **keywords)

    def report(self, result, fmt: str, per_doc: bool = False, file: str | None = None) -> str:
        from .report import render

        return render(result, fmt, per_doc, file)

    def bundled_example(self, keywords: dict) -> tuple[str, str, dict]:
        """The CoNLL-2012 example, the CorefUD one with --format conllu (as fastscore coref)."""
        return command_inputs("corefud" if keywords.get("format") == "conllu" else "explain")

    def metric_choices(self, options: dict) -> tuple[str, ...]:
        return ERRORS + CORT


EXPLAIN = ExplainTask()
