"""Conversation history API, rule by rule (docs/conversations.md)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiKey, User
from billing.models import UsageRecord
from conversations.models import Conversation, Message
from tests.conversations.helpers import (
    TIMESTAMP,
    TOOL_EXCHANGE_HISTORY,
    make_conversation,
    save_tool_exchange,
    weather_call,
)

pytestmark = pytest.mark.django_db

LIST = "/nova-api/v1/conversations"
MODES = ["chat", "agents", "personal", "api", "api_agents"]


def detail(conversation: Conversation | int | str) -> str:
    pk = conversation.pk if isinstance(conversation, Conversation) else conversation
    return f"{LIST}/{pk}"


def assert_error(response: Any, status: int, type_: str, param: str | None = None) -> None:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["type"] == type_
    assert error["param"] == param


# --- List: paging ---


def test_21_conversations_make_two_pages(user: User, api_client: APIClient) -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    made = [
        make_conversation(user, title=f"c{i}", updated_at=start + timedelta(minutes=i))
        for i in range(21)
    ]
    first = api_client.get(LIST).json()
    assert first["object"] == "list"
    assert first["total"] == 21
    assert first["has_more"] is True
    assert first["mode_filter"] == "all"
    assert [c["title"] for c in first["data"]] == [f"c{i}" for i in range(20, 0, -1)]

    second = api_client.get(LIST, {"page": "2"}).json()
    assert second["total"] == 21
    assert second["has_more"] is False
    assert [c["id"] for c in second["data"]] == [f"conv_{made[0].pk}"]


def test_page_past_the_end_is_empty(user: User, api_client: APIClient) -> None:
    make_conversation(user)
    body = api_client.get(LIST, {"page": "3"}).json()
    assert body == {
        "object": "list",
        "data": [],
        "has_more": False,
        "total": 1,
        "mode_filter": "all",
    }


def test_empty_history(api_client: APIClient) -> None:
    body = api_client.get(LIST).json()
    assert body == {
        "object": "list",
        "data": [],
        "has_more": False,
        "total": 0,
        "mode_filter": "all",
    }


def test_list_is_newest_updated_first_and_ties_go_to_the_newest_id(
    user: User, api_client: APIClient
) -> None:
    same = datetime(2026, 3, 1, 12, tzinfo=UTC)
    old = make_conversation(user, title="old", updated_at=same - timedelta(days=1))
    tie_a = make_conversation(user, title="tie a", updated_at=same)
    tie_b = make_conversation(user, title="tie b", updated_at=same)
    # Created last but updated earliest: updated_at decides, not creation.
    stale = make_conversation(user, title="stale", updated_at=same - timedelta(days=2))
    ids = [c["id"] for c in api_client.get(LIST).json()["data"]]
    assert ids == [f"conv_{c.pk}" for c in (tie_b, tie_a, old, stale)]


@pytest.mark.parametrize("page", ["0", "-1", "x", "1.5", "", " 1", "١", "1e3"])
def test_bad_page_is_400_naming_page(api_client: APIClient, page: str) -> None:
    assert_error(api_client.get(LIST, {"page": page}), 400, "invalid_request_error", "page")


@pytest.mark.parametrize("mode", ["unknown", "", "ALL", "api-agents"])
def test_unknown_mode_is_400_naming_mode(api_client: APIClient, mode: str) -> None:
    assert_error(api_client.get(LIST, {"mode": mode}), 400, "invalid_request_error", "mode")


# --- List: modes ---


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_filters_the_list(user: User, api_client: APIClient, mode: str) -> None:
    made = {m: make_conversation(user, mode=m, title=m) for m in MODES}
    make_conversation(user, mode=mode, title=f"second {mode}")
    body = api_client.get(LIST, {"mode": mode}).json()
    assert body["mode_filter"] == mode
    assert body["total"] == 2
    assert {c["mode"] for c in body["data"]} == {mode}
    assert f"conv_{made[mode].pk}" in {c["id"] for c in body["data"]}


def test_mode_all_lists_every_mode(user: User, api_client: APIClient) -> None:
    for mode in MODES:
        make_conversation(user, mode=mode)
    body = api_client.get(LIST, {"mode": "all"}).json()
    assert body["mode_filter"] == "all"
    assert body["total"] == 5
    assert sorted(c["mode"] for c in body["data"]) == sorted(MODES)


# --- List: entries ---


def test_list_entry_holds_the_latest_message_only(user: User, api_client: APIClient) -> None:
    conversation = make_conversation(
        user,
        mode="api_agents",
        title="Reverse a list",
        messages=[
            ("system", "Conversation with the persona X"),
            ("user", "How do I reverse a list?"),
            ("assistant", "Use reversed()."),
        ],
    )
    latest = conversation.messages.order_by("-id").first()
    assert latest is not None
    body = api_client.get(LIST).json()
    assert body == {
        "object": "list",
        "data": [
            {
                "id": f"conv_{conversation.pk}",
                "mode": "api_agents",
                "title": "Reverse a list",
                "created_at": conversation.created_at.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                "updated_at": conversation.updated_at.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                "messages": [
                    {
                        "id": latest.pk,
                        "role": "assistant",
                        "content": "Use reversed().",
                        "model": "nova-local",
                        "tool_calls": None,
                        "tool_call_id": None,
                        "created_at": latest.created_at.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                    }
                ],
            }
        ],
        "has_more": False,
        "total": 1,
        "mode_filter": "all",
    }


def test_latest_user_message_has_no_model(user: User, api_client: APIClient) -> None:
    make_conversation(user, messages=[("assistant", "Hi"), ("user", "Bye")])
    (message,) = api_client.get(LIST).json()["data"][0]["messages"]
    assert message["role"] == "user"
    assert "model" not in message


def test_conversation_without_messages_lists_an_empty_messages_array(
    user: User, api_client: APIClient
) -> None:
    make_conversation(user, messages=[])
    assert api_client.get(LIST).json()["data"][0]["messages"] == []


def test_list_holds_only_the_callers_conversations(
    user: User, other_user: User, api_client: APIClient, other_api_client: APIClient
) -> None:
    mine = make_conversation(user, title="mine")
    theirs = make_conversation(other_user, title="theirs")
    body = api_client.get(LIST).json()
    assert body["total"] == 1
    assert [c["id"] for c in body["data"]] == [f"conv_{mine.pk}"]
    assert [c["id"] for c in other_api_client.get(LIST).json()["data"]] == [f"conv_{theirs.pk}"]


@pytest.mark.parametrize(("made", "page", "shown"), [(1, "1", 1), (20, "1", 20), (21, "2", 1)])
def test_a_page_costs_two_queries_however_many_rows(
    user: User,
    api_key: ApiKey,
    api_client: APIClient,
    django_assert_num_queries: Any,
    made: int,
    page: str,
    shown: int,
) -> None:
    for i in range(made):
        make_conversation(user, title=f"c{i}", messages=[("user", "q"), ("assistant", "a")])
    # Authentication is one query once the key's last use is recent (accounts.auth).
    ApiKey.objects.filter(pk=api_key.pk).update(last_used_at=timezone.now())
    with django_assert_num_queries(1 + 2):  # auth + count + page with latest messages
        body = api_client.get(LIST, {"page": page}).json()
    assert len(body["data"]) == shown
    assert all(len(c["messages"]) == 1 for c in body["data"])


# --- Detail ---


def test_detail_holds_every_message_in_order_with_system_messages(
    user: User, api_client: APIClient
) -> None:
    conversation = make_conversation(
        user,
        mode="api_agents",
        title="Hello",
        messages=[
            ("system", "Conversation with the persona X"),
            ("user", "Hello"),
            ("assistant", "Hi! How can I help?"),
            ("user", "Thanks"),
            ("assistant", "You're welcome."),
        ],
    )
    messages = list(conversation.messages.order_by("id"))
    body = api_client.get(detail(conversation)).json()

    def stamp(value: datetime) -> str:
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")

    expected_messages: list[dict[str, Any]] = []
    for m in messages:
        item: dict[str, Any] = {
            "id": m.pk,
            "role": m.role,
            "content": m.content,
            "tool_calls": None,
            "tool_call_id": None,
            "created_at": stamp(m.created_at),
        }
        if m.role == "assistant":
            item["model"] = "nova-local"
        expected_messages.append(item)
    assert body == {
        "id": f"conv_{conversation.pk}",
        "mode": "api_agents",
        "title": "Hello",
        "created_at": stamp(conversation.created_at),
        "updated_at": stamp(conversation.updated_at),
        "messages": expected_messages,
    }
    assert [m["role"] for m in body["messages"]] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
    ]


def test_detail_shows_a_tool_exchange_in_order(user: User, api_client: APIClient) -> None:
    conversation = save_tool_exchange(user)
    body = api_client.get(detail(conversation)).json()
    # Every message carries both fields, null where they do not apply.
    shown = [
        {k: v for k, v in m.items() if k not in ("id", "created_at")} for m in body["messages"]
    ]
    assert shown == [
        {
            "role": "user",
            "content": "Weather in Paris and Rome?",
            "tool_calls": None,
            "tool_call_id": None,
        },
        {
            "role": "assistant",
            "content": "",
            "model": "fake-gpt",
            "tool_calls": [weather_call("call_1", "Paris")],
            "tool_call_id": None,
        },
        {"role": "tool", "content": '{"temp": 18}', "tool_calls": None, "tool_call_id": "call_1"},
        {
            "role": "assistant",
            "content": "Paris is 18 °C; now Rome.",
            "model": "fake-gpt",
            "tool_calls": [weather_call("call_2", "Rome")],
            "tool_call_id": None,
        },
        {"role": "tool", "content": "sunny,\n24", "tool_calls": None, "tool_call_id": "call_2"},
        {
            "role": "assistant",
            "content": "Paris 18 °C, Rome 24 °C and sunny.",
            "model": "fake-gpt",
            "tool_calls": None,
            "tool_call_id": None,
        },
    ]
    assert [m["role"] for m in shown] == [m["role"] for m in TOOL_EXCHANGE_HISTORY]
    ids = [m["id"] for m in body["messages"]]
    assert ids == sorted(ids)


def test_another_users_tool_exchange_is_404(other_user: User, api_client: APIClient) -> None:
    theirs = save_tool_exchange(other_user)
    for path in (detail(theirs), f"{LIST}/conv_{theirs.pk}"):
        response = api_client.get(path)
        assert_error(response, 404, "not_found_error", "conversation_id")
        assert "get_weather" not in response.content.decode()


def test_a_list_entry_shows_the_latest_tool_call(
    user: User, api_key: ApiKey, api_client: APIClient, django_assert_num_queries: Any
) -> None:
    for city in ("Paris", "Rome", "Oslo"):
        make_conversation(user, messages=[("user", city)])
    conversation = make_conversation(user, messages=[("user", "Weather?")])
    Message.objects.create(
        conversation=conversation,
        role="assistant",
        model="fake-gpt",
        tool_calls=[weather_call("call_9", "Lima")],
    )
    Message.objects.create(conversation=conversation, role="tool", tool_call_id="call_9")
    Message.objects.create(
        conversation=conversation,
        role="assistant",
        model="fake-gpt",
        tool_calls=[weather_call("call_10", "Quito")],
    )
    Conversation.objects.filter(pk=conversation.pk).update(
        updated_at=timezone.now() + timedelta(days=1)
    )
    ApiKey.objects.filter(pk=api_key.pk).update(last_used_at=timezone.now())
    with django_assert_num_queries(1 + 2):  # auth + count + page with latest messages
        body = api_client.get(LIST).json()
    assert len(body["data"]) == 4
    (latest,) = body["data"][0]["messages"]
    assert latest["tool_calls"] == [weather_call("call_10", "Quito")]
    assert (latest["role"], latest["content"], latest["tool_call_id"]) == ("assistant", "", None)
    for entry in body["data"][1:]:
        (message,) = entry["messages"]
        assert (message["tool_calls"], message["tool_call_id"]) == (None, None)


def test_a_list_entry_shows_the_latest_tool_result(user: User, api_client: APIClient) -> None:
    conversation = make_conversation(user, messages=[("user", "Weather?")])
    Message.objects.create(
        conversation=conversation, role="tool", tool_call_id="call_1", content="18"
    )
    (latest,) = api_client.get(LIST).json()["data"][0]["messages"]
    assert {k: latest[k] for k in ("role", "content", "tool_calls", "tool_call_id")} == {
        "role": "tool",
        "content": "18",
        "tool_calls": None,
        "tool_call_id": "call_1",
    }
    assert "model" not in latest


@pytest.mark.parametrize("form", ["conv_{pk}", "{pk}"])
def test_detail_accepts_conv_prefixed_and_bare_ids(
    user: User, api_client: APIClient, form: str
) -> None:
    conversation = make_conversation(user)
    response = api_client.get(f"{LIST}/{form.format(pk=conversation.pk)}")
    assert response.status_code == 200, response.content
    assert response.json()["id"] == f"conv_{conversation.pk}"


@pytest.mark.parametrize(
    "raw",
    [
        "conv_x",
        "conv_",
        "conv_-1",
        "-1",
        "0",
        "conv_0",
        "99999999999999999999999",
        "9223372036854775808",
        "conv_9223372036854775807",
        "%D9%A4%D9%A2",  # Arabic-Indic digits
        "conv_%EF%BC%94",  # a fullwidth 4
        "1.5",
        "CONV_1",
        "conv_1_",
        "%201",
        "null",
    ],
)
def test_malformed_or_unknown_ids_are_404_never_500(api_client: APIClient, raw: str) -> None:
    for method in ("get", "delete"):
        response = getattr(api_client, method)(f"{LIST}/{raw}")
        assert_error(response, 404, "not_found_error", "conversation_id")


def test_another_users_conversation_is_404_on_detail_and_delete_and_absent_from_list(
    other_user: User, api_client: APIClient
) -> None:
    theirs = make_conversation(other_user, messages=[("user", "private")])
    assert api_client.get(LIST).json()["total"] == 0
    for path in (detail(theirs), f"{LIST}/conv_{theirs.pk}"):
        assert_error(api_client.get(path), 404, "not_found_error", "conversation_id")
        assert_error(api_client.delete(path), 404, "not_found_error", "conversation_id")
    assert Conversation.objects.filter(pk=theirs.pk).exists()
    assert "private" not in api_client.get(detail(theirs)).content.decode()


def test_timestamps_are_utc_with_six_digits_and_z(user: User, api_client: APIClient) -> None:
    # A whole second: the six digits must still be there (isoformat() would drop them).
    conversation = make_conversation(
        user,
        messages=[("user", "q"), ("assistant", "a")],
        updated_at=datetime(2026, 11, 22, 15, 33, 43, tzinfo=UTC),
    )
    Conversation.objects.filter(pk=conversation.pk).update(
        created_at=datetime(2026, 11, 22, 15, 33, 43, 123456, tzinfo=UTC)
    )
    body = api_client.get(detail(conversation)).json()
    assert body["created_at"] == "2026-11-22T15:33:43.123456Z"
    assert body["updated_at"] == "2026-11-22T15:33:43.000000Z"
    stamps = [body["created_at"], body["updated_at"]]
    stamps += [m["created_at"] for m in body["messages"]]
    entry = api_client.get(LIST).json()["data"][0]
    stamps += [entry["created_at"], entry["updated_at"], entry["messages"][0]["created_at"]]
    assert all(re.match(TIMESTAMP, stamp) for stamp in stamps), stamps


# --- Delete ---


def test_delete_removes_the_conversation_and_keeps_usage_records(
    user: User, api_client: APIClient
) -> None:
    conversation = make_conversation(user, messages=[("user", "q"), ("assistant", "a")])
    usage = UsageRecord.objects.create(
        user=user,
        model_id="nova-local",
        conversation=conversation,
        prompt_tokens=3,
        completion_tokens=4,
        cost=Decimal("0.00000100"),
    )
    response = api_client.delete(detail(conversation))
    assert response.status_code == 204
    assert response.content == b""
    assert not Conversation.objects.filter(pk=conversation.pk).exists()
    assert not Message.objects.filter(conversation_id=conversation.pk).exists()
    usage.refresh_from_db()
    assert usage.conversation_id is None
    assert_error(api_client.get(detail(conversation)), 404, "not_found_error", "conversation_id")
    assert_error(api_client.delete(detail(conversation)), 404, "not_found_error", "conversation_id")


# --- Paths ---


@pytest.mark.parametrize("prefix", ["/nova-api/v1", "/api/nova-api/v1"])
@pytest.mark.parametrize("slash", ["", "/"])
def test_both_prefixes_with_and_without_trailing_slash(
    user: User, api_client: APIClient, prefix: str, slash: str
) -> None:
    conversation = make_conversation(user)
    listed = api_client.get(f"{prefix}/conversations{slash}")
    assert listed.status_code == 200, listed.content
    assert listed.json()["total"] == 1
    got = api_client.get(f"{prefix}/conversations/conv_{conversation.pk}{slash}")
    assert got.status_code == 200, got.content
    assert got.json()["id"] == f"conv_{conversation.pk}"
    deleted = api_client.delete(f"{prefix}/conversations/{conversation.pk}{slash}")
    assert deleted.status_code == 204


@pytest.mark.parametrize("path", [LIST, f"{LIST}/conv_1"])
def test_needs_a_bearer_key(anon_client: APIClient, path: str) -> None:
    response = anon_client.get(path)
    assert_error(response, 401, "authentication_error")
    assert response["WWW-Authenticate"] == "Bearer"


def test_other_methods_are_405(user: User, api_client: APIClient) -> None:
    conversation = make_conversation(user)
    response = api_client.post(LIST, {}, format="json")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"
    response = api_client.put(detail(conversation), {}, format="json")
    assert response.status_code == 405


def test_openapi_documents_list_detail_and_delete(client: Any) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    item = paths["/nova-api/v1/conversations/{conversation_id}"]
    assert set(item) >= {"get", "delete"}
    assert "204" in item["delete"]["responses"]
    assert "404" in item["delete"]["responses"]
    listing = paths["/nova-api/v1/conversations"]["get"]
    assert {p["name"] for p in listing["parameters"]} >= {"mode", "page"}
    message = schema["components"]["schemas"]["ConversationMessage"]
    assert {"tool_calls", "tool_call_id"} <= set(message["properties"])
    assert message["properties"]["tool_calls"]["nullable"] is True
    assert message["properties"]["tool_call_id"]["nullable"] is True
