"""One way to import each engine name: every `from ztgate.inference.engines... import X` in the
code and tests names the module that defines X, and no two engine modules define the same name.

The engine interface is split into small modules (errors, request, engine_config, outputs, prompt,
base); an import that reaches a name through another module's imports would keep working until
that module's imports change, and would quietly bring back a second home for the name.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = "ztgate.inference.engines"
ENGINES = ROOT / "ztgate" / "inference" / "engines"


def _module_file(module: str) -> Path:
    path = ROOT.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _defined(path: Path) -> set[str]:
    """Top-level names a module defines itself (classes, functions, assignments), not imports."""
    names: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _engine_imports() -> list[tuple[str, int, str, str]]:
    found = []
    for top in ("ztgate", "bench", "tests", "scripts"):
        for path in sorted((ROOT / top).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and (
                        node.module == PACKAGE or node.module.startswith(PACKAGE + ".")):
                    rel = str(path.relative_to(ROOT))
                    found.extend((rel, node.lineno, node.module, a.name) for a in node.names)
    return found


def test_engine_names_are_imported_from_the_module_that_defines_them() -> None:
    imports = _engine_imports()
    assert any(m == f"{PACKAGE}.request" for _, _, m, _ in imports)  # the scan sees the imports
    wrong = []
    for where, line, module, name in imports:
        if _module_file(f"{module}.{name}").is_file():  # a submodule
            continue
        if name not in _defined(_module_file(module)):
            wrong.append(f"{where}:{line}: {name} from {module}")
    assert wrong == []


def test_no_two_engine_modules_define_the_same_name() -> None:
    homes: dict[str, list[str]] = defaultdict(list)
    for path in sorted(ENGINES.glob("*.py")):
        for name in _defined(path):
            if not name.startswith("_") and name != "logger":
                homes[name].append(path.name)
    assert {n: files for n, files in homes.items() if len(files) > 1} == {}
