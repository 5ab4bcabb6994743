"""Faults around the input and the output: nothing destroyed or left half-written, no traceback.

Full devices (``/dev/full``, a small tmpfs when this user may mount one, a file-size limit otherwise),
read-only folders, devices, links and folders as targets, standard output closed or its reader gone,
Ctrl-C and SIGKILL while converting and scoring, hidden files in corpus folders."""
from __future__ import annotations

import os
import resource
import signal
import stat
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from fastscore.coref.convert import convert, convert_columnar
from fastscore.errors import OutputError
from fastscore.outputs import TEMPORARY_PREFIX, open_output, output_path
from tests.conftest import ROOT, SHARED

KEY = ROOT / "fastscore" / "examples" / "key.conll"
RESPONSE = ROOT / "fastscore" / "examples" / "response.conll"
TARGETS = ("jsonl", "conllu", "conll2012", "parquet", "arrow")
SLOW = pytest.mark.slow  # each case starts fastscore (~1 s): the default run keeps one of a kind


def _first_quick(values):
    """The first value in the default run, the others in the slow run."""
    return [v if k == 0 else pytest.param(v, marks=SLOW) for k, v in enumerate(values)]
BIG = SHARED / "litbank" / "coref" / "conll" / "541_the_age_of_innocence_brat.conll"  # 116 KB: > 5 KB in each format


