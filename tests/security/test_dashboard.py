"""Security pass: the dashboard's headers, CSP, CSRF and escaping."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client

from accounts.models import ApiKey, User
from billing.models import Balance, LedgerEntry
from billing.services import charge_usage
from conversations.models import Conversation, Message
from personas.models import Persona, TrainingDataItem
from tests.chat.helpers import make_persona
from tests.factories import ApiKeyFactory, UserFactory

pytestmark = pytest.mark.django_db

XSS = '<script>alert("xss")</script>'
XSS_ESCAPED = "&lt;script&gt;alert(&quot;xss&quot;)&lt;/script&gt;"


@dataclass
class Form:
    page: str
    action: str
    method: str
    fields: dict[str, str] = field(default_factory=dict)


class _PageParser(HTMLParser):
    """The forms, scripts and attributes of a page, for checks that CSP and CSRF rely on."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.page = page
        self.forms: list[Form] = []
        self.inline_scripts = 0
        self.script_sources: list[str] = []
        self.style_elements = 0
        self.handler_attributes: list[str] = []
        self.style_attributes: list[str] = []
        self.javascript_urls: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        for name, value in values.items():
            if name.startswith("on"):
                self.handler_attributes.append(f"<{tag} {name}>")
            if name == "style":
                self.style_attributes.append(f"<{tag} style={value!r}>")
            if name in ("href", "src", "action") and value.strip().lower().startswith(
                "javascript:"
            ):
                self.javascript_urls.append(value)
        if tag == "script":
            if values.get("src"):
                self.script_sources.append(values["src"])
            else:
                self._in_script = True
        if tag == "style":
            self.style_elements += 1
        if tag == "form":
            self.forms.append(
                Form(self.page, values.get("action") or self.page, values.get("method", "get"))
            )
        if tag in ("input", "textarea", "select", "button") and self.forms and values.get("name"):
            self.forms[-1].fields[values["name"]] = values.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline_scripts += 1


def _parse(page: str, html: str) -> _PageParser:
    parser = _PageParser(page)
    parser.feed(html)
    return parser


@dataclass
class Site:
    alice: User
    persona: Persona
    item: TrainingDataItem
    key: ApiKey
    conversation: Conversation


@pytest.fixture
def site(user: User) -> Site:
    persona = make_persona(
        user,
        name="Chef",
        model="nova-local",
        items=[("qa_pair", "At nine.", {"question": "When do you open?"})],
    )
    conversation = Conversation.objects.create(
        user=user, mode="personal", persona=persona, model_id="nova-local", title="Cooking"
    )
    Message.objects.create(conversation=conversation, role="user", content="Hi chef")
    Message.objects.create(
        conversation=conversation, role="assistant", content="**Hello**", model="nova-local"
    )
    return Site(
        alice=user,
        persona=persona,
        item=persona.training_items.get(),
        key=ApiKeyFactory.create(user=user, name="laptop"),
        conversation=conversation,
    )


ANONYMOUS_PAGES = ["/login/", "/signup/"]


def _pages(s: Site) -> list[str]:
    p, i, c = s.persona.pk, s.item.pk, s.conversation.pk
    return [
        "/",
        "/keys/",
        f"/keys/{s.key.pk}/revoke/confirm/",
        "/personas/",
        "/personas/new/",
        "/personas/1/",
        f"/personas/{p}/",
        f"/personas/{p}/edit/",
        f"/personas/{p}/delete/confirm/",
        f"/personas/{p}/training/new/",
        f"/personas/{p}/training/{i}/edit/",
        f"/personas/{p}/training/{i}/delete/confirm/",
        "/playground/",
        f"/playground/?conversation={c}",
        "/conversations/",
        f"/conversations/{c}/",
        f"/conversations/{c}/delete/confirm/",
        "/usage/",
        "/models/",
    ]


def _logged_in(user: User, *, enforce_csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=enforce_csrf)
    client.force_login(user)
    return client


def _victim_browser(user: User) -> Client:
    """A logged-in browser that already holds its CSRF cookie, as a victim's would: a forged
    request then fails for want of the token alone, not for a missing cookie."""
    client = _logged_in(user, enforce_csrf=True)
    client.get("/keys/")
    assert client.cookies.get("csrftoken")
    return client


def _csp(response: Any) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


