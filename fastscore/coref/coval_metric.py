"""The ``coval`` metric of Hugging Face ``evaluate``, computed by fastscore: ``compute(predictions, references)``.

``evaluate``'s coval metric takes lists of CoNLL-2012 lines, one list per example, and hands all the examples of
a call to coval as **one document**, each example being one **sentence** of it: a mention is known by (example,
first token, last token), token numbers count the lines of its example, and a cluster label names the same
entity in every example.  Scoring files differs: there every ``#begin document`` starts a document, blank lines
end sentences, and labels name entities within their document.  This module builds that one document
(``dummy_doc``, as evaluate names it) and scores it coval's way (``coref/mina.py`` and ``coref/engine.py``,
what ``fastscore coref --np-only/--remove-nested/--match mina`` runs), with coval's options.
"""
from __future__ import annotations

from itertools import chain
from typing import Sequence

import numpy as np

from ..errors import FastscoreError, UsageError, suggest_keywords

DOCUMENT = "dummy_doc"  # the document name evaluate gives coval
REPORTED = ("mentions", "muc", "bcub", "ceafe", "lea")  # evaluate's metrics, in its order
PLACEHOLDER = "-"  # a token line with no mention
_chain = chain.from_iterable


def _line_counts(examples) -> list[int] | None:
    """Each example's number of lines when ``examples`` is a list of non-empty lists (what evaluate is given;
    whether they are one-line strings the scanner tells); None otherwise (the line-by-line path checks)."""
    if type(examples) is not list or not set(map(type, examples)) <= {list}:  # C-level: no loop over examples
        return None
    counts = list(map(len, examples))
    return None if 0 in counts else counts


def _fast_texts(documents: list[tuple[list, list]], names: list[str]) -> tuple[list[str], list[int]] | None:
    """Both sides' CoNLL-2012 text of every document, joined at C level (no loop over lines), and every
    sentence's number of lines; None when an input is not lists of lists of strings of the same lengths on
    both sides (the line-by-line path pads, checks and says why).  Whether every line is one token line is
    checked after the scan (:func:`_read_as_written`)."""
    bodies: tuple[list[str], list[str]] = ([], [])
    lengths: list[int] = []
    try:
        for name, (references, predictions) in zip(names, documents):
            keys = _line_counts(references)
            if keys is None or keys != _line_counts(predictions):
                return None
            lengths += keys
            head = f"#begin document ({name}); part 000\n"
            for text, examples in zip(bodies, (references, predictions)):
                text += (head, "\n\n".join(map("\n".join, examples)), "\n\n#end document\n")
    except TypeError:  # a line that is not a string
        return None
    texts = ["".join(text) for text in bodies]
    # a line holding a newline (and a '#' line beside it) could cancel out in the scanner's counts: one line,
    # one newline, else the line-by-line path says what is wrong
    newlines = sum(lengths) + len(lengths) + 2 * len(documents)
    if any("\r" in text or text.count("\n") != newlines for text in texts):
        return None
    return texts, lengths


def _read_as_written(sides, lengths: list[int]) -> bool:
    """Whether both sides were read as one token per line, in sentences of the examples' lengths (a blank,
    '#' or multi-line string among the lines reads otherwise: the line-by-line path then says what)."""
    expected = np.asarray(lengths, dtype=np.int64)
    for _, tok in sides:
        starts = np.flatnonzero(tok.position == 0)
        if len(starts) != len(expected) or not np.array_equal(np.diff(np.append(starts, len(tok.position))),
                                                                expected):
            return False
    return True


def _lines(examples, side: str) -> list[list[str]]:
    if isinstance(examples, (str, bytes)) or not hasattr(examples, "__iter__"):
        raise UsageError(f"{side}: a list of examples, each a list of CoNLL-2012 lines, not {type(examples).__name__}")
    out = []
    for i, example in enumerate(examples):
        if isinstance(example, (str, bytes)) or not hasattr(example, "__iter__"):
            raise UsageError(f"{side}[{i}]: each example is a list of CoNLL-2012 lines (one per token), "
                             f"not {type(example).__name__}")
        lines = []
        for j, line in enumerate(example):
            if not isinstance(line, str):
                raise UsageError(f"{side}[{i}][{j}]: a line is a string, not {type(line).__name__}")
            line = line.rstrip("\r\n")
            if "\n" in line:
                raise UsageError(f"{side}[{i}][{j}]: one line per token, not a block of lines")
            if not line.split():
                raise UsageError(f"{side}[{i}][{j}]: a blank line (coval reads every line of an example as a token "
                                 "and fails on blank ones: give each sentence as its own example)")
            lines.append(line)
        out.append(lines)
    return out


