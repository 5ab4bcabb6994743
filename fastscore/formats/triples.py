"""Triple XML (NewsReader, KYOTO, OpeNER): ``<triples><triple id relation profile_id>
<elementFirstIds label comment><elementFirst id="w34"/>...</elementFirstIds><elementSecondIds>...
</elementSecondIds></triple>...``, read as the Triple evaluation module's parser reads it:

- element names compared ignoring case on opening, with the module's aliases (``triplet``,
  ``eventids``/``event``, ``participantids``/``participant``); a triple is kept when its closing tag is
  ``</triple>`` or ``</triplet>`` in lower case (the module's own test; other triples are dropped with a
  warning);
- attribute names ignoring case, values trimmed as Java's ``String.trim`` trims them; comments without
  double quotes and with ``&`` written ``&amp;`` (what the module prints);
- a unary triple has an empty (or no) second element; ids may repeat inside an element.

A file is one document; a folder is one document per ``.trp`` file (sorted by name).  Malformed XML,
triples without a relation and XML of another kind (no triple, root not ``<triples>``) are errors naming the
file and line; elements without an id (ignored), empty ids (kept) and elements after a triple's end (added to
it), as the module reads them, are warned.
"""
from __future__ import annotations

import os
import re
import xml.parsers.expat
from dataclasses import dataclass, field

from ..errors import ParseError
from ..messages import counted, shown
from ..outputs import is_hidden
from .files import read_bytes, read_bytes_and_bom, reject_other_format, source_name
from .naf import is_naf, parse_naf, trim  # noqa: F401  (trim: Java's String.trim, shared)
from .xml_input import expat_parser

EXTENSION = ".trp"
SINGLE_DOCUMENT = "document"  # the name of the one document of a single file

_TRIPLE = {"triple", "triplet"}


def module_comment(text: str) -> str:
    """A comment as the module keeps it: double quotes removed, ``&`` written ``&amp;``."""
    return text.replace('"', "").replace("&", "&amp;")


_COLUMNS = ("ids", "relations", "profiles", "layers", "first", "second", "first_labels", "second_labels",
            "first_comments", "second_comments", "lines", "confidences")  # TripleDoc's, in a row's order


@dataclass
class TripleDoc:
    """The triples of one document, column by column (one entry per triple, in file order)."""

    name: str
    path: str
    ids: list[str] = field(default_factory=list)
    relations: list[str] = field(default_factory=list)
    profiles: list[str] = field(default_factory=list)
    layers: list[str] = field(default_factory=list)
    first: list[list[str]] = field(default_factory=list)
    second: list[list[str]] = field(default_factory=list)
    first_labels: list[str] = field(default_factory=list)
    second_labels: list[str] = field(default_factory=list)
    first_comments: list[str] = field(default_factory=list)
    second_comments: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    confidences: list[int] = field(default_factory=list)  # profile_confidence (0: none)
    warnings: list[str] = field(default_factory=list)
    # row -> [first, second] ids added after the triple's end (the module matches with them, but its token range
    # and its average ids were taken when the triple ended)
    late: dict[int, list[int]] = field(default_factory=dict)
    # the file read as its encoding says (or the error it deserves) where the module reads it otherwise
    fixed: "TripleDoc | ParseError | None" = None
    stopped: bool = False  # the module's parse failed (malformed XML): its report prints id sums as averages

    def ids_at_end(self, k: int, side: int = 0) -> int:
        """How many ids element ``side`` (0 first, 1 second) of triple ``k`` had when the triple ended."""
        n = len(self.first[k] if side == 0 else self.second[k])
        return n - self.late[k][side] if k in self.late else n

    def __len__(self) -> int:
        return len(self.ids)

    def append(self, tid: str, relation: str, first, second, *, first_label: str = "", second_label: str = "",
               first_comment: str = "", second_comment: str = "", profile: str = "", layer: str = "",
               line: int = 0) -> None:
        row = (tid, relation, profile, layer, list(first), list(second), first_label, second_label, first_comment,
               second_comment, line, 0)
        for column, value in zip(_COLUMNS, row):
            getattr(self, column).append(value)

    def __repr__(self) -> str:
        return f"TripleDoc({self.name!r}, {len(self)} triples)"


