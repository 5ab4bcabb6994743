"""Explain over folders and glob patterns of files, as `fastscore coref` takes them: each key file is explained
against the response file of its documents (the file of the same name, else the one that holds them), and the
analyses are one result, documents in the order of the key's files."""
from __future__ import annotations

import glob
import os

from ..errors import InputError, UsageError
from ..messages import few


def is_several(spec: str) -> bool:
    """Whether an input names several files: a folder, or a glob pattern that is not a file's name."""
    return spec != "-" and (os.path.isdir(spec) or glob.has_magic(spec) and not os.path.exists(spec))


def score_files(key: str, response: str, score, task, doc: str | None = None, **options):
    """The analysis of the files of ``key`` against those of ``response`` (each a folder, a pattern or a file,
    read as ``task`` reads them); ``score``: (key file, response file, doc=..., **options) -> ExplainResult of one
    pair (the results are joined into one of its class)."""
    from ..planner import shard_files
    from ..stats.docstats import DocStats

    if "-" in (key, response):  # its documents would be read twice: to pair the files, then to explain them
        raise UsageError(f'"-": standard input cannot be explained against several files '
                         f"({response if key == '-' else key}): write it to a file")
    key_files, response_files = shard_files(key, task), shard_files(response, task)
    pairs, unpaired = _by_name(key_files, response_files) or _by_documents(key_files, response_files)
    if doc is not None:
        pairs = [(k, r) for k, r in pairs if doc in _names(k)]
        if not pairs:
            raise UsageError(f"{key}: no document named {doc!r}")
    results = [score(k, r, doc=doc, **options) for k, r in pairs]
    for (k, _), result in zip(pairs[1:], results[1:]):
        if result.options != results[0].options:
            raise InputError(f"{k}: explained as {result.options}, but {pairs[0][0]} as {results[0].options}: the "
                             "files of a corpus must be of one format")
    for (k, r), result in zip(pairs, results):
        for d in result.analysed:  # a mention's line is in its own file
            d.key_file, d.response_file = k, r
    warnings = [w for result in results for w in result.warnings]
    if unpaired:
        warnings.append(f"{response}: {len(unpaired)} response document(s) in no key file, not explained: "
                        f"{few(unpaired)}")
    stats = DocStats.concat([r.doc_stats for r in results], [k for k, _ in pairs])
    return type(results[0])(key, response, stats, [d for r in results for d in r.analysed], results[0].options,
                         warnings=warnings)


def doc_names(spec: str, task) -> list[str]:
    """The document names of an input (of its files, in order, when it names several, read as ``task`` reads
    them)."""
    from ..planner import shard_files

    return [n for path in (shard_files(spec, task) if is_several(spec) else [spec]) for n in _names(path)]


def _names(path: str) -> list[str]:
    from ..coref.score import read

    return list(read(path).doc_names)


def _by_name(key_files: list[str], response_files: list[str]) -> tuple[list, list] | None:
    """Each key file with the response file of its name, when every file of both sides has its match (None:
    they pair otherwise).  A response document of no key file is then found by the pair's analysis."""
    responses = {os.path.basename(r): r for r in response_files}
    if len(responses) != len(response_files) or len(key_files) != len(response_files):
        return None
    pairs = [(k, responses.get(os.path.basename(k))) for k in key_files]
    return None if any(r is None for _, r in pairs) else (pairs, [])


def _by_documents(key_files: list[str], response_files: list[str]) -> tuple[list, list]:
    """Each key file with the one response file that holds its documents (a file's documents are read for their
    names), and the documents of the response files paired with none (a paired file's others: its pair's
    analysis warns of them)."""
    from ..planner import plan_units

    key_names, response_names = [_names(k) for k in key_files], [_names(r) for r in response_files]
    units, _ = plan_units(key_names, response_names, key_files, response_files)
    pairs = []
    for unit in units:
        keys, found = [key_files[k] for k in unit.key], [response_files[r] for r in unit.response]
        if len(keys) > 1 or len(found) > 1:
            raise InputError(f"{', '.join(found)}: documents of {', '.join(keys)} are spread over several files "
                             "of the other side: explain pairs each key file with one response file (give a "
                             "response file for each key file, with its documents, or one file for each side)")
        if not found:
            raise InputError(f"{keys[0]}: no response file holds its documents (first: "
                             f"{few(key_names[unit.key[0]], 1)}): give the response's file of the same name")
        pairs.append((keys[0], found[0]))
    paired = {r for _, r in pairs}
    return pairs, [n for r, names in zip(response_files, response_names) if r not in paired for n in names]
