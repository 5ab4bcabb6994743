"""Event nugget options and constants: presets (EvmEval versions), attributes, option checks.

This module imports nothing of ``fastscore.nugget``: the engine, the sequencing
conversion, the metrics and the results all read their constants from here.
"""
from __future__ import annotations

import os
import string
from dataclasses import dataclass
from functools import lru_cache

from ..errors import UsageError

NOT_ANNOTATED = "NOT_ANNOTATED"
# scorer_v1.7.1's list; it lowercases tokens before the lookup, so "I" never matches.
KBP2015_INVISIBLE = ("the", "a", "an", "I", "you", "he", "she", "we", "my", "your", "her", "our", "who", "where",
                     "when")
ATTRIBUTES = ("span", "type", "realis", "type+realis")
COREF_MAPPINGS = {"span": 0, "type": 1, "realis": 2, "type+realis": 3}
ASCII_LOWER = _ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)  # Python 2 lower()
_V17_DROP = str.maketrans("", "", string.punctuation + " \t\n\r\x0b\x0c")


@lru_cache(maxsize=None)
def canonical_v17(s: str) -> str:
    """scorer_v1.7.1: lower case, no white space, no ASCII punctuation."""
    return s.translate(_ASCII_LOWER).translate(_V17_DROP)


@lru_cache(maxsize=None)
def canonical_v18(s: str) -> str:
    """scorer_v1.8: only ASCII letters and digits, lower case."""
    return "".join(c for c in s if c.isascii() and c.isalnum()).translate(_ASCII_LOWER)


@dataclass(frozen=True)
class Preset:
    name: str
    scorer: str
    canonical: object  # str -> str
    invisible: tuple[str, ...]
    token_mode_default: bool
    raw_type_names: bool  # per-type table keyed by the raw type (v1.7.1) or the normalised one (v1.8)


PRESETS = {
    "kbp2015": Preset("kbp2015", "EvmEval scorer_v1.7.1", canonical_v17, KBP2015_INVISIBLE, True, True),
    "kbp2016": Preset("kbp2016", "EvmEval scorer_v1.8", canonical_v18, (), False, False),
    "kbp2017": Preset("kbp2017", "EvmEval scorer_v1.8", canonical_v18, (), False, False),
}


@dataclass
class Options:
    preset: Preset
    token_mode: bool
    tokens_dir: str | None
    token_ext: str
    invisible: frozenset[str]
    whitelist: frozenset[str] | None
    coref: bool
    coref_mapping: str
    coref_threshold: float
    mapping: str  # greedy | optimal
    per_type_mapping: str = "type+realis"  # EvmEval's (defective) choice; "type" corrects it
    sequencing: bool = False  # score @After/@Subevent links (v1.8 -a)
    no_script_validation: bool = False  # accept links both ways between two clusters (v1.8 -nv)
    sequencing_graph: str = "official"  # the TempEval-3 timegraph, or "exact" (the corrected closure)
    fix_evmeval_quirks: bool = False  # inputs read as they mean, not as EvmEval misreads them (nugget/quirks.py)
    notes: tuple[str, ...] = ()  # warnings about the options' files (the whitelist as EvmEval reads it)


