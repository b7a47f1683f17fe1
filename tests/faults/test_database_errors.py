"""Database connection errors anywhere in an API request are the 503 envelope (docs/api.md,
Errors; core.errors.ServiceUnavailable), on both paths: DRF's exception handler and the middleware
for plain views, plus handler500 for errors raised outside any view."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from django.db import OperationalError
from django.test import RequestFactory

from core.views import handler500
from tests.faults.urls_for_faults import DB_ERRORS, LEAKY

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.faults.urls_for_faults")]

EXPECTED = {
    "error": {
        "message": "The database is unavailable: try again shortly.",
        "type": "server_error",
        "param": None,
        "code": "service_unavailable",
    }
}


@pytest.mark.parametrize("kind", sorted(DB_ERRORS))
@pytest.mark.parametrize("view", ["drf", "plain", "async"])
def test_database_error_in_an_api_view_is_a_503_envelope(
    client: Any, view: str, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    response = client.get(f"/v1/_faults/{view}/{kind}")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response.json() == EXPECTED
    assert "127.0.0.1" not in response.content.decode()
    assert any(r.name == "core.errors" and r.levelname == "ERROR" for r in caplog.records)


def test_database_error_outside_an_api_path_is_left_to_django(client: Any) -> None:
    # The dashboard keeps Django's own error handling (an HTML 500 page).
    client.raise_request_exception = False
    response = client.get("/_faults/page/operational")
    assert response.status_code == 500
    assert not response["Content-Type"].startswith("application/json")


def test_handler500_turns_a_database_error_on_an_api_path_into_the_503_envelope() -> None:
    request = RequestFactory().get("/v1/personas")
    try:
        raise OperationalError(LEAKY)
    except OperationalError:
        assert sys.exc_info()[0] is OperationalError
        response = handler500(request)
    assert response.status_code == 503
    assert json.loads(response.content) == EXPECTED


def test_handler500_without_a_database_error_stays_a_500() -> None:
    response = handler500(RequestFactory().get("/v1/personas"))
    assert response.status_code == 500
    assert json.loads(response.content)["error"]["type"] == "server_error"
