from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import Model
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.auth import Alongside, KeyRead, _key_with_orm, _key_with_postgresql
from accounts.models import ApiKey, User, digest_key
from accounts.services import create_api_key, revoke_api_key
from core.errors import AuthenticationError
from personas.models import Persona
from tests.conftest import client_for
from tests.factories import ApiKeyFactory, PersonaFactory, raw_key

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.core.urls_for_tests")]


def test_valid_key_authenticates_its_user(api_client: APIClient) -> None:
    response = api_client.get("/v1/_probe/whoami")
    assert response.status_code == 200
    assert response.json() == {"username": "alice"}


def test_revoked_key_is_401(api_key: ApiKey) -> None:
    revoke_api_key(key=api_key)
    response = client_for(api_key).get("/v1/_probe/whoami")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Bearer"
    assert response.json()["error"]["type"] == "authentication_error"


def test_inactive_user_key_is_401(api_key: ApiKey) -> None:
    api_key.user.is_active = False
    api_key.user.save()
    assert client_for(api_key).get("/v1/_probe/whoami").status_code == 401


def test_keys_are_stored_only_as_hash_and_prefix(user: Any) -> None:
    issued = create_api_key(user=user, name="k")
    assert issued.raw_key.startswith("sk-")
    assert len(issued.raw_key) >= 3 + 43  # 32 random bytes, base64url
    row = ApiKey.objects.values().get(pk=issued.key.pk)
    assert issued.raw_key not in {str(v) for v in row.values()}
    assert row["digest"] == digest_key(issued.raw_key)
    assert row["prefix"] == issued.raw_key[:12]
    assert row["detailed_logging"] is False
    assert row["rpm_limit"] == 60


def test_authentication_costs_one_query(api_key: ApiKey, django_assert_num_queries: Any) -> None:
    api_key.last_used_at = timezone.now()
    api_key.save()
    client = client_for(api_key)
    with django_assert_num_queries(1):
        assert client.get("/v1/_probe/whoami").status_code == 200


def test_last_used_is_recorded(api_key: ApiKey) -> None:
    assert api_key.last_used_at is None
    client_for(api_key).get("/v1/_probe/whoami")
    api_key.refresh_from_db()
    assert api_key.last_used_at is not None


def test_other_users_key_sees_its_own_user(other_user: Any) -> None:
    key = ApiKeyFactory.create(user=other_user)
    assert client_for(key).get("/v1/_probe/whoami").json() == {"username": "charlie"}


def _columns(instance: Model) -> list[Any]:
    return [getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields]


def _loaded(read: KeyRead) -> tuple[list[Any], list[Any], tuple[Any, ...] | None]:
    return _columns(read.key), _columns(read.key.user), read.alongside


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the SQL path is PostgreSQL's")
def test_the_sql_and_orm_key_queries_read_the_same_rows(api_key: ApiKey, user: User) -> None:
    raw = raw_key(api_key)
    persona = PersonaFactory.create(owner=user, is_public=True)
    fields = ("is_public", "owner_id", "revision")
    present = Alongside(Persona, persona.pk, fields)
    missing = Alongside(Persona, persona.pk + 1000, fields)
    for alongside in (None, present, missing):
        sql = _loaded(_key_with_postgresql(raw, alongside))
        assert sql == _loaded(_key_with_orm(raw, alongside))
        assert sql[0] == _columns(api_key) and sql[1] == _columns(user)
    assert _key_with_orm(raw, present).alongside == (True, user.pk, persona.revision)
    assert _key_with_orm(raw, missing).alongside is None
    assert _key_with_orm(raw, None).alongside is None
    revoke_api_key(key=api_key)
    for read in (_key_with_postgresql, _key_with_orm):
        with pytest.raises(AuthenticationError):
            read(raw, present)