def resolve_options(*, preset: str = "kbp2015", tokens: str | None = None, token_ext: str = ".tab",
                    char_spans: bool = False, invisible_words: str | None = None, coref: bool = False,
                    coref_mapping: str = "type", coref_threshold: float = 1.0, type_whitelist: str | None = None,
                    mapping: str = "greedy", per_type_mapping: str = "type+realis", sequencing: bool = False,
                    no_script_validation: bool = False, sequencing_graph: str = "official",
                    fix_evmeval_quirks: bool = False) -> Options:
    if preset not in PRESETS:
        raise UsageError(f"unknown preset {preset!r}: choose from {', '.join(PRESETS)}")
    p = PRESETS[preset]
    if char_spans and tokens is not None:
        raise UsageError("--char-spans and --tokens exclude each other")
    if tokens is not None and os.path.exists(tokens) and not os.path.isdir(tokens):
        raise UsageError(f"--tokens {tokens}: not a folder")
    if coref_mapping not in COREF_MAPPINGS:
        raise UsageError(f"unknown coreference mapping {coref_mapping!r}: choose from {', '.join(COREF_MAPPINGS)}")
    if not 0 < coref_threshold <= 1:
        # EvmEval aligns an unmapped gold mention with the last system mention when the threshold is <= 0;
        # above 1 (the largest Dice) nothing is aligned
        raise UsageError(f"the coreference threshold (--coref-threshold) is a Dice score in (0, 1], not "
                         f"{coref_threshold!r}")
    if mapping not in ("greedy", "optimal"):
        raise UsageError(f"unknown mapping {mapping!r}: choose greedy (official) or optimal")
    if per_type_mapping not in ("type+realis", "type"):
        raise UsageError(f"unknown per-type mapping {per_type_mapping!r}: choose type+realis (official) or type")
    if sequencing_graph not in ("official", "exact"):
        raise UsageError(f"unknown sequencing graph {sequencing_graph!r}: choose official or exact")
    if sequencing and preset == "kbp2015":
        raise UsageError("event sequencing is scored by scorer_v1.8: use --preset kbp2016 or kbp2017")
    token_mode = not char_spans and (tokens is not None or p.token_mode_default)
    _refuse_idle_options(aligned=coref or sequencing, sequencing=sequencing, token_mode=token_mode,
                         coref_mapping=coref_mapping, coref_threshold=coref_threshold,
                         no_script_validation=no_script_validation, sequencing_graph=sequencing_graph,
                         invisible_words=invisible_words, token_ext=token_ext)
    if invisible_words is None:
        invisible = frozenset(p.invisible)
    elif invisible_words == "none":
        invisible = frozenset()
    else:
        invisible = frozenset(w.strip() for w in _text(invisible_words).splitlines() if w.strip())
    whitelist, notes = None, ()
    if type_whitelist is not None:
        whitelist, notes = read_whitelist(type_whitelist, fix_evmeval_quirks)
    if tokens is not None and not os.path.exists(tokens):  # EvmEval -t scores it: every table missing
        notes += (f"--tokens {tokens}: no such folder: every document is scored without its token table, as "
                  "EvmEval does (check the path)",)
    return Options(p, token_mode, tokens, token_ext, invisible, whitelist, coref, coref_mapping, coref_threshold,
                   mapping, per_type_mapping, sequencing, no_script_validation, sequencing_graph,
                   bool(fix_evmeval_quirks), notes)


def read_whitelist(path: str, fix_evmeval_quirks: bool = False) -> tuple[frozenset[str] | None, tuple[str, ...]]:
    """The normalised types of a whitelist file as scorer_v1.8's ``main`` reads them (a line is what ends at
    "\\n"; a blank line adds "", which keeps the types with no ASCII letter or digit; no type at all filters
    nothing: None), and the warnings that say so.  ``fix_evmeval_quirks``: blank lines are skipped."""
    text = _text(path)
    lines = text.split("\n")[:-1] if text.endswith("\n") else text.split("\n") if text else []
    types = {canonical_v18(w) for w in lines if w.strip() or not fix_evmeval_quirks}
    notes = []
    if "" in types and not fix_evmeval_quirks:
        line = next(k for k, w in enumerate(lines, 1) if not canonical_v18(w))
        notes.append(f"{path}, line {line}: a line with no ASCII letter or digit in the type whitelist keeps the "
                     "types that have none, as EvmEval reads it (--fix-evmeval-quirks skips blank lines)")
    if not types:
        notes.append(f"{path}: no type in the type whitelist: every type is scored, as EvmEval does")
    return (frozenset(types) or None), tuple(notes)


def _refuse_idle_options(*, aligned: bool, sequencing: bool, token_mode: bool, coref_mapping: str,
                         coref_threshold: float, no_script_validation: bool, sequencing_graph: str,
                         invisible_words: str | None, token_ext: str) -> None:
    """Options that would change nothing are refused (a user who gives one expects it to act)."""
    checks = ((aligned, "without --coref (or --sequencing)",  # the coreference mapping serves both
               [f"--coref-mapping {coref_mapping}"] * (coref_mapping != "type")
               + [f"--coref-threshold {coref_threshold}"] * (coref_threshold != 1.0)),
              (sequencing, "without --sequencing",
               ["--no-script-validation"] * no_script_validation
               + [f"--sequencing-graph {sequencing_graph}"] * (sequencing_graph != "official")),
              (token_mode, "with character spans (they apply to token ids)",
               ["--invisible-words"] * (invisible_words is not None)
               + [f"--token-ext {token_ext}"] * (token_ext != ".tab")))
    for acting, why, given in checks:
        if given and not acting:
            raise UsageError(f"{', '.join(given)}: no effect {why}")


def _text(path: str) -> str:
    from ..formats.files import decode_utf8

    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror}") from None
    return decode_utf8(path, data)  # bytes that are not UTF-8: an error naming the line


LINK_TYPES = ("Subevent", "After")  # EvmEval's order (its script_types)
REPORTED = LINK_TYPES + ("All",)  # sequencing link types in the reports
COREF_METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc")
EVMEVAL_COREF_ORDER = ("bcub", "ceafe", "ceafm", "muc", "blanc")  # Python 2 dict order of the official report
SKIPPED = "ceafm"  # not part of the official average
