"""Every kind of bad input gets one clear error naming file, line, document and problem."""
import random
import subprocess
import sys

import pytest

from fastscore import FastscoreError, InputError, ParseError, score_coref
from fastscore.api import read_conll
from tests.conftest import TESTDATA

GOOD = "#begin document (d); part 000\nd\t0\t0\tA\t(1\nd\t0\t1\tB\t1)\nd\t0\t2\tC\t(1)\nd\t0\t3\tD\t-\n#end document\n"


def _write(tmp_path, text, name="f.conll"):
    p = tmp_path / name
    p.write_bytes(text.encode() if isinstance(text, str) else text)
    return p


@pytest.mark.parametrize("text, line, fragment", [
    ("#begin document (d); part 000\nd 0 0 A 1)\n#end document\n", 2, "closed at token 0 but never opened"),
    ("#begin document (d); part 000\nd 0 0 A (1\nd 0 1 B -\n#end document\n", 2, "opened at token 0 is never closed"),
    ("#begin document (d); part 000\nd 0 0 A -\n", 1, 'without "#end document"'),
    ("#begin document (d); part 000\nd 0 0 A -\n#begin document (e); part 000\n", 3, "inside document"),
    ("d 0 0 A -\n", 1, "token line outside a document"),
    ("#end document\n", 1, "without a matching"),
    ("#begin document (d); part 000\nd 0 0 A -\n#end document\n#begin document (d); part 000\n#end document\n",
     4, "appears twice"),
    ("#begin document (d); part 000\nd 0 0 A (x1)\n#end document\n", 2, "unrecognised cluster label"),
    ("#begin document (d); part 000\nd 0 0 A ()\n#end document\n", 2, "empty cluster label"),
    ("", None, "no \"#begin document\" line"),
    ("\n\n", None, "no \"#begin document\" line"),
])
def test_parse_errors_name_file_line_and_problem(tmp_path, text, line, fragment):
    p = _write(tmp_path, text)
    with pytest.raises(ParseError) as err:
        read_conll(p)
    msg = str(err.value)
    assert str(p) in msg and fragment in msg
    assert err.value.line == line
    if line is not None:
        assert f"{p}:{line}:" in msg


def test_document_is_named(tmp_path):
    p = _write(tmp_path, "#begin document (doc7); part 001\nd 0 0 A 4)\n#end document\n")
    with pytest.raises(ParseError, match=r'document "\(doc7\); part 001"'):
        read_conll(p)


def test_non_utf8(tmp_path):
    p = _write(tmp_path, b"#begin document (d); part 000\nd 0 0 \xff -\n#end document\n")
    with pytest.raises(ParseError, match=r":2: invalid UTF-8 byte 0xff"):
        read_conll(p)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(ParseError, match="file not found"):
        read_conll(tmp_path / "nope.conll")
    with pytest.raises(ParseError, match="is a directory"):
        read_conll(tmp_path)


def test_token_count_mismatch(tmp_path):
    key = _write(tmp_path, GOOD, "key.conll")
    resp = _write(tmp_path, GOOD.replace("d\t0\t3\tD\t-\n", ""), "resp.conll")
    with pytest.raises(InputError, match=r'resp.conll:1: document "\(d\); part 000": 3 tokens, but the key'):
        score_coref(key, resp)


def test_unknown_document_option(tmp_path):
    key = _write(tmp_path, GOOD, "key.conll")
    with pytest.raises(InputError, match='no document "nope" in the key'):
        score_coref(key, key, doc="nope")


def _repeated_response(n):
    lines = ["#begin document (d); part 000"]
    lines += [f"d\t0\t{t}\tw\t(1)|(2)" for t in range(n)]
    return "\n".join(lines + ["#end document", ""])


def test_more_than_ten_repeated_mentions_refused_like_v801(tmp_path):
    key = _write(tmp_path, _repeated_response(11).replace("|(2)", ""), "key.conll")
    resp = _write(tmp_path, _repeated_response(11), "resp.conll")
    with pytest.raises(InputError, match="11 repeated mentions.*--allow-repeated"):
        score_coref(key, resp)
    scores = score_coref(key, resp, allow_repeated=True).scores()
    assert scores["mentions"]["precision_den"] == 11
    ten_key = _write(tmp_path, _repeated_response(10).replace("|(2)", ""), "key10.conll")
    ten = _write(tmp_path, _repeated_response(10), "resp10.conll")
    assert score_coref(ten_key, ten, ["muc"]).scores()["mentions"]["recall"] == 1.0


def test_repeats_counted_once_per_metric_as_v801_all_mode(tmp_path):
    """v8.01 counts a repeat once per metric it scores, across its `all` mode's five runs: 3 repeats
    refuse `all` (15 > 10), 2 do not (10); a run of three metrics refuses 4 repeats (12)."""
    for n, metrics, refused in ((3, None, True), (2, None, False), (4, ["conll"], True), (3, ["conll"], False),
                                (3, ["muc", "lea"], False)):
        key = _write(tmp_path, _repeated_response(n).replace("|(2)", ""), f"key{n}.conll")
        resp = _write(tmp_path, _repeated_response(n), f"resp{n}.conll")
        if refused:
            with pytest.raises(InputError, match=f"{n} repeated mentions.*counted once per metric"):
                score_coref(key, resp, metrics)
            assert score_coref(key, resp, metrics, allow_repeated=True).scores()["mentions"]["recall"] == 1.0
        else:
            assert score_coref(key, resp, metrics).scores()["mentions"]["recall"] == 1.0


def test_cli_bad_input_one_line_exit_1(tmp_path):
    key = _write(tmp_path, GOOD, "key.conll")
    bad = _write(tmp_path, "#begin document (d); part 000\nd 0 0 A 1)\n#end document\n", "bad.conll")
    proc = subprocess.run([sys.executable, "-m", "fastscore", "coref", str(key), str(bad)],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"fastscore: error: {bad}:2:")


def _mutate(rng, text):
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        pos = rng.randrange(len(chars) + 1)
        if op < 0.4 and chars:
            del chars[min(pos, len(chars) - 1)]
        elif op < 0.8:
            chars.insert(pos, rng.choice("()|-_#\t\n 0123456789abx\r"))
        else:
            chars.insert(pos, rng.choice(["#begin document (e); part 000\n", "#end document\n", "(7", "7)", "\xff"]))
    return "".join(chars)


def test_fuzz_mutations_are_scored_or_rejected_cleanly(tmp_path):
    """Random mutations of valid files: scored, or a FastscoreError — never anything else."""
    rng = random.Random(7)
    sources = sorted((TESTDATA / "anchors").glob("case-00*.key"))
    outcomes = {"scored": 0, "rejected": 0}
    for n in range(400):
        source = rng.choice(sources)  # scored against its own key (a response sharing no document is an error)
        p = _write(tmp_path, _mutate(rng, source.read_text()), f"m{n}.conll")
        try:
            score_coref(source, p, allow_repeated=True)
            outcomes["scored"] += 1
        except FastscoreError as exc:
            assert str(exc) and "\n" not in str(exc)
            outcomes["rejected"] += 1
    assert outcomes["scored"] > 20 and outcomes["rejected"] > 20


def test_utf8_byte_order_mark_is_accepted(tmp_path):
    p = _write(tmp_path, b"\xef\xbb\xbf" + GOOD.encode())
    assert read_conll(p).doc_names == ["(d); part 000"]
