"""XML inputs (NAF/KAF, TimeML, triples, KYOTO files): the expat parser every reader of them uses, which
refuses the entity declarations that could expand without bound, and the root element that tells a file's
kind, read by expat itself (a DOCTYPE with an internal subset, a byte-order mark and the encoding declaration
(UTF-16), comments and processing instructions of any length before the root are taken as XML takes them)."""
from __future__ import annotations

import re
from typing import NamedTuple
from xml.parsers import expat

from ..errors import ParseError

# expat 2.4 and later stop a document whose entities expand to more than 100 times its size; an older expat
# bounds nothing, so every entity declaration is refused with it
_EXPANSION_BOUNDED = expat.version_info >= (2, 4, 0)
# a reference to an entity other than the five predefined ones, in an entity's value: nesting, which is what
# expands exponentially ("billion laughs")
_NESTED = re.compile(r"[&%](?!(?:amp|lt|gt|quot|apos);)[\w.:-]+;")


def expat_parser(path: str, document: str | None = None):
    """An expat parser for the file ``path`` (``document``: the document its messages name) that raises a
    ParseError at an entity declaration it will not expand: one defined by other entities, an external one
    (no file is fetched), any with an expat older than 2.4."""
    parser = expat.ParserCreate()

    def declared(name, _parameter, value, _base, system_id, _public_id, _notation):
        if value is None:
            problem = f"names an external file ({system_id}), which is not read: write its text in the document"
        elif not _EXPANSION_BOUNDED:
            problem = (f"is declared, and this Python's expat {expat.EXPAT_VERSION} does not bound entity "
                       "expansion: replace the entity by its text")
        elif _NESTED.search(value):
            problem = ("is defined by other entities, which is refused (nested entities expand exponentially, "
                       "the 'billion laughs'): replace the entities by their text")
        else:
            return
        raise ParseError(path, parser.CurrentLineNumber, f'entity "{name}" {problem}', document) from None

    parser.EntityDeclHandler = declared
    return parser


def parse_whole(parser, data: bytes | str, path: str, column: bool = False) -> None:
    """Parse a whole document: an encoding Python does not know, or malformed XML, is the ParseError of ``path``
    (``column``: malformed XML names the column too)."""
    try:
        parser.Parse(data, True)
    except LookupError as exc:  # the declaration names an encoding Python does not know
        raise ParseError(path, 1, f"XML declaration: {exc}") from None
    except expat.ExpatError as exc:
        where = f" (column {exc.offset + 1})" if column else ""
        raise ParseError(path, exc.lineno, f"malformed XML: {expat.ErrorString(exc.code)}{where}") from None


class XmlRoot(NamedTuple):
    name: str  # the root element's name, as written
    line: int  # 1-based line of its start tag


class _RootFound(Exception):
    pass


_XML_START = re.compile(rb"\s*<|\xff\xfe|\xfe\xff")  # markup, or a UTF-16 byte-order mark
_XML_START_TEXT = re.compile(r"\ufeff?\s*<")


def looks_like_xml(data: bytes | str) -> bool:
    """Whether a file's start is markup (or a UTF-16 byte-order mark): XML, or nothing known."""
    return (_XML_START if isinstance(data, bytes) else _XML_START_TEXT).match(data) is not None


def xml_root(data: bytes | str, complete: bool = True, path: str | None = None) -> XmlRoot | None:
    """The root element of an XML document, read by expat up to its start tag; None when ``data`` is not
    well-formed XML up to it (``complete=False``: ``data`` is the start of a file, which may end before it).
    An entity declaration :func:`expat_parser` refuses: a ParseError naming ``path``, given; else None."""
    parser = expat_parser(path or "")
    found: list[XmlRoot] = []

    def start(name, _attrs):
        found.append(XmlRoot(name, parser.CurrentLineNumber))
        raise _RootFound

    parser.StartElementHandler = start
    try:
        parser.Parse(data, complete)
    except _RootFound:
        return found[0]
    except ParseError:
        if path is not None:
            raise
        return None
    except (expat.ExpatError, LookupError, ValueError):  # LookupError: an encoding Python lacks
        return None
    return None

