"""How gold and system documents pair: one policy per task (``Task.pairing``, declared in the task's package) and
one function that pairs, used by every task's scorer, by compare/sweep and by corpora of shards."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Literal, Mapping, NamedTuple, Sequence


@dataclass(frozen=True)
class Pairing:
    """A task's pairing policy."""

    missing: Literal["empty", "error"] = "empty"  # a gold document the system lacks: scored as empty, or an error
    extra: Literal["warn", "error"] = "warn"  # a system document the gold lacks: not scored (warned), or an error
    order: Literal["gold", "sorted"] = "gold"  # the pairs in the gold's document order, or sorted by name
    key: Callable[[str, dict], str] | None = None  # (name, scoring options) -> the key it pairs by (None: its name)
    # (the files of gold documents without a system one, of system documents without a gold one, scoring options)
    # -> the task's own error for a corpus of shards whose pairing refuses them (None: the one compare gives)
    error: Callable[[list[str], list[str], dict], Exception] | None = None

    def key_of(self, name: str, options: dict) -> str:
        return name if self.key is None else self.key(name, options)


class Paired(NamedTuple):
    pairs: list[tuple[str, Any, Any]]  # (name, gold item, system item or None), in the policy's order
    missing: list[str]  # gold names without a system document, in the order of the pairs
    extra: list[str]  # system names without a gold document, in the system's order
    disjoint: bool  # the system has documents and none of them pairs (a wrong file rather than a bad score)


def pair(gold: Mapping[str, Any] | Sequence[str], system: Mapping[str, Any] | Sequence[str],
         policy: Pairing = Pairing()) -> Paired:
    """Pair the documents of two sides, each a mapping name -> item (not None) or a sequence of names (the items
    are then their positions).  Every gold document is in one pair; a name twice in the system pairs its last."""
    items = lambda side: list(side.items()) if isinstance(side, Mapping) else [(n, i) for i, n in enumerate(side)]
    gold_items, system_items = items(gold), items(system)
    found = dict(system_items)
    pairs = [(name, item, found.get(name)) for name, item in gold_items]
    if policy.order == "sorted":
        pairs.sort(key=lambda p: p[0])
    names = {name for name, _ in gold_items}
    extra = [name for name, _ in system_items if name not in names]
    return Paired(pairs, [name for name, _, s in pairs if s is None], extra, len(extra) == len(system_items) > 0)
