"""Scoring a coreference response against a key (see :func:`fastscore.api.score_coref`).

Inputs are CoNLL-2011/2012, CoNLL-U (CorefUD) or jsonlines files, or tables already read.
CoNLL-2012 and jsonlines are scored as the reference scorer v8.01 scores them (exact spans);
CoNLL-U as the CorefUD scorer 1.2 does (exact, partial or head matching, zeros, its BLANC, MOR
and the zero score).
"""
from __future__ import annotations

import os
from functools import partial
from types import SimpleNamespace
from typing import Iterable

from .._gc import collector_paused
from ..errors import InputError, OtherFormatError, UsageError
from ..formats.conll import read_conll
from ..formats.files import Part, read_bytes, read_head, readers_hint, sniff_format, source_name
from ..formats.table import MentionTable
from ..messages import shown
from ..task import lazy
from .engine import align_documents, check_documents, score_aligned, unseen_key_document
from .choices import FORMATS, KEEP_DROP, MATCHES, PRESETS, ZERO_MATCHES
from .metrics import COREFUD_METRICS, COVAL_METRICS, METRICS, resolve
from .result import CorefResult, shown_options

V801_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")  # what v8.01 scores, one run each
UA_ONLY = ("split_antecedents", "non_referring", "bridging", "only_split_antecedents", "discourse_deixis")


def read(source, format: str = "auto", *, cross_document: bool = False, defer_bracket_errors: bool = True,
         match: str | None = None, np_only: bool = False, remove_nested: bool = False,
         fix_scorer_quirks: bool = False, fix_corefud_quirks: bool = False, split_antecedents: str | None = None,
         bridging: bool = False, only_split_antecedents: bool = False) -> MentionTable:
    """A mention table, read once (an already-read table is returned as it is).  NAF (a file or a folder of
    files; ``cross_document``: one document per topic) is read by :func:`fastscore.formats.naf.read_naf_coref`.
    ``defer_bracket_errors`` (CoNLL-2012, for scoring): a document whose brackets do not balance is refused
    only when it is scored, as v8.01 refuses it (see :func:`fastscore.formats.conll.read_conll`).  With the
    minimum-span options (``match="mina"``, ``np_only``, ``remove_nested``) a CoNLL-2012 file is read with its
    token columns (``MentionTable.tokens``), which they read.  ``fix_scorer_quirks`` (CoNLL-2012): read what v8.01
    misreads as it was meant (see :func:`fastscore.formats.conll.read_conll`); ``fix_corefud_quirks`` (CoNLL-U):
    what udapi misreads (see :func:`fastscore.formats.conllu.read_conllu`).  With the UA options
    (``split_antecedents``, ``bridging``, ``only_split_antecedents``) a CoNLL-U file is named for the UA scoring
    (:class:`fastscore.ua.corefud.CorefUDSource`), read when scored."""
    if isinstance(source, MentionTable):
        return source
    if format == "ua":  # read when scored: how depends on the scoring options (columns, Min, bridging)
        from ..ua.reader import UASource

        return source if isinstance(source, UASource) else UASource(os.fspath(source))
    if (split_antecedents or bridging or only_split_antecedents) and _conllu_input(source, format):
        from ..ua.corefud import CorefUDSource  # CoNLL-U with the UA options: read as UA text when scored

        return source if isinstance(source, CorefUDSource) else CorefUDSource(os.fspath(source))
    if ((match == "mina" or np_only or remove_nested) and format in ("auto", "conll2012")
            and isinstance(source, (str, os.PathLike)) and os.path.isfile(source)
            and detect_format(source) == "conll2012"):
        from ..formats.conll import read_conll_columns

        table, tokens = read_conll_columns(source)
        table.tokens = tokens
        return table
    if format != "auto":
        return _read_format(source, format, cross_document, defer_bracket_errors, fix_scorer_quirks=fix_scorer_quirks,
                            fix_corefud_quirks=fix_corefud_quirks)
    fmt = detect_format(source.path if isinstance(source, Part) else source)
    table = _read_format(source, fmt, cross_document, defer_bracket_errors, sniffed=True,
                         fix_scorer_quirks=fix_scorer_quirks, fix_corefud_quirks=fix_corefud_quirks)
    table.sniffed = fmt  # the signature's format (_format_of): not sniffed again
    return table


_TABLE_FILE = lazy("fastscore.formats.columnar", "read_mention_table")
_READERS = {"jsonl": lazy("fastscore.formats.jsonl", "read_jsonl"), "parquet": _TABLE_FILE, "arrow": _TABLE_FILE,
            "conllu": lazy("fastscore.formats.conllu", "read_conllu")}


