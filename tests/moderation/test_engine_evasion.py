"""Spaced, leetspeak, homoglyph and zero-width variants of flagged texts are still flagged."""

from __future__ import annotations

import pytest

from moderation.engine import moderate
from moderation.engine.normalize import normalize

FLAGGED = [
    ("you are a fucking idiot", "HARASSMENT"),
    ("this is bullshit", "PROFANITY"),
    ("I will kill you", "VIOLENCE"),
    ("join the islamic state and make hijrah", "EXTREMISM"),
    ("selling cocaine, dm me on telegram", "ILLEGAL"),
    ("I want to kill myself tonight", "SELF_HARM"),
]

HOMOGLYPHS = str.maketrans({"a": "а", "e": "е", "o": "о", "c": "с", "i": "і", "p": "р", "x": "х"})
LEET = str.maketrans({"a": "4", "e": "3", "i": "1", "o": "0", "s": "$"})


def spaced(text: str) -> str:
    return " ".join(" ".join(word) if len(word) > 3 else word for word in text.split())


def leet(text: str) -> str:
    return " ".join(w.translate(LEET) if len(w) > 3 else w for w in text.split())


def homoglyph(text: str) -> str:
    return text.translate(HOMOGLYPHS)


def zero_width(text: str) -> str:
    return "\u200b".join(text[: len(text) // 2]) + text[len(text) // 2 :].replace("i", "i\u200d")


def repeated(text: str) -> str:
    return text.replace("u", "uuuu").replace("i", "iiii").replace("o", "ooo")


@pytest.mark.parametrize("variant", [spaced, leet, homoglyph, zero_width, repeated])
@pytest.mark.parametrize(("text", "category"), FLAGGED)
def test_variants_are_still_flagged(text, category, variant):
    assert category in moderate(text).detected_signals  # the plain text is flagged
    assert category in moderate(variant(text)).detected_signals


def test_normalize_undoes_evasion():
    assert normalize("Ｋ1ll y0u") == "kill you"
    assert normalize("b a d w o r d") == "badword"
    assert normalize("k\u200bi\u200cl\u200dl") == "kill"
    assert normalize("fuuuuck") == "fuck"
    assert normalize("ѕһіt") == "shit"


def test_normalize_reads_an_eight_after_a_words_first_consonants_as_ate():
    assert normalize("h8 them, h8ers, sk8") == "hate them, haters, skate"
    assert normalize("gr8 b8") == "grate bate"  # wrong words, but never a flagged one


def test_normalize_keeps_ordinary_numbers():
    assert normalize("Order 2024 costs $50 on mp3 and 5g") == "order 2024 costs $50 on mp3 and 5g"


def test_normalize_keeps_text_written_in_cyrillic_or_greek():
    """Look-alike letters are mapped to Latin in disguised Latin words, not in Russian or
    Greek text, which would otherwise become nonsense ("npubet")."""
    assert normalize("Привет, как дела? Хорошего дня!") == "привет, как дела? хорошего дня!"
    assert normalize("Я тебя убью сегодня ночью.") == "я тебя убью сегодня ночью."
    assert normalize("Καλημέρα, τι κάνεις;").startswith("καλημερα")
    # A Latin word disguised with Cyrillic letters inside Russian text is still read.
    assert normalize("Привет, я тебя kіll") == "привет, я тебя kill"
    # A whole English text in Cyrillic look-alikes has no letter of the script's own.
    assert normalize("і wіll kіll уоu") == "i will kill you"
