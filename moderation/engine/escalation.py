"""The escalation rules, enforced on every verdict (docs/moderation.md, "Escalation rules").

`apply_escalation()` runs after classification, whatever produced the verdict (the engine, or
an LLM judge's answer merged with the engine's signals). It is idempotent, and each rule is one
small function so that each has its own test:

1. child sexual content -> CHILD_SAFETY, CRITICAL, BANNED, 365 days, auto_fail, confidence 1.00;
2. credible terrorism/extremism threats or detailed violence planning -> CRITICAL, BANNED,
   auto_fail, confidence 1.00;
3. three or more minor risk signals -> severity one level up (once); CRITICAL means BANNED;
4. zero-tolerance outcomes (auto_fail) have confidence 1.00;
5. conflicting signals -> uncertainty_flag, confidence lowered (at most 0.70), an
   ambiguity_reason;
6. status is ALLOWED exactly when the action is ALLOW or LOG_ONLY; every BANNED verdict has a
   suggested banned_days and no other verdict has one; a SAFE verdict is ALLOW, LOW, with no
   signals; ESCALATE and auto_fail verdicts require human review.
"""

from __future__ import annotations

from .verdict import Verdict
from .vocabulary import ALLOWED_ACTIONS, SAFE, SCORED_CATEGORIES, SEVERITIES

CHILD_SAFETY_BAN_DAYS = 365
UNCERTAIN_CONFIDENCE_CAP = 0.7
UNCERTAINTY_PENALTY = 0.8

# Suggested ban per category when a verdict ends as BANNED.
BAN_DAYS: dict[str, int] = {
    "PROFANITY": 1,
    "SPAM": 7,
    "PII": 7,
    "SELF_HARM": 7,
    "HARASSMENT": 30,
    "SEXUAL": 30,
    "HATE_SPEECH": 90,
    "ILLEGAL": 90,
    "VIOLENCE": 180,
    "EXTREMISM": 365,
    "CHILD_SAFETY": CHILD_SAFETY_BAN_DAYS,
}

# Signals that trigger rule 2.
TERROR_THREAT = "TERROR_THREAT"
VIOLENCE_PLANNING = "VIOLENCE_PLANNING"
ZERO_TOLERANCE_VIOLENCE = frozenset({TERROR_THREAT, VIOLENCE_PLANNING})
# Rule 3: low-level risk signals ("mild threats, spam, profanity").
MINOR_SIGNALS = frozenset({"PROFANITY", "SPAM", "MILD_THREAT", "INSULT", "SHOUTING"})
MULTIPLE_MINOR_SIGNALS = "MULTIPLE_MINOR_SIGNALS"

# Finer signals and the category they belong to; category names map to themselves.
SIGNAL_CATEGORY: dict[str, str] = {
    **{name: name for name in SCORED_CATEGORIES},
    "THREAT": "VIOLENCE",
    "MILD_THREAT": "VIOLENCE",
    VIOLENCE_PLANNING: "VIOLENCE",
    TERROR_THREAT: "EXTREMISM",
    "EXTREMIST_PRAISE": "EXTREMISM",
    "EXTREMIST_RECRUITMENT": "EXTREMISM",
    "INSULT": "HARASSMENT",
    "SHOUTING": "SPAM",
    "MINOR_SEXUAL": "CHILD_SAFETY",
    "DRUG_TRADE": "ILLEGAL",
    "DRUG_MANUFACTURE": "ILLEGAL",
    "WEAPON_TRADE": "ILLEGAL",
    "FAKE_DOCUMENTS": "ILLEGAL",
    "FRAUD": "ILLEGAL",
}
# Which category names a verdict when several signals are present (most serious first).
CATEGORY_PRIORITY: tuple[str, ...] = (
    "CHILD_SAFETY",
    "EXTREMISM",
    "VIOLENCE",
    "SELF_HARM",
    "HATE_SPEECH",
    "ILLEGAL",
    "SEXUAL",
    "HARASSMENT",
    "PII",
    "SPAM",
    "PROFANITY",
)
# A custom-policy breach on otherwise clean content is reported as unwanted content.
POLICY_FALLBACK_CATEGORY = "SPAM"


def is_policy_signal(signal: str) -> bool:
    return signal.startswith("POLICY_") and signal[7:].isdigit()


def _known_signal(signal: str) -> bool:
    return (
        signal in SIGNAL_CATEGORY
        or signal in MINOR_SIGNALS
        or signal == MULTIPLE_MINOR_SIGNALS
        or is_policy_signal(signal)
        or signal.startswith(("PII_", "SPAM_", "ILLEGAL_", "EXTREMISM_", "INSTRUCTION_"))
    )


def category_for_signals(signals: tuple[str, ...]) -> str:
    """The most serious category among `signals` (SAFE when none maps to one)."""
    found = {SIGNAL_CATEGORY[s] for s in signals if s in SIGNAL_CATEGORY}
    for category in CATEGORY_PRIORITY:
        if category in found:
            return category
    if any(is_policy_signal(s) for s in signals):
        return POLICY_FALLBACK_CATEGORY
    for signal in signals:
        prefix = signal.split("_", 1)[0]
        if prefix in ("PII", "SPAM", "ILLEGAL", "EXTREMISM"):
            return prefix
    return SAFE


def _raise_severity(severity: str) -> str:
    return SEVERITIES[min(SEVERITIES.index(severity) + 1, len(SEVERITIES) - 1)]


