"""Generates the Python stubs for proto/ into ztgate/gen (the one codegen path).

Run `python -m ztgate.common.protogen`; `--check` exits non-zero when the committed stubs
are stale against proto/ (tests call it).
"""

from __future__ import annotations

import argparse
import filecmp
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROTO_DIR = ROOT / "proto"
GEN_DIR = ROOT / "ztgate" / "gen"
# Generated modules import each other as `ztgate.x.v1`; inside our package they live under
# `ztgate.gen.x.v1`.
_IMPORT = re.compile(r"^from ztgate\.", re.MULTILINE)


def generate(out_dir: Path) -> list[Path]:
    """Runs protoc on every .proto under proto/ and returns the files written."""
    from grpc_tools import protoc  # dev-only dependency
    import grpc_tools

    protos = sorted(str(p.relative_to(PROTO_DIR)) for p in PROTO_DIR.rglob("*.proto"))
    include = str(Path(grpc_tools.__file__).parent / "_proto")
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp)
        args = ["protoc", f"-I{PROTO_DIR}", f"-I{include}", f"--python_out={raw}",
                f"--pyi_out={raw}", f"--grpc_python_out={raw}", *protos]
        if protoc.main(args) != 0:
            raise RuntimeError("protoc failed on " + " ".join(protos))
        written = []
        for path in sorted((raw / "ztgate").rglob("*.py*")):
            if path.suffix in (".py", ".pyi"):
                target = out_dir / path.relative_to(raw / "ztgate")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(_IMPORT.sub("from ztgate.gen.", path.read_text()))
                written.append(target)
    for folder in [out_dir, *[p for p in out_dir.rglob("*") if p.is_dir()]]:
        (folder / "__init__.py").touch()
    return written


def stale_files() -> list[str]:
    """Names the generated files that differ from a fresh generation (empty when in sync)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        generate(fresh)
        fresh_files = {p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file()}
        have = {p.relative_to(GEN_DIR) for p in GEN_DIR.rglob("*")
                if p.is_file() and "__pycache__" not in p.parts}
        diff = sorted(str(p) for p in fresh_files ^ have)
        diff += sorted(str(p) for p in fresh_files & have
                       if not filecmp.cmp(fresh / p, GEN_DIR / p, shallow=False))
        return diff


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if the stubs are stale")
    args = parser.parse_args()
    if args.check:
        stale = stale_files()
        if stale:
            print("stale generated stubs (run `python -m ztgate.common.protogen`):", *stale, sep="\n  ")
            return 1
        print("generated stubs are in sync with proto/")
        return 0
    for path in generate(GEN_DIR):
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