@dataclass
class TripleSet:
    """What a triple input holds: one document (a file) or one per file (a folder).  NAF/KAF input keeps its
    parsed documents in ``naf`` (converted to triples when scored, with the layers asked for)."""

    path: str
    documents: dict[str, TripleDoc]
    folder: bool = False
    naf: dict | None = None  # name -> fastscore.formats.naf.NafDocument

    @property
    def doc_names(self) -> list[str]:
        return list(self.naf if self.naf is not None else self.documents)

    @property
    def warnings(self) -> list[str]:
        return [w for d in self.documents.values() for w in d.warnings]

    def __repr__(self) -> str:
        kind = "folder" if self.folder else "file"
        return f"TripleSet({self.path!r}, {kind}, {counted(len(self.documents), 'document')}, " \
               f"{counted(sum(len(d) for d in self.documents.values()), 'triple')})"


TRIPLE, FIRST_IDS, SECOND_IDS, FIRST, SECOND, OTHER = range(6)
_KINDS = {"triple": TRIPLE, "triplet": TRIPLE, "elementfirstids": FIRST_IDS, "eventids": FIRST_IDS,
          "elementsecondids": SECOND_IDS, "participantids": SECOND_IDS, "elementfirst": FIRST, "event": FIRST,
          "elementsecond": SECOND, "participant": SECOND}  # the module's element names and aliases, lower case
# a triple while it is read: a row of TripleDoc's columns (the id lists its two elements)
(_COL_ID, _COL_RELATION, _COL_PROFILE, _COL_LAYER, _COL_FIRST, _COL_SECOND, _COL_FIRST_LABEL, _COL_SECOND_LABEL,
 _COL_FIRST_COMMENT, _COL_SECOND_COMMENT, _COL_LINE, _COL_CONFIDENCE, _RAW_CONFIDENCE) = range(13)
# (_RAW_CONFIDENCE, the attribute as written, is no column of the document)
assert (_COL_FIRST, _COL_SECOND) == (FIRST + 1, SECOND + 1)  # the short path finds an element's ids at kind + 1
_TRIPLE_KEYS = {"id": _COL_ID, "profile_id": _COL_PROFILE, "kaflayer": _COL_LAYER,
                "profile_confidence": _RAW_CONFIDENCE, "relation": _COL_RELATION}


def _fold_char(c: str) -> str:
    # Java's Character.toUpperCase / toLowerCase map one character to one (Python's full mappings may give
    # two: the one-character mapping is then the character itself, but for U+0130 İ, whose is i)
    u = c.upper()
    u = u if len(u) == 1 else c
    lo = "i" if u == "\u0130" else u.lower()
    return lo if len(lo) == 1 else u


def fold(s: str) -> str:
    """A key equal for two strings exactly when Java's ``equalsIgnoreCase`` says they are equal
    (character by character, upper-cased then lower-cased)."""
    return s if s.isascii() and s.islower() else "".join(_fold_char(c) for c in s)


def java_lower(name: str) -> str:
    """A name as compared with Java's ``equalsIgnoreCase`` against the module's lower-case names
    (``İD`` is ``id``, ``elementſecond`` is ``elementsecond``)."""
    return name.lower() if name.isascii() else fold(name)


