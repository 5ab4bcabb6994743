"""A document's side made ready to score as the UA scorer makes it: clusters of markables, plural sets (split
antecedents) flattened to the clusters of their singular members, singletons and non-referring entities kept or
left out, clusters of equal plural sets merged.

Markables are their spans ``(start, end)``.  A plural set is a :class:`Split`: equal to another when they have the
same member clusters (each a tuple of spans, in the order of their markables).  Where the scorer's numbers depend on
the order in which Python iterates its sets (the members of a plural set; a cluster holding a plural set, whose
markables the scorer puts through a set), that order is made the same way: objects with the scorer's hash values
put into a Python set in the scorer's order (:class:`_Hashed`).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..errors import InputError
from .reader import Markable, UADocument

Span = tuple[int, int]
MAX_STEPS = 10_000_000  # entities a plural set's walk may visit (with repeats) before it is refused


class _Hashed:
    """A markable as the scorer's set sees it: its hash is the scorer's (of the frozenset of start and end),
    its equality the span's."""

    __slots__ = ("span", "min", "_hash")

    def __init__(self, span: Span, min_span):
        self.span = span
        self.min = min_span
        self._hash = hash(frozenset(span))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other) -> bool:
        return isinstance(other, _Hashed) and other.span == self.span


class Split(frozenset):
    """A plural set (split antecedent) as one item of a cluster: its member clusters, in the order the scorer
    lists them, and for the key with minimum spans each member's Min spans.  A frozenset of its members as the
    scorer's set holds them, for the scorer's hash (kept by frozenset, not computed again at each look-up)."""

    __slots__ = ("key", "members", "member_mins", "member_of")

    def __new__(cls, members: set):
        """``members``: a Python set of tuples of :class:`_Hashed`, filled in the scorer's order."""
        self = super().__new__(cls, members)
        ordered = list(members)
        self.members: list[tuple[Span, ...]] = [tuple(m.span for m in t) for t in ordered]
        self.member_mins: list[tuple] = [tuple(m.min for m in t) for t in ordered]
        self.key = frozenset(self.members)
        self.member_of = {m: i for i, c in enumerate(self.members) for m in c}  # span -> its (last) member
        return self

    __hash__ = frozenset.__hash__

    def __eq__(self, other):
        if isinstance(other, Split):
            return self.key == other.key
        return NotImplemented

    def __ne__(self, other):
        if isinstance(other, Split):
            return self.key != other.key
        return NotImplemented

    def __repr__(self) -> str:
        return f"Split({sorted(self.key)})"


@dataclass
class Side:
    """One document of key or response, ready to score."""

    clusters: list[list]  # items: spans, and at most one Split per cluster
    mins: list[list] | None  # per cluster and item: the markable's Min (key with minimum spans), else None
    non_referring: list[Markable] = field(default_factory=list)  # the first markable of each -Pseudo entity
    cluster_of: dict = field(default_factory=dict)  # item -> index of its (last) cluster
    split_items: list[Split] = field(init=False, repr=False)  # the plural sets, cluster by cluster

    def __post_init__(self) -> None:
        self.split_items = [m for c in self.clusters for m in c if type(m) is Split]

    def splits(self) -> list[Split]:
        return self.split_items


def _entities(doc: UADocument) -> dict[str, list[Markable]]:
    out: dict[str, list[Markable]] = {}
    for m in doc.markables.values():
        out.setdefault(m.entity, []).append(m)
    return out


