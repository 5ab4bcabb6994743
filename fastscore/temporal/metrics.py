"""The temporal metric registry: per-document columns that add up, and the scores the TempEval-3
toolkit prints from their sums.

Relations (temporal awareness): ``rel_system_verified`` / ``rel_system_total`` (precision),
``rel_gold_verified`` / ``rel_gold_total`` (recall; the verified count holds the weighted implicit
part with ``implicit_in_recall``); F1 = 2PR / (P + R), 0 when P + R = 0.

Entities, per kind K (``event``, ``timex``): ``K_gold``, ``K_system`` (entities), ``K_strict_p``,
``K_relaxed_p`` (system entities matched), ``K_strict_r``, ``K_relaxed_r`` (gold entities matched),
and one column per attribute (gold entities whose relaxed match has the same value).  P and R of a
match kind are its two counts over the system and gold totals; when neither side has an entity of
the kind, the toolkit's F1 is 1 (P and R stay 0).  Attribute F1 = attribute matches / relaxed
matches x relaxed F1 (the toolkit's "attribute F1"), 1 when neither side has an entity of the kind.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from ..metrics import MetricSpec, f1, name_registries, ratio_score
from .entities import KINDS, columns

REL_COLUMNS = ("rel_system_verified", "rel_system_total", "rel_gold_verified", "rel_gold_total")
TEMPORAL_COLUMNS = REL_COLUMNS + columns()
ENTITY_METRICS = tuple(f"{k}-{m}" for k, attrs in KINDS.items() for m in ("strict", "relaxed", *attrs))


def _div(num, den) -> np.ndarray:
    """num / den, 0 where den is 0 (the toolkit's rule)."""
    num, den = np.asarray(num, np.float64), np.asarray(den, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den != 0, num / np.where(den != 0, den, 1.0), 0.0)


def _match(kind: str, strictness: str):
    def score(s: Mapping[str, object]) -> dict:
        p = _div(s[f"{kind}_{strictness}_p"], s[f"{kind}_system"])
        r = _div(s[f"{kind}_{strictness}_r"], s[f"{kind}_gold"])
        none = (np.asarray(s[f"{kind}_gold"]) == 0) & (np.asarray(s[f"{kind}_system"]) == 0)
        return {"precision": p, "recall": r, "f1": np.where(none, 1.0, f1(r, p))}
    return score


def _attribute(kind: str, attr: str):
    relaxed = _match(kind, "relaxed")

    def score(s: Mapping[str, object]) -> dict:
        accuracy = _div(s[f"{kind}_{attr}"], s[f"{kind}_relaxed_r"])
        none = (np.asarray(s[f"{kind}_gold"]) == 0) & (np.asarray(s[f"{kind}_system"]) == 0)
        return {"accuracy": accuracy, "f1": np.where(none, 1.0, accuracy * relaxed(s)["f1"])}
    return score


def _columns_of(kind: str, *extra: str) -> tuple[str, ...]:
    return (f"{kind}_gold", f"{kind}_system", *(f"{kind}_{c}" for c in extra))


TEMPORAL_METRICS: dict[str, MetricSpec] = {
    "temporal": MetricSpec("temporal", "Temporal Awareness", REL_COLUMNS,
                           ratio_score("rel_system_verified", "rel_system_total", "rel_gold_verified",
                                       "rel_gold_total"),
                           "temporal awareness: relations verified through the other side's temporal closure "
                           "(UzZaman & Allen)", integral=False),
}
for _k, _attrs in KINDS.items():
    for _m in ("strict", "relaxed"):
        TEMPORAL_METRICS[f"{_k}-{_m}"] = MetricSpec(
            f"{_k}-{_m}", f"{_k} {_m} match", _columns_of(_k, f"{_m}_p", f"{_m}_r"), _match(_k, _m),
            f"{_k} extraction, {'same extent' if _m == 'strict' else 'overlapping extent'}")
    for _a in _attrs:
        TEMPORAL_METRICS[f"{_k}-{_a}"] = MetricSpec(
            f"{_k}-{_a}", f"{_k} {_a}", _columns_of(_k, "relaxed_p", "relaxed_r", _a), _attribute(_k, _a),
            f"{_k} {_a}: accuracy on relaxed matches x relaxed F1 (the toolkit's attribute F1)")

name_registries(__name__, {"TEMPORAL_METRICS": TEMPORAL_METRICS})