def _read_format(source, fmt: str, cross_document: bool, defer_bracket_errors: bool,
                 sniffed: bool = False, fix_scorer_quirks: bool = False,
                 fix_corefud_quirks: bool = False) -> MentionTable:
    """:func:`read` of a file (or a batch of a large CoNLL-2012, jsonlines or CoNLL-U file: a ``Part``) whose format
    is known (``sniffed``: told from its content, so no mention table file of another kind)."""
    if fmt in ("conll2012", "conllu", "jsonl") and not sniffed and not isinstance(source, Part):
        from ..formats.columnar import table_file_kind

        if table_file_kind(source) is not None:  # a preset or --format names the kind
            return _columnar_of_kind(source, fmt)
    if fmt == "naf":
        from ..formats.naf import read_naf_coref

        return read_naf_coref(source, cross_document)
    if fmt == "conllu":
        return _READERS[fmt](source, fix_corefud_quirks)
    if fmt in _READERS:
        return _READERS[fmt](source)
    return read_conll(source, defer_bracket_errors, fix_scorer_quirks)


def _columnar_of_kind(source, fmt: str) -> MentionTable:
    """A mention table file read for a format given by name: CoNLL-U tables for conllu, span tables else."""
    from ..formats.columnar import read_mention_table

    table = read_mention_table(source)
    if (table.words is not None) != (fmt == "conllu"):
        kind = "CoNLL-U" if table.words is not None else "spans (CoNLL-2012, jsonlines or NAF)"
        raise UsageError(f"{os.fspath(source)}: a mention table of {kind}, not of {fmt}")
    return table


FILE_ENDINGS = (".conll", ".conllu", ".jsonl", ".jsonlines", ".parquet", ".arrow", ".gz")


def detect_format(path) -> str:
    """conllu, jsonl, naf, parquet, arrow or conll2012 (the default), from the start of the file."""
    path = os.fspath(path)
    if os.path.isdir(path) and path != "-":
        named = [e for e in FILE_ENDINGS if path.rstrip("/" + os.sep).endswith(e)]
        if named:  # a folder named like a file (e.g. a failed download): not NAF documents
            link = path.rstrip("/" + os.sep)
            what = f"a link to the folder {shown(os.readlink(link))}" if os.path.islink(link) else "a folder"
            raise InputError(f"{shown(path)}: is {what}, not a {named[0]} file (a folder is read as NAF documents, or "
                             "as a corpus when it holds .conll, .conllu, .jsonl, .parquet or .arrow files)")
        _refuse_folder_of_no_naf(path)
        return "naf"  # a folder of NAF documents (topics: cross-document coreference)
    data = read_head(path)
    from ..formats.naf import NAF_ROOTS
    from ..formats.xml_input import looks_like_xml, xml_root

    if looks_like_xml(data):  # the root element may lie past the head (a long comment before it)
        name = source_name(path)
        root = xml_root(data, complete=False, path=name) or xml_root(read_bytes(path, keep=True), path=name)
        if root is not None and root.name in NAF_ROOTS:
            return "naf"
    sniffed = sniff_format(data)  # parquet, arrow: a mention table written by fastscore convert
    known = ("conllu", "jsonl", "parquet", "arrow")
    return sniffed.format if sniffed is not None and sniffed.format in known else "conll2012"


def _refuse_folder_of_no_naf(path: str) -> None:
    """A folder that is no corpus of shards (coref.task) is read as NAF documents: one of none is refused
    saying what it holds (another task's files: the command that reads them)."""
    from ..formats.files import READERS, folder_hint
    from ..formats.naf import EXTENSIONS, holds_naf

    if holds_naf(path):
        return
    own = {fmt for fmt, readers in READERS.items() if any(name == "coref" for name, _ in readers)}
    text, fmt = folder_hint(path, own)
    problem = (f"the folder holds no NAF/KAF document ({', '.join(EXTENSIONS)}) and no shard "
               f"({', '.join(e for e in FILE_ENDINGS if e not in ('.jsonlines', '.gz'))}){text or ': it is empty'}")
    if fmt is not None:
        raise OtherFormatError(path, None, problem, fmt, readers_hint(fmt))
    raise InputError(f"{path}: {problem}")


