"""The TempEval-3 normaliser step: gold and system entities identified by their place in the text
and renamed identically, TLINKs rewritten to the renamed entities, as the toolkit's
TimeML-Normalizer does before anything is scored.

* The text is cut into tokens (:func:`tokens`: blanks, then punctuation, clitics and hyphens, as
  the toolkit's tokenizer cuts ordinary text).  An entity is placed on the tokens its characters
  touch.
* Events: going through the tokens, an event starting at a token (in gold, system or both) gets
  the next number ``eN``: gold and system events starting in one token share their name.
  The first MAKEINSTANCE of event ``eN`` is ``eiN``, the next ones ``ei1000000+N`` (then +1, ...).
* TIMEX3s: a TIMEX3 starting at a token gets the next number ``tN``, unless the other annotation
  has a TIMEX3 open there (started at or before this token, and no token outside any entity
  since) whose number is above the last one this annotation used: then it takes that number
  (overlapping TIMEX3s share a name).  The DCT is ``t0``.
* TLINKs: event-event and time-time links are written lower number first (the relation
  reversed when swapped), time-event links event first (reversed); DURING, DURING_INV and
  IDENTITY become SIMULTANEOUS first — except on event-time links, which the normaliser leaves
  alone (the scorer later turns their DURING and DURING_INV into SIMULTANEOUS, not IDENTITY).
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from ..errors import InputError, ParseError
from ..formats.timeml import Entity, TimemlDoc
from ..messages import shown
from .timegraph import REVERSE as TIMEGRAPH_REVERSE

REVERSE = {**TIMEGRAPH_REVERSE, "DURING": "DURING_INV", "DURING_INV": "DURING"}
_AS_SIMULTANEOUS = ("DURING", "DURING_INV", "IDENTITY")

# the tokenizer's punctuation (English mode): cut off at the start / end of a word
_LEAD = set("[{(´`\"»«")
_TRAIL = set("]}'`\"),;:!?%»«")
_WORD = re.compile(r"\S+")
_CLITIC = re.compile(r"(?:'(?:s|re|ve|d|m|em|ll)|n't)$")  # case-sensitive, as tokenize.pl's $FClitic: MARKET'S is one token
_ABBREV = re.compile(r"^(?:[A-Za-zÀ-ÿ]\.)+$")
_PRE_SPLITS = (re.compile(r"(\.\.\.)"), re.compile(r"([;!?/])(?=[^ ])"), re.compile(r"(,)(?=[^ 0-9.])"),
               re.compile(r"([a-zA-ZÀ-ÿ][a-zA-ZÀ-ÿ][.:])(?=[A-ZÀ-Ý])"))


def tokens(text: str) -> list[tuple[int, int]]:
    """Token extents (start, end) of a text: blank-separated words, with leading brackets and
    quotes, trailing punctuation, a final period (not of an abbreviation like ``U.S.``), English
    clitics, and the hyphen of a once-hyphenated word cut off as tokens of their own."""
    out: list[tuple[int, int]] = []
    for m in _WORD.finditer(text):
        word = m.group()
        if word.isalnum():  # most words: one token
            out.append(m.span())
            continue
        cuts = {m.start(), m.end()}
        for rx in _PRE_SPLITS:
            for k in rx.finditer(word):
                cuts.add(m.start() + k.end(1))
                if k.group(1) == "...":
                    cuts.add(m.start() + k.start(1))
        bounds = sorted(cuts)
        for a, b in zip(bounds, bounds[1:]):
            out.extend(_cut(text, a, b))
    return out


def _cut(text: str, a: int, b: int) -> list[tuple[int, int]]:
    head, tail = [], []
    while b - a > 1:
        if text[a] in _LEAD:
            head.append((a, a + 1))
            a += 1
        elif text[b - 1] in _TRAIL:
            tail.append((b - 1, b))
            b -= 1
        else:
            break
    word = text[a:b]
    if b - a > 1 and word.endswith(".") and word != "..." and not _ABBREV.match(word):
        tail.append((b - 1, b))
        b -= 1
        word = text[a:b]
    k = _CLITIC.search(word)
    if k and k.start() > 0:
        tail.append((a + k.start(), b))
        b = a + k.start()
        word = text[a:b]
    middle = [(a, b)]
    if word.count("-") == 1 and 0 < word.index("-") < len(word) - 1:
        h = a + word.index("-")
        middle = [(a, h), (h, h + 1), (h + 1, b)]
    return head + middle + tail[::-1]


@dataclass
class EntityRecord:
    """A normalised entity as the toolkit's entity scorer reads it from the normalised file."""

    text: str  # '' when the scorer does not see it (a tag inside)
    attrs: dict[str, str]