class _Handler:
    """expat's handlers.  Triples are gathered as rows (one list per triple) and turned into the document's
    columns once the file is read; an element of a triple's ids with nothing but a plain ``id`` (nearly every
    element) takes a short path, called once per element of the file."""

    def __init__(self, doc: TripleDoc, parser):
        self.doc = doc
        self.parser = parser
        self.rows: list[list] = []
        self.current: list | None = None
        self.kinds: dict[str, int] = {}
        self.triple_names: set[str] = set()  # the names of triples seen (any case): what end looks for
        self.triple_keys: dict[str, int | None] = {}  # a triple's attribute names seen -> column (None: ignored)
        self.root: str | None = None
        self.root_line = 1
        self.triples_seen = False
        self.stored: int | None = None  # the row the current triple was stored as, once closed
        self.strays: list = []  # elements after a stored triple: [count, line, triple id, element name]
        self.no_id: list = []  # elements without an id attribute: [count, line, triple id, element name]
        self.empty_id: list = []  # the same for ids empty once trimmed

    def first_start(self, name: str, attrs: dict) -> None:
        self.root, self.root_line = name, self.parser.CurrentLineNumber
        self.parser.StartElementHandler = self.start
        self.start(name, attrs)

    def start(self, name: str, attrs: dict) -> None:
        kind = self.kinds.get(name)
        if kind is None:
            kind = self.kinds[name] = _KINDS.get(java_lower(name), OTHER)
            if kind == TRIPLE:
                self.triple_names.add(name)
        t = self.current
        if t is not None and self.stored is None:  # short paths: nothing to note, nothing stored to fill
            if (kind == FIRST or kind == SECOND) and len(attrs) == 1:
                value = attrs.get("id")
                if value and value[0] > " " and value[-1] > " ":  # a plain id: nothing to trim, nothing to warn
                    t[kind + 1].append(value)  # FIRST + 1 == _COL_FIRST, SECOND + 1 == _COL_SECOND
                    return
            elif (kind == FIRST_IDS or kind == SECOND_IDS) and not attrs:  # no label, no comment
                return
        if kind == TRIPLE:
            self._triple(attrs)
        elif t is not None and kind != OTHER:
            self._element(t, kind, name, attrs)

    def _triple(self, attrs: dict) -> None:
        self.triples_seen = True
        t = ["", None, "", "", [], [], "", "", "", "", self.parser.CurrentLineNumber, 0, ""]
        columns = self.triple_keys
        for key, value in attrs.items():
            column = columns.get(key, -1)
            if column == -1:  # a name not seen yet: its column ignoring case, or None
                column = columns[key] = _TRIPLE_KEYS.get(java_lower(key))
            if column is not None:
                t[column] = value if value and value[0] > " " and value[-1] > " " else trim(value)
        self.current, self.stored = t, None

    def _element(self, t: list, kind: int, name: str, attrs: dict) -> None:
        stored = self.stored
        if stored is not None:  # the module's parser keeps filling the triple it has stored
            self._note(self.strays, t, name)
        if kind == FIRST or kind == SECOND:
            ids = t[_COL_FIRST if kind == FIRST else _COL_SECOND]
            had = len(ids)
            for key, value in attrs.items():
                k = java_lower(key)
                if k == "id":
                    ids.append(trim(value))
                    if stored is not None:
                        self.doc.late.setdefault(stored, [0, 0])[kind == SECOND] += 1
                    if not ids[-1]:
                        self._note(self.empty_id, t, name)
                elif k == "comment" and kind == FIRST:
                    t[_COL_FIRST_COMMENT] = module_comment(trim(value))
            if len(ids) == had:
                self._note(self.no_id, t, name)
        else:
            first = kind == FIRST_IDS
            for key, value in attrs.items():
                k = java_lower(key)
                if k == "comment":
                    column = _COL_FIRST_COMMENT if first else _COL_SECOND_COMMENT
                    t[column] = module_comment(trim(value))
                elif k == "label":
                    t[_COL_FIRST_LABEL if first else _COL_SECOND_LABEL] = trim(value)

    def _note(self, seen: list, t: list, name: str) -> None:
        if seen:
            seen[0] += 1
        else:
            seen.extend((1, self.parser.CurrentLineNumber, t[_COL_ID], name))

    def id_warnings(self) -> list[str]:
        """What the module reads quietly: elements without an id (it ignores them) and empty ids (it keeps
        them: two triples with empty ids share an id)."""
        out = []
        for seen, what in ((self.strays, "after the triple's end: added to that triple, as the module adds it"),
                           (self.no_id, "has no id: ignored, as the module ignores it"),
                           (self.empty_id, 'has an empty id (id=""): kept as an id, as the module keeps it (the '
                                           "empty ids of two triples match each other)")):
            if seen:
                n, line, tid, name = seen
                more = f" ({n} such elements in the file)" if n > 1 else ""
                out.append(f'{self.doc.path}:{line}: triple "{shown(tid)}": <{name}> {what}{more}')
        return out

    def end(self, name: str) -> None:
        if name not in self.triple_names:
            return
        t = self.current
        if t is None:
            return
        if name in _TRIPLE:
            self._store(t)
        else:
            self.doc.warnings.append(f"{self.doc.path}:{self.parser.CurrentLineNumber}: triple \"{shown(t[_COL_ID])}\" "
                                     f"closed by </{name}>, not </triple>: dropped, as the Triple evaluation "
                                     "module drops it")

    def _store(self, t: list) -> None:
        if not t[_COL_RELATION]:
            raise ParseError(self.doc.path, t[_COL_LINE], f'triple "{shown(t[_COL_ID])}" has no relation (every triple '
                             "needs relation=\"...\")", self.doc.name)
        # the triple itself is stored: elements that follow go on filling it, as in the module's parser
        if self.stored is not None:  # closed again (a triple inside it): the row stored first keeps what it has
            frozen = list(t)
            frozen[_COL_FIRST], frozen[_COL_SECOND] = list(t[_COL_FIRST]), list(t[_COL_SECOND])
            self.rows[self.stored] = frozen
        confidence = t[_RAW_CONFIDENCE]
        if confidence:
            try:
                t[_COL_CONFIDENCE] = int(confidence)
            except ValueError:
                self.doc.warnings.append(f"{self.doc.path}:{t[_COL_LINE]}: triple \"{shown(t[_COL_ID])}\": "
                                         f"profile_confidence {confidence!r} is not a whole number: ignored")
        self.stored = len(self.rows)
        self.rows.append(t)

    def columns(self) -> None:
        """The rows read, as the document's columns."""
        if self.rows:
            for name, column in zip(_COLUMNS, zip(*self.rows)):
                setattr(self.doc, name, list(column))


