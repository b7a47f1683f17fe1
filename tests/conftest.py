from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts.models import ApiKey, User
from billing.services import top_up
from tests.factories import ApiKeyFactory, UserFactory


@pytest.fixture(autouse=True)
def _test_settings(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Tests render templates without running collectstatic first.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _clean_cache() -> Iterator[None]:
    # Rate-limit counters and cached personas must not leak between tests.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def user(db: None) -> User:
    return UserFactory(username="alice")


@pytest.fixture
def other_user(db: None) -> User:
    return UserFactory(username="charlie")


@pytest.fixture
def api_key(user: User) -> ApiKey:
    return ApiKeyFactory(user=user)


@pytest.fixture
def funded_user(user: User) -> User:
    top_up(user=user, amount=Decimal("10"), note="test funds")
    return user


def client_for(key: ApiKey) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key.raw_key}")  # type: ignore[attr-defined]
    return client


@pytest.fixture
def api_client(api_key: ApiKey) -> APIClient:
    return client_for(api_key)


@pytest.fixture
def other_api_client(other_user: User) -> APIClient:
    return client_for(ApiKeyFactory(user=other_user))


@pytest.fixture
def anon_client() -> APIClient:
    return APIClient()
