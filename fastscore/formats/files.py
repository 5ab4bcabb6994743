"""Reading input files with the errors every reader gives (missing file, folder, bad UTF-8, corrupt gzip),
standard input as ``-``, and the guess of a file's format that names the command reading it."""
from __future__ import annotations

import gzip
import os
import re
import stat
import sys
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import accumulate
from typing import NamedTuple

from ..errors import InputNotFound, OtherFormatError, ParseError, UsageError
from ..messages import shown
from .xml_input import looks_like_xml, xml_root

BOM = b"\xef\xbb\xbf"
GZIP_MAGIC = b"\x1f\x8b"
STDIN = "-"
STDIN_NAME = "<stdin>"

_stdin_read: object | None = None  # the standard input stream already read (a pipe cannot be rewound)
_stdin_ahead: tuple[object, bytes] | None = None  # (stream, its bytes) read ahead to tell its format
_pipes: dict[str, bytes] = {}  # pipes' bytes read ahead to tell their format, by path, until read whole


def source_name(path: str) -> str:
    """The name messages and tables give an input: ``<stdin>`` for ``-``, else the path."""
    return STDIN_NAME if path == STDIN else path


def read_bytes(path: str, keep: bool = False) -> bytes:
    """The bytes of a file (``-``: standard input), gunzipped when gzip-compressed (whatever the name),
    without a leading UTF-8 byte-order mark (editors on Windows write one).  ``keep``: a look before its
    reader reads it (standard input's and a pipe's bytes are kept for the reader)."""
    return read_bytes_and_bom(path, keep)[0]


def read_bytes_and_bom(path: str, keep: bool = False) -> tuple[bytes, bool]:
    """:func:`read_bytes`'s bytes, and whether a byte-order mark was dropped from them (for a reader that reads
    the mark as its official tool does; the file is read once, so a pipe too)."""
    if path == STDIN:
        data = peek_stdin() if keep else _read_stdin()
    else:
        data = _read_file(path, keep=keep)
    if data.startswith(GZIP_MAGIC):
        data = _gunzip(source_name(path), data)
    return (data[len(BOM):], True) if data.startswith(BOM) else (data, False)


@dataclass(frozen=True)
class Part:
    """A batch of whole documents of a large file: bytes ``start`` to ``end`` of ``path``, after ``line`` lines
    (messages name the file's own lines).  Readers that stream take one in place of a path."""

    path: str
    start: int
    end: int
    line: int

    def __str__(self) -> str:
        return f"{self.path} (bytes {self.start}-{self.end})"


def read_part(part: Part) -> bytes:
    """The bytes of a batch (a BOM at the start of the file dropped, as :func:`read_bytes` does)."""
    try:
        with open(part.path, "rb") as fh:
            fh.seek(part.start)
            data = fh.read(part.end - part.start)
    except OSError as exc:
        raise ParseError(part.path, None, f"cannot read file: {exc.strerror}") from None
    return data[len(BOM):] if part.start == 0 and data.startswith(BOM) else data


def source_bytes(source: "str | os.PathLike | Part") -> tuple[bytes, str, int]:
    """(bytes, the name messages give, lines before them) of a file (:func:`read_bytes`) or of a batch."""
    if isinstance(source, Part):
        return read_part(source), source.path, source.line
    path = os.fspath(source)
    return read_bytes(path), source_name(path), 0


def document_batches(path: str, document_start: "re.Pattern[bytes]", batch_bytes: int) -> list[Part]:
    """``path`` cut before lines matching ``document_start`` into batches of about ``batch_bytes`` (a batch
    holds at least one document), or ``[]`` when the file cannot be cut (a compressed file, one batch's worth,
    standard input): it is then read whole.  A pattern with a group ``cut`` cuts where that group starts."""
    with mapped_for_batches(path, batch_bytes) as data:
        if data is None:
            return []
        cuts = [0]
        while True:  # the first document start past each batch's size: only that much is searched
            m = document_start.search(data, cuts[-1] + batch_bytes)
            if m is None:
                break
            cuts.append(m.start("cut" if "cut" in document_start.groupindex else 0))
        ends = cuts[1:] + [len(data)]
        lines = accumulate((data[a:b].count(b"\n") for a, b in zip(cuts, ends)), initial=0)  # before each batch
        return [Part(path, a, b, n) for a, b, n in zip(cuts, ends, lines)]


@contextmanager
def mapped_for_batches(path: str, batch_bytes: int):
    """The memory-mapped bytes of a file to cut into batches, or None when it is read whole (standard input,
    a compressed file, a file of ``batch_bytes`` or less)."""
    if path == STDIN or not os.path.isfile(path) or os.path.getsize(path) <= batch_bytes:
        yield None
        return
    import mmap

    with open(path, "rb") as fh:
        if fh.read(2) == GZIP_MAGIC:
            yield None
            return
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
            yield data


