from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from moderation.engine import Verdict, apply_escalation
from moderation.engine.escalation import (
    MINOR_SIGNALS,
    MULTIPLE_MINOR_SIGNALS,
    UNCERTAIN_CONFIDENCE_CAP,
    ZERO_TOLERANCE_VIOLENCE,
)
from moderation.engine.vocabulary import (
    ACTIONS,
    AMBIGUITY_REASONS,
    CATEGORIES,
    SCORED_CATEGORIES,
    SEVERITIES,
    STATUSES,
)
from tests.moderation.helpers import assert_child_safety_rule


def test_child_sexual_content_is_critical_banned_365_days_auto_fail():
    v = apply_escalation(
        Verdict(
            category="SEXUAL",
            severity="MEDIUM",
            action="BLOCK",
            confidence=0.6,
            detected_signals=("SEXUAL", "CHILD_SAFETY"),
        )
    )
    assert (v.category, v.severity, v.action, v.banned_days) == (
        "CHILD_SAFETY",
        "CRITICAL",
        "BANNED",
        365,
    )
    assert v.auto_fail and v.confidence == 1.0 and v.status == "DISALLOWED"


def test_terror_threat_is_critical_banned_auto_fail():
    v = apply_escalation(
        Verdict(
            category="HARASSMENT",
            severity="LOW",
            action="LOG_ONLY",
            confidence=0.4,
            detected_signals=("HARASSMENT", "TERROR_THREAT"),
        )
    )
    assert (v.severity, v.action, v.auto_fail, v.confidence) == ("CRITICAL", "BANNED", True, 1.0)
    assert v.category == "EXTREMISM" and v.banned_days and v.banned_days > 0


def test_violence_planning_is_critical_banned_auto_fail():
    v = apply_escalation(
        Verdict(
            category="VIOLENCE",
            severity="HIGH",
            action="BLOCK",
            confidence=0.7,
            detected_signals=("VIOLENCE", "VIOLENCE_PLANNING"),
        )
    )
    assert (v.severity, v.action, v.auto_fail, v.confidence) == ("CRITICAL", "BANNED", True, 1.0)


def test_three_minor_signals_raise_severity_one_level():
    v = apply_escalation(
        Verdict(
            category="HARASSMENT",
            severity="MEDIUM",
            action="BLOCK",
            detected_signals=("HARASSMENT", "INSULT", "PROFANITY", "SHOUTING"),
        )
    )
    assert v.severity == "HIGH"
    assert MULTIPLE_MINOR_SIGNALS in v.detected_signals


def test_two_minor_signals_do_not_raise_severity():
    v = apply_escalation(
        Verdict(
            category="PROFANITY",
            severity="LOW",
            action="LOG_ONLY",
            detected_signals=("PROFANITY", "SHOUTING"),
        )
    )
    assert v.severity == "LOW"


def test_minor_signals_reaching_critical_mean_banned():
    v = apply_escalation(
        Verdict(
            category="HARASSMENT",
            severity="HIGH",
            action="BLOCK",
            detected_signals=("INSULT", "PROFANITY", "MILD_THREAT"),
        )
    )
    assert (v.severity, v.action) == ("CRITICAL", "BANNED")
    assert v.banned_days == 30


def test_zero_tolerance_confidence_is_one():
    v = apply_escalation(
        Verdict(
            category="VIOLENCE", severity="HIGH", action="BLOCK", auto_fail=True, confidence=0.3
        )
    )
    assert v.confidence == 1.0 and v.action == "BANNED" and v.severity == "CRITICAL"


def test_conflicting_signals_set_uncertainty_and_lower_confidence():
    v = apply_escalation(
        Verdict(
            category="HATE_SPEECH",
            severity="HIGH",
            action="BLOCK",
            confidence=0.9,
            ambiguity_reason="QUOTED_CONTENT",
        )
    )
    assert v.uncertainty_flag and v.ambiguity_reason == "QUOTED_CONTENT"
    assert v.confidence <= UNCERTAIN_CONFIDENCE_CAP


def test_uncertainty_without_reason_gets_mixed_signals():
    v = apply_escalation(
        Verdict(
            category="VIOLENCE",
            severity="MEDIUM",
            action="BLOCK",
            uncertainty_flag=True,
            confidence=0.95,
        )
    )
    assert v.ambiguity_reason == "MIXED_SIGNALS" and v.confidence <= UNCERTAIN_CONFIDENCE_CAP


def test_status_follows_action():
    assert apply_escalation(Verdict(category="PROFANITY", action="LOG_ONLY")).status == "ALLOWED"
    assert apply_escalation(Verdict(category="SPAM", action="BLOCK")).status == "DISALLOWED"
    assert apply_escalation(Verdict(category="PII", action="REDACT")).status == "DISALLOWED"


