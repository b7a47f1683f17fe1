"""Listing and reading personas, on both prefixes, with and without the slash."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from accounts.models import User
from personas.models import Persona
from personas.services import create_persona
from tests.conftest import client_for
from tests.factories import ApiKeyFactory, PersonaFactory, TrainingDataItemFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("builtin_personas")]

CANARY = "CANARY-7f3a-secret-prompt"


def _persona_body(persona: Persona, *, is_owned: bool, has_training_data: bool) -> dict[str, Any]:
    """The whole body a persona is listed and read with (without its system prompt)."""
    return {
        "id": persona.pk,
        "name": persona.name,
        "description": persona.description,
        "category": persona.category,
        "is_public": persona.is_public,
        "is_owned": is_owned,
        "has_training_data": has_training_data,
        "default_model": persona.default_model,
        "default_temperature": persona.default_temperature,
        "created_at": persona.created_at.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
    }


def _warm(client: APIClient) -> None:
    # The first request of a key records last_used_at (one UPDATE a minute): take it first.
    client.get("/v1/personas")


def _error(response: Any, status: int, type_: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"}
    assert body["error"]["type"] == type_
    return dict(body["error"])


# --- Built-in personas and ids ---


def test_builtin_personas_have_ids_1_3_4_5_and_no_2(
    api_client: APIClient, prefix: str, slash: str
) -> None:
    body = api_client.get(f"{prefix}/personas{slash}").json()
    builtins = [p for p in body["data"] if p["id"] <= 5]
    assert [p["id"] for p in builtins] == [1, 3, 4, 5]
    for persona in builtins:
        assert persona["is_public"] is True
        assert persona["is_owned"] is False
        assert persona["has_training_data"] is True
        assert persona["default_model"] == "nova-local"
    _error(api_client.get(f"{prefix}/personas/2{slash}"), 404, "not_found_error")


def test_builtin_personas_cover_their_fields() -> None:
    builtins = {p.pk: p for p in Persona.objects.filter(owner__isnull=True)}
    assert set(builtins) == {1, 3, 4, 5}
    assert "programming" in builtins[1].description.lower()
    assert "business strategy" in builtins[3].description.lower()
    assert "education" in builtins[4].description.lower()
    assert "information gathering" in builtins[5].description.lower()
    for persona in builtins.values():
        assert len(persona.system_prompt) > 800
        assert 3 <= persona.training_items.count() <= 5
        types = set(persona.training_items.values_list("type", flat=True))
        assert len(types) >= 3


def test_new_persona_gets_an_id_from_6_up(user: User) -> None:
    persona = create_persona(
        owner=user, name="Fresh", description="d", system_prompt="You are fresh."
    )
    assert persona.pk >= 6


def test_id_sequence_is_past_the_builtin_ids() -> None:
    """The database's own id counter (not just max(id)) is past 5, on either backend."""
    query = (
        "SELECT last_value FROM personas_persona_id_seq"
        if connection.vendor == "postgresql"
        else "SELECT seq FROM sqlite_sequence WHERE name = 'personas_persona'"
    )
    with connection.cursor() as cursor:
        cursor.execute(query)
        (last_value,) = cursor.fetchone()
    assert last_value >= 5


# --- Listing ---


def test_list_envelope_and_entry_shape(api_client: APIClient, user: User) -> None:
    own = PersonaFactory.create(owner=user, name="Mine", category="support")
    body = api_client.get("/v1/personas").json()
    assert set(body) == {"object", "data", "has_more", "total"}
    assert body["object"] == "list"
    assert body["has_more"] is False
    assert body["total"] == 5
    entry = body["data"][-1]
    assert entry == {
        "id": own.pk,
        "name": "Mine",
        "description": "A helpful test persona.",
        "category": "support",
        "is_public": False,
        "is_owned": True,
        "has_training_data": False,
        "default_model": "nova-local",
        "default_temperature": 0.7,
        "created_at": own.created_at.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
    }
    for builtin in body["data"][:-1]:
        persona = Persona.objects.get(pk=builtin["id"])
        assert builtin == _persona_body(persona, is_owned=False, has_training_data=True)