def _dedupe(signals: tuple[str, ...]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for signal in signals:
        seen.setdefault(signal.strip().upper(), None)
    return tuple(s for s in seen if s)


def _consistent_category(v: Verdict) -> Verdict:
    """Signals and category agree: a flagged category is a signal; signals imply a category."""
    signals = _dedupe(v.detected_signals)
    category = v.category
    if category == SAFE and signals:
        category = category_for_signals(signals)
        if category == SAFE:
            # Only unknown signals on a SAFE verdict: nothing to act on.
            signals = tuple(s for s in signals if _known_signal(s))
    if category != SAFE and category not in signals:
        signals = (category, *signals)
    return v.replace(category=category, detected_signals=signals)


def _zero_tolerance(v: Verdict, category: str, ban_days: int) -> Verdict:
    return v.replace(
        category=category,
        severity="CRITICAL",
        action="BANNED",
        banned_days=ban_days,
        auto_fail=True,
        confidence=1.0,
        uncertainty_flag=False,
        ambiguity_reason="NONE",
        escalation_required=True,
        detected_signals=v.detected_signals
        if category in v.detected_signals
        else (category, *v.detected_signals),
    )


def rule_child_safety(v: Verdict) -> Verdict:
    """Rule 1: sexual content involving minors is CRITICAL, BANNED for 365 days, auto_fail."""
    if v.category == "CHILD_SAFETY" or "CHILD_SAFETY" in v.detected_signals:
        return _zero_tolerance(v, "CHILD_SAFETY", CHILD_SAFETY_BAN_DAYS)
    return v


def rule_violent_extremism(v: Verdict) -> Verdict:
    """Rule 2: credible terror threats or detailed violence planning are CRITICAL and BANNED."""
    hits = ZERO_TOLERANCE_VIOLENCE.intersection(v.detected_signals)
    if not hits or v.category == "CHILD_SAFETY":
        return v
    if v.category in ("VIOLENCE", "EXTREMISM"):
        category = v.category
    else:
        category = "EXTREMISM" if TERROR_THREAT in hits else "VIOLENCE"
    days = max(BAN_DAYS[category], v.banned_days or 0)
    return _zero_tolerance(v, category, days)


def rule_minor_signals(v: Verdict) -> Verdict:
    """Rule 3: three or more minor risk signals raise the severity one level, once."""
    if v.category == SAFE or MULTIPLE_MINOR_SIGNALS in v.detected_signals:
        return v
    if len(MINOR_SIGNALS.intersection(v.detected_signals)) < 3:
        return v
    return v.replace(
        severity=_raise_severity(v.severity),
        detected_signals=(*v.detected_signals, MULTIPLE_MINOR_SIGNALS),
    )


def rule_critical_means_banned(v: Verdict) -> Verdict:
    """Rule 3 (second half): a CRITICAL verdict is BANNED."""
    if v.severity == "CRITICAL" and v.action != "BANNED":
        return v.replace(action="BANNED")
    return v


def rule_zero_tolerance_confidence(v: Verdict) -> Verdict:
    """Rule 4: auto_fail verdicts are CRITICAL, BANNED and certain (confidence 1.00)."""
    if not v.auto_fail:
        return v
    return v.replace(
        severity="CRITICAL",
        action="BANNED",
        confidence=1.0,
        uncertainty_flag=False,
        ambiguity_reason="NONE",
        escalation_required=True,
    )


def rule_uncertainty(v: Verdict) -> Verdict:
    """Rule 5: conflicting signals set uncertainty_flag, a reason, and lower the confidence."""
    if v.auto_fail or (not v.uncertainty_flag and v.ambiguity_reason == "NONE"):
        return v
    reason = v.ambiguity_reason if v.ambiguity_reason != "NONE" else "MIXED_SIGNALS"
    confidence = min(v.confidence, UNCERTAIN_CONFIDENCE_CAP)
    if not v.uncertainty_flag:
        # First time the conflict is recorded: lower the engine's confidence.
        confidence = min(confidence, v.confidence * UNCERTAINTY_PENALTY)
    return v.replace(uncertainty_flag=True, ambiguity_reason=reason, confidence=confidence)


def rule_safe_and_status(v: Verdict) -> Verdict:
    """Rule 6: SAFE shape, ban days only on BANNED, review on ESCALATE, status from action."""
    if v.category == SAFE:
        v = v.replace(
            severity="LOW",
            action="ALLOW",
            banned_days=None,
            detected_signals=(),
            auto_fail=False,
        )
    elif v.action == "ALLOW":
        # Flagged content is at least logged.
        v = v.replace(action="LOG_ONLY")
    if v.action == "BANNED":
        days = v.banned_days if v.banned_days and v.banned_days > 0 else BAN_DAYS[v.category]
        v = v.replace(banned_days=days)
    elif v.banned_days is not None:
        v = v.replace(banned_days=None)
    if v.action == "ESCALATE" and not v.escalation_required:
        v = v.replace(escalation_required=True)
    if v.action != "REDACT" and v.redacted_content is not None:
        v = v.replace(redacted_content=None)
    status = "ALLOWED" if v.action in ALLOWED_ACTIONS else "DISALLOWED"
    confidence = round(min(max(float(v.confidence), 0.0), 1.0), 2)
    return v.replace(status=status, confidence=confidence)


def apply_escalation(verdict: Verdict) -> Verdict:
    """Return `verdict` with every escalation rule enforced (idempotent)."""
    v = _consistent_category(verdict)
    v = rule_child_safety(v)
    v = rule_violent_extremism(v)
    v = rule_minor_signals(v)
    v = rule_critical_means_banned(v)
    v = rule_zero_tolerance_confidence(v)
    v = rule_uncertainty(v)
    return rule_safe_and_status(v)