def parse_triples(data: bytes, path: str, name: str, bom: bool = False) -> TripleDoc:
    """The triples of one file's bytes as the module reads them (``bom``: a UTF-8 byte order mark that
    :func:`read_bytes` dropped; ``doc.fixed``: the file read as its encoding says, or the error it deserves,
    where the module reads it otherwise: ``--fix-module-quirks``)."""
    # the module's parser gets a FileReader: UTF-8 (bad bytes become U+FFFD), the XML declaration and BOMs ignored
    text, lossy = data, False
    if data.isascii():
        if _declared_other(data):  # (read as text: expat then ignores the declaration, as the module does)
            text = data.decode("ascii")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text, lossy = data.decode("utf-8", "replace"), True
    if bom:
        text = "\ufeff" + (text if isinstance(text, str) else text.decode())
    if not text or text.isspace():  # (isspace stops at the first other character: no copy of a large file)
        doc = TripleDoc(name, path)
        doc.warnings.append(f"{path}: {'empty' if not text else 'blank'} file: no triples (the module's parser "
                            "stops at once and scores it as no triples)")
        return doc
    if isinstance(text, str) and text[0] == "\ufeff":
        doc = TripleDoc(name, path)
        doc.warnings.append(f"{path}: a byte order mark (BOM) starts the file: the module's parser stops on it "
                            "(FileReader keeps it as a character before the XML) and reads no triples; "
                            "--fix-module-quirks reads the file")
    else:
        doc = _parse(text, path, name, lenient=True)
    if bom or lossy or (isinstance(text, str) and _declared_other(data)):
        try:
            doc.fixed = _parse(data, path, name, lenient=False)
        except ParseError as exc:
            doc.fixed = exc
        if isinstance(doc.fixed, TripleDoc) and all(getattr(doc, c) == getattr(doc.fixed, c) for c in _COLUMNS):
            doc.fixed = None  # (read the same either way)
        elif text[0] != "\ufeff":
            doc.warnings.append(f"{path}: not read as its encoding says: the module's parser reads every file as "
                                "UTF-8 (bytes that are not become U+FFFD, which match each other; a UTF-16 file "
                                "has no triple), whatever its XML declaration; --fix-module-quirks reads it as its "
                                "encoding says")
    return doc


def _declared_other(data: bytes) -> bool:
    """Whether the XML declaration names an encoding other than UTF-8."""
    m = re.match(rb"\s*<\?xml[^>]*encoding\s*=\s*[\"']([^\"']*)", data)
    return bool(m) and m.group(1).lower().replace(b"_", b"-") not in (b"utf-8", b"utf8")


