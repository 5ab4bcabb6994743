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
import fnmatch
import glob
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


def _destination(target: str, follow_links: bool = True) -> tuple[str, bool]:
    """The file to replace (a link's target, unless ``follow_links`` is false: then the link itself) and
    whether it is to be written into rather than replaced."""
    if not follow_links and os.path.islink(target):
        return target, False
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
def output_path(target: str | os.PathLike, follow_links: bool = True) -> Iterator[str]:
    """A temporary path to write the whole output to; when the block ends without an exception it becomes
    ``target`` (see the module's docstring), else it is removed and ``target`` is unchanged.
    ``follow_links=False``: a symbolic link at ``target`` is replaced, not followed (a file named from what an
    input holds, e.g. a document id, must not be steered elsewhere by a link planted there)."""
    target = os.fspath(target)
    direct = target == "-"
    real = target
    if not direct:
        real, direct = _destination(target, follow_links)
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
def open_output(target: str | os.PathLike, follow_links: bool = True) -> Iterator[IO]:
    """A file to write (UTF-8 text with ``\\n`` line ends) that becomes ``target`` when the block ends without an
    exception (see :func:`output_path`)."""
    with output_path(target, follow_links) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            yield fh


def write_output(target: str | os.PathLike, text: str, follow_links: bool = True) -> None:
    """``text`` as the whole content of ``target``."""
    with open_output(target, follow_links) as fh:
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


# ---- no output on an input

def _identity(path: str) -> tuple[int, int, bool] | None:
    """(device, inode, is a folder) of what ``path`` names (links followed); None: nothing there, or not a
    regular file or folder (a device, a FIFO: written into, never replaced, so nothing of it is lost)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
        return None
    return st.st_dev, st.st_ino, stat.S_ISDIR(st.st_mode)


def _how_linked(output: str, given: str) -> str:
    """How an output that is an input's file reaches it: by its name, a symbolic link or a hard link."""
    if os.path.abspath(output) == os.path.abspath(given):
        return "the same path"
    if os.path.realpath(output) == os.path.realpath(given):
        return "a symbolic link" if os.path.islink(output) or os.path.islink(given) else "a symbolic link on the way"
    return "a hard link"


def _inside(path: str, folder: str) -> bool:
    """Whether ``path`` (links of its folders followed) is ``folder`` or lies below it."""
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _input_paths(inputs) -> list[tuple[str, str]]:
    """(as given, a path it names) for each input: a glob pattern that names no file gives its matches."""
    out = []
    for given in inputs:
        if given is None or not isinstance(given, (str, os.PathLike)):
            continue  # an already-read input (the API's)
        given = os.fspath(given)
        if given in ("-", "example", ""):
            continue
        if glob.has_magic(given) and not os.path.lexists(given):
            out += [(given, match) for match in glob.glob(given)]
        out.append((given, given))
    return out


def refuse_outputs_on_inputs(inputs, outputs, folders=(), standard_output: bool = False) -> None:
    """An :class:`OutputError` naming both paths, before anything is read or written, when an output of a run
    would land on one of its inputs:

    - an output (``outputs``: files, or a folder written as a whole) is an input file or folder — by the same
      path, a symbolic link (the output, the input or a folder on the way) or a hard link (same device and
      inode);
    - an output lies inside a folder given as input (a corpus of shards, a token folder): this run or a later
      one would read it as an input; or a glob pattern given as input matches it;
    - ``folders``, where the run writes files named from what it reads (one per document): an input lies in
      one, or one lies in an input folder (their writer replaces a link there, never follows it:
      ``output_path(..., follow_links=False)``).

    - ``standard_output`` (the command line's): standard output is an input file (``>> key.conll``).

    ``inputs``: paths, folders and glob patterns; ``None``, ``-`` (standard input) and objects (the API's
    already-read inputs) are passed over."""
    pairs = _input_paths(inputs)
    if standard_output:
        _refuse_standard_output(pairs)
    for output in (os.fspath(o) for o in outputs if o is not None):
        if output == "-":
            continue
        _refuse_one(output, pairs)
    for folder in (os.fspath(f) for f in folders if f is not None):
        _refuse_folder(folder, pairs)


