"""The triple task: NewsReader / KYOTO / OpeNER triple files (or NAF/KAF layers), the numbers of the Triple
evaluation module (cltl/TripleEvaluation).

Light at import (the command line is built from it): the engine is imported when something is scored.
"""
from __future__ import annotations

import argparse

from ..examples import command_inputs
from ..task import Converter, Corpus, Option, Task
from . import PAIRING

EXAMPLE = """\
examples:
  fastscore triples example example                           # the bundled example (a partial-id match)
  fastscore triples gold.trp system.trp                       # partial ids, same relation (EvaluateTriples)
  fastscore triples gold.trp system.trp --exact-ids --output module   # EvaluateTriplesDebug's report file
  fastscore triples gold/ system/ --ignore-file-suffix 8      # folders: x.tag.trp pairs with x.kaf.trp
  fastscore triples gold/ 'system/*.trp' --jobs 4             # corpora of shards (folders, glob patterns)
  fastscore triples gold.trp system.trp --token-range scope.txt --relation-map roles.tsv --output json
  fastscore triples gold.naf system.naf --layers opinion --intersect   # NAF/KAF layers, converted in memory
"""


def _suffix(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of characters, not {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more characters, not {n}")
    return n


OPTIONS = (
    Option(("--ignore-relations",), "ignore_relations", "match triples whatever their relations",
           switch=True, default=False),
    Option(("--exact-ids",), "exact_ids", "elements match when their id sets are equal (the module's debug "
           "evaluator), not when they intersect", switch=True, default=False),
    Option(("--token-range",), "token_range", "file of token ids (one per line): only system triples with a "
           "first-element id among them are scored", metavar="FILE", path="input"),
    Option(("--relation-filter",), "relation_filter", "file of relations (one per line, exact names): only "
           "triples with one of them are scored, on both sides", metavar="FILE", path="input"),
    Option(("--relation-map",), "relation_map", "file of FROM<TAB>TO relation translations applied to both "
           "sides after the filter (the module's TripleRelationConversion)", metavar="FILE", path="input"),
    Option(("--ignore-file-suffix",), "ignore_file_suffix", "folders and glob patterns: pair files by their names "
           "without the last N characters (x.tag.trp with x.kaf.trp: 8)", default=0, type=_suffix, metavar="N",
           scope="command"),
    Option(("--dedup",), "dedup", "a matched gold triple is counted once: overlap — not again when it overlaps "
           "one counted before (EvaluateTriples); exact — not again when identical to one (EvaluateTriplesDebug, "
           "EvaluateTripleFolders); auto (default) — overlap for a file pair, exact for folders or --exact-ids",
           default="auto", choices=("auto", "overlap", "exact")),
    Option(("--skip-time-and-location",), "skip_time_and_location", "drop TIME and LOCATION triples (the "
           "module's option for KYOTO triples)", switch=True, default=False),
    Option(("--location-defect",), "location_defect", "drop every LOCATION triple as the module does through "
           "an operator-precedence defect (not reproduced by default)", switch=True, default=False),
    Option(("--layers",), "layers", "NAF/KAF input: the layers that become triples, comma-separated: entity, "
           "srl, opinion, property, sentiment", metavar="LAYERS"),
    Option(("--intersect",), "intersect", "with --layers opinion: only opinions that overlap an entity or a "
           "property (the module's converter option)", switch=True, default=False),
    Option(("--fix-module-quirks",), "fix_module_quirks", "corrected reading, not official: triple files read as "
           "their encoding says (BOM, XML declaration) and malformed XML refused, where the module reads them "
           "otherwise", switch=True, default=False),
)


class TriplesConverter(Converter):
    targets = ("triples",)
    summary = "NAF/KAF layers, KYOTO tuples or Kybot output to triples"
    options = (
        Option(("--layers",), "layers", "the NAF/KAF layers to convert (entity, srl, opinion, property, "
               "sentiment; default all)", metavar="LAYER,..."),
        Option(("--intersect",), "intersect", "opinions as the module's --intersect option converts them",
               switch=True, default=False),
        Option(("--kaf",), "kaf", "KYOTO Kybot output: the KAF file the Kybots read (a folder: NAME for "
               "NAME.kybot.xml; default: NAME beside the input)", metavar="FILE", path="input"),
        Option(("--threshold",), "threshold", "KYOTO Kybot output: the WSD threshold, percent of the top rank on a "
               "term (default 0: keep everything)", default=0, type=int, metavar="N"),
        Option(("--strict-threshold",), "strict_threshold", "with --threshold: drop every role below it (the "
               "module keeps all of an event's roles when none would remain, so a higher threshold can keep "
               "more)", switch=True, default=False),
    )

    def convert(self, input: str, output: str, to: str, layers: str | None = None, **keywords) -> list[str]:
        """``fastscore convert SOURCE TARGET --to triples`` (``layers``: comma-separated, as the command takes them)."""
        from .convert import convert

        return convert(input, output, to, layers=[x.strip() for x in layers.split(",")] if layers else None, **keywords)


class TriplesCorpus(Corpus):
    """A folder of .trp files (or a glob pattern of them) is a corpus of shards: each file one document, named by
    its file name (a single file scored against another is one document); a NAF/KAF folder is one input."""

    def merge(self, results: list, gold: str, system: str):
        from .result import merge_results

        return merge_results(results, gold, system)

    def concat(self, reads: list, name: str, like):
        from ..formats.triples import concat_triples

        return concat_triples(reads, name, like)

    def folder_files(self, folder: str) -> list[str]:
        from ..formats.triples import trp_files

        return trp_files(folder)

    def read_shard(self, path):
        from ..formats.triples import read_triple_shard

        return read_triple_shard(path)


class TriplesTask(Task):
    name = "triples"
    summary = "score triples (NewsReader/KYOTO triple XML, NAF/KAF layers) as the Triple evaluation module does"
    description = ("Score system triples against gold triples — relation, first element, second element, each a "
                   "set of token ids — with the numbers of the Triple evaluation module (cltl/TripleEvaluation): "
                   "precision, recall and F1 with partial or exact ids, same or any relation, element statistics "
                   "and a per-relation table.")
    example = EXAMPLE
    api_doc = ("gold and system are triple files (one document each), folders or glob patterns of .trp files "
               "paired by name, NAF/KAF files or folders (with layers), or triple sets read with "
               "fastscore.read_triples.  Returns a TriplesResult (scores(), to_dict(), doc_stats).")
    docs_page = "docs/triples.md"
    gold_help = ("gold triple file, folder or quoted glob pattern of .trp files (or NAF/KAF with --layers; "
                 "'example' for the bundled example)")
    system_help = "system triple file, folder or quoted glob pattern of .trp files (or NAF/KAF with --layers)"
    extensions = (".trp",)
    reads = (("triples", ""), ("naf", ""))
    default_metric = "triples"
    metric_help = ("triples (the chosen variant), partial, partial-any-relation, exact, exact-any-relation, "
                   "first-elements, second-elements (default triples)")
    outputs = (("text", "readable table, default"), ("module", "the module's report file"), ("json", "JSON"),
               ("csv", "CSV"), ("markdown", "Markdown"))
    interval_free = ("module",)
    converter = TriplesConverter()
    options = OPTIONS
    corpus = TriplesCorpus()
    pairing = PAIRING

    def read(self, source):
        from .score import read

        return read(source)

    def score(self, gold, system, **keywords):
        from .score import score_triples

        return score_triples(gold, system, **keywords)

    def report(self, result, fmt: str, per_doc: bool = False) -> str:
        from .report import render

        return render(result, fmt, per_doc)

    def bundled_example(self, keywords: dict) -> tuple[str, str, dict]:
        return command_inputs("triples")

    def metric_choices(self, options: dict) -> tuple[str, ...]:
        """Every metric of the task's registries (whichever its options and inputs make)."""
        from ..metrics import every_metric
        from .metrics import REGISTRIES

        return every_metric(*REGISTRIES.values())


TRIPLES = TriplesTask()
