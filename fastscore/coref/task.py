"""The coreference task: CoNLL-2011/2012 files, the numbers of the reference scorer v8.01 (and coval's LEA).

Light at import (the command line is built from it): the engine is imported when something is scored.
"""
from __future__ import annotations

import argparse

from ..errors import InputError
from ..task import Converter, Corpus, Option, Task, lazy
from . import PAIRING
from .choices import FORMATS, KEEP_DROP, MATCHES, MINA_VARIANTS, PRESETS, TEXT_FORMATS, ZERO_MATCHES

ONE_METRIC = ("conll", "muc", "bcub", "ceafe", "ceafm", "blanc", "lea")

EXAMPLE = """\
examples:
  fastscore coref example example          # the bundled example (TC-A / TC-A-4)
  fastscore coref example example --format conllu   # the CorefUD one: a zero, a discontinuous mention
  fastscore coref key.conll response.conll
  fastscore coref key.conll response.conll -m muc -m bcub -m ceafe --output json
  fastscore coref key.conll response.conll --output perl -m bcub   # v8.01's report layout
  fastscore coref key.conll response.conll --bootstrap 1000          # 95% intervals
"""

API_DOC = """\
key and response are CoNLL-2011/2012, CoNLL-U or jsonlines files, or tables read with fastscore.read_conll
(MentionTable).  metrics: names from muc, bcub, ceafm, ceafe, blanc, lea, conll (CoNLL-U also mor, zero) and all
(default all), a string or a list, each possibly comma-separated.

Returns a CorefResult: .scores(), .document(name), .to_dict(), .to_arrow() and .doc_stats (per-document
numerators and denominators).  Recall = num/den, Precision = num/den, F1 = 2PR/(P+R) for every metric; see
docs/coreference.md for each metric's numerator and denominator.
"""


def _metric_names(text: str) -> str:
    """A `-m` value: one metric name, or several separated by commas (of the task's registries, or all)."""
    known = (*COREF.metric_choices({}), "all")
    wrong = [n for n in text.split(",") if n.strip().lower() not in known]
    if wrong:
        raise argparse.ArgumentTypeError(f"unknown metric {wrong[0]!r}: choose from {', '.join(known)}")
    return text


OPTIONS = (
    Option(("-m", "--metric"), "metrics", "metric to report: muc, bcub, ceafm, ceafe, blanc, lea, mor, zero, conll, "
           "all (repeatable, or comma-separated; default: all)", type=_metric_names, metavar="METRIC", repeatable=True,
           scope="command", positional=True),
    Option(("--format",), "format", "input format: auto (from the content, default), conll2012, conllu "
           "(CorefUD), jsonl, naf (NAF coreference: a file, or a folder of documents), parquet, arrow (mention "
           "tables written by fastscore convert), ua (Universal Anaphora: the UA scorer's numbers, docs/ua.md)",
           default="auto", choices=FORMATS),
    Option(("--cross-document",), "cross_document", "NAF: score each topic (ECB+ style) as one coreference space, "
           "across its documents", switch=True, default=False),
    Option(("--match",), "match", "mention matching: exact, partial (the response inside the key, with its "
           "head), head (the same head), both CoNLL-U only; mina (minimum spans from the key's parse, as coval "
           "min_span), CoNLL-2012 only; min (the key's Min spans, the UA scorer's MIN), UA only; default exact "
           "(CoNLL-2012, UA), head (CoNLL-U)",
           choices=(*MATCHES, "mina", "min")),
    Option(("--mina-variant",), "mina_variant", "with --match mina: coval (its numbers, default) or paper (the "
           "definition of Moosavi et al. 2019; see docs/mina.md)", choices=MINA_VARIANTS),
    Option(("--np-only",), "np_only", "CoNLL-2012: score only mentions whose parse is not a VP (coval's NP_only)",
           switch=True, default=False),
    Option(("--remove-nested",), "remove_nested", "CoNLL-2012: drop mentions nested in a mention of their own "
           "cluster (coval's remove_nested)", switch=True, default=False),
    Option(("--fix-coval-quirks",), "fix_coval_quirks", "corrected reading, not official: with --match mina, "
           "--np-only or --remove-nested, read the files as written (coval splits a word at U+00A0, U+3000, ... and "
           "misses documents behind a byte-order mark or an odd start line; see docs/mina.md)", switch=True,
           default=False),
    Option(("--zero-match",), "zero_match", "CoNLL-U zeros: dependent (paired first by their DEPS, default) or "
           "linear (matched like other mentions)", choices=ZERO_MATCHES),
    Option(("--singletons",), "singletons", "keep or drop one-mention clusters of key and response (default: "
           "keep for CoNLL-2012 and jsonl, as v8.01; drop for CoNLL-U, as the CorefUD scorer)",
           choices=KEEP_DROP),
    Option(("--split-antecedents",), "split_antecedents", "UA: keep (default) or drop plural sets (ElementOf) "
           "as split antecedents (the UA scorer's remove_split_antecedent)", choices=KEEP_DROP),
    Option(("--non-referring",), "non_referring", "UA: score non-referring (-Pseudo) markable identification "
           "(keep_non_referring)", switch=True, default=False),
    Option(("--bridging",), "bridging", "UA: score bridging pairs (keep_bridging)", switch=True, default=False),
    Option(("--only-split-antecedents",), "only_split_antecedents", "UA: score only the alignment of split "
           "antecedents (only_split_antecedent)", switch=True, default=False),
    Option(("--discourse-deixis",), "discourse_deixis", "UA: score the DISCOURSE_DEIXIS column instead of "
           "IDENTITY (evaluate_discourse_deixis)", switch=True, default=False),
    Option(("--preset",), "preset", "a published configuration: conll2012, crac2022 (CorefUD, partial), "
           "crac2023 (head), crac2024 and crac2025 (head, zeros by dependencies)",
           choices=tuple(PRESETS)),
    Option(("--fix-scorer-quirks",), "fix_scorer_quirks", "CoNLL-2012: read what v8.01 misreads as it was meant "
           "(a byte-order mark, start and end lines, whitespace after the last TAB; see docs/formats.md), not v8.01's "
           "figures",
           switch=True, default=False),
    Option(("--fix-corefud-quirks",), "fix_corefud_quirks", "CoNLL-U: read what udapi, and so the CorefUD scorer, "
           "misreads as written (each sentence with the global.Entity header above it, not the file's last; see "
           "docs/corefud.md), not the scorer's figures", switch=True, default=False),
    Option(("--allow-repeated",), "allow_repeated", "score a response with more than 10 repeated mentions "
           "(v8.01 refuses to)", switch=True, default=False),
    Option(("--doc",), "doc", "score only this key document (its full name, part included)", metavar="NAME",
           scope="command"),
    Option(("--totals-only",), "totals_only", "with --output perl: only the TOTALS (as v8.01 with the name "
           "'none')", switch=True, default=False, scope="report"),
)