def score_coref(key, response, metrics: Iterable[str] | None = None, *, singletons: str | None = None,
                doc: str | None = None, allow_repeated: bool = False, format: str = "auto", match: str | None = None,
                zero_match: str | None = None, preset: str | None = None, cross_document: bool = False,
                mina_variant: str | None = None, np_only: bool = False, remove_nested: bool = False,
                fix_coval_quirks: bool = False, fix_scorer_quirks: bool = False,
                fix_corefud_quirks: bool = False, split_antecedents: str | None = None,
                non_referring: bool = False, bridging: bool = False, only_split_antecedents: bool = False,
                discourse_deixis: bool = False) -> CorefResult:
    """See :func:`fastscore.api.score_coref`."""
    o = SimpleNamespace(**{k: v for k, v in locals().items() if k not in ("key", "response", "metrics")})
    engine = _engine(key, o)
    if engine not in ("ua", "corefud-ua"):
        given = [k for k in UA_ONLY if getattr(o, k)]
        if given:
            raise UsageError(f"--{given[0].replace('_', '-')} applies to Universal Anaphora files (--format ua) and "
                             "CoNLL-U files (--format conllu)")
        if match == "min":
            raise UsageError("--match min is the UA scorer's MIN (the key's Min spans): add --format ua; for "
                             "CoNLL-2012 minimum spans use --match mina")
    with collector_paused():  # many small objects, no cycles: collections would only rescan them
        return ENGINES[engine](key, response, metrics, o)


def _engine(key, o: SimpleNamespace) -> str:
    """Which engine scores (a name of ``ENGINES``): the UA scorer's for UA files, and for CoNLL-U files with the
    UA options (their SplitAnte and Bridge); coval's for minimum spans, NP_only and remove_nested; else the
    spans' (v8.01's, or the CorefUD scorer's for CoNLL-U inputs)."""
    if o.format == "ua":
        return "ua"
    if any(getattr(o, k) for k in UA_ONLY) and _conllu_input(key, o.format):
        return "corefud-ua"
    if o.match == "mina" or o.np_only or o.remove_nested or o.mina_variant is not None or o.fix_coval_quirks:
        return "coval"
    return "spans"


def _score_ua(key, response, metrics, o: SimpleNamespace, corefud: bool = False) -> CorefResult:
    """Universal Anaphora files, as the UA scorer scores them (fastscore/ua); ``corefud``: CoNLL-U files with the
    UA options, their SplitAnte and Bridge scored so.  The UA scoring reads the files itself (a read input: its
    path); mention tables are refused."""
    own = ("fix_corefud_quirks",) if corefud else ()
    given = [k for k, v in vars(o).items() if v and k not in ("singletons", "doc", "format", "match", *own, *UA_ONLY)]
    if given:
        raise UsageError(f"--{given[0].replace('_', '-')} does not apply to "
                         + ("CoNLL-U files scored with the UA options (--split-antecedents, --bridging, "
                            "--only-split-antecedents)" if corefud else "Universal Anaphora files (--format ua)"))
    if isinstance(key, MentionTable) or isinstance(response, MentionTable):
        raise UsageError("the UA options read CoNLL-U files (their SplitAnte and Bridge), not mention tables or "
                         "batches (--batch-size)" if corefud else "--format ua reads UA files, not mention tables")
    key, response = (x.path if hasattr(x, "doc_names") else x for x in (key, response))
    if corefud:
        from ..ua.corefud import score_corefud_ua as score
    else:
        from ..ua.score import score_ua as score
    return score(key, response, metrics, singletons=o.singletons, match=o.match, doc=o.doc,
                 **{k: getattr(o, k) for k in (*own, *UA_ONLY)})


def _conllu_input(key, format: str) -> bool:
    """Whether the key is a CoNLL-U file (given so, or told from its content; a batch is not: the UA options read
    files whole)."""
    if isinstance(key, Part):
        return False
    if format != "auto":
        return format == "conllu"
    from ..ua.corefud import CorefUDSource, looks_like_ua

    if isinstance(key, CorefUDSource):
        return True
    return (isinstance(key, (str, os.PathLike)) and os.path.isfile(key)
            and detect_format(key) == "conllu" and not looks_like_ua(key))  # (a UA file: --format ua)


