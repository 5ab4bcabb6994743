"""How EvmEval misreads some inputs, so that fastscore prints its figures and says so (issue 36).

``read_docs_with_doc_id_and_name`` (scorer_v1.7.1 and v1.8) reads bytes: a UTF-8 byte-order mark before
``#BeginOfDocument`` makes the first line a mention line of a document named "" and the first document's
lines go to that document.  In a system file, the first document is then scored as empty; in a gold file, the
document "" is scored (its first line has too few fields, or it has no token table): EvmEval exits 1.  Each
case is warned; ``--fix-evmeval-quirks`` reads the file as it is meant (the mark dropped), without a warning.
The same for Unicode white space at the ends of lines, which Python 2's ``strip`` keeps, and for lines outside a
document or a stray or missing ``#EndOfDocument`` (``formats/tbf._Documents`` reads them as EvmEval does; under
``--fix-evmeval-quirks`` they are refused, as before).
"""
from __future__ import annotations

from dataclasses import replace

from ..errors import ParseError
from ..formats.tbf import Relation, TbfFile
from ..messages import shown
from .options import Options

FIX = "--fix-evmeval-quirks"


def evmeval_reading(gold: TbfFile, system: TbfFile, opts: Options) -> tuple[TbfFile, list[str]]:
    """The system file as EvmEval reads it, and the warnings about what EvmEval misreads in either file."""
    notes = list(opts.notes)
    files = (gold, system) if system is not gold else (gold,)
    if opts.fix_evmeval_quirks:  # the file read as written: its stray structure lines refused, as before
        for tbf in files:
            if tbf.evmeval_structure:
                raise tbf.evmeval_structure[0][1]
        return system, notes
    for tbf in files:
        notes += [warning for warning, _ in tbf.evmeval_structure]
    for tbf in files:
        notes += _unicode_blank_notes(tbf)
    if gold.bom and gold.documents:
        notes.append(f"{gold.path}, line 1: a byte-order mark starts the file: EvmEval fails on this gold file (it "
                     "reads the line as a mention line of a document without id, then exits 1); scored without the "
                     f"mark (as {FIX} does)")
    first = next(iter(system.documents), None) if system.bom else None
    if first is not None and first in gold.documents:
        if system.documents[first].line != 1:
            notes.append(f"{system.path}, line 1: a byte-order mark starts the file: EvmEval fails on it (it reads "
                         f"the line as a mention line of document \"{shown(first)}\", then exits 1); "
                         f"scored without the mark (as {FIX} does)")
        else:
            notes.append(f"{system.path}, line 1: a byte-order mark before \"#BeginOfDocument\": EvmEval does not "
                         f"see the document \"{shown(first)}\" begin and scores it as empty (as here); {FIX} reads it")
            documents = dict(system.documents)
            documents[first] = replace(documents[first], end=documents[first].start, relations=[])
            system = replace(system, documents=documents)
    return system, notes


def _unicode_blank_notes(tbf: TbfFile) -> list[str]:
    """Warnings about lines whose edges hold Unicode white space, which Python 2's ``strip`` keeps."""
    notes = []
    blank = [line for line, kind in tbf.unicode_blanks if kind == "blank"]
    edge = [line for line, kind in tbf.unicode_blanks if kind == "edge"]
    if blank:
        notes.append(f"{tbf.path}, line {blank[0]}: {len(blank)} line(s) of Unicode white space only: EvmEval "
                     "fails on them where their document is scored (Python 2 keeps U+00A0 and the like: a mention "
                     "line with too few fields, exit 1); skipped here")
    if edge:
        notes.append(f"{tbf.path}, line {edge[0]}: {len(edge)} line(s) start or end with Unicode white space "
                     "(U+00A0 and the like), which EvmEval keeps: read as it reads them (a document id, mention id "
                     f"or realis with it is another one); {FIX} strips it")
    return notes


def fixed_reading(tbf: TbfFile) -> TbfFile:
    """``--fix-evmeval-quirks``: document ids, relation fields, types and realis without the Unicode white space
    at their edges that EvmEval keeps (the file read as it is meant)."""
    if not any(kind == "edge" for _, kind in tbf.unicode_blanks):
        return tbf
    documents = {}
    for name, d in tbf.documents.items():
        name = name.strip()
        if name in documents:
            raise ParseError(tbf.path, d.line, f"the same document appears twice (first at line "
                                               f"{documents[name].line}) once its white space is stripped", name)
        relations = [Relation(r.name.strip(), r.id.strip(), [a.strip() for a in r.args], r.line)
                     for r in d.relations]
        documents[name] = replace(d, id=name, relations=relations)
    out = replace(tbf, documents=documents, types=[t.strip() for t in tbf.types],
                  realis=[r.strip() for r in tbf.realis], type_codes=None, realis_codes=None)
    for d in documents.values():
        d.file = out
    return out
