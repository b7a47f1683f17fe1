"""Texts, expected shapes and request helpers shared by the moderation tests."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from moderation.engine import VerdictDict, moderate

# The fields every verdict carries; redacted_content is added on REDACT only.
VERDICT_FIELDS: frozenset[str] = frozenset(VerdictDict.__annotations__) - {"redacted_content"}
# Every field but `scores`, which Nova adds to the standard verdict fields.
SPEC_FIELDS: frozenset[str] = VERDICT_FIELDS - {"scores"}

SAFE_TEXT = "What time does the store open on Sunday?"
THREAT_TEXT = "I will kill you, I know where you live"  # escalation_required
QUOTED_TEXT = (  # uncertain: a quoted threat in a news report
    'The news report said the gunman shouted "I will kill you all" before police arrived.'
)
POLICIES = (
    "#policy 1: no promotion of other crypto exchanges\n"
    "#policy 2: no medical dosage advice\n"
    "#policy 3: no mention of competitor brands Acme or Globex"
)


def post_moderation(client: APIClient, **body: Any) -> dict[str, Any]:
    """POST /v1/moderation, expect 200 and return the verdict."""
    response = client.post("/v1/moderation", body, format="json")
    assert response.status_code == 200, response.content
    return dict(response.json())


def assert_child_safety_rule(v: Any) -> None:
    """Contract 10: child sexual content is CHILD_SAFETY, CRITICAL, BANNED for 365 days,
    auto_fail, confidence 1.00, whatever found it."""
    assert (v.category, v.severity, v.action, v.banned_days) == (
        "CHILD_SAFETY",
        "CRITICAL",
        "BANNED",
        365,
    )
    assert v.auto_fail and v.confidence == 1.0


def assert_not_flagged(text: str) -> None:
    """The engine lets `text` through (ALLOWED or softened; never DISALLOWED)."""
    v = moderate(text)
    assert v.status != "DISALLOWED", (text, v.category, v.detected_signals)


def assert_flagged_as(text: str, category: str) -> None:
    """The engine blocks `text` with `category` as its main category."""
    v = moderate(text)
    assert (v.status, v.category) == ("DISALLOWED", category), (text, v.detected_signals)
