"""Where redaction's shipped data lies: `data/` (word lists, names, public lists), `rules/` (the pattern
catalogue) and `policies/` (the built-in policies), all beside this module at the package's top.

The data stays here while the code that reads it lives in subpackages (detection/...), so every
reader finds it through these names rather than counting parents of its own `__file__`.
"""

from __future__ import annotations

from pathlib import Path

REDACTION_DIR = Path(__file__).parent
DATA_DIR = REDACTION_DIR / "data"
RULES_DIR = REDACTION_DIR / "rules"
POLICIES_DIR = REDACTION_DIR / "policies"
