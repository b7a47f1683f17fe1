"""Bearer API-key authentication: one query per request, and the per-key rate limit.

Keys are sent as ``Authorization: Bearer sk-...`` and looked up by their HMAC digest (the
plaintext is never stored). A revoked key or an inactive user is a 401. See docs/api.md,
Authentication.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.db.models import Field, Model, QuerySet, Subquery
from django.utils import timezone
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from accounts.models import KEY_PREFIX, ApiKey, User, digest_key
from core.errors import AuthenticationError
from core.ratelimit import enforce

if TYPE_CHECKING:
    from rest_framework.views import APIView

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
class Alongside:
    """A row of another table to read in the key's own query (one round trip instead of two).

    ``model``'s row with primary key ``pk``, columns ``fields``, LEFT JOINed, so a missing row
    reads as None and never hides the key. The caller owns the meaning of the row:
    this module knows only the key and its user.
    """

    model: type[Model]
    pk: int
    fields: tuple[str, ...]


@dataclass(frozen=True)
class KeyRead:
    key: ApiKey
    # The values of ``Alongside.fields`` in order, or None when the row does not exist or no
    # row was asked for.
    alongside: tuple[Any, ...] | None


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    """A concrete column of ``model`` (``"pk"``: its primary key)."""
    field = model._meta.pk if name == "pk" else model._meta.get_field(name)
    if not isinstance(field, Field):
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return field


@functools.cache
def _key_sql(model: type[Model] | None, fields: tuple[str, ...]) -> str:
    """The one query of :func:`authenticate_key_with`, written once per process and shape.

    The key's columns, then its user's, in the field order of each model, so the rows load
    with ``Model.from_db``, then the joined row's columns. ``_active_keys`` says the same in
    ORM terms.
    """
    qn = connection.ops.quote_name
    columns = [f"k.{qn(str(f.column))}" for f in ApiKey._meta.concrete_fields]
    columns += [f"u.{qn(str(f.column))}" for f in User._meta.concrete_fields]
    join = ""
    if model is not None:
        pk_column = qn(str(_field(model, "pk").column))
        columns.append(f"j.{pk_column}")
        columns += [f"j.{qn(str(_field(model, name).column))}" for name in fields]
        join = f"LEFT JOIN {qn(model._meta.db_table)} j ON j.{pk_column} = %s "
    # Only identifiers from the models' metadata, quoted; the digest and the id are parameters.
    return (
        f"SELECT {', '.join(columns)} "  # noqa: S608
        f"FROM {qn(ApiKey._meta.db_table)} k "
        f"JOIN {qn(User._meta.db_table)} u ON u.{qn('id')} = k.{qn('user_id')} "
        f"{join}"
        f"WHERE k.{qn('digest')} = %s AND k.{qn('revoked_at')} IS NULL AND u.{qn('is_active')}"
    )


def _key_with_postgresql(raw_key: str, alongside: Alongside | None) -> KeyRead:
    _check_shape(raw_key)
    model, fields = (alongside.model, alongside.fields) if alongside else (None, ())
    params = [alongside.pk] if alongside is not None else []
    with connection.cursor() as cursor:
        cursor.execute(_key_sql(model, fields), [*params, digest_key(raw_key)])
        row = cursor.fetchone()
    if row is None:
        raise AuthenticationError("Invalid API key.")
    key_fields = [f.attname for f in ApiKey._meta.concrete_fields]
    user_fields = [f.attname for f in User._meta.concrete_fields]
    split = len(key_fields)
    end = split + len(user_fields)
    key = ApiKey.from_db(connection.alias, key_fields, row[:split])
    key.user = User.from_db(connection.alias, user_fields, row[split:end])
    joined = None
    if alongside is not None and row[end] is not None:
        joined = tuple(row[end + 1 :])
    return KeyRead(key=key, alongside=joined)


def _key_with_orm(raw_key: str, alongside: Alongside | None) -> KeyRead:
    keys = _active_keys(raw_key)
    names: list[str] = []
    if alongside is not None:
        row = alongside.model._default_manager.filter(pk=alongside.pk)
        annotations = {
            f"alongside_{name}": Subquery(row.values(name)[:1]) for name in alongside.fields
        }
        annotations["alongside_pk"] = Subquery(row.values("pk")[:1])
        keys = keys.annotate(**annotations)
        names = [f"alongside_{name}" for name in alongside.fields]
    key = keys.first()
    if key is None:
        raise AuthenticationError("Invalid API key.")
    joined = None
    if alongside is not None and getattr(key, "alongside_pk", None) is not None:
        # Through the model fields' own conversion, as the PostgreSQL path's driver does.
        joined = tuple(
            _field(alongside.model, name).to_python(getattr(key, attr))
            for name, attr in zip(alongside.fields, names, strict=True)
        )
    return KeyRead(key=key, alongside=joined)


def authenticate_key_with(raw_key: str, *, alongside: Alongside | None = None) -> KeyRead:
    """:func:`authenticate_key`, plus another table's row read in the same query (the chat hot
    path reads the persona it was asked for this way).

    On PostgreSQL (production, and the chat hot path) the query is plain SQL written once per
    shape: building it through the ORM cost about 1.5 ms of CPU per request, more than its round
    trip. psycopg returns the column types the ORM would (PostgreSQL needs no value converters),
    so the instances are the same. Other databases take the ORM path, whose converters they need.
    """
    if connection.vendor == "postgresql":
        return _key_with_postgresql(raw_key, alongside)
    return _key_with_orm(raw_key, alongside)


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


class ApiKeyRateThrottle(BaseThrottle):
    """DRF throttle for every key-authenticated view: the key's requests-per-minute limit."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        key = request.auth
        if isinstance(key, ApiKey):
            enforce(request._request, key_id=key.pk, limit=key.rpm_limit)
        return True