class CorefConverter(Converter):
    targets = ("conll2012", "conllu", "jsonl", "parquet", "arrow", "ua")
    summary = ("coreference files between CoNLL-2012, CoNLL-U and jsonlines (parquet, arrow: the mention table, "
               "read back by fastscore coref without parsing; ua: CoNLL-U as Universal Anaphora, and a UA file --to "
               "conllu, docs/ua.md)")
    options = (
        Option(("--from",), "source_format", "the input's format (default auto: from the content)", default="auto",
               choices=("auto", *TEXT_FORMATS, "ua")),
        Option(("--template",), "template", "a file of the target format with the input's documents and words "
               "(e.g. the CoNLL-U key): its text (sentence ids, columns, empty nodes, fields) is kept and its "
               "coreference replaced", metavar="FILE", path="input"),
    )

    def convert(self, input: str, output: str, to: str, **keywords) -> list[str]:
        from .convert import convert_command

        return convert_command(input, output, to, **keywords)


_BATCHES = {"jsonl": lazy("fastscore.formats.jsonl", "jsonl_batches"),
            "conllu": lazy("fastscore.formats.conllu_batches", "conllu_batches"),
            "conll2012": lazy("fastscore.formats.conll", "conll_batches")}


class CorefCorpus(Corpus):
    batch_formats = "CoNLL-2012, jsonlines, CoNLL-U"

    def concat(self, tables: list, name: str, like):
        from ..formats.table import MentionTable

        if not all(isinstance(t, MentionTable) for t in (*tables, like)):  # files named for the UA scoring
            from ..errors import UsageError

            raise UsageError(f"{name}: the UA options (--split-antecedents, --bridging, --only-split-antecedents) "
                             "score each key shard against the response shard of the same documents: give shards "
                             "that pair so, or one file each")
        # CoNLL-U: the response holds the key's sentences, or nothing scores
        if not tables and like.words is not None:
            from ..messages import few

            raise InputError(f"{name}: holds none of the documents of {like.path} ({few(like.doc_names)}): a "
                             "CoNLL-U response must hold the key's documents and sentences (the CorefUD scorer reads "
                             "the two files side by side)")
        if not tables:  # a key shard none of whose documents is in the response
            empty = like.select([])
            empty.path = name
            return empty
        if any(t.words is not None for t in tables):
            if any(t.batch is not None for t in tables):  # batches are cut before the same documents on both sides
                raise InputError(f"{name}: the batches of the key and of the response hold other documents (their "
                                 "sentences differ): score the two files without --batch-size to see where")
            raise InputError(f"{name}: the documents of a CoNLL-U shard are spread over several shards of the "
                             "other side: give key and response shards of the same documents")
        return MentionTable.concat(tables, name)

    def batches(self, path: str, size: int) -> list:
        from .score import detect_format

        batches = _BATCHES.get(detect_format(path))
        # other formats are read whole (Parquet, Arrow files are memory-mapped; NAF is a file or folder per document)
        return [] if batches is None else batches(path, size)

    def part_summary(self, part):
        from ..formats.conllu_batches import batch_summary
        from ..formats.table import MentionTable

        return batch_summary(part) if isinstance(part, MentionTable) else None  # a UA file: read when scored

    part_contexts = staticmethod(lazy("fastscore.formats.conllu_batches", "part_contexts"))
    in_context = staticmethod(lazy("fastscore.formats.conllu_batches", "in_context"))
    read_again = staticmethod(lazy("fastscore.formats.conllu_batches", "read_again"))
    prepare = staticmethod(lazy("fastscore.formats.columnar", "import_reader"))


