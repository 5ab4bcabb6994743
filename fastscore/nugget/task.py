"""The event nugget task: TAC KBP TBF files, the numbers of the official EvmEval scorer.

Light at import (the command line is built from it): the engine is imported when something is scored.
"""
from __future__ import annotations

from ..errors import UsageError
from ..task import Corpus, Option, Task
from . import PAIRING

EXAMPLE = """\
examples:
  fastscore nugget example example                                       # the bundled example (character spans, --coref)
  fastscore nugget gold.tbf system.tbf --tokens tkn/                     # TAC KBP 2015 rules, token ids
  fastscore nugget gold.tbf system.tbf --preset kbp2016 --coref          # 2016/2017 rules, character spans
  fastscore nugget gold.tbf system.tbf --preset kbp2017 --output evmeval # the official report layout
"""

API_DOC = """\
preset kbp2015 follows scorer_v1.7.1, kbp2016/kbp2017 scorer_v1.8.  Spans are token ids when tokens (a folder of
token tables) is given or the preset defaults to tokens (kbp2015), else character ranges; char_spans forces
characters.  coref adds event coreference (MUC, B-cubed, CEAFe, CEAFm, BLANC from fastscore's v8.01-exact engine)
on the coref_mapping alignment with Dice >= coref_threshold.  mapping="optimal" replaces the official greedy
mapping by a maximum-weight one (not official).  The per-type table uses the type+realis mapping, as EvmEval does
(a defect); per_type_mapping="type" corrects it.  sequencing scores the @After/@Subevent links with temporal
awareness as scorer_v1.8 -a does (kbp2016/kbp2017); no_script_validation accepts links both ways between two
clusters (-nv); sequencing_graph="exact" replaces the official TempEval-3 timegraph (incomplete and, after some
orders of links, unsound) by the exact closure.

Returns a NuggetResult (to_dict(), averages(), per_type(), coref_scores()).
"""

OPTIONS = (
    Option(("--tokens",), "tokens", "folder of token tables: spans are token ids", metavar="DIR", path="input"),
    Option(("--token-ext",), "token_ext", "token table file extension (default .tab)", default=".tab"),
    Option(("--char-spans",), "char_spans", "spans are character ranges b,e;b,e", switch=True, default=False),
    Option(("--preset",), "preset", "kbp2015 = scorer_v1.7.1 (default), kbp2016/kbp2017 = scorer_v1.8",
           default="kbp2015", choices=("kbp2015", "kbp2016", "kbp2017")),
    Option(("--invisible-words",), "invisible_words", "words removed from token spans (default: the preset's; "
           "kbp2015 has a list)", metavar="FILE|none", path="input"),
    Option(("--coref",), "coref", "also score event coreference", switch=True, default=False),
    Option(("--coref-mapping",), "coref_mapping", "which mention mapping aligns coreference mentions "
           "(default type)", default="type", choices=("span", "type", "realis", "type+realis")),
    Option(("--coref-threshold",), "coref_threshold", "minimum Dice of an aligned coreference mention pair "
           "(default 1.0)", default=1.0, type=float, metavar="X"),
    Option(("--type-whitelist",), "type_whitelist", "score only these types (one per line)", metavar="FILE",
           path="input"),
    Option(("--mapping",), "mapping", "greedy (official) or optimal (maximum-weight, not official)",
           default="greedy", choices=("greedy", "optimal")),
    Option(("--sequencing",), "sequencing", "also score event sequencing (@After/@Subevent links; scorer_v1.8 "
           "-a; kbp2016/kbp2017)", switch=True, default=False),
    Option(("--no-script-validation",), "no_script_validation", "score sequencing links that run both ways "
           "between two clusters (scorer_v1.8 -nv)", switch=True, default=False),
    Option(("--sequencing-graph",), "sequencing_graph", "official: the TempEval-3 timegraph EvmEval uses "
           "(default); exact: the exact temporal closure (corrects the timegraph's wrong entailments; "
           "not official)", default="official", choices=("official", "exact")),
    Option(("--per-type-mapping",), "per_type_mapping", "mapping behind the per-type table: type+realis "
           "(EvmEval's, default) or type (corrected)", default="type+realis", choices=("type+realis", "type"),
           scope="command"),
    Option(("--fix-evmeval-quirks",), "fix_evmeval_quirks", "corrected reading, not official: inputs EvmEval "
           "misreads (a byte-order mark, Unicode white space, a whitelist's blank lines, an id holding '#end "
           "document') read as they mean, without a warning; lines outside a document refused",
           switch=True, default=False),
    Option(("--doc",), "doc", "score only this document", metavar="ID", scope="command"),
    Option(("--diff",), "diff", "write the gold/system mention mapping to FILE", metavar="FILE", scope="report",
           path="output"),
    Option(("--timeml",), "timeml", "with --sequencing: also write EvmEval's -a folder (TYPE/gold|sys/DOC.tml, "
           "TYPE/seq.out)", metavar="DIR", scope="report", path="folder"),
)


