"""Content no text column can hold (NUL, a lone surrogate) is still moderated and queued.

PostgreSQL refuses NUL in text, and neither psycopg nor sqlite3 (nor the JSON renderer) can
encode a lone surrogate, so such content used to be a 500 with no review item.
The review item now stores the text cleaned (NUL dropped, a lone surrogate replaced by U+FFFD)
and every echo of the caller's text in the response is cleaned the same way.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from core.text import storable_text
from moderation.models import ModerationVerdict, ReviewItem
from tests.moderation.helpers import QUOTED_TEXT, SAFE_TEXT, THREAT_TEXT

pytestmark = pytest.mark.django_db

NEEDS_REVIEW = [
    pytest.param(THREAT_TEXT, id="escalated"),
    pytest.param(QUOTED_TEXT, id="uncertain"),
]
# (sent, stored): what the caller's character becomes in the database.
UNSTORABLE = [pytest.param("\x00", "", id="nul"), pytest.param("\ud800", "\ufffd", id="surrogate")]


def post_raw(client: APIClient, path: str, body: dict[str, Any]) -> Any:
    # json.dumps escapes both characters ("\u0000", "\ud800"): the bytes are valid JSON that
    # any client can send, and the server's parser turns the escapes back into the characters.
    raw = json.dumps(body)
    assert "\\u0000" in raw or "\\ud800" in raw
    return client.post(path, raw, content_type="application/json")


@pytest.mark.parametrize(("sent", "stored"), UNSTORABLE)
@pytest.mark.parametrize("content", NEEDS_REVIEW)
def test_moderation_queues_content_with_an_unstorable_character(
    api_client: APIClient, content: str, sent: str, stored: str
) -> None:
    response = post_raw(api_client, "/v1/moderation", {"content": f"{content} {sent}end"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["uncertainty_flag"] or body["escalation_required"]
    item = ReviewItem.objects.select_related("verdict").get()
    assert item.content == f"{content} {stored}end"
    assert item.verdict.endpoint == ModerationVerdict.Endpoint.MODERATION
    assert item.reason == body["reason"]


@pytest.mark.parametrize(("sent", "stored"), UNSTORABLE)
@pytest.mark.parametrize("content", NEEDS_REVIEW)
def test_moderations_queues_content_with_an_unstorable_character(
    api_client: APIClient, content: str, sent: str, stored: str
) -> None:
    body = {"input": [SAFE_TEXT, f"{content} {sent}end"]}
    response = post_raw(api_client, "/v1/moderations", body)
    assert response.status_code == 200, response.content
    assert len(response.json()["results"]) == 2
    assert ModerationVerdict.objects.count() == 2
    item = ReviewItem.objects.select_related("verdict").get()
    assert item.content == f"{content} {stored}end"
    assert item.verdict.endpoint == ModerationVerdict.Endpoint.MODERATIONS


def test_policy_and_instructions_are_queued_cleaned_and_the_reason_renders(
    api_client: APIClient,
) -> None:
    # A breached policy's description is quoted in the reason, so the surrogate reaches both
    # the stored reason and the response body.
    response = post_raw(
        api_client,
        "/v1/moderation",
        {
            "content": THREAT_TEXT,
            "policy": "#policy 1: no threats \ud800 here",
            "instructions": "be\x00 strict",
        },
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["escalation_required"] is True
    assert "no threats \ufffd here" in body["reason"]
    item = ReviewItem.objects.get()
    assert (item.content, item.policy, item.instructions) == (
        THREAT_TEXT,
        "#policy 1: no threats \ufffd here",
        "be strict",
    )
    assert item.reason == body["reason"]


def test_redacted_content_with_a_lone_surrogate_renders(api_client: APIClient) -> None:
    body = {"content": "My card is 4111 1111 1111 1111, ship it \ud800"}
    response = post_raw(api_client, "/v1/moderation", body)
    assert response.status_code == 200, response.content
    assert response.json()["action"] == "REDACT"
    assert response.json()["redacted_content"] == "My card is [CARD], ship it \ufffd"


def test_storable_text_drops_nul_and_replaces_lone_surrogates() -> None:
    assert storable_text("a\x00b\ud800c\udfffd") == "ab\ufffdc\ufffdd"
    assert storable_text("plain 😀 text") == "plain 😀 text"
    assert storable_text("") == ""
