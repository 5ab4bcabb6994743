"""Inputs beyond the plain file: another format given to the wrong reader (named, with the command that
reads it), gzip-compressed files, and standard input as "-"."""
import gzip
import io
import types

import numpy as np
import pytest

import fastscore
from fastscore.cli import main
from fastscore.errors import ParseError, UsageError
from fastscore.formats.conll import read_conll
from fastscore.formats.files import sniff_format
from fastscore.formats.tbf import read_tbf

CONLL = ("#begin document (d); part 000\n"
         "d\t0\t0\tA\t(1\nd\t0\t1\tB\t1)\nd\t0\t2\tC\t(1)\nd\t0\t3\tD\t-\n"
         "#end document\n")
RESPONSE = CONLL.replace("(1)", "-")
TBF = ("#BeginOfDocument d1\n"
       "g\td1\tE1\t0,4\tmade\tConflict_Attack\tActual\n"
       "g\td1\tE2\t10,14\tkill\tLife_Die\tActual\n"
       "@Coreference\tR1\tE1,E2\n"
       "#EndOfDocument\n")
SYSTEM = TBF.replace("Life_Die\tActual", "Life_Die\tGeneric")
CONLLU = ("# newdoc id = GUM_academic_art\n# global.Entity = eid-etype-head-other\n# sent_id = 1\n"
          "1\tAesthetic\taesthetic\tADJ\tJJ\tDegree=Pos\t2\tamod\t_\tEntity=(e1-abstract-2\n")
JSONL = '{"doc_key": "bc/cctv/00/cctv_0000_0", "sentences": [["Hi"]], "clusters": []}\n'
TIMEML = '<?xml version="1.0" ?>\n<TimeML>\n<DOCID>d1</DOCID>\n</TimeML>\n'


def _write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data.encode() if isinstance(data, str) else data)
    return p


def _parse_error(reader, path) -> ParseError:
    with pytest.raises(ParseError) as err:
        reader(path)
    return err.value


def test_tbf_given_to_the_coref_reader_names_fastscore_nugget(tmp_path):
    p = _write(tmp_path, "gold.tbf", TBF)
    err = _parse_error(read_conll, p)
    assert (err.path, err.line) == (str(p), 1)
    assert str(err) == (f'{p}:1: this looks like a TBF event nugget file, not a CoNLL-2012 coreference file '
                        f'(it has "#BeginOfDocument"): score it with "fastscore nugget"')


def test_conll_given_to_the_tbf_reader_names_fastscore_coref(tmp_path):
    p = _write(tmp_path, "key.conll", CONLL)
    err = _parse_error(read_tbf, p)
    assert err.line == 1
    assert str(err) == (f'{p}:1: this looks like a CoNLL-2012 coreference file, not a TBF event nugget file '
                        f'(it has "#begin document"): score it with "fastscore coref"')


def test_headerless_conll_is_still_recognised_by_its_bracket_column(tmp_path):
    p = _write(tmp_path, "key.txt", "\n".join(CONLL.split("\n")[1:-2]) + "\n")
    assert "fastscore coref" in str(_parse_error(read_tbf, p))
    assert "token line outside a document" in str(_parse_error(read_conll, p))  # its own format: old message


@pytest.mark.parametrize("reader", [read_conll, read_tbf])
def test_conllu_is_named_as_corefud_with_its_command(tmp_path, reader):
    err = _parse_error(reader, _write(tmp_path, "gum.conllu", CONLLU))
    assert err.line == 1
    assert "CoNLL-U coreference (CorefUD)" in str(err) and "fastscore coref --format conllu" in str(err)


def test_conllu_token_lines_alone_are_recognised():
    assert sniff_format(CONLLU.split("\n", 3)[3]).format == "conllu"


@pytest.mark.parametrize("reader", [read_conll, read_tbf])
def test_jsonlines_is_named_with_its_command(tmp_path, reader):
    err = _parse_error(reader, _write(tmp_path, "dev.jsonl", JSONL))
    assert err.line == 1
    assert "jsonlines coreference" in str(err) and "--format jsonl" in str(err)


@pytest.mark.parametrize("reader", [read_conll, read_tbf])
@pytest.mark.parametrize("text, line, command", [
    (TIMEML, 2, "fastscore temporal"), ("\n<TimeML>\n", 2, "fastscore temporal"),
    ("<NAF>\n", 1, "fastscore coref --format naf"),
    ('<?xml version="1.0"?>\n<!-- c -->\n<KAF>\n', 3, "fastscore triples"), ("<triples>\n", 1, "fastscore triples"),
    ('<?xml version="1.0"?>\n<other/>\n', 2, "no fastscore command reads it")])
def test_xml_is_named_with_the_command_that_reads_it(tmp_path, reader, text, line, command):
    err = _parse_error(reader, _write(tmp_path, "doc.tml", text))
    assert err.line == line
    assert command in str(err)


