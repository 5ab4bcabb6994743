"""Exceptions raised by fastscore.

``FastscoreError`` is the root; the CLI turns it into one line on stderr and
exit code 1.  ``ParseError`` carries the file, line and document so that the
message says where the problem is, the path and the document shown escaped and cut
(``fastscore.messages.shown``); the attributes keep them as they are.
"""
from __future__ import annotations

import errno
import functools
import inspect
import os
from typing import Callable, Iterable, TypeVar

from .messages import did_you_mean, shown

F = TypeVar("F", bound=Callable)


class FastscoreError(Exception):
    """Base class of every error fastscore raises on purpose."""


class InputError(FastscoreError, ValueError):
    """The input files or tables are invalid."""


class UsageError(FastscoreError, ValueError):
    """An option or argument is invalid (CLI exit code 2)."""


class OutputError(FastscoreError):
    """An output file cannot be written (names the path and the reason; CLI exit code 1)."""


class ParseError(InputError):
    """A file could not be parsed; names the path, line and document."""

    def __init__(self, path: str, line: int | None, problem: str, document: str | None = None):
        self.path = str(path)
        self.line = line
        self.document = document
        self.problem = problem
        where = shown(self.path) if line is None else f"{shown(self.path)}:{line}"
        doc = "" if document is None else f' document "{shown(document)}":'
        super().__init__(f"{where}:{doc} {problem}")

    def __reduce__(self):  # pickled as its parts (errors cross process pools and Dask workers)
        return ParseError, (self.path, self.line, self.problem, self.document)


class InputNotFound(ParseError, FileNotFoundError):
    """An input file or folder that does not exist: fastscore's error (the CLI's one line, ``except
    FastscoreError``) and Python's ``FileNotFoundError`` (``except OSError`` catches it; ``errno``, ``filename``)."""

    def __init__(self, path: str, problem: str = "file not found"):
        super().__init__(path, None, problem)
        self.errno, self.strerror, self.filename = errno.ENOENT, os.strerror(errno.ENOENT), self.path

    def __str__(self) -> str:  # the one line, not OSError's "[Errno 2] ..."
        return self.args[0]

    def __reduce__(self):
        return InputNotFound, (self.path, self.problem)


class OtherFormatError(ParseError):
    """A file of another format than its reader's: ``format`` is what it looks like (a key of
    ``fastscore.formats.files.FORMATS``), ``hint`` what to do with it (the command that reads it)."""

    def __init__(self, path: str, line: int | None, problem: str, format: str, hint: str,
                 document: str | None = None):
        super().__init__(path, line, f"{problem}: {hint}", document)
        self.base, self.format, self.hint = problem, format, hint

    def with_hint(self, hint: str) -> "OtherFormatError":
        """The same error with another remedy (a command that names the task as an option, e.g. ``--task``)."""
        return OtherFormatError(self.path, self.line, self.base, self.format, hint, self.document)

    def __reduce__(self):
        return OtherFormatError, (self.path, self.line, self.base, self.format, self.hint, self.document)


class FastscoreWarning(UserWarning):
    """What the reference scorers only warn about (and what fastscore adds): the API emits result
    warnings through Python's ``warnings`` module with this category; the CLI prints them on stderr."""


class UnknownKeyword(UsageError, TypeError):
    """A keyword a function or task does not have: a ``TypeError`` as Python's own, naming the closest one."""


def keyword_hint(word: str, known: Iterable[str], listed: str = "its keywords") -> str:
    """``: did you mean "singletons"?`` for a misspelt keyword, else `` (its keywords: ...)``."""
    known = sorted(known)
    return did_you_mean(word, known) or f" ({listed}: {', '.join(known) or 'none'})"


def suggest_keywords(function: F) -> F:
    """``function`` (no ``**keywords`` of its own) raising :class:`UnknownKeyword` for a keyword it lacks, where
    Python raises a bare TypeError; checked only when the call fails, so a call costs one frame more."""

    @functools.wraps(function)
    def checked(*args, **keywords):
        try:
            return function(*args, **keywords)
        except TypeError:
            known = [n for n in inspect.signature(function).parameters if n != "self"]
            unknown = [k for k in keywords if k not in known]
            if unknown:
                name = function.__qualname__.replace(".__init__", "")
                raise UnknownKeyword(f"{name}() got an unexpected keyword argument {', '.join(map(repr, unknown))}"
                                     + keyword_hint(unknown[0], known)) from None
            raise

    return checked  # type: ignore[return-value]


class ResourceError(FastscoreError):
    """The machine could not carry the run: memory ran out, or a worker process died (names the files it was
    on; CLI exit code 1)."""


def out_of_memory(files: "list[str]", doing: "str | None" = None, in_batches: bool = False) -> ResourceError:
    """The error of a MemoryError met while ``doing`` (reading, scoring...) ``files``; ``in_batches``: the
    command reads corpora in parts (--jobs, --batch-size)."""
    hint = "; or fewer --jobs and a smaller --batch-size" if in_batches else ""
    return ResourceError(f"out of memory{while_doing(files, doing)}: no result (give the run more memory{hint})")


def while_doing(files: "list[str]", doing: "str | None" = None) -> str:
    """`` while reading "a.conll", "b.conll"`` (``doing``, else working on, the first few ``files``), or ``""``."""
    from .messages import few

    return f" while {doing or 'working on'} {few(files)}" if files else ""
