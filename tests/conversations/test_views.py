"""Dashboard history pages: list with mode filter and pages, conversation page, delete."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from conversations.models import Conversation, Message
from tests.conversations.helpers import make_conversation, save_tool_exchange

pytestmark = pytest.mark.django_db


class _TagCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


def _tags(page: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """The real elements of a page (escaped text is not an element)."""
    collector = _TagCollector()
    collector.feed(page)
    return collector.tags


@pytest.fixture
def alice(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def test_history_needs_login(client: Client, user: User) -> None:
    conversation = make_conversation(user)
    for url in (
        reverse("conversations:list"),
        reverse("conversations:detail", args=[conversation.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert "/login/" in response["Location"]


def test_history_lists_own_conversations_only(alice: Client, user: User, other_user: User) -> None:
    make_conversation(user, title="My chat about Rust", messages=[("user", "Latest words")])
    make_conversation(other_user, title="Their secret chat")
    page = alice.get(reverse("conversations:list")).content.decode()
    assert "My chat about Rust" in page
    assert "Latest words" in page
    assert "Their secret chat" not in page


def test_history_filter_by_mode(alice: Client, user: User) -> None:
    make_conversation(user, mode="api", title="An API chat")
    make_conversation(user, mode="api_agents", title="A persona chat")
    page = alice.get(reverse("conversations:list"), {"mode": "api_agents"}).content.decode()
    assert "A persona chat" in page
    assert "An API chat" not in page
    assert 'href="?mode=api_agents" class="mode-tab" aria-current="page"' in page
    everything = alice.get(reverse("conversations:list"), {"mode": "all"}).content.decode()
    assert "A persona chat" in everything and "An API chat" in everything


def test_history_unknown_mode_or_page_falls_back(alice: Client, user: User) -> None:
    make_conversation(user, title="Still here")
    response = alice.get(reverse("conversations:list"), {"mode": "nope", "page": "x"})
    assert response.status_code == 200
    assert "Still here" in response.content.decode()


def test_history_pages_by_twenty(alice: Client, user: User) -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for i in range(21):
        make_conversation(user, title=f"Chat number {i:02d}", updated_at=start + timedelta(hours=i))
    first = alice.get(reverse("conversations:list")).content.decode()
    assert "Chat number 20" in first and "Chat number 01" in first
    assert "Chat number 00" not in first
    assert "page=2" in first
    second = alice.get(reverse("conversations:list"), {"page": "2"}).content.decode()
    assert "Chat number 00" in second and "Chat number 01" not in second


def test_conversation_page_renders_markdown_and_links(alice: Client, user: User) -> None:
    conversation = make_conversation(
        user,
        title="Markdown",
        messages=[("user", "Show **bold**"), ("assistant", "Here: `code` and\n\n- a\n- b")],
    )
    response = alice.get(reverse("conversations:detail", args=[conversation.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "<strong>bold</strong>" in page
    assert "<code>code</code>" in page
    assert "<li>a</li>" in page
    assert f'href="/playground/?conversation={conversation.pk}"' in page
    # Deleting asks first: the page links to the confirmation page, which holds the form.
    assert f'href="{reverse("conversations:delete_confirm", args=[conversation.pk])}"' in page
    assert "csrfmiddlewaretoken" in page


@pytest.mark.parametrize(
    "attack",
    [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "[click](javascript:alert(1))",
        '<a href="javascript:alert(1)">x</a>',
        "<style>body{display:none}</style>",
        "<iframe src=//evil.example></iframe>",
        '<div style="position:fixed">x</div>',
    ],
)
def test_html_in_messages_is_escaped_or_stripped(alice: Client, user: User, attack: str) -> None:
    conversation = make_conversation(
        user, messages=[("user", attack), ("assistant", f"You said {attack}")]
    )
    page = alice.get(reverse("conversations:detail", args=[conversation.pk])).content.decode()
    tags = _tags(page)
    assert not {name for name, _ in tags} & {"script", "img", "iframe", "style"}
    for _, attrs in tags:
        for name, value in attrs:
            assert not name.startswith("on"), (name, value)
            assert name != "style", value
            assert not (value or "").strip().lower().startswith("javascript:"), value


def test_script_message_is_shown_escaped(alice: Client, user: User) -> None:
    conversation = make_conversation(user, messages=[("user", "<script>alert(1)</script>")])
    page = alice.get(reverse("conversations:detail", args=[conversation.pk])).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>" not in page


def test_another_users_conversation_page_is_404(alice: Client, other_user: User) -> None:
    theirs = make_conversation(other_user, messages=[("user", "secret")])
    assert alice.get(reverse("conversations:detail", args=[theirs.pk])).status_code == 404
    assert alice.post(reverse("conversations:delete", args=[theirs.pk])).status_code == 404
    assert Conversation.objects.filter(pk=theirs.pk).exists()


def test_missing_conversation_page_is_404(alice: Client) -> None:
    assert alice.get("/conversations/999999/").status_code == 404


def test_delete_removes_the_conversation(alice: Client, user: User) -> None:
    conversation = make_conversation(user, title="Going away")
    response = alice.post(reverse("conversations:delete", args=[conversation.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("conversations:list")
    assert not Conversation.objects.filter(pk=conversation.pk).exists()
    page = alice.get(reverse("conversations:list")).content.decode()
    assert "Conversation deleted." in page


def test_delete_needs_post(alice: Client, user: User) -> None:
    conversation = make_conversation(user)
    assert alice.get(reverse("conversations:delete", args=[conversation.pk])).status_code == 405
    assert Conversation.objects.filter(pk=conversation.pk).exists()


def test_delete_needs_the_csrf_token(user: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    conversation = make_conversation(user)
    url = reverse("conversations:delete", args=[conversation.pk])
    assert client.post(url).status_code == 403
    assert Conversation.objects.filter(pk=conversation.pk).exists()

    detail = client.get(reverse("conversations:detail", args=[conversation.pk]))
    token = detail.context["csrf_token"]
    assert client.post(url, {"csrfmiddlewaretoken": str(token)}).status_code == 302
    assert not Conversation.objects.filter(pk=conversation.pk).exists()


def test_pages_use_no_inline_styles_or_scripts(alice: Client, user: User) -> None:
    conversation = make_conversation(
        user, messages=[("assistant", "| a | b |\n|:-:|--|\n| 1 | 2 |")]
    )
    for url in (
        reverse("conversations:list"),
        reverse("conversations:detail", args=[conversation.pk]),
    ):
        page = alice.get(url).content.decode()
        assert "style=" not in page
        assert "<script" not in page
        assert "css/history.css" in page


# --- Tool calls ---


def _with_tool_turn(
    user: User, *, name: str, arguments: str, call_id: str, result: str
) -> Conversation:
    conversation = make_conversation(user, messages=[("user", "Weather?")])
    Message.objects.create(
        conversation=conversation,
        role="assistant",
        model="fake-gpt",
        tool_calls=[
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
        ],
    )
    Message.objects.create(
        conversation=conversation, role="tool", tool_call_id=call_id, content=result
    )
    return conversation


def test_conversation_page_shows_tool_calls_and_results_in_order(alice: Client, user: User) -> None:
    conversation = save_tool_exchange(user)
    page = alice.get(reverse("conversations:detail", args=[conversation.pk])).content.decode()
    # Arguments and JSON results pretty-printed; each result names the call it answers.
    paris = page.index('Called <code class="tool-name">get_weather</code>')
    paris_args = page.index("{\n  &quot;city&quot;: &quot;Paris&quot;\n}")
    first_result = page.index('result of <code class="tool-call-id">call_1</code>')
    first_json = page.index("{\n  &quot;temp&quot;: 18\n}")
    rome_args = page.index("{\n  &quot;city&quot;: &quot;Rome&quot;\n}")
    second_result = page.index('result of <code class="tool-call-id">call_2</code>')
    final = page.index("Paris 18 °C, Rome 24 °C and sunny.")
    assert paris < paris_args < first_result < first_json < rome_args < second_result < final
    assert 'class="chat-message role-tool"' in page
    assert page.count('<pre class="tool-arguments">') == 2
    # A result that is not JSON is shown as it is.
    assert '<pre class="tool-output"><code>sunny,\n24</code></pre>' in page


def test_arguments_that_are_not_json_are_shown_raw(alice: Client, user: User) -> None:
    conversation = _with_tool_turn(
        user, name="search", arguments="{not json", call_id="call_x", result="[1, 2"
    )
    page = alice.get(reverse("conversations:detail", args=[conversation.pk])).content.decode()
    assert '<pre class="tool-arguments"><code>{not json</code></pre>' in page
    assert '<pre class="tool-output"><code>[1, 2</code></pre>' in page


def test_html_in_tool_calls_and_results_is_escaped(alice: Client, user: User) -> None:
    script = "<script>alert(1)</script>"
    conversation = _with_tool_turn(
        user,
        name=script,
        arguments=f'{{"q": "{script}"}}',
        call_id=script,
        result=f"{script}<img src=x onerror=alert(1)>",
    )
    page = alice.get(reverse("conversations:detail", args=[conversation.pk])).content.decode()
    assert "<script" not in page
    tags = _tags(page)
    assert not {name for name, _ in tags} & {"script", "img"}
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert f'Called <code class="tool-name">{escaped}</code>' in page
    assert f"&quot;q&quot;: &quot;{escaped}&quot;" in page
    assert f'result of <code class="tool-call-id">{escaped}</code>' in page
    assert f"{escaped}&lt;img src=x onerror=alert(1)&gt;" in page


def test_history_list_names_the_tools_a_latest_message_called(alice: Client, user: User) -> None:
    conversation = make_conversation(user, title="Tools", messages=[("user", "Weather?")])
    Message.objects.create(
        conversation=conversation,
        role="assistant",
        tool_calls=[
            {"id": "a", "type": "function", "function": {"name": "<b>x</b>", "arguments": "{}"}}
        ],
    )
    page = alice.get(reverse("conversations:list")).content.decode()
    assert "called <code>&lt;b&gt;x&lt;/b&gt;</code>" in page


def test_another_users_tool_exchange_page_is_404(alice: Client, other_user: User) -> None:
    theirs = save_tool_exchange(other_user)
    response = alice.get(reverse("conversations:detail", args=[theirs.pk]))
    assert response.status_code == 404
    assert "get_weather" not in response.content.decode()