def test_list_holds_public_personas_and_own_private_ones_ordered_by_id(
    api_client: APIClient, user: User, other_user: User
) -> None:
    mine = PersonaFactory.create(owner=user)
    theirs_public = PersonaFactory.create(owner=other_user, is_public=True)
    theirs_private = PersonaFactory.create(owner=other_user)
    ids = [p["id"] for p in api_client.get("/api/v1/personas/").json()["data"]]
    assert ids == sorted(ids)
    assert mine.pk in ids
    assert theirs_public.pk in ids
    assert theirs_private.pk not in ids


def test_is_owned_is_computed_for_the_caller(
    api_client: APIClient, other_api_client: APIClient, user: User
) -> None:
    shared = PersonaFactory.create(owner=user, is_public=True)
    mine = {p["id"]: p for p in api_client.get("/v1/personas").json()["data"]}
    theirs = {p["id"]: p for p in other_api_client.get("/v1/personas").json()["data"]}
    assert mine[shared.pk]["is_owned"] is True
    assert theirs[shared.pk]["is_owned"] is False


def test_has_training_data_reflects_items(api_client: APIClient, user: User) -> None:
    empty = PersonaFactory.create(owner=user)
    full = PersonaFactory.create(owner=user)
    TrainingDataItemFactory.create(persona=full)
    data = {p["id"]: p for p in api_client.get("/v1/personas").json()["data"]}
    assert data[empty.pk]["has_training_data"] is False
    assert data[full.pk]["has_training_data"] is True


def test_paging_51_personas_gives_two_pages(api_client: APIClient, user: User) -> None:
    PersonaFactory.create_batch(47, owner=user)  # plus the 4 built-ins: 51
    first = api_client.get("/v1/personas").json()
    assert (len(first["data"]), first["has_more"], first["total"]) == (50, True, 51)
    second = api_client.get("/v1/personas?page=2").json()
    assert (len(second["data"]), second["has_more"], second["total"]) == (1, False, 51)
    assert second["data"][0]["id"] > first["data"][-1]["id"]
    past = api_client.get("/v1/personas?page=3").json()
    assert (past["data"], past["has_more"], past["total"]) == ([], False, 51)
    huge = api_client.get("/v1/personas?page=999999999999999999").json()
    assert huge["data"] == []


@pytest.mark.parametrize("page", ["0", "-1", "abc", "1.5", "", " 1", "١"])
def test_page_must_be_an_integer_from_1(api_client: APIClient, page: str) -> None:
    error = _error(api_client.get("/v1/personas", {"page": page}), 400, "invalid_request_error")
    assert error["param"] == "page"


def test_category_filter(api_client: APIClient, user: User) -> None:
    support = PersonaFactory.create(owner=user, category="support")
    PersonaFactory.create(owner=user, category="other")
    body = api_client.get("/v1/personas?category=support").json()
    assert [p["id"] for p in body["data"]] == [support.pk]
    assert body["total"] == 1
    assert [p["id"] for p in api_client.get("/v1/personas?category=business").json()["data"]] == [3]


def test_owned_filter(api_client: APIClient, user: User, other_user: User) -> None:
    mine = PersonaFactory.create(owner=user)
    theirs = PersonaFactory.create(owner=other_user, is_public=True)
    owned = api_client.get("/v1/personas?owned=true").json()
    assert [p["id"] for p in owned["data"]] == [mine.pk]
    not_owned = [p["id"] for p in api_client.get("/v1/personas?owned=false").json()["data"]]
    assert not_owned == [1, 3, 4, 5, theirs.pk]


@pytest.mark.parametrize("value", ["yes", "maybe", "2", ""])
def test_owned_filter_rejects_other_values(api_client: APIClient, value: str) -> None:
    error = _error(api_client.get("/v1/personas", {"owned": value}), 400, "invalid_request_error")
    assert error["param"] == "owned"


def test_list_query_count_is_constant(
    api_client: APIClient, user: User, django_assert_num_queries: Any
) -> None:
    _warm(api_client)
    for persona in PersonaFactory.create_batch(3, owner=user):
        TrainingDataItemFactory.create_batch(2, persona=persona)
    # Authentication, count, page: the same for 7 rows as for 50.
    with django_assert_num_queries(3):
        assert len(api_client.get("/v1/personas").json()["data"]) == 7
    PersonaFactory.create_batch(10, owner=user)
    with django_assert_num_queries(3):
        assert len(api_client.get("/v1/personas?owned=true").json()["data"]) == 13


# --- Detail ---


