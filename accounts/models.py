from __future__ import annotations

import hashlib
import hmac
import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone

KEY_PREFIX = "sk-"
DISPLAY_PREFIX_LENGTH = 12


class User(AbstractUser):
    """Custom user from day one, so later fields need no swap of AUTH_USER_MODEL."""

    class Meta:
        db_table = "accounts_user"


def digest_key(raw_key: str) -> str:
    """HMAC-SHA256 of a raw key: what the database stores instead of the key."""
    return hmac.new(
        settings.API_KEY_HASH_SECRET.encode(), raw_key.encode(), hashlib.sha256
    ).hexdigest()


class ApiKey(models.Model):
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=100, blank=True, default="")
    prefix = models.CharField(max_length=DISPLAY_PREFIX_LENGTH, db_index=True)
    digest = models.CharField(max_length=64, unique=True)
    detailed_logging = models.BooleanField(default=False)
    rpm_limit = models.PositiveIntegerField(default=60)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rpm_limit__gte=1), name="apikey_rpm_positive"
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
