"""The gold/system comparison file of EvmEval's ``-d`` option (span mapping, then clusters)."""
from __future__ import annotations

import os

from ..outputs import open_output
from .engine import _chars


def _spans(result, side, doc_id: str, row: int) -> str:
    if result.options.token_mode:
        return side.file.spans[row]  # the token ids as written, invisible ones included
    return ",".join(str(c) for c in _chars(side.file, doc_id, row))


def _info(result, doc_id: str, side, k: int) -> str:
    f, row = side.file, side.rows[k]
    if result.options.preset.raw_type_names:  # v1.7.1: raw attributes, no text
        return f"{f.ids[row]}\t{_spans(result, side, doc_id, row)}\t{f.types[row]}\t{f.realis[row]}"
    return f"{f.ids[row]}\t{_spans(result, side, doc_id, row)}\t{side.types[k]}\t{side.realis[k]}\t{f.texts[row]}"


def write_diff(result, path: str) -> None:
    run = os.path.basename(result.system.path)
    lines = []
    for d, doc_id in enumerate(result.documents):
        gold, system = result.prepared.gold[d], result.prepared.system[d]
        lines.append(f"#BeginOfDocument {doc_id}\n")
        mapped = set()
        for i, (j, score) in enumerate(zip(result.aligned.map_sys[d][0], result.aligned.map_score[d][0])):
            g_info = _info(result, doc_id, gold, i)
            if j >= 0:
                mapped.add(int(j))
                lines.append(f"{run}\t{g_info}\t|\t{_info(result, doc_id, system, int(j))}"
                             f"\t{score:.2f}\n")
            else:
                lines.append(f"{run}\t{g_info}\t|\t-\t-\n")
        for j in range(len(system)):
            if j not in mapped:
                lines.append(f"{run}\t-\t|\t{_info(result, doc_id, system, j)}\t-\n")
        if result.options.coref:
            for who, side, corefs in (("gold", gold, result.prepared.gold_corefs[d]),
                                      ("system", system, result.prepared.system_corefs[d])):
                text = {side.file.ids[r]: side.file.texts[r] for r in side.rows}
                for r in corefs:
                    members = ",".join(f"{a}:{text[a].replace(',', '')}" for a in r.args)
                    lines.append(f"@coref\t{who}\t{members}\n")
        lines.append("#EndOfDocument \n")
    with open_output(path) as fh:
        fh.writelines(lines)
