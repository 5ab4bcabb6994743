"""Coreference's choices, declared once (light: the command line's options are made from them): the input
formats, the matchings and the published configurations."""
from __future__ import annotations

from dataclasses import dataclass

FORMATS = ("auto", "conll2012", "conllu", "jsonl", "naf", "parquet", "arrow", "ua")
TEXT_FORMATS = ("conll2012", "conllu", "jsonl")  # those with the text of words and sentences (convert, explain)
MATCHES = ("exact", "partial", "head")  # the CorefUD scorer's mention matchings (exact: also v8.01's)
ZERO_MATCHES = ("dependent", "linear")  # how CoNLL-U zeros are paired
MINA_VARIANTS = ("coval", "paper")  # how minimum spans are found
KEEP_DROP = ("keep", "drop")  # --singletons, --split-antecedents


@dataclass(frozen=True)
class Preset:
    """A published configuration: input format, matching, zero matching, singletons."""

    name: str
    format: str
    match: str
    zero_match: str | None  # None: the format has no zeros
    singletons: str
    what: str


PRESETS = {p.name: p for p in (
    Preset("conll2012", "conll2012", "exact", None, "keep", "CoNLL-2012 shared task: reference scorer v8.01"),
    Preset("crac2022", "conllu", "partial", "linear", "drop", "CRAC 2022: CorefUD, partial matching, no singletons"),
    Preset("crac2023", "conllu", "head", "linear", "drop", "CRAC 2023: CorefUD, head matching, no singletons"),
    Preset("crac2024", "conllu", "head", "dependent", "drop",
           "CRAC 2024: CorefUD, head matching, zeros by their dependencies, no singletons"),
    Preset("crac2025", "conllu", "head", "dependent", "drop",
           "CRAC 2025: CorefUD, head matching, zeros by their dependencies, no singletons (as 2024)"),
)}
