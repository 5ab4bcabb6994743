"""The package's rooms, checked on the source (function-level imports included):

- no import circle;
- no import runs upward: every module sits in one layer of ``LAYERS`` and imports only its own layer or lower ones
  (tasks may import each other: nugget scores event coreference with coref's engine, explain builds on coref);
- no module outside a task's folder imports from a task's folder, except the registry and ``coval.py``, the public
  path ``fastscore.coval`` of coreference's ``coref/coval_metric.py`` (issue 28's contract);
- no generic module names a task: in ``fastscore/*.py``, ``fastscore/stats/`` and ``fastscore/report/``, no string
  literal (docstrings aside: prose) holds a registered task's name as a word.  The registry (``tasks.py``) names
  them (and ``EXPORTS``, the names ``fastscore`` loads from a task's folder); ``coval.py`` is the alias above.  ``formats/`` and
  ``kernels/`` are checked for imports only: a file format or an algorithm may share its name with a task (the
  ``triples`` XML format, NAF's ``coref`` layer, the ``nugget`` kernels); ``examples/`` is the bundled examples'
  catalogue, where each example names the task that scores it.
"""
import ast
import re
from fnmatch import fnmatch
from pathlib import Path

import pytest

from fastscore import tasks
from tests.conftest import ROOT

TASK_NAMES = tuple(tasks.TASKS)
# the tasks' folders: a task's own, and a family a task scores through an option (ua: coref's --format ua)
TASK_FOLDERS = (*TASK_NAMES, "ua")
# lowest first; a pattern ending in ".*" is a package and its modules
LAYERS = (
    ("base", ("fastscore._version", "fastscore.errors", "fastscore._gc", "fastscore.messages", "fastscore.outputs",
              "fastscore.first_run", "fastscore._isolation")),
    ("kernels", ("fastscore.kernels", "fastscore.kernels.*")),
    ("readers and mechanisms", ("fastscore.formats", "fastscore.formats.*", "fastscore.frames",
                                "fastscore.metrics", "fastscore.pairing")),
    ("shared rooms", ("fastscore.stats", "fastscore.stats.*", "fastscore.report", "fastscore.report.*",
                      "fastscore.result", "fastscore.task", "fastscore.planner", "fastscore.examples",
                      "fastscore.examples.__main__")),
    ("tasks", tuple(p for name in TASK_FOLDERS for p in (f"fastscore.{name}", f"fastscore.{name}.*"))),
    ("registry", ("fastscore.tasks",)),
    ("front", ("fastscore", "fastscore.__main__", "fastscore.api", "fastscore.cli", "fastscore.shards", "fastscore.executors",
               "fastscore.datasets", "fastscore.coval")),
)
MAY_IMPORT_TASKS = {"fastscore.tasks", "fastscore.coval"}
NAME_CHECKED = ("fastscore/*.py", "fastscore/stats/*.py", "fastscore/report/*.py")
NAME_EXEMPT = ("fastscore/tasks.py", "fastscore/coval.py")


