"""Bearer API-key authentication (contract §2): one query per request."""

from __future__ import annotations

import functools
import re
from datetime import timedelta
from decimal import Decimal

from django.db import connection
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


def _check_shape(raw_key: str) -> None:
    if not raw_key.startswith(KEY_PREFIX) or not _KEY_SHAPE.match(raw_key):
        raise AuthenticationError("Invalid API key.")


def _active_keys(raw_key: str) -> QuerySet[ApiKey]:
    _check_shape(raw_key)
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


@functools.cache
def _key_with_balance_sql() -> str:
    """The query of :func:`authenticate_key_with_balance`, written once per process.

    The key's columns, then its user's, then the balance, in the field order of each model, so
    the rows load with ``Model.from_db``. ``_active_keys`` says the same in ORM terms.
    """
    qn = connection.ops.quote_name
    columns = [f"k.{qn(str(f.column))}" for f in ApiKey._meta.concrete_fields]
    columns += [f"u.{qn(str(f.column))}" for f in User._meta.concrete_fields]
    # Only identifiers from the models' metadata, quoted; the digest is a parameter.
    return (
        f"SELECT {', '.join(columns)}, "  # noqa: S608
        f"(SELECT b.{qn('amount')} FROM {qn(Balance._meta.db_table)} b "
        f"WHERE b.{qn('user_id')} = k.{qn('user_id')}) "
        f"FROM {qn(ApiKey._meta.db_table)} k "
        f"JOIN {qn(User._meta.db_table)} u ON u.{qn('id')} = k.{qn('user_id')} "
        f"WHERE k.{qn('digest')} = %s AND k.{qn('revoked_at')} IS NULL AND u.{qn('is_active')}"
    )


def _key_with_balance_postgresql(raw_key: str) -> tuple[ApiKey, Decimal]:
    _check_shape(raw_key)
    with connection.cursor() as cursor:
        cursor.execute(_key_with_balance_sql(), [digest_key(raw_key)])
        row = cursor.fetchone()
    if row is None:
        raise AuthenticationError("Invalid API key.")
    key_fields = [f.attname for f in ApiKey._meta.concrete_fields]
    user_fields = [f.attname for f in User._meta.concrete_fields]
    split = len(key_fields)
    key = ApiKey.from_db(connection.alias, key_fields, row[:split])
    key.user = User.from_db(connection.alias, user_fields, row[split : split + len(user_fields)])
    amount = row[-1]
    return key, amount if amount is not None else ZERO


def authenticate_key_with_balance(raw_key: str) -> tuple[ApiKey, Decimal]:
    """:func:`authenticate_key` plus the user's balance, still in one query (chat's 402 check).

    On PostgreSQL (production, and the chat hot path) the query is plain SQL written once:
    building it through the ORM cost about 1.5 ms of CPU per request, more than its round trip.
    psycopg returns the column types the ORM would (PostgreSQL needs no value converters), so
    the instances are the same. Other databases take the ORM path, whose converters they need.
    """
    if connection.vendor == "postgresql":
        return _key_with_balance_postgresql(raw_key)
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