def _parse(source, path: str, name: str, lenient: bool) -> TripleDoc:
    """Triples of a text (or bytes, read as their encoding says).  ``lenient``: XML malformed after some
    triples keeps them, as the module's parser keeps what it read before the error (warned); else an error."""
    doc = TripleDoc(name, path)
    parser = expat_parser(path, name)
    parser.buffer_text = True
    handler = _Handler(doc, parser)
    parser.StartElementHandler = handler.first_start
    parser.EndElementHandler = handler.end
    data = source if isinstance(source, bytes) else source.encode("utf-8", "surrogatepass")
    try:
        parser.Parse(source, True)
    except LookupError as exc:  # the declaration names an encoding Python does not know
        raise ParseError(path, 1, f"XML declaration: {exc}", name) from None
    except xml.parsers.expat.ExpatError as exc:
        reject_other_format(path, data, "triples", allowed=("naf", "xml"))  # a file of another task's
        problem = f"malformed XML: {xml.parsers.expat.ErrorString(exc.code)}"
        refused = ParseError(path, exc.lineno, f"{problem} (column {exc.offset + 1})", name)
        if not lenient:
            raise refused from None
        handler.columns()
        doc.stopped = True
        doc.warnings.append(f"{path}:{exc.lineno}: {problem} (line {exc.lineno}, column {exc.offset + 1}): the "
                            f"module's parser stops here and scores the {len(doc)} triple(s) read before; "
                            "--fix-module-quirks refuses the file")
        doc.fixed = refused
        return doc
    if not handler.triples_seen and (handler.root or "").lower() != "triples":
        reject_other_format(path, data, "triples", allowed=("naf", "xml"))  # XML of no task: wrong_kind says more
        raise ParseError(path, handler.root_line, wrong_kind(handler.root or ""), name)
    handler.columns()
    doc.warnings.extend(handler.id_warnings())
    return doc


# root elements of the files other tasks (or converters) read: what to say when one is given as triples
_OTHER_KINDS = {
    "kybotout": "KYOTO Kybot output: fastscore convert FILE OUT.trp --to triples converts it (with its KAF file)",
    "kafkybot-results": "a KYOTO tuple file: fastscore.triples.convert.tuples_to_triples converts it",
}


def wrong_kind(root: str) -> str:
    """The message for an XML file with no triple in it whose root element is not ``<triples>``."""
    known = _OTHER_KINDS.get(root.lower())
    head = f"root element <{root}> and no <triple>: not a triple file" + (f" ({known})" if known else "")
    return (f"{head}; fastscore triples reads triple XML (<triples><triple ...>) and NAF/KAF "
            "documents (with --layers)")


def read_triple_file(path: str, name: str = SINGLE_DOCUMENT) -> TripleDoc:
    data, bom = read_bytes_and_bom(path)
    return parse_triples(data, source_name(path), name, bom)


def folder_files(path: str, extensions: tuple[str, ...] = (EXTENSION,)) -> list[str]:
    """The file names of a folder ending in one of ``extensions``, sorted; hidden files (``.name``:
    editors' and interrupted writes' temporary files) are left out, as in every corpus folder."""
    try:
        names = sorted(n for n in os.listdir(path) if n.endswith(extensions) and not is_hidden(n)
                       and os.path.isfile(os.path.join(path, n)))
    except OSError as exc:
        raise ParseError(path, None, f"cannot read folder: {exc.strerror}") from None
    if not names:
        raise ParseError(path, None, f"folder has no {' or '.join(extensions)} files")
    return names


NAF_EXTENSIONS = (".naf", ".kaf")


