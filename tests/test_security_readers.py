"""Readers on inputs that fooled the format guess or the reading itself (issue 35, items 9 and 10): XML whose
root element lies behind a DOCTYPE with an internal subset, a UTF-16 byte-order mark or a long comment; XML of
no known kind; entities that expand without bound; pipes and FIFOs, which can be read only once; and
explain's work on a response that merges many entities."""
import os
import sys
import threading
from pathlib import Path

import pytest

from fastscore import score
from fastscore.cli import main
from fastscore.errors import ParseError
from fastscore.examples import example
from fastscore.formats.timeml import read_timeml
from fastscore.formats.triples import read_triples, write_triples
from fastscore.triples.convert import convert, naf_to_triples

NAF = """<?xml version="1.0" encoding="UTF-8"?>
<NAF version="v3"><text><wf id="w1">Anna</wf><wf id="w2">ran</wf><wf id="w3">home</wf></text>
<terms><term id="t1"><span><target id="w1"/></span></term><term id="t2"><span><target id="w2"/></span></term>
<term id="t3"><span><target id="w3"/></span></term></terms>
<entities><entity id="e1" type="PER"><references><span><target id="t1"/></span></references></entity></entities>
<srl><predicate id="pr1"><span><target id="t2"/></span><role id="r1" semRole="A0"><span><target id="t1"/></span>
</role><role id="r2" semRole="AM-DIR"><span><target id="t3"/></span></role></predicate></srl></NAF>
"""


def _variant(text: str, kind: str, root: str) -> bytes:
    """``text`` (an XML document with an UTF-8 declaration, or none) as the variant ``kind``."""
    if kind == "doctype":  # an internal subset declaring an entity the document uses
        return text.replace(root, f'<!DOCTYPE X [ <!ENTITY nm "Anna"> <!ELEMENT y ANY> ]>\n{root}', 1).replace(
            ">Anna<", ">&nm;<").encode()
    if kind == "utf16":
        declared = text.replace('encoding="UTF-8"', 'encoding="UTF-16"')
        return b"\xff\xfe" + declared.encode("utf-16-le")
    if kind == "comment":  # past the 4 KB that were looked at
        return text.replace(root, "<!--" + "c" * 5000 + "-->\n" + root, 1).encode()
    assert kind == "instruction"
    return text.replace(root, '<?stylesheet href="x"?>\n' + root, 1).encode()


VARIANTS = ["doctype", "utf16", "comment", "instruction"]


@pytest.mark.parametrize("kind", VARIANTS)
def test_naf_variants_convert_to_the_plain_files_triples(tmp_path, kind):
    (tmp_path / "plain.naf").write_text(NAF, encoding="utf-8")
    (tmp_path / "variant.naf").write_bytes(_variant(NAF, kind, "<NAF"))
    convert(tmp_path / "plain.naf", tmp_path / "plain.trp")
    convert(tmp_path / "variant.naf", tmp_path / "variant.trp")
    plain = (tmp_path / "plain.trp").read_bytes()
    assert b"<triple " in plain and (tmp_path / "variant.trp").read_bytes() == plain


@pytest.mark.parametrize("kind", VARIANTS)
def test_naf_variants_are_scored_with_layers_and_as_coreference(tmp_path, kind):
    (tmp_path / "plain.naf").write_text(NAF, encoding="utf-8")
    (tmp_path / "variant.naf").write_bytes(_variant(NAF, kind, "<NAF"))
    result = score(tmp_path / "variant.naf", tmp_path / "plain.naf", task="triples", layers=["entity", "srl"])
    assert result.to_dict()["metrics"] == score(tmp_path / "plain.naf", tmp_path / "plain.naf", task="triples",
                                                layers=["entity", "srl"]).to_dict()["metrics"]
    from fastscore.coref.score import detect_format

    assert detect_format(tmp_path / "variant.naf") == "naf"


