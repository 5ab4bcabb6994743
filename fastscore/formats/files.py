"""Reading input files with the errors every reader gives (missing file, folder, bad UTF-8)."""
from __future__ import annotations

from ..errors import ParseError


BOM = b"\xef\xbb\xbf"


def read_bytes(path: str) -> bytes:
    """The file's bytes, without a leading UTF-8 byte-order mark (editors on Windows write one)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        return data[len(BOM):] if data.startswith(BOM) else data
    except FileNotFoundError:
        raise ParseError(path, None, "file not found") from None
    except IsADirectoryError:
        raise ParseError(path, None, "is a directory, expected a file") from None
    except OSError as exc:
        raise ParseError(path, None, f"cannot read file: {exc.strerror}") from None


def decode_utf8(path: str, data: bytes) -> str:
    """The text of a file; a ParseError naming the line of the first invalid byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ParseError(path, line, f"invalid UTF-8 byte 0x{data[exc.start]:02x}: re-encode the file as UTF-8") from None


def read_text(path: str) -> str:
    return decode_utf8(path, read_bytes(path))