def _refuse_one(output: str, pairs: list[tuple[str, str]]) -> None:
    mine = _identity(output)
    for given, path in pairs:
        theirs = _identity(path)
        if mine is not None and theirs is not None and mine[:2] == theirs[:2]:
            what = "folder" if theirs[2] else "file"
            raise OutputError(f"{output}: the output is the input {what} {given} ({_how_linked(output, path)}): "
                              "refused, nothing was read or written; give another output path")
        if theirs is not None and theirs[2] and (_inside(os.path.dirname(os.path.abspath(output)), path)
                                                 or _inside(output, path)):
            raise OutputError(f"{output}: the output is inside the input folder {given}: refused, a run "
                              "reading that folder would take it for an input; write it outside the folder")
        if given == path and theirs is None and glob.has_magic(given) and fnmatch.fnmatchcase(
                os.path.abspath(output), os.path.abspath(given)):
            raise OutputError(f"{output}: the input pattern {given} matches the output: refused, a run "
                              "reading the pattern would take it for an input; write it elsewhere")


def _refuse_standard_output(pairs: list[tuple[str, str]]) -> None:
    try:
        st = os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # closed, or not a file (a test's capture)
        return
    if not stat.S_ISREG(st.st_mode):
        return
    for given, path in pairs:
        theirs = _identity(path)
        if theirs is not None and theirs[:2] == (st.st_dev, st.st_ino):
            raise OutputError(f"standard output is the input file {given} (redirected to it): refused, nothing was "
                              "read or written; redirect the output to another file")


def _refuse_folder(folder: str, pairs: list[tuple[str, str]]) -> None:
    """A folder where a run writes files named from what it reads: no input in it, it in no input folder."""
    for given, path in pairs:
        theirs = _identity(path)
        if theirs is None:
            continue
        if _inside(path, folder):
            raise OutputError(f"{folder}: the output folder holds the input {given}: refused, nothing was read "
                              "or written; write to another folder")
        if theirs[2] and _inside(folder, path):
            raise OutputError(f"{folder}: the output folder is inside the input folder {given}: refused, a run "
                              "reading that folder would take its files for inputs; write outside it")


# ---- files named from what an input holds (one file per document)

_NAME_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.+~")
# names Windows gives to devices, whatever the extension
_DEVICE_NAMES = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(10)), *(f"LPT{i}" for i in range(10))}
NAME_BYTES = 255  # the longest file name of the common file systems


def file_name_of(doc_id: str) -> str:
    """A document id as a file name, reversibly (``urllib.parse.unquote`` gives the id back): ASCII letters,
    digits and ``- _ . + ~`` are kept; every other character (``/``, ``\\``, ``%``, spaces, control and non-ASCII
    characters) becomes ``%XX`` per byte of its UTF-8 form, as does a leading ``.`` (no hidden file, no ``.`` or
    ``..``) and the first letter of a Windows device name (``CON``, ``NUL``...).  Ids that differ only in case
    still give names that differ only in case: see :func:`refuse_shared_names`."""
    if not doc_id:
        raise OutputError("a document with an empty id: no file can be named after it")
    name = "".join(c if c in _NAME_CHARACTERS else "".join(f"%{b:02X}" for b in c.encode("utf-8", "surrogatepass"))
                   for c in doc_id)
    if name.startswith(".") or name.split(".")[0].upper() in _DEVICE_NAMES:
        name = f"%{ord(name[0]):02X}{name[1:]}"
    return name


def refuse_shared_names(doc_ids, suffix: str, where: str) -> dict[str, str]:
    """Each id's file name (:func:`file_name_of` + ``suffix``); an :class:`OutputError` when two ids would
    share a file on a case-insensitive file system (macOS, Windows: refused everywhere, so that a run writes
    the same files on every system) or a name is too long."""
    names: dict[str, str] = {}
    seen: dict[str, str] = {}
    for doc_id in doc_ids:
        name = file_name_of(doc_id) + suffix
        if len(name.encode("utf-8")) > NAME_BYTES:
            raise OutputError(f"{where}: document {_shown(doc_id)}: its file name would be {len(name)} bytes "
                              f"long (at most {NAME_BYTES}): refused, nothing was written")
        other = seen.setdefault(name.lower(), doc_id)
        if other != doc_id:
            raise OutputError(f"{where}: documents {_shown(other)} and {_shown(doc_id)} would share the file {name} "
                              "on a case-insensitive file system: refused, nothing was written")
        names[doc_id] = name
    return names


def _shown(doc_id: str) -> str:
    return repr(doc_id if len(doc_id) <= 80 else doc_id[:80] + "...")