def _comment_lines(examples: list[list[str]]) -> set[tuple[int, int]]:
    return {(i, j) for i, ex in enumerate(examples) for j, line in enumerate(ex) if line.startswith("#")}


def _document(name: str, examples: list[list[str]], lengths: list[int]) -> list[str]:
    """One CoNLL-2012 document of the examples: each example a sentence padded to ``lengths`` tokens;
    ``#`` lines (tokens to coval) become tokens without mentions."""
    out = [f"#begin document ({name}); part 000\n"]
    for i, n in enumerate(lengths):
        ex = examples[i] if i < len(examples) else []
        out.extend((PLACEHOLDER if line.startswith("#") else line) + "\n" for line in ex)
        out.extend(PLACEHOLDER + "\n" for _ in range(n - len(ex)))
        out.append("\n")
    out.append("#end document\n")
    return out


def _checked(keys: list[list[str]], responses: list[list[str]], needs_tree: bool, where: str) -> list[int]:
    """The sentence lengths both sides are written with (the longer side's), after coval's limits."""
    if needs_tree and (_comment_lines(keys) or _comment_lines(responses)):
        raise UsageError(f"{where}min_span and NP_only read the references' parse bits, which '#' lines do not "
                         "have: give examples without them (coval would read a '#' line as a token of the sentence)")
    if _comment_lines(keys) != _comment_lines(responses):
        raise UsageError(f"{where}the '#' lines of predictions and references are at different places: coval reads "
                         "them as tokens, so they must be the same lines in both")
    lengths = [max((len(ex[i]) if i < len(ex) else 0) for ex in (keys, responses))
               for i in range(max(len(keys), len(responses)))]
    if needs_tree and [len(ex) for ex in keys] != lengths:
        raise UsageError(f"{where}min_span and NP_only need every prediction example to have no more lines than "
                         "its reference (the reference's parse bits cover its tokens only)")
    return lengths


def _read_sides(documents: list[tuple[list, list]], names: list[str], needs_tree: bool) -> list:
    """Both sides of every document as ``read_conll_columns`` reads them: the lines joined at C level and
    scanned once when they read as written, else written line by line (padding, ``#`` lines, errors)."""
    from ..formats.conll import read_conll_columns

    fast = _fast_texts(documents, names)
    if fast is not None:
        try:
            sides = [read_conll_columns(name, text.encode("utf-8"), fields=needs_tree)  # from memory, not files
                     for name, text in zip(("references", "predictions"), fast[0])]
        except FastscoreError:  # e.g. a '#begin document' line among the tokens: the line-by-line path reads it
            sides = None
        if sides is not None and _read_as_written(sides, fast[1]):
            return sides
    texts: tuple[list[str], list[str]] = ([], [])
    for d, (references, predictions) in enumerate(documents):
        where = "" if len(documents) == 1 else f"document {d}: "
        keys, responses = _lines(references, "references"), _lines(predictions, "predictions")
        lengths = _checked(keys, responses, needs_tree, where)
        texts[0].extend(_document(names[d], keys, lengths))
        texts[1].extend(_document(names[d], responses, lengths))
    return [read_conll_columns(name, "".join(text).encode("utf-8"), fields=needs_tree)
            for name, text in zip(("references", "predictions"), texts)]


