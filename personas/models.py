from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import GreaterThan, LessThanOrEqual

from core.models import TimestampedModel

CONTENT_MAX_LENGTH = 10_000
TITLE_MAX_LENGTH = 200
DEFAULT_MODEL_ID = "nova-local"


def new_revision() -> int:
    return secrets.randbits(48)


class Persona(TimestampedModel):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="personas",
        help_text="Empty for Nova's built-in personas.",
    )
    name = models.CharField(max_length=100)
    description = models.CharField(max_length=500)
    category = models.CharField(max_length=50, blank=True, default="general", db_index=True)
    system_prompt = models.TextField()
    default_model = models.CharField(max_length=100, default=DEFAULT_MODEL_ID)
    default_temperature = models.FloatField(default=0.7)
    is_public = models.BooleanField(default=False, db_index=True)
    # Bumped in the same transaction as every write to the persona or its training data
    # (personas.services.bump_persona_revision): chat reads it with the persona's visibility
    # on every request and reuses a cached rendering only while it matches. It starts at a
    # random value so that a new persona that reuses a deleted one's id (SQLite reuses row
    # ids) never matches a rendering cached for the old one.
    revision = models.PositiveBigIntegerField(default=new_revision, editable=False)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(default_temperature__gte=0, default_temperature__lte=2),
                name="persona_temperature_range",
            ),
            models.CheckConstraint(
                condition=models.Q(owner__isnull=False) | models.Q(is_public=True),
                name="persona_builtin_is_public",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"

    @property
    def is_builtin(self) -> bool:
        return self.owner_id is None


class TrainingDataItem(TimestampedModel):
    class Type(models.TextChoices):
        TEXT = "text", "Text"
        QA_PAIR = "qa_pair", "Question and answer"
        EXAMPLE = "example", "Example"
        DOCUMENT = "document", "Document"
        KNOWLEDGE = "knowledge", "Knowledge"

    persona = models.ForeignKey(Persona, on_delete=models.CASCADE, related_name="training_items")
    type = models.CharField(max_length=20, choices=Type.choices)
    title = models.CharField(max_length=TITLE_MAX_LENGTH, blank=True, default="")
    content = models.TextField()
    metadata = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(
                    type__in=["text", "qa_pair", "example", "document", "knowledge"]
                ),
                name="training_item_type_valid",
            ),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("content"), CONTENT_MAX_LENGTH)
                & GreaterThan(Length("content"), 0),
                name="training_item_content_length",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_type_display()}: {self.title or self.content[:40]}"

    @property
    def question(self) -> str:
        value = (self.metadata or {}).get("question", "")
        return value if isinstance(value, str) else ""
