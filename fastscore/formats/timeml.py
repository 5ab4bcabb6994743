"""TimeML reader (TempEval-3 ``.tml`` files): EVENT, MAKEINSTANCE, TIMEX3 (the document creation
time in ``DCT``), TLINK.

A TimeML input is one file or a folder of files (every file not starting with ``.``, as the
TempEval-3 toolkit takes them); each file is one document, named by its file name.  Per document:

* ``text``: the character content of ``TEXT`` (tags stripped, entities unescaped);
* ``entities``: EVENT and TIMEX3 elements inside ``TEXT`` with their character extent in ``text``
  (half-open), attributes, and ``nested`` (another tag inside: the toolkit's entity scorer does not
  see its text);
* ``instances``: MAKEINSTANCEs (``eiid`` -> event id, attributes) in document order;
* ``tlinks``: TLINKs in document order: source (``event`` instance or ``time``), target, relType;
* ``dct``: the tid of the DCT's TIMEX3.

Every structural problem the toolkit cannot score (malformed XML, no TEXT or DCT, an empty EVENT, a
MAKEINSTANCE or TLINK naming an undefined entity, an unknown relType, a TLINK without its two
ends, ids or lids defined twice) is a :class:`~fastscore.errors.ParseError` naming file and line.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from xml.parsers import expat

from ..errors import InputError, ParseError
from .files import STDIN, decode_utf8, read_bytes, reject_other_format, source_name
from .xml_input import expat_parser, looks_like_xml

# attribute values the toolkit's schema check (TimeML-Normalizer's tml-min-consistency.xsd) accepts
_EVENT_VALUES = {
    "class": ("OCCURRENCE", "PERCEPTION", "REPORTING", "ASPECTUAL", "STATE", "I_STATE", "I_ACTION", "MODAL"),
    "polarity": ("NEG", "POS"),
    "tense": ("PAST", "PRESENT", "FUTURE", "INFINITIVE", "PRESPART", "PASTPART", "PASSIVE", "NONE"),
    "aspect": ("PROGRESSIVE", "PERFECTIVE", "PERFECTIVE_PROGRESSIVE", "IMPERFECTIVE", "IMPERFECTIVE_PROGRESSIVE",
               "NONE"),
    "pos": ("ADJECTIVE", "NOUN", "VERB", "PREPOSITION", "OTHER", "UNKNOWN", "PREP"),
}
_VALUES = {"EVENT": _EVENT_VALUES, "TIMEX3": {"type": ("DATE", "TIME", "DURATION", "SET")},
           "MAKEINSTANCE": {k: tuple(v for v in vals if v != "PASSIVE")
                            for k, vals in _EVENT_VALUES.items() if k != "class"}}
_REQUIRED = {"EVENT": ("class",), "TIMEX3": ("type", "value")}

# characters of a TEXT on which the toolkit's normaliser stops (merge_tok_n_tml: "Distinct chars"): its tokenizer
# writes `|` as `-`, splits on Unicode blanks the merge does not skip, and the merge reads the raw file, where a
# character or entity reference other than &amp; is not the character its tokenizer saw
_NORMALISER_STOPS = re.compile(r"[|\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]|&(?!amp;)|&amp;(?=#?\w+;)")
# the TLINK attributes the toolkit's schema allows
_TLINK_ATTRIBUTES = ("lid", "origin", "eventInstanceID", "timeID", "signalID", "relatedToTime",
                     "relatedToEventInstance", "relType")
# the TLINK attributes the toolkit's scorer looks for with re.search anywhere in the tag
ENDPOINT_WORDS = ("eventInstanceID", "timeID", "relatedToEventInstance", "relatedToTime", "relType", "lid")

RELATIONS = ("BEFORE", "AFTER", "IBEFORE", "IAFTER", "BEGINS", "BEGUN_BY", "ENDS", "ENDED_BY", "INCLUDES",
             "IS_INCLUDED", "DURING", "DURING_INV", "SIMULTANEOUS", "IDENTITY")


@dataclass
class Entity:
    kind: str  # "event" | "timex"
    id: str  # eid | tid
    start: int  # character offsets in the document's text, half-open
    end: int
    attrs: dict[str, str]
    line: int
    nested: bool = False  # another tag inside (the toolkit's entity scorer sees no text)
    text: str | None = None  # the DCT's text (entities of the TEXT: text[start:end] of their document)


@dataclass
class Instance:
    eiid: str
    event: str
    attrs: dict[str, str]
    line: int


@dataclass
class Tlink:
    lid: str
    source: tuple[str, str]  # ("event", eiid) | ("time", tid)
    target: tuple[str, str]
    rel: str
    line: int
    extra: str = ""  # the tag's other attributes as the normaliser keeps them (` name="value"`...)
    note: str = ""  # how the toolkit reads a TLINK with both eventInstanceID and timeID


@dataclass
class TimemlDoc:
    name: str
    path: str
    text: str
    text_line: int  # line of the TEXT tag
    entities: list[Entity]
    instances: list[Instance]
    tlinks: list[Tlink]
    dct: str  # tid of the DCT's TIMEX3
    dct_entity: Entity | None = None  # the DCT's TIMEX3 when the toolkit's entity scorer counts it (see below)
    schema_issues: list[str] | None = None  # values the toolkit's schema check rejects ("file:line: what")
    normaliser_stop: str | None = None  # "file:line: what" when the toolkit's normaliser stops on the TEXT


@dataclass
class TimemlInput:
    """A TimeML file or folder: its documents by file name."""

    path: str
    documents: dict[str, TimemlDoc]
    folder: bool = False


def read_timeml(path: str | os.PathLike) -> TimemlInput:
    """Read a TimeML file or a folder of TimeML files."""
    path = os.fspath(path)
    if os.path.isdir(path):
        files = timeml_files(path)
        if not files:
            raise InputError(f"{path}: folder has no TimeML file")
        return TimemlInput(path, {os.path.basename(f): parse_timeml(f) for f in files}, True)
    name = source_name(path) if path == STDIN else os.path.basename(path)
    return TimemlInput(source_name(path), {name: parse_timeml(path, name)})


def timeml_files(folder: str) -> list[str]:
    """The documents of a folder: every file whose name does not start with ``.`` (sorted), as the toolkit
    takes them."""
    return sorted(os.path.join(folder, n) for n in os.listdir(folder)
                  if not n.startswith(".") and os.path.isfile(os.path.join(folder, n)))


def concat_timeml(reads: list[TimemlInput], name: str, like=None) -> TimemlInput:
    """Several inputs as one folder of their documents (``Task.concat`` of shards)."""
    documents: dict[str, TimemlDoc] = {}
    for read in reads:
        documents.update(read.documents)
    return TimemlInput(name, documents, True)


def parse_timeml(path: str, name: str | None = None) -> TimemlDoc:
    """One TimeML file."""
    text = _xml_text(source_name(path), read_bytes(path))
    return _Parser(source_name(path), name or os.path.basename(path)).parse(text)


def _xml_text(path: str, data: bytes) -> str:
    """A TimeML file's text (offsets are counted in its characters): UTF-16 after a UTF-16 byte-order mark,
    else UTF-8 (an encoding declaration naming another is not followed: the bytes must be UTF-8)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise ParseError(path, None, f"invalid UTF-16 at byte {exc.start}: re-encode the file") from None
    return decode_utf8(path, data)