# --- Headers and CSP ---


def _assert_security_headers(response: Any, page: str) -> None:
    assert response.status_code == 200, page
    assert response["X-Frame-Options"] == "DENY", page
    assert response["X-Content-Type-Options"] == "nosniff", page
    assert response["Referrer-Policy"] == "same-origin", page
    csp = _csp(response)
    scripts = csp.get("script-src", csp.get("default-src"))
    assert scripts is not None, page
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts, page
    assert "*" not in scripts and "data:" not in scripts, page
    assert csp["default-src"] == ["'self'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["object-src" if "object-src" in csp else "default-src"] in (["'none'"], ["'self'"])
    assert csp["base-uri"] == ["'self'"] and csp["form-action"] == ["'self'"]
    assert "'unsafe-inline'" not in csp.get("style-src", [])


def test_every_dashboard_page_sends_security_headers_and_a_strict_csp(site: Site) -> None:
    web = _logged_in(site.alice)
    for page in _pages(site):
        _assert_security_headers(web.get(page), page)
    for page in ANONYMOUS_PAGES:
        _assert_security_headers(Client().get(page), page)


def test_dashboard_pages_have_nothing_the_csp_would_block(site: Site) -> None:
    """No inline script, event handler, inline style or javascript: URL: CSP would block them
    (and the page would break), or they would be an injection point."""
    web = _logged_in(site.alice)
    pages = [(page, web.get(page)) for page in _pages(site)]
    pages += [(page, Client().get(page)) for page in ANONYMOUS_PAGES]
    for page, response in pages:
        parsed = _parse(page, response.content.decode())
        assert parsed.inline_scripts == 0, page
        assert parsed.handler_attributes == [], page
        assert parsed.style_attributes == [], page
        assert parsed.style_elements == 0, page
        assert parsed.javascript_urls == [], page
        for src in parsed.script_sources:
            assert src.startswith("/static/"), (page, src)


def test_api_docs_page_runs_under_the_csp() -> None:
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    parsed = _parse("/api/docs/", response.content.decode())
    assert parsed.inline_scripts == 0
    assert parsed.handler_attributes == []


# --- CSRF ---


def _dashboard_forms(site: Site) -> list[Form]:
    web = _logged_in(site.alice)
    forms = []
    for page in _pages(site):
        forms += _parse(page, web.get(page).content.decode()).forms
    for page in ANONYMOUS_PAGES:
        forms += _parse(page, Client().get(page).content.decode()).forms
    return [form for form in forms if form.method.lower() == "post"]


def test_every_post_form_carries_a_csrf_token(site: Site) -> None:
    forms = _dashboard_forms(site)
    actions = {form.action for form in forms}
    # The crawl reached every kind of mutation the dashboard offers.
    for expected in (
        "/logout/",
        "/keys/new/",
        f"/keys/{site.key.pk}/revoke/",
        f"/keys/{site.key.pk}/logging/",
        f"/keys/{site.key.pk}/rate-limit/",
        "/personas/new/",
        f"/personas/{site.persona.pk}/edit/",
        f"/personas/{site.persona.pk}/delete/",
        f"/personas/{site.persona.pk}/training/new/",
        f"/personas/{site.persona.pk}/training/{site.item.pk}/edit/",
        f"/personas/{site.persona.pk}/training/{site.item.pk}/delete/",
        f"/conversations/{site.conversation.pk}/delete/",
        "/login/",
        "/signup/",
    ):
        assert expected in actions, expected
    for form in forms:
        assert form.fields.get("csrfmiddlewaretoken"), (form.page, form.action)


def _state(site: Site) -> dict[str, Any]:
    return {
        "users": User.objects.count(),
        "keys": list(ApiKey.objects.order_by("id").values()),
        "personas": list(Persona.objects.order_by("id").values()),
        "items": list(TrainingDataItem.objects.order_by("id").values()),
        "conversations": Conversation.objects.count(),
        "messages": Message.objects.count(),
        "ledger": LedgerEntry.objects.count(),
    }


def test_forged_posts_without_a_csrf_token_are_refused(site: Site) -> None:
    """Every form found, replayed by another site: its own fields, but no valid token."""
    forms = _dashboard_forms(site)
    before = _state(site)
    forged = _victim_browser(site.alice)
    for form in forms:
        data = {k: v for k, v in form.fields.items() if k != "csrfmiddlewaretoken"}
        data.setdefault("name", "forged")
        response = forged.post(form.action, data)
        assert response.status_code == 403, (form.page, form.action, response.status_code)
        # A token from another session does not help either.
        response = forged.post(form.action, {**data, "csrfmiddlewaretoken": "x" * 64})
        assert response.status_code == 403, (form.page, form.action)
    assert _state(site) == before
    # Still logged in: the forged logout did nothing.
    assert forged.get("/").status_code == 200


def test_forged_playground_chat_and_admin_top_up_are_refused(site: Site) -> None:
    operator = UserFactory.create(username="operator", is_staff=True, is_superuser=True)
    before = _state(site)
    forged = _victim_browser(site.alice)
    response = forged.post(
        "/playground/chat",
        json.dumps({"persona_id": 1, "message": "hi"}),
        content_type="application/json",
    )
    assert response.status_code == 403
    admin = _victim_browser(operator)
    balance = Balance.objects.get(user=site.alice)
    response = admin.post(f"/admin/billing/balance/{balance.pk}/top-up/", {"amount": "100"})
    assert response.status_code == 403
    assert _state(site) == before


# --- Escaping ---


def test_user_data_is_escaped_everywhere_it_appears(user: User, other_user: User) -> None:
    persona = make_persona(
        user,
        name=f"Evil {XSS}",
        model="nova-local",
        public=True,
        prompt=f"Prompt {XSS}",
        items=[("qa_pair", f"Answer {XSS}", {"question": f"Question {XSS}"})],
    )
    persona.description = f"Description {XSS}"
    persona.category = "x<b>y"
    persona.save()
    key = ApiKeyFactory.create(user=user, name=f"key {XSS}")
    conversation = Conversation.objects.create(
        user=user, mode="personal", persona=persona, model_id="nova-local", title=f"Title {XSS}"
    )
    # Through the charge, which also writes the daily sums the usage page reads.
    charge_usage(
        user=user,
        api_key=key,
        model_id="nova-local",
        persona=persona,
        conversation=conversation,
        prompt_tokens=10,
        completion_tokens=5,
        cost=Decimal("0.00000200"),
    )
    for role, content in (
        ("system", f"System {XSS}"),
        ("user", f"User {XSS} <img src=x onerror=alert(1)> [link](javascript:alert(1))"),
        ("assistant", f"Reply {XSS}\n\n<iframe src=//evil.example></iframe>"),
    ):
        Message.objects.create(conversation=conversation, role=role, content=content)
    p, i, c = persona.pk, persona.training_items.get().pk, conversation.pk
    owner_pages = [
        "/",
        "/keys/",
        f"/keys/{key.pk}/revoke/confirm/",
        "/personas/",
        f"/personas/{p}/",
        f"/personas/{p}/edit/",
        f"/personas/{p}/delete/confirm/",
        f"/personas/{p}/training/{i}/edit/",
        f"/personas/{p}/training/{i}/delete/confirm/",
        "/playground/",
        f"/playground/?conversation={c}",
        "/conversations/",
        f"/conversations/{c}/",
        f"/conversations/{c}/delete/confirm/",
        "/usage/",
    ]
    owner = _logged_in(user)
    other = _logged_in(other_user)
    responses = [(page, owner.get(page)) for page in owner_pages]
    responses += [(f"other {page}", other.get(page)) for page in ("/personas/", f"/personas/{p}/")]
    responses.append(("other /playground/", other.get("/playground/")))
    created = owner.post("/keys/new/", {"name": f"new {XSS}", "rpm_limit": "60"})
    responses.append(("key created", created))
    for page, response in responses:
        html = response.content.decode()
        assert response.status_code == 200, page
        assert XSS not in html, page
        parsed = _parse(page, html)
        assert parsed.inline_scripts == 0, page
        assert parsed.handler_attributes == [], page
        assert parsed.javascript_urls == [], page
        assert "<iframe" not in html and "<img" not in html, page
    # The user data is there, escaped (not dropped).
    for page, response in responses:
        if page in ("/personas/", f"/personas/{p}/", "other /personas/", "/keys/", "/usage/"):
            assert XSS_ESCAPED in response.content.decode(), page
    assert "alert" in owner.get(f"/conversations/{c}/").content.decode()
