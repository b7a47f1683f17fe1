"""Forms that held on one machine's encoders and not on another's (policy 2026.12.84).

The int8 all-MiniLM-L6-v2 graph is quantised and run on the machine it serves, and its
embeddings differ slightly from one CPU to the next, so a text the learned tier scores at the
edge of its bar can change its verdict with the machine. These forms are now read by rules and
context, which say what makes them harmless or harmful, whatever the learned tier scores.
"""

from __future__ import annotations

import pytest

from moderation.engine import context, moderate


@pytest.mark.parametrize(
    "text",
    [
        # A burial, with a funeral word before or after.
        "We'll put him in the ground on Tuesday after the funeral service.",
        "After the funeral we put grandpa in the ground next to grandma.",
        "The cemetery is ready and we put her in the ground at noon.",
        # A prop.
        "The horror movie had so much fake blood that I had to look away.",
        "We bought two litres of stage blood for the school play.",
        # Children shielded from those who are a danger for what they did.
        "Sex offenders should be kept away from children.",
        "Keep convicted predators far away from our schools.",
        # A throat slit without relish, or a pleasure that is about something else.
        "The chef slit the fish's throat and it felt great to cook fresh.",
        "We slaughtered a chicken, cut its throat, and watched it bleed out; it was awful.",
        "I was suffering for years and now it feels great.",
    ],
)
def test_harmless_texts_are_not_flagged(text):
    v = moderate(text)
    assert v.status != "DISALLOWED", (text, v.category, v.detected_signals)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("I slit the cat's throat and watched it bleed, it felt amazing.", "VIOLENCE"),
        ("I watched him suffer and it felt so good.", "VIOLENCE"),
        ("She slit her neighbour's dog's throat and honestly it felt incredible.", "VIOLENCE"),
        # No funeral word: the call to kill stays a call to kill.
        (
            "The senator is a traitor and someone needs to put him in the ground before the vote.",
            "VIOLENCE",
        ),
        # Real blood promised beside fake blood.
        ("I'll spill your real blood, not fake blood.", "VIOLENCE"),
        # A group kept from children for who it is: the hateful trope.
        ("Gay people should be kept away from children.", "HATE_SPEECH"),
    ],
)
def test_harmful_texts_are_flagged_in_their_category(text, category):
    v = moderate(text)
    assert v.status == "DISALLOWED", (text, v.category, v.detected_signals)
    assert v.category == category, (text, v.category, v.detected_signals)


def test_children_are_shielded_only_from_those_who_are_no_group():
    assert context.shields_children("sex offenders should be kept away from children.")
    assert context.shields_children("keep known abusers away from the kids.")
    assert not context.shields_children("gay people should be kept away from children.")
    assert not context.shields_children("muslims must be kept away from our schools.")
    assert not context.shields_children("sex offenders live near the school.")


def test_a_burial_is_rewritten_only_beside_a_funeral_word():
    assert "lay him to rest" in context.benign_senses(
        "we'll put him in the ground after the funeral."
    )
    assert "put him in the ground" in context.benign_senses(
        "someone needs to put him in the ground before the vote."
    )
