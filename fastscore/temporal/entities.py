"""Event and TIMEX3 extraction counts of one document, as the TempEval-3 toolkit's entity scorer
(``evaluate_entities.py``) counts them on the normalised files.

An entity of one side *relaxed*-matches the entity of the other side with the same normalised
name (gold and system events starting in one token; overlapping TIMEX3s); it *strict*-matches
when the two texts are also equal.  An entity whose text the scorer cannot see (a tag inside
it; an event known only from its MAKEINSTANCE) counts in its side's total but matches nothing.
Attributes are compared on relaxed matches (gold side): events' class, tense, aspect (and pos,
polarity, modality, which the toolkit counts but does not print), TIMEX3s' type and value; a
missing attribute is the empty string on both sides.
"""
from __future__ import annotations

from .normalize import EntityRecord, NormalisedPair

EVENT_ATTRIBUTES = ("class", "tense", "aspect")
TIMEX_ATTRIBUTES = ("type", "value")
KINDS = {"event": EVENT_ATTRIBUTES, "timex": TIMEX_ATTRIBUTES}
PARTS = ("gold", "system", "strict_p", "relaxed_p", "strict_r", "relaxed_r")


def columns() -> tuple[str, ...]:
    return tuple(f"{k}_{p}" for k, attrs in KINDS.items() for p in PARTS + attrs)


def _side_counts(gold: dict[str, EntityRecord], system: dict[str, EntityRecord], attrs: tuple[str, ...],
                 kind: str) -> dict[str, int]:
    out = {f"{kind}_{p}": 0 for p in PARTS + attrs}
    out[f"{kind}_gold"], out[f"{kind}_system"] = len(gold), len(system)
    for g, s in _found(gold, system):
        out[f"{kind}_relaxed_r"] += 1
        out[f"{kind}_strict_r"] += g.text == s.text
        for a in attrs:
            out[f"{kind}_{a}"] += g.attrs.get(a, "") == s.attrs.get(a, "")
    for s, g in _found(system, gold):
        out[f"{kind}_relaxed_p"] += 1
        out[f"{kind}_strict_p"] += g.text == s.text
    return out


def _found(side: dict[str, EntityRecord], other: dict[str, EntityRecord]):
    """(entity, the other side's entity of its name) for each entity with text whose name the other side has,
    with text too."""
    for name, e in side.items():
        o = other.get(name)
        if e.text.strip() and o is not None and o.text.strip():
            yield e, o


def entity_counts(pair: NormalisedPair) -> dict[str, int]:
    """The per-document entity columns (see :func:`columns`)."""
    out = _side_counts(pair.gold.events, pair.system.events, EVENT_ATTRIBUTES, "event")
    out.update(_side_counts(pair.gold.timexes, pair.system.timexes, TIMEX_ATTRIBUTES, "timex"))
    return out