def _score_coval(key, response, metrics, o: SimpleNamespace) -> CorefResult:
    """Minimum spans, NP_only and remove_nested: coval's way (CoNLL-2012 files)."""
    from .mina import Options, score_mina

    if o.fix_scorer_quirks or o.fix_corefud_quirks:
        flag = "--fix-scorer-quirks" if o.fix_scorer_quirks else "--fix-corefud-quirks"
        raise UsageError(f"{flag} reads files as {'v8.01' if o.fix_scorer_quirks else 'udapi'} meant to; coval's "
                         "scoring (--match mina, --np-only, --remove-nested) reads them as coval does "
                         "(--fix-coval-quirks)")
    match, singletons = o.match, o.singletons
    if o.fix_coval_quirks and not (match == "mina" or o.np_only or o.remove_nested):
        raise UsageError("--fix-coval-quirks corrects how coval reads the files (documents, columns): use it with "
                         "--match mina, --np-only or --remove-nested")

    if match not in (None, "exact", "mina"):
        raise UsageError(f"--match {match} is CorefUD matching (CoNLL-U); --np-only and --remove-nested apply to "
                         "CoNLL-2012 files, with --match exact or mina")
    if o.mina_variant is not None and match != "mina":
        raise UsageError("--mina-variant chooses how minimum spans are found: use it with --match mina")
    for name, given in (("--allow-repeated", o.allow_repeated), ("--zero-match", o.zero_match is not None),
                        ("--preset", o.preset is not None), ("--cross-document", o.cross_document)):
        if given:
            raise UsageError(f"{name} does not apply to coval's scoring (--match mina, --np-only, --remove-nested)")
    if singletons not in (None, *KEEP_DROP):
        raise UsageError(f"--singletons must be one of keep, drop, not {singletons!r}")
    if o.format not in ("auto", "conll2012"):
        raise UsageError(f"--match mina, --np-only and --remove-nested read CoNLL-2012 files, not {o.format}")
    for path in (key, response):
        found = "conll2012" if isinstance(path, MentionTable) else detect_format(path)
        if found != "conll2012":
            raise UsageError(f"{os.fspath(path)}: --match mina, --np-only and --remove-nested read CoNLL-2012 files "
                             f"(with the key's parse bits), not {found}")
    key_path, resp_path = (x.path if isinstance(x, MentionTable) else os.fspath(x) for x in (key, response))
    options = Options(min_span=match == "mina", variant=o.mina_variant or "coval",
                      keep_singletons=singletons != "drop", np_only=o.np_only, remove_nested=o.remove_nested,
                      fix_coval_quirks=o.fix_coval_quirks)
    stats, aligned, warnings = score_mina(key, response, options, o.doc)
    shown = shown_options(match=match or "exact", mina_variant=options.variant if options.min_span else None,
                          singletons=singletons or "keep", np_only=bool(o.np_only),
                          remove_nested=bool(o.remove_nested), fix_coval_quirks=bool(o.fix_coval_quirks), doc=o.doc)
    return CorefResult.scored(stats, metrics, COVAL_METRICS, key_path, resp_path, shown, warnings, aligned=aligned)