@pytest.mark.parametrize("kind", VARIANTS)
def test_timeml_and_triple_variants_read_as_the_plain_files(tmp_path, kind):
    tml = example("temporal").key.read_text(encoding="utf-8")
    (tmp_path / "key.tml").write_bytes(_variant(tml.replace(">company<", ">Anna<"), kind, "<TimeML"))
    (tmp_path / "plain" / "key.tml").parent.mkdir()
    (tmp_path / "plain" / "key.tml").write_text(tml.replace(">company<", ">Anna<"), encoding="utf-8")
    assert read_timeml(tmp_path / "key.tml").documents["key.tml"].text == \
        read_timeml(tmp_path / "plain" / "key.tml").documents["key.tml"].text
    trp = example("triples").key.read_text(encoding="utf-8")
    (tmp_path / "key.trp").write_bytes(_variant(trp, kind, "<triples"))
    read = list(read_triples(tmp_path / "key.trp").documents.values())
    if kind == "utf16":  # the module reads UTF-8 whatever the file declares: no triples (--fix-module-quirks: all)
        assert not read[0].ids and read[0].warnings
        read = [d.fixed for d in read]
    assert [write_triples(d) for d in read] == \
        [write_triples(d) for d in read_triples(example("triples").key).documents.values()]


def test_xml_of_no_known_kind_is_refused_naming_its_root(tmp_path, capsys):
    (tmp_path / "foo.xml").write_text("<foo/>", encoding="utf-8")
    with pytest.raises(ParseError, match=r"foo\.xml:1: root element <foo> .*not a NAF/KAF document"):
        convert(tmp_path / "foo.xml", tmp_path / "foo.trp")
    assert main(["convert", str(tmp_path / "foo.xml"), str(tmp_path / "out.trp"), "--to", "triples"]) == 1
    assert "<foo>" in capsys.readouterr().err
    assert not (tmp_path / "foo.trp").exists() and not (tmp_path / "out.trp").exists()


def _laughs(levels: int) -> str:
    entities = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, levels))
    return f'<!DOCTYPE NAF [<!ENTITY l0 "lol">{entities}]>\n'


@pytest.mark.parametrize("doctype, problem", [
    (_laughs(10), 'entity "l1" is defined by other entities'),  # 10^9 characters: the billion laughs
    ('<!DOCTYPE NAF [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n', 'entity "x" names an external file'),
])
def test_entities_that_expand_without_bound_are_refused(tmp_path, doctype, problem):
    use = "&l9;" if "l9" in doctype else "&x;"
    (tmp_path / "x.naf").write_text(NAF.replace("<NAF", doctype + "<NAF").replace(">Anna<", f">{use}<"),
                                    encoding="utf-8")
    for read in (naf_to_triples, read_triples):
        with pytest.raises(ParseError, match=problem):
            read(tmp_path / "x.naf")
    with pytest.raises(ParseError, match=problem):
        convert(tmp_path / "x.naf", tmp_path / "x.trp")


# ---- pipes: read once


def _through_fifo(tmp_path, source, call, timeout: float = 30):
    """``call(fifo)`` while a thread writes ``source``'s bytes into a FIFO named as ``source``; fails (rather
    than hangs) when the FIFO is opened again after its writer is done."""
    fifo = tmp_path / "fifo" / os.path.basename(source)
    fifo.parent.mkdir(exist_ok=True)
    os.mkfifo(fifo)
    data = Path(source).read_bytes()

    def write():
        try:
            with open(fifo, "wb") as fh:
                fh.write(data)
        except BrokenPipeError:  # the reader refused the input unread: released below
            pass

    out: dict = {}

    def run():
        try:
            out["result"] = call(str(fifo))
        except BaseException as exc:  # noqa: BLE001 - reported by the test's thread
            out["error"] = exc

    writer = threading.Thread(target=write, daemon=True)
    reader = threading.Thread(target=run, daemon=True)
    writer.start()
    reader.start()
    reader.join(timeout)
    if reader.is_alive():  # release a reader blocked opening the FIFO again: it sees an empty file
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        reader.join(10)
        pytest.fail(f"reading the FIFO {fifo} did not end in {timeout} s (opened twice?)")
    if writer.is_alive():  # an input refused unread leaves the writer waiting for a reader (a thread left behind
        # makes later tests' process pools start by forkserver): a reader comes and goes, and the writer ends
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        writer.join(10)
    if "error" in out:
        raise out["error"]
    return out["result"]


def _numbers(result) -> dict:
    return {k: v for k, v in result.to_dict().items() if k not in ("gold", "system", "key", "response", "warnings")}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("name", ["coref", "corefud", "nugget", "temporal", "triples"])
