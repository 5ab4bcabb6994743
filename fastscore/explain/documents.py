"""CoNLL-2012 key and response read into what the error analysis needs, per document.

A mention is ``(sentence, start, end)``: the sentence's number in its document, token positions in the
sentence, end exclusive (the Berkeley Coreference Analyser's tuples, so that mention order is theirs); a
discontinuous CoNLL-U mention adds its positions (explain.conllu), a response mention the matching leaves unpaired
with a key mention's words its positions and a mark (explain.matching.unpaired).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError, InputNotFound
from ..messages import counted
from ..pairing import pair
from . import PAIRING
from .heads import mention_head, parse_sentence

Mention = tuple  # (sentence, start, end)

# the Analyser's part-of-speech tags of pronouns (one-token mentions only) and of proper names
PRONOUN_TAGS = frozenset(("PRP", "PRP$", "WP", "WP$", "WDT", "WRB", "DT"))
NAME_TAGS = frozenset(("NNP", "NNPS"))
NO_TAG = frozenset(("_", "-", ""))
# CoNLL-U's UPOS: PRON and DET (Penn's PRP, WP, DT...) are pronoun tags, PROPN (NNP, NNPS) names
TAGSETS = {"penn": (PRONOUN_TAGS, NAME_TAGS), "upos": (frozenset(("PRON", "DET")), frozenset(("PROPN",)))}


@dataclass
class Side:
    """One side (key or response) of a document: mention -> entity label, entity label -> its mentions."""

    entity_of: dict = field(default_factory=dict)  # Mention -> label
    entities: dict = field(default_factory=dict)  # label -> [Mention] (in the order they were completed)
    lines: dict = field(default_factory=dict)  # Mention -> 1-based file line where it opens

    def add(self, mention: Mention, label: str, line: int) -> None:
        """A mention of entity ``label`` (a mention already there keeps its first entity, as the readers do)."""
        if mention not in self.entity_of:
            self.entity_of[mention] = label
            self.entities.setdefault(label, []).append(mention)
            self.lines[mention] = line


@dataclass
class Document:
    name: str
    words: list  # per sentence, its words
    tags: list | None  # per sentence, its parts of speech (None: the file has none)
    key: Side
    response: Side
    key_line: int  # 1-based line of the key's "#begin document"
    trees: list | None = None  # per sentence, its parse tree from the key's parse bits (heads.Node or None)
    tagset: str = "penn"  # the tags' set: penn (CoNLL-2012's column) or upos (CoNLL-U)
    zeros: list | None = None  # CoNLL-U: per sentence, the positions of its empty nodes
    heads: dict | None = None  # CoNLL-U: mention -> its head's position, as the file gives it

    def head(self, m: Mention) -> int:
        """The position of a mention's head word (CoNLL-U: the file's; else heads.mention_head: its last word
        without a parse)."""
        if self.heads is not None:
            return self.heads.get(m, m[2] - 1)
        tree = self.trees[m[0]] if self.trees is not None else None
        return m[2] - 1 if tree is None else mention_head(tree, m[1], m[2])

    def words_of(self, m: Mention) -> list[str]:
        """A mention's words (a discontinuous CoNLL-U mention's: its own, not those of its gaps)."""
        words = self.words[m[0]]
        return [words[p] for p in m[3]] if len(m) > 3 else words[m[1]:m[2]]


def input_format(key_path: str, format: str = "auto") -> str:
    """conll2012, jsonl or conllu: ``format``, or (auto) the key's content."""
    from ..coref.score import detect_format
    from ..errors import UsageError

    try:
        fmt = detect_format(key_path) if format == "auto" else format
    except FileNotFoundError:
        raise InputNotFound(key_path) from None
    except OSError as exc:
        raise InputError(f"cannot read {key_path}: {exc.strerror}") from None
    if fmt not in ("conll2012", "jsonl", "conllu"):
        raise UsageError(f"{key_path}: explain reads CoNLL-2012, CoNLL-U and jsonlines files, not {fmt} (convert it "
                         "with fastscore convert)")
    return fmt


def read_conll_sides(key_path: str, response_path: str) -> tuple[tuple, tuple]:
    """Key and response CoNLL-2012 files read: (mention table, token columns) each."""
    from ..formats.conll import read_conll_columns

    try:
        return read_conll_columns(key_path), read_conll_columns(response_path)
    except InputNotFound:
        raise
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {getattr(exc, 'filename', None) or key_path}: {exc}") from None


