"""Reports: readable table, v8.01 layout, JSON, CSV, Markdown."""
from __future__ import annotations

def render(result, fmt: str = "text", per_doc: bool = False, totals_only: bool = False) -> str:
    """Render a :class:`~fastscore.coref.result.CorefResult` in one of the task's outputs (``CorefTask.outputs``;
    ua: :mod:`fastscore.ua.report`)."""
    if fmt == "corefud":
        from . import corefud

        return corefud.render(result)
    if fmt == "coval":
        from . import coval

        return coval.render(result)
    if fmt == "perl":
        from . import perl

        return perl.render(result, per_doc=not totals_only)
    if fmt == "json":
        import json

        return json.dumps(result.to_dict(per_doc=per_doc), indent=2) + "\n"
    from . import tables

    return {"text": tables.text, "csv": tables.csv, "markdown": tables.markdown}[fmt](result, per_doc)
