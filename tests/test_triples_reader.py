"""The triple reader's two ways of handling element ends (``fastscore.formats.triples``): collected and applied
at the next triple (the fast way, for regular files) and handled as they come (every file).  Where the fast way
reads a file at all, it must read it exactly as the other does."""
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from fastscore.errors import ParseError
from fastscore.formats.triples import _Irregular, _parse, parse_triples, write_triples

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from gen_triples import big_pair, triple_xml  # noqa: E402

ID = st.sampled_from(['id="w1"', 'id="w2"', 'id=" w3"', 'id=""', 'ID="w4"', 'id="w5" comment="a&amp;b"', ""])
ELEMENTS = st.lists(ID, max_size=3)


@st.composite
def triple(draw, depth=0):
    name = draw(st.sampled_from(["triple", "triple", "triplet", "Triple"]))
    attrs = draw(st.sampled_from(['relation="r"', 'relation="r"', "", 'Relation="x" profile_id="p"']))
    attrs += draw(st.sampled_from(["", "", ' profile_confidence="3"', ' profile_confidence="x"']))
    first = "".join(f"<elementFirst {a}/>" for a in draw(ELEMENTS))
    second = "".join(f"<participant {a}/>" for a in draw(ELEMENTS))
    body = f'<elementFirstIds label="l" comment="c">{first}</elementFirstIds><elementSecondIds>{second}' \
           "</elementSecondIds>"
    if depth == 0 and draw(st.booleans()) and draw(st.booleans()):
        body += draw(triple(depth=1))  # a triple inside a triple
    after = draw(st.sampled_from(["", "", "", '<elementFirst id="late"/>', "<other/>", '<eventIds label="z"/>']))
    return f'<{name} id="t" {attrs}>{body}</{name}>{after}\n'


def outcome(data: bytes, late_ends: bool):
    try:
        return vars(_parse(data, "f.trp", "document", late_ends))
    except ParseError as exc:
        return str(exc)


@settings(max_examples=200, deadline=None)
@given(st.lists(triple(), max_size=5))
def test_late_ends_read_every_regular_file_as_ends_as_they_come(triples):
    data = ("<triples>\n" + "".join(triples) + "</triples>\n").encode()
    try:
        late = outcome(data, True)
    except _Irregular:
        late = None  # read again the other way by parse_triples
    expected = outcome(data, False)
    if late is not None and not isinstance(late, str):
        assert late == expected
    try:
        assert vars(parse_triples(data, "f.trp", "document")) == expected
    except ParseError as exc:
        assert str(exc) == expected


def test_files_as_the_module_writes_them_take_the_fast_way():
    gold, system = big_pair(50, 7)
    for triples in (gold, system):
        data = triple_xml(triples).encode()
        doc = _parse(data, "f.trp", "document", late_ends=True)  # no _Irregular
        assert len(doc) == len(triples) > 0
        again = _parse(write_triples(doc).encode(), "f.trp", "document", late_ends=True)
        assert (again.ids, again.first, again.second) == (doc.ids, doc.first, doc.second)
