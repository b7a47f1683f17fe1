from __future__ import annotations

import hashlib
import hmac
import secrets
from decimal import Decimal

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone

KEY_PREFIX = "sk-"
DISPLAY_PREFIX_LENGTH = 12


class LimitReset(models.TextChoices):
    """When a spend limit's window starts again (00:00 UTC; weeks start on Monday)."""

    DAILY = "daily", "Daily"
    WEEKLY = "weekly", "Weekly"
    MONTHLY = "monthly", "Monthly"
    NEVER = "never", "Never"


class Guard(models.TextChoices):
    """Which side of a chat the chat guard moderates (docs/moderation.md, Chat guard)."""

    OFF = "off", "Off"
    INPUT = "input", "Input (the user's latest message)"
    OUTPUT = "output", "Output (the reply, streams included)"
    BOTH = "both", "Input and output"

    @staticmethod
    def combine(*values: str) -> str:
        """The union of several settings: a key's input and a persona's output make both."""
        checks_input = any(v in (Guard.INPUT, Guard.BOTH) for v in values)
        checks_output = any(v in (Guard.OUTPUT, Guard.BOTH) for v in values)
        if checks_input and checks_output:
            return Guard.BOTH.value
        if checks_input:
            return Guard.INPUT.value
        return Guard.OUTPUT.value if checks_output else Guard.OFF.value


def guard_field() -> models.CharField[str, str]:
    """The ``guard`` column, the same on API keys and on personas."""
    return models.CharField(
        max_length=10,
        choices=Guard.choices,
        default=Guard.OFF,
        help_text="Moderate chats: the user's latest message (input), the reply (output), "
        "or both (docs/moderation.md, Chat guard).",
    )


def _limit_field() -> models.DecimalField[Decimal | None, Decimal | None]:
    # The size of every money column (billing.money: 20 digits, 8 decimal places), spelled out
    # here because accounts imports no app above it.
    return models.DecimalField(
        max_digits=20,
        decimal_places=8,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal(0))],
        help_text="Spend limit in USD per window; empty for none (docs/billing.md, Spend limits).",
    )


def _limit_reset_field() -> models.CharField[str, str]:
    return models.CharField(
        max_length=10,
        choices=LimitReset.choices,
        default=LimitReset.NEVER,
        help_text="When the limit's window starts again (00:00 UTC; weeks start on Monday).",
    )


class SpendLimited(models.Model):
    """A spend limit in USD over a window of time; billing checks it before generation."""

    limit = _limit_field()
    limit_reset = _limit_reset_field()

    class Meta:
        abstract = True

    def set_limit(self, limit: Decimal | None, limit_reset: str | None = None) -> None:
        """Set the limit (None: no limit) and, when given, its reset period, together."""
        if limit is not None and limit < 0:
            raise ValueError("a spend limit is never negative")
        self.limit = limit
        if limit_reset is not None:
            self.limit_reset = LimitReset(limit_reset).value


class User(AbstractUser, SpendLimited):
    """Custom user from day one, so later fields need no swap of AUTH_USER_MODEL."""

    class Meta:
        db_table = "accounts_user"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(limit__isnull=True) | models.Q(limit__gte=0),
                name="user_limit_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.get_username()


def digest_key(raw_key: str) -> str:
    """HMAC-SHA256 of a raw key: what the database stores instead of the key."""
    return hmac.new(
        settings.API_KEY_HASH_SECRET.encode(), raw_key.encode(), hashlib.sha256
    ).hexdigest()


class ApiKey(SpendLimited):
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=100, blank=True, default="")
    prefix = models.CharField(max_length=DISPLAY_PREFIX_LENGTH, db_index=True)
    digest = models.CharField(max_length=64, unique=True)
    detailed_logging = models.BooleanField(default=False)
    rpm_limit = models.PositiveIntegerField(default=60)
    guard = guard_field()
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rpm_limit__gte=1), name="apikey_rpm_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(limit__isnull=True) | models.Q(limit__gte=0),
                name="apikey_limit_not_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(guard__in=Guard.values),
                name="apikey_guard_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name or 'unnamed'})"

    def set_new_key(self) -> str:
        """Generate a fresh key, store only its digest and display prefix, return the raw key."""
        raw_key = KEY_PREFIX + secrets.token_urlsafe(32)
        self.prefix = raw_key[:DISPLAY_PREFIX_LENGTH]
        self.digest = digest_key(raw_key)
        return raw_key

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