@dataclass
class Side:
    """One annotation of one document after normalisation."""

    relations: list[tuple[str, str, str]]  # (x, y, relType) in TLINK order, as the scorer reads them
    events: dict[str, EntityRecord]
    timexes: dict[str, EntityRecord]


@dataclass
class NormalisedPair:
    gold: Side
    system: Side
    warnings: list[str] = field(default_factory=list)


EVENT_ATTRIBUTES = ("eiid", "class", "tense", "aspect", "polarity", "pos", "modality")
TIMEX_ATTRIBUTES = ("type", "value")


def _pick(attrs: dict[str, str], keys: tuple[str, ...]) -> dict[str, str]:
    return {k: attrs[k] for k in keys if k in attrs}


def normalise(gold: TimemlDoc, system: TimemlDoc, fix: bool = False) -> NormalisedPair:
    """Both annotations of one document, renamed identically (``fix``: a TLINK's other attributes are not read
    as its ends, unlike the toolkit's scorer; see :func:`_as_scorer_reads`)."""
    if gold.text != system.text:
        g, s = gold.text.split("\n"), system.text.split("\n")
        k = next((i for i, (a, b) in enumerate(zip(g, s)) if a != b), min(len(g), len(s)))
        raise InputError(f'{system.path}:{system.text_line + k}: document "{shown(system.name)}": the text differs '
                         f"from the gold's ({gold.path}:{gold.text_line + k}) once tags are stripped: gold "
                         f"{(g[k] if k < len(g) else '<end of text>')[:60]!r}, system "
                         f"{(s[k] if k < len(s) else '<end of text>')[:60]!r} (the toolkit stops: TEXTS NOT SAME)")
    toks = tokens(gold.text)
    starts = [t[0] for t in toks]
    ends = [t[1] for t in toks]
    n = len(toks)
    docs = (gold, system)
    labels: list[list[str]] = []
    begins: list[dict[int, Entity]] = []
    touched: set[int] = set()  # tokens an entity of either side touches
    for doc in docs:
        lab = ["O"] * n
        first: dict[int, Entity] = {}
        owner: dict[int, Entity] = {}
        for e in doc.entities:
            span = _token_span(doc.text, e, starts, ends)
            if span is None:
                continue
            i, j = span
            for t in range(i, j + 1):
                if t in owner:
                    raise ParseError(doc.path, e.line, f"{_name(e)} and {_name(owner[t])} touch one token "
                                                       f"({doc.text[starts[t]:ends[t]]!r}): the toolkit's normaliser "
                                                       "keeps one tag per token", doc.name)
                owner[t] = e
                lab[t] = ("B-" if t == i else "I-") + ("EVENT" if e.kind == "event" else "TIMEX3")
            first[i] = e
        labels.append(lab)
        begins.append(first)
        touched.update(owner)
    event_map: list[dict[str, str]] = [{}, {}]
    timex_map: list[dict[str, str]] = [{}, {}]
    last_eid = last_tid = 1
    open_timex = [0, 0]
    last_local = [0, 0]
    previous = -2
    for t in sorted(touched):  # a token outside every entity only closes both sides' open TIMEX3s
        if t != previous + 1:
            open_timex = [0, 0]
        previous = t
        open_event = 0
        for a in (0, 1):
            lab = labels[a][t]
            if lab == "B-EVENT":
                if open_event == 0:
                    open_event = last_eid
                    last_eid += 1
                event_map[a][begins[a][t].id] = f"e{open_event}"
            if lab in ("O", "B-TIMEX3"):
                open_timex[a] = 0
        for a in (0, 1):
            if labels[a][t] != "B-TIMEX3":
                continue
            open_timex[a] = last_tid
            for other in (0, 1):
                if other != a and open_timex[other] != 0 and last_local[a] < open_timex[other]:
                    open_timex[a] = open_timex[other]
                    break
            last_local[a] = open_timex[a]
            if open_timex[a] == last_tid:
                last_tid += 1
            timex_map[a][begins[a][t].id] = f"t{open_timex[a]}"
    notes: list[str] = []
    sides = [_side(doc, event_map[a], timex_map[a], notes, fix) for a, doc in enumerate(docs)]
    return NormalisedPair(sides[0], sides[1], notes)


def _name(e: Entity) -> str:
    return f"EVENT {e.id!r}" if e.kind == "event" else f"TIMEX3 {e.id!r}"


def _token_span(text: str, e: Entity, starts: list[int], ends: list[int]) -> tuple[int, int] | None:
    """First and last token an entity's non-blank characters touch (None: no such character)."""
    inner = text[e.start:e.end]
    if not inner.strip():
        return None
    a = e.start + (len(inner) - len(inner.lstrip()))
    b = e.end - (len(inner) - len(inner.rstrip()))  # exclusive
    i = bisect.bisect_right(starts, a) - 1
    j = bisect.bisect_left(ends, b)
    if i < 0 or ends[i] <= a:  # a character between tokens cannot happen (tokens cover every non-blank)
        i += 1
    return i, min(j, len(starts) - 1)


