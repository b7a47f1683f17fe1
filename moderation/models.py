"""Recorded moderation verdicts and the review queue (docs/moderation.md, "What is stored").

Every verdict is recorded as a `ModerationVerdict` **without the content**: only what the
engine decided (category, action, severity, scores, signals, flags) and who asked. A verdict
with `uncertainty_flag` or `escalation_required` also gets a `ReviewItem`, which keeps the
content (and the custom policy and instructions it was judged under) for an operator.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.utils import timezone

from moderation.engine import vocabulary
from moderation.engine.vocabulary import ALLOWED_ACTIONS

if TYPE_CHECKING:
    from accounts.models import User


class ModerationVerdict(models.Model):
    Category = vocabulary.Category
    Severity = vocabulary.Severity
    Action = vocabulary.Action
    Status = vocabulary.Status

    class Endpoint(models.TextChoices):
        MODERATION = "moderation", "POST /v1/moderation"
        MODERATIONS = "moderations", "POST /v1/moderations (OpenAI shape)"
        CHAT_INPUT = "chat_input", "Chat guard: the user's message"
        CHAT_OUTPUT = "chat_output", "Chat guard: the reply"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="moderation_verdicts"
    )
    api_key = models.ForeignKey(
        "accounts.ApiKey",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="moderation_verdicts",
    )
    endpoint = models.CharField(max_length=20, choices=Endpoint.choices)
    # The chat a guard verdict was given in, once that chat's turn is saved (docs/moderation.md,
    # Chat guard); null for the moderation endpoints.
    conversation = models.ForeignKey(
        "conversations.Conversation",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="moderation_verdicts",
    )
    status = models.CharField(max_length=10, choices=Status.choices)
    category = models.CharField(max_length=20, choices=Category.choices, db_index=True)
    severity = models.CharField(max_length=10, choices=Severity.choices)
    action = models.CharField(max_length=10, choices=Action.choices)
    banned_days = models.PositiveIntegerField(null=True, blank=True)
    confidence = models.FloatField()
    uncertainty_flag = models.BooleanField(default=False)
    ambiguity_reason = models.CharField(max_length=20, default="NONE")
    escalation_required = models.BooleanField(default=False)
    auto_fail = models.BooleanField(default=False)
    detected_signals = models.JSONField(default=list, blank=True)
    scores = models.JSONField(default=dict, blank=True)
    policy_version = models.CharField(max_length=64)
    custom_policy_count = models.PositiveIntegerField(
        default=0, help_text="How many #policy lines the request carried (their text is not kept)."
    )
    judge_model = models.CharField(
        max_length=100, blank=True, default="", help_text="The LLM judge consulted, if any."
    )
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at"], name="modverdict_user_created")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(confidence__gte=0, confidence__lte=1),
                name="modverdict_confidence_range",
            ),
            # A verdict is ALLOWED exactly when its action lets the content through.
            models.CheckConstraint(
                condition=(
                    models.Q(status=vocabulary.Status.ALLOWED, action__in=list(ALLOWED_ACTIONS))
                    | (
                        models.Q(status=vocabulary.Status.DISALLOWED)
                        & ~models.Q(action__in=list(ALLOWED_ACTIONS))
                    )
                ),
                name="modverdict_status_matches_action",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.category}/{self.action} (#{self.pk})"

    @property
    def needs_review(self) -> bool:
        return self.uncertainty_flag or self.escalation_required


class ReviewItem(models.Model):
    State = vocabulary.ReviewState

    verdict = models.OneToOneField(
        ModerationVerdict, on_delete=models.CASCADE, related_name="review_item"
    )
    content = models.TextField()
    policy = models.TextField(blank=True, default="")
    instructions = models.TextField(blank=True, default="")
    reason = models.TextField(blank=True, default="", help_text="The verdict's explanation.")
    state = models.CharField(
        max_length=12, choices=State.choices, default=State.PENDING, db_index=True
    )
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="moderation_reviews",
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            # A decided item always says when it was decided; a pending one never does.
            models.CheckConstraint(
                condition=(
                    models.Q(state=vocabulary.ReviewState.PENDING, reviewed_at__isnull=True)
                    | (
                        ~models.Q(state=vocabulary.ReviewState.PENDING)
                        & models.Q(reviewed_at__isnull=False)
                    )
                ),
                name="reviewitem_reviewed_at_matches_state",
            ),
        ]

    def __str__(self) -> str:
        return f"Review of verdict #{self.verdict_id} ({self.state})"

    def decide(self, *, state: str, reviewer: User | None, note: str, at: datetime) -> None:
        """Set the decision fields together (the service saves and locks)."""
        self.state = state
        self.reviewer = reviewer
        self.reviewed_at = at
        self.note = note
