"""Health endpoints answer any method but GET and HEAD with the JSON 405.

A POST used to meet Django's HTML CSRF page (403) and OPTIONS ran the check.
"""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options"])
@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_health_endpoints_refuse_other_methods_with_the_json_envelope(
    path: str, method: str
) -> None:
    client = Client(enforce_csrf_checks=True)
    response = getattr(client, method)(path, "{}", content_type="application/json")
    assert response.status_code == 405
    assert response["Content-Type"] == "application/json"
    assert response["Allow"] == "GET, HEAD"
    assert response.json() == {
        "error": {
            "message": f'Method "{method.upper()}" not allowed.',
            "type": "invalid_request_error",
            "param": None,
            "code": "method_not_allowed",
        }
    }
