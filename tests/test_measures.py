"""Issue 37's measure that a change can keep by itself: no glue function (``fastscore/``) takes more than 8
positional parameters (``scripts/measures.py`` counts them; keyword-only parameters or a small dataclass
instead)."""
import importlib.util

from tests.conftest import ROOT


def _measures():
    spec = importlib.util.spec_from_file_location("measures", ROOT / "scripts" / "measures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_glue_function_takes_more_than_8_positional_parameters():
    measures = _measures()
    assert measures.wide_functions(ROOT) == []
