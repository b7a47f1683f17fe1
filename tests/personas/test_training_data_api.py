"""Training data of a persona: owner only, on both prefixes, with and without the slash."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from personas.models import Persona, TrainingDataItem
from tests.factories import PersonaFactory, TrainingDataItemFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("builtin_personas")]

CANARY = "CANARY-91bd-training-secret"


@pytest.fixture
def persona(user: User) -> Persona:
    persona: Persona = PersonaFactory.create(owner=user, name="Support Bot")
    return persona


def _stamp(value: datetime) -> str:
    return value.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _error(response: Any, status: int, type_: str, param: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"}
    assert body["error"]["type"] == type_
    if param is not None:
        assert body["error"]["param"] == param, body
    return dict(body["error"])


def _items_url(prefix: str, persona_id: int | str, slash: str = "") -> str:
    return f"{prefix}/personas/{persona_id}/training-data{slash}"


def _item_url(prefix: str, persona_id: int | str, data_id: int | str, slash: str = "") -> str:
    return f"{prefix}/personas/{persona_id}/training-data/{data_id}{slash}"


# --- Happy paths ---


def test_add_returns_201_with_the_whole_item(
    api_client: APIClient, persona: Persona, prefix: str, slash: str
) -> None:
    response = api_client.post(
        _items_url(prefix, persona.pk, slash),
        {
            "type": "qa_pair",
            "title": "Opening hours",
            "content": "Monday to Friday, 9 to 5.",
            "metadata": {"question": "When are you open?", "source": "website"},
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    item = TrainingDataItem.objects.get(persona=persona)
    assert response.json() == {
        "id": item.pk,
        "persona_id": persona.pk,
        "type": "qa_pair",
        "title": "Opening hours",
        "content": "Monday to Friday, 9 to 5.",
        "metadata": {"question": "When are you open?", "source": "website"},
        "created_at": _stamp(item.created_at),
        "updated_at": _stamp(item.updated_at),
    }


def test_add_defaults_title_and_metadata(api_client: APIClient, persona: Persona) -> None:
    response = api_client.post(
        _items_url("/v1", persona.pk), {"type": "text", "content": "Plain."}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["title"] == ""
    assert response.json()["metadata"] == {}


@pytest.mark.parametrize("type_", ["text", "qa_pair", "example", "document", "knowledge"])
def test_every_type_can_be_added(api_client: APIClient, persona: Persona, type_: str) -> None:
    body: dict[str, Any] = {"type": type_, "content": f"Some {type_} content."}
    if type_ == "qa_pair":
        body["metadata"] = {"question": "What?"}
    response = api_client.post(_items_url("/v1", persona.pk), body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["type"] == type_


def test_list_is_ordered_by_id(
    api_client: APIClient, persona: Persona, prefix: str, slash: str
) -> None:
    items = TrainingDataItemFactory.create_batch(3, persona=persona)
    # An item of another persona of the same owner:
    TrainingDataItemFactory.create(persona=PersonaFactory.create(owner=persona.owner))
    response = api_client.get(_items_url(prefix, persona.pk, slash))
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"object", "data"}
    assert body["object"] == "list"
    assert [entry["id"] for entry in body["data"]] == [item.pk for item in items]
    # Each entry is the item exactly as GET of the item shows it (test_get_one).
    assert body["data"] == [
        api_client.get(_item_url(prefix, persona.pk, item.pk)).json() for item in items
    ]


def test_list_of_persona_without_data_is_empty(api_client: APIClient, persona: Persona) -> None:
    assert api_client.get(_items_url("/v1", persona.pk)).json() == {"object": "list", "data": []}


def test_list_query_count_is_constant(
    api_client: APIClient, persona: Persona, django_assert_num_queries: Any
) -> None:
    api_client.get("/v1/personas")  # the key's first use records last_used_at
    TrainingDataItemFactory.create_batch(3, persona=persona)
    # Authentication, persona, items.
    with django_assert_num_queries(3):
        assert len(api_client.get(_items_url("/v1", persona.pk)).json()["data"]) == 3
    TrainingDataItemFactory.create_batch(20, persona=persona)
    with django_assert_num_queries(3):
        assert len(api_client.get(_items_url("/v1", persona.pk)).json()["data"]) == 23


def test_get_one(api_client: APIClient, persona: Persona, prefix: str, slash: str) -> None:
    item = TrainingDataItemFactory.create(persona=persona, type="knowledge", title="T")
    response = api_client.get(_item_url(prefix, persona.pk, item.pk, slash))
    assert response.status_code == 200
    assert response.json() == {
        "id": item.pk,
        "persona_id": persona.pk,
        "type": "knowledge",
        "title": "T",
        "content": item.content,
        "metadata": {},
        "created_at": _stamp(item.created_at),
        "updated_at": _stamp(item.updated_at),
    }


def test_patch_changes_only_the_fields_sent(
    api_client: APIClient, persona: Persona, prefix: str, slash: str
) -> None:
    item = TrainingDataItemFactory.create(
        persona=persona, type="qa_pair", title="Hours", metadata={"question": "When?"}
    )
    response = api_client.patch(
        _item_url(prefix, persona.pk, item.pk, slash), {"content": "Nine to five."}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["content"] == "Nine to five."
    assert body["title"] == "Hours"
    assert body["metadata"] == {"question": "When?"}
    item.refresh_from_db()
    assert item.content == "Nine to five."


def test_patch_is_validated_like_a_create(api_client: APIClient, persona: Persona) -> None:
    item = TrainingDataItemFactory.create(persona=persona, type="text")
    url = _item_url("/v1", persona.pk, item.pk)
    _error(
        api_client.patch(url, {"type": "qa_pair"}, format="json"),
        400,
        "invalid_request_error",
        "metadata.question",
    )
    _error(
        api_client.patch(url, {"content": "   "}, format="json"),
        400,
        "invalid_request_error",
        "content",
    )
    item.refresh_from_db()
    assert item.type == "text"


def test_put_replaces_and_resets_title_and_metadata(
    api_client: APIClient, persona: Persona, prefix: str, slash: str
) -> None:
    item = TrainingDataItemFactory.create(
        persona=persona, type="qa_pair", title="Hours", metadata={"question": "When?"}
    )
    response = api_client.put(
        _item_url(prefix, persona.pk, item.pk, slash),
        {"type": "knowledge", "content": "We close on holidays."},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["type"], body["content"], body["title"], body["metadata"]) == (
        "knowledge",
        "We close on holidays.",
        "",
        {},
    )
    assert body["id"] == item.pk


@pytest.mark.parametrize("missing", ["type", "content"])
def test_put_needs_type_and_content(api_client: APIClient, persona: Persona, missing: str) -> None:
    item = TrainingDataItemFactory.create(persona=persona)
    body = {"type": "text", "content": "x"}
    del body[missing]
    response = api_client.put(_item_url("/v1", persona.pk, item.pk), body, format="json")
    _error(response, 400, "invalid_request_error", missing)


def test_delete_is_204_and_has_training_data_turns_false(
    api_client: APIClient, persona: Persona, prefix: str, slash: str
) -> None:
    first, second = TrainingDataItemFactory.create_batch(2, persona=persona)
    detail = f"{prefix}/personas/{persona.pk}"
    assert api_client.get(detail).json()["has_training_data"] is True
    response = api_client.delete(_item_url(prefix, persona.pk, first.pk, slash))
    assert response.status_code == 204
    assert response.content == b""
    assert api_client.get(detail).json()["has_training_data"] is True
    assert api_client.delete(_item_url(prefix, persona.pk, second.pk, slash)).status_code == 204
    assert api_client.get(detail).json()["has_training_data"] is False
    listed = {p["id"]: p for p in api_client.get(f"{prefix}/personas").json()["data"]}
    assert listed[persona.pk]["has_training_data"] is False
    _error(api_client.get(_item_url(prefix, persona.pk, first.pk)), 404, "not_found_error")


# --- Validation (each error names the field's path in param) ---


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"content": "x"}, "type"),
        ({"type": "poem", "content": "x"}, "type"),
        ({"type": 1, "content": "x"}, "type"),
        ({"type": None, "content": "x"}, "type"),
        ({"type": "text"}, "content"),
        ({"type": "text", "content": ""}, "content"),
        ({"type": "text", "content": " \n\t "}, "content"),
        ({"type": "text", "content": 42}, "content"),
        ({"type": "text", "content": True}, "content"),
        ({"type": "text", "content": None}, "content"),
        ({"type": "text", "content": ["a"]}, "content"),
        ({"type": "text", "content": "x" * 10_001}, "content"),
        ({"type": "text", "content": "nul\x00byte"}, "content"),
        ({"type": "text", "content": "x", "title": "t" * 201}, "title"),
        ({"type": "text", "content": "x", "title": 5}, "title"),
        ({"type": "text", "content": "x", "title": False}, "title"),
        ({"type": "text", "content": "x", "metadata": []}, "metadata"),
        ({"type": "text", "content": "x", "metadata": "question"}, "metadata"),
        ({"type": "text", "content": "x", "metadata": {"k": "v" * 10_001}}, "metadata"),
        ({"type": "text", "content": "x", "metadata": {"k": "\x00"}}, "metadata"),
        ({"type": "qa_pair", "content": "x"}, "metadata.question"),
        ({"type": "qa_pair", "content": "x", "metadata": {}}, "metadata.question"),
        ({"type": "qa_pair", "content": "x", "metadata": {"question": ""}}, "metadata.question"),
        ({"type": "qa_pair", "content": "x", "metadata": {"question": " "}}, "metadata.question"),
        ({"type": "qa_pair", "content": "x", "metadata": {"question": 3}}, "metadata.question"),
    ],
)
def test_invalid_items_are_400_with_param(
    api_client: APIClient, persona: Persona, body: dict[str, Any], param: str
) -> None:
    response = api_client.post(_items_url("/v1", persona.pk), body, format="json")
    error = _error(response, 400, "invalid_request_error", param)
    assert error["message"]
    assert not TrainingDataItem.objects.filter(persona=persona).exists()


def test_content_of_exactly_10000_characters_is_accepted(
    api_client: APIClient, persona: Persona
) -> None:
    body = {"type": "document", "title": "t" * 200, "content": "é" * 10_000}
    response = api_client.post(_items_url("/v1", persona.pk), body, format="json")
    assert response.status_code == 201, response.content
    assert len(TrainingDataItem.objects.get(persona=persona).content) == 10_000


def test_body_must_be_a_json_object(api_client: APIClient, persona: Persona) -> None:
    response = api_client.post(_items_url("/v1", persona.pk), [1, 2], format="json")
    _error(response, 400, "invalid_request_error")
    response = api_client.post(
        _items_url("/v1", persona.pk), "{bad", content_type="application/json"
    )
    assert _error(response, 400, "invalid_request_error")["code"] == "invalid_json"


def test_unknown_fields_are_ignored(api_client: APIClient, persona: Persona) -> None:
    body = {"type": "text", "content": "x", "persona_id": 1, "id": 99, "extra": True}
    response = api_client.post(_items_url("/v1", persona.pk), body, format="json")
    assert response.status_code == 201
    assert response.json()["persona_id"] == persona.pk


# --- Ownership: another user's public persona is 403, a private one or none 404 ---

_OPERATIONS = [
    ("get", False),
    ("post", False),
    ("get", True),
    ("patch", True),
    ("put", True),
    ("delete", True),
]
_BODY = {"type": "text", "content": "Hijack."}


def _call(client: APIClient, method: str, persona_id: int, data_id: int | None) -> Any:
    if data_id is None:
        url = _items_url("/v1", persona_id)
    else:
        url = _item_url("/v1", persona_id, data_id)
    if method in ("post", "patch", "put"):
        return getattr(client, method)(url, _BODY, format="json")
    return getattr(client, method)(url)


@pytest.mark.parametrize(("method", "on_item"), _OPERATIONS)
@pytest.mark.parametrize("builtin", [True, False])
def test_public_persona_not_owned_is_403(
    api_client: APIClient, other_user: User, method: str, on_item: bool, builtin: bool
) -> None:
    if builtin:
        persona = Persona.objects.get(pk=1)
    else:
        persona = PersonaFactory.create(owner=other_user, is_public=True)
    item = TrainingDataItemFactory.create(persona=persona, content=CANARY)
    count = persona.training_items.count()
    response = _call(api_client, method, persona.pk, item.pk if on_item else None)
    _error(response, 403, "permission_error")
    assert CANARY not in response.content.decode()
    item.refresh_from_db()
    assert item.content == CANARY
    assert persona.training_items.count() == count


@pytest.mark.parametrize(("method", "on_item"), _OPERATIONS)
def test_private_persona_of_someone_else_is_404(
    api_client: APIClient, other_user: User, method: str, on_item: bool
) -> None:
    persona = PersonaFactory.create(owner=other_user, name=CANARY, system_prompt=CANARY)
    item = TrainingDataItemFactory.create(persona=persona, content=CANARY)
    response = _call(api_client, method, persona.pk, item.pk if on_item else None)
    _error(response, 404, "not_found_error")
    assert CANARY not in response.content.decode()
    item.refresh_from_db()
    assert item.content == CANARY


@pytest.mark.parametrize(("method", "on_item"), _OPERATIONS)
def test_missing_persona_is_404(api_client: APIClient, method: str, on_item: bool) -> None:
    response = _call(api_client, method, 987654, 1 if on_item else None)
    _error(response, 404, "not_found_error")


@pytest.mark.parametrize("method", ["get", "patch", "put", "delete"])
def test_data_id_of_another_persona_is_404(
    api_client: APIClient, persona: Persona, user: User, method: str
) -> None:
    sibling = PersonaFactory.create(owner=user)
    item = TrainingDataItemFactory.create(persona=sibling, content=CANARY)
    response = _call(api_client, method, persona.pk, item.pk)
    _error(response, 404, "not_found_error")
    item.refresh_from_db()
    assert item.content == CANARY
    assert item.persona_id == sibling.pk


@pytest.mark.parametrize("data_id", ["abc", "0", "-3", "1e3", "99999999999999999999999"])
def test_malformed_data_id_is_404(api_client: APIClient, persona: Persona, data_id: str) -> None:
    _error(api_client.get(_item_url("/v1", persona.pk, data_id)), 404, "not_found_error")


def test_missing_key_is_401(anon_client: APIClient, persona: Persona, prefix: str) -> None:
    response = anon_client.post(_items_url(prefix, persona.pk), _BODY, format="json")
    _error(response, 401, "authentication_error")
    assert not TrainingDataItem.objects.filter(persona=persona).exists()


def test_wrong_method_is_405(api_client: APIClient, persona: Persona) -> None:
    error = _error(api_client.delete(_items_url("/v1", persona.pk)), 405, "invalid_request_error")
    assert error["code"] == "method_not_allowed"


def test_owner_sees_a_private_personas_data_after_making_it_public(
    api_client: APIClient, other_api_client: APIClient, persona: Persona
) -> None:
    TrainingDataItemFactory.create(persona=persona)
    persona.is_public = True
    persona.save()
    assert api_client.get(_items_url("/v1", persona.pk)).status_code == 200
    _error(other_api_client.get(_items_url("/v1", persona.pk)), 403, "permission_error")


@pytest.mark.parametrize(
    ("raw", "param"),
    [
        ('{"type": "text", "content": "x", "metadata": {"big": 1e400}}', "metadata"),
        ('{"type": "text", "content": "bad \\ud800 surrogate"}', "content"),
        ('{"type": "text", "content": "x", "title": "\\udfff"}', "title"),
        ('{"type": "text", "content": "x", "metadata": {"k": "\\ud800"}}', "metadata"),
        ('{"type": "text", "content": "x", "metadata": {"k": "\\u0000"}}', "metadata"),
    ],
)
def test_values_no_database_can_store_are_400_not_500(
    api_client: APIClient, persona: Persona, raw: str, param: str
) -> None:
    response = api_client.post(_items_url("/v1", persona.pk), raw, content_type="application/json")
    _error(response, 400, "invalid_request_error", param)
