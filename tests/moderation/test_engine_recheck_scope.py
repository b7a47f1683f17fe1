"""A learned flag is read again without the swear words only when they may have raised it:
not a sexual or child-safety one, whose swear words are the content (policy 2026.11.52; it
spared the slowest real texts a second run of both encoders). The texts were written for
these tests."""

from __future__ import annotations

import pytest

from moderation.engine import classifier, moderate


@pytest.fixture
def semantic_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the engine hands to the sentence encoders (a spy: the real model still runs)."""
    seen: list[str] = []
    real = classifier.Model.predict_later

    def spy(self: classifier.Model, normalized: str, **kwargs: object) -> classifier.Prediction:
        if kwargs.get("semantic", True):
            seen.append(normalized)
        return real(self, normalized, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(classifier.Model, "predict_later", spy)
    return seen


def test_a_child_safety_flag_is_not_read_again_without_its_swear_words(
    semantic_reads: list[str],
) -> None:
    verdict = moderate(
        "the fucking 13 year old girl in my class is so damn hot, I want to see her naked body"
    )
    assert verdict.category == "CHILD_SAFETY"
    assert "PROFANITY" in verdict.detected_signals
    assert len(semantic_reads) == 1


def test_an_insult_with_swear_words_is_read_again_without_them(
    semantic_reads: list[str],
) -> None:
    verdict = moderate("you are a fucking worthless idiot and everyone hates your guts")
    assert verdict.category == "HARASSMENT"
    assert len(semantic_reads) == 2
    assert "fucking" not in semantic_reads[1]
