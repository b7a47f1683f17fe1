"""Bearer API-key authentication (contract §2): one query per request."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from accounts.models import KEY_PREFIX, ApiKey, User, digest_key
from billing.models import ZERO, Balance
from core.errors import AuthenticationError

_KEY_SHAPE = re.compile(r"^sk-[A-Za-z0-9_-]{32,128}$")
LAST_USED_RESOLUTION = timedelta(minutes=1)


def parse_bearer(header: str | None) -> str | None:
    """The raw key of an Authorization header, or None when no header was sent."""
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise AuthenticationError("Malformed Authorization header: expected 'Bearer sk-...'.")
    return token.strip()


def _active_keys(raw_key: str) -> QuerySet[ApiKey]:
    if not raw_key.startswith(KEY_PREFIX) or not _KEY_SHAPE.match(raw_key):
        raise AuthenticationError("Invalid API key.")
    # Lookup by the HMAC digest: an indexed equality on a value an attacker cannot choose
    # to collide, so no timing-sensitive comparison of the secret happens in Python.
    return ApiKey.objects.select_related("user").filter(
        digest=digest_key(raw_key), revoked_at__isnull=True, user__is_active=True
    )


def authenticate_key(raw_key: str) -> ApiKey:
    """The active key for a raw key, with its user loaded; AuthenticationError otherwise."""
    key = _active_keys(raw_key).first()
    if key is None:
        raise AuthenticationError("Invalid API key.")
    return key


def authenticate_key_with_balance(raw_key: str) -> tuple[ApiKey, Decimal]:
    """:func:`authenticate_key` plus the user's balance, still in one query (chat's 402 check)."""
    balance = Balance.objects.filter(user_id=OuterRef("user_id")).values("amount")[:1]
    key = _active_keys(raw_key).annotate(balance_amount=Subquery(balance)).first()
    if key is None:
        raise AuthenticationError("Invalid API key.")
    amount = getattr(key, "balance_amount", None)
    return key, amount if amount is not None else ZERO


def touch_last_used(key: ApiKey) -> None:
    """Record use at most once a minute, so authentication stays one query per request."""
    now = timezone.now()
    if key.last_used_at is None or now - key.last_used_at > LAST_USED_RESOLUTION:
        ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
        key.last_used_at = now


class ApiKeyAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[User, ApiKey] | None:
        raw_key = parse_bearer(request.META.get("HTTP_AUTHORIZATION"))
        if raw_key is None:
            return None
        key = authenticate_key(raw_key)
        touch_last_used(key)
        return key.user, key

    def authenticate_header(self, request: Request) -> str:
        return "Bearer"
