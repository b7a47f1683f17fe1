"""End-to-end: the playground in a real browser (Enter to send, Shift+Enter, Markdown replies,
Stop, continuing a conversation made through the API, the 402 at zero balance).

The same set-up as tests/e2e/test_browser.py: Debian's Chromium under Playwright against a real
daphne process on the test database, the model being the fake OpenAI-compatible upstream on
loopback. The test touches the database only before and after the browser runs.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    expect,
)

from accounts.models import User
from billing.models import Hold, UsageRecord
from billing.services import top_up
from conversations.models import Conversation
from core.text import count_tokens
from tests.e2e.helpers import chromium, server_password, watch_console
from tests.factories import ApiKeyFactory, raw_key
from tests.fake_upstream import FakeUpstream
from tests.servers import running_nova

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.slow]

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
PASSWORD = "a long playground passphrase 31"
MARKDOWN_REPLY = (
    "Here is **the plan**:\n\n- knead the `dough`\n- bake it\n\n"
    "<script>window.__pwned = 1</script> [x](javascript:window.__pwned=2)"
)
LONG_REPLY = "word " * 300
CREDITS_CONTACT = "Write to credits@bakery.test to add credit."


def _user(username: str, *, funds: Decimal | None) -> User:
    user = User.objects.create(
        username=username,
        email=f"{username}@example.com",
        password=server_password(PASSWORD),
    )
    if funds is not None:
        top_up(user=user, amount=funds, note="test funds")
    return user


def _logged_in(browser: Browser, base: str, username: str, problems: list[str]) -> Page:
    context: BrowserContext = browser.new_context(
        base_url=base, viewport={"width": 1280, "height": 900}
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    watch_console(page, problems)
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(f"{base}/")
    return page


def _shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    png = page.screenshot(path=SCREENSHOTS / f"playground-{name}.png", full_page=True)
    assert len(png) > 5_000, name


def test_enter_sends_markdown_renders_and_stop_cancels_the_stream(
    fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    user = _user("paula", funds=Decimal("5"))
    problems: list[str] = []

    with running_nova() as base, chromium() as browser:
        page = _logged_in(browser, base, "paula", problems)
        page.goto("/playground/")
        page.select_option("#pg-target", "model:fake-gpt")
        expect(page.locator("#pg-model")).to_be_disabled()  # the model is the target itself

        # Shift+Enter starts a new line; Enter sends.
        fake_upstream.script(reply=MARKDOWN_REPLY, stream_chunk_chars=8, usage=(21, 13))
        message = page.locator("#pg-message")
        message.click()
        message.type("First line")
        message.press("Shift+Enter")
        message.type("second line")
        expect(message).to_have_value("First line\nsecond line")
        expect(page.locator("#pg-transcript .turn")).to_have_count(0)
        message.press("Enter")
        expect(page.locator(".turn-user .text")).to_have_text("First line\nsecond line")
        expect(message).to_have_value("")

        # The finished reply is Markdown, from the server's sanitiser; raw HTML stays text.
        reply = page.locator(".turn-assistant").last
        expect(reply.locator(".text.markdown strong")).to_have_text("the plan")
        expect(reply.locator(".text.markdown li")).to_have_text(["knead the dough", "bake it"])
        expect(reply.locator(".text.markdown code")).to_have_text("dough")
        expect(reply.locator(".text")).to_contain_text("<script>window.__pwned = 1</script>")
        assert reply.locator("script, img, a").count() == 0
        assert page.evaluate("window.__pwned") is None
        # Its tokens and cost, and the balance after it.
        expect(reply.locator(".turn-meta")).to_contain_text("21 prompt + 13 completion tokens · $")
        expect(page.locator("#pg-cost")).not_to_have_text("–")
        # The conversation has no persona now, and the page says so.
        expect(page.locator("#pg-lock-note")).to_be_visible()
        expect(page.locator("#pg-lock-note")).to_contain_text("This conversation has no persona")
        _shot(page, "markdown")

        # Stop: the reply ends where it was, and only that is charged.
        fake_upstream.script(reply=LONG_REPLY, stream_chunk_chars=5, chunk_delay=0.1)
        message.fill("Now a long one")
        message.press("Enter")
        stop = page.locator("#pg-stop")
        expect(stop).to_be_visible()
        expect(page.locator("#pg-send")).to_be_disabled()
        long_reply = page.locator(".turn-assistant").last
        expect(long_reply.locator(".text")).to_contain_text("word word word")
        stop.click()
        expect(long_reply.locator(".turn-note")).to_have_text(
            "Stopped: you are charged only for what was generated."
        )
        expect(long_reply.locator(".turn-meta")).to_contain_text("completion tokens · $")
        expect(stop).to_be_hidden()
        expect(page.locator("#pg-send")).to_be_enabled()
        shown = long_reply.locator(".text").inner_text().strip()
        assert 0 < len(shown) < len(LONG_REPLY.strip())
        _shot(page, "stopped")

        # The stopped conversation goes on: the next message continues it.
        fake_upstream.script(reply="Short again.", stream_chunk_chars=4)
        message.fill("And now?")
        message.press("Enter")
        expect(page.locator(".turn-assistant").last.locator(".text")).to_have_text("Short again.")
        page.context.close()

    assert problems == []
    conversation = Conversation.objects.get(user=user)
    assert conversation.mode == "chat"
    replies = list(conversation.messages.filter(role="assistant").order_by("id"))
    assert len(replies) == 3
    stopped = replies[1]
    assert 0 < len(stopped.content) < len(LONG_REPLY)
    assert LONG_REPLY.startswith(stopped.content)
    record = UsageRecord.objects.filter(user=user).order_by("id")[1]
    assert record.completion_tokens == count_tokens(stopped.content)
    assert record.completion_tokens < count_tokens(LONG_REPLY)
    assert not Hold.objects.exists()
    assert fake_upstream.disconnects >= 1
    # The first message went up with its new line.
    assert fake_upstream.bodies[0]["messages"][-1]["content"] == "First line\nsecond line"


def test_an_api_conversation_continues_in_the_playground_and_no_credit_says_what_to_do(
    fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    user = _user("ana", funds=Decimal("5"))
    _user("bruno", funds=None)
    key = ApiKeyFactory.create(user=user, detailed_logging=True)
    fake_upstream.script(reply="The API's **answer**.", stream_chunk_chars=6)
    problems: list[str] = []

    with running_nova({"CREDITS_CONTACT": CREDITS_CONTACT}) as base, chromium() as browser:
        # A conversation made through the API.
        response = httpx.post(
            f"{base}/v1/chat/completions",
            headers={"Authorization": f"Bearer {raw_key(key)}"},
            json={"model": "fake-gpt", "messages": [{"role": "user", "content": "API question"}]},
            timeout=10,
        )
        assert response.status_code == 200, response.text
        conversation_id = response.json()["conversation_id"]

        page = _logged_in(browser, base, "ana", problems)
        page.goto(f"/conversations/{conversation_id}/")
        page.get_by_role("link", name="Continue in playground").click()
        expect(page).to_have_url(re.compile(rf"/playground/\?conversation={conversation_id}$"))
        # The link navigates: wait for the deferred playground.js, or Enter types a new line.
        page.wait_for_load_state("load")
        expect(page.locator(".turn-user .text")).to_have_text("API question")
        expect(page.locator(".turn-assistant .text.markdown strong")).to_have_text("answer")
        expect(page.locator("#pg-target")).to_have_value("model:fake-gpt")
        expect(page.locator("#pg-lock-note")).to_contain_text("This conversation has no persona")
        fake_upstream.script(reply="A web follow-up answer.", stream_chunk_chars=6)
        page.fill("#pg-message", "Web follow-up")
        page.locator("#pg-message").press("Enter")
        expect(page.locator(".turn-assistant").last.locator(".text")).to_have_text(
            "A web follow-up answer."
        )
        _shot(page, "api-continued")
        page.context.close()

        # Zero balance: the API's 402 message, what to do, and the message kept.
        broke = _logged_in(browser, base, "bruno", problems)
        broke.goto("/playground/")
        expect(broke.locator("#pg-credit-note")).to_contain_text(CREDITS_CONTACT)
        broke.fill("#pg-message", "Hello?")
        broke.locator("#pg-message").press("Enter")
        answer = broke.locator(".turn-assistant").last
        expect(answer.locator(".text")).to_contain_text("top up to continue")
        expect(answer.locator(".text")).to_contain_text(CREDITS_CONTACT)
        expect(broke.locator("#pg-error")).to_contain_text(CREDITS_CONTACT)
        expect(broke.locator("#pg-message")).to_have_value("Hello?")
        _shot(broke, "no-credit")
        broke.context.close()

    # Chromium logs the 402 it was answered on purpose.
    refused = [p for p in problems if "/playground/chat" in p and "status of 402" in p]
    assert len(refused) <= 1
    assert [p for p in problems if p not in refused] == []
    conversation = Conversation.objects.get(pk=conversation_id)
    assert conversation.mode == "api"
    assert list(conversation.messages.order_by("id").values_list("role", "content")) == [
        ("user", "API question"),
        ("assistant", "The API's **answer**."),
        ("user", "Web follow-up"),
        ("assistant", "A web follow-up answer."),
    ]
    assert [m["content"] for m in fake_upstream.bodies[-1]["messages"]] == [
        "API question",
        "The API's **answer**.",
        "Web follow-up",
    ]
