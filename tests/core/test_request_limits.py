"""Requests Django refuses before a view: through the Django stack (the test client), the same
envelopes as chat/gateway.py gives under daphne (tests/live/test_gateway.py)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from billing.models import UsageRecord

pytestmark = pytest.mark.django_db


def test_chat_body_over_the_limit_is_413(
    api_client: APIClient, funded_user: Any, settings: Any
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = api_client.post(
        "/v1/chat/completions",
        {"model": "nova-local", "messages": [{"role": "user", "content": "x" * 2000}]},
        format="json",
    )
    assert response.status_code == 413
    assert response.json()["error"] == {
        "message": "The request body is larger than 1000 bytes.",
        "type": "invalid_request_error",
        "param": None,
        "code": "request_too_large",
    }
    assert not UsageRecord.objects.exists()


@pytest.mark.parametrize("path", ["/v1/personas", "/v1/chat/completions", "/nova-api/v1/x"])
def test_disallowed_host_on_an_api_path_is_a_json_400(api_client: APIClient, path: str) -> None:
    response = api_client.post(path, {}, format="json", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert response.json()["error"]["type"] == "invalid_request_error"
    assert response.json()["error"]["code"] == "bad_request"


def test_disallowed_host_on_the_dashboard_stays_html(client: Any) -> None:
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
