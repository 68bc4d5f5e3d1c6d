"""The JSON Schema of ztgate.yaml and ztgate.example.yaml, generated from the settings classes and
the comment above each key.

Each key is documented once, by the comment above its declaration (docs/style.md, convention 4); this
reads those comments into the schema's descriptions and the example's comments, so editors,
validators and readers see the same words. `python -m ztgate.config_schema` rewrites both
docs/ztgate.schema.json and ztgate.example.yaml; a test fails when either drifts.
"""

from __future__ import annotations

import ast
import inspect
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel

from ztgate.common import paths
from ztgate.config import ZtgateConfig

SCHEMA_FILE = Path("docs") / "ztgate.schema.json"
EXAMPLE_FILE = Path("ztgate.example.yaml")
_WIDTH = 100

EXAMPLE_HEADER = """\
# ztgate.yaml with every key at its default, each with its meaning: generated from the settings
# classes and the comment above each key (`python -m ztgate.config_schema`; do not edit by hand).
# Left out, since their defaults depend on the machine: redaction.policies (the shipped folder
# ztgate/redaction/policies) and redaction.cache_dir ($ZTGATE_CACHE_DIR or ~/.cache/ztgate).
# Any key can be overridden by an environment variable naming its path with double underscores,
# e.g. ZTGATE_REDACTION__WORKERS=2. hash_key and encrypt_key are generated per install into
# redaction.keys_file unless set here.
"""


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
    package = str(Path(__file__).resolve().parent)
    return _portable(document, {str(paths.cache_dir()): "$ZTGATE_CACHE_DIR or ~/.cache/ztgate",
                                package: "<the installed ztgate package>"})


def _portable(value: Any, machine: dict[str, str]) -> Any:
    """Defaults that depend on this machine (the cache folder, where the package is installed)
    written as their rule instead."""
    if isinstance(value, dict):
        return {k: _portable(v, machine) for k, v in value.items()}
    if isinstance(value, list):
        return [_portable(v, machine) for v in value]
    if isinstance(value, str):
        for prefix, rule in machine.items():
            if value == prefix or value.startswith(prefix + "/"):
                return rule + value[len(prefix):]
    return value


def render() -> str:
    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"


def _machine_dependent(value: Any) -> bool:
    machine = (str(paths.cache_dir()), str(Path(__file__).resolve().parent))
    if isinstance(value, list):
        return any(_machine_dependent(v) for v in value)
    return isinstance(value, str) and any(value == p or value.startswith(p + "/") for p in machine)


def _section(model: type[BaseModel], instance: BaseModel, indent: int) -> list[str]:
    """One section of the example: each key's comment, then the key at its default."""
    lines: list[str] = []
    comments = field_comments(model)
    pad = " " * indent
    for name in model.model_fields:
        value = getattr(instance, name)
        comment = textwrap.wrap(comments.get(name, ""), _WIDTH, initial_indent=pad + "# ",
                                subsequent_indent=pad + "# ", break_on_hyphens=False)
        if isinstance(value, BaseModel):
            lines += [*comment, f"{pad}{name}:", *_section(type(value), value, indent + 2)]
            continue
        dumped = instance.model_dump(mode="json", include={name})[name]
        if _machine_dependent(dumped):
            continue
        text = yaml.safe_dump(dumped, default_flow_style=True, width=10_000).strip()
        text = text.removesuffix("...").strip()
        lines += [*comment, f"{pad}{name}: {text}"]
    return lines


def example() -> str:
    """ztgate.example.yaml: every key at its default, its comment above it."""
    from ztgate.config import ZtgateConfig

    return EXAMPLE_HEADER + "\n".join(_section(ZtgateConfig, ZtgateConfig(), 0)) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Writes the schema (to argv[0], default docs/ztgate.schema.json) and, without an argument,
    the example file too."""
    out = Path(argv[0]) if argv else SCHEMA_FILE
    out.write_text(render(), encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)
    if not argv:
        EXAMPLE_FILE.write_text(example(), encoding="utf-8")
        print(f"wrote {EXAMPLE_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