def read_head(path: str, size: int = 1 << 16) -> bytes:
    """The first ``size`` bytes of :func:`read_bytes` (a gzip file is read whole): enough to tell a format
    without reading a large file twice."""
    data = peek_stdin() if path == STDIN else _read_file(path, size)
    if data.startswith(GZIP_MAGIC):  # whole: standard input's and a pipe's bytes are kept for their reader
        whole = data if path == STDIN else _pipes.get(path) or _read_file(path)
        data = _gunzip(source_name(path), whole)
    data = data[len(BOM):] if data.startswith(BOM) else data
    return data[:size]


def is_pipe(path: str) -> bool:
    """Whether ``path`` names a pipe (a FIFO, ``<(...)``): its bytes can be read once."""
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def refuse_stdin(path: str, why: str) -> None:
    """A UsageError for ``-`` given to a reader that cannot read standard input (``why``: the reason)."""
    if path == STDIN:
        raise UsageError(f'"{STDIN}": {why}: give a file, not standard input')


def commonest_ending(folder: str) -> tuple[str, int] | None:
    """(ending, count) of the commonest file ending in a folder (``.v4_gold_conll``: all after the first dot;
    hidden files left out), or None when it holds no file with one."""
    from collections import Counter

    endings = Counter("." + name.split(".", 1)[1] for name in os.listdir(folder)
                      if "." in name[1:] and not name.startswith(".") and os.path.isfile(os.path.join(folder, name)))
    return endings.most_common(1)[0] if endings else None


def folder_hint(folder: str, own: "tuple[str, ...] | set[str]" = ()) -> tuple[str, str | None]:
    """What a folder holds, for a message saying it holds nothing a command reads: for files of a known format
    not in ``own`` (the command's formats), ``(": it has 12 *.tml file(s), which look like a TimeML document",
    "timeml")``, the caller naming the command that reads them; for files of its own or of no known format,
    ``(": it has 12 *.v4_gold_conll file(s): give the pattern 'DIR/*.v4_gold_conll' (quoted)", None)``; for no
    file, ``("", None)``."""
    common = commonest_ending(folder)
    if common is None:
        return "", None
    ending, n = common
    first = sorted(f for f in os.listdir(folder) if f.endswith(ending) and not f.startswith("."))[0]
    try:
        sniffed = sniff_format(read_head(os.path.join(folder, first)))
    except ParseError:  # unreadable: the pattern is all there is to say
        sniffed = None
    if sniffed is not None and sniffed.format not in own:
        return f": it has {n} *{ending} file(s), which look like {FORMATS[sniffed.format]}", sniffed.format
    return f": it has {n} *{ending} file(s): give the pattern '{os.path.join(folder, '*' + ending)}' (quoted)", None


def folder_contents(folder: str) -> str:
    """``4 *.conll file(s)`` for the commonest ending of a folder's files, ``files`` or ``""`` (nothing)."""
    common = commonest_ending(folder)
    if common is not None:
        return f"{common[1]} *{common[0]} file(s)"
    return "files" if any(not n.startswith(".") for n in os.listdir(folder)) else ""


def _read_file(path: str, size: int = -1, keep: bool = False) -> bytes:
    """A file's first ``size`` bytes (all: -1).  A pipe (a FIFO, ``<(cat key.conll)``) is read whole at its
    first look (``size`` given, or ``keep``) and kept until read whole without ``keep``: its format is told
    from the bytes its reader then takes (a pipe cannot be opened and read twice)."""
    if path in _pipes:
        data = _pipes[path] if size >= 0 or keep else _pipes.pop(path)
        return data[:size] if size >= 0 else data
    try:
        with open(path, "rb") as fh:
            if stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return fh.read(size)
            data = fh.read()
    except OSError as exc:
        reason = not_a_file(path) or (
            "cannot read file: permission denied" if isinstance(exc, PermissionError) else
            f"cannot read file: {exc.strerror or exc}")
        if reason.startswith(NOT_FOUND):  # a link to nothing too
            raise InputNotFound(path, reason) from None
        raise ParseError(path, None, reason) from None
    if size >= 0 or keep:
        _pipes[path] = data
    return data[:size] if size >= 0 else data


NOT_FOUND = "file not found"


def lone_cr_hint(name: str) -> str:
    """For a document whose name runs over lines ended by a CR alone (old Mac line ends, which end no line here):
    what to do; else ``""``."""
    return (": the file's lines end with a lone CR (\\r), which ends no line: convert them to LF (tr '\\r' '\\n')"
            if "\r" in name else "")


