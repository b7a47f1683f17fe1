"""Payloads that used to escape validation as a 500 are a 400 or 413 envelope.

One layer answers them: the API's JSON parser (core.parsers), the strict number field
(core.fields), the exception handler and envelope (core.errors), and id parsing that takes
nothing but digits (core.ids.parse_id).
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from accounts.models import User
from core.errors import InvalidRequest, envelope
from core.fields import StrictNumberField
from core.ids import parse_id
from core.parsers import MAX_JSON_DEPTH, BoundedJSONParser
from tests.core.test_errors import BODY_OPERATIONS, assert_envelope

pytestmark = pytest.mark.django_db

# The DRF operations that take a body (chat answers 413 itself, in chat/gateway.py and the view).
DRF_BODY_OPERATIONS = [op for op in BODY_OPERATIONS if "chat/completions" not in op[1]]


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _send(client: APIClient, method: str, url: str, raw: str) -> Any:
    return getattr(client, method)(url, raw, content_type="application/json")


# --- Nesting --------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [5000, MAX_JSON_DEPTH + 1])
@pytest.mark.parametrize(("method", "path"), BODY_OPERATIONS)
def test_json_nested_too_deep_is_400_invalid_json_on_every_body_operation(
    funded_user: User,
    api_client: APIClient,
    own_ids: dict[str, int],
    method: str,
    path: str,
    depth: int,
) -> None:
    # Inside an object, so that before the depth check the serializers answered otherwise.
    raw = '{"a": ' + _nested(depth - 1) + "}"
    response = _send(api_client, method, path.format(**own_ids), raw)
    error = assert_envelope(response, 400, "invalid_request_error", "invalid_json")
    assert error["param"] is None
    assert error["message"] == (
        f"The request body nests JSON more than {MAX_JSON_DEPTH} levels deep."
    )


def test_parser_accepts_json_nested_to_the_limit_and_refuses_one_level_more() -> None:
    parser = BoundedJSONParser()
    at_limit = _nested(MAX_JSON_DEPTH).encode()
    assert parser.parse(io.BytesIO(at_limit), "application/json", {}) == json.loads(at_limit)
    for raw in (_nested(MAX_JSON_DEPTH + 1), '{"a": {"b": ' + _nested(MAX_JSON_DEPTH - 1) + "}}"):
        with pytest.raises(InvalidRequest) as caught:
            parser.parse(io.BytesIO(raw.encode()), "application/json", {})
        assert caught.value.code == "invalid_json"


# --- Numbers no float can hold --------------------------------------------------------------


@pytest.mark.parametrize(
    ("param", "message"),
    [
        ("temperature", "temperature: must be between 0 and 2."),
        ("min_p", "min_p: must be between 0 and 1."),
        ("repetition_penalty", "repetition_penalty: is out of range."),
    ],
)
@pytest.mark.parametrize("path", ["/v1/chat/completions", "/v1/agents/chat/completions"])
def test_a_400_digit_integer_for_a_number_parameter_is_400(
    funded_user: User, api_client: APIClient, path: str, param: str, message: str
) -> None:
    raw = (
        '{"persona_id": 1, "model": "nova-local", '
        '"messages": [{"role": "user", "content": "Hi"}], '
        f'"{param}": {"9" * 400}}}'
    )
    error = assert_envelope(_send(api_client, "post", path, raw), 400, "invalid_request_error")
    assert error["param"] == param
    assert error["message"] == message


# --- Echoed values the renderer cannot encode -----------------------------------------------


def test_an_envelope_with_lone_surrogates_renders_as_utf8_json() -> None:
    body = envelope("'\ud800' is not valid.", type="invalid_request_error", param="\udfff")
    rendered = json.loads(JSONRenderer().render(body).decode("utf-8"))
    assert rendered["error"]["message"] == "'\ufffd' is not valid."
    assert rendered["error"]["param"] == "\ufffd"


_ITEMS = "/v1/personas/{persona}/training-data"
_ITEM = _ITEMS + "/{item}"


@pytest.mark.parametrize(
    ("method", "path", "raw", "param"),
    [
        ("post", _ITEMS, '{"type": "\\ud800", "content": "x"}', "type"),
        ("put", _ITEM, '{"type": "\\ud800", "content": "x"}', "type"),
        ("patch", _ITEM, '{"type": "\\udfff"}', "type"),
        ("post", "/v1/moderation", '{"content": "x", "\\ud800": 1}', "\ufffd"),
        ("post", "/v1/moderations", '{"input": "x", "\\ud800": 1}', "\ufffd"),
    ],
)
def test_a_lone_surrogate_echoed_in_an_error_is_a_400_not_a_500(
    api_client: APIClient, own_ids: dict[str, int], method: str, path: str, raw: str, param: str
) -> None:
    response = _send(api_client, method, path.format(**own_ids), raw)
    error = assert_envelope(response, 400, "invalid_request_error")
    assert error["param"] == param
    assert "\ufffd" in error["message"]


# --- OPTIONS --------------------------------------------------------------------------------


def test_options_on_a_training_data_item_describes_it_to_its_owner(
    api_client: APIClient, own_ids: dict[str, int]
) -> None:
    response = api_client.options(_ITEM.format(**own_ids))
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    assert set(response.json()["actions"]) == {"PUT"}


def test_options_on_someone_elses_training_data_item_is_404(
    other_api_client: APIClient, own_ids: dict[str, int]
) -> None:
    response = other_api_client.options(_ITEM.format(**own_ids))
    assert_envelope(response, 404, "not_found_error", "not_found")


# --- Bodies over MAX_REQUEST_BYTES ----------------------------------------------------------


@pytest.mark.parametrize(("method", "path"), DRF_BODY_OPERATIONS)
def test_a_body_over_the_limit_is_413_on_every_drf_body_operation(
    api_client: APIClient, own_ids: dict[str, int], settings: Any, method: str, path: str
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    raw = json.dumps({"type": "text", "content": "x" * 2000, "input": "x"})
    response = _send(api_client, method, path.format(**own_ids), raw)
    error = assert_envelope(response, 413, "invalid_request_error", "request_too_large")
    assert error == {
        "message": "The request body is larger than 1000 bytes.",
        "type": "invalid_request_error",
        "param": None,
        "code": "request_too_large",
    }


# --- Ids with a trailing newline ------------------------------------------------------------


def test_parse_id_takes_digits_and_nothing_around_them() -> None:
    assert parse_id("9") == 9
    for value in ("9\n", "\n9", " 9", "9 ", "9\r\n", "+9", "9.0"):
        assert parse_id(value) is None, repr(value)


@pytest.mark.parametrize(
    "path",
    [
        "/v1/personas/1%0A",
        "/api/v1/personas/1%0A/",
        "/v1/personas/{persona}%0A/training-data",
        "/v1/personas/{persona}/training-data/{item}%0A",
    ],
)
def test_an_id_with_a_trailing_newline_is_404(
    api_client: APIClient, own_ids: dict[str, int], path: str
) -> None:
    assert_envelope(api_client.get(path.format(**own_ids)), 404, "not_found_error", "not_found")


def test_a_page_number_with_a_trailing_newline_is_400(api_client: APIClient) -> None:
    error = assert_envelope(api_client.get("/v1/personas?page=1%0A"), 400, "invalid_request_error")
    assert error["param"] == "page"


def test_a_conversation_id_with_a_trailing_newline_is_404(
    api_client: APIClient, api_key: Any
) -> None:
    from conversations.models import Conversation

    conversation = Conversation.objects.create(user=api_key.user, mode="api", title="t")
    path = f"/nova-api/v1/conversations/conv_{conversation.pk}"
    assert api_client.get(path).status_code == 200
    assert_envelope(api_client.get(path + "%0A"), 404, "not_found_error", "not_found")
    assert_envelope(
        api_client.get("/nova-api/v1/conversations?page=1%0A"), 400, "invalid_request_error"
    )


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        (StrictNumberField(min_value=0, max_value=2), 3, "must be between 0 and 2."),
        (StrictNumberField(min_value=0), -1, "must be at least 0."),
        (StrictNumberField(max_value=1), 2, "must be at most 1."),
        (StrictNumberField(min_value=0, exclusive_min=True), 0, "must be greater than 0."),
    ],
)
def test_a_number_out_of_range_is_named_by_the_bounds_the_field_has(
    field: StrictNumberField, value: float, message: str
) -> None:
    with pytest.raises(ValidationError) as excinfo:
        field.to_internal_value(value)
    assert excinfo.value.detail == [message]
