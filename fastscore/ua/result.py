"""The result of scoring UA files: a coreference result (its JSON layout, bootstrap, per document) with the
non-referring and bridging figures beside the metrics, and the UA scorer's report."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..coref.result import CorefResult
from ..metrics import prf_score
from .metrics import BRIDGING


@dataclass(kw_only=True)
class UAResult(CorefResult):
    printed: list[str] = field(default_factory=list)  # what the scorer prints while reading (skipped pairs, documents)
    header: str = ""  # the scorer's first line

    def _object(self, sums, intervals: dict | None = None) -> dict:
        out = super()._object(sums, intervals)
        if self.options.get("non-referring"):
            out["non_referring"] = {k: float(v) for k, v in prf_score(sums, "non_referring").items()}
        if self.options.get("bridging"):
            out["bridging"] = {name: {k: float(v) for k, v in prf_score(sums, name).items()} for name in BRIDGING}
        return out

    @classmethod
    def merge(cls, results, key_path, response_path):
        merged = super().merge(results, key_path, response_path)  # a UAResult: its own fields added here
        return replace(merged, printed=[p for r in results for p in r.printed], header=results[0].header)