def _score_spans(key, response, metrics, o: SimpleNamespace) -> CorefResult:
    """Spans as v8.01 scores them (CoNLL-2012, jsonlines, NAF, mention tables), or as the CorefUD scorer does
    when the inputs read are CoNLL-U."""
    doc, preset, cross_document, fix_corefud_quirks = o.doc, o.preset, o.cross_document, o.fix_corefud_quirks
    how = {"cross_document": cross_document, "fix_scorer_quirks": o.fix_scorer_quirks,
           "fix_corefud_quirks": fix_corefud_quirks}  # how the files are read
    settings = _settings(o.format, o.match, o.zero_match, o.singletons, preset)
    if preset is not None:
        _check_preset_inputs(preset, (key, response))
    if cross_document:
        given = [x for x in (key, response) if not isinstance(x, MentionTable)]
        if any((settings["format"] if settings["format"] != "auto" else detect_format(x)) != "naf" for x in given):
            raise UsageError("--cross-document applies to NAF input (a file or a folder of topics)")
    if settings["format"] == "auto" and not isinstance(key, MentionTable):
        k = read(key, "auto", **how)
        given = k.sniffed  # what _format_of would sniff again
    else:
        given = _format_of(key, settings["format"])  # before standard input is read
        k = read(key, settings["format"], **how)
    r = read(response, settings["format"], **how)
    corefud = k.words is not None or r.words is not None
    if corefud and (k.words is None or r.words is None):
        other, conllu = (k, r) if k.words is None else (r, k)
        raise InputError(f"{other.path}: not a CoNLL-U file, but {conllu.path} is: key and response must both be "
                         "CoNLL-U (the CorefUD scorer reads them side by side)")
    fmt = "conllu" if corefud else given
    if fix_corefud_quirks and not corefud:
        raise UsageError("--fix-corefud-quirks corrects how udapi reads CoNLL-U files (the CorefUD scorer): use it "
                         "with CoNLL-U input")
    match, zero_match, singletons = _defaults(fmt, settings)
    registry = COREFUD_METRICS if corefud else METRICS
    names = resolve(metrics, registry)
    if corefud and o.allow_repeated:
        raise UsageError("--allow-repeated applies to CoNLL-2012 and jsonlines responses (v8.01's limit on "
                         "repeated mentions); CoNLL-U responses are scored whatever their repeats")
    if not corefud and match != "exact":
        raise UsageError(f"--match {match} compares heads, which {fmt} files do not have: it needs CoNLL-U input "
                         "(--format conllu)")
    if not corefud:
        k, unseen = unseen_key_document(k, r, doc)
    warnings = [*k.warnings, *r.warnings, *check_documents(k, r, doc), *([] if corefud else unseen)]
    if corefud:
        scored, aligned = _score_corefud(k, r, doc, match, zero_match, singletons == "keep", warnings)
    else:
        if singletons == "drop":
            k, r = k.without_singletons(), r.without_singletons()
        aligned = align_documents(k, r, doc)
        runs = max(1, len([n for n in names if n in V801_METRICS]))  # v8.01's `all`: its five metrics
        scored = score_aligned(aligned, allow_repeated=o.allow_repeated, response_path=r.path, metric_runs=runs)
        if scored.repeated:
            warnings.append(f"{r.path}: {scored.repeated} repeated response mention(s) of key spans dropped")
    options = shown_options(match=match, zero_match=zero_match, singletons=singletons, format=fmt, preset=preset,
                            cross_document=bool(cross_document), doc=doc, fix_corefud_quirks=bool(fix_corefud_quirks))
    # the tables serve v8.01's report of spans; CoNLL-U tables (which hold their files' bytes) are not kept
    return CorefResult.scored(scored.stats, metrics, registry, k.path, r.path, options, warnings, aligned=aligned,
                              tables=None if corefud else (k, r))


TITLES = {"conll2012": "CoNLL-2012", "conllu": "CoNLL-U (CorefUD)", "jsonl": "jsonlines"}


def _format_of(source, given: str) -> str:
    """The format the signature names: the key's as its content tells it, whether --format was given or not
    (the same input has one signature; a format given otherwise fails to read); an already-read table: the
    format given, else its file's (a shard of a corpus), else conll2012."""
    if isinstance(source, MentionTable):
        if given != "auto" or not os.path.isfile(source.path):
            return "conll2012" if given == "auto" else given
        return source.sniffed or detect_format(source.path)
    return detect_format(source.path if isinstance(source, Part) else source)


def _check_preset_inputs(preset: str, sources) -> None:
    """A preset reads one format: an input of another (told from its content) is refused naming the presets,
    if any, that read it."""
    p = PRESETS[preset]
    for source in sources:
        if isinstance(source, (MentionTable, Part)):
            continue
        found = detect_format(source)
        if found == p.format or found not in TITLES:  # mention tables: their kind is checked when read
            continue
        others = [q.name for q in PRESETS.values() if q.format == found]
        instead = (f"use --preset {' or '.join(others)}" if others
                   else f"score it without --preset ({TITLES[found]} is scored as v8.01 scores CoNLL-2012)")
        raise UsageError(f"{source_name(os.fspath(source))}: a {TITLES[found]} file, but --preset {preset} ({p.what}) "
                         f"reads {TITLES[p.format]} files: {instead}")


def _settings(format, match, zero_match, singletons, preset) -> dict:
    if format not in FORMATS:
        raise UsageError(f"unknown format {format!r}: choose from {', '.join(FORMATS)}")
    out = {"format": format, "match": match, "zero_match": zero_match, "singletons": singletons}
    if preset is not None:
        if preset not in PRESETS:
            raise UsageError(f"unknown preset {preset!r}: choose from {', '.join(PRESETS)}")
        p = PRESETS[preset]
        given = {k: v for k, v in out.items() if v is not None and v != "auto"}
        fixed = {"format": p.format, "match": p.match, "zero_match": p.zero_match, "singletons": p.singletons}
        clash = [k for k, v in given.items() if fixed[k] not in (None, v)]
        if clash:  # say what the preset sets, and what to drop
            fixes, drop = (" and ".join(f"--{k.replace('_', '-')} {values[k]}" for k in clash)
                           for values in (fixed, given))
            raise UsageError(f"--preset {preset} ({p.what}) fixes {fixes}: drop {drop}")
        out = {k: given.get(k) if v is None else v for k, v in fixed.items()}  # None: refused by the format's defaults
    for name, value, choices in (("match", out["match"], MATCHES), ("zero-match", out["zero_match"], ZERO_MATCHES),
                                 ("singletons", out["singletons"], KEEP_DROP)):
        if value is not None and value not in choices:
            raise UsageError(f"--{name} must be one of {', '.join(choices)}, not {value!r}")
    return out


