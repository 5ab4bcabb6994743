"""Hypothesis strategies: random coreference documents with the hard cases
(repeated spans in key and response, shared spans, singletons, empty sides)."""
import random

from hypothesis import strategies as st

SPANS = [(s, e) for s in range(6) for e in range(s + 1, min(s + 3, 7))]


@st.composite
def chains(draw, max_chains=5, max_size=5):
    n = draw(st.integers(0, max_chains))
    return [draw(st.lists(st.sampled_from(SPANS), min_size=1, max_size=max_size)) for _ in range(n)]


@st.composite
def clean_chains(draw, max_chains=5):
    """Chains with no span repeated anywhere."""
    spans = draw(st.lists(st.sampled_from(SPANS), unique=True, max_size=12))
    labels = draw(st.lists(st.integers(0, max_chains - 1), min_size=len(spans), max_size=len(spans)))
    out = {}
    for span, label in zip(spans, labels):
        out.setdefault(label, []).append(span)
    return list(out.values())


@st.composite
def corpora(draw, chain_strategy=chains, max_docs=4):
    """(key docs, response docs) as ``{name: chains}``; some key documents missing from the response."""
    n = draw(st.integers(1, max_docs))
    key = {f"d{i}": draw(chain_strategy()) for i in range(n)}
    resp = {name: draw(chain_strategy()) for name in key if draw(st.integers(0, 4)) > 0}
    return key, resp


def mutate_lines(text: str, rng: random.Random) -> str:
    """One to three random edits of a file's lines (brackets, lines, separators, stray characters): fuzzing."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        kind = rng.randrange(7)
        if kind == 0:
            lines[i] = lines[i].replace("(", "", 1)
        elif kind == 1:
            lines[i] = lines[i].replace(")", "", 1)
        elif kind == 2:
            del lines[i]
        elif kind == 3:
            lines[i] = lines[i].replace("\t", " ", 1)
        elif kind == 4:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind == 5:
            lines[i] = lines[i].replace("-", "", 1)
        else:
            j = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:j] + rng.choice("()[]-:|=.0 \t#é") + lines[i][j:]
    return "\n".join(lines)
