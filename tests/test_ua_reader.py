"""The UA reader's shortcuts (fastscore/ua/reader.py) against the readings they stand for: a bridging cell of one
annotation read by one regular expression, ASCII taken as UTF-8 unread, and the messages for what the UA scorer
cannot read."""
from __future__ import annotations

import gc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastscore.errors import InputError, ParseError
from fastscore.ua import reader


def _bridging_reference(cell: str) -> dict[str, str] | str:
    """A BRIDGING cell read annotation by annotation as the UA scorer reads it (each '(' opens one, a last ')'
    closes it, its '|'-separated fields split at their first '=' or, without one, named by all but the last
    character): anaphor -> anchor, or the missing field's name."""
    anchors = {}
    for annotation in cell.split("(")[1:]:
        fields = {}
        for part in (annotation[:-1] if annotation.endswith(")") else annotation).split("|"):
            at = part.find("=")
            fields[part[:at]] = part[at + 1:]
        for key in ("MarkableID", "MentionAnchor"):
            if key not in fields:
                return key
        anchors[fields["MarkableID"]] = fields["MentionAnchor"]
    return anchors


_BRIDGING_PIECES = st.sampled_from(["(", ")", "|", "=", "MarkableID=", "MentionAnchor=", "MarkableID", "a", "b",
                                    "é", "(MarkableID=a|MentionAnchor=b)", "MentionAnchor=b)"])


@settings(max_examples=500, deadline=None)
@given(st.lists(_BRIDGING_PIECES, min_size=1, max_size=8))
def test_a_bridging_cell_is_read_as_annotation_by_annotation(pieces):
    """reader._bridging_cell (one regular expression for a cell of one annotation, else its loop) against the
    scorer's reading, on cells of brackets, separators and field names in any order."""
    cell = "".join(pieces)
    want = _bridging_reference(cell)
    anchors: dict[str, str] = {}
    try:
        reader._bridging_cell("f", "d", 3, cell, anchors)
    except ParseError as e:
        assert isinstance(want, str) and f"a bridging annotation without {want} in {cell!r}" in str(e)
        return
    assert anchors == want


def test_the_common_bridging_cells_take_the_shortcut():
    """The cells the shortcut reads: one annotation of the two fields, brackets or '=' in a value included."""
    for cell, pair in [("(MarkableID=m1|MentionAnchor=m2)", ("m1", "m2")),
                       ("(MarkableID=m)1|MentionAnchor=m2))", ("m)1", "m2)")),
                       ("(MarkableID=|MentionAnchor=)", ("", ""))]:
        assert reader._ONE_BRIDGING.fullmatch(cell) and _bridging_reference(cell) == dict([pair])
    for cell in ["(MarkableID=a|MentionAnchor=b)(MarkableID=c|MentionAnchor=d)", "(MentionAnchor=b|MarkableID=a)",
                 "(MarkableID=a|MentionAnchor=b", "(MarkableID=a=b|MentionAnchor=c)"]:
        assert not reader._ONE_BRIDGING.fullmatch(cell)


_LINE = "\t".join(["1", "a"] + ["_"] * 8) + "\t{}\t{}\t_"


@pytest.mark.parametrize("data, message", [
    (b"# newdoc id = d\n1\ta\xff\t_\n", "f:2: not UTF-8 (byte 19): the UA scorer reads UTF-8 text"),
    (("# newdoc id = d\n" + _LINE.format("(EntityID=1|MarkableID=m1)", "_") + "\n1\t\u00e9\xa0x\n")
     .encode("utf-8"), 'f:3: document "d": 3 column(s): the UA scorer reads column 12 (IDENTITY is the 11th, BRIDGING the 12th, '
     "DISCOURSE_DEIXIS the 13th)"),
    (("# newdoc id = d\n" + _LINE.format("(EntityID=1|MarkableID=m1)", "(MarkableID=m1)")).encode("utf-8"),
     "f:2: document \"d\": a bridging annotation without MentionAnchor in '(MarkableID=m1)'"),
])
def test_what_the_scorer_cannot_read_is_one_message(data, message):
    """Non-UTF-8 bytes (the ASCII check skips decoding only ASCII), a short line (Unicode whitespace splits it),
    a bridging annotation without its anchor."""
    with pytest.raises((InputError, ParseError)) as e:
        reader.read_ua_bytes("f", data, with_bridging=True)
    assert str(e.value) == message


def test_reading_leaves_the_collector_as_it_was():
    """The collector is paused while a file is read (many objects, no cycles), and left as it was."""
    data = ("# newdoc id = d\n" + _LINE.format("(EntityID=1|MarkableID=m1)", "_") + "\n").encode()
    was = gc.isenabled()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            assert list(reader.read_ua_bytes("f", data).documents["d"].markables) == ["m1"]
            assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
