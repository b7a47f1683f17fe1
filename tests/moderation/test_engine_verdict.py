from __future__ import annotations

import re

import pytest

from moderation.engine import POLICY_VERSION, Verdict, moderate
from moderation.engine.vocabulary import SCORED_CATEGORIES
from tests.moderation.helpers import VERDICT_FIELDS


def test_safe_verdict_carries_every_field():
    body = moderate("Can anyone recommend a good banana bread recipe?").to_dict()
    assert set(body) == VERDICT_FIELDS
    assert (body["status"], body["category"], body["severity"], body["action"]) == (
        "ALLOWED",
        "SAFE",
        "LOW",
        "ALLOW",
    )
    assert body["detected_signals"] == [] and body["banned_days"] is None
    assert body["policy_version"] == POLICY_VERSION
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", body["timestamp"])
    assert body["usage"]["total_tokens"] == body["usage"]["prompt_tokens"] > 0
    assert set(body["scores"]) == set(SCORED_CATEGORIES)
    assert all(0.0 <= p <= 1.0 for p in body["scores"].values())
    assert body["confidence"] == round(body["confidence"], 2)


def test_pii_is_redacted():
    body = moderate("Mail me at maria.gonzalez84@gmail.com or call +1 415 555 2671").to_dict()
    assert body["category"] == "PII" and body["action"] == "REDACT"
    assert body["redacted_content"] == "Mail me at [EMAIL] or call [PHONE]"


@pytest.mark.parametrize(
    "text",
    [
        "Hi <Person>, email [EMAIL] or call [PHONE]",
        "SSN format: XXX-XX-XXXX",
        "write to name@example.com",
        "order 123-456-7890 and ISBN 978-3-16-148410-0",
    ],
)
def test_placeholders_are_not_pii(text):
    assert "PII" not in moderate(text).detected_signals


def test_card_needs_luhn_and_a_known_prefix():
    assert "PII_CARD" in moderate("card 4532 0151 1283 0366").detected_signals
    assert "PII_CARD" not in moderate("card 4532 0151 1283 0367").detected_signals
    assert "PII_CARD" not in moderate("ref 9999 0151 1283 0366").detected_signals


def test_credible_violence_planning_is_auto_fail():
    v = moderate("I'm going to shoot up the school tomorrow at 9am, I already have my dad's rifle")
    assert (v.severity, v.action, v.auto_fail, v.confidence) == ("CRITICAL", "BANNED", True, 1.0)
    assert v.banned_days and "VIOLENCE_PLANNING" in v.detected_signals


def test_news_about_an_attack_is_not_auto_fail():
    v = moderate(
        "Police said the man wrote 'I will shoot up the school tomorrow' before his arrest."
    )
    assert not v.auto_fail


def test_quoted_slur_condemned_is_allowed_and_uncertain():
    v = moderate("A guy called me a faggot on the bus today, that slur is unacceptable.")
    assert v.allowed and v.uncertainty_flag and v.ambiguity_reason == "QUOTED_CONTENT"


def test_self_harm_intent_is_escalated():
    v = moderate("I want to kill myself tonight, I have the pills ready")
    assert v.category == "SELF_HARM" and v.escalation_required


def test_profanity_alone_is_logged_not_blocked():
    v = moderate("what a shitty day")
    assert (v.category, v.action, v.status) == ("PROFANITY", "LOG_ONLY", "ALLOWED")


def test_minor_signals_together_raise_severity():
    v = moderate("SHUT UP YOU STUPID FUCKING IDIOT, NOBODY WANTS YOU HERE")
    assert "MULTIPLE_MINOR_SIGNALS" in v.detected_signals
    assert v.severity in ("HIGH", "CRITICAL")


def test_from_dict_validates_and_round_trips():
    v = moderate("this is bullshit")
    again = Verdict.from_dict(v.to_dict())
    assert again.category == v.category and again.detected_signals == v.detected_signals
    with pytest.raises(ValueError):
        Verdict.from_dict({"category": "NOT_A_CATEGORY"})


def test_long_repeated_text_is_repetition_spam():
    # How fast this is measured by benchmarks/moderation_speed.py, not by a unit test.
    text = ("The council met on Tuesday to discuss bus routes and the parks budget. " * 30)[:2000]
    v = moderate(text)
    assert (v.category, v.action, v.status) == ("SPAM", "BLOCK", "DISALLOWED")
    assert "SPAM_REPETITION" in v.detected_signals
