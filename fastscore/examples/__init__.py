"""The small key/response pairs shipped with fastscore, one per task (each folder's LICENSE.md says where it
comes from and what it shows).

``fastscore TASK example example`` scores one (``--format conllu`` for CorefUD); ``python -m fastscore.examples
NAME ...`` writes them into the current folder (NAME/key.EXT, NAME/response.EXT); in Python::

    from fastscore import score
    from fastscore.examples import example

    ex = example("nugget")
    result = score(ex.key, ex.response, task=ex.task, **ex.options)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
KEY = HERE / "key.conll"  # the CoNLL-2012 example (TC-A of the reference scorer's tests)
RESPONSE = HERE / "response.conll"


@dataclass(frozen=True)
class Example:
    """One bundled example: which task scores it, its two files, the options it is scored with."""

    name: str
    task: str
    key: Path
    response: Path
    shows: str  # the case it is there for
    options: dict[str, Any] = field(default_factory=dict)  # API keywords (`TASK example example` sets them)

    @property
    def folder(self) -> Path:
        return self.key.parent


EXAMPLES = {
    ex.name: ex for ex in (
        Example("coref", "coref", KEY, RESPONSE, "CoNLL-2012: test case TC-A/TC-A-4 of the reference scorer"),
        Example("corpus", "coref", HERE / "corpus" / "key.conll", HERE / "corpus" / "response.conll",
                "a corpus: 30 CoNLL-2012 documents, a response with every error type (for statistics and explain)"),
        Example("mina", "coref", HERE / "mina" / "key.conll", HERE / "mina" / "response.conll",
                "MINA: mentions whose boundaries differ from the key's but whose minimum spans match",
                {"match": "mina"}),
        Example("corefud", "coref", HERE / "corefud" / "key.conllu", HERE / "corefud" / "response.conllu",
                "CorefUD (CoNLL-U): a zero (an empty node) and a discontinuous mention"),
        Example("ua", "coref", HERE / "ua" / "key.ua", HERE / "ua" / "response.ua",
                "Universal Anaphora: a plural 'They' (split antecedents), a non-referring 'It', a bridging pair, "
                "a Min span", {"format": "ua"}),
        Example("nugget", "nugget", HERE / "nugget" / "key.tbf", HERE / "nugget" / "response.tbf",
                "TAC KBP event nuggets in character spans, with event coreference",
                {"char_spans": True, "coref": True}),
        Example("temporal", "temporal", HERE / "temporal" / "key.tml", HERE / "temporal" / "response.tml",
                "TimeML: a response relation verified only through the key's temporal closure"),
        Example("explain", "explain", KEY, RESPONSE, "the coreference example's errors: extra and missing "
                "mentions"),
        Example("triples", "triples", HERE / "triples" / "key.trp", HERE / "triples" / "response.trp",
                "triples: a response triple that matches a key triple through some of its token ids"),
    )
}


def example(name: str) -> Example:
    """The bundled example NAME: coref, corpus, mina, corefud, nugget, temporal, explain or triples."""
    try:
        return EXAMPLES[name]
    except KeyError:
        raise ValueError(f"no bundled example {name!r}: choose from {', '.join(EXAMPLES)}") from None


def path(name: str) -> Path:
    """The folder holding the bundled example NAME (its key, response and LICENSE.md)."""
    return example(name).folder


def command_inputs(name: str) -> tuple[str, str, dict[str, Any]]:
    """What ``TASK example example`` scores: the key, the response and the options set for them."""
    ex = example(name)
    return str(ex.key), str(ex.response), dict(ex.options)


def write(names: list[str], folder: str | Path = ".") -> list[Path]:
    """Copy the bundled examples NAMES (all: every one) into ``folder``/NAME/ (key, response, licence); a file
    already there is left as it is when it holds the same bytes, else refused (nothing of the user's is
    overwritten).  The paths written, or found already there."""
    from ..errors import UsageError

    chosen = [example(n) for n in (list(EXAMPLES) if names == ["all"] else names)]
    copies = []
    for ex in chosen:
        for source in (ex.key, ex.response, *sorted(ex.folder.glob("LICENSE*"))):
            target = Path(folder) / ex.name / source.name
            if target.exists() and (not target.is_file() or target.read_bytes() != source.read_bytes()):
                raise UsageError(f"{target}: exists and is not the bundled example's: not overwritten")
            copies.append((source, target))
    for source, target in copies:
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            target.write_bytes(source.read_bytes())
    return [target for _, target in copies]