def read_sides(key_path: str, response_path: str, format: str = "auto",
               read: tuple | None = None) -> tuple[list[Document], list[str]]:
    """Key documents (in key order) with their response; warnings (response documents not in the key).
    CoNLL-2012 or jsonlines files (``format``: auto, from the key's content; CoNLL-U: see explain.conllu);
    ``read``: the CoNLL-2012 files already read (:func:`read_conll_sides`)."""
    fmt = input_format(key_path, format)
    if fmt == "jsonl":
        return _read_jsonl_sides(key_path, response_path)
    (key_table, key_tokens), (resp_table, resp_tokens) = read or read_conll_sides(key_path, response_path)
    paired = pair(key_table.doc_names, resp_table.doc_names, PAIRING)
    docs = []
    for name, d, r in paired.pairs:
        words, tags, trees = _sentences(key_tokens, d)
        key = _side(key_table, key_tokens, d)
        if r is not None:
            _check_same_sentences(name, words, [b - a for a, b in _sentence_bounds(resp_tokens, r)[2]], response_path)
        response = Side() if r is None else _side(resp_table, resp_tokens, r)
        docs.append(Document(name, words, tags, key, response, int(key_table.doc_lines[d]) + 1, trees))
    return docs, _not_in_key(response_path, paired.extra)


def _not_in_key(response_path: str, extra: list[str]) -> list[str]:
    return [f"{response_path}: {len(extra)} document(s) not in the key, ignored (first: {extra[0]})"] if extra else []


def _read_jsonl_sides(key_path: str, response_path: str) -> tuple[list[Document], list[str]]:
    from ..formats.jsonl import read_jsonl_documents

    paired = pair({d.doc_key: d for d in read_jsonl_documents(key_path)},
                  {d.doc_key: d for d in read_jsonl_documents(response_path)}, PAIRING)
    docs = []
    for _, k, r in paired.pairs:
        if r is not None:
            _check_same_sentences(k.doc_key, k.sentences, [len(s) for s in r.sentences], response_path)
        docs.append(Document(k.doc_key, k.sentences, None, _jsonl_side(k),
                             Side() if r is None else _jsonl_side(r, k.sentences), k.line))
    return docs, _not_in_key(response_path, paired.extra)


def _jsonl_side(doc, sentences: list | None = None) -> Side:
    """A jsonlines document's clusters as a side (tokens numbered over the document, inclusive ends; the
    sentences of the key when given); a span in two clusters keeps its first, a mention across sentences is
    left out, as for CoNLL-2012.  Every mention's line is the document's."""
    sentences = doc.sentences if sentences is None else sentences
    where = [(s, t) for s, words in enumerate(sentences) for t in range(len(words))]
    side = Side()
    for c, cluster in enumerate(doc.clusters):
        for start, end in cluster:
            if end >= len(where) or where[start][0] != where[end][0]:
                continue
            side.add((where[start][0], where[start][1], where[end][1] + 1), str(c), doc.line)
    return side


def _sentence_bounds(tokens, d: int) -> tuple[int, int, list[tuple[int, int]]]:
    """A document's tokens lo..hi and its sentences' (start, end) among them."""
    lo, hi = int(tokens.doc_offsets[d]), int(tokens.doc_offsets[d + 1])
    cuts = np.flatnonzero(tokens.position[lo:hi] == 0).tolist() + [hi - lo]
    return lo, hi, list(zip(cuts, cuts[1:]))


def _check_same_sentences(name: str, key_sentences: list, response_lengths: list[int], response_path: str) -> None:
    """The response must hold the key's sentences, word for word in number: its mentions are read against the
    key's text."""
    key_lengths = [len(s) for s in key_sentences]
    if key_lengths == response_lengths:
        return
    diff = next((i for i, (a, b) in enumerate(zip(key_lengths, response_lengths)) if a != b), None)
    where = (f"{counted(len(response_lengths), 'sentence')}, the key {len(key_lengths)}" if diff is None
             else f"sentence {diff + 1} has {counted(response_lengths[diff], 'word')}, the key's {key_lengths[diff]}")
    raise InputError(f"{response_path}: document {name}: the response's words are not the key's ({where})")


