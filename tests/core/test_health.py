from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db


def test_healthz_is_ok(client: Any) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_checks_database_and_cache(client: Any) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "cache": "ok"}}


def test_readyz_is_503_when_the_cache_is_unreachable(client: Any, settings: Any) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        }
    }
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["cache"] == "unavailable"


@pytest.mark.parametrize("path", ["/api/schema/", "/api/schema"])
def test_openapi_schema_is_served(client: Any, path: str) -> None:
    response = client.get(path, HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")


def test_swagger_ui_uses_local_assets_only(client: Any) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/drf_spectacular_sidecar/" in html
    assert "cdn" not in html.lower()
    assert "https://" not in html