def test_safe_verdict_shape():
    v = apply_escalation(Verdict(category="SAFE", severity="HIGH", action="BLOCK", banned_days=3))
    assert (v.action, v.severity, v.detected_signals, v.banned_days, v.status) == (
        "ALLOW",
        "LOW",
        (),
        None,
        "ALLOWED",
    )


def test_banned_verdict_gets_suggested_days_and_others_none():
    assert apply_escalation(Verdict(category="SPAM", action="BANNED")).banned_days == 7
    assert (
        apply_escalation(Verdict(category="SPAM", action="BLOCK", banned_days=5)).banned_days
        is None
    )


def test_escalate_action_requires_review():
    assert apply_escalation(Verdict(category="SELF_HARM", action="ESCALATE")).escalation_required


def test_signals_on_safe_verdict_name_a_category():
    v = apply_escalation(Verdict(category="SAFE", detected_signals=("THREAT",)))
    assert v.category == "VIOLENCE" and "VIOLENCE" in v.detected_signals


_signals = st.lists(
    st.sampled_from(
        sorted(
            set(SCORED_CATEGORIES)
            | MINOR_SIGNALS
            | ZERO_TOLERANCE_VIOLENCE
            | {"THREAT", "POLICY_1", "POLICY_7", "PII_EMAIL", "WHATEVER", MULTIPLE_MINOR_SIGNALS}
        )
    ),
    max_size=8,
)
_raw_verdicts = st.builds(
    Verdict,
    category=st.sampled_from(CATEGORIES),
    severity=st.sampled_from(SEVERITIES),
    action=st.sampled_from(ACTIONS),
    status=st.sampled_from(STATUSES),
    banned_days=st.one_of(st.none(), st.integers(min_value=-5, max_value=1000)),
    confidence=st.floats(min_value=0.0, max_value=1.0),
    uncertainty_flag=st.booleans(),
    ambiguity_reason=st.sampled_from(AMBIGUITY_REASONS),
    escalation_required=st.booleans(),
    auto_fail=st.booleans(),
    detected_signals=_signals.map(tuple),
    redacted_content=st.one_of(st.none(), st.just("[EMAIL]")),
)

_RANK = {s: i for i, s in enumerate(SEVERITIES)}


@settings(max_examples=500, deadline=None)
@given(_raw_verdicts)
def test_no_final_verdict_breaks_the_escalation_rules(raw: Verdict):
    v = apply_escalation(raw)
    signals = set(v.detected_signals)
    # status is ALLOWED exactly when the action is ALLOW or LOG_ONLY
    assert (v.status == "ALLOWED") == (v.action in ("ALLOW", "LOG_ONLY"))
    # SAFE: ALLOW, LOW, no signals, no ban
    if v.category == "SAFE":
        assert (v.action, v.severity, v.detected_signals, v.banned_days) == (
            "ALLOW",
            "LOW",
            (),
            None,
        )
    else:
        assert v.category in signals
    # every BANNED verdict has a suggested ban, and only BANNED ones
    assert (v.action == "BANNED") == (v.banned_days is not None and v.banned_days > 0)
    # child sexual content
    if "CHILD_SAFETY" in raw.detected_signals or raw.category == "CHILD_SAFETY":
        assert_child_safety_rule(v)
    # credible terror threats / violence planning
    if ZERO_TOLERANCE_VIOLENCE & set(raw.detected_signals):
        assert (v.severity, v.action, v.auto_fail, v.confidence) == (
            "CRITICAL",
            "BANNED",
            True,
            1.0,
        )
    # zero tolerance is certain
    if v.auto_fail:
        assert v.confidence == 1.0 and v.severity == "CRITICAL" and v.action == "BANNED"
    # CRITICAL means BANNED
    if v.severity == "CRITICAL":
        assert v.action == "BANNED"
    # three or more minor signals raise the severity by at least one level
    if (
        raw.category != "SAFE"
        and len(MINOR_SIGNALS & set(raw.detected_signals)) >= 3
        and MULTIPLE_MINOR_SIGNALS not in raw.detected_signals
    ):
        assert _RANK[v.severity] >= min(_RANK[raw.severity] + 1, 3)
    # conflicting signals: flag, reason, lowered confidence
    if v.uncertainty_flag:
        assert v.ambiguity_reason != "NONE" and v.confidence <= UNCERTAIN_CONFIDENCE_CAP
        assert v.confidence <= round(raw.confidence, 2)
    if v.ambiguity_reason != "NONE":
        assert v.uncertainty_flag
    if v.action == "ESCALATE":
        assert v.escalation_required
    assert 0.0 <= v.confidence <= 1.0 and round(v.confidence, 2) == v.confidence
    # the rules are a fixed point
    assert apply_escalation(v) == v
