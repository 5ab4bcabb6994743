"""No output lands on an input, and no document id steers a write (issue 35, items 4 and 5).

Every refusal happens before anything is read: exit 1, one line naming the output and the input, the input's
bytes unchanged.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import unquote

import pytest

from fastscore.cli import main
from fastscore.errors import OutputError

EXAMPLES = Path(__file__).resolve().parent.parent / "fastscore" / "examples"


@pytest.fixture
def files(tmp_path, monkeypatch):
    """The bundled examples, copied into a working folder that is the current one."""
    for src, name in ((EXAMPLES / "key.conll", "key.conll"), (EXAMPLES / "response.conll", "response.conll"),
                      (EXAMPLES / "nugget" / "key.tbf", "k.tbf"), (EXAMPLES / "nugget" / "response.tbf", "r.tbf"),
                      (EXAMPLES / "corefud" / "key.conllu", "key.conllu")):
        shutil.copyfile(src, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _refused(argv: list[str], output: str, given: str, capsys) -> str:
    """The command exits 1 with one line naming the output and the input, whose bytes stay as they were."""
    before = Path(given).read_bytes() if Path(given).is_file() else None
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and output in err and given in err, err
    if before is not None:
        assert Path(given).read_bytes() == before
    return err


# ---- the four commands of the issue

def test_explain_html_onto_the_key(files, capsys):
    _refused(["explain", "key.conll", "response.conll", "--output", "html", "key.conll"], "key.conll", "key.conll",
             capsys)


def test_nugget_diff_onto_the_key(files, capsys):
    _refused(["nugget", "k.tbf", "r.tbf", "--char-spans", "--diff", "k.tbf"], "k.tbf", "k.tbf", capsys)


SYSTEM_JSONL = ('{"doc_key": "example", "sentences": [["Maria", "bought", "a", "bike", "yesterday", "that", "she", '
                '"had", "wanted", "for", "years", "."], ["She", "rode", "it", "home", "and", "showed", "it", "to", '
                '"Tom", "."]], "clusters": [[[0, 0], [6, 6], [12, 12]], [[14, 14], [18, 18]]]}\n')


def test_convert_onto_its_template(files, capsys):
    Path("sys.jsonl").write_text(SYSTEM_JSONL)  # the words of key.conllu: it converts onto it as its template
    _refused(["convert", "sys.jsonl", "key.conllu", "--to", "conllu", "--template", "key.conllu"], "key.conllu",
             "key.conllu", capsys)


def test_convert_onto_its_input(files, capsys):
    _refused(["convert", "key.conll", "key.conll", "--to", "jsonl"], "key.conll", "key.conll", capsys)


# ---- the same file by another name

def test_symbolic_link_to_an_input(files, capsys):
    os.symlink("key.conll", "link.conll")
    err = _refused(["convert", "key.conll", "link.conll", "--to", "jsonl"], "link.conll", "key.conll", capsys)
    assert "symbolic link" in err
    assert os.path.islink("link.conll")


def test_hard_link_to_an_input(files, capsys):
    os.link("k.tbf", "hard.tbf")
    err = _refused(["nugget", "k.tbf", "r.tbf", "--char-spans", "--diff", "hard.tbf"], "hard.tbf", "k.tbf", capsys)
    assert "hard link" in err


def test_symbolic_link_to_a_folder_on_the_way(files, capsys):
    os.mkdir("data")
    shutil.move("key.conll", "data/key.conll")
    os.symlink("data", "alias")
    _refused(["explain", "data/key.conll", "response.conll", "-o", "html", "alias/key.conll"], "alias/key.conll",
             "data/key.conll", capsys)


def test_an_input_given_as_an_option(files, capsys):
    """An option that names a file read (the type whitelist) is an input like the positional ones."""
    Path("types.txt").write_text("Personnel_Nominate\n")
    _refused(["nugget", "k.tbf", "r.tbf", "--char-spans", "--type-whitelist", "types.txt", "--diff", "types.txt"],
             "types.txt", "types.txt", capsys)


def test_standard_output_appended_to_an_input(files, capsys, monkeypatch):
    """``fastscore coref key.conll response.conll >> key.conll``: the report would end up in the key."""
    before = Path("key.conll").read_bytes()
    with open("key.conll", "a") as fh:
        monkeypatch.setattr("sys.stdout", fh)
        assert main(["coref", "key.conll", "response.conll"]) == 1
    assert Path("key.conll").read_bytes() == before
    assert "standard output is the input file key.conll" in capsys.readouterr().err


# ---- folders and patterns of shards: an output there would be read as a shard by the next run

def test_output_inside_an_input_folder(files, capsys):
    os.mkdir("gold")
    shutil.copyfile("k.tbf", "gold/a.tbf")
    _refused(["nugget", "gold", "r.tbf", "--char-spans", "--diff", "gold/b.tbf"], "gold/b.tbf", "gold", capsys)
    assert sorted(os.listdir("gold")) == ["a.tbf"]


def test_output_matched_by_an_input_pattern(files, capsys):
    os.mkdir("gold")
    shutil.copyfile("k.tbf", "gold/a.tbf")
    _refused(["nugget", "gold/*.tbf", "r.tbf", "--char-spans", "--diff", "gold/new.tbf"], "gold/new.tbf",
             "gold/*.tbf", capsys)
    assert not os.path.exists("gold/new.tbf")


def test_timeml_folder_holding_an_input(files, capsys):
    os.makedirs("out/After/gold")
    shutil.copyfile("k.tbf", "out/After/gold/k.tbf")
    _refused(["nugget", "out/After/gold/k.tbf", "r.tbf", "--char-spans", "--preset", "kbp2016", "--sequencing",
              "--timeml", "out"], "out", "out/After/gold/k.tbf", capsys)


def test_outputs_elsewhere_are_written(files, capsys):
    assert main(["nugget", "k.tbf", "r.tbf", "--char-spans", "--diff", "diff.txt"]) == 0
    assert Path("diff.txt").read_text().startswith("#BeginOfDocument")


# ---- the API's writers check too

def test_api_convert_refuses_its_input(files):
    from fastscore.coref.convert import convert

    before = Path("key.conll").read_bytes()
    with pytest.raises(OutputError, match="key.conll"):
        convert("key.conll", "key.conll", "jsonl")
    assert Path("key.conll").read_bytes() == before


def test_triples_folder_onto_itself(tmp_path):
    from fastscore.triples.convert import convert

    naf = tmp_path / "naf"
    naf.mkdir()
    (naf / "a.naf").write_text("<NAF/>")
    with pytest.raises(OutputError, match="the output is the input folder"):
        convert(naf, naf)
    with pytest.raises(OutputError, match="inside the input folder"):
        convert(naf, naf / "out")
    assert sorted(os.listdir(naf)) == ["a.naf"]


def test_refusal_before_reading(tmp_path):
    """The check needs no readable input: it compares paths and inodes only."""
    from fastscore.outputs import refuse_outputs_on_inputs

    key = tmp_path / "key.conll"
    key.write_bytes(b"\xff not a CoNLL file")
    with pytest.raises(OutputError):
        refuse_outputs_on_inputs([key], [key])
    refuse_outputs_on_inputs([key, None, "-"], ["-", None, tmp_path / "other.conll"])  # nothing to refuse


# ---- --timeml: one file per document, named from its id

HOSTILE = ["../x", "/abs/pwned", "a/b", ".", "..", "c\x01d\x1b[31m", "tab\there", "per%41cent", "Ünïcode",
           "back\\slash", "CON", "ok-id_1.2"]


def _tbf(ids: list[str]) -> str:
    return "".join(f"#BeginOfDocument {d}\nsys\t{d}\tE1\t0,4\tmade\tMovement_Transport-Person\tActual\n"
                   f"sys\t{d}\tE2\t5,8\tway\tMovement_Transport-Person\tActual\n@After\tA1\tE1,E2\n#EndOfDocument\n"
                   for d in ids)


def _timeml(tmp_path: Path, ids: list[str]) -> list[str]:
    run = tmp_path / "run"
    run.mkdir()
    (run / "k.tbf").write_text(_tbf(ids))
    return ["nugget", str(run / "k.tbf"), str(run / "k.tbf"), "--char-spans", "--preset", "kbp2016", "--sequencing",
            "--timeml", str(run / "out"), "-o", "json"]


def test_timeml_hostile_ids_stay_inside(tmp_path, capsys):
    ids = [d for d in HOSTILE if "\t" not in d]  # a TAB cannot be in a TBF id (it separates the fields)
    argv = _timeml(tmp_path, ids)
    before = {p for p in tmp_path.rglob("*")}
    assert main(argv) == 0, capsys.readouterr().err
    written = {p for p in tmp_path.rglob("*")} - before
    out = tmp_path / "run" / "out"
    assert all(p == out or out in p.parents for p in written)
    assert not os.path.exists("/abs/pwned.tml")
    for kind in ("After", "Subevent", "All"):
        for sub in ("gold", "sys"):
            names = sorted(os.listdir(out / kind / sub))
            assert len(names) == len(ids)  # one file each: no two documents share one
            assert sorted(unquote(n[: -len(".tml")]) for n in names) == sorted(ids)  # reversible
            assert not any(n.startswith(".") for n in names)
        assert (out / kind / "seq.out").is_file()


def test_timeml_file_names():
    from fastscore.outputs import file_name_of

    assert file_name_of("ENG_NW_001278_20130418_F00012ERM") == "ENG_NW_001278_20130418_F00012ERM"  # as EvmEval
    assert file_name_of("../x") == "%2E.%2Fx"
    assert file_name_of("..") == "%2E."
    assert file_name_of("/abs") == "%2Fabs"
    assert file_name_of("CON") == "%43ON"
    for doc_id in HOSTILE:
        name = file_name_of(doc_id)
        assert unquote(name) == doc_id and "/" not in name and "\\" not in name and name not in (".", "..")
        assert all(32 < ord(c) < 127 for c in name)


def test_timeml_ids_differing_in_case_refused(tmp_path, capsys):
    argv = _timeml(tmp_path, ["DocA", "doca"])
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "'DocA' and 'doca'" in err and "case-insensitive" in err
    assert not (tmp_path / "run" / "out").exists()


def test_timeml_link_in_the_folder_is_replaced_not_followed(tmp_path, capsys):
    argv = _timeml(tmp_path, ["d1"])
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    where = tmp_path / "run" / "out" / "After" / "gold"
    where.mkdir(parents=True)
    os.symlink(victim, where / "d1.tml")
    assert main(argv) == 0, capsys.readouterr().err
    assert victim.read_text() == "keep me"
    assert not os.path.islink(where / "d1.tml") and "<TimML" in (where / "d1.tml").read_text()


@pytest.mark.parametrize("doc_id", ["../x", "/etc/passwd", "a/../../x"])
def test_token_table_never_read_outside_the_token_folder(tmp_path, capsys, doc_id):
    (tmp_path / "tok").mkdir()
    tbf = tmp_path / "k.tbf"
    tbf.write_text(f"#BeginOfDocument {doc_id}\nsys\t{doc_id}\tE1\tt1\tmade\tMovement_Transport-Person\tActual\n"
                   "#EndOfDocument\n")
    assert main(["nugget", str(tbf), str(tbf), "--tokens", str(tmp_path / "tok")]) == 1
    err = capsys.readouterr().err
    assert "outside the token folder" in err and repr(doc_id) in err


def test_every_option_naming_a_file_declares_it():
    """An option whose value is a file or folder says whether it is read or written (Option.path): the command
    line's check knows every input and output, for the tasks and converters to come too."""
    from fastscore.tasks import TASKS

    options = [o for t in TASKS.values() for o in (*t.options, *(t.converter.options if t.converter else ()))]
    for o in options:
        if o.metavar and any(w in o.metavar for w in ("FILE", "DIR")):
            assert o.path, f"{o.flags[0]} names a file: declare path='input', 'output' or 'folder'"
