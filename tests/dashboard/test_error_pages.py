"""Styled 404 and 500 pages for the dashboard whatever DEBUG says; Django's debug pages only
with DEBUG_PAGES; the API's JSON errors untouched."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import path

from accounts.models import User
from config.urls import urlpatterns as site_urls


def _boom(request: Any) -> Any:
    raise RuntimeError("kaboom in a view")


urlpatterns = [path("boom/", _boom), *site_urls]

pytestmark = pytest.mark.django_db


@pytest.fixture
def debug_on(settings: Any) -> Any:
    settings.DEBUG = True
    settings.DEBUG_PAGES = False
    return settings


def _styled_404(html: str) -> bool:
    return "Page not found" in html and "css/nova.css" in html and 'class="error-code">404' in html


@pytest.mark.parametrize("debug", [True, False])
def test_unknown_dashboard_path_is_the_styled_404(settings: Any, debug: bool) -> None:
    settings.DEBUG = debug
    settings.DEBUG_PAGES = False
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert _styled_404(html)
    assert "URLconf" not in html and "healthz" not in html  # no list of the URL patterns


def test_a_views_http404_is_styled_with_debug_on(debug_on: Any, user: User) -> None:
    client = Client()
    client.force_login(user)
    response = client.get("/conversations/999999/")
    assert response.status_code == 404
    html = response.content.decode()
    assert _styled_404(html)
    assert "Raised by" not in html


def test_debug_pages_shows_djangos_debug_404(debug_on: Any) -> None:
    debug_on.DEBUG_PAGES = True
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "URLconf" in html and "healthz" in html
    assert not _styled_404(html)


def test_debug_pages_does_nothing_without_debug(settings: Any) -> None:
    settings.DEBUG = False
    settings.DEBUG_PAGES = True
    html = Client().get("/no/such/page/").content.decode()
    assert _styled_404(html) and "URLconf" not in html


def test_api_paths_keep_their_json_404(debug_on: Any) -> None:
    for url in ("/v1/no-such-thing", "/api/v1/nope/", "/nova-api/v1/x"):
        response = Client().get(url)
        assert response.status_code == 404
        assert response["Content-Type"].startswith("application/json")
        assert response.json()["error"]["type"]


@pytest.mark.urls(__name__)
def test_an_exception_in_a_view_is_the_styled_500_and_is_logged(
    debug_on: Any, caplog: pytest.LogCaptureFixture
) -> None:
    client = Client(raise_request_exception=False)
    with caplog.at_level("ERROR", logger="django.request"):
        response = client.get("/boom/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Server error" in html and "css/nova.css" in html
    assert "kaboom" not in html and "Traceback" not in html
    assert any("kaboom in a view" in str(record.exc_info) for record in caplog.records)


@pytest.mark.urls(__name__)
def test_debug_pages_shows_the_traceback(debug_on: Any) -> None:
    debug_on.DEBUG_PAGES = True
    response = Client(raise_request_exception=False).get("/boom/")
    assert response.status_code == 500
    assert "kaboom in a view" in response.content.decode()


@pytest.mark.urls(__name__)
def test_the_500_page_without_debug(settings: Any) -> None:
    settings.DEBUG = False
    response = Client(raise_request_exception=False).get("/boom/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Server error" in html and "css/nova.css" in html and "kaboom" not in html


def test_favicon_is_linked_and_favicon_ico_redirects_to_it(client: Client) -> None:
    page = client.get("/login/").content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/favicon.svg"
    icon = client.get(response["Location"])
    assert icon.status_code == 200
    assert b"<svg" in b"".join(icon.streaming_content)  # type: ignore[attr-defined]