def _fastscore(*args, stdin=None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fastscore", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, stdin=stdin, **kw)


def _one_error_line(proc, *fragments) -> None:
    """Exit 1, one error line (warnings aside) with the fragments, no traceback."""
    assert proc.returncode == 1, proc.stderr
    lines = [x for x in proc.stderr.splitlines() if not x.startswith("fastscore: warning: ")]
    assert len(lines) == 1 and lines[0].startswith("fastscore: error: "), proc.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def _temporaries(folder: Path) -> list[Path]:
    return list(folder.glob(TEMPORARY_PREFIX + "*"))


# ---- targets that are not plain files


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("to", _first_quick(TARGETS))
def test_a_full_device_is_written_into_not_replaced(to):
    before = os.stat("/dev/full")
    proc = _fastscore("convert", KEY, "/dev/full", "--to", to)
    _one_error_line(proc, "/dev/full: cannot write: No space left on device")
    after = os.stat("/dev/full")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


@SLOW
def test_the_null_device_takes_the_output_and_stays(tmp_path):
    proc = _fastscore("convert", KEY, os.devnull, "--to", "parquet")
    assert proc.returncode == 0 and proc.stderr == ""
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


@SLOW
def test_a_fifo_is_written_into(tmp_path):
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    proc = _fastscore("convert", KEY, fifo, "--to", "jsonl")
    out, _ = reader.communicate(timeout=60)
    assert proc.returncode == 0 and out.startswith(b'{"doc_key"')
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and not _temporaries(tmp_path)


def test_a_symlink_is_followed(tmp_path):
    real = tmp_path / "real.jsonl"
    real.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to("real.jsonl")
    convert(KEY, link, "jsonl")
    assert link.is_symlink() and real.read_text().startswith('{"doc_key"')


def test_a_new_file_gets_the_usual_permissions_and_an_old_one_keeps_its_own(tmp_path):
    fresh = tmp_path / "fresh.jsonl"
    convert(KEY, fresh, "jsonl")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~mask
    old = tmp_path / "old.jsonl"
    old.write_text("x")
    old.chmod(0o640)
    convert(KEY, old, "jsonl")
    assert stat.S_IMODE(old.stat().st_mode) == 0o640


@SLOW
@pytest.mark.parametrize("to", ["jsonl", "parquet"])
def test_folders_as_targets_and_missing_folders(tmp_path, to):
    _one_error_line(_fastscore("convert", KEY, tmp_path, "--to", to), "is a folder")
    _one_error_line(_fastscore("convert", KEY, tmp_path / "missing" / "x", "--to", to), "does not exist")
    _one_error_line(_fastscore("convert", KEY, f"{tmp_path}/missing/", "--to", to), "does not exist")
    assert not _temporaries(tmp_path)


# ---- full and read-only file systems


@contextmanager
def _mounted(folder: Path, options: str):
    """A tmpfs mounted on ``folder`` (skips the test where this user may not mount)."""
    folder.mkdir(exist_ok=True)
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


def _limit_file_size():
    """In the child: files larger than 4 KB cannot be written (EFBIG), as on a full device."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


@SLOW
@pytest.mark.parametrize("to", TARGETS)
def test_out_of_space_leaves_the_old_file_and_no_temporary(tmp_path, to):
    target = tmp_path / f"x.{to}"
    target.write_bytes(b"old")
    big = BIG
    proc = subprocess.run([sys.executable, "-m", "fastscore", "convert", str(big), str(target), "--to", to],
                          capture_output=True, text=True, cwd=ROOT, preexec_fn=_limit_file_size)
    _one_error_line(proc, str(target), "cannot write: File too large")
    assert target.read_bytes() == b"old" and not _temporaries(tmp_path)


@SLOW
@pytest.mark.parametrize("to", ["jsonl", "arrow", "parquet"])
def test_a_full_tmpfs_leaves_the_old_file_and_no_temporary(tmp_path, to):
    with _mounted(tmp_path / "small", "size=8k") as small:
        target = small / f"x.{to}"
        target.write_bytes(b"old")
        big = BIG
        (small / "filler").write_bytes(b"x" * 4096)
        _one_error_line(_fastscore("convert", big, target, "--to", to), str(target), "No space left on device")
        assert target.read_bytes() == b"old" and not _temporaries(small)


@SLOW
@pytest.mark.parametrize("to", ["jsonl", "parquet"])
def test_a_read_only_folder(tmp_path, to):
    folder = tmp_path / "ro"
    if os.geteuid() == 0:
        with _mounted(folder, "ro,size=64k"):
            _one_error_line(_fastscore("convert", KEY, folder / "x", "--to", to), "Read-only file system")
        return
    folder.mkdir()
    folder.chmod(0o555)
    try:
        _one_error_line(_fastscore("convert", KEY, folder / "x", "--to", to), "Permission denied")
    finally:
        folder.chmod(0o755)


def test_the_helper_names_the_path_and_the_reason(tmp_path):
    """What every writer (nugget's --diff file, --plot, the API's writers) goes through."""
    with pytest.raises(OutputError, match=f"{tmp_path}: cannot write: is a folder"):
        with open_output(tmp_path):
            pass
    with pytest.raises(OutputError, match="No space left on device"):
        with open_output("/dev/full") as fh:
            fh.write("x" * 100000)


# ---- interrupted in Python: Ctrl-C and exceptions


@pytest.mark.parametrize("to", ["jsonl", "parquet"])
def test_an_interrupted_write_changes_nothing(tmp_path, monkeypatch, to):
    target = tmp_path / f"x.{to}"
    target.write_bytes(b"old")

    def interrupted(*args, **kwargs):
        Path(args[1] if to == "parquet" else args[0].name).write_bytes(b"half")
        raise KeyboardInterrupt

    if to == "parquet":
        monkeypatch.setattr("fastscore.formats.columnar.write_table_file", interrupted)
        with pytest.raises(KeyboardInterrupt):
            convert_columnar(KEY, target, "parquet")
    else:
        with pytest.raises(KeyboardInterrupt):
            with output_path(target) as tmp:
                with open(tmp, "w") as fh:
                    interrupted(fh)
    assert target.read_bytes() == b"old" and not _temporaries(tmp_path)


def _ctrl_c_able(args: list, **kw) -> subprocess.Popen:
    """``python -m fastscore ARGS`` with Ctrl-C at its default, whatever this process inherited: a run started in
    the background by a shell without job control (``cmd &``, nohup) ignores SIGINT, and its children would too."""
    return subprocess.Popen([sys.executable, "-m", "fastscore", *map(str, args)], text=True, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), **kw)


def _blocked_reading_stdin(proc: subprocess.Popen, timeout: float = 60) -> bool:
    """Whether the process waits in read(0, ...) (Linux: /proc/PID/syscall), within ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            call = Path(f"/proc/{proc.pid}/syscall").read_text().split()
        except OSError:
            return False
        if call[:2] == ["0", "0x0"]:
            return True
        time.sleep(0.1)
    return False


def _interrupt_while_reading(args, tmp_path) -> subprocess.CompletedProcess:
    """Start ``fastscore ARGS`` reading standard input from a pipe kept open, Ctrl-C it while it reads."""
    proc = _ctrl_c_able(args, stdin=subprocess.PIPE)
    with proc:  # its pipes closed and the process reaped, a skip included (else a later test meets the leak)
        try:
            if not _blocked_reading_stdin(proc):
                pytest.skip("cannot see the process wait for its input (/proc/PID/syscall)")
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


@SLOW
def test_ctrl_c_while_scoring_is_one_line_and_130(tmp_path):
    done = _interrupt_while_reading(["coref", KEY, "-"], tmp_path)
    assert done.returncode == 130 and done.stderr == "fastscore: interrupted\n" and done.stdout == ""


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux: /proc/PID/task/*/children)."""
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


@SLOW
def test_ctrl_c_while_scoring_shards_stops_the_workers_too():
    """A process pool (--jobs 2) interrupted once its workers run, at several moments after: one line, 130,
    and no worker left behind (one would keep the pipes open: communicate would wait for it)."""
    if not Path(f"/proc/{os.getpid()}/task").is_dir():
        pytest.skip("needs /proc to see the pool's workers")
    corpus = SHARED / "litbank" / "coref" / "conll"
    codes = set()
    for delay in (0.0, 0.1, 0.3):
        proc = _ctrl_c_able(["coref", corpus, corpus, "--jobs", "2", "--quiet"])
        deadline = time.monotonic() + 60
        while not _children(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)  # the workers are forked once the shards are planned: the pool is running
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
        codes.add(proc.returncode)
        assert (proc.returncode, err) in ((130, "fastscore: interrupted\n"), (0, "")), err
    assert 130 in codes


@SLOW
def test_ctrl_c_while_converting_is_one_line_and_130(tmp_path):
    """convert reads a FIFO whose writer never writes: interrupted, the old target is kept."""
    target = tmp_path / "x.parquet"
    convert_columnar(KEY, target, "parquet")
    before = target.read_bytes()
    fifo = tmp_path / "in.conll"
    os.mkfifo(fifo)
    proc = _ctrl_c_able(["convert", fifo, target, "--to", "parquet"])
    writer = os.open(fifo, os.O_WRONLY)  # the reader has opened it: it now waits for bytes
    try:
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(writer)
        proc.kill()
    assert proc.returncode == 130 and err == "fastscore: interrupted\n"
    assert target.read_bytes() == before and not _temporaries(tmp_path)


@SLOW
@pytest.mark.parametrize("to", ["parquet", "arrow", "jsonl"])
def test_sigkill_during_convert_never_leaves_a_broken_target(tmp_path, to):
    """Killed at different moments, over an existing file: the target is the old file or the new one."""
    source = BIG
    target = tmp_path / f"x.{to}"
    (convert_columnar if to in ("parquet", "arrow") else convert)(KEY, target, to)
    old = target.read_bytes()
    new_path = tmp_path / f"new.{to}"
    (convert_columnar if to in ("parquet", "arrow") else convert)(source, new_path, to)
    new = new_path.read_bytes()
    for delay in (0.3, 0.8, 1.5, 2.5):
        proc = subprocess.Popen([sys.executable, "-m", "fastscore", "convert", str(source), str(target), "--to", to],
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.kill()
        proc.wait()
        assert target.read_bytes() in (old, new), delay
        target.write_bytes(old)
    for tmp in _temporaries(tmp_path):  # SIGKILL gives Python no chance to clean up: hidden, and skipped
        tmp.unlink()


# ---- standard output


def test_closed_standard_output_is_quiet():
    for args, code in ((["coref", KEY, RESPONSE], 0), (["convert", KEY, "-", "--to", "jsonl"], 0)):
        proc = subprocess.run(["bash", "-c", '"$@" >&-', "bash", sys.executable, "-m", "fastscore", *map(str, args)],
                              capture_output=True, text=True, cwd=ROOT)
        assert proc.returncode == code and proc.stderr == "", proc.stderr
    proc = subprocess.run(["bash", "-c", '"$@" >&-', "bash", sys.executable, "-m", "fastscore", "coref", str(KEY),
                           "/nonexistent.conll"], capture_output=True, text=True, cwd=ROOT)
    _one_error_line(proc, "/nonexistent.conll")


@SLOW
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_standard_output_on_a_full_device_is_one_line():
    for args in (["coref", KEY, RESPONSE], ["convert", KEY, "-", "--to", "jsonl"]):
        with open("/dev/full", "w") as full:
            proc = subprocess.run([sys.executable, "-m", "fastscore", *map(str, args)], stdout=full,
                                  stderr=subprocess.PIPE, text=True, cwd=ROOT)
        proc.stdout = ""
        _one_error_line(proc, "standard output: cannot write: No space left on device")


def test_a_reader_that_goes_away_ends_the_run_quietly_with_0():
    """`fastscore ... | head -1`: the pipe's reader closed before the output is written."""
    proc = subprocess.Popen([sys.executable, "-m", "fastscore", "convert", str(KEY), "-", "--to", "jsonl"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdout.close()  # before the child writes: its first write breaks the pipe
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 0 and err == ""
    head = subprocess.run(["bash", "-c", 'set -o pipefail; "$@" | head -c 5', "bash", sys.executable, "-m",
                           "fastscore", "coref", str(KEY), str(RESPONSE), "--per-doc"],
                          capture_output=True, text=True, cwd=ROOT)
    assert head.returncode == 0 and "Traceback" not in head.stderr


# ---- hidden files in corpora


def test_hidden_files_in_a_corpus_folder_are_skipped(tmp_path):
    """A temporary file left by a killed convert (hidden) is not a shard."""
    gold, system = tmp_path / "gold", tmp_path / "system"
    for folder in (gold, system):
        folder.mkdir()
        (folder / "a.conll").write_bytes(KEY.read_bytes())
    (system / (TEMPORARY_PREFIX + "x.conll")).write_bytes(RESPONSE.read_bytes())
    (system / ".hidden.conll").write_bytes(RESPONSE.read_bytes())
    proc = _fastscore("coref", gold, system, "--output", "json", "--jobs", "1", "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr
    import json

    assert json.loads(proc.stdout)["metrics"]["muc"]["recall"] == 1.0


def test_hidden_files_in_a_triples_folder_are_skipped(tmp_path):
    """A hidden ``.trp`` (an interrupted write's temporary file) is not a document of a triples folder."""
    case = ROOT / "tests" / "data" / "triples_anchors" / "case-000"
    gold, system = tmp_path / "gold", tmp_path / "system"
    for folder, name in ((gold, "gold.trp"), (system, "system.trp")):
        folder.mkdir()
        (folder / "doc.trp").write_bytes((case / name).read_bytes())
    (system / ".doc.trp").write_bytes((case / "gold.trp").read_bytes())
    hidden = _fastscore("triples", gold, system, "--output", "json")
    (system / ".doc.trp").unlink()
    plain = _fastscore("triples", gold, system, "--output", "json")
    assert hidden.returncode == plain.returncode == 0, hidden.stderr
    assert hidden.stdout == plain.stdout and hidden.stderr == plain.stderr


def test_a_triple_file_declaring_an_unknown_encoding_is_one_line(tmp_path):
    bad = tmp_path / "bad.trp"
    bad.write_bytes(b'<?xml version="1.0" encoding="no-such-encoding"?>\n<triples></triples>\n')
    proc = _fastscore("triples", bad, bad, "--fix-module-quirks")  # (the module ignores the declaration: scored)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and "bad.trp:1" in proc.stderr and "encoding" in proc.stderr


def test_dev_stdout_as_target_is_the_stream_not_a_file_to_replace(tmp_path):
    """`--output ... /dev/stdout >> log`: appended to the log (a link under /dev is never followed and replaced)."""
    log = tmp_path / "log.txt"
    log.write_text("old\n")
    with open(log, "a") as out:
        proc = subprocess.run([sys.executable, "-m", "fastscore", "convert", str(KEY), "/dev/stdout", "--to", "jsonl"],
                              stdout=out, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    text = log.read_text()
    assert text.startswith("old\n{") and '"doc_key"' in text
    piped = _fastscore("convert", KEY, "/dev/stdout", "--to", "jsonl")
    assert piped.returncode == 0 and piped.stdout.startswith("{") and piped.stderr == ""
