"""The import graph of `ztgate`: no cycle between its packages, and no arrow from a lower layer up.

Every `import` is counted, also those inside functions (a cycle hidden in a function is still a
cycle); imports under `if TYPE_CHECKING:` are not, since they never run. Read from the source (AST),
so nothing is imported.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "ztgate"

# Each package (or top-level module) of ztgate and its layer: it may import its own layer and below.
# common < protocols < redaction/inference/telemetry < speculators < gateway and the adapter (the
# doors) < the composition (the whole configuration, `up`, the CLI). Data read by every layer (the
# generated stubs, the list of parts) sits at the bottom.
LAYERS: dict[str, int] = {
    "gen": 0, "parts": 0,
    "common": 1,
    "protocols": 2,
    "redaction": 3, "inference": 3, "telemetry": 3,
    "speculators": 4,  # training only: depends on inference, never the reverse
    "gateway": 5, "openai_adapter": 5,
    "config": 6, "config_schema": 6, "serve": 6, "supervisor": 6, "replicas": 6, "deploy": 6,
    "cli": 6,  # with `ztgate top` (cli/top/)
}

# Arrows that break the rules today, each owned by the work that removes it; the test fails when
# one is gone, so that it is taken off the list.
KNOWN_EXCEPTIONS: dict[tuple[str, str], str] = {
}


def _package(module: str) -> str:
    """ztgate.redaction.service -> redaction; ztgate.cli -> cli."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement except those under `if TYPE_CHECKING:`."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def package_graph() -> dict[str, dict[str, list[str]]]:
    """Package -> imported package -> the places (file:line) that import it."""
    graph: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT)
        module = ".".join(relative.with_suffix("").parts).removesuffix(".__init__")
        source = _package(module)
        for node in _runtime_imports(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif node.level:  # relative: within its own package
                continue
            elif node.module == "ztgate":
                targets = [f"ztgate.{alias.name}" for alias in node.names]
            else:
                targets = [node.module or ""]
            for target in targets:
                if target.startswith("ztgate.") and (imported := _package(target)) != source:
                    graph[source][imported].append(f"{relative}:{node.lineno}")
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one package (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def test_every_package_has_a_layer() -> None:
    packages = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir()
                if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()}
    assert packages - set(LAYERS) == set(), "give a new package its layer in LAYERS"


def test_no_arrow_from_a_lower_layer_to_a_higher_one() -> None:
    upward = {(a, b): places[:3] for a, targets in package_graph().items() for b, places in targets.items()
              if LAYERS[b] > LAYERS[a] and (a, b) not in KNOWN_EXCEPTIONS}
    assert upward == {}


def test_no_cycle_between_packages() -> None:
    graph = {a: {b for b in targets if (a, b) not in KNOWN_EXCEPTIONS}
             for a, targets in package_graph().items()}
    assert _cycles(graph) == []


def test_the_known_exceptions_still_exist() -> None:
    graph = package_graph()
    gone = [edge for edge in KNOWN_EXCEPTIONS if edge[1] not in graph.get(edge[0], {})]
    assert gone == [], "fixed: take it off KNOWN_EXCEPTIONS"


def test_a_cycle_is_found() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


# The parts never read the whole configuration: each server takes its own inputs (its section and the
# few values it needs from others), which the composition (ztgate/serve.py) builds.
PARTS_WITHOUT_THE_WHOLE_CONFIGURATION = ("redaction", "inference", "telemetry", "gateway", "openai_adapter",
                                         "speculators", "common", "protocols")


def imports_of_the_whole_configuration(path: Path) -> list[int]:
    """Lines of `path` that import ztgate.config, under TYPE_CHECKING or in a function too."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            hit = any(a.name == "ztgate.config" or a.name.startswith("ztgate.config.") for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            hit = (node.module == "ztgate.config" or (node.module or "").startswith("ztgate.config.")
                   or (node.module == "ztgate" and any(a.name == "config" for a in node.names)))
        else:
            continue
        if hit:
            lines.append(node.lineno)
    return lines


def test_no_part_imports_the_whole_configuration() -> None:
    found = {f"{path.relative_to(ROOT)}:{line}"
             for package in PARTS_WITHOUT_THE_WHOLE_CONFIGURATION
             for path in sorted((PACKAGE / package).rglob("*.py"))
             for line in imports_of_the_whole_configuration(path)}
    assert found == set(), "build the part's inputs in ztgate/serve.py instead"


def test_an_import_of_the_whole_configuration_is_found(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ztgate.config import Z\n"
                      "def f():\n    from ztgate import config\nimport ztgate.common.config\n")
    assert imports_of_the_whole_configuration(module) == [3, 5]
