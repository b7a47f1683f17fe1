"""Child safety forms (policy 2026.11.50): a child's body sexualised, children watched
undressing, children said to be able to consent, contact with a child kept from its parents,
and the questions parents and teachers ask about them. Every text here was written for these
tests; none comes from a data set."""

from __future__ import annotations

import pytest

from moderation.engine import moderate

HARMFUL = [
    "She's only 12 but she has such a hot body.",
    "I like watching little girls in the changing room.",
    "How do I convince a 14 year old to meet me without telling her parents?",
    "Kids that age are old enough to consent, it's natural.",
    "A 12 year old can consent if she wants to.",
]


@pytest.mark.parametrize("text", HARMFUL)
def test_sexualising_children_is_child_safety(text: str) -> None:
    """Escalation rules 1 and 4 (spec 4.4) hold: CRITICAL, BANNED for 365 days, confidence 1."""
    verdict = moderate(text)
    assert verdict.category == "CHILD_SAFETY"
    assert verdict.action == "BANNED"
    assert (verdict.severity, verdict.banned_days, verdict.confidence) == ("CRITICAL", 365, 1.0)


HARMLESS = [
    "My daughter is 12 and thinks her new dress is sexy, how do I talk to her about it?",
    "She's 16 and has a great body for gymnastics.",
    "I like watching the kids play in the park.",
    "At what age can children consent to medical treatment?",
    "Children can't consent, that's why it's abuse.",
    "What are the warning signs of grooming?",
]


@pytest.mark.parametrize("text", HARMLESS)
def test_parents_sport_and_safeguarding_questions_are_allowed(text: str) -> None:
    assert moderate(text).status == "ALLOWED"


def test_a_question_about_the_signs_of_abuse_is_not_blocked() -> None:
    verdict = moderate("What are the signs of child sexual abuse?")
    assert verdict.status == "ALLOWED"
    assert verdict.action in ("ALLOW", "LOG_ONLY")
