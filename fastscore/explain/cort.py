"""cort's recall and precision errors (Martschat & Strube 2014).

Each entity of one side is represented by a spanning tree; its edges that the other side's partition does not
recover (the two mentions are not in one entity there, or one is absent there) are errors: recall errors for
key entities against the response, precision errors for response entities against the key.  The tree is cort's
default: every mention linked to its closest preceding mention of the entity (mentions in document order).
"""
from __future__ import annotations

from dataclasses import dataclass

from .documents import Side, Types


@dataclass
class Edge:
    anaphor: tuple
    antecedent: tuple
    entity: str  # the label of the entity (on the side whose tree this is)

    def type_pair(self, types: Types) -> str:
        return f"{types.of(self.anaphor)}-{types.of(self.antecedent)}"


def tree_errors(side: Side, other: Side) -> list[Edge]:
    """Edges of ``side``'s closest-preceding-mention trees not recovered by ``other``."""
    errors = []
    for label, mentions in side.entities.items():
        ordered = sorted(mentions)
        for antecedent, anaphor in zip(ordered, ordered[1:]):
            a, b = other.entity_of.get(antecedent), other.entity_of.get(anaphor)
            if a is None or a != b:
                errors.append(Edge(anaphor, antecedent, label))
    return errors