def _score(documents: list[tuple[list, list]], names: list[str], keep_singletons: bool, NP_only: bool,
           min_span: bool, remove_nested: bool):
    """The CorefResult of (references, predictions) pairs, each pair one document of the given name."""
    from .._gc import collector_paused
    from .mina import Options, score_mina
    from .result import CorefResult, shown_options
    from .metrics import COVAL_METRICS

    options = Options(min_span=min_span, keep_singletons=keep_singletons, np_only=NP_only,
                      remove_nested=remove_nested)
    with collector_paused():  # the lines, read and scored: many objects, no cycles
        sides = _read_sides(documents, names, min_span or NP_only)
        stats, _, warnings = score_mina(sides[0], sides[1], options)
    shown = shown_options(match="mina" if min_span else "exact", singletons="keep" if keep_singletons else "drop",
                          format="evaluate", np_only=bool(NP_only), remove_nested=bool(remove_nested))
    return CorefResult.scored(stats, None, COVAL_METRICS, "references", "predictions", shown, warnings)


@suggest_keywords
def score(predictions: Sequence[Sequence[str]], references: Sequence[Sequence[str]], keep_singletons: bool = True,
          NP_only: bool = False, min_span: bool = False, remove_nested: bool = False):
    """The :class:`~fastscore.coref.result.CorefResult` of ``evaluate``'s coval inputs (see :func:`compute`):
    one document; metrics registry ``COVAL_METRICS`` (v8.01's metrics with coval's evaluator semantics)."""
    return _score([(references, predictions)], [DOCUMENT], keep_singletons, NP_only, min_span, remove_nested)


@suggest_keywords
def score_documents(predictions: Sequence, references: Sequence, keep_singletons: bool = True, NP_only: bool = False,
                    min_span: bool = False, remove_nested: bool = False):
    """Many ``compute`` calls in one: ``predictions[d]`` and ``references[d]`` are the examples of document ``d``
    (what one ``compute`` call takes); the result has one row per document, named ``doc-D``."""
    if len(predictions) != len(references):
        raise UsageError(f"{len(predictions)} prediction documents but {len(references)} reference documents")
    names = [f"doc-{d}" for d in range(len(references))]
    return _score(list(zip(references, predictions)), names, keep_singletons, NP_only, min_span, remove_nested)


def _flat(registry, sums) -> dict[str, float] | list[dict[str, float]]:
    """evaluate's output from summed statistics (scalars: one dict; a column per statistic: one per row)."""
    columns = {}
    conll = 0.0
    for name in REPORTED:
        s = registry[name].score(sums)
        for k in ("recall", "precision", "f1"):
            columns[f"{name}/{k}"] = np.asarray(s[k], dtype=np.float64).tolist()
        if name in ("muc", "bcub", "ceafe"):
            conll = conll + np.asarray(s["f1"], dtype=np.float64)  # added in coval's order, averaged, scaled
    columns["conll_score"] = (conll / 3 * 100).tolist()
    if not isinstance(columns["conll_score"], list):
        return columns
    return [dict(zip(columns, values)) for values in zip(*columns.values())]


@suggest_keywords
def compute(predictions: Sequence[Sequence[str]], references: Sequence[Sequence[str]], keep_singletons: bool = True,
            NP_only: bool = False, min_span: bool = False, remove_nested: bool = False) -> dict[str, float]:
    """``evaluate.load("coval").compute(...)``'s output, with coval's numbers: ``{"mentions/recall": ...,
    "mentions/precision": ..., "mentions/f1": ..., "muc/recall": ..., ..., "lea/f1": ..., "conll_score": ...}``
    (fractions; ``conll_score`` in percent).  ``predictions`` and ``references``: lists of examples, each a list
    of CoNLL-2012 lines (one token per line, coreference in the last column; the references' 6th column holds
    the parse bits ``min_span`` and ``NP_only`` read).  All examples form one document, each a sentence."""
    result = score(predictions, references, keep_singletons, NP_only, min_span, remove_nested)
    return _flat(result.doc_stats.registry, result.doc_stats.sums())


@suggest_keywords
def compute_documents(predictions: Sequence, references: Sequence, keep_singletons: bool = True,
                      NP_only: bool = False, min_span: bool = False, remove_nested: bool = False) -> list[dict]:
    """:func:`compute` of each document, in one call (read and scored together): ``predictions[d]`` and
    ``references[d]`` are what one ``compute`` call takes; one output dict per document."""
    if len(predictions) == len(references) == 0:
        return []
    stats = score_documents(predictions, references, keep_singletons, NP_only, min_span, remove_nested).doc_stats
    return _flat(stats.registry, {c: stats.matrix[:, k] for k, c in enumerate(stats.columns)})