class _Parser:
    def __init__(self, path: str, name: str):
        self.path, self.name = path, name
        self.chunks: list[str] = []
        self.size = 0
        self.text_seen = 0
        self.text_line = 0
        self.in_text = False
        self.open: Entity | None = None
        self.entities: list[Entity] = []
        self.instances: list[Instance] = []
        self.raw_links: list[tuple[dict, int]] = []
        self.dct: str | None = None
        self.dct_line = 0
        self.in_dct = False
        self.in_dct_timex = False
        self.dct_attrs: dict = {}
        self.dct_text: list[str] = []
        self.dct_nested = False
        self.issues: list[str] = []

    def error(self, line: int | None, problem: str) -> ParseError:
        return ParseError(self.path, line, problem, self.name)

    def parse(self, data: str) -> TimemlDoc:
        p = expat_parser(self.path, self.name)
        self.p = p
        p.StartElementHandler = self.start
        p.EndElementHandler = self.end
        p.CharacterDataHandler = self.chars
        p.buffer_text = True  # a text's run between two tags in one call, not one per line (the same text and offsets)
        self.raw = data
        try:
            p.Parse(data, True)
        except expat.ExpatError as exc:
            reject_other_format(self.path, data, "timeml", allowed=("xml",))  # a file of another task's
            if not looks_like_xml(data):  # not expat's "syntax error (column 1)"
                raise self.error(None, "not XML (its first non-blank character is not '<'): TimeML documents are "
                                       "XML") from None
            raise self.error(exc.lineno, f"malformed XML: {expat.ErrorString(exc.code)} (column {exc.offset + 1})"
                             ) from None
        if not self.text_seen:
            reject_other_format(self.path, data, "timeml")
            raise self.error(None, "no TEXT element: a TimeML document's text is inside <TEXT>...</TEXT>")
        if self.dct is None:
            raise self.error(None, "no document creation time: a TimeML document needs <DCT><TIMEX3 tid=... "
                                   "functionInDocument=\"CREATION_TIME\" .../></DCT> (the toolkit's normaliser stops "
                                   "without it)")
        return self.finish()

    # -- expat handlers ------------------------------------------------------------------------------

    def _check(self, tag: str, attrs: dict, line: int, allowed: dict) -> None:
        for key in _REQUIRED.get(tag, ()):
            if key not in attrs:
                self.issues.append(f"{self.path}:{line}: {tag} without {key}")
        for key, values in allowed.items():
            if key in attrs and attrs[key] not in values:
                self.issues.append(f"{self.path}:{line}: {tag} {key} {attrs[key]!r}")

    def start(self, tag: str, attrs: dict) -> None:
        line = self.p.CurrentLineNumber
        if tag in _VALUES:
            self._check(tag, attrs, line, _VALUES[tag])
        if tag == "TEXT":
            if self.text_seen:
                raise self.error(line, "more than one TEXT element (the toolkit's normaliser stops here)")
            self.text_seen, self.in_text, self.text_line = 1, True, line
        elif tag == "DCT":
            self.in_dct = True
        elif tag in ("EVENT", "TIMEX3"):
            if self.in_dct and tag == "TIMEX3":
                if self.dct is None:
                    if "tid" not in attrs:
                        raise self.error(line, "the DCT's TIMEX3 has no tid")
                    self.dct, self.dct_line = attrs["tid"], line
                    self.dct_attrs, self.in_dct_timex = dict(attrs), True
                return
            if not self.in_text:
                return
            if self.open is not None:
                self.open.nested = True
                raise self.error(line, f"{tag} inside {'EVENT' if self.open.kind == 'event' else 'TIMEX3'} "
                                       f"{self.open.id!r}: entities of one annotation cannot overlap (the toolkit's "
                                       "normaliser stops on nested tags)")
            key = "eid" if tag == "EVENT" else "tid"
            if key not in attrs:
                raise self.error(line, f"{tag} without {key}")
            self.open = Entity("event" if tag == "EVENT" else "timex", attrs[key], self.size, self.size, dict(attrs),
                               line)
        elif tag == "MAKEINSTANCE":
            for key in ("eiid", "eventID"):
                if key not in attrs:
                    raise self.error(line, f"MAKEINSTANCE without {key}")
            self.instances.append(Instance(attrs["eiid"], attrs["eventID"], dict(attrs), line))
        elif tag == "TLINK":
            self.raw_links.append((dict(attrs), line))
            for key in attrs:
                if key not in _TLINK_ATTRIBUTES:
                    self.issues.append(f"{self.path}:{line}: TLINK attribute {key!r}")
        elif self.open is not None:
            self.open.nested = True  # e.g. a SIGNAL inside an EVENT
        elif self.in_dct_timex:
            self.dct_nested = True

    def end(self, tag: str) -> None:
        if tag == "TEXT":
            self.in_text = False
        elif tag == "DCT":
            self.in_dct = False
        elif tag == "TIMEX3" and self.in_dct_timex:
            self.in_dct_timex = False
        elif tag in ("EVENT", "TIMEX3") and self.open is not None and (tag == "EVENT") == (self.open.kind == "event"):
            self.open.end = self.size
            self.entities.append(self.open)
            self.open = None

    def chars(self, data: str) -> None:
        if self.in_dct_timex:
            self.dct_text.append(data)
        if self.in_text:
            self.chunks.append(data)
            self.size += len(data)

    # -- checks --------------------------------------------------------------------------------------

    def finish(self) -> TimemlDoc:
        text = "".join(self.chunks)
        events: dict[str, Entity] = {}
        timexes: dict[str, Entity] = {}
        for e in self.entities:
            seen = events if e.kind == "event" else timexes
            if e.id in seen or (e.kind == "timex" and e.id == self.dct):
                raise self.error(e.line, f"{'eid' if e.kind == 'event' else 'tid'} {e.id!r} is defined twice")
            seen[e.id] = e
            if e.kind == "event" and not text[e.start:e.end].strip():
                raise self.error(e.line, f"EVENT {e.id!r} has no text (the toolkit's normaliser cannot place it)")
        instances: dict[str, Instance] = {}
        for mk in self.instances:
            if mk.eiid in instances:
                raise self.error(mk.line, f"MAKEINSTANCE eiid {mk.eiid!r} is defined twice")
            if mk.event not in events:
                raise self.error(mk.line, f"MAKEINSTANCE {mk.eiid!r} names event {mk.event!r}, which is not an "
                                          "EVENT of the TEXT")
            instances[mk.eiid] = mk
        links: list[Tlink] = []
        lids: set[str] = set()
        for attrs, line in self.raw_links:
            lid = attrs.get("lid")
            if not lid:
                raise self.error(line, "TLINK without lid (the toolkit's normaliser renames the entities of a TLINK "
                                       "by its lid)")
            if lid in lids:
                raise self.error(line, f"TLINK lid {lid!r} is defined twice (the toolkit's normaliser renames the "
                                       "entities of a TLINK by its lid)")
            lids.add(lid)
            rel = attrs.get("relType")
            if rel is None:
                raise self.error(line, f"TLINK {lid!r} has no relType")
            if rel not in RELATIONS:
                raise self.error(line, f"TLINK {lid!r}: unknown relType {rel!r}: TimeML's are {', '.join(RELATIONS)}")
            ends = []
            note = ""
            for first, (ev, tm) in ((True, ("eventInstanceID", "timeID")),
                                    (False, ("relatedToEventInstance", "relatedToTime"))):
                has_e, has_t = ev in attrs, tm in attrs
                targets = ("relatedToEventInstance" in attrs, "relatedToTime" in attrs)
                if first and has_e and has_t and targets == (True, False):
                    raise self.error(line, f"TLINK {lid!r} has both eventInstanceID and timeID: the toolkit's "
                                           "normaliser writes it with eventInstanceID twice and its entity scorer "
                                           "stops (duplicate attribute)")
                if first and has_e and has_t and targets == (False, True):
                    # the normaliser takes the link as time-time (its target is a time), and the scorer reads
                    # that pair (its get_relations: timeID wins)
                    has_e, has_t = targets
                    note = (f"{self.path}:{line}: TLINK {lid!r} has both eventInstanceID and timeID: read as the "
                            f"toolkit reads it, {ev if has_e else tm} -> {'relatedToEventInstance' if has_e else 'relatedToTime'}")
                if has_e == has_t:
                    what = "both" if has_e else "neither"
                    raise self.error(line, f"TLINK {lid!r} has {what} {ev} and {tm}: a TLINK relates one event "
                                           "instance or time to one event instance or time")
                if has_e:
                    if attrs[ev] not in instances:
                        raise self.error(line, f"TLINK {lid!r} names event instance {attrs[ev]!r}, which no "
                                               "MAKEINSTANCE defines")
                    ends.append(("event", attrs[ev]))
                else:
                    tid = attrs[tm]
                    if tid != self.dct and tid not in timexes:
                        raise self.error(line, f"TLINK {lid!r} names time {tid!r}, which is neither a TIMEX3 of the "
                                               "TEXT nor the DCT")
                    if tid != self.dct and not text[timexes[tid].start:timexes[tid].end].strip():
                        raise self.error(line, f"TLINK {lid!r} names TIMEX3 {tid!r}, which has no text (the toolkit's "
                                               "normaliser stops on it)")
                    ends.append(("time", tid))
            extra = "".join(f' {k}="{v}"' for k, v in attrs.items() if k not in ENDPOINT_WORDS)
            links.append(Tlink(lid, ends[0], ends[1], rel, line, extra, note))
        return TimemlDoc(self.name, self.path, text, self.text_line, self.entities, self.instances, links, self.dct,
                         self._dct_entity(), self.issues, self._normaliser_stop())

    def _normaliser_stop(self) -> str | None:
        """Where the toolkit's normaliser stops on this file's TEXT ("file:line: what"), or None."""
        m = re.search(r"<TEXT\b[^>]*>(.*?)</TEXT>", self.raw, re.S)
        k = _NORMALISER_STOPS.search(self.raw, m.start(1), m.end(1)) if m else None
        if k is None:
            return None
        what = repr(k.group()) if k.group() != "&" else repr(self.raw[k.start():k.start() + 8].split(";")[0] + ";")
        return f"{self.path}:{self.raw.count(chr(10), 0, k.start()) + 1}: {what} in the TEXT"

    def _dct_entity(self) -> Entity | None:
        """The toolkit's normaliser renames the DCT's tid to t0 only when the file has ``<DCT><TIMEX3`` with
        nothing between; otherwise its entity scorer counts the DCT as a TIMEX3 of the document (by its tid)."""
        dct_text = "".join(self.dct_text)
        if (self.dct == "t0" or self.dct_nested or not dct_text.strip()
                or re.search(r'<DCT><TIMEX3[^>]*tid="' + re.escape(self.dct) + '"', self.raw)):
            return None
        return Entity("timex", self.dct, 0, 0, dict(self.dct_attrs), self.dct_line, text=dct_text)
