"""The JSON Schema of ztgate.yaml, generated from the settings classes and the comment above each key.

Each key is documented once, by the comment above its declaration (docs/style.md, convention 4); this
reads those comments into the schema's descriptions, so editors and validators see the same words.
`python -m ztgate.config_schema` rewrites docs/ztgate.schema.json; a test fails when it drifts.
"""

from __future__ import annotations

import ast
import inspect
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ztgate.common import paths
from ztgate.config import ZtgateConfig

SCHEMA_FILE = Path("docs") / "ztgate.schema.json"


def _models(root: type[BaseModel]) -> dict[str, type[BaseModel]]:
    """Every settings class reachable from `root`, by the name the schema's $defs give it."""
    found: dict[str, type[BaseModel]] = {}
    stack = [root]
    while stack:
        model = stack.pop()
        if model.__name__ in found:
            continue
        found[model.__name__] = model
        for field in model.model_fields.values():
            for candidate in _classes_in(field.annotation):
                stack.append(candidate)
    return found


def _classes_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [c for arg in getattr(annotation, "__args__", ()) for c in _classes_in(arg)]


def field_comments(model: type[BaseModel]) -> dict[str, str]:
    """Field name -> the comment lines right above its declaration in the class body, joined."""
    try:
        source = inspect.getsource(model)
    except (OSError, TypeError):
        return {}
    lines = source.splitlines()
    body = ast.parse(source).body[0]  # settings classes are declared at module level
    comments: dict[str, str] = {}
    if not isinstance(body, ast.ClassDef):
        return comments
    for node in body.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            above: list[str] = []
            row = node.lineno - 2
            while row >= 0 and lines[row].strip().startswith("#"):
                above.insert(0, lines[row].strip().lstrip("#").strip())
                row -= 1
            if above:
                comments[node.target.id] = " ".join(above)
    return comments


def schema() -> dict[str, Any]:
    """ZtgateConfig's JSON Schema with each key's comment as its description."""
    document = ZtgateConfig.model_json_schema()
    models = _models(ZtgateConfig)
    for name, definition in [("ZtgateConfig", document), *document.get("$defs", {}).items()]:
        model = models.get(name)
        if model is None:
            continue
        for key, text in field_comments(model).items():
            if key in definition.get("properties", {}):
                definition["properties"][key].setdefault("description", text)
    document["title"] = "ztgate.yaml"
    return _portable(document, {str(paths.cache_dir()): "$ZTGATE_CACHE_DIR or ~/.cache/ztgate"})


def _portable(value: Any, machine: dict[str, str]) -> Any:
    """Defaults that depend on this machine (the cache folder) written as their rule instead."""
    if isinstance(value, dict):
        return {k: _portable(v, machine) for k, v in value.items()}
    if isinstance(value, list):
        return [_portable(v, machine) for v in value]
    return machine.get(value, value) if isinstance(value, str) else value


def render() -> str:
    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    out = Path(argv[0]) if argv else SCHEMA_FILE
    out.write_text(render(), encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
