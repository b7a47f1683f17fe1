"""The moderation verdict: what one assessment decided (docs/moderation.md, "The verdict")."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NotRequired, TypedDict

from core.text import count_tokens as _count_tokens
from core.text import storable_text

from .vocabulary import ACTIONS, AMBIGUITY_REASONS, CATEGORIES, SAFE, SEVERITIES, STATUSES

# Bump whenever the built-in policy set changes: the rules, lexicons, thresholds or model.
POLICY_VERSION = "nova-moderation-2026.12.91"


def count_tokens(text: str) -> int:
    """Token count used for `usage` (the project's shared counter)."""
    return _count_tokens(text)


class UsageDict(TypedDict):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class VerdictDict(TypedDict):
    status: str
    category: str
    severity: str
    action: str
    banned_days: int | None
    reason: str
    confidence: float
    uncertainty_flag: bool
    ambiguity_reason: str
    escalation_required: bool
    auto_fail: bool
    detected_signals: list[str]
    policy_version: str
    timestamp: str
    usage: UsageDict
    scores: dict[str, float]
    redacted_content: NotRequired[str]


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> UsageDict:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.total_tokens,
        }


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Verdict:
    """One moderation decision.

    Build raw verdicts freely (the engine, or an LLM judge's merged answer), then pass them
    through `apply_escalation()`, which enforces the escalation rules and derives `status`
    (docs/moderation.md, "Escalation rules").
    `detected_signals` holds category names (e.g. "VIOLENCE"), finer triggers (e.g. "THREAT",
    "PII_EMAIL") and custom-policy breaches ("POLICY_3").
    """

    category: str = SAFE
    severity: str = "LOW"
    action: str = "ALLOW"
    status: str = "ALLOWED"
    banned_days: int | None = None
    reason: str = "No policy violation detected."
    confidence: float = 1.0
    uncertainty_flag: bool = False
    ambiguity_reason: str = "NONE"
    escalation_required: bool = False
    auto_fail: bool = False
    detected_signals: tuple[str, ...] = ()
    policy_version: str = POLICY_VERSION
    timestamp: datetime = field(default_factory=_now)
    usage: Usage = field(default_factory=Usage)
    scores: Mapping[str, float] = field(default_factory=dict)
    redacted_content: str | None = None
    # The engine's "any category" score (not part of the API body; benchmarks rank by it).
    risk: float = 0.0

    @property
    def allowed(self) -> bool:
        return self.status == "ALLOWED"

    def replace(self, **changes: Any) -> Verdict:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> VerdictDict:
        timestamp = self.timestamp.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        data: VerdictDict = {
            "status": self.status,
            "category": self.category,
            "severity": self.severity,
            "action": self.action,
            "banned_days": self.banned_days,
            # reason and redacted_content can echo the caller's text; a lone surrogate in it
            # has no UTF-8 form and would crash the JSON renderer, so it is replaced.
            "reason": storable_text(self.reason),
            "confidence": round(float(self.confidence), 2),
            "uncertainty_flag": self.uncertainty_flag,
            "ambiguity_reason": self.ambiguity_reason,
            "escalation_required": self.escalation_required,
            "auto_fail": self.auto_fail,
            "detected_signals": list(self.detected_signals),
            "policy_version": self.policy_version,
            "timestamp": timestamp,
            "usage": self.usage.to_dict(),
            "scores": {name: round(float(p), 4) for name, p in self.scores.items()},
        }
        if self.action == "REDACT" and self.redacted_content is not None:
            data["redacted_content"] = storable_text(self.redacted_content)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Verdict:
        """Build a raw verdict from a JSON-like mapping (e.g. an LLM judge's answer).

        Unknown keys are ignored; a value outside the vocabulary (`vocabulary.py`) raises
        ValueError.
        Run the result through `apply_escalation()` before using it.
        """
        kwargs: dict[str, Any] = {}
        for name, allowed in (
            ("category", CATEGORIES),
            ("severity", SEVERITIES),
            ("action", ACTIONS),
            ("status", STATUSES),
            ("ambiguity_reason", AMBIGUITY_REASONS),
        ):
            if name in data:
                value = str(data[name]).upper()
                if value not in allowed:
                    raise ValueError(f"{name} must be one of {', '.join(allowed)}")
                kwargs[name] = value
        if data.get("banned_days") is not None:
            kwargs["banned_days"] = int(data["banned_days"])
        if "reason" in data:
            kwargs["reason"] = str(data["reason"])
        if "confidence" in data:
            confidence = float(data["confidence"])
            if not 0.0 <= confidence <= 1.0:
                raise ValueError("confidence must be between 0 and 1")
            kwargs["confidence"] = confidence
        for flag in ("uncertainty_flag", "escalation_required", "auto_fail"):
            if flag in data:
                kwargs[flag] = bool(data[flag])
        if "detected_signals" in data:
            signals = data["detected_signals"]
            if not isinstance(signals, list | tuple):
                raise ValueError("detected_signals must be a list of strings")
            kwargs["detected_signals"] = tuple(str(s).upper() for s in signals)
        if isinstance(data.get("scores"), Mapping):
            kwargs["scores"] = {str(k): float(v) for k, v in data["scores"].items()}
        if data.get("redacted_content") is not None:
            kwargs["redacted_content"] = str(data["redacted_content"])
        return cls(**kwargs)
