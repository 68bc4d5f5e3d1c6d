"""The manual: its links resolve, it points at nothing outside the repository, and the README's
layout names every package of ztgate."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([*ROOT.glob("*.md"), *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_every_relative_link_of_the_manual_resolves() -> None:
    broken = [f"{page.relative_to(ROOT)}: {target}" for page in PAGES for target in LINK.findall(page.read_text())
              if "://" not in target and not target.startswith("mailto:")
              and not (page.parent / target).exists()]
    assert broken == []


def test_the_index_links_every_page_of_docs() -> None:
    index = (ROOT / "docs" / "index.md").read_text()
    top = {p.name for p in (ROOT / "docs").glob("*.md")} - {"index.md"}
    assert {name for name in top if f"({name})" not in index} == set()


def test_nothing_points_outside_the_repository() -> None:
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    outside = re.compile(r"\b(DESIGN|STYLE)\.md\b|\.\./shared/")
    offenders = []
    for name in files.splitlines():
        path = ROOT / name
        if path.suffix in {".py", ".md", ".toml", ".yaml", ".yml", ".txt", ""} and path.is_file():
            try:
                text = path.read_text()
            except UnicodeDecodeError:
                continue
            if outside.search(text):
                offenders.append(name)
    assert offenders == []


def test_the_readme_layout_names_every_package_of_ztgate() -> None:
    readme = (ROOT / "README.md").read_text()
    layout = readme.split("## Layout", 1)[1].split("```")[1]
    packages = {p.name + "/" for p in (ROOT / "ztgate").iterdir() if (p / "__init__.py").exists()}
    modules = {p.name for p in (ROOT / "ztgate").glob("*.py") if p.name != "__init__.py"}
    assert {name for name in packages | modules if name not in layout} == set()
