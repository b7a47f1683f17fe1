"""Bearer API-key authentication (contract §2): one query per request."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection
from django.db.models import QuerySet, Subquery
from django.utils import timezone
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from accounts.models import KEY_PREFIX, ApiKey, User, digest_key
from core.errors import AuthenticationError
from personas.models import Persona

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


@dataclass(frozen=True)
class KeyRead:
    """What the chat path reads with the key in its one query."""

    key: ApiKey
    # The persona asked for: (is_public, owner_id, revision), or None when it does not exist
    # or none was asked for.
    persona: tuple[bool, int | None, int] | None


@functools.cache
def _key_for_chat_sql() -> str:
    """The query of :func:`authenticate_key_for_chat`, written once per process.

    The key's columns, then its user's, in the field order of each model, so the rows load
    with ``Model.from_db``, then the persona's access columns. ``_active_keys`` says the same in
    ORM terms.
    """
    qn = connection.ops.quote_name
    columns = [f"k.{qn(str(f.column))}" for f in ApiKey._meta.concrete_fields]
    columns += [f"u.{qn(str(f.column))}" for f in User._meta.concrete_fields]
    persona = qn(Persona._meta.db_table)
    # Only identifiers from the models' metadata, quoted; the digest and the id are parameters.
    return (
        f"SELECT {', '.join(columns)}, "  # noqa: S608
        f"p.{qn('id')}, p.{qn('is_public')}, p.{qn('owner_id')}, p.{qn('revision')} "
        f"FROM {qn(ApiKey._meta.db_table)} k "
        f"JOIN {qn(User._meta.db_table)} u ON u.{qn('id')} = k.{qn('user_id')} "
        f"LEFT JOIN {persona} p ON p.{qn('id')} = %s "
        f"WHERE k.{qn('digest')} = %s AND k.{qn('revoked_at')} IS NULL AND u.{qn('is_active')}"
    )


def _key_for_chat_postgresql(raw_key: str, persona_id: int | None) -> KeyRead:
    _check_shape(raw_key)
    with connection.cursor() as cursor:
        cursor.execute(_key_for_chat_sql(), [persona_id, digest_key(raw_key)])
        row = cursor.fetchone()
    if row is None:
        raise AuthenticationError("Invalid API key.")
    key_fields = [f.attname for f in ApiKey._meta.concrete_fields]
    user_fields = [f.attname for f in User._meta.concrete_fields]
    split = len(key_fields)
    key = ApiKey.from_db(connection.alias, key_fields, row[:split])
    key.user = User.from_db(connection.alias, user_fields, row[split : split + len(user_fields)])
    persona_pk, is_public, owner_id, revision = row[-4:]
    return KeyRead(
        key=key, persona=(is_public, owner_id, revision) if persona_pk is not None else None
    )


def authenticate_key_for_chat(raw_key: str, *, persona_id: int | None = None) -> KeyRead:
    """:func:`authenticate_key` plus, when ``persona_id`` is given, the persona's visibility
    and revision, still in one query (the chat hot path). Credit is checked later, by the
    request's hold (``billing.services.place_hold``).

    On PostgreSQL (production, and the chat hot path) the query is plain SQL written once:
    building it through the ORM cost about 1.5 ms of CPU per request, more than its round trip.
    psycopg returns the column types the ORM would (PostgreSQL needs no value converters), so
    the instances are the same. Other databases take the ORM path, whose converters they need.
    """
    if connection.vendor == "postgresql":
        return _key_for_chat_postgresql(raw_key, persona_id)
    persona = Persona.objects.filter(pk=persona_id if persona_id is not None else -1)
    key = (
        _active_keys(raw_key)
        .annotate(
            persona_is_public=Subquery(persona.values("is_public")[:1]),
            persona_owner_id=Subquery(persona.values("owner_id")[:1]),
            persona_revision=Subquery(persona.values("revision")[:1]),
        )
        .first()
    )
    if key is None:
        raise AuthenticationError("Invalid API key.")
    revision = getattr(key, "persona_revision", None)
    return KeyRead(
        key=key,
        persona=(
            (bool(key.persona_is_public), key.persona_owner_id, int(revision))
            if revision is not None
            else None
        ),
    )


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
