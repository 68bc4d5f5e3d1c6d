"""Names given by their owner in either order ("I'm Tanaka Yui", "my name is Nguyen Van An") and names in
apposition after a role of one's own organisation ("our CFO, Mira Patel,") are found whole; job titles after
"I'm" and public offices in apposition are not (issue #29)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.names.context.role_appositions import RoleAppositionRecognizer
from ztgate.redaction.detection.names.context.self_introductions import SelfIntroductionRecognizer

FAMILY_FIRST = ("Tanaka Yui", "Nguyen Van An", "Kim Min-jun", "Wang Xiuying", "Sato Haruto", "Park Ji-woo",
                "Tran Thi Mai", "Li Wei", "Yamamoto Ren", "Choi Seo-yeon")
GIVEN_FIRST = ("Mira Patel", "Tomas Ruiz", "Aino Korhonen", "Kwame Mensah", "Ines Duarte", "Lars Holm")
INTRODUCTIONS = ("Hi, I'm {name} and I need help with my lease.", "My name is {name}.", "my name is {name}, "
                 "from the third floor", "Hello! I am {name}; can you check my invoice?", "I’m {name}.")
APPOSITIONS = ("Our {role}, {name}, signed the contract.", "the head {role}, {name}, said the shift moves.",
               "Please ask my {role}, {name}, before Friday.", "Their new {role}, {name} (on leave), agreed.")
ROLES = ("CFO", "nurse", "manager", "lawyer", "accountant", "engineer", "director", "secretary")
TITLES = ("Senior Engineer", "Data Scientist", "Lead Developer", "Staff Nurse")
NOT_NAMES = ("I'm {t} at Acme.", "I am {t} since May.", "My name is {t}.")


@settings(max_examples=120, deadline=None)
@given(template=st.sampled_from(INTRODUCTIONS), name=st.sampled_from(FAMILY_FIRST + GIVEN_FIRST))
def test_a_self_introduced_name_is_found_whole(template: str, name: str) -> None:
    text = template.format(name=name)
    found = [text[s:e] for s, e, _ in SelfIntroductionRecognizer().find(text)]
    assert found == [name], text


@settings(max_examples=60, deadline=None)
@given(template=st.sampled_from(NOT_NAMES), title=st.sampled_from(TITLES))
def test_a_job_title_after_i_am_is_no_name(template: str, title: str) -> None:
    assert SelfIntroductionRecognizer().find(template.format(t=title)) == []


@settings(max_examples=120, deadline=None)
@given(template=st.sampled_from(APPOSITIONS), role=st.sampled_from(ROLES),
       name=st.sampled_from(FAMILY_FIRST + GIVEN_FIRST))
def test_a_name_in_apposition_after_a_role_is_found(template: str, role: str, name: str) -> None:
    text = template.format(role=role, name=name)
    found = [text[s:e] for s, e, _ in RoleAppositionRecognizer().find(text)]
    assert found == [name], text


def test_public_offices_and_plain_lists_are_not_appositions() -> None:
    for text in ("the president, Joe Biden, said", "The Pope, Leo XIV, visited", "our team, Red Hat, and IBM"):
        assert RoleAppositionRecognizer().find(text) == [], text