def _attribute_value(word: str, extra: str) -> str:
    """The scorer's get_entity_val on the tag's other attributes: the first ``word="..."``'s value, else the word."""
    m = re.search(word + '="([^"]*)"', extra)
    return m.group(1) if m else word


def _as_scorer_reads(path: str, link, x: str, y: str, notes: list[str], fix: bool) -> tuple[str, str]:
    """The ends the toolkit's scorer reads from the normalised TLINK: its get_relations looks for ``timeID`` and
    ``relatedToTime`` with re.search anywhere in the tag, so another attribute's name or value holding the word
    (``origin="relatedToTime"``) replaces an event end by that attribute's value, or the word itself."""
    if not link.extra:
        return x, y
    read = (_attribute_value("timeID", link.extra) if x.startswith("ei") and "timeID" in link.extra else x,
            _attribute_value("relatedToTime", link.extra) if y.startswith("ei") and "relatedToTime" in link.extra
            else y)
    if read != (x, y):
        notes.append(f"{path}:{link.line}: TLINK {link.lid!r}: the toolkit's scorer finds `timeID`/`relatedToTime` in its "
                     f"other attributes ({link.extra.strip()!r}) and reads its ends as {read[0]!r}, {read[1]!r}"
                     + (" (not under --fix-toolkit-quirks)" if fix else ""))
    return (x, y) if fix else read


def _side(doc: TimemlDoc, event_map: dict[str, str], timex_map: dict[str, str], notes: list[str],
          fix: bool = False) -> Side:
    # instances: eiN for the first instance of eN, then ei1000000+N, +1, ... (document order)
    instance_map: dict[str, str] = {}
    used: set[str] = set()
    seen_events: set[str] = set()
    for mk in doc.instances:
        event = event_map[mk.event]
        number = int(event[1:])
        if event not in seen_events:
            seen_events.add(event)
            name = f"ei{number}"
        else:
            k = 1000000 + number
            while f"ei{k}" in used:
                k += 1
            name = f"ei{k}"
        used.add(name)
        instance_map[mk.eiid] = name
    names = dict(timex_map)
    names[doc.dct] = "t0"
    relations = []
    for link in doc.tlinks:
        (sk, s), (tk, t) = link.source, link.target
        rel = "SIMULTANEOUS" if link.rel in _AS_SIMULTANEOUS else link.rel
        if sk == "event" and tk == "event":
            x, y = instance_map[s], instance_map[t]
            if int(x[2:]) > int(y[2:]):
                x, y, rel = y, x, REVERSE[rel]
        elif sk == "event":
            x, y, rel = instance_map[s], names[t], link.rel  # the normaliser leaves the relType alone
        elif tk == "event":
            x, y, rel = instance_map[t], names[s], REVERSE[rel]
        else:
            x, y = names[s], names[t]
            if int(x[1:]) > int(y[1:]):
                x, y, rel = y, x, REVERSE[rel]
        if rel in ("DURING", "DURING_INV"):  # the scorer's consider_DURING_as_SIMULTANEOUS
            rel = "SIMULTANEOUS"
        if link.note:
            notes.append(link.note)
        x, y = _as_scorer_reads(doc.path, link, x, y, notes, fix)
        relations.append((x, y, rel))
    # the entity scorer: MAKEINSTANCE attributes (the last instance of an event), then the EVENT tag's
    events: dict[str, EntityRecord] = {}
    for mk in doc.instances:
        events[event_map[mk.event]] = EntityRecord("", _pick(mk.attrs, EVENT_ATTRIBUTES))
    for e in doc.entities:
        if e.kind != "event" or e.nested:
            continue
        name = event_map[e.id]
        record = events.setdefault(name, EntityRecord("", {}))
        record.attrs.update(_pick(e.attrs, EVENT_ATTRIBUTES))
        record.text = doc.text[e.start:e.end]
    timexes: dict[str, EntityRecord] = {}
    if doc.dct_entity is not None:
        d = doc.dct_entity
        timexes[d.id] = EntityRecord(d.text or "", _pick(d.attrs, TIMEX_ATTRIBUTES))
    for e in doc.entities:
        if e.kind != "timex" or e.nested or e.id not in timex_map:
            continue
        timexes[timex_map[e.id]] = EntityRecord(doc.text[e.start:e.end], _pick(e.attrs, TIMEX_ATTRIBUTES))
    return Side(relations, events, timexes)
