"""One test per validation rule of a chat request (docs/api.md, Chat completions), and the
order of the checks (docs/api.md, Errors)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from tests.chat.helpers import make_persona
from tests.conftest import client_for
from tests.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db

OK_MESSAGES = [{"role": "user", "content": "Hi"}]
PNG = "data:image/png;base64,iVBORw0KGgo="

CASES: list[tuple[str, dict[str, Any], str]] = [
    ("persona_id missing", {"messages": OK_MESSAGES}, "persona_id"),
    ("persona_id string", {"persona_id": "1", "messages": OK_MESSAGES}, "persona_id"),
    ("persona_id boolean", {"persona_id": True, "messages": OK_MESSAGES}, "persona_id"),
    ("persona_id float", {"persona_id": 1.5, "messages": OK_MESSAGES}, "persona_id"),
    ("messages missing", {"persona_id": 1}, "messages"),
    ("messages empty", {"persona_id": 1, "messages": []}, "messages"),
    ("messages not array", {"persona_id": 1, "messages": "hi"}, "messages"),
    ("message not object", {"persona_id": 1, "messages": ["hi"]}, "messages[0]"),
    (
        "system role",
        {"persona_id": 1, "messages": [{"role": "system", "content": "x"}]},
        "messages[0].role",
    ),
    (
        "unknown role",
        {"persona_id": 1, "messages": [*OK_MESSAGES, {"role": "function", "content": "x"}]},
        "messages[1].role",
    ),
    (
        "blank content",
        {"persona_id": 1, "messages": [{"role": "user", "content": "  "}]},
        "messages[0].content",
    ),
    (
        "content number",
        {"persona_id": 1, "messages": [{"role": "user", "content": 5}]},
        "messages[0].content",
    ),
    ("content missing", {"persona_id": 1, "messages": [{"role": "user"}]}, "messages[0].content"),
    (
        "bad part type",
        {"persona_id": 1, "messages": [{"role": "user", "content": [{"type": "audio"}]}]},
        "messages[0].content[0].type",
    ),
    (
        "blank text part",
        {
            "persona_id": 1,
            "messages": [{"role": "user", "content": [{"type": "text", "text": ""}]}],
        },
        "messages[0].content[0].text",
    ),
    (
        "image not data url",
        {
            "persona_id": 1,
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}
                    ],
                }
            ],
        },
        "messages[0].content[0].image_url.url",
    ),
    (
        "image bad base64",
        {
            "persona_id": 1,
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "image_url", "image_url": {"url": "data:image/png;base64,@@@"}}
                    ],
                }
            ],
        },
        "messages[0].content[0].image_url.url",
    ),
    (
        "image bad mime",
        {
            "persona_id": 1,
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "image_url",
                            "image_url": {"url": "data:image/tiff;base64,iVBORw0KGgo="},
                        }
                    ],
                }
            ],
        },
        "messages[0].content[0].image_url.url",
    ),
    (
        "image for non-vision model",
        {
            "persona_id": 1,
            "messages": [
                {"role": "user", "content": [{"type": "image_url", "image_url": {"url": PNG}}]}
            ],
        },
        "messages",
    ),
    (
        "temperature above 2",
        {"persona_id": 1, "messages": OK_MESSAGES, "temperature": 2.1},
        "temperature",
    ),
    (
        "temperature below 0",
        {"persona_id": 1, "messages": OK_MESSAGES, "temperature": -0.1},
        "temperature",
    ),
    (
        "temperature boolean",
        {"persona_id": 1, "messages": OK_MESSAGES, "temperature": True},
        "temperature",
    ),
    (
        "temperature string",
        {"persona_id": 1, "messages": OK_MESSAGES, "temperature": "1"},
        "temperature",
    ),
    ("max_tokens zero", {"persona_id": 1, "messages": OK_MESSAGES, "max_tokens": 0}, "max_tokens"),
    (
        "max_tokens float",
        {"persona_id": 1, "messages": OK_MESSAGES, "max_tokens": 1.5},
        "max_tokens",
    ),
    ("top_k negative", {"persona_id": 1, "messages": OK_MESSAGES, "top_k": -1}, "top_k"),
    ("min_p above 1", {"persona_id": 1, "messages": OK_MESSAGES, "min_p": 1.5}, "min_p"),
    (
        "repetition_penalty zero",
        {"persona_id": 1, "messages": OK_MESSAGES, "repetition_penalty": 0},
        "repetition_penalty",
    ),
    ("seed string", {"persona_id": 1, "messages": OK_MESSAGES, "seed": "7"}, "seed"),
    ("stop empty string", {"persona_id": 1, "messages": OK_MESSAGES, "stop": ""}, "stop"),
    (
        "stop five",
        {"persona_id": 1, "messages": OK_MESSAGES, "stop": ["a", "b", "c", "d", "e"]},
        "stop",
    ),
    ("stop empty item", {"persona_id": 1, "messages": OK_MESSAGES, "stop": ["a", ""]}, "stop[1]"),
    ("stop number", {"persona_id": 1, "messages": OK_MESSAGES, "stop": 5}, "stop"),
    (
        "reasoning effort",
        {"persona_id": 1, "messages": OK_MESSAGES, "reasoning": {"effort": "extreme"}},
        "reasoning.effort",
    ),
    (
        "reasoning max_tokens",
        {"persona_id": 1, "messages": OK_MESSAGES, "reasoning": {"max_tokens": 0}},
        "reasoning.max_tokens",
    ),
    (
        "reasoning exclude",
        {"persona_id": 1, "messages": OK_MESSAGES, "reasoning": {"exclude": "yes"}},
        "reasoning.exclude",
    ),
    (
        "reasoning enabled",
        {"persona_id": 1, "messages": OK_MESSAGES, "reasoning": {"enabled": 1}},
        "reasoning.enabled",
    ),
    (
        "reasoning not object",
        {"persona_id": 1, "messages": OK_MESSAGES, "reasoning": "high"},
        "reasoning",
    ),
    (
        "legacy reasoning_effort",
        {"persona_id": 1, "messages": OK_MESSAGES, "reasoning_effort": "max"},
        "reasoning_effort",
    ),
    ("stream string", {"persona_id": 1, "messages": OK_MESSAGES, "stream": "true"}, "stream"),
    (
        "include_usage",
        {"persona_id": 1, "messages": OK_MESSAGES, "stream_options": {"include_usage": 1}},
        "stream_options.include_usage",
    ),
    (
        "conversation_id not an id",
        {"persona_id": 1, "messages": OK_MESSAGES, "conversation_id": "chat-1"},
        "conversation_id",
    ),
    ("unknown model", {"persona_id": 1, "messages": OK_MESSAGES, "model": "gpt-99"}, "model"),
    ("model not string", {"persona_id": 1, "messages": OK_MESSAGES, "model": 5}, "model"),
]


@pytest.mark.parametrize(("case", "payload", "param"), CASES, ids=[c[0] for c in CASES])
def test_persona_chat_rejects_invalid_body(
    funded_user: User, api_client: APIClient, case: str, payload: dict[str, Any], param: str
) -> None:
    response = api_client.post("/v1/agents/chat/completions", payload, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["param"] == param
    assert error["message"]


def test_general_chat_requires_a_model(funded_user: User, api_client: APIClient) -> None:
    response = api_client.post("/v1/chat/completions", {"messages": OK_MESSAGES}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "model"


def test_body_must_be_an_object(funded_user: User, api_client: APIClient) -> None:
    response = api_client.post("/v1/agents/chat/completions", [1, 2], format="json")
    assert response.status_code == 400
    assert response.json()["error"]["type"] == "invalid_request_error"


def test_conversation_id_without_detailed_logging_is_400(
    funded_user: User, api_client: APIClient
) -> None:
    response = api_client.post(
        "/v1/agents/chat/completions",
        {"persona_id": 1, "messages": OK_MESSAGES, "conversation_id": 5},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "conversation_id"


# --- Check order: 401, 429, 400, 404, 402 ---


def test_401_before_400(anon_client: APIClient) -> None:
    response = anon_client.post("/v1/agents/chat/completions", {"temperature": 9}, format="json")
    assert response.status_code == 401


@pytest.mark.usefixtures("fresh_rate_window")
def test_429_before_400(funded_user: User) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, rpm_limit=1))
    client.post("/v1/agents/chat/completions", {}, format="json")
    response = client.post("/v1/agents/chat/completions", {"temperature": 9}, format="json")
    assert response.status_code == 429


def test_400_before_404(funded_user: User, api_client: APIClient) -> None:
    response = api_client.post(
        "/v1/agents/chat/completions",
        {"persona_id": 999, "messages": OK_MESSAGES, "temperature": 3},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "temperature"


def test_404_before_402(user: User, api_client: APIClient) -> None:
    response = api_client.post(
        "/v1/agents/chat/completions", {"persona_id": 999, "messages": OK_MESSAGES}, format="json"
    )
    assert response.status_code == 404


def test_unknown_conversation_404_before_402(user: User) -> None:
    client = client_for(ApiKeyFactory.create(user=user, detailed_logging=True))
    response = client.post(
        "/v1/agents/chat/completions",
        {"persona_id": 1, "messages": OK_MESSAGES, "conversation_id": 999},
        format="json",
    )
    assert response.status_code == 404
    assert response.json()["error"]["param"] == "conversation_id"


def test_402_for_valid_request_at_zero_balance(user: User, api_client: APIClient) -> None:
    response = api_client.post(
        "/v1/agents/chat/completions", {"persona_id": 1, "messages": OK_MESSAGES}, format="json"
    )
    assert response.status_code == 402


def test_image_for_explicit_non_vision_model_400_before_persona_404(
    funded_user: User, api_client: APIClient
) -> None:
    content = [{"type": "image_url", "image_url": {"url": PNG}}]
    response = api_client.post(
        "/v1/agents/chat/completions",
        {
            "persona_id": 999,
            "model": "nova-local",
            "messages": [{"role": "user", "content": content}],
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "messages"


def test_private_persona_of_other_user_404_even_at_zero_balance(
    user: User, other_user: User, api_client: APIClient
) -> None:
    persona = make_persona(other_user, model="nova-local")
    response = api_client.post(
        "/v1/agents/chat/completions",
        {"persona_id": persona.pk, "messages": OK_MESSAGES},
        format="json",
    )
    assert response.status_code == 404


# --- OpenAI's tool, output and sampling fields (docs/api.md, Request) ---

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}
CALL = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}


def _general(**fields: Any) -> dict[str, Any]:
    return {"model": "nova-local", "messages": OK_MESSAGES, **fields}


def _tool(**function: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": "get_weather", **function}}


def _with_call(call: Any) -> dict[str, Any]:
    """A conversation whose assistant message (messages[1]) carries ``call``."""
    return _general(
        messages=[
            *OK_MESSAGES,
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        ]
    )


def _call(**changes: Any) -> dict[str, Any]:
    return {**CALL, **changes}


TOOL_CASES: list[tuple[str, dict[str, Any], str]] = [
    # tools
    ("tools not array", _general(tools={"type": "function"}), "tools"),
    ("tool not object", _general(tools=["get_weather"]), "tools[0]"),
    (
        "tool type",
        _general(tools=[{"type": "retrieval", "function": {"name": "a"}}]),
        "tools[0].type",
    ),
    ("tool without function", _general(tools=[{"type": "function"}]), "tools[0].function"),
    (
        "function not object",
        _general(tools=[{"type": "function", "function": "a"}]),
        "tools[0].function",
    ),
    (
        "function name missing",
        _general(tools=[{"type": "function", "function": {}}]),
        "tools[0].function.name",
    ),
    ("function name space", _general(tools=[_tool(name="get weather")]), "tools[0].function.name"),
    ("function name empty", _general(tools=[_tool(name="")]), "tools[0].function.name"),
    ("function name 65", _general(tools=[_tool(name="a" * 65)]), "tools[0].function.name"),
    ("function name number", _general(tools=[_tool(name=7)]), "tools[0].function.name"),
    ("function name twice", _general(tools=[WEATHER, WEATHER]), "tools[1].function.name"),
    ("description number", _general(tools=[_tool(description=5)]), "tools[0].function.description"),
    ("parameters array", _general(tools=[_tool(parameters=[])]), "tools[0].function.parameters"),
    ("strict string", _general(tools=[_tool(strict="true")]), "tools[0].function.strict"),
    (
        "too many tools",
        _general(tools=[_tool(name=f"f{i}") for i in range(129)]),
        "tools",
    ),
    # tool_choice
    ("tool_choice word", _general(tools=[WEATHER], tool_choice="always"), "tool_choice"),
    ("tool_choice number", _general(tools=[WEATHER], tool_choice=1), "tool_choice"),
    (
        "tool_choice type",
        _general(tools=[WEATHER], tool_choice={"type": "tool"}),
        "tool_choice.type",
    ),
    (
        "tool_choice no function",
        _general(tools=[WEATHER], tool_choice={"type": "function"}),
        "tool_choice.function",
    ),
    (
        "tool_choice bad name",
        _general(tools=[WEATHER], tool_choice={"type": "function", "function": {"name": "a b"}}),
        "tool_choice.function.name",
    ),
    (
        "tool_choice unknown function",
        _general(tools=[WEATHER], tool_choice={"type": "function", "function": {"name": "other"}}),
        "tool_choice.function.name",
    ),
    ("tool_choice required without tools", _general(tool_choice="required"), "tool_choice"),
    (
        "tool_choice required with no tools",
        _general(tools=[], tool_choice="required"),
        "tool_choice",
    ),
    (
        "tool_choice function without tools",
        _general(tool_choice={"type": "function", "function": {"name": "get_weather"}}),
        "tool_choice",
    ),
    ("parallel_tool_calls string", _general(parallel_tool_calls="yes"), "parallel_tool_calls"),
    ("parallel_tool_calls number", _general(parallel_tool_calls=1), "parallel_tool_calls"),
    # response_format
    ("response_format string", _general(response_format="json"), "response_format"),
    ("response_format type", _general(response_format={"type": "xml"}), "response_format.type"),
    ("response_format no type", _general(response_format={}), "response_format.type"),
    (
        "json_schema missing",
        _general(response_format={"type": "json_schema"}),
        "response_format.json_schema",
    ),
    (
        "json_schema name",
        _general(response_format={"type": "json_schema", "json_schema": {"name": "a.b"}}),
        "response_format.json_schema.name",
    ),
    (
        "json_schema no name",
        _general(response_format={"type": "json_schema", "json_schema": {"schema": {}}}),
        "response_format.json_schema.name",
    ),
    (
        "json_schema schema",
        _general(
            response_format={"type": "json_schema", "json_schema": {"name": "a", "schema": "{}"}}
        ),
        "response_format.json_schema.schema",
    ),
    (
        "json_schema strict",
        _general(
            response_format={"type": "json_schema", "json_schema": {"name": "a", "strict": 1}}
        ),
        "response_format.json_schema.strict",
    ),
    (
        "json_schema description",
        _general(
            response_format={"type": "json_schema", "json_schema": {"name": "a", "description": 1}}
        ),
        "response_format.json_schema.description",
    ),
    # sampling and output fields
    ("top_p above 1", _general(top_p=1.5), "top_p"),
    ("top_p below 0", _general(top_p=-0.1), "top_p"),
    ("top_p boolean", _general(top_p=True), "top_p"),
    ("max_completion_tokens zero", _general(max_completion_tokens=0), "max_completion_tokens"),
    ("max_completion_tokens float", _general(max_completion_tokens=2.0), "max_completion_tokens"),
    ("max_completion_tokens string", _general(max_completion_tokens="9"), "max_completion_tokens"),
    (
        "max_tokens and max_completion_tokens",
        _general(max_tokens=10, max_completion_tokens=10),
        "max_completion_tokens",
    ),
    ("n zero", _general(n=0), "n"),
    ("n nine", _general(n=9), "n"),
    ("n float", _general(n=2.0), "n"),
    ("n boolean", _general(n=True), "n"),
    ("logprobs string", _general(logprobs="true"), "logprobs"),
    ("top_logprobs 21", _general(logprobs=True, top_logprobs=21), "top_logprobs"),
    ("top_logprobs negative", _general(logprobs=True, top_logprobs=-1), "top_logprobs"),
    ("top_logprobs without logprobs", _general(top_logprobs=2), "top_logprobs"),
    ("top_logprobs logprobs false", _general(logprobs=False, top_logprobs=2), "top_logprobs"),
    ("user number", _general(user=5), "user"),
    ("user too long", _general(user="u" * 257), "user"),
    ("frequency_penalty above 2", _general(frequency_penalty=2.5), "frequency_penalty"),
    ("frequency_penalty below -2", _general(frequency_penalty=-3), "frequency_penalty"),
    ("frequency_penalty string", _general(frequency_penalty="1"), "frequency_penalty"),
    ("presence_penalty above 2", _general(presence_penalty=2.01), "presence_penalty"),
    ("presence_penalty boolean", _general(presence_penalty=False), "presence_penalty"),
    ("logit_bias array", _general(logit_bias=[1]), "logit_bias"),
    ("logit_bias word key", _general(logit_bias={"hello": 1}), "logit_bias"),
    ("logit_bias above 100", _general(logit_bias={"50256": 101}), "logit_bias.50256"),
    ("logit_bias below -100", _general(logit_bias={"7": -100.5}), "logit_bias.7"),
    ("logit_bias boolean", _general(logit_bias={"7": True}), "logit_bias.7"),
    ("logit_bias string", _general(logit_bias={"7": "5"}), "logit_bias.7"),
    # tool messages
    (
        "tool message without tool_call_id",
        _general(messages=[*OK_MESSAGES, {"role": "tool", "content": "sunny"}]),
        "messages[1].tool_call_id",
    ),
    (
        "tool message blank tool_call_id",
        _general(messages=[*OK_MESSAGES, {"role": "tool", "tool_call_id": " ", "content": "x"}]),
        "messages[1].tool_call_id",
    ),
    (
        "tool message numeric tool_call_id",
        _general(messages=[*OK_MESSAGES, {"role": "tool", "tool_call_id": 1, "content": "x"}]),
        "messages[1].tool_call_id",
    ),
    (
        "tool message without content",
        _general(messages=[*OK_MESSAGES, {"role": "tool", "tool_call_id": "call_1"}]),
        "messages[1].content",
    ),
    (
        "tool message number content",
        _general(messages=[*OK_MESSAGES, {"role": "tool", "tool_call_id": "c", "content": 5}]),
        "messages[1].content",
    ),
    (
        "tool message image",
        _general(
            messages=[
                *OK_MESSAGES,
                {
                    "role": "tool",
                    "tool_call_id": "c",
                    "content": [{"type": "image_url", "image_url": {"url": PNG}}],
                },
            ]
        ),
        "messages[1].content[0].type",
    ),
    (
        "tool message blank text part",
        _general(
            messages=[
                *OK_MESSAGES,
                {"role": "tool", "tool_call_id": "c", "content": [{"type": "text", "text": ""}]},
            ]
        ),
        "messages[1].content[0].text",
    ),
    # assistant tool calls
    (
        "tool_calls not array",
        _general(messages=[*OK_MESSAGES, {"role": "assistant", "tool_calls": CALL}]),
        "messages[1].tool_calls",
    ),
    ("tool call not object", _with_call("call_1"), "messages[1].tool_calls[0]"),
    ("tool call id missing", _with_call(_call(id=None)), "messages[1].tool_calls[0].id"),
    ("tool call id blank", _with_call(_call(id="")), "messages[1].tool_calls[0].id"),
    ("tool call type", _with_call(_call(type="tool")), "messages[1].tool_calls[0].type"),
    ("tool call function", _with_call(_call(function=None)), "messages[1].tool_calls[0].function"),
    (
        "tool call name",
        _with_call(_call(function={"name": "a b", "arguments": "{}"})),
        "messages[1].tool_calls[0].function.name",
    ),
    (
        "tool call arguments object",
        _with_call(_call(function={"name": "get_weather", "arguments": {"city": "Paris"}})),
        "messages[1].tool_calls[0].function.arguments",
    ),
    (
        "tool call arguments missing",
        _with_call(_call(function={"name": "get_weather"})),
        "messages[1].tool_calls[0].function.arguments",
    ),
    (
        "third message's call arguments",
        _general(
            messages=[
                *OK_MESSAGES,
                {"role": "assistant", "content": "Let me see."},
                {
                    "role": "assistant",
                    "tool_calls": [CALL, _call(function={"name": "x", "arguments": 1})],
                },
            ]
        ),
        "messages[2].tool_calls[1].function.arguments",
    ),
    (
        "assistant null content without calls",
        _general(messages=[*OK_MESSAGES, {"role": "assistant", "content": None}]),
        "messages[1].content",
    ),
    (
        "assistant number content with calls",
        _general(
            messages=[*OK_MESSAGES, {"role": "assistant", "content": 5, "tool_calls": [CALL]}]
        ),
        "messages[1].content",
    ),
    # personas as models
    ("persona model without id", _general(model="persona/"), "model"),
    ("persona model word", _general(model="persona/abc"), "model"),
    ("persona model zero", _general(model="persona/0"), "model"),
    ("persona model and other persona_id", _general(model="persona/3", persona_id=1), "model"),
]


@pytest.mark.parametrize(("case", "payload", "param"), TOOL_CASES, ids=[c[0] for c in TOOL_CASES])
@pytest.mark.parametrize("path", ["/v1/chat/completions", "/v1/agents/chat/completions"])
def test_rejects_invalid_tool_and_output_fields(
    funded_user: User,
    api_client: APIClient,
    path: str,
    case: str,
    payload: dict[str, Any],
    param: str,
) -> None:
    if path.startswith("/v1/agents") and "persona_id" not in payload:
        payload = {**payload, "persona_id": 1}
    response = api_client.post(path, payload, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["param"] == param
    assert error["message"]


@pytest.mark.parametrize(
    ("payload", "param"),
    [
        ({"tools": [WEATHER]}, "tools"),
        ({"tools": [WEATHER], "tool_choice": "auto"}, "tools"),
        ({"response_format": {"type": "json_object"}}, "response_format"),
        (
            {"response_format": {"type": "json_schema", "json_schema": {"name": "answer"}}},
            "response_format",
        ),
        ({"n": 2}, "n"),
        (
            {
                "messages": [
                    *OK_MESSAGES,
                    {"role": "assistant", "content": None, "tool_calls": [CALL]},
                    {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
                ]
            },
            "messages[1]",
        ),
        (
            {
                "messages": [
                    {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
                    *OK_MESSAGES,
                ]
            },
            "messages[0]",
        ),
    ],
    ids=["tools", "tools auto", "json_object", "json_schema", "n", "tool calls", "tool message"],
)
@pytest.mark.parametrize(
    "target",
    [
        {"path": "/v1/chat/completions", "model": "nova-local"},
        {"path": "/v1/agents/chat/completions", "persona_id": 1},
        {"path": "/v1/chat/completions", "model": "persona/1"},
    ],
    ids=["general", "persona", "persona model"],
)
def test_the_embedded_model_refuses_what_it_cannot_do(
    funded_user: User,
    api_client: APIClient,
    payload: dict[str, Any],
    param: str,
    target: dict[str, Any],
) -> None:
    body = {"messages": OK_MESSAGES, **{k: v for k, v in target.items() if k != "path"}, **payload}
    response = api_client.post(target["path"], body, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["param"] == param
    assert "nova-local" in error["message"]


@pytest.mark.parametrize(
    "payload",
    [
        {"response_format": {"type": "text"}},
        {"n": 1},
        {"tools": []},
        {"tool_choice": "none"},
        {"parallel_tool_calls": False},
        {"logprobs": False},
    ],
    ids=["text format", "n 1", "no tools", "tool_choice none", "parallel false", "no logprobs"],
)
def test_the_embedded_model_takes_what_asks_nothing_of_it(
    funded_user: User, api_client: APIClient, payload: dict[str, Any]
) -> None:
    response = api_client.post(
        "/v1/chat/completions",
        {"model": "nova-local", "messages": OK_MESSAGES, **payload},
        format="json",
    )
    assert response.status_code == 200, response.content


def test_capability_refusal_comes_before_the_persona_404(
    funded_user: User, api_client: APIClient
) -> None:
    response = api_client.post(
        "/v1/agents/chat/completions",
        {"persona_id": 999, "model": "nova-local", "messages": OK_MESSAGES, "tools": [WEATHER]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "tools"


def test_persona_chat_refuses_developer_messages(funded_user: User, api_client: APIClient) -> None:
    for body in (
        {"persona_id": 1, "messages": [{"role": "developer", "content": "x"}, *OK_MESSAGES]},
        {"model": "persona/1", "messages": [{"role": "system", "content": "x"}, *OK_MESSAGES]},
    ):
        response = api_client.post("/v1/chat/completions", body, format="json")
        assert response.status_code == 400
        assert response.json()["error"]["param"] == "messages[0].role"


def test_a_persona_model_satisfies_persona_id_required(
    funded_user: User, api_client: APIClient
) -> None:
    response = api_client.post(
        "/v1/agents/chat/completions",
        {"model": "persona/1", "messages": OK_MESSAGES},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["persona"]["id"] == 1
    assert response.json()["model"] == "nova-local"


def test_a_persona_model_agreeing_with_persona_id_is_accepted(
    funded_user: User, api_client: APIClient
) -> None:
    response = api_client.post(
        "/v1/agents/chat/completions",
        {"persona_id": 1, "model": "persona/1", "messages": OK_MESSAGES},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["persona"]["id"] == 1


def test_private_persona_model_of_other_user_is_404(
    user: User, other_user: User, api_client: APIClient
) -> None:
    persona = make_persona(other_user, model="nova-local")
    for path in ("/v1/chat/completions", "/v1/agents/chat/completions"):
        for stream in (False, True):
            response = api_client.post(
                path,
                {"model": f"persona/{persona.pk}", "messages": OK_MESSAGES, "stream": stream},
                format="json",
            )
            assert response.status_code == 404, response.content
            assert response.json()["error"]["type"] == "not_found_error"
    missing = api_client.post(
        "/v1/chat/completions", {"model": "persona/99999", "messages": OK_MESSAGES}, format="json"
    )
    assert missing.status_code == 404