def test_a_fifo_input_scores_as_its_file(tmp_path, name):
    ex = example(name)
    expected = _numbers(score(ex.key, ex.response, task=ex.task, **ex.options))
    got = _through_fifo(tmp_path, ex.key, lambda fifo: score(fifo, ex.response, task=ex.task, **ex.options))
    assert _numbers(got) == expected


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("name", ["coref", "corefud"])
def test_a_fifo_input_is_explained_as_its_file(tmp_path, name):
    ex = example(name)  # CoNLL-U: its sentences are read beside its mentions
    expected = _numbers(score(ex.key, ex.response, task="explain"))
    assert _numbers(_through_fifo(tmp_path, ex.key, lambda fifo: score(fifo, ex.response, task="explain"))) == expected


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_coreference_conversion_refuses_a_fifo_it_would_read_twice(tmp_path):
    from fastscore.coref.convert import convert as convert_coref
    from fastscore.errors import UsageError

    with pytest.raises(UsageError, match="reads its input twice.*not a pipe"):
        _through_fifo(tmp_path, example("corefud").key, lambda fifo: convert_coref(fifo, tmp_path / "x.jsonl", "jsonl"))
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_naf_converts_as_its_file(tmp_path):
    (tmp_path / "in.naf").write_bytes(_variant(NAF, "comment", "<NAF"))
    convert(tmp_path / "in.naf", tmp_path / "file.trp")
    _through_fifo(tmp_path, tmp_path / "in.naf", lambda fifo: convert(fifo, tmp_path / "fifo.trp"))
    assert (tmp_path / "fifo.trp").read_bytes() == (tmp_path / "file.trp").read_bytes()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_in_a_folder_or_glob_of_shards_is_refused_not_opened(tmp_path, capsys):
    os.mkfifo(tmp_path / "a.conll")  # no writer: opening it would wait for ever
    key = str(example("coref").key)
    assert main(["coref", str(tmp_path / "*.conll"), key]) == 1  # named like a shard, no file: said, not left out
    assert "a.conll: not a regular file" in capsys.readouterr().err
    assert main(["coref", str(tmp_path), key]) == 1
    assert "a.conll: not a regular file" in capsys.readouterr().err


# ---- explain: work that grows with the mentions


def _merged_response(tmp_path, n: int):
    """A key of ``n`` four-mention entities (interleaved, some pronouns) and a response merging them all."""
    order = [e for _ in range(4) for e in range(n)]
    for name, label in (("key", None), ("response", 0)):
        lines = ["#begin document (d); part 000"]
        for i, e in enumerate(order):
            word = "he" if i % 7 == 3 else f"w{i}"
            lines.append(f"d\t0\t{i % 20}\t{word}\t({e if label is None else label})")
            if i % 20 == 19:
                lines.append("")
        (tmp_path / f"{name}.conll").write_text("\n".join(lines) + "\n\n#end document\n", encoding="utf-8")
    from fastscore.explain.documents import read_conll_sides, read_sides

    read = read_conll_sides(str(tmp_path / "key.conll"), str(tmp_path / "response.conll"))
    (doc,), _ = read_sides(str(tmp_path / "key.conll"), str(tmp_path / "response.conll"), "conll2012", read)
    return doc


def _classified_lines(doc) -> tuple[int, list]:
    """The lines of fastscore/explain/analyser.py run to classify ``doc`` (the work, counted without a clock)."""
    from fastscore.explain import analyser

    count = 0

    def local(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return local

    def calls(frame, event, arg):
        return local if frame.f_code.co_filename == analyser.__file__ else None

    sys.settrace(calls)
    try:
        errors = analyser.classify(doc, doc.response)
    finally:
        sys.settrace(None)
    return count, errors


def test_explain_work_grows_linearly_with_a_merged_response(tmp_path):
    """The operations of a confusion group used to pair every key entity with every part (quadratic: 28 s for
    10,000 merged entities where coref takes 2 s)."""
    small, errors = _classified_lines(_merged_response(tmp_path, 100))
    large, more_errors = _classified_lines(_merged_response(tmp_path, 400))
    assert (len(errors), len(more_errors)) == (99, 399)  # a conflated part per key entity but the first
    assert large < 6 * small, (small, large)  # 4x the mentions: about 4x the work (quadratic work: 16x)


