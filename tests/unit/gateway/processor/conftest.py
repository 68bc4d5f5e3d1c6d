"""The processor's tests run on the real redaction service on the pattern tier
(tests/unit/redaction/pattern_service.py): its `scanner` fixture, for every module here."""

from tests.unit.redaction.pattern_service import scanner  # noqa: F401 (the fixture)
