"""Issue 36: triple files as the Triple evaluation module reads them (a FileReader: UTF-8 whatever the XML
declaration, a BOM kept as a character; triples read before an XML error kept; Java's equalsIgnoreCase),
with a warning, and as their encoding says under --fix-module-quirks.  The figures in the comments are the
module's (its source built with javac, Java 17, EvaluateTriples)."""
import math

import pytest

from fastscore.errors import ParseError
from fastscore.triples.score import score_triples

GOLD = [("direct", "w1", "w2"), ("agent", "w3", "w4"), ("theme", "w5", "w6"), ("time", "w7", "w8")]
SYSTEM = [("direct", "w1", "w2"), ("agent", "w3", "w4"), ("theme", "w5", "w6"), ("time", "w9", "w8")]


def trp(triples, encoding="UTF-8") -> str:
    body = "".join(f'<triple id="t{k}" relation="{rel}">\n<elementFirstIds>\n<elementFirst id="{a}"/>\n'
                   f'</elementFirstIds>\n<elementSecondIds>\n<elementSecond id="{b}"/>\n</elementSecondIds>\n'
                   "</triple>\n" for k, (rel, a, b) in enumerate(triples))
    return f'<?xml version="1.0" encoding="{encoding}"?>\n<triples>\n{body}</triples>\n'


def score(tmp_path, system: bytes, gold: bytes | None = None, **kw) -> tuple[dict, list[str]]:
    (tmp_path / "gold.trp").write_bytes(gold if gold is not None else trp(GOLD).encode())
    (tmp_path / "system.trp").write_bytes(system)
    r = score_triples(str(tmp_path / "gold.trp"), str(tmp_path / "system.trp"), **kw)
    return r.to_dict()["metrics"]["triples"], r.warnings


def pr(m: dict) -> tuple:
    return (m["correct"], m["system"], m["gold"], None if m["precision"] is None or math.isnan(m["precision"])
            else round(m["precision"], 4), round(m["recall"], 4))


def test_a_bom_in_a_triple_file_gives_no_triples_as_in_the_module(tmp_path):
    m, warnings = score(tmp_path, b"\xef\xbb\xbf" + trp(SYSTEM).encode())
    assert (m["correct"], m["system"], m["recall"]) == (0, 0, 0.0)  # the module: P NaN, R 0.0
    assert any("byte order mark" in w for w in warnings)
    m, _ = score(tmp_path, b"\xef\xbb\xbf" + trp(SYSTEM).encode(), fix_module_quirks=True)
    assert (m["correct"], m["precision"], m["recall"]) == (3, 0.75, 0.75)


def test_the_xml_declaration_is_ignored_as_in_the_module(tmp_path):
    gold = trp([("direct", "wè", "w2")], "ISO-8859-1").encode("latin-1")
    system = trp([("direct", "wé", "w2")], "ISO-8859-1").encode("latin-1")
    m, warnings = score(tmp_path, system, gold)  # the module: both ids U+FFFD: P = R = 1.0
    assert (m["correct"], m["precision"], m["recall"]) == (1, 1.0, 1.0)
    assert any("not read as its encoding says" in w for w in warnings)
    m, _ = score(tmp_path, system, gold, fix_module_quirks=True)
    assert m["correct"] == 0


def test_a_utf16_file_has_no_triples_as_in_the_module(tmp_path):
    m, warnings = score(tmp_path, trp(SYSTEM, "UTF-16").encode("utf-16"))
    assert (m["correct"], m["system"]) == (0, 0) and warnings  # the module: P NaN, R 0.0
    m, _ = score(tmp_path, trp(SYSTEM, "UTF-16").encode("utf-16"), fix_module_quirks=True)
    assert (m["precision"], m["recall"]) == (0.75, 0.75)


def test_a_bom_in_the_token_range_stays_on_the_first_id(tmp_path):
    (tmp_path / "range.txt").write_bytes(b"\xef\xbb\xbfw1\nw3\nw5\n")
    m, warnings = score(tmp_path, trp(SYSTEM).encode(), token_range=str(tmp_path / "range.txt"))
    assert m["system"] == 2 and any("byte order mark" in w for w in warnings)  # the module: 2 in range
    m, _ = score(tmp_path, trp(SYSTEM).encode(), token_range=str(tmp_path / "range.txt"), fix_module_quirks=True)
    assert m["system"] == 3


@pytest.mark.parametrize("system", [
    trp([("DİRECT", "w1", "w2")] + SYSTEM[1:]),  # equalsIgnoreCase: İ lower-cases to i
    trp(SYSTEM).replace('<elementFirst id="w1"', '<elementFirst İD="w1"'),  # the same for an attribute name
])
def test_java_case_folding_of_relations_and_names(tmp_path, system):
    m, _ = score(tmp_path, system.encode())
    assert (m["correct"], m["precision"], m["recall"]) == (3, 0.75, 0.75)  # the module: 0.75, 0.75


@pytest.mark.parametrize("cut", [
    lambda t: t[:t.index('<triple id="t2"') + 40],  # truncated
    lambda t: t.replace('<triple id="t2"', '<triple id="t2" <bad>'),  # malformed
])
def test_malformed_xml_keeps_the_triples_read_before_as_in_the_module(tmp_path, cut):
    m, warnings = score(tmp_path, cut(trp(SYSTEM)).encode())
    assert (m["correct"], m["system"], m["precision"], m["recall"]) == (2, 2, 1.0, 0.5)  # the module: 1.0, 0.5
    assert any("malformed XML" in w and "2 triple(s) read before" in w for w in warnings)
    with pytest.raises(ParseError, match=r"system\.trp:\d+: .*malformed XML"):
        score(tmp_path, cut(trp(SYSTEM)).encode(), fix_module_quirks=True)


@pytest.mark.parametrize("text", [b"", b"  \n\t\n"])
def test_empty_and_blank_files_have_no_triples_as_in_the_module(tmp_path, text):
    m, warnings = score(tmp_path, text)
    assert (m["correct"], m["system"], m["recall"]) == (0, 0, 0.0)  # the module: P NaN, R 0.0
    assert any("file: no triples" in w for w in warnings)


def test_an_unknown_declared_encoding_is_ignored_as_in_the_module(tmp_path):
    m, warnings = score(tmp_path, trp(SYSTEM, "no-such-encoding").encode())  # the module: 0.75, 0.75
    assert (m["precision"], m["recall"]) == (0.75, 0.75) and warnings
    with pytest.raises(ParseError, match="unknown encoding"):
        score(tmp_path, trp(SYSTEM, "no-such-encoding").encode(), fix_module_quirks=True)