class NuggetCorpus(Corpus):
    batch_formats = "TBF"

    def concat(self, reads: list, name: str, like):
        from ..formats.tbf import concat_tbf

        return concat_tbf(reads, name, like)

    def batches(self, path: str, size: int) -> list:
        from ..formats.tbf import tbf_batches

        return tbf_batches(path, size)


class NuggetTask(Task):
    name = "nugget"
    summary = "score TAC KBP event nuggets and event coreference (TBF), as EvmEval does"
    description = ("Score TAC KBP event nugget detection (span, type, realis) and event coreference with the "
                   "numbers of the official EvmEval scorer (kbp2015 = scorer_v1.7.1, kbp2016/2017 = v1.8).")
    example = EXAMPLE
    api_doc = API_DOC
    docs_page = "docs/nuggets.md"
    gold_help = "gold TBF file ('example' for the bundled example)"
    system_help = "system TBF file ('example' for the bundled example)"
    extensions = (".tbf",)
    reads = (("tbf", ""),)
    default_metric = "span"
    metric_help = ("span|type|realis|type+realis (micro), ...-macro, and with --coref "
                   "muc|bcub|ceafe|ceafm|blanc|coref-average, with --sequencing sequencing-all|after|subevent "
                   "(default span)")
    outputs = (("text", "default"), ("evmeval", "the official report layout"), ("json", "JSON"), ("csv", "CSV"),
               ("markdown", "Markdown"))
    interval_free = ("evmeval",)
    options = OPTIONS
    corpus = NuggetCorpus()
    pairing = PAIRING

    def read(self, source):
        from .score import read

        return read(source)

    def doc_names(self, tbf) -> list[str]:
        return sorted(tbf.documents)

    def score(self, gold, system, **keywords):
        from .score import score_nugget

        return score_nugget(gold, system, **keywords)

    def report(self, result, fmt: str, per_doc: bool = False, diff: str | None = None,
               timeml: str | None = None) -> str:
        """The report; ``diff`` and ``timeml`` also write EvmEval's side files."""
        from . import report

        if diff:
            from .diff import write_diff

            write_diff(result, diff)
        if timeml:
            if result.sequencing is None:
                raise UsageError("--timeml needs --sequencing")
            from .options import REPORTED
            from .sequencing import write_timeml

            write_timeml(result.sequencing, {k: result.sequencing_scores(k) for k in REPORTED}, timeml)
        return report.render(result, fmt, per_doc=per_doc)

    def bundled_example(self, keywords: dict) -> tuple[str, str, dict]:
        """The example, in character spans: read as such unless token tables are given (then the reader says
        why not)."""
        from ..examples import command_inputs

        key, response, example_keywords = command_inputs("nugget")
        if keywords.get("tokens"):
            del example_keywords["char_spans"]
        return key, response, example_keywords

    def metric_choices(self, options: dict) -> tuple[str, ...]:
        """Every metric of the task's registries (whichever its options and inputs make)."""
        from ..metrics import every_metric
        from .metrics import SEQUENCING_METRICS, WITH_COREF

        return every_metric(WITH_COREF, SEQUENCING_METRICS)


NUGGET = NuggetTask()
