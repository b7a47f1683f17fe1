"""Negation of insults: calling someone a name only to deny it is not harassment.

"You're not stupid" reassures; "you're not just stupid, you're a moron" insults twice. Every text
here was written for these tests; none comes from a data set.
"""

from __future__ import annotations

import pytest

from moderation.engine import moderate, rules
from moderation.engine.normalize import normalize

DENIED = [
    "You're not stupid, you just need more practice.",
    "You are not an idiot, everyone makes that mistake the first time.",
    "Nah, you're probably not dumb if you passed that exam on the first try.",
    "You're definitely not a loser for asking for help.",
    "I don't think you're an idiot at all, the instructions were confusing.",
    "I'm not saying you're stupid, but this plan needs more thought.",
    "Honestly you're not ugly, don't listen to them.",
    "You're no idiot, you saw the problem before anyone else did.",
    "Nobody is calling you a loser for taking a day off.",
]

ASSERTED = [
    "You're an idiot.",
    "You're not just stupid, you're a complete moron.",
    "You're not stupid, you're a fucking moron.",
    "No offense, but you're an idiot.",
    "You're nothing but a worthless idiot.",
    "What a moron, I can't believe you're this stupid.",
    "It's your fault and nobody else's, you pathetic loser.",
    "You never listen, you idiot.",
    "You're an idiot, not a genius.",
    "You'll never stop being a loser, you idiot.",
    "Who do you think you are, you idiot?",
    "Who do you think you are moron",
]

# The insult word is someone else's, or about someone else.
NOT_OF_YOU = [
    "If you call someone a retard, you're being cruel, and I won't stand for it.",
    "Do you know that idiot from the third floor? He parked in my spot again.",
]


@pytest.mark.parametrize("text", DENIED)
def test_an_insult_said_only_to_deny_it_is_not_harassment(text):
    verdict = moderate(text)
    assert verdict.status == "ALLOWED", (verdict.category, verdict.detected_signals)
    assert "INSULT" not in verdict.detected_signals
    assert "HARASSMENT" not in verdict.detected_signals


@pytest.mark.parametrize("text", ASSERTED)
def test_an_insult_that_a_negation_does_not_deny_is_harassment(text):
    verdict = moderate(text)
    assert (verdict.status, verdict.category) == ("DISALLOWED", "HARASSMENT")
    assert "INSULT" in verdict.detected_signals


def test_swearing_in_a_denied_insult_is_only_profanity():
    verdict = moderate("Nah bro, you're probably not dumb as shit if you got that score.")
    assert (verdict.status, verdict.category) == ("ALLOWED", "PROFANITY")


@pytest.mark.parametrize(
    ("sentence", "denies"),
    [
        ("you're not stupid", True),
        ("i don't think you're an idiot", True),
        ("you're not stupid, you're a moron", False),  # the second one stands
        ("you're not stupid, fuck you", False),  # abuse needs no insult word
        ("you're an idiot", False),
        ("the weather is nice", False),  # no insult to deny
    ],
)
def test_denies_insults_reads_the_whole_sentence(sentence, denies):
    assert rules.denies_insults(normalize(sentence)) is denies


def test_a_denied_insult_clears_no_threat_beside_it():
    verdict = moderate("You're not ugly, but I will kill you tomorrow when you leave work.")
    assert verdict.status == "DISALLOWED"
    assert verdict.category == "VIOLENCE"


@pytest.mark.parametrize("text", NOT_OF_YOU)
def test_an_insult_word_not_said_of_you_is_no_insult(text):
    verdict = moderate(text)
    assert "INSULT" not in verdict.detected_signals
    assert verdict.status == "ALLOWED", (verdict.category, verdict.detected_signals)


def test_a_reclaimed_slur_said_of_oneself_with_pride_is_not_hate():
    verdict = moderate("As a queer woman, I'm proud to call myself a dyke.")
    assert verdict.status == "ALLOWED", (verdict.category, verdict.detected_signals)
    assert moderate("You're a dyke and everyone hates you.").status == "DISALLOWED"


@pytest.mark.parametrize(
    "text", ["I'm not going to hurt anyone.", "I would never harm a soul.", "I won't hurt anybody."]
)
def test_denying_harm_to_anyone_is_not_self_harm(text):
    assert moderate(text).status == "ALLOWED"


@pytest.mark.parametrize(
    "text",
    [
        # The denial's subject goes with it: "I'm" left behind read as a confession.
        "I'm not going to hurt anyone, I'm just frustrated with my boss.",
        "I'm not going to hurt anyone, I'm just annoyed with my landlord.",
        "We're not going to hurt anybody, we're just tired of the noise.",
        # Using a tool on anyone, denied.
        "How do I sharpen a kitchen knife? I would never use it on anyone.",
    ],
)
def test_a_denial_with_more_said_after_it_is_not_escalated_as_self_harm(text):
    verdict = moderate(text)
    assert verdict.status == "ALLOWED", (verdict.category, verdict.action)
    assert verdict.action != "ESCALATE"


@pytest.mark.parametrize(
    "text",
    [
        "I'm not going to hurt anyone but myself tonight.",
        "I won't hurt anyone, I just want to end my life.",
    ],
)
def test_denying_harm_to_others_leaves_harm_to_oneself_flagged(text):
    verdict = moderate(text)
    assert (verdict.status, verdict.category) == ("DISALLOWED", "SELF_HARM")


# Hate reads the same negations that assert as insults do: one list serves both.
@pytest.mark.parametrize(
    "text",
    [
        "Muslims are nothing but vermin.",
        "Jews are not just greedy, they are vermin.",
    ],
)
def test_a_negation_that_asserts_does_not_deny_a_hate_statement(text):
    assert rules._hate_statement(normalize(text))
    assert (moderate(text).status, moderate(text).category) == ("DISALLOWED", "HATE_SPEECH")


@pytest.mark.parametrize(
    "text", ["Gay people are not vermin.", "I don't think immigrants are vermin."]
)
def test_a_negation_that_denies_still_denies_a_hate_statement(text):
    assert not rules._hate_statement(normalize(text))
