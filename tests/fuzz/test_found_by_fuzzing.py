"""Regressions for what the schemathesis run found, through the test client (fast, exact).

Each test pins a bug the fuzzer found, now fixed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from accounts.models import User
from billing.models import UsageRecord
from conversations.models import Message
from tests.conftest import client_for
from tests.factories import ApiKeyFactory
from tests.fake_upstream import FakeUpstream

pytestmark = pytest.mark.django_db

UNSTORABLE = {
    "nul": "before\x00after",
    "lone-surrogate": "before\ud800after",
}


@pytest.mark.parametrize("text", sorted(UNSTORABLE))
def test_unstorable_text_in_a_chat_message_is_a_400_not_a_500(
    funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Any, text: str
) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))
    client.raise_request_exception = False
    body = {
        "persona_id": 1,
        "model": "fake-gpt",
        "messages": [{"role": "user", "content": UNSTORABLE[text]}],
    }
    # json.dumps escapes both as \u0000 / \ud800, exactly as a client sends them on the wire.
    response = client.post(
        "/v1/agents/chat/completions", json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["error"]["param"] == "messages[0].content"
    assert not UsageRecord.objects.exists()
    assert not Message.objects.exists()
