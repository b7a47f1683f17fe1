"""The playground's tools definition and tool calls: the same rules as the API, the calls
streamed back as fragments, everything shown as text."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from billing.models import Hold
from billing.selectors import get_balance
from conversations.models import Conversation, Message
from tests.chat.helpers import sse_events, streamed_body
from tests.fake_upstream import FakeUpstream

pytestmark = pytest.mark.django_db

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The current weather in a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
            "additionalProperties": False,
        },
        "strict": True,
    },
}
CLOCK = {"type": "function", "function": {"name": "get-time"}}
HOSTILE_NAME = '<img src=x onerror="alert(1)">'
HOSTILE_ARGUMENTS = '{"note": "</pre><script>alert(2)</script>"}'


@pytest.fixture
def web(funded_user: User) -> Client:
    client = Client()
    client.force_login(funded_user)
    return client


def send(client: Client, **payload: Any) -> Any:
    return client.post("/playground/chat", json.dumps(payload), content_type="application/json")


def api_error(api_client: APIClient, **body: Any) -> dict[str, Any]:
    """The API's answer to the same chat, for comparing error messages."""
    messages = [{"role": "user", "content": "What is the weather in Paris?"}]
    response = api_client.post(
        "/v1/chat/completions", {"messages": messages, **body}, format="json"
    )
    assert response.status_code == 400, response.content
    error: dict[str, Any] = response.json()["error"]
    return error


def tool_fragments(events: list[Any]) -> list[dict[str, Any]]:
    return [
        fragment
        for event in events
        if isinstance(event, dict)
        for choice in event.get("choices", [])
        for fragment in choice["delta"].get("tool_calls") or []
    ]


def assembled(fragments: list[dict[str, Any]]) -> dict[int, dict[str, str]]:
    calls: dict[int, dict[str, str]] = {}
    for fragment in fragments:
        call = calls.setdefault(fragment["index"], {"id": "", "name": "", "arguments": ""})
        call["id"] += fragment.get("id") or ""
        function = fragment.get("function") or {}
        call["name"] += function.get("name") or ""
        call["arguments"] += function.get("arguments") or ""
    return calls


# --- The page ---


def test_page_renders_the_tools_field_and_marks_models_without_tools(
    web: Client, upstream_catalog: Path
) -> None:
    html = web.get("/playground/").content.decode()
    assert "Tools (JSON)" in html
    assert '<textarea id="pg-tools" name="tools"' in html
    assert '<label for="pg-tools"' in html
    assert ">nova-local (no tools)</option>" in html
    assert ">fake-gpt</option>" in html
    assert "<script>" not in html and 'src="/static/js/playground.js"' in html


# --- Passed upstream unchanged ---


