"""The UA scorer's metric registry: MUC, B-cubed, CEAFm, CEAFe, LEA, its BLANC and the CoNLL average, with the
non-referring and bridging figures beside them (scored with --non-referring, --bridging)."""
from __future__ import annotations

from typing import Mapping

import numpy as np

from ..coref.metrics import METRICS as COREF_METRICS
from ..metrics import PRF, MetricSpec, name_registries, prf_score

KINDS = ("coref", "noncoref")  # BLANC's two parts: the scorer's blancc and blancn


def blanc_score(sums: Mapping[str, object]) -> dict:
    """The mean of BLANC's coreference and non-coreference recall, precision and F; a part is left out when the
    scored clusters have no link of its kind on either side (``blanc_KIND_links``: the links of key and response,
    which for --only-split-antecedents are not the counts scored)."""
    parts = [(prf_score(sums, f"blanc_{k}"), np.asarray(sums[f"blanc_{k}_links"]) == 0) for k in KINDS]
    (a, no_a), (b, no_b) = parts
    return {k: np.where(no_a & no_b, 0.0, np.where(no_a, b[k], np.where(no_b, a[k], (a[k] + b[k]) / 2)))
            for k in ("recall", "precision", "f1")}


def _prf(name: str, title: str, description: str, integral: bool = True) -> MetricSpec:
    return MetricSpec(name, title, tuple(f"{name}_{c}" for c in PRF), lambda s, n=name: prf_score(s, n),
                      description, integral)


# the bridging figures, under their printed labels made names (lower case, underscores)
BRIDGING = {
    "bridging_anaphora_recognition_scores": "Bridging anaphora recognition scores",
    "full_bridging_scores_markable_level": "Full bridging scores (Markable Level)",
    "full_bridging_scores_entity_level": "Full bridging scores (Entity Level)",
}

COREFERENCE: dict[str, MetricSpec] = {
    "mentions": COREF_METRICS["mentions"],
    "muc": COREF_METRICS["muc"],
    "bcub": _prf("bcub", "B-cubed", "mention-based, Bagga & Baldwin 1998; a plural set weighs its alignment",
                 integral=False),
    "ceafm": _prf("ceafm", "CEAFm", "mention-based CEAF; a plural set weighs its alignment's F1", integral=False),
    "ceafe": COREF_METRICS["ceafe"],
    "blanc": MetricSpec("blanc", "BLANC", tuple(f"blanc_{k}_{c}" for k in KINDS for c in (*PRF, "links")),
                        blanc_score, "mean of coreference- and non-coreference-link F (a part left out when neither "
                        "side has its links), Universal Anaphora scorer", integral=False),
    "lea": COREF_METRICS["lea"],
    "conll": COREF_METRICS["conll"],
}
for _m in ("muc",):
    COREFERENCE[_m] = _prf(_m, COREF_METRICS[_m].title, COREF_METRICS[_m].description, integral=False)

METRICS: dict[str, MetricSpec] = {
    **COREFERENCE,
    "non_referring": _prf("non_referring", "Non-referring", "non-referring markable identification"),
    **{name: _prf(name, title, "bridging pairs as the UA scorer counts them") for name, title in BRIDGING.items()},
}

name_registries(__name__, {"METRICS": METRICS})
