"""The trainer depends on serving, never the reverse: no module under ztgate/inference imports
ztgate.speculators (at module level or inside a function), so a primary never loads the trainer's
dependencies (Faker, the training loop) and the two packages cannot import each other in a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import ztgate.inference


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_no_inference_module_imports_the_speculator_trainer():
    root = Path(ztgate.inference.__file__).parent
    offenders = {str(path.relative_to(root)): name for path in sorted(root.rglob("*.py"))
                 for name in _imports(path) if name == "ztgate.speculators" or name.startswith("ztgate.speculators.")}
    assert not offenders, offenders


def test_the_scan_sees_a_function_level_import(tmp_path):
    """The scan is not blind to the cycle it replaced: an import hidden in a function body."""
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from ztgate.speculators.shipped import default_speculator\n")
    assert _imports(module) == ["ztgate.speculators.shipped"]