def _sentences(tokens, d: int) -> tuple[list, list | None, list | None]:
    """Words, tags (None without) and parse trees (None without) per sentence of a document."""
    lo, hi, bounds = _sentence_bounds(tokens, d)
    words = _field(tokens, lo, hi, 3)
    tags = _optional_field(tokens, lo, hi, 4)
    by_sentence = [words[a:b] for a, b in bounds]
    if all(t in NO_TAG for t in set(tags)):
        return by_sentence, None, None
    tags_by_sentence = [tags[a:b] for a, b in bounds]
    bits = _optional_field(tokens, lo, hi, 5)
    if all(b in NO_TAG for b in set(bits)):
        return by_sentence, tags_by_sentence, None
    trees = [parse_sentence(tags[a:b], bits[a:b]) for a, b in bounds]
    return by_sentence, tags_by_sentence, trees


def _optional_field(tokens, lo: int, hi: int, k: int) -> list[str]:
    present = tokens.n_fields[lo:hi] > k
    values = _field(tokens, lo, hi, k)
    return values if present.all() else [v if ok else "_" for v, ok in zip(values, present.tolist())]


def _field(tokens, lo: int, hi: int, k: int) -> list[str]:
    """Field ``k`` of tokens lo..hi, gathered as one byte string (newline between fields) and decoded once."""
    if hi == lo:
        return []
    starts = tokens.field_start[lo:hi, k].astype(np.int64)
    sizes = tokens.field_end[lo:hi, k].astype(np.int64) - starts + 1  # + the separator
    at = np.repeat(starts - np.concatenate([[0], np.cumsum(sizes)[:-1]]), sizes) + np.arange(int(sizes.sum()))
    gathered = tokens.buf[at]
    gathered[np.cumsum(sizes) - 1] = 10  # "\n" in the separators' places
    return gathered[:-1].tobytes().decode("utf-8").split("\n")


def _side(table, tokens, d: int) -> Side:
    """Mentions of a document in the order they are completed; a span read twice keeps its first entity and
    a mention across a sentence boundary is left out (both as the Analyser reads them)."""
    side = Side()
    lo, hi = int(table.doc_offsets[d]), int(table.doc_offsets[d + 1])
    first = int(tokens.doc_offsets[d])
    labels = table.cluster_labels[d]
    rows = lo + np.argsort(tokens.completion[lo:hi], kind="stable")
    starts = first + table.start[rows].astype(np.int64)
    lasts = first + table.end[rows].astype(np.int64) - 1
    same = (tokens.sentence[starts] == tokens.sentence[lasts]).tolist()
    sentence = tokens.sentence[starts].tolist()
    start, end = tokens.position[starts].tolist(), (tokens.position[lasts] + 1).tolist()
    lines = (tokens.line[starts] + 1).tolist()
    for k, cluster in enumerate(table.cluster[rows].tolist()):
        if same[k]:
            side.add((sentence[k], start[k], end[k]), labels[cluster], lines[k])
    return side


def drop_singletons(side: Side) -> Side:
    """The side without its one-mention entities (the Analyser's default for the response)."""
    out = Side()
    for label, mentions in side.entities.items():
        for m in mentions if len(mentions) > 1 else ():
            out.add(m, label, side.lines[m])
    return out


class Types:
    """Mention types of a document: the Analyser's pronoun test (a one-token mention tagged as a pronoun or in
    its pronoun list) drives the classification; reported types are proper, nominal, pronoun from the tags,
    or unknown where the file has none (proper: the head tagged NNP or NNPS)."""

    def __init__(self, doc: Document):
        self.doc, self.words, self.tags = doc, doc.words, doc.tags
        self.pronoun_tags, self.name_tags = TAGSETS[doc.tagset]
        self._pronouns: dict = {}

    def is_pronoun(self, m: Mention) -> bool:
        s, a, e = m[:3]
        if e - a != 1:
            return False
        known = self._pronouns.get(m)
        if known is None:
            tag = self.tags[s][a] if self.tags is not None else "_"
            zero = self.doc.zeros is not None and a in self.doc.zeros[s]
            known = self._pronouns[m] = (zero or tag in self.pronoun_tags
                                         or self.words[s][a].lower() in PRONOUN_WORDS)
        return known

    def of(self, m: Mention) -> str:
        if self.tags is None:
            return "unknown"
        if self.is_pronoun(m):
            return "pronoun"
        return "proper" if self.tags[m[0]][self.doc.head(m)] in self.name_tags else "nominal"


# the words the Analyser takes for pronouns whatever their tag (nlp_util/coreference.py's list)
PRONOUN_WORDS = frozenset("""
her hers herself she he him himself his our ours yours ourselves yourselves they their theirs them 'em em
themselves us we whoever whomever whose i me mine my myself one thyself ya you your yourself it its itself what
when where which how everybody everyone anybody anyone somebody someone nobody all few several some many most
none noone that this these those whatever who whom something nothing everything""".split())