def _module_names() -> dict[str, tuple[Path, str]]:
    """module name -> (file, package) for fastscore and its kernels (installed as fastscore.kernels)."""
    out = {}
    for base, prefix in ((ROOT / "fastscore", "fastscore"), (ROOT / "kernels", "fastscore.kernels")):
        for path in base.rglob("*.py"):
            parts = [prefix, *path.relative_to(base).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
                out[".".join(parts)] = (path, ".".join(parts))
            else:
                out[".".join(parts)] = (path, ".".join(parts[:-1]))
    return out


def _imports(path: Path, package: str, modules) -> set[str]:
    """Modules of the package that a file imports anywhere (function-level imports included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [target] + [f"{target}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found.update(n for n in names if n in modules)
    return found


def _graph(modules) -> dict[str, set[str]]:
    return {m: _imports(path, pkg, modules) - {m} for m, (path, pkg) in modules.items()}


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(m, path):
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state and (cycle := visit(n, path + [n])):
                return cycle
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (cycle := visit(m, [m])):
            return cycle
    return None


def _layer(module: str, layers=LAYERS) -> int:
    found = [i for i, (_, patterns) in enumerate(layers) if any(fnmatch(module, p) for p in patterns)]
    assert len(found) == 1, f"{module} is in {len(found)} layers of LAYERS: place it in one"
    return found[0]


def _upward(graph: dict[str, set[str]], layers=LAYERS) -> list[str]:
    return [f"{m} ({layers[_layer(m, layers)][0]}) imports {n} ({layers[_layer(n, layers)][0]})"
            for m in sorted(graph) for n in sorted(graph[m]) if _layer(n, layers) > _layer(m, layers)]


def _in_task(module: str, names=TASK_FOLDERS) -> bool:
    return any(module == f"fastscore.{n}" or module.startswith(f"fastscore.{n}.") for n in names)


def _task_imports(graph: dict[str, set[str]], names=TASK_FOLDERS, exempt=MAY_IMPORT_TASKS) -> list[str]:
    return [f"{m} imports {n}" for m in sorted(graph) if not _in_task(m, names) and m not in exempt
            for n in sorted(graph[m]) if _in_task(n, names)]


def _docstrings(tree: ast.AST) -> set[int]:
    """The string statements of a module (its docstrings, and strings written as prose)."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}


def _task_names_in(source: str, names=TASK_NAMES) -> list[tuple[int, str]]:
    """(line, literal) of the string literals that hold a task's name as a word, docstrings left out."""
    word = re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")\b")
    tree = ast.parse(source)
    prose = _docstrings(tree)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
            and word.search(node.value)]


# ---- the package

@pytest.fixture(scope="module")
def package_graph() -> dict[str, set[str]]:
    """The package's import graph, read once for the checks below (each reads every module's source)."""
    return _graph(_module_names())


def test_import_graph_has_no_circle(package_graph):
    modules = _module_names()
    assert "fastscore.nugget.engine" in modules and "fastscore.kernels.ceaf" in modules
    cycle = _circle(package_graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_no_import_runs_upward(package_graph):
    assert _upward(package_graph) == []


def test_no_generic_module_imports_a_task(package_graph):
    assert _task_imports(package_graph) == []


def test_no_generic_module_names_a_task():
    files = {p for pattern in NAME_CHECKED for p in ROOT.glob(pattern)} - {ROOT / p for p in NAME_EXEMPT}
    assert len(files) > 20
    found = [f"{p.relative_to(ROOT)}:{line}: {text[:60]!r}" for p in sorted(files)
             for line, text in _task_names_in(p.read_text())]
    assert found == []


# ---- the checkers themselves

def test_import_graph_check_finds_a_circle(tmp_path):
    """A package whose modules import each other lazily is caught."""
    (tmp_path / "a.py").write_text("def f():\n    from .b import g\n")
    (tmp_path / "b.py").write_text("from .a import f\n")
    modules = {"p.a": (tmp_path / "a.py", "p"), "p.b": (tmp_path / "b.py", "p")}
    assert _imports(tmp_path / "a.py", "p", modules) == {"p.b"}
    assert _circle(_graph(modules)) == ["p.a", "p.b", "p.a"]


def test_layer_checks_find_an_upward_import_and_a_task_import():
    layers = (("low", ("p.low",)), ("tasks", ("p.toy", "p.toy.*")), ("high", ("p.api",)))
    graph = {"p.low": {"p.toy.score"}, "p.toy.score": {"p.low"}, "p.api": {"p.toy.score"}}
    assert _upward(graph, layers) == ["p.low (low) imports p.toy.score (tasks)"]
    assert _task_imports({k.replace("p.", "fastscore."): {v.replace("p.", "fastscore.") for v in vs}
                          for k, vs in graph.items()}, ("toy",), set()) == [
        "fastscore.api imports fastscore.toy.score", "fastscore.low imports fastscore.toy.score"]
    with pytest.raises(AssertionError, match="in 0 layers"):
        _layer("p.new", layers)


def test_task_name_check_reads_literals_not_prose():
    source = ('"""Scores coref and nugget files."""\n'
              'def f(task="coref"):\n    """The coref task."""\n    return f"--task {task} nugget", "corefud"\n')
    assert [line for line, _ in _task_names_in(source, ("coref", "nugget"))] == [2, 4]