def test_tools_typed_as_json_text_reach_the_upstream_unchanged(
    web: Client, funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    text = json.dumps([WEATHER, CLOCK], indent=2)
    events = sse_events(streamed_body(send(web, model="fake-gpt", message="hi", tools=text)))
    assert events[-1] == "[DONE]"
    body = fake_upstream.bodies[-1]
    assert body["stream"] is True
    # Same content and the same key order as typed.
    assert json.dumps(body["tools"]) == json.dumps([WEATHER, CLOCK])
    assert body["messages"] == [{"role": "user", "content": "hi"}]


def test_tools_given_as_an_array_reach_the_upstream_unchanged(
    web: Client, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    streamed_body(send(web, model="fake-gpt", message="hi", tools=[CLOCK, WEATHER]))
    assert fake_upstream.bodies[-1]["tools"] == [CLOCK, WEATHER]


@pytest.mark.parametrize("blank", ["", "   \n  "])
def test_a_blank_tools_box_sends_no_tools(
    web: Client, fake_upstream: FakeUpstream, upstream_catalog: Path, blank: str
) -> None:
    events = sse_events(streamed_body(send(web, model="fake-gpt", message="hi", tools=blank)))
    assert events[-1] == "[DONE]"
    assert "tools" not in fake_upstream.bodies[-1]


# --- Tool calls come back ---


def test_tool_calls_stream_back_as_fragments_per_index_and_are_saved(
    web: Client, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    fake_upstream.script(
        tool_calls=[
            {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            {"name": "get-time", "arguments": '{"zone": "Europe/Paris"}'},
        ],
        stream_chunk_chars=5,
    )
    response = send(web, model="fake-gpt", message="Weather?", tools=json.dumps([WEATHER, CLOCK]))
    assert response.status_code == 200
    events = sse_events(streamed_body(response))
    fragments = tool_fragments(events)
    # Each call's name comes once, its arguments in several pieces.
    assert len(fragments) > 4
    assert assembled(fragments) == {
        0: {"id": "call_fake0x0", "name": "get_weather", "arguments": '{"city": "Paris"}'},
        1: {"id": "call_fake0x1", "name": "get-time", "arguments": '{"zone": "Europe/Paris"}'},
    }
    finishes = [
        choice["finish_reason"]
        for event in events
        if isinstance(event, dict)
        for choice in event.get("choices", [])
        if choice["finish_reason"]
    ]
    assert finishes == ["tool_calls"]
    assert not any(isinstance(e, dict) and "error" in e for e in events)
    conversation_id = events[-2]["conversation_id"]
    reply = Message.objects.get(conversation_id=conversation_id, role="assistant")
    assert reply.content == ""
    assert reply.tool_calls is not None
    assert [call["function"]["name"] for call in reply.tool_calls] == ["get_weather", "get-time"]


def test_saved_tool_calls_are_shown_with_pretty_arguments(web: Client, funded_user: User) -> None:
    conversation = Conversation.objects.create(user=funded_user, mode="chat", title="t")
    Message.objects.create(conversation=conversation, role="user", content="Weather?")
    Message.objects.create(
        conversation=conversation,
        role="assistant",
        content="",
        tool_calls=[
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
            },
            {
                "id": "call_2",
                "type": "function",
                "function": {"name": "get-time", "arguments": "not json {"},
            },
        ],
    )
    Message.objects.create(
        conversation=conversation, role="tool", content='{"temp": 21}', tool_call_id="call_1"
    )
    html = web.get(f"/playground/?conversation={conversation.pk}").content.decode()
    assert '<code class="tool-name">get_weather</code>' in html
    assert '<code class="tool-call-id">call_1</code>' in html
    assert "{\n  &quot;city&quot;: &quot;Paris&quot;\n}" in html
    assert "<code>not json {</code>" in html
    assert 'class="turn turn-tool"' in html and "result of <code>call_1</code>" in html


def test_a_hostile_function_name_and_arguments_are_shown_as_text(
    web: Client, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    fake_upstream.script(tool_calls=[{"name": HOSTILE_NAME, "arguments": HOSTILE_ARGUMENTS}])
    events = sse_events(
        streamed_body(send(web, model="fake-gpt", message="hi", tools=json.dumps([WEATHER])))
    )
    # Relayed to the page's script as data (which shows it with textContent) ...
    assert assembled(tool_fragments(events))[0]["name"] == HOSTILE_NAME
    # ... and escaped when the saved conversation is shown again.
    html = web.get(f"/playground/?conversation={events[-2]['conversation_id']}").content.decode()
    assert HOSTILE_NAME not in html and "<script>alert(2)" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    assert "&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in html


# --- Refused like the API refuses it ---


@pytest.mark.parametrize(
    ("tools", "param", "needle"),
    [
        ('[{"type": "function",', "tools", "Tools (JSON) is not valid JSON"),
        ("[{'type': 'function'}]", "tools", "line 1, column 3"),
        ('{"type": "function", "function": {"name": "x"}}', "tools", "must be an array"),
        ('[{"type": "function", "function": {"name": "bad name"}}]', "tools[0].function.name", ""),
        ('[{"type": "retrieval"}]', "tools[0].type", "must be 'function'"),
        ('[{"type": "function"}]', "tools[0].function", "must be an object"),
        (
            '[{"type": "function", "function": {"name": "a"}}, {"type": "function", '
            '"function": {"name": "a"}}]',
            "tools[1].function.name",
            "given twice",
        ),
        (
            '[{"type": "function", "function": {"name": "a", "parameters": []}}]',
            "tools[0].function.parameters",
            "must be an object",
        ),
        ("[" * 5000 + "]" * 5000, "tools", "Tools (JSON) nests more than"),
        ("[" * 200 + "]" * 200, "tools", "Tools (JSON) nests more than"),
    ],
)
def test_a_malformed_tools_definition_is_a_clear_400_and_nothing_is_sent(
    web: Client,
    funded_user: User,
    fake_upstream: FakeUpstream,
    upstream_catalog: Path,
    tools: str,
    param: str | None,
    needle: str,
) -> None:
    response = send(web, model="fake-gpt", message="hi", tools=tools)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["param"] == param
    assert needle in error["message"]
    if param is not None:
        # The message names the problem's place: the path, as the API's does, or the box.
        assert error["message"].startswith((f"{param}: ", "Tools (JSON)"))
    assert fake_upstream.bodies == []
    assert not Conversation.objects.exists() and not Hold.objects.exists()
    assert get_balance(funded_user) == Decimal("10")


@pytest.mark.parametrize(
    "tools",
    [
        [{"type": "function", "function": {"name": "bad name"}}],
        [{"type": "function", "function": {"name": "a", "strict": "yes"}}],
        [WEATHER, {"type": "function", "function": {"name": "get_weather"}}],
        {"type": "function", "function": {"name": "a"}},
        42,
    ],
)
def test_tools_errors_match_the_apis(
    web: Client,
    api_client: APIClient,
    fake_upstream: FakeUpstream,
    upstream_catalog: Path,
    tools: Any,
) -> None:
    # An array as sent by a script, or the same value typed into the box.
    for sent in (tools, json.dumps(tools)):
        response = send(web, model="fake-gpt", message="What is the weather in Paris?", tools=sent)
        assert response.status_code == 400
        assert response.json()["error"] == api_error(api_client, model="fake-gpt", tools=tools)
    assert fake_upstream.bodies == []


def test_the_embedded_model_refuses_tools_with_the_apis_message(
    web: Client, funded_user: User, api_client: APIClient, upstream_catalog: Path
) -> None:
    response = send(web, model="nova-local", message="hi", tools=json.dumps([WEATHER]))
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["param"] == "tools"
    assert error["message"] == "The model 'nova-local' does not take tools."
    assert error == api_error(api_client, model="nova-local", tools=[WEATHER])
    assert not Conversation.objects.exists() and not Hold.objects.exists()


def test_a_persona_on_the_embedded_model_refuses_tools(web: Client, upstream_catalog: Path) -> None:
    # Built-in persona 1 answers with nova-local.
    response = send(web, persona_id=1, message="hi", tools=json.dumps([WEATHER]))
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "tools"
    assert "does not take tools" in response.json()["error"]["message"]


def test_tools_keep_the_csrf_check(funded_user: User, upstream_catalog: Path) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(funded_user)
    response = send(strict, model="fake-gpt", message="hi", tools=json.dumps([WEATHER]))
    assert response.status_code == 403
    assert not Conversation.objects.exists()