def _defaults(fmt: str, settings: dict) -> tuple[str, str, str]:
    """The format's defaults where nothing was said: CorefUD's (head, dependent, drop) for CoNLL-U,
    v8.01's (exact, keep) otherwise."""
    corefud = fmt == "conllu"
    if not corefud and settings["zero_match"] is not None:
        raise UsageError(f"--zero-match applies to zeros (empty nodes), which only CoNLL-U files have, not {fmt}")
    return (settings["match"] or ("head" if corefud else "exact"),
            settings["zero_match"] or ("dependent" if corefud else None),
            settings["singletons"] or ("drop" if corefud else "keep"))


def match_corefud_sides(k: MentionTable, r: MentionTable, matching, keep_singletons: bool, doc,
                        warnings: list[str]) -> tuple:
    """CoNLL-U sides as the CorefUD scorer pairs them: the sentences checked, each side prepared (singletons,
    repeats: their warning appended to ``warnings``), the documents aligned, the mentions matched.  Returns
    ``(key, response, aligned, key_words, response_words, matched)``."""
    from ..formats.conllu import check_alignment
    from .corefud import match, prepare, twice_warning

    check_alignment(k, r)
    k, k_twice = prepare(k, matching, keep_singletons)
    r, r_twice = prepare(r, matching, keep_singletons)
    warnings += twice_warning(k_twice, r_twice)
    aligned = align_documents(k, r, doc)
    key_words, resp_words = k.words.take(aligned.k_rows), r.words.take(aligned.r_rows)
    return k, r, aligned, key_words, resp_words, match(aligned, key_words, resp_words, matching, r.path)


def _score_corefud(k: MentionTable, r: MentionTable, doc, match: str, zero_match: str, keep_singletons: bool,
                   warnings: list[str]):
    """CoNLL-U scoring: the sides matched (:func:`match_corefud_sides`), MOR and zeros added."""
    import numpy as np

    from .corefud import Matching, lookup_statistics, mention_overlap, zero_score

    matching = Matching(match, zero_match)
    k, r, aligned, key_words, resp_words, matched = match_corefud_sides(k, r, matching, keep_singletons, doc,
                                                                         warnings)
    counterparts = matched.counterparts
    n = len(aligned.doc_names)
    mor = mention_overlap(aligned, key_words, resp_words)
    zero = np.zeros((n, 4))
    for d in range(n):
        k_rows = np.arange(aligned.k_off[d], aligned.k_off[d + 1])
        r_rows = np.arange(aligned.r_off[d], aligned.r_off[d + 1])
        zero[d] = zero_score(aligned.k_chain[k_rows], key_words, k_rows, aligned.r_chain[r_rows], resp_words,
                             r_rows, counterparts[d], matched.resp_same.get(d))
    extra = {}
    for name, counts in (("mor", mor), ("zero", zero)):  # (pn, pd, rn, rd) as the scorer counts them
        extra.update({f"{name}_precision_num": counts[:, 0], f"{name}_precision_den": counts[:, 1],
                      f"{name}_recall_num": counts[:, 2], f"{name}_recall_den": counts[:, 3]})
    scored = score_aligned(aligned, allow_repeated=True, response_path=r.path, matched=matched.ids,
                           registry=COREFUD_METRICS, extra=extra)
    if matched.irregular.any():  # lookups that are not one 1-to-1 alignment: each mention through its own
        docs, columns = lookup_statistics(aligned, matched)
        for c, values in columns.items():
            scored.stats.column(c)[docs] = values
    scored.stats.in_file_order = True  # the CorefUD scorer adds each document's numbers to running totals
    return scored, aligned


# the engines by _engine's names, each (key, response, metrics, the other keywords of score_coref) -> a CorefResult
ENGINES = {"ua": _score_ua, "corefud-ua": partial(_score_ua, corefud=True), "coval": _score_coval, "spans": _score_spans}