class CorefTask(Task):
    name = "coref"
    summary = ("score coreference output: CoNLL-2011/2012, CoNLL-U (CorefUD), jsonlines (MUC, B3, CEAF, BLANC, "
               "LEA, CoNLL, MOR)")
    description = ("Score a coreference response against a key, with the numbers of the CoNLL reference scorer "
                   "v8.01 (and coval's LEA) for CoNLL-2011/2012 and jsonlines files, and of the CorefUD scorer 1.2 "
                   "for CoNLL-U files (exact, partial or head matching, zeros, MOR); minimum spans (MINA) as coval "
                   "scores them with --match mina.")
    example = EXAMPLE
    api_doc = API_DOC
    docs_page = "docs/coreference.md"
    gold_help = "gold file: CoNLL-2012, CoNLL-U or jsonlines ('example' for the bundled example)"
    system_help = "system file, in the key's format ('example' for the bundled example)"
    extensions = (".conll", ".conllu", ".jsonl", ".parquet", ".arrow", ".ua")
    default_metric = "conll"
    metric_help = f"{'|'.join(ONE_METRIC)} (default conll)"
    outputs = (("text", "readable table, default"), ("perl", "v8.01 report layout"),
               ("corefud", "the CorefUD scorer's report, CoNLL-U"),
               ("coval", "coval's report (--match mina, --np-only, --remove-nested)"),
               ("ua", "the Universal Anaphora scorer's report, --format ua"), ("json", "JSON"), ("csv", "CSV"),
               ("markdown", "Markdown"))
    interval_free = ("perl", "corefud", "coval", "ua")
    inputs_shown = ("perl",)
    converter = CorefConverter()
    options = OPTIONS
    # how a file is read: its format as given, and the token columns minimum spans read too
    read_keywords = ("format", "match", "np_only", "remove_nested", "fix_scorer_quirks", "fix_corefud_quirks",
                     "split_antecedents", "bridging", "only_split_antecedents")
    input_names = ("KEY", "RESPONSE")
    corpus = CorefCorpus()
    reads = (("conll", ""), ("conllu", "--format conllu"), ("jsonl", "--format jsonl"), ("parquet", ""),
             ("arrow", ""), ("naf", "--format naf"))
    pairing = PAIRING

    def read(self, source, **read_keywords):
        from .score import read

        return read(source, **read_keywords)

    def score(self, key, response, **keywords):
        from .score import score_coref

        return score_coref(key, response, **keywords)

    def report(self, result, fmt: str, per_doc: bool = False, totals_only: bool = False) -> str:
        from ..errors import UsageError
        from .reports import render

        ua = "split-antecedents" in result.options  # scored as the UA scorer: UA files, or CoNLL-U with its options
        if (fmt == "ua") != ua and fmt in self.interval_free:  # the official layouts: each its own scorer's
            raise UsageError("--output ua is the UA scorer's report: it needs UA files (--format ua) or CoNLL-U "
                             "with a UA option (--split-antecedents, --bridging, --only-split-antecedents)"
                             if fmt == "ua" else f"--output {fmt} is another scorer's report: scored as the UA "
                             "scorer (UA files, or CoNLL-U with a UA option) use --output ua")
        if fmt == "ua":
            from ..ua.report import render as render_ua

            return render_ua(result)
        if fmt == "perl" and result.options.get("format") == "conllu":
            raise UsageError("--output perl is v8.01's report of CoNLL-2012 spans: for CoNLL-U use --output "
                             "corefud")
        if fmt == "perl" and result.tables is None:
            raise UsageError("--output perl is v8.01's report of exact spans: with --match mina, --np-only or "
                             "--remove-nested use --output coval")
        if totals_only and fmt != "perl":
            raise UsageError("--totals-only shapes the v8.01 report: use it with --output perl")

        return render(result, fmt, per_doc=per_doc, totals_only=totals_only)

    def bundled_example(self, keywords: dict) -> tuple[str, str, dict]:
        """The CoNLL-2012 example, the CorefUD one with --format conllu or a CRAC preset, the UA one with --format
        ua."""
        from ..examples import command_inputs

        if keywords.get("format") == "ua":
            return command_inputs("ua")
        corefud = keywords.get("format") == "conllu" or str(keywords.get("preset")).startswith("crac")
        return command_inputs("corefud" if corefud else "coref")

    def metric_choices(self, options: dict) -> tuple[str, ...]:
        """Every metric of the task's registries (whichever its options and inputs make)."""
        from ..metrics import every_metric
        from .metrics import COREFUD_METRICS, METRICS

        return every_metric(METRICS, COREFUD_METRICS)


COREF = CorefTask()
