from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Self

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length
from django.db.models.lookups import GreaterThan, LessThanOrEqual

from accounts.models import Guard, guard_field
from core.models import TimestampedModel

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser

NAME_MAX_LENGTH = 100
DESCRIPTION_MAX_LENGTH = 500
CATEGORY_MAX_LENGTH = 50
CONTENT_MAX_LENGTH = 10_000
TITLE_MAX_LENGTH = 200
DEFAULT_MODEL_ID = "nova-local"


def new_revision() -> int:
    return secrets.randbits(48)


# --- Who may see and who owns a persona (docs/personas.md, Visibility) ---


def user_id_of(user: AbstractBaseUser | AnonymousUser | None) -> int | None:
    """The id of a signed-in user; None for an anonymous one (or no user at all)."""
    if user is None or not user.is_authenticated:
        return None
    return int(user.pk)


def persona_owned(*, owner_id: int | None, user_id: int | None) -> bool:
    """Whether the user owns the persona. Built-ins (no owner) are nobody's, and an anonymous
    user (no id) owns nothing."""
    return owner_id is not None and owner_id == user_id


def persona_visible(*, is_public: bool, owner_id: int | None, user_id: int | None) -> bool:
    """Whether the user may see the persona: it is public, or the user owns it.

    The rule of :meth:`PersonaQuerySet.visible_to` for a row already read.
    """
    return is_public or persona_owned(owner_id=owner_id, user_id=user_id)


def _owned_by(user_id: int | None) -> Q:
    # persona_owned as a filter: a NULL owner equals no id, and an anonymous caller owns nothing.
    return Q(owner_id=user_id) if user_id is not None else Q(pk__in=[])


class PersonaQuerySet(models.QuerySet["Persona"]):
    def visible_to(self, user: AbstractBaseUser | AnonymousUser | None) -> Self:
        """The personas :func:`persona_visible` lets the user see (anonymous: public only)."""
        return self.filter(Q(is_public=True) | _owned_by(user_id_of(user)))

    def owned_by(self, user: AbstractBaseUser | AnonymousUser | None) -> Self:
        """The personas :func:`persona_owned` says are the user's."""
        return self.filter(_owned_by(user_id_of(user)))

    def not_owned_by(self, user: AbstractBaseUser | AnonymousUser | None) -> Self:
        """The personas that are not the user's: others' and the built-ins."""
        return self.exclude(_owned_by(user_id_of(user)))


class Persona(TimestampedModel):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="personas",
        help_text="Empty for Nova's built-in personas.",
    )
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    description = models.CharField(max_length=DESCRIPTION_MAX_LENGTH)
    category = models.CharField(
        max_length=CATEGORY_MAX_LENGTH, blank=True, default="general", db_index=True
    )
    system_prompt = models.TextField()
    default_model = models.CharField(max_length=100, default=DEFAULT_MODEL_ID)
    default_temperature = models.FloatField(default=0.7)
    is_public = models.BooleanField(default=False, db_index=True)
    # The chat guard every chat with this persona gets, whatever the caller's key asks
    # (the stricter of the two applies: chat.guard).
    guard = guard_field()
    # Bumped in the same transaction as every write to the persona or its training data
    # (personas.services.bump_persona_revision): chat reads it with the persona's visibility
    # on every request and reuses a cached rendering only while it matches. It starts at a
    # random value so that a new persona that reuses a deleted one's id (SQLite reuses row
    # ids) never matches a rendering cached for the old one.
    revision = models.PositiveBigIntegerField(default=new_revision, editable=False)

    objects = PersonaQuerySet.as_manager()

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
            models.CheckConstraint(
                condition=models.Q(guard__in=Guard.values), name="persona_guard_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"

    @property
    def is_builtin(self) -> bool:
        return self.owner_id is None

    def is_visible_to(self, user_id: int | None) -> bool:
        return persona_visible(is_public=self.is_public, owner_id=self.owner_id, user_id=user_id)

    def is_owned_by(self, user_id: int | None) -> bool:
        return persona_owned(owner_id=self.owner_id, user_id=user_id)


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
