"""Misspelled words that carry a message's meaning are read as meant: one adjacent swap, one
dropped letter, or words run together ("I hate wmoen", "Ihate women", "#killallimmigrants"),
as hate speech test suites check. Ordinary words, compounds, addresses and other languages are
left as written. Every text here was written for these tests; none comes from a data set."""

from __future__ import annotations

import pytest

from moderation.engine import moderate, pipeline
from moderation.engine.classifier import get_model
from moderation.engine.normalize import normalize, respell

RESTORED = [
    # One adjacent swap.
    ("i really hate wmoen.", "i really hate women."),
    ("all msulims are vermin.", "all muslims are vermin."),
    ("blakc people are animals.", "black people are animals."),
    ("i ahte refugees.", "i hate refugees."),
    # One dropped letter, in a longer word.
    ("women are wothless.", "women are worthless."),
    ("immigrants are disgustng.", "immigrants are disgusting."),
    # Words run together.
    ("ihate gay people.", "i hate gay people."),
    ("i hatemuslims.", "i hate muslims."),
    ("#killallimmigrants", "#kill all immigrants"),
    # Letters masked by stars.
    ("go k*ll yourself.", "go kill yourself."),
    ("he should be r*ped.", "he should be raped."),
    ("k**l them all", "kill them all"),
]

LEFT_AS_WRITTEN = [
    "the moderation team met on monday.",
    "he was convicted of manslaughter in 2004.",
    "what a headshot, the crowd went wild.",
    "fit a deadbolt on the back door.",
    "send me the pics from the party.",
    "my therapist and my skillset coach both agree.",
    "see https://example.com/killallbugs for the fix.",
    "write to hatewomen@example.com to complain.",
    "on va emmener les enfants aux campements cet ete.",
    # Masks the lexicon reads as written, and stars that mask nothing.
    "what the f*ck is this",
    "5*3 = 15 and **bold** text",
]


@pytest.mark.parametrize(("text", "meant"), RESTORED)
def test_a_misspelled_key_word_is_read_as_meant(text: str, meant: str) -> None:
    assert respell(text) == meant


@pytest.mark.parametrize("text", LEFT_AS_WRITTEN)
def test_ordinary_words_compounds_addresses_and_other_languages_are_left_alone(
    text: str,
) -> None:
    assert respell(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "I really hate wmoen.",
        "All Msulims are vermin.",
        "Women are wothless.",
        "Ihate gay people.",
        "#killallimmigrants",
    ],
)
def test_misspelled_hate_is_flagged_as_hate(text: str) -> None:
    verdict = moderate(text)
    assert verdict.status == "DISALLOWED"
    assert "HATE_SPEECH" in {verdict.category, *verdict.detected_signals}


def test_a_message_is_read_with_its_key_words_restored() -> None:
    assert pipeline._read("I h4te wmoen!!", respelled=True) == "i hate women!!"
    assert normalize("I h4te wmoen!!") == "i hate wmoen!!"  # the classifier's own input


def test_long_prose_keeps_its_typos() -> None:
    """Past RESPELL_MAX_WORDS words, typos are incidental: the text and its sentences are read
    as written."""
    prose = "The council met on Tuesday and talked about the new bus routes for a while. " * 4
    text = prose + "Some poeple said the wmoen's team needs a new pitch."
    assert len(text.split()) > pipeline.RESPELL_MAX_WORDS
    assert not pipeline._respells(text)
    assert pipeline._respells("I hate wmoen.")
    parts = pipeline._Sentences(text, get_model(), respelled=pipeline._respells(text))
    assert any("wmoen" in s for s in parts.raw)
    short = pipeline._Sentences("I hate wmoen. So much.", get_model(), respelled=True)
    assert short.raw[0] == "i hate women."


@pytest.mark.parametrize("text", ["Go k*ll yourself.", "I'll k*ll you tomorrow."])
def test_a_masked_threat_is_flagged(text: str) -> None:
    assert moderate(text).status == "DISALLOWED"
