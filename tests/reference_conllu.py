"""The CoNLL-U reader as it was before the byte scanners became the only one: a line-by-line Python reader
of CorefUD files, kept as the oracle of ``fastscore.formats.conllu.read_conllu`` (tests/test_conllu_reader.py
compares their tables, sentences, warnings and errors).  Not used by the product."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

import numpy as np

from fastscore.errors import ParseError
from fastscore.formats.conllu import (MAX_ORD, ORD_SHIFT, SENTENCE_SHIFT, BatchFacts, Sentence, _GLOBAL_ENTITY,
                                      _NEWDOC, _SENT_ID, discontinuous_parts, document_again,
                                      counted_warning, entity_without_mention, udapi_tree_problem, link_to_itself, header_warning, crash_warning,
                                      link_before_entity, newdoc_without_words, zone_invalid, zones_mixed, repeated_sentence_id,
                                      word_key, _shift_sentences)
from fastscore.formats.files import Part, decode_utf8, read_bytes, read_part, reject_other_format, source_name
from fastscore.formats.table import MentionTable, Words, offsets

_CHUNKS = re.compile(r"(\([^()]+\)?|[^()]+\))")
_DISCONTINUOUS = re.compile(r"^([^[]+)\[(\d+)/(\d+)\]")
_BLANK = re.compile(r"(\n[ \t]*\n)")


def read_conllu(path: str | os.PathLike | Part, fix_corefud_quirks: bool = False) -> MentionTable:
    """What ``fastscore.formats.conllu.read_conllu`` gives, read line by line in Python."""
    start = path if isinstance(path, Part) else None
    if start is not None:
        name, data = start.path, read_part(start)
    else:
        name, data = source_name(os.fspath(path)), read_bytes(os.fspath(path))
    reader = _Reader(name, decode_utf8(name, data, start.line if start else 0), start, fix_corefud_quirks)
    table = reader.read()
    table.sentences = reader.file.sentences
    table.warnings = reader.file.warnings
    if start is not None:
        table.batch = BatchFacts(reader.grp_docs, start.docs_before, reader.unresolved, early=reader.batch_early)
        _shift_sentences(table, start.sentences_before)
        table.batch.left_open, table.batch.continued = discontinuous_parts(data, start.line)
    return table


@dataclass
class _Mention:
    eid: str
    words: list[int]  # node keys, in the order added
    line: int
    head: int | None = None  # node key


@dataclass
class ConlluFile:
    """What the reader found beyond the mentions: sentences (for the alignment check) and warnings."""

    path: str
    sentences: list[Sentence] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class _Reader:
    def __init__(self, path: str, text: str, start: Part | None = None, fix_quirks: bool = False):
        self.fix_quirks = fix_quirks  # each sentence with the header above it, not the file's last header
        self.header_warning: str | None = None
        self.path = path
        self.text = text
        self.start = start  # a batch of a large file (ConlluPart), or None
        self.docs_before = start.docs_before if start is not None else 0
        self.file = ConlluFile(path)
        self.fields: list[str] | None = None  # global.Entity field names
        self.entities: dict[str, list[_Mention]] = {}  # eid -> mentions, in creation order
        self.unfinished: dict[str, list[tuple[_Mention, int | None]]] = {}
        self.discontinuous: dict[str, list[_Mention]] = {}
        self.node_doc: dict[int, int] = {}  # sentence -> document index
        self.doc_names: list[str] = []
        self.doc_lines: list[int] = []
        self.doc_words: list[int] = []
        self.deps: dict[int, list[tuple[int, str]]] = {}  # heads' DEPS, parsed when asked for
        self.empty_nodes: set[int] = set()
        self.sentence_lines: list[tuple[list[str], list[int], list[str]]] = []  # token lines, numbers, IDs
        self.index_cache: dict[int, dict[str, tuple[str, int]]] = {}
        self.linked: dict[str, tuple[int, str, str]] = {}  # entities named by Bridge / SplitAnte: where
        self.sid_lines: list[int] = []  # per sentence: the line of its sent_id (else its first line)
        self.opened_at: dict[str, int] = {}  # entity -> the line of its first mention (dropped ones too)
        self.named: set[str] = set()  # entities named as antecedents by links read so far
        self.batch_early: list[tuple[str, int, str, str]] = []  # (BatchFacts.early)
        self.early: list[tuple[str, int, str, str]] = []  # links naming an entity not yet known: entity, line, doc, attr
        self.grp_docs: list[bool] = []  # per document: entity ids are per document (GRP)
        self.unresolved: list[tuple[str, int, str, str]] = []  # a batch's links to entities it has no mention of
        self.extra_columns: list[str] = []  # token lines with more than 10 columns: where
        self.short: list[str] = []  # token lines with fewer than 10 columns (a node id first): where
        self.loose: list[str] = []  # newdoc / global.Entity comments udapi does not read: which, where
        self.multiword: list[str] = []  # multiword-token lines with coreference (udapi ignores it): which, where
        self.no_bracket: list[str] = []  # Entity chunks with neither bracket (udapi ignores them): where
        self.heads_outside: list[str] = []  # head indices outside their mention that udapi reads anyway: where
        self.no_words: list[str] = []  # blocks of empty nodes or multiword tokens only (udapi drops them): where
        self.tree_problems: list[str] = []  # sentences whose HEAD column udapi cannot build a tree from: where, why
        if start is not None and start.entity_fields is not None and fix_quirks:
            self.global_entity(*start.entity_fields)  # the header in force where the batch starts

    def fail(self, line: int | None, problem: str, doc: str | None = None):
        raise ParseError(self.path, line, problem, doc)

    # ---- lines to sentences

    def read(self) -> MentionTable:
        text = self.text.replace("\r\n", "\n") if "\r" in self.text else self.text
        line = 1 + (self.start.line if self.start is not None else 0)
        if not self.fix_quirks:
            self.last_header(text, line)
        pieces = _BLANK.split(text)  # sentences (blocks of lines), and the blank lines between them
        words = [n % 2 == 0 and any(_is_word(x) for x in piece.split("\n")) for n, piece in enumerate(pieces)]
        for n, piece in enumerate(pieces):
            if n % 2 == 0 and piece.strip():
                self.sentence(piece.split("\n"), line, any(words[n + 1:]))
            line += piece.count("\n")
        if not self.file.sentences:
            reject_other_format(self.path, self.text, "conllu")
            self.fail(None, "no sentence: not a CoNLL-U file (or empty)")
        self.close_file()
        return self.table()

    def sentence(self, lines: list[str], first_line: int, words_after: bool = True) -> None:
        """One block of lines (``first_line`` is the number of its first line; ``words_after``: a block with
        words follows)."""
        s = len(self.file.sentences)
        sent_id, newdoc, sid_line = None, None, None
        loose: list[str] = []
        headers: list[tuple[str, int]] = []
        toks: list[str] = []
        numbers: list[int] = []
        for k, line in enumerate(lines):
            if not line.strip():
                continue
            if line[0] != "#":
                toks.append(line)
                numbers.append(first_line + k)
                continue
            m = _NEWDOC.match(line)
            if m:
                newdoc = m.group(1) if m.group(1) else True
                continue
            if re.match(r"#\s*(newdoc|global\.Entity)\b", line) and not _GLOBAL_ENTITY.match(line):
                loose.append(f"{line.split()[0]!r} at {self.path}:{first_line + k}")
            m = _SENT_ID.match(line)
            if m:
                sent_id, sid_line = m.group(1), first_line + k
                continue
            m = _GLOBAL_ENTITY.match(line)
            if m and self.fix_quirks:
                headers.append((m.group(1), first_line + k))
        block_line = numbers[0] if numbers else first_line
        if toks and not any(_is_word(t) for t in toks):  # empty nodes or multiword tokens only: udapi drops them
            self.no_words.append(f"{self.path}:{numbers[0]}")
            toks = []
        if not toks:  # udapi drops the block, its newdoc too (which merges the next sentence's document)
            if newdoc is not None and words_after:
                self.fail(first_line, newdoc_without_words(), None)
        for header in headers if toks or words_after else []:
            self.global_entity(*header)
        if not toks:
            return
        self.loose += loose
        if newdoc is not None:
            self.start_document(newdoc, first_line)
        doc = self.doc_names[-1] if self.doc_names else None
        for k, line in enumerate(toks):
            if line.count("\t") > 9:  # udapi reads the first 10 columns
                self.extra_columns.append(f"{self.path}:{numbers[k]}")
                toks[k] = line = "\t".join(line.split("\t")[:10])
            if line.count("\t") < 9 and re.match(r"[0-9]+(?:[.-][0-9]+)?(?:\t|$)", line):  # udapi fills in '_'
                self.short.append(f"{self.path}:{numbers[k]}")
                toks[k] = line = line + "\t_" * (9 - line.count("\t"))
            if line.count("\t") != 9:
                if not self.file.sentences and k == 0:
                    reject_other_format(self.path, self.text, "conllu")
                self.fail(numbers[k], f"token line with {line.count(chr(9)) + 1} tab-separated columns, expected 10 "
                                      "(CoNLL-U)", doc)
        if not self.doc_names:
            self.fail(block_line, 'sentence before any "# newdoc" line: every sentence must belong to a document '
                                  '(add "# newdoc id = NAME")')
        idents = [t[:t.index("\t")] for t in toks]
        regular = [x.isdecimal() for x in idents]  # what int() reads ("²" is a digit, not a decimal)
        words = [k for k, r in enumerate(regular) if r]
        tree = udapi_tree_problem([toks[k].split("\t")[6] for k in words])
        if tree is not None:
            self.tree_problems.append(f"{self.path}:{numbers[words[tree[0]]]}: {tree[1]}")
        forms = tuple(t.split("\t", 2)[1] for t, r in zip(toks, regular) if r)
        previous = self.file.sentences[-1] if self.file.sentences else None
        if sent_id and previous is not None and previous.sent_id == sent_id:
            self.fail(block_line, repeated_sentence_id(sent_id, previous.line), doc)
        self.file.sentences.append(Sentence(sent_id or "", block_line, forms, newdoc))
        self.sid_lines.append(sid_line if sid_line is not None else first_line)
        self.node_doc[s] = len(self.doc_names) - 1
        self.doc_words[-1] += len(forms)
        self.sentence_lines.append((toks, numbers, idents))
        marked = [k for k, t in enumerate(toks) if "Entity=" in t or "Bridge=" in t or "SplitAnte=" in t]
        if not marked and all(regular) and not any("Split=" in t for t in toks):
            return
        nodes = self.nodes(s, idents, regular, numbers, doc)  # (key, index in toks), in ord order
        order = [key for key, _ in nodes]
        position = {k: n for n, (_, k) in enumerate(nodes)}
        for k in marked:
            if k not in position:  # a multiword-token line: udapi keeps its MISC apart from the words'
                self.multiword.append(f"{idents[k]!r} at {self.path}:{numbers[k]}")
        marked = [k for k in marked if k in position]
        marked = sorted(set(marked) | {k for k, t in enumerate(toks) if "Split=" in t and k in position})
        for k in sorted(marked, key=position.__getitem__):  # udapi reads words and empty nodes in ord order
            misc = toks[k][toks[k].rindex("\t") + 1:]
            key = nodes[position[k]][0]
            items = dict(item.partition("=")[::2] for item in misc.split("|"))  # udapi's MISC: the last of a name
            if not items.get("Entity"):  # udapi skips a node without Entity, links and all
                continue
            self.brackets(items["Entity"], key, numbers[k], order, position[k])
            # then, as udapi, Bridge, then SplitAnte (or the legacy Split where SplitAnte is empty or missing)
            for name in ("Bridge", "SplitAnte" if items.get("SplitAnte") else "Split"):
                if items.get(name):
                    self.links(name, items[name], numbers[k])

    def nodes(self, s: int, idents: list[str], regular: list[bool], numbers: list[int], doc) -> list[tuple[int, int]]:
        """(word key, line index) of the sentence's words and empty nodes, in ord order; checks the ids."""
        out = []
        seen: dict[int, str] = {}
        for k, (ident, plain) in enumerate(zip(idents, regular)):
            if plain:
                out.append(((s << SENTENCE_SHIFT) | (int(ident) << ORD_SHIFT), k))
                continue
            if "-" in ident:  # a multiword token: its words have their own lines
                continue
            try:
                key = word_key(s, ident)
            except ValueError:
                self.fail(numbers[k], f"bad ID {ident!r} (expected 7, 7-8 or 7.1)", doc)
            if len(ident.partition(".")[2]) > 3:
                self.fail(numbers[k], f"empty node {ident!r}: at most 3 digits after the point are read", doc)
            if key in seen:
                self.fail(numbers[k], f"empty nodes {seen[key]!r} and {ident!r} are the same node to the CorefUD "
                                      "scorer (it reads the ids as numbers): renumber them", doc)
            seen[key] = ident
            self.empty_nodes.add(key)
            out.append((key, k))
        out.sort()
        return out

    def links(self, name: str, value: str, line: int) -> None:
        """Bridge and SplitAnte are not scored, but the entities they name must exist (the scorer stops)."""
        for link in value.split(","):
            parts = link.split("<")
            if len(parts) != 2:
                self.fail(line, f"{name} link {link!r} is not ANTECEDENT<ENTITY", self.doc_names[-1])
            ante, this = parts
            if name == "Bridge":  # (udapi drops a Bridge's relation, A<B:part)
                this = this.split(":", 1)[0]
            if ante == this:
                self.fail(line, link_to_itself(name, link, ante), self.doc_names[-1])
            ante, this = self.eid_of(ante), self.eid_of(this)
            for eid in (ante, this):
                self.linked.setdefault(eid, (line, self.doc_names[-1], name))
            if not (this in self.opened_at or name != "Bridge" and this in self.named):
                self.early.append((this, line, self.doc_names[-1], name))
            self.named.add(ante)

    def last_header(self, text: str, first_line: int) -> None:
        """udapi's header: the file's last, for every sentence (a warning names those that differ)."""
        headers = [(first_line + n, m.group(1)) for n, line in enumerate(text.split("\n"))
                   for m in [_GLOBAL_ENTITY.match(line)] if m]
        last = self.start.file_entity if self.start is not None else None
        if last is None and headers:
            last = headers[-1][::-1]
        if last is None:
            return
        self.global_entity(*last)
        other = [line for line, value in headers if value != last[0]]
        if other:
            self.header_warning = header_warning(len(other), f"{self.path}:{other[0]}", last[0],
                                                 f"{self.path}:{last[1]}")

    def global_entity(self, value: str, line: int) -> None:
        fields = value.split("-")
        if "eid" not in fields and "GRP" not in fields:
            self.fail(line, f"global.Entity {value!r} names no eid (or GRP) field")
        self.fields = fields  # the last header of the file counts, as in udapi

    def start_document(self, newdoc, line: int) -> None:
        self.close_mentions()
        name = newdoc if isinstance(newdoc, str) else str(self.docs_before + len(self.doc_names) + 1)
        if name in self.doc_names:  # the CorefUD scorer merges the two silently
            first = self.doc_lines[self.doc_names.index(name)]
            self.fail(line, document_again(first), name)
        self.doc_names.append(name)
        self.doc_lines.append(line)
        self.doc_words.append(0)
        self.grp_docs.append(bool(self.fields) and "GRP" in self.fields)

    # ---- brackets

    def eid_of(self, value: str) -> str:
        return f"{self.docs_before + len(self.doc_names)}:{value}" if self.fields and "GRP" in self.fields else value

    def brackets(self, value: str, key: int, line: int, order: list[int], index: int) -> None:
        doc = self.doc_names[-1]
        if self.fields is None:
            self.fail(line, 'Entity= annotation but no "# global.Entity = ..." header line', doc)
        for chunk in (c for c in _CHUNKS.split(value) if c):
            opening, closing = chunk[0] == "(", chunk[-1] == ")"
            body = chunk.strip("()")
            if not opening and not closing:  # udapi warns and goes on
                self.no_bracket.append(f"{self.path}:{line}")
            elif opening:
                self.open(body, closing, key, line)
            else:
                self.close(body, key, line, order, index)

    def open(self, body: str, closing: bool, key: int, line: int) -> None:
        doc = self.doc_names[-1]
        eid, head_idx = None, None
        for name, value in zip(self.fields, body.split("-")):
            if name in ("eid", "GRP"):
                eid = value
            elif name == "head":
                try:
                    head_idx = int(value)
                except ValueError:
                    self.fail(line, f"head index {value!r} of {body!r} is not a number", doc)
        if not eid:
            self.fail(line, f"Entity {body!r} has no entity id", doc)
        part, parts = None, None
        if eid.endswith("]"):
            m = _DISCONTINUOUS.match(eid)
            if not m:
                self.fail(line, f"entity id {eid!r} ends with ']' but is not a discontinuous part like e3[1/2]", doc)
            eid, part, parts = m.group(1), m.group(2), m.group(3)
        eid = self.eid_of(eid)
        if part is not None and part != "1":
            opened = [m for m, _ in self.unfinished.get(eid, [])]
            waiting = [m for m in self.discontinuous.get(eid, []) if all(m is not o for o in opened)]
            if not waiting:
                self.fail(line, f"part {part}/{parts} of a discontinuous mention of {eid!r} without its first part"
                          + (" in this batch of the file (an earlier document may have left one incomplete, which "
                             "the CorefUD scorer would complete: read the file whole, with a larger --batch-size)"
                             if self.start is not None else ""), doc)
            mention = waiting[0]
            mention.words.append(key)
            if closing and part == parts:
                self.discontinuous[eid].pop()
                if head_idx is None:
                    self.fail(line, f"the last part of a discontinuous mention of {eid!r} has no head index "
                                    "(the CorefUD scorer crashes here)", doc)
                if head_idx == 0:  # udapi takes words[-1] here: the node just added
                    self.heads_outside.append(f"{self.path}:{line}")
                    mention.head = mention.words[-1]
                else:
                    self.set_head(mention, head_idx, mention.words, line, eid)
        else:
            if closing and part is None and head_idx is not None and head_idx > 1:  # udapi never reads it
                self.heads_outside.append(f"{self.path}:{line}")
            mention = _Mention(eid, [key], line)
            self.entities.setdefault(eid, []).append(mention)
            self.opened_at.setdefault(eid, line)
            if part is not None:
                self.discontinuous.setdefault(eid, []).append(mention)
        if not closing:
            self.unfinished.setdefault(eid, []).append((mention, head_idx))

    def close(self, body: str, key: int, line: int, order: list[int], index: int) -> None:
        doc = self.doc_names[-1]
        eid, part, parts = self.eid_of(body), None, None
        if eid not in self.unfinished or not self.unfinished[eid]:
            m = _DISCONTINUOUS.match(body)
            if m:
                eid, part, parts = self.eid_of(m.group(1)), m.group(2), m.group(3)
        stack = self.unfinished.get(eid)
        if not stack:
            self.fail(line, f"mention of {body!r} closed but not opened", doc)
        mention, head_idx = stack.pop()
        words = _udapi_sorted(mention.words)
        last = words[-1]
        if last >> SENTENCE_SHIFT != key >> SENTENCE_SHIFT:
            self.fail(line, f"mention of {body!r} opened at line {mention.line} crosses a sentence boundary "
                            "(the CorefUD scorer does not read cross-sentence mentions)", doc)
        for k in order[:index + 1]:  # every node after the last word, up to this one
            if k > last:
                mention.words.append(k)
        if head_idx and (part is None or part == parts):
            self.set_head(mention, head_idx, _udapi_sorted(mention.words), line, eid)
        if part is not None and part == parts:
            if not self.discontinuous.get(eid):
                self.fail(line, f"{body!r} closes part {part}/{parts} of a discontinuous mention, but the mention of "
                                f"{eid!r} opened at line {mention.line} is not discontinuous", doc)
            self.discontinuous[eid].pop()

    def set_head(self, mention: _Mention, head_idx: int, words: list[int], line: int, eid: str) -> None:
        if not 1 <= head_idx <= len(words):
            self.fail(line, f"head index {head_idx} of a mention of {eid!r} outside the mention's {len(words)} "
                            "node(s)", self.doc_names[-1])
        mention.head = words[head_idx - 1]

    def close_mentions(self) -> None:
        """Mentions still open at the end of a document (or file) are dropped, with a warning."""
        for eid, stack in self.unfinished.items():
            for mention, _ in stack:
                self.file.warnings.append(f"{self.path}:{mention.line}: mention of {eid!r} opened but never closed: "
                                          "ignored (as the CorefUD scorer does)")
                self.entities[eid].remove(mention)
        self.unfinished = {}

    def close_file(self) -> None:
        self.close_mentions()
        if self.no_bracket:
            self.file.warnings.append(counted_warning("no_bracket", len(self.no_bracket), self.no_bracket[0]))
        if self.multiword:
            self.file.warnings.append(counted_warning("multiword", len(self.multiword), self.multiword[0]))
        if self.extra_columns:
            self.file.warnings.append(counted_warning("extra_columns", len(self.extra_columns), self.extra_columns[0]))
        if self.short:
            self.file.warnings.append(counted_warning("short_lines", len(self.short), self.short[0]))
        if self.loose:
            self.file.warnings.append(counted_warning("loose_comment", len(self.loose), self.loose[0]))
        if self.header_warning:
            self.file.warnings.append(self.header_warning)
        lines = self.text.replace("\r\n", "\n").lstrip("\ufeff").split("\n")
        line0 = self.start.line if self.start else 0
        if line0 == 0 and len(lines) > 1 and lines[0] == "" and lines[1] != "":
            self.file.warnings.append(crash_warning("leading_empty_line", f"{self.path}:1"))
        blank = next((n for n, line in enumerate(lines) if line and not line.strip()), None)
        if blank is not None:
            self.file.warnings.append(crash_warning("blank_line", f"{self.path}:{blank + 1 + line0}"))
        if len(lines) > 1 and lines[-1] == "" and lines[-2] != "":  # udapi's last piece ends with "\n": a line ""
            self.file.warnings.append(crash_warning("single_newline", f"{self.path}:{len(lines) - 1 + line0}"))
        if self.heads_outside:
            self.file.warnings.append(counted_warning("heads_outside", len(self.heads_outside), self.heads_outside[0]))
        if self.tree_problems:
            self.file.warnings.append(counted_warning("tree", len(self.tree_problems), self.tree_problems[0]))
        if self.no_words:
            self.file.warnings.append(counted_warning("no_words", len(self.no_words), self.no_words[0]))
        self.entities = {e: ms for e, ms in self.entities.items() if ms}
        for eid, line, doc, name in self.early:
            first = self.opened_at.get(eid)
            if self.start is not None:
                self.batch_early.append((eid, line, doc, link_before_entity(name, eid)))
            elif first is not None:
                self.fail(line, link_before_entity(name, eid), doc)
        for eid, (line, doc, name) in self.linked.items():
            if eid in self.opened_at:  # (udapi deletes an entity whose mentions were all left open: no error)
                continue
            if self.start is not None:  # a batch: the entity may have mentions in another batch of the file
                self.unresolved.append((eid, line, doc, name))
            else:
                self.fail(line, entity_without_mention(name, eid), doc)
        self.check_zones()

    def check_zones(self) -> None:
        """udapi's zones (``# sent_id = BUNDLE/ZONE``): a valid name, and mentions in one zone only."""
        zones = [t.sent_id.split("/", 1)[1] if "/" in t.sent_id else "" for t in self.file.sentences]
        for n, t in enumerate(self.file.sentences):
            if "/" in t.sent_id and not re.match(r"^[a-z-]*(_[A-Za-z0-9-]+)?$", zones[n]):
                self.fail(self.sid_lines[n], zone_invalid(t.sent_id, zones[n]), self.doc_names[self.node_doc[n]])
        first: dict[str, tuple[int, int]] = {}
        for line, s in sorted((m.line, m.words[0] >> SENTENCE_SHIFT) for ms in self.entities.values() for m in ms):
            first.setdefault(zones[s], (line, s))
        if len(first) > 1:
            (z1, (l1, _)), (z2, (l2, s2)) = sorted(first.items(), key=lambda x: x[1])[:2]
            self.fail(l2, zones_mixed(z1, l1, z2), self.doc_names[self.node_doc[s2]])

    # ---- the table

    def table(self) -> MentionTable:
        """Mentions grouped by document and entity: entities in the order of their first mention, mentions
        sorted as udapi sorts them (first node; the longer first; last node); an entity whose mentions lie in
        two documents is one cluster per document."""
        for mentions in self.entities.values():
            for m in mentions:
                m.words = sorted(set(m.words))
                if m.head is None:
                    m.head = m.words[0]
            mentions.sort(key=_mention_order)
        # entities in the order of their first mention in the file (udapi), each split by document
        ordered = sorted(self.entities.items(), key=lambda e: _mention_order(e[1][0]) + (e[0],))
        by_doc: list[list[tuple[str, list[_Mention]]]] = [[] for _ in self.doc_names]
        for eid, mentions in ordered:
            per_doc: dict[int, list[_Mention]] = {}
            for m in mentions:
                per_doc.setdefault(self.node_doc[m.words[0] >> SENTENCE_SHIFT], []).append(m)
            for d, ms in per_doc.items():
                by_doc[d].append((eid, ms))
        rows: list[_Mention] = []
        cluster: list[int] = []
        labels: list[list[str]] = []
        sizes: list[int] = []
        for entities in by_doc:
            labels.append([eid.split(":", 1)[-1] for eid, _ in entities])
            n = 0
            for c, (_, ms) in enumerate(entities):
                rows.extend(ms)
                cluster.extend([c] * len(ms))
                n += len(ms)
            sizes.append(n)
        words = self.words(rows)
        return MentionTable(
            path=self.path, doc_names=list(self.doc_names), doc_lines=np.asarray(self.doc_lines, dtype=np.int64),
            doc_tokens=np.asarray(self.doc_words, dtype=np.int64), doc_offsets=offsets(sizes),
            start=np.asarray([m.words[0] for m in rows], dtype=np.int64),
            end=np.asarray([m.words[-1] + 1 for m in rows], dtype=np.int64),
            cluster=np.asarray(cluster, dtype=np.int32), cluster_labels=labels, words=words)

    def words(self, rows: list[_Mention]) -> Words:
        heads = [m.head for m in rows]
        deps_off = [0]
        parents: list[int] = []
        rels: list[str] = []
        for m in rows:
            for parent, rel in self.head_deps(m.head):
                parents.append(parent)
                rels.append(rel)
            deps_off.append(len(parents))
        names = sorted(set(rels))
        code = {r: i for i, r in enumerate(names)}
        return Words(
            offsets=offsets([len(m.words) for m in rows]),
            keys=np.asarray([k for m in rows for k in m.words], dtype=np.int64),
            head=np.asarray(heads, dtype=np.int64),
            zero=np.asarray([h in self.empty_nodes for h in heads], dtype=bool),
            dep_offsets=np.asarray(deps_off, dtype=np.int64),
            dep_parent=np.asarray(parents, dtype=np.int64),
            dep_rel=np.asarray([code[r] for r in rels], dtype=np.int32),
            rel_names=names,
            lines=np.asarray([m.line for m in rows], dtype=np.int64))

    def head_deps(self, head: int) -> list[tuple[int, str]]:
        """The enhanced dependencies (DEPS) of a head node: (parent key, relation)."""
        if head in self.deps:
            return self.deps[head]
        s = head >> SENTENCE_SHIFT
        doc = self.doc_names[self.node_doc[s]]
        lines = self.sentence_index(s)
        line_of = lines.get(key_ord_text(head))
        out: list[tuple[int, str]] = []
        if line_of is not None:
            text, number = line_of
            deps = text.split("\t")[8]
            for item in deps.split("|") if deps != "_" else []:
                parent, sep, rel = item.partition(":")
                try:
                    key = word_key(s, parent)
                except ValueError:
                    key = -1
                if not sep or key < 0:
                    self.fail(number, f"DEPS item {item!r} is not HEAD:RELATION", doc)
                if parent != "0" and parent not in lines:
                    self.fail(number, f"DEPS item {item!r} names node {parent!r}, which the sentence does not have "
                                      "(the CorefUD scorer crashes here)", doc)
                out.append((key, rel))
        self.deps[head] = out
        return out

    def sentence_index(self, s: int) -> dict[str, tuple[str, int]]:
        """ID -> (line, line number) of one sentence, built when a head of it is looked up."""
        cached = self.index_cache.get(s)
        if cached is None:
            toks, numbers, idents = self.sentence_lines[s]
            cached = self.index_cache[s] = {i: (t, n) for i, t, n in zip(idents, toks, numbers)}
        return cached


def _udapi_sorted(words: list[int]) -> list[int]:
    """A mention's words as udapi sorts them: by ord alone, stably (parts in two sentences interleave)."""
    return sorted(words, key=lambda k: k & ((1 << SENTENCE_SHIFT) - 1))


def _is_word(line: str) -> bool:
    """A line udapi reads as a word: not blank, no comment, no '.' or '-' in its ID."""
    ident = line.split("\t", 1)[0]
    return bool(line.strip()) and line[0] != "#" and "." not in ident and "-" not in ident


def key_ord_text(key: int) -> str:
    """The ID text of a node key as written in canonical form (``7``, ``7.1``)."""
    major = (key >> ORD_SHIFT) & MAX_ORD
    minor = key & ((1 << ORD_SHIFT) - 1)
    return str(major) if not minor else f"{major}.{minor:03d}".rstrip("0")


def _mention_order(m: _Mention) -> tuple:
    """udapi's mention order: first node, then the longer mention first, then the last node."""
    return (m.words[0], -len(m.words), m.words[-1])