def _check_no_cycle(path: str, doc: UADocument, children: dict[str, list[str]]) -> None:
    """ElementOf links that come back to where they start make the scorer loop for ever: an error instead."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    for root in children:
        if state.get(root):
            continue
        state[root] = 1
        stack = [(root, iter(children[root]))]
        while stack:
            node, it = stack[-1]
            child = next(it, None)
            if child is None:
                state[node] = 2
                stack.pop()
            elif state.get(child) == 1:
                loop = [n for n, _ in stack]
                loop = loop[loop.index(child):] + [child]
                raise InputError(f"{path}: document {doc.name!r}: the ElementOf links of entities "
                                 f"{' -> '.join(loop)} form a cycle (a plural set inside itself), on which the UA "
                                 "scorer loops for ever: score with --split-antecedents drop, or fix the file")
            elif not state.get(child):
                state[child] = 1
                stack.append((child, iter(children.get(child, ()))))


def _plural(entity: str, entities: dict[str, list[Markable]], children: dict[str, list[str]],
            hashed: dict[str, tuple]) -> Split:
    """The plural set of ``entity``: the clusters of the singular entities below it, breadth first (``hashed``:
    entity -> its markables as :class:`_Hashed`, filled as needed)."""
    members: set = set()
    queue = deque([entity])
    steps = 0
    while queue:
        steps += 1
        if steps > MAX_STEPS:  # sets shared down many levels: the walk doubles at each level
            raise InputError(f"plural set {entity!r}: its ElementOf links reach more than {MAX_STEPS:,} entities "
                             "counted with repeats (sets shared by sets, many levels deep); the UA scorer walks them "
                             "all: score with --split-antecedents drop")
        current = queue.popleft()
        below = children.get(current)
        if below:
            queue.extend(below)
        else:
            members.add(_hashed(current, entities, hashed))
    return Split(members)


def _hashed(entity: str, entities: dict[str, list[Markable]], hashed: dict[str, tuple]) -> tuple:
    """The entity's markables as :class:`_Hashed`, made once per side (``hashed``: those made)."""
    found = hashed.get(entity)
    if found is None:
        found = hashed[entity] = tuple([_Hashed((m.start, m.end), m.min) for m in entities[entity]])
    return found


def prepare_side(path: str, doc: UADocument, keep_singletons: bool, keep_non_referring: bool,
                 keep_split: bool, with_min: bool) -> Side:
    """The scorer's clusters of one document: see the module's help."""
    entities = _entities(doc)
    children = {e: [doc.markables[mid].entity for mid in doc.element_of[e]]
                for e in entities if doc.element_of.get(e)}
    if keep_split and children:
        if not keep_singletons:
            raise InputError(f"{path}: document {doc.name!r}: a plural set (ElementOf) with singletons dropped: the "
                             "UA scorer's assertion fails here (singletons may be members of plural sets); add "
                             "--split-antecedents drop, or keep singletons")
        _check_no_cycle(path, doc, children)
    kept: list[tuple[list[Markable], Split | None, tuple | None]] = []
    non_referring: list[Markable] = []
    hashed: dict[str, tuple] = {}  # Min spans are None unless read (the key's, with minimum spans)
    for entity, markables in entities.items():
        split = _plural(entity, entities, children, hashed) if keep_split and entity in children else None
        if entity.endswith("-Pseudo"):
            if keep_non_referring:
                non_referring.append(markables[0])
            continue
        if not keep_singletons and len(markables) + (split is not None) == 1:
            continue
        kept.append((markables, split, _hashed(entity, entities, hashed) if split is not None else None))
    if keep_split:
        clusters, mins = _merged(kept, with_min)
    else:
        clusters = [[m.span for m in ms] for ms, _, _ in kept]
        mins = [[m.min for m in ms] for ms, _, _ in kept] if with_min else None
    cluster_of = {m: i for i, c in enumerate(clusters) for m in c}  # an item in two clusters: the last
    return Side(clusters, mins, non_referring, cluster_of)


def _merged(kept: list, with_min: bool) -> tuple[list[list], list[list] | None]:
    """Clusters as the scorer leaves them when it keeps plural sets: each a set of its markables (repeated spans
    once), clusters with equal plural sets one cluster, in the order the scorer's sets give; and their Min spans
    (``with_min``, else None)."""
    clusters: list[list] = []
    mins: list[list] = []
    merged: list[set | None] = []  # the Python set of a cluster with a plural set (its order is the scorer's)
    for markables, split, hashed in kept:
        if split is None:  # no plural set: nothing merges with it, and the order of its markables is immaterial
            spans = [(m.start, m.end) for m in markables]
            if len(set(spans)) == len(spans):
                clusters.append(spans)
                if with_min:
                    mins.append([m.min for m in markables])
            else:  # a span repeated: once, with its first Min
                first: dict = {}
                for span, m in zip(spans, markables):
                    first.setdefault(span, m.min)
                clusters.append(list(first))
                if with_min:
                    mins.append(list(first.values()))
            merged.append(None)
            continue
        items = [*hashed, split]
        existing = None
        for c2 in merged:
            if c2 is not None and split in c2:
                existing = c2
                break
        if existing is not None:
            existing.update(items)
        else:
            merged.append(set(items))
            clusters.append([])
            if with_min:
                mins.append([])
    for i, s in enumerate(merged):
        if s is not None:
            clusters[i] = [m if isinstance(m, Split) else m.span for m in s]
            if with_min:
                mins[i] = [None if isinstance(m, Split) else m.min for m in s]
    return clusters, mins if with_min else None
