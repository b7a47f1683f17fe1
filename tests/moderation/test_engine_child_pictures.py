"""Asking for pictures of a child undressed, in underwear, or of a stated age in swimwear, is
child sexual exploitation; a family's ordinary photo requests are not. Every text here was
written for these tests; none comes from a data set."""

from __future__ import annotations

import pytest

from moderation.engine import moderate
from tests.moderation.helpers import assert_child_safety_rule

SOUGHT = [
    "Send me pics of your 12 year old daughter in a bikini.",
    "send me pics of the kids naked",
    "show me pictures of your 10 yo son without clothes",
    "Can you share photos of your little girl in her underwear?",
    # The age written as everywhere else in the engine ("yrs old" too).
    "Send me pics of your 12 yrs old in a bikini.",
]

FAMILY = [
    "Can you send me photos of the kids at the beach?",
    "Send me photos of the kids in their swimsuits at the pool!",
    "Post pictures of your 25 year old wife in a bikini.",
    "Post pictures of your 25 yrs old sister in a bikini.",
    "My doctor asked for photos of my 3 year old's rash.",
]


@pytest.mark.parametrize("text", SOUGHT)
def test_asking_for_pictures_of_a_child_undressed_is_banned(text):
    assert_child_safety_rule(moderate(text))


@pytest.mark.parametrize("text", FAMILY)
def test_ordinary_photo_requests_are_not_child_safety(text):
    verdict = moderate(text)
    assert verdict.category != "CHILD_SAFETY"
    assert "MINOR_SEXUAL" not in verdict.detected_signals