@pytest.mark.parametrize("reader, text, fragment", [
    (read_conll, "hello\n", "token line outside a document"),
    (read_conll, "", 'no "#begin document" line'),
    (read_tbf, "hello\n", 'line outside a document: add a "#BeginOfDocument ID" line'),
    (read_tbf, "# a comment\n", 'no "#BeginOfDocument" line'),
])
def test_unknown_text_keeps_the_old_messages(tmp_path, reader, text, fragment):
    assert fragment in str(_parse_error(reader, _write(tmp_path, "f.txt", text)))


def test_gzip_conll_scores_like_the_plain_file(tmp_path):
    key, response = _write(tmp_path, "key.conll", CONLL), _write(tmp_path, "response.conll", RESPONSE)
    zkey = _write(tmp_path, "key.data", gzip.compress(CONLL.encode()))  # the magic bytes decide, not the name
    zresponse = _write(tmp_path, "response.conll.gz", gzip.compress(b"\xef\xbb\xbf" + RESPONSE.encode()))
    plain, packed = read_conll(key), read_conll(zkey)
    assert packed.doc_names == plain.doc_names and packed.cluster_labels == plain.cluster_labels
    np.testing.assert_array_equal(packed.start, plain.start)
    np.testing.assert_array_equal(packed.end, plain.end)
    np.testing.assert_array_equal(packed.cluster, plain.cluster)
    # (the response's byte-order mark read as meant: v8.01 would miss its first document, issue 36)
    assert (fastscore.score_coref(zkey, zresponse, fix_scorer_quirks=True).scores()
            == fastscore.score_coref(key, response).scores())


def test_gzip_tbf_scores_like_the_plain_file(tmp_path):
    gold, system = _write(tmp_path, "gold.tbf", TBF), _write(tmp_path, "system.tbf", SYSTEM)
    zgold = _write(tmp_path, "gold.tbf.gz", gzip.compress(TBF.encode()))
    zsystem = _write(tmp_path, "system.tbf.gz", gzip.compress(SYSTEM.encode()))
    plain_file, packed_file = read_tbf(gold), read_tbf(zgold)
    assert list(packed_file.documents) == list(plain_file.documents)
    assert (packed_file.ids, packed_file.spans, packed_file.types, packed_file.realis) == (
        plain_file.ids, plain_file.spans, plain_file.types, plain_file.realis)
    plain = fastscore.score_nugget(gold, system, preset="kbp2016", coref=True).to_dict()
    packed = fastscore.score_nugget(zgold, zsystem, preset="kbp2016", coref=True).to_dict()
    assert packed["metrics"] == plain["metrics"] and packed["coref"] == plain["coref"]


@pytest.mark.parametrize("reader", [read_conll, read_tbf])
@pytest.mark.parametrize("damage, reason", [(lambda z: z[:-12], "truncated"),
                                            (lambda z: z[:-8] + b"\0\0\0\0" + z[-4:], "CRC")])
def test_corrupt_gzip_is_a_clear_parse_error(tmp_path, reader, damage, reason):
    p = _write(tmp_path, "key.conll.gz", damage(gzip.compress(CONLL.encode())))
    err = _parse_error(reader, p)
    assert err.path == str(p) and err.line is None
    assert "corrupt gzip file" in str(err) and reason in str(err)


def _stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(data)))


def test_stdin_is_read_by_both_readers(tmp_path, monkeypatch):
    _stdin(monkeypatch, CONLL.encode())
    table = read_conll("-")
    assert table.path == "<stdin>" and table.doc_names == ["(d); part 000"]
    _stdin(monkeypatch, gzip.compress(TBF.encode()))
    tbf = read_tbf("-")
    assert tbf.path == "<stdin>" and list(tbf.documents) == ["d1"]


def test_stdin_messages_name_stdin(monkeypatch):
    _stdin(monkeypatch, TBF.encode())
    err = _parse_error(read_conll, "-")
    assert str(err).startswith("<stdin>:1: this looks like a TBF event nugget file")
    _stdin(monkeypatch, b"#BeginOfDocument d1\n\xff\n")
    assert str(_parse_error(read_tbf, "-")).startswith("<stdin>:2: invalid UTF-8 byte 0xff")


def test_stdin_twice_is_a_usage_error(tmp_path, monkeypatch, capsys):
    _stdin(monkeypatch, CONLL.encode())
    with pytest.raises(UsageError, match="standard input can be read only once"):
        fastscore.score_coref("-", "-")
    _stdin(monkeypatch, CONLL.encode())
    assert main(["coref", "-", "-"]) == 2
    assert "standard input can be read only once" in capsys.readouterr().err


def test_stdin_as_response_scores_like_the_file(tmp_path, monkeypatch):
    key, response = _write(tmp_path, "key.conll", CONLL), _write(tmp_path, "response.conll", RESPONSE)
    _stdin(monkeypatch, RESPONSE.encode())
    assert fastscore.score_coref(key, "-").scores() == fastscore.score_coref(key, response).scores()


def test_cli_tbf_to_coref_exits_1_with_one_line_naming_fastscore_nugget(tmp_path, capsys):
    gold = _write(tmp_path, "gold.tbf", TBF)
    assert main(["coref", str(gold), str(gold)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith(f"fastscore: error: {gold}:1: ")
    assert '"fastscore nugget"' in captured.err
