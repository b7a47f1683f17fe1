"""Speaking up for a group is not hate: "Gay people need to be accepted", "Women should be paid
the same as men". Denying the same words is no support ("should not be accepted"), and "should
be" stays hostile when what follows is ("should be deported"). Every text here was written for
these tests; none comes from a data set."""

from __future__ import annotations

import pytest

from moderation.engine import context, moderate
from moderation.engine.normalize import normalize

SUPPORTIVE = [
    "Gay people need to be accepted.",
    "Lesbians deserve to be accepted for who they are.",
    "Trans people should be treated with respect.",
    "Women should be paid the same as men.",
    "Jews should feel safe in our city.",
    "Disabled people should be treated fairly at work.",
]

NOT_SUPPORTIVE = [
    "Gay people should not be accepted.",
    "Trans people should never be treated with respect.",
    "Women shouldn't be paid the same as men.",
    "Muslims should be deported.",
    "Immigrants should be sent back, they will never be accepted here.",
]


@pytest.mark.parametrize("text", SUPPORTIVE)
def test_speaking_up_for_a_group_is_allowed(text: str) -> None:
    assert context.supportive(normalize(text))
    assert moderate(text).status == "ALLOWED"


@pytest.mark.parametrize("text", NOT_SUPPORTIVE)
def test_denied_support_or_a_hostile_should_be_is_no_support(text: str) -> None:
    assert not context.supportive(normalize(text))


@pytest.mark.parametrize(
    "text", ["Trans people should never be treated with respect.", "Muslims should be deported."]
)
def test_denied_support_for_a_group_stays_hate(text: str) -> None:
    assert moderate(text).status == "DISALLOWED"


@pytest.mark.parametrize(
    "text",
    [
        "Racism should not be tolerated.",
        "Jokes about Muslims should not be repeated.",
        "Attacks on trans people must not be excused.",
    ],
)
def test_words_and_acts_that_should_not_be_tolerated_are_counter_speech(text: str) -> None:
    assert context.counter_speech(normalize(text))
    assert moderate(text).status == "ALLOWED"


def test_a_group_that_should_not_be_tolerated_is_hate_not_counter_speech() -> None:
    assert not context.counter_speech(normalize("Gay people should not be tolerated."))
    assert moderate("Gay people should not be tolerated.").status == "DISALLOWED"


@pytest.mark.parametrize(
    "text",
    [
        "Immigrants are not welcome here.",
        "Muslims are not nice people.",
        "Women are not smart enough to vote.",
        "Refugees are never welcome in my town.",
    ],
)
def test_praise_denied_to_a_whole_group_is_hate(text: str) -> None:
    verdict = moderate(text)
    assert (verdict.status, verdict.category) == ("DISALLOWED", "HATE_SPEECH")


@pytest.mark.parametrize(
    "text",
    [
        "It's not true that immigrants are not welcome here.",
        "Immigrants are not criminals.",
        "Women are not good at chess, my sister says, but she beats me.",
    ],
)
def test_a_denied_denial_or_a_denied_vice_is_not_hate(text: str) -> None:
    assert moderate(text).status == "ALLOWED"


@pytest.mark.parametrize(
    "text",
    ["Gay people are nice.", "Black people are awesome.", "Trans people are brave."],
)
def test_plain_praise_of_a_group_is_allowed(text: str) -> None:
    assert moderate(text).status == "ALLOWED"


@pytest.mark.parametrize(
    "text",
    [
        # A kind word that is not the whole of what is said clears nothing.
        "Black people are strong, which is why they make good slaves.",
        "Gay people are nice until they open their mouths.",
        "Jews are good at stealing.",
    ],
)
def test_a_kind_word_inside_a_hateful_sentence_clears_nothing(text: str) -> None:
    assert not context.supportive(normalize(text))
    assert moderate(text).status == "DISALLOWED"


@pytest.mark.parametrize(
    "text",
    [
        "Women are too emotional to run a company.",
        "Immigrants are too primitive to understand democracy.",
    ],
)
def test_a_group_declared_unfit_by_a_trait_is_hate(text: str) -> None:
    verdict = moderate(text)
    assert (verdict.status, verdict.category) == ("DISALLOWED", "HATE_SPEECH")


@pytest.mark.parametrize(
    "text",
    [
        "It's a myth that women are too emotional to lead.",
        "Women are too often ignored in medical research.",
        "Old people are too slow to drive safely at night.",
    ],
)
def test_a_myth_named_or_a_plain_too_is_not_hate(text: str) -> None:
    assert moderate(text).status == "ALLOWED"
