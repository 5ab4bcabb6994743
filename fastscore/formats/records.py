"""Event nugget mentions from memory: a list of mention records as the :class:`TbfFile` of the TBF file they
would be written as (so that ``score_nugget`` scores records exactly as it scores files).

A record is a mapping with ``doc``, ``id``, ``tokens``, ``type``, ``realis`` and, optionally, ``text`` and
``cluster`` — or a tuple ``(doc, id, tokens, type, realis[, cluster])``.  ``tokens``: a sequence of token ids
(written joined by commas, as TBF holds them) or a span string as a TBF file holds it (``"t3,t4"``, character
ranges ``"12,18;30,35"``).  Mentions of a document with the same ``cluster`` (any value but None) are one
coreference cluster (a TBF ``@Coreference`` line); a cluster of one mention is written as EvmEval's files
write none (dropped).  Documents come in order of their first mention.
"""
from __future__ import annotations

from typing import Iterable

from ..errors import UsageError

FIELDS = ("doc", "id", "tokens", "type", "realis")


def _record(rec, where: str) -> tuple:
    if isinstance(rec, dict):
        missing = [f for f in FIELDS if f not in rec]
        if missing:
            raise UsageError(f"{where}: a mention record needs {', '.join(FIELDS)} ({', '.join(missing)} missing)")
        return (*(rec[f] for f in FIELDS), rec.get("text"), rec.get("cluster"))
    if isinstance(rec, (tuple, list)) and len(rec) in (5, 6):
        return (*rec[:5], None, rec[5] if len(rec) == 6 else None)
    raise UsageError(f"{where}: a mention record is a dict with {', '.join(FIELDS)} (and text, cluster) or a "
                     f"tuple (doc, id, tokens, type, realis[, cluster]), not {rec!r}")


def _field(value, name: str, where: str) -> str:
    text = str(value)
    if not text or any(c in text for c in "\t\n\r") or (name != "text" and " " in text):
        raise UsageError(f"{where}: {name} {text!r} cannot be written in a TBF field (empty, or holding a tab, "
                         "a newline or, outside text, a space)")
    return text


def records_text(records: Iterable, system: str = "memory") -> str:
    """The TBF text of mention records."""
    docs: dict[str, list[str]] = {}
    clusters: dict[str, dict[object, list[str]]] = {}
    for i, rec in enumerate(records):
        where = f"mention record {i}"
        doc, mid, tokens, etype, realis, text, cluster = _record(rec, where)
        doc, mid = _field(doc, "doc", where), _field(mid, "id", where)
        if not isinstance(tokens, str):
            tokens = ",".join(str(t) for t in tokens)
        fields = [system, doc, mid, _field(tokens, "tokens", where),
                  _field(text if text is not None else "-", "text", where),
                  _field(etype, "type", where), _field(realis, "realis", where)]
        docs.setdefault(doc, []).append("\t".join(fields))
        if cluster is not None:
            clusters.setdefault(doc, {}).setdefault(cluster, []).append(mid)
    out = []
    for doc, lines in docs.items():
        out.append(f"#BeginOfDocument {doc}")
        out.extend(lines)
        chains = [ids for ids in clusters.get(doc, {}).values() if len(ids) > 1]
        out.extend(f"@Coreference\tR{k + 1}\t{','.join(ids)}" for k, ids in enumerate(chains))
        out.append("#EndOfDocument")
    return "\n".join(out) + "\n"


def read_records(records: Iterable, name: str, system: str = "memory"):
    """Mention records as a :class:`fastscore.formats.tbf.TbfFile` named ``name`` (what messages name)."""
    from .tbf import read_text

    text = records_text(records, system)
    return read_text(name, text.encode("utf-8"), allow_empty=True)