def test_detail_of_builtin(api_client: APIClient, prefix: str, slash: str) -> None:
    body = api_client.get(f"{prefix}/personas/1{slash}").json()
    builtin = Persona.objects.get(pk=1)
    assert body == _persona_body(builtin, is_owned=False, has_training_data=True)


def test_owner_sees_system_prompt_in_detail(api_client: APIClient, user: User) -> None:
    persona = PersonaFactory.create(owner=user, system_prompt=CANARY)
    body = api_client.get(f"/v1/personas/{persona.pk}").json()
    assert body == {
        **_persona_body(persona, is_owned=True, has_training_data=False),
        "system_prompt": CANARY,
    }


def test_public_persona_of_other_user_hides_system_prompt(
    api_client: APIClient, other_user: User
) -> None:
    persona = PersonaFactory.create(owner=other_user, is_public=True, system_prompt=CANARY)
    response = api_client.get(f"/v1/personas/{persona.pk}")
    assert response.status_code == 200
    assert response.json() == _persona_body(persona, is_owned=False, has_training_data=False)
    assert CANARY not in response.content.decode()


def test_private_persona_is_404_for_other_users(
    api_client: APIClient, other_user: User, prefix: str, slash: str
) -> None:
    persona = PersonaFactory.create(owner=other_user, name=CANARY, system_prompt=CANARY)
    private = api_client.get(f"{prefix}/personas/{persona.pk}{slash}")
    missing = api_client.get(f"{prefix}/personas/999999{slash}")
    _error(private, 404, "not_found_error")
    _error(missing, 404, "not_found_error")
    assert CANARY not in private.content.decode()
    assert private.json()["error"]["message"].replace(str(persona.pk), "X") == missing.json()[
        "error"
    ]["message"].replace("999999", "X")


@pytest.mark.parametrize("bad_id", ["abc", "0", "-1", "1.0", "99999999999999999999999", "%20"])
def test_malformed_persona_id_is_404(api_client: APIClient, bad_id: str) -> None:
    _error(api_client.get(f"/v1/personas/{bad_id}"), 404, "not_found_error")


def test_other_users_secrets_never_appear_in_listings(
    api_client: APIClient, other_user: User
) -> None:
    public = PersonaFactory.create(owner=other_user, is_public=True, system_prompt=CANARY)
    private = PersonaFactory.create(owner=other_user, name=CANARY, system_prompt=CANARY)
    for persona in (public, private):
        TrainingDataItemFactory.create(persona=persona, content=CANARY, title=CANARY)
    for path in [
        "/v1/personas",
        "/v1/personas?owned=false",
        f"/v1/personas/{public.pk}",
        f"/v1/personas/{private.pk}",
        f"/v1/personas/{public.pk}/training-data",
        f"/v1/personas/{private.pk}/training-data",
    ]:
        assert CANARY not in api_client.get(path).content.decode(), path


def test_listing_needs_a_key(anon_client: APIClient, prefix: str) -> None:
    response = anon_client.get(f"{prefix}/personas")
    _error(response, 401, "authentication_error")
    assert response["WWW-Authenticate"] == "Bearer"


def test_persona_routes_are_read_only(api_client: APIClient) -> None:
    response = api_client.post("/v1/personas", {"name": "x"}, format="json")
    error = _error(response, 405, "invalid_request_error")
    assert error["code"] == "method_not_allowed"
    _error(api_client.delete("/v1/personas/1"), 405, "invalid_request_error")


def test_revoked_key_cannot_list(user: User) -> None:
    key = ApiKeyFactory.create(user=UserFactory.create(username="dave"))
    client = client_for(key)
    assert client.get("/v1/personas").status_code == 200
    key.revoked_at = key.created_at
    key.save()
    _error(client.get("/v1/personas"), 401, "authentication_error")


def test_schema_documents_the_persona_operations(anon_client: APIClient) -> None:
    schema = anon_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    assert "get" in paths["/v1/personas"]
    detail = paths["/v1/personas/{id}"]["get"]
    assert {"200", "401", "404", "429"} <= set(detail["responses"])
    item = paths["/v1/personas/{id}/training-data/{dataId}"]
    assert {"get", "patch", "put", "delete"} <= set(item)
    assert "ErrorResponse" in schema["components"]["schemas"]


def test_nul_in_category_is_400(api_client: APIClient) -> None:
    error = _error(api_client.get("/v1/personas?category=%00"), 400, "invalid_request_error")
    assert error["param"] == "category"
