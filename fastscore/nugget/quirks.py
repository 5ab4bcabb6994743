"""How EvmEval misreads some inputs, so that fastscore prints its figures and says so (issue 36).

``read_docs_with_doc_id_and_name`` (scorer_v1.7.1 and v1.8) reads bytes: a UTF-8 byte-order mark before
``#BeginOfDocument`` makes the first line a mention line of a document named "" and the first document's
lines go to that document.  In a system file, the first document is then scored as empty; in a gold file, the
document "" is scored (its first line has too few fields, or it has no token table): EvmEval exits 1.  Each case is warned;
``--fix-evmeval-quirks`` reads the file as it is meant (the mark dropped), without a warning.
"""
from __future__ import annotations

from dataclasses import replace

from ..formats.tbf import TbfFile
from ..messages import shown
from .options import Options

FIX = "--fix-evmeval-quirks"


def evmeval_reading(gold: TbfFile, system: TbfFile, opts: Options) -> tuple[TbfFile, list[str]]:
    """The system file as EvmEval reads it, and the warnings about what EvmEval misreads in either file."""
    notes = list(opts.notes)
    if opts.fix_evmeval_quirks:
        return system, notes
    if gold.bom and gold.documents:
        notes.append(f"{gold.path}, line 1: a byte-order mark starts the file: EvmEval fails on this gold file (it "
                     f"reads the line as a mention line of a document without id, then exits 1); scored without the mark (as "
                     f"{FIX} does)")
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
