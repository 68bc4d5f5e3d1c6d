"""People named by a home directory or a file name are found; system users and tools' file names are not.

Generated families (issue #29: "/home/mlindqvist/", "C:\\Users\\jonas.berg\\", "payroll_Maria_Lindqvist.csv"
reached the model): home directories of Linux, macOS and Windows (one or two backslashes, as a JSON string
writes them) with a person's account as the user segment, in commands, logs and tracebacks, are found; the same
paths with a system, CI or cloud-image user or a placeholder, and a "/home/" or "/users/" inside a URL or an API
route, are not. File names with a given name and a surname joined by underscores or hyphens are found; file
names of tools' and products' words are not. End to end (the production analyzer and the default policy), the
national identifiers of test_national_ids.py and these names do not reach the model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.normalise import detect_on_view
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.detection.wordlists import words
from ztgate.redaction.policies import PolicyStore

GIVEN = ("maria", "jonas", "anna", "lars", "priya", "kenji", "fatima", "olga", "diego", "chloe", "ahmed", "ingrid")
SURNAMES = ("lindqvist", "berg", "okafor", "nakamura", "haddad", "kowalski", "moreau", "silva", "petrov", "adeyemi")
SYSTEM = sorted(words("system_users"))
DEFAULT = PolicyStore.load().get("default")


@st.composite
def accounts(draw: st.DrawFn) -> str:
    given, surname = draw(st.sampled_from(GIVEN)), draw(st.sampled_from(SURNAMES))
    return draw(st.sampled_from((f"{given[0]}{surname}", f"{given}.{surname}", f"{given}{surname[0]}",
                                 f"{given}_{surname}", given, f"{given}-{surname}", f"{given.title()}")))


ROOTS = ("/home/{u}/", "/Users/{u}/", "C:\\Users\\{u}\\", "C:\\\\Users\\\\{u}\\\\", "c:\\users\\{u}\\",
         "/mnt/c/Users/{u}/", "file:///home/{u}/")
PATH_SENTENCES = (
    "Traceback: File \"{root}proj/app.py\", line 4",
    "cd {root}code && make test",
    "Error: cannot open {root}Documents/report.docx",
    "The build log shows {root}.cache/pip being wiped.",
    "export PATH={root}.local/bin:$PATH",
    '{{"cwd": "{root}work"}}',
)


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


def _persons(scanner: PatternScanner, text: str) -> list[str]:
    return [text[d.start:d.end] for d in detect_on_view(scanner.scan, text) if d.entity_type == "PERSON"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(user=accounts(), root=st.sampled_from(ROOTS), sentence=st.sampled_from(PATH_SENTENCES))
def test_a_person_account_in_a_home_directory_is_found(scanner: PatternScanner, user: str, root: str,
                                                       sentence: str) -> None:
    text = sentence.format(root=root.format(u=user))
    assert user in _persons(scanner, text), f"{text!r}: found {_persons(scanner, text)!r}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(user=st.sampled_from(SYSTEM + ["USER", "USERNAME", "YOUR_NAME"]), cased=st.booleans(),
       root=st.sampled_from(ROOTS), sentence=st.sampled_from(PATH_SENTENCES))
def test_a_system_or_ci_user_in_a_home_directory_is_not_a_person(scanner: PatternScanner, user: str, cased: bool,
                                                                 root: str, sentence: str) -> None:
    user = user.title() if cased and not user.isupper() else user
    text = sentence.format(root=root.format(u=user))
    assert _persons(scanner, text) == [], text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(user=accounts(), template=st.sampled_from((
    "See https://example.com/home/{u}/index.html for the docs.", "GET /api/users/{u}/repos returns 200.",
    "The route /users/{u} is cached.", "Open docs/home/{u}/intro.md", "wget http://mirror.org/Users/{u}/x")))
def test_home_and_users_inside_urls_and_routes_are_not_home_directories(scanner: PatternScanner, user: str,
                                                                        template: str) -> None:
    text = template.format(u=user)
    assert _persons(scanner, text) == [], text


FILE_NAMES = ("payroll_{G}_{S}.csv", "cv-{G}-{S}-final.pdf", "{G}_{S}.docx", "contract_{G}-{S}_2024.pdf",
              "scan-{G}-{S}.jpg", "{G}_{S}_passport.png")
FILE_SENTENCES = ("Attached is {f}.", "Please summarise {f} for the board.", "mv {f} archive/",
                  "The upload of '{f}' failed.", "{f}")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(g=st.sampled_from(GIVEN), s=st.sampled_from(SURNAMES), name=st.sampled_from(FILE_NAMES),
       sentence=st.sampled_from(FILE_SENTENCES))
def test_a_persons_name_in_a_file_name_is_found(scanner: PatternScanner, g: str, s: str, name: str,
                                                sentence: str) -> None:
    text = sentence.format(f=name.format(G=g.title(), S=s.title()))
    found = _persons(scanner, text)
    assert any(g.title() in f and s.title() in f for f in found), f"{text!r}: found {found!r}"


TOOL_WORDS = ("Hello_World.py", "Max_Pool.py", "Data_Loader.py", "Test_Runner.java", "Read_Me.md",
              "Build-Config.yaml", "Power-Shell.ps1", "Grant_Proposal.docx", "Sales_Report.xlsx", "Mark-Down.txt",
              "Will_Update.log", "Rose_Garden.jpg", "Main-Window.xaml", "User_Guide.pdf", "Release-Notes.md",
              "Page_Layout.css", "Chase_Bank.pdf", "Image_Processor.cpp", "Api-Gateway.ts")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(TOOL_WORDS), sentence=st.sampled_from(FILE_SENTENCES))
def test_file_names_of_tool_and_product_words_are_not_persons(scanner: PatternScanner, name: str,
                                                              sentence: str) -> None:
    text = sentence.format(f=name)
    assert _persons(scanner, text) == [], text


# --- end to end: the production analyzer and the default policy ---------------------------------

@pytest.mark.parametrize(("text", "private"), [
    ("Meu CPF 123.456.789-09 foi recusado. Por quê?", "123.456.789-09"),
    ("Payroll asks for my SIN 046 454 286, is that normal?", "046 454 286"),
    ("T.C. kimlik no 10000000146 ile kayıt olamıyorum.", "10000000146"),
    ("Hei, henkilötunnus 131052-308T ei kelpaa.", "131052-308T"),
    ("Is PAN ABCDE1234F needed for a bank account?", "ABCDE1234F"),
    ("Mi tarjeta de identidad 1.023.456.789 no aparece.", "1.023.456.789"),
    ("Su RUT 12.345.678-5 no está registrado.", "12.345.678-5"),
    ("Why does `ls /home/mlindqvist/projects` fail with permission denied?", "mlindqvist"),
    ("Summarise payroll_Maria_Lindqvist.csv for me.", "Lindqvist"),
])
def test_the_values_do_not_reach_the_model_under_the_default_policy(redaction_analyzer: Analyzer, text: str,
                                                                     private: str) -> None:
    out = redact(text, redaction_analyzer.analyze(text), DEFAULT, None, None, None, operators=Operators()).text
    assert private not in out, (text, out)


@pytest.mark.parametrize("text", [
    "Why does `ls /home/runner/work` fail on GitHub Actions?", "Open Data_Loader.py and fix the import.",
    "The SIN 30 value and PAN 40 in the config are angles.",
])
def test_system_paths_and_tool_files_reach_the_model_unchanged(redaction_analyzer: Analyzer, text: str) -> None:
    out = redact(text, redaction_analyzer.analyze(text), DEFAULT, None, None, None, operators=Operators()).text
    assert out == text
