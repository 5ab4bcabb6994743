"""Options of the triple task and the small files they name (token range, relation filter, relation map),
read as the Triple evaluation module reads them.  Imports nothing of the triples package."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import ParseError, UsageError
from ..formats.files import decode_utf8, read_bytes_and_bom, read_text, source_name
from ..formats.triples import trim

VARIANTS = {  # (exact ids, ignore relations) -> name
    (False, False): "partial",
    (False, True): "partial-any-relation",
    (True, False): "exact",
    (True, True): "exact-any-relation",
}
VARIANT_TITLES = {
    "partial": "Partial identifiers and same relation",
    "partial-any-relation": "Partial identifiers and ignored relation",
    "exact": "Exact identifiers and same relation",
    "exact-any-relation": "Exact identifiers and ignored relation",
}
DEDUP = ("auto", "overlap", "exact")
LAYERS = ("entity", "srl", "opinion", "property", "sentiment")

_LINES = re.compile(r"\r\n|\r|\n")  # Java's readLine


def java_lines(text: str) -> list[str]:
    lines = _LINES.split(text)
    return lines[:-1] if lines and lines[-1] == "" else lines


def read_token_range(path: str, fix_module_quirks: bool = False) -> list[str]:
    """The token ids of a token-range file: one per line, trimmed, blank lines skipped, each once.  A byte order
    mark stays on the first id, as the module reads it (``String.trim`` keeps U+FEFF: that id matches none),
    unless ``fix_module_quirks``."""
    data, bom = read_bytes_and_bom(path)
    lines = java_lines(decode_utf8(source_name(path), data))
    if lines and not fix_module_quirks and bom:
        lines[0] = "\ufeff" + lines[0]
    tokens = list(dict.fromkeys(t for t in (trim(line) for line in lines) if t))
    if not tokens:
        raise ParseError(path, None, "token-range file names no tokens (one token id per line, e.g. w34)")
    return tokens


def read_relation_filter(path: str) -> list[str]:
    """The relations of a relation filter: one per line, trimmed, blank lines skipped (exact case)."""
    relations = [t for t in (trim(line) for line in java_lines(read_text(path))) if t]
    if not relations:
        raise ParseError(path, None, "relation filter names no relations (one relation per line)")
    return relations


def read_relation_map(path: str) -> tuple[dict[str, str], list[str]]:
    """A relation map (``TripleRelationConversion``): ``FROM<TAB>TO`` lines, trimmed; a later line for the
    same relation wins.  Lines that do not split into exactly two fields are ignored (as the module
    ignores them) and reported."""
    mapping: dict[str, str] = {}
    ignored = []
    for n, line in enumerate(java_lines(read_text(path)), 1):
        if not trim(line):
            continue
        fields = line.split("\t")
        while fields and fields[-1] == "":  # Java's String.split drops trailing empty strings
            fields.pop()
        if len(fields) != 2:
            ignored.append(f"{path}:{n}: relation map line ignored (not FROM<TAB>TO): {line!r}")
            continue
        mapping[trim(fields[0])] = trim(fields[1])
    if not mapping:
        raise ParseError(path, None, "relation map has no FROM<TAB>TO line")
    return mapping, ignored


@dataclass
class Options:
    ignore_relations: bool = False
    exact_ids: bool = False
    token_range: str | None = None
    relation_filter: str | None = None
    relation_map: str | None = None
    ignore_file_suffix: int = 0
    dedup: str = "auto"
    skip_time_and_location: bool = False
    location_defect: bool = False
    layers: tuple[str, ...] | None = None
    intersect: bool = False
    fix_module_quirks: bool = False  # files read as their encoding says, malformed XML refused (not official)
    # read from the files above
    range_tokens: list[str] = field(default_factory=list)
    filter_relations: list[str] = field(default_factory=list)
    mapping: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def variant(self) -> str:
        return VARIANTS[(self.exact_ids, self.ignore_relations)]

    def dedup_exact(self, folder: bool) -> bool:
        """Counted gold triples told apart by exact ids (EvaluateTriplesDebug, EvaluateTripleFolders) or by
        overlap (EvaluateTriples, the module's single-file evaluator)."""
        if self.dedup == "auto":
            return folder or self.exact_ids
        return self.dedup == "exact"

    def signature_items(self, folder: bool, naf: bool) -> dict[str, object]:
        """The options that applied to a run (``naf``: an input was NAF/KAF; --layers and --intersect convert
        only such input, and are ignored, so left out, on triple files)."""
        dedup = "exact" if self.dedup_exact(folder) else "overlap"
        items: dict[str, object] = {"variant": self.variant, "dedup": dedup}
        files = (("token-range", self.token_range, self.range_tokens),
                 ("relation-filter", self.relation_filter, self.filter_relations),
                 ("relation-map", self.relation_map, self.mapping))  # each file: how many entries it gave
        items.update((name, len(entries)) for name, given, entries in files if given)
        items.update((name, "yes") for name, on in (("skip-time-and-location", self.skip_time_and_location),
                                                    ("location-defect", self.location_defect)) if on)
        if self.layers and naf:
            items["layers"] = ",".join(self.layers)
            if self.intersect:
                items["intersect"] = "yes"
        if self.fix_module_quirks:
            items["fix-module-quirks"] = "yes"
        return items


def _layers(value) -> tuple[str, ...] | None:
    if value is None or value == ():
        return None
    names = value.split(",") if isinstance(value, str) else [p for v in value for p in str(v).split(",")]
    names = [n.strip().lower() for n in names if n.strip()]
    wrong = [n for n in names if n not in LAYERS]
    if wrong:
        raise UsageError(f"unknown layer {wrong[0]!r}: choose from {', '.join(LAYERS)}")
    return tuple(dict.fromkeys(names))


def resolve_options(*, ignore_relations: bool = False, exact_ids: bool = False, token_range: str | None = None,
                    relation_filter: str | None = None, relation_map: str | None = None,
                    ignore_file_suffix: int = 0, dedup: str = "auto", skip_time_and_location: bool = False,
                    location_defect: bool = False, layers=None, intersect: bool = False,
                    fix_module_quirks: bool = False) -> Options:
    if dedup not in DEDUP:
        raise UsageError(f"dedup must be one of {', '.join(DEDUP)}, not {dedup!r}")
    if ignore_file_suffix is None:
        ignore_file_suffix = 0
    if not isinstance(ignore_file_suffix, int) or ignore_file_suffix < 0:
        raise UsageError(f"--ignore-file-suffix takes a number of characters (0 or more), not {ignore_file_suffix!r}")
    layer_names = _layers(layers)
    if intersect and not (layer_names and "opinion" in layer_names):
        raise UsageError("--intersect selects opinions that overlap an entity or property: use it with "
                         "--layers opinion")
    opts = Options(bool(ignore_relations), bool(exact_ids), token_range, relation_filter, relation_map,
                   ignore_file_suffix, dedup, bool(skip_time_and_location), bool(location_defect), layer_names,
                   bool(intersect), bool(fix_module_quirks))
    if relation_filter:
        opts.filter_relations = read_relation_filter(relation_filter)
    if relation_map:
        opts.mapping, opts.warnings = read_relation_map(relation_map)
    if token_range:
        opts.range_tokens = read_token_range(token_range, opts.fix_module_quirks)
        if opts.range_tokens[0].startswith("\ufeff"):
            opts.warnings.append(f"{token_range}: a byte order mark (BOM) starts the file: the module keeps it on the "
                                 f"first id ({opts.range_tokens[0][1:]!r}), which then matches no id; "
                                 "--fix-module-quirks reads the id")
    return opts
