from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Protocol

from django.conf import settings
from django.db import transaction

from accounts.limits import validate_limit, validate_limit_reset
from accounts.models import DISPLAY_PREFIX_LENGTH, ApiKey, Guard, User, digest_key
from core.errors import InvalidRequest, NotFound


@dataclass(frozen=True)
class IssuedKey:
    key: ApiKey
    raw_key: str  # shown once, never stored


class UserSetup(Protocol):
    def __call__(self, *, user: User) -> object: ...


# What apps above accounts create for every new user, registered from their AppConfig.ready()
# (billing opens the balance): accounts calls them without importing those apps.
_user_setups: list[UserSetup] = []


def on_user_created(setup: UserSetup) -> None:
    """Have :func:`create_user` call ``setup(user=...)`` for every user it creates, in the
    transaction that creates the user."""
    if setup not in _user_setups:
        _user_setups.append(setup)


def create_user(*, username: str, password: str | None = None, email: str = "") -> User:
    """A new user, with the rows apps above accounts keep per user (see
    :func:`on_user_created`): an empty balance, so money services never race to create it."""
    with transaction.atomic():
        user = User(username=username, email=email)
        if password:
            user.set_password(password)
        else:
            user.set_unusable_password()
        user.save()
        for setup in _user_setups:
            setup(user=user)
    return user


def validate_rpm_limit(rpm_limit: int) -> int:
    """A key's requests per minute: 1 to ``settings.MAX_KEY_RPM``; InvalidRequest otherwise."""
    if not 1 <= rpm_limit <= settings.MAX_KEY_RPM:
        raise InvalidRequest(
            f"rpm_limit must be between 1 and {settings.MAX_KEY_RPM}.", param="rpm_limit"
        )
    return rpm_limit


def check_key_quota(user: User) -> None:
    """InvalidRequest when the user already has ``settings.MAX_KEYS_PER_USER`` active keys."""
    if ApiKey.objects.filter(user=user, revoked_at__isnull=True).count() >= (
        settings.MAX_KEYS_PER_USER
    ):
        raise InvalidRequest(
            f"This account already has {settings.MAX_KEYS_PER_USER} active API keys, the most "
            "allowed: revoke one before creating another.",
            code="too_many_api_keys",
        )


def create_api_key(
    *,
    user: User,
    name: str = "",
    detailed_logging: bool = False,
    rpm_limit: int = 60,
    limit: Decimal | str | None = None,
    limit_reset: str | None = None,
    guard: str = Guard.OFF,
) -> IssuedKey:
    """A new key for ``user``, shown once, with its spend limit and chat guard, in one write.

    Raises InvalidRequest for an ``rpm_limit`` outside 1 to ``settings.MAX_KEY_RPM``, a bad
    limit, period or guard, and when the user already has ``settings.MAX_KEYS_PER_USER``
    active keys. Locks the user's row, so concurrent creations cannot both pass the count.
    """
    validate_rpm_limit(rpm_limit)
    key = ApiKey(
        user=user,
        name=name[:100],
        detailed_logging=detailed_logging,
        rpm_limit=rpm_limit,
        guard=validate_guard(guard),
    )
    key.set_limit(validate_limit(limit), validate_limit_reset(limit_reset) if limit_reset else None)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        check_key_quota(user)
        raw_key = key.set_new_key()
        key.save()
    return IssuedKey(key=key, raw_key=raw_key)


def get_key_for(user: User, key_id: int | str) -> ApiKey:
    """One of the user's own keys; NotFound for anyone else's (no existence leak)."""
    try:
        return ApiKey.objects.get(pk=int(key_id), user=user)
    except (ApiKey.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFound("No such API key.") from exc


def revoke_api_key(*, key: ApiKey) -> ApiKey:
    key.revoke()
    key.save(update_fields=["revoked_at"])
    return key


def validate_guard(guard: str) -> str:
    """A chat guard setting: off, input, output or both; InvalidRequest otherwise."""
    if guard not in Guard.values:
        raise InvalidRequest(f"guard must be one of {', '.join(Guard.values)}.", param="guard")
    return str(guard)


def update_api_key(
    *,
    key: ApiKey,
    detailed_logging: bool | None = None,
    rpm_limit: int | None = None,
    guard: str | None = None,
) -> ApiKey:
    fields = []
    if detailed_logging is not None:
        key.detailed_logging = detailed_logging
        fields.append("detailed_logging")
    if rpm_limit is not None:
        key.rpm_limit = validate_rpm_limit(rpm_limit)
        fields.append("rpm_limit")
    if guard is not None:
        key.guard = validate_guard(guard)
        fields.append("guard")
    if fields:
        key.save(update_fields=fields)
    return key


def find_key_by_raw_or_prefix(value: str) -> ApiKey:
    """A key by its raw value or its display prefix; NotFound unless exactly one matches."""
    key = ApiKey.objects.filter(digest=digest_key(value)).first()
    if key is not None:
        return key
    matches = list(ApiKey.objects.filter(prefix=value[:DISPLAY_PREFIX_LENGTH])[:2])
    if len(value) < 8 or len(matches) != 1:
        raise NotFound(f"No single API key matches '{value[:DISPLAY_PREFIX_LENGTH]}'.")
    return matches[0]
