"""Every file a command writes goes through here, so that nothing is destroyed or left half-written.

The content is written to a temporary file (``.fastscore-*.tmp``: hidden, so a folder read as a corpus
never takes it for a shard) and only when it is complete does it take the target's place:

- a regular file (or a new one) is replaced by renaming the temporary file over it, in the target's folder;
- a symbolic link is followed: the link stays, the file it points to is replaced;
- a target that exists and is not a regular file (a device such as ``/dev/null``, a FIFO) is never replaced:
  the finished content is copied into it (the temporary file then lives in the system's temporary folder);
- ``-`` is standard output: the finished content is copied to it.

An exception or Ctrl-C inside the ``with`` block removes the temporary file and leaves the target as it
was.  Every ``OSError`` becomes an :class:`~fastscore.errors.OutputError` naming the path and the reason.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import sys
import tempfile
from typing import IO, Iterator

from .errors import OutputError

TEMPORARY_PREFIX = ".fastscore-"


def cannot_write(path: str, exc: OSError) -> OutputError:
    """``PATH: cannot write: REASON`` (the reason as the system says it)."""
    reason = exc.strerror or str(exc)
    m = re.search(r"\[errno (\d+)\]", reason)  # pyarrow's: "Error writing bytes to file. Detail: [errno 28] ..."
    if m:
        reason = os.strerror(int(m.group(1)))
    return OutputError(f"{'standard output' if path == '-' else path}: cannot write: {reason}")


def _destination(target: str) -> tuple[str, bool]:
    """The file to replace (a link's target) and whether it is to be written into rather than replaced."""
    if os.path.islink(target) and os.path.abspath(target).startswith(("/dev/", "/proc/")):
        return target, True  # /dev/stdout, /dev/fd/N: the stream this process was given, never a file to replace
    real = os.path.realpath(target) if os.path.islink(target) else target
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return real, False
    if stat.S_ISDIR(mode):
        raise OutputError(f"{target}: cannot write: is a folder (give the file to write)")
    return real, not stat.S_ISREG(mode)


def _new_mode(real: str) -> int:
    """An existing file's permissions, else what ``open`` would give a new file (mkstemp's are private)."""
    try:
        return stat.S_IMODE(os.stat(real).st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


@contextlib.contextmanager
def output_path(target: str | os.PathLike) -> Iterator[str]:
    """A temporary path to write the whole output to; when the block ends without an exception it becomes
    ``target`` (see the module's docstring), else it is removed and ``target`` is unchanged."""
    target = os.fspath(target)
    direct = target == "-"
    real = target
    if not direct:
        real, direct = _destination(target)
    folder = None if direct else os.path.dirname(os.path.abspath(real))
    if real.endswith(("/", os.sep)):  # a folder's name (missing, else _destination said it is a folder)
        folder = real
    if folder is not None and not os.path.isdir(folder):
        raise OutputError(f"{target}: cannot write: the folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, suffix=".tmp", dir=folder)
        os.close(fd)
    except OSError as exc:
        raise cannot_write(target, exc) from None
    try:
        yield tmp
        if target == "-":
            _copy_to_stdout(tmp)
        elif direct:
            # appended: a device or FIFO takes it as it comes, and /dev/stdout opened with >> keeps what it had
            with open(tmp, "rb") as src, open(real, "ab") as dst:
                shutil.copyfileobj(src, dst)
        else:
            os.chmod(tmp, _new_mode(real))
            os.replace(tmp, real)
    except BrokenPipeError:  # standard output's reader went away: the CLI ends quietly
        raise
    except OSError as exc:  # the writer's or the move's: e.g. the device is full, the folder read-only
        raise cannot_write(target, exc) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _copy_to_stdout(path: str) -> None:
    sys.stdout.flush()
    with open(path, "rb") as fh:
        out = getattr(sys.stdout, "buffer", None)
        if out is None:  # a text stream (e.g. a test's capture)
            sys.stdout.write(fh.read().decode("utf-8"))
        else:
            shutil.copyfileobj(fh, out)
    sys.stdout.flush()


@contextlib.contextmanager
def open_output(target: str | os.PathLike) -> Iterator[IO]:
    """A file to write (UTF-8 text with ``\\n`` line ends) that becomes ``target`` when the block ends without an
    exception (see :func:`output_path`)."""
    with output_path(target) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            yield fh


def write_output(target: str | os.PathLike, text: str) -> None:
    """``text`` as the whole content of ``target``."""
    with open_output(target) as fh:
        fh.write(text)


def is_hidden(name: str) -> bool:
    """A file a folder read as a corpus leaves out: its name starts with ``.`` (editors' and fastscore's
    temporary files, ``.DS_Store``)."""
    return os.path.basename(name).startswith(".")


def writable(path_or_stream) -> contextlib.AbstractContextManager:
    """An open text stream used as it is, or :func:`open_output` of a path (the writers' argument)."""
    if hasattr(path_or_stream, "write"):
        return contextlib.nullcontext(path_or_stream)
    return open_output(path_or_stream)
