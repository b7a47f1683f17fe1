"""The moderation vocabulary: every value a verdict, a recorded verdict or a review can take.

This is the only place these values are written down. The engine, the LLM judge, the
serializers, the models, the admin and the export command all import them from here. The
values are public: clients read them in every verdict and the database stores them, so a
rename is a breaking change (docs/moderation.md, "The verdict").

The choices are Django `TextChoices` so that the models can use them as field choices (their
labels are derived from the names, e.g. "Hate Speech"); the engine compares plain strings and
uses the tuples below, which hold the values in their published order.
"""

from __future__ import annotations

from typing import Literal

from django.db.models import TextChoices


class Category(TextChoices):
    SAFE = "SAFE"
    PROFANITY = "PROFANITY"
    SPAM = "SPAM"
    HARASSMENT = "HARASSMENT"
    PII = "PII"
    SEXUAL = "SEXUAL"
    HATE_SPEECH = "HATE_SPEECH"
    SELF_HARM = "SELF_HARM"
    VIOLENCE = "VIOLENCE"
    ILLEGAL = "ILLEGAL"
    EXTREMISM = "EXTREMISM"
    CHILD_SAFETY = "CHILD_SAFETY"


class Severity(TextChoices):
    """From the least to the most severe."""

    LOW = "LOW"
    MEDIUM = "MEDIUM"
    HIGH = "HIGH"
    CRITICAL = "CRITICAL"


class Action(TextChoices):
    ALLOW = "ALLOW"
    BLOCK = "BLOCK"
    REDACT = "REDACT"
    ESCALATE = "ESCALATE"
    LOG_ONLY = "LOG_ONLY"
    BANNED = "BANNED"


class Status(TextChoices):
    ALLOWED = "ALLOWED"
    DISALLOWED = "DISALLOWED"


class AmbiguityReason(TextChoices):
    NONE = "NONE"
    CONTEXT_MISSING = "CONTEXT_MISSING"
    SATIRE = "SATIRE"
    QUOTED_CONTENT = "QUOTED_CONTENT"
    MIXED_SIGNALS = "MIXED_SIGNALS"


class ReviewState(TextChoices):
    """Where a queued verdict stands with the operators (docs/moderation.md, "Review queue")."""

    PENDING = "pending", "Pending"
    CONFIRMED = "confirmed", "Confirmed"
    OVERTURNED = "overturned", "Overturned"


SAFE: str = Category.SAFE.value
CATEGORIES: tuple[str, ...] = tuple(Category.values)
# Every category but SAFE: the ones the engine scores and can flag.
SCORED_CATEGORIES: tuple[str, ...] = tuple(c for c in CATEGORIES if c != SAFE)
SEVERITIES: tuple[str, ...] = tuple(Severity.values)
ACTIONS: tuple[str, ...] = tuple(Action.values)
# The same actions from the least to the most restrictive: merging two opinions keeps the
# more restrictive one.
ACTIONS_BY_RESTRICTION: tuple[str, ...] = tuple(
    action.value
    for action in (
        Action.ALLOW,
        Action.LOG_ONLY,
        Action.REDACT,
        Action.BLOCK,
        Action.ESCALATE,
        Action.BANNED,
    )
)
# A verdict is ALLOWED exactly when its action is one of these.
ALLOWED_ACTIONS: tuple[str, ...] = (Action.ALLOW.value, Action.LOG_ONLY.value)
STATUSES: tuple[str, ...] = tuple(Status.values)
AMBIGUITY_REASONS: tuple[str, ...] = tuple(AmbiguityReason.values)
REVIEW_STATES: tuple[str, ...] = tuple(ReviewState.values)

# What an operator decides about a pending review item, and the state it then takes.
Decision = Literal["confirm", "overturn"]
DECISION_STATE: dict[Decision, ReviewState] = {
    "confirm": ReviewState.CONFIRMED,
    "overturn": ReviewState.OVERTURNED,
}