def read_triples(path: str | os.PathLike) -> TripleSet:
    """A triple file (one document named ``document``) or a folder of ``.trp`` files (one document per
    file, named by its file name); a NAF/KAF file, or a folder of ``.naf``/``.kaf`` files, is read as it is
    (its layers become triples when scored)."""
    path = os.fspath(path)
    if os.path.isdir(path):
        try:
            has_trp = any(n.endswith(EXTENSION) and not is_hidden(n) for n in os.listdir(path))
        except OSError:
            has_trp = True  # folder_files names the problem
        if not has_trp and any(n.lower().endswith(NAF_EXTENSIONS) for n in os.listdir(path)):
            names = folder_files(path, NAF_EXTENSIONS)
            naf = {n: parse_naf(read_bytes(os.path.join(path, n)), os.path.join(path, n)) for n in names}
            return TripleSet(path, {}, folder=True, naf=naf)
        docs = {n: read_triple_file(os.path.join(path, n), n) for n in folder_files(path)}
        return TripleSet(path, docs, folder=True)
    data, bom = read_bytes_and_bom(path)
    if is_naf(data, source_name(path)):
        return TripleSet(source_name(path), {}, naf={SINGLE_DOCUMENT: parse_naf(data, source_name(path))})
    return TripleSet(source_name(path), {SINGLE_DOCUMENT: parse_triples(data, source_name(path), SINGLE_DOCUMENT, bom)})


def trp_files(folder: str) -> list[str]:
    """The shards of a folder of triple files: its ``.trp`` files (sorted by name, as a folder read takes
    them; none for a folder of NAF/KAF documents, which is one input)."""
    try:
        return [os.path.join(folder, n) for n in folder_files(folder)]
    except ParseError:  # none, or an unreadable folder (read whole, it gets its message)
        return []


def read_triple_shard(path) -> TripleSet:
    """A shard of a corpus: one triple file as a document of a folder, named by its file name (a single file
    scored against another is one document named ``document``)."""
    if isinstance(path, TripleSet):
        return path
    path = os.fspath(path)
    name = os.path.basename(path)
    return TripleSet(os.path.dirname(path), {name: read_triple_file(path, name)}, folder=True)


def concat_triples(reads: list[TripleSet], name: str, like: TripleSet | None = None) -> TripleSet:
    """Shards as one folder of their documents (``Task.concat``).  No shard: an empty document for each of
    ``like``'s (a gold document whose system shard was skipped is scored against no triples)."""
    if reads:
        return TripleSet(name, {n: d for r in reads for n, d in r.documents.items()}, folder=True)
    docs = {n: TripleDoc(n, "", warnings=[f"{os.path.join(like.path, n)}: no system file to pair with: scored "
                                          "against no system triples"])
            for n in (like.documents if like is not None else {})}
    return TripleSet(name, docs, folder=True)


def write_triples(doc: TripleDoc) -> str:
    """Triple XML as the module writes it (``Triple.toString``)."""
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<triples>\n'
            + "".join(triple_string(doc, k) for k in range(len(doc))) + "</triples>\n")


def triple_string(doc: TripleDoc, k: int, relation: str | None = None, profile: str | None = None,
                  table: bool = False) -> str:
    """One triple as ``Triple.toString`` writes it (attributes in the module's order, empty ones left out, quotes
    dropped from comments); with ``table``, as ``Triple.toTableRowString`` (one line, no confidence)."""
    relation = doc.relations[k] if relation is None else relation
    profile = doc.profiles[k] if profile is None else profile
    confidence = 0 if table else doc.confidences[k]
    s = (f'<triple id="{doc.ids[k]}"' + (f' profile_id="{profile}"' if profile else "")
         + (f' profile_confidence="{confidence}"' if confidence > 0 else "")
         + (f' relation="{relation}"' if relation else "") + (f' kaflayer="{doc.layers[k]}"' if doc.layers[k] else ""))
    indent, item_end, element_end = ("", " ", "\t") if table else ("\t", "\n", "\n")
    s += ">" + ("\t" if table else "\n")
    for tag, ids, label, comment in (("elementFirst", doc.first[k], doc.first_labels[k], doc.first_comments[k]),
                                     ("elementSecond", doc.second[k], doc.second_labels[k], doc.second_comments[k])):
        attrs = (f' label="{label}"' if label else "") + (f' comment="{comment.replace(chr(34), "")}"'
                                                           if comment else "")
        if not ids:
            s += f"{indent}<{tag}Ids{attrs}/>{element_end}"
        else:
            items = "".join(f'{indent * 2}<{tag} id="{i}"/>{item_end}' for i in ids)
            s += f"{indent}<{tag}Ids{attrs}>{item_end}{items}{indent}</{tag}Ids>{element_end}"
    return s + "</triple>\n"