def not_a_file(path: str) -> str | None:
    """Why a path names no file to read, as a message says it (``file not found``, NOT_FOUND, first when nothing
    is there; a link to nothing, a folder, a link to a folder each said to be one), else None."""
    link = _link_target(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return NOT_FOUND + (f": it is a link to {link}, which does not exist (a dangling link)" if link else "")
    except PermissionError:
        return "cannot read file: permission denied (on a folder of its path)"
    except (OSError, ValueError) as exc:
        return f"cannot read file: {getattr(exc, 'strerror', None) or exc}"
    if stat.S_ISDIR(st.st_mode):
        return f"is a link to the folder {link}, expected a file" if link else "is a directory, expected a file"
    return None


def _link_target(path: str) -> str | None:
    """What a symbolic link points to (shown as messages show paths), else None."""
    try:
        return shown(os.readlink(path))
    except (OSError, ValueError):  # not a link, or no such path
        return None


def _read_stdin() -> bytes:
    """Standard input, once per stream: a second read would see an empty file and score it silently."""
    global _stdin_read, _stdin_ahead
    data = peek_stdin()
    _stdin_read, _stdin_ahead = sys.stdin, None
    return data


def peek_stdin() -> bytes:
    """Standard input's bytes without using up its one read: its format is told from them, then its reader
    reads them (a pipe cannot be read twice, so they are kept until then)."""
    global _stdin_ahead
    stream = sys.stdin
    if stream is None:
        raise UsageError(f'"{STDIN}": there is no standard input to read')
    if stream is _stdin_read:
        raise UsageError(f'"{STDIN}": standard input can be read only once and was read already: give "{STDIN}" '
                         "for one input at most and write the others to files")
    if _stdin_ahead is None or _stdin_ahead[0] is not stream:
        try:
            data = getattr(stream, "buffer", stream).read()  # bytes, so the UTF-8 check names the bad line
        except OSError as exc:
            raise ParseError(STDIN_NAME, None, f"cannot read standard input: {exc.strerror}") from None
        _stdin_ahead = (stream, data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data)
    return _stdin_ahead[1]


def _gunzip(name: str, data: bytes) -> bytes:
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:  # BadGzipFile is an OSError
        reason = "truncated" if isinstance(exc, EOFError) else str(exc)
        raise ParseError(name, None, f"corrupt gzip file ({reason}): compress it again or give the "
                                     "uncompressed file") from None


def decode_utf8(path: str, data: bytes, before: int = 0) -> str:
    """The text of a file (or of a batch after ``before`` lines); a ParseError naming the line of the first
    invalid byte (or saying that the file is a Parquet or Arrow table, not text)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if not before:
            sniffed = sniff_format(data[:8])
            if sniffed is not None and sniffed.format in ("parquet", "arrow"):
                raise OtherFormatError(path, None, f"this is {FORMATS[sniffed.format]}, not a text file",
                                       sniffed.format, readers_hint(sniffed.format)) from None
        line = before + data.count(b"\n", 0, exc.start) + 1
        raise ParseError(path, line, f"invalid UTF-8 byte 0x{data[exc.start]:02x}: re-encode the file as UTF-8") from None


def read_text(path: str) -> str:
    return decode_utf8(source_name(path), read_bytes(path))


# ---- which format a file looks like (only on a reader's failure path: it costs a look at the start)

class Sniffed(NamedTuple):
    format: str  # a key of FORMATS
    line: int  # 1-based line of the evidence
    cue: str  # the text that gave it away, quoted in messages


# format -> what it is
FORMATS = {
    "tbf": "a TBF event nugget file",
    "conll": "a CoNLL-2012 coreference file",
    "conllu": "CoNLL-U coreference (CorefUD)",
    "jsonl": "jsonlines coreference",
    "timeml": "a TimeML document",
    "naf": "a NAF/KAF document",
    "triples": "a triples file",
    "xml": "XML of another kind",
    "parquet": "a Parquet mention table",
    "arrow": "an Arrow mention table",
}

# format -> [(command, its options that read the format)]: filled from the task declarations (fastscore.tasks)
READERS: dict[str, list[tuple[str, str]]] = {}
# command -> {format: its options that read it}: every format each command reads, those it is not named for in
# other commands' messages included (explain reads CoNLL-2012, but coref is its scorer)
OWN_READS: dict[str, dict[str, str]] = {}


def readers_hint(fmt: str, task_option: bool = False, running: str | None = None, api: bool = False) -> str:
    """What to do with a file of ``fmt`` (a key of FORMATS): ``score it with "fastscore nugget"``; with
    ``task_option`` (compare, sweep: the task is an option) ``give --task nugget``; from the Python ``api``,
    ``give task="nugget"``.  When the ``running`` task reads the format itself (a ``--format`` that does not
    fit the file), the options that read it."""
    own = OWN_READS.get(running or "", {}).get(fmt)
    if own is not None and api:
        return "leave format out (it is told from the content) or give the one that fits the file"
    if own is not None:
        return f"give {own}" if own else "leave --format out: the format is told from the content"
    readers = READERS.get(fmt, [])
    if not readers:
        return "no fastscore command reads it"
    if api:
        return "give " + " or ".join(f'task="{name}"' for name, _ in readers)
    if task_option:
        return "give " + " or ".join(f"--task {name}{' ' + options if options else ''}" for name, options in readers)
    return "score it with " + " or ".join(f'"fastscore {name}{" " + options if options else ""}"'
                                          for name, options in readers)


# Markers at the start of a (stripped) line, first match wins.
_MARKERS = re.compile(
    r"(?P<timeml><TimeML\b)|(?P<naf><(?:NAF|KAF)\b)|(?P<triples><triples\b)|(?P<xml><\?xml)"
    r"|(?P<tbf>#BeginOfDocument|#EndOfDocument|@(?:Coreference|After|Subevent)(?=\s))"
    r"|(?P<conll>#\s*begin document|#\s*end document)"
    r"|(?P<conllu>#\s*(?:newdoc id|sent_id|global\.Entity))")
_XML_ROOTS = {"TimeML": "timeml", "NAF": "naf", "KAF": "kaf", "triples": "triples"}
_BRACKETS = re.compile(r"\(?[\w.+-]+\)?(?:\|\(?[\w.+-]+\)?)*")  # a CoNLL-2012 coreference column
_SNIFF_LINES = 20
_SNIFF_CHARS = 1 << 16


def sniff_format(text: str | bytes) -> Sniffed | None:
    """The format the start of a file shows (a key of ``FORMATS``), or None: XML by its root element as expat
    reads it (:func:`.xml_input.xml_root`), other formats by their first non-blank lines."""
    if looks_like_xml(text):  # the root element, as expat reads it (the encoding, a DOCTYPE, comments before)
        root = xml_root(text[:_SNIFF_CHARS], complete=len(text) <= _SNIFF_CHARS)
        if root is not None:
            kind = _XML_ROOTS.get(root.name, "xml")
            return Sniffed("naf" if kind == "kaf" else kind, root.line, "<" + root.name)
    if isinstance(text, bytes):
        text = text[:_SNIFF_CHARS].decode("utf-8", "replace")
    for magic, kind in (("PAR1", "parquet"), ("ARROW1", "arrow")):
        if text.startswith(magic):
            return Sniffed(kind, 1, magic)
    seen = 0
    for lineno, raw in enumerate(text[:_SNIFF_CHARS].split("\n"), 1):
        line = raw.strip()
        if not line:
            continue
        found = _sniff_line(line)
        if found is not None:
            return Sniffed(found[0], lineno, found[1])
        seen += 1
        if seen == _SNIFF_LINES:
            break
    return None


def _sniff_line(line: str) -> tuple[str, str] | None:
    """(format, cue) of one non-blank line, or None when the line tells nothing."""
    m = _MARKERS.match(line)
    if m is not None:
        return m.lastgroup, m.group(m.lastgroup)
    if line[0] == "{":  # one JSON document per line; "doc_key" need not come first
        return ("jsonl", "doc_key") if '"doc_key"' in line else ("jsonl", "{")
    if line[0] == "[" and line[1:2] in ('[', '{', '"', ']') and "\t" not in line:  # JSON, not jsonlines: its reader says so
        return "jsonl", "["
    if line[0] in "#@<":
        return None
    tabs = line.split("\t")
    if len(tabs) == 10 and "Entity=" in tabs[9]:  # CoNLL-U: MISC is the 10th column
        return "conllu", "Entity="
    cols = line.split()
    last = cols[-1]
    brackets = ("(" in last or ")" in last) and _BRACKETS.fullmatch(last) is not None
    return ("conll", last) if len(cols) >= 3 and (last == "-" or brackets) else None


def reject_other_format(path: str, text: str | bytes, expected: str, allowed: tuple[str, ...] = ()) -> None:
    """Raise an OtherFormatError naming the format and the command that reads it when the file looks like
    another format than the reader's (``expected``); return when it looks like that format or like nothing known.

    Readers call this where they fail for want of their document header (or of well-formed XML), so that a
    file given to the wrong command gets a remedy instead of "add a header line".  ``allowed``: other formats
    that pass too."""
    sniffed = sniff_format(text)
    if sniffed is None or sniffed.format == expected or sniffed.format in allowed:
        return
    problem = f'this looks like {FORMATS[sniffed.format]}, not {FORMATS[expected]} (it has "{shown(sniffed.cue)}")'
    raise OtherFormatError(path, sniffed.line, problem, sniffed.format, readers_hint(sniffed.format))
