"""End-to-end: a person's first session with Nova, in a real browser.

Playwright drives Debian's Chromium (`apt-get install chromium`, which .ci/run does; Playwright
never downloads a browser here) against a real daphne process on the test database. The
persona's model is the fake OpenAI-compatible upstream on loopback, scripted to stream slowly,
so the reply can be seen growing in the playground. Each step leaves a numbered screenshot in
tests/e2e/screenshots/ (git-ignored).
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from billing.selectors import get_balance
from billing.services import top_up
from conversations.models import Conversation
from tests.e2e.helpers import chromium, server_password, watch_console
from tests.fake_upstream import FakeUpstream
from tests.servers import running_nova

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.slow]

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"

USERNAME = "margot"
PASSWORD = "a long and Unusual passphrase 42"
OPERATOR = "operator"
OPERATOR_PASSWORD = "operator passphrase that is long 7"
QUESTION = "When is the bakery open?"
ANSWER = "Monday to Saturday, from 7:00 to 18:00; on Sundays until noon."
REPLY = (
    "Good morning! The bakery is open Monday to Saturday, from 7:00 to 18:00, and on Sundays "
    "until noon. Fresh sourdough comes out of the oven at 8:00, and the croissants usually "
    "sell out by ten, so come early if you want one."
)


class Shots:
    """Numbered full-page screenshots, one per step."""

    def __init__(self) -> None:
        # Overwritten in place, never cleared: another run in the same tree may be writing too.
        SCREENSHOTS.mkdir(exist_ok=True)
        self.count = 0

    def take(self, page: Page, name: str) -> None:
        self.count += 1
        png = page.screenshot(path=SCREENSHOTS / f"{self.count:02d}-{name}.png", full_page=True)
        assert len(png) > 5_000, name  # a rendered page, not a blank one


def _operator() -> None:
    operator = User.objects.create(
        username=OPERATOR,
        email="ops@example.com",
        is_staff=True,
        is_superuser=True,
        password=server_password(OPERATOR_PASSWORD),
    )
    assert operator.pk


# Records every text the newest assistant turn shows, so the test can tell that it grew.
_OBSERVE_REPLY = """() => {
  window.__replyTexts = [];
  const transcript = document.getElementById("pg-transcript");
  new MutationObserver((records) => {
    for (const record of records) {
      const node = record.target.nodeType === 3 ? record.target.parentElement : record.target;
      const turn = node && node.closest && node.closest(".turn-assistant");
      if (turn) window.__replyTexts.push(turn.querySelector(".text").textContent);
    }
  }).observe(transcript, {childList: true, subtree: true, characterData: true});
}"""


def test_new_user_signs_up_chats_with_own_persona_and_finds_it_in_history(
    fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    _operator()
    # ~40 chunks 40 ms apart: about two seconds of visible streaming.
    fake_upstream.script(reply=REPLY, stream_chunk_chars=6, chunk_delay=0.04, usage=(180, 60))
    shots = Shots()
    problems: list[str] = []

    with running_nova() as base, chromium() as browser:
        context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 860})
        context.set_default_timeout(10_000)
        page = context.new_page()
        watch_console(page, problems)

        # 1. Sign up.
        page.goto("/signup/")
        page.fill("#id_username", USERNAME)
        page.fill("#id_email", f"{USERNAME}@example.com")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        shots.take(page, "signup-form")
        page.get_by_role("button", name="Sign up").click()
        expect(page).to_have_url(f"{base}/")
        expect(page.locator(".messages")).to_contain_text(f"Welcome to Nova, {USERNAME}")
        shots.take(page, "home-after-signup")

        # 2. An operator tops the balance up in the Django admin (Balances → Top up).
        operator_context = browser.new_context(
            base_url=base, viewport={"width": 1280, "height": 860}
        )
        admin = operator_context.new_page()
        watch_console(admin, problems)
        admin.goto("/admin/login/")
        admin.fill("#id_username", OPERATOR)
        admin.fill("#id_password", OPERATOR_PASSWORD)
        admin.locator("input[type=submit]").click()
        expect(admin.locator("#site-name")).to_be_visible()
        admin.goto("/admin/billing/balance/")
        admin.get_by_role("link", name=USERNAME, exact=True).click()
        admin.get_by_role("link", name="Top up").click()
        admin.fill("#id_amount", "5.00")
        admin.fill("#id_note", "welcome credit")
        shots.take(admin, "admin-top-up-form")
        admin.locator("input[type=submit][value='Top up']").click()
        expect(admin.locator(".messagelist")).to_contain_text(f"Topped up {USERNAME}")
        shots.take(admin, "admin-balances-after-top-up")
        operator_context.close()

        page.reload()
        expect(page.locator("main")).to_contain_text("5.00")
        shots.take(page, "home-with-balance")

        # 3. Create an API key: the raw key is shown once.
        page.get_by_role("link", name="API keys").click()
        page.fill("#id_name", "laptop")
        page.get_by_role("button", name="Create key").click()
        raw_key = page.locator("#raw-key").inner_text().strip()
        assert re.fullmatch(r"sk-[A-Za-z0-9_-]{43,}", raw_key)
        shots.take(page, "api-key-created")
        # Reloading the page re-sends the form: no second key, and the raw key is gone.
        page.reload()
        expect(page.locator("main")).to_contain_text("This key was already created")
        assert raw_key not in page.content()
        shots.take(page, "api-key-reloaded")
        reply = httpx.get(
            f"{base}/v1/personas", headers={"Authorization": f"Bearer {raw_key}"}, timeout=10
        )
        assert reply.status_code == 200
        page.goto("/keys/")
        expect(page.locator("main")).to_contain_text("laptop")
        assert raw_key not in page.content()
        expect(page.locator("main table tbody tr")).to_have_count(1)

        # The models page: the catalog and a snippet with this server's base URL.
        page.get_by_role("link", name="Models", exact=True).click()
        expect(page).to_have_url(f"{base}/models/")
        expect(page.locator("table")).to_contain_text("fake-gpt")
        expect(page.locator("#snippet-curl")).to_contain_text(f"{base}/v1")
        shots.take(page, "models")

        # 4. Create a persona.
        page.get_by_role("link", name="Personas", exact=True).click()
        page.goto("/personas/new/")
        page.fill("#id_name", "Bakery Helper")
        page.fill("#id_description", "Answers questions about our bakery.")
        page.fill("#id_category", "support")
        page.fill("#id_system_prompt", "You answer questions about the Corner Bakery, briefly.")
        page.select_option("#id_default_model", "fake-gpt")
        shots.take(page, "persona-form")
        page.get_by_role("button", name="Create persona").click()
        expect(page.locator("h1")).to_have_text("Bakery Helper")
        match = re.search(r"/personas/(\d+)/$", page.url)
        assert match, page.url
        persona_id = int(match.group(1))

        # 5. Add training data: a question and answer.
        page.select_option("#id_type", "qa_pair")
        expect(page.locator("#field-question")).to_be_visible()
        page.fill("#id_title", "Opening hours")
        page.fill("#id_question", QUESTION)
        page.fill("#id_content", ANSWER)
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator(".messages")).to_contain_text("Added")
        expect(page.locator(".items")).to_contain_text(ANSWER)
        shots.take(page, "persona-with-training-data")

        # 6. Chat in the playground and watch the reply stream in.
        page.get_by_role("link", name="Playground").click()
        expect(page).to_have_url(re.compile(r"/playground/$"))
        page.wait_for_load_state("load")  # the deferred playground.js, before Send is pressed
        page.select_option("#pg-target", f"persona:{persona_id}")
        page.fill("#pg-message", QUESTION)
        page.evaluate(_OBSERVE_REPLY)
        page.locator("#pg-send").click()
        reply_text = page.locator(".turn-assistant .text").last
        expect(reply_text).not_to_have_text("")
        shots.take(page, "playground-streaming")
        expect(reply_text).to_have_text(REPLY, timeout=15_000)
        expect(page.locator("#pg-cost")).not_to_have_text("–")
        shots.take(page, "playground-reply-done")
        seen: list[str] = page.evaluate("window.__replyTexts")
        growing = [text for text in dict.fromkeys(seen) if text]
        assert len(growing) >= 5, growing
        assert all(REPLY.startswith(text) for text in growing)
        assert [len(text) for text in growing] == sorted(len(text) for text in growing)
        balance_text = page.locator("#pg-balance").inner_text()
        assert balance_text.startswith("$4.99"), balance_text

        # 7. The conversation is in the history.
        page.get_by_role("link", name="History").click()
        expect(page).to_have_url(f"{base}/conversations/")
        expect(page.locator("main")).to_contain_text(QUESTION)
        shots.take(page, "history-list")
        page.get_by_role("link", name=QUESTION).first.click()
        expect(page.locator(".chat-log")).to_contain_text(QUESTION)
        expect(page.locator(".chat-log")).to_contain_text("Fresh sourdough")
        shots.take(page, "history-conversation")
        # Deleting asks first; cancelling keeps the conversation.
        page.get_by_role("link", name="Delete…").click()
        expect(page.locator("h1")).to_contain_text("Delete")
        expect(page.get_by_role("button", name="Delete conversation")).to_be_visible()
        shots.take(page, "conversation-delete-confirm")
        page.get_by_role("link", name="Cancel").click()
        expect(page.locator(".chat-log")).to_contain_text(QUESTION)

        # 8. A failed API request is in the activity log, with its error type and request id,
        # beside the playground's chat.
        failed = httpx.post(
            f"{base}/v1/chat/completions",
            headers={"Authorization": f"Bearer {raw_key}"},
            json={"model": "no-such-model", "messages": [{"role": "user", "content": QUESTION}]},
            timeout=10,
        )
        assert failed.status_code == 400
        assert failed.json()["error"]["type"] == "invalid_request_error"
        page.get_by_role("link", name="Activity", exact=True).click()
        expect(page).to_have_url(f"{base}/activity/")
        rows = page.locator(".activity-table tbody tr")
        expect(rows).to_have_count(2)
        row = rows.filter(has_text=failed.headers["X-Request-Id"])
        expect(row).to_have_count(1)
        for text in ("400", "invalid_request_error", "no-such-model", "laptop"):
            expect(row).to_contain_text(text)
        expect(rows.filter(has_text="Playground")).to_contain_text("200")
        assert QUESTION not in page.locator("main").inner_text()  # no message text
        shots.take(page, "activity-log")
        page.select_option("#activity-status", "error")
        page.get_by_role("button", name="Filter").click()
        expect(page).to_have_url(re.compile(r"/activity/\?key=&model=&status=error$"))
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("invalid_request_error")

        # 9. Log out.
        page.get_by_role("button", name="Log out").click()
        expect(page).to_have_url(re.compile(r"/login/$"))
        shots.take(page, "logged-out")
        page.goto("/keys/")
        expect(page).to_have_url(re.compile(r"/login/\?next=/keys/$"))
        context.close()

    assert problems == []
    # The persona's prompt and its training data reached the model.
    system_prompt = fake_upstream.bodies[-1]["messages"][0]
    assert system_prompt["role"] == "system"
    assert "Corner Bakery" in system_prompt["content"] and ANSWER in system_prompt["content"]
    user = User.objects.get(username=USERNAME)
    conversation = Conversation.objects.get(user=user)
    assert conversation.mode == "personal" and conversation.persona_id == persona_id
    assert 0 < get_balance(user) < 5
    assert shots.count == 17


TOOLS_USER = "tomas"
TOOLS_PASSWORD = "another long passphrase for tools 9"
TOOLS_JSON = """[
  {"type": "function",
   "function": {"name": "get_weather",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}
]"""
HOSTILE_TOOL = '<img src=x onerror="window.__pwned=1">'
HOSTILE_ARGUMENTS = '{"city": "Paris", "note": "</pre><script>window.__pwned=2</script>"}'


def test_playground_attaches_a_tool_and_shows_the_streamed_call(
    fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    user = User.objects.create(
        username=TOOLS_USER,
        email="tomas@example.com",
        password=server_password(TOOLS_PASSWORD),
    )
    top_up(user=user, amount=Decimal("5"), note="test funds")
    fake_upstream.script(
        tool_calls=[
            {"name": "get_weather", "arguments": '{"city":"Paris","days":2}'},
            {"name": HOSTILE_TOOL, "arguments": HOSTILE_ARGUMENTS},
        ],
        stream_chunk_chars=3,
        chunk_delay=0.01,
    )
    shots = Shots()
    problems: list[str] = []

    with running_nova() as base, chromium() as browser:
        context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 860})
        context.set_default_timeout(10_000)
        page = context.new_page()
        watch_console(page, problems)
        page.goto("/login/")
        page.fill("#id_username", TOOLS_USER)
        page.fill("#id_password", TOOLS_PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.goto("/playground/")
        expect(page.locator("#pg-target")).to_contain_text("nova-local (no tools)")

        # A malformed definition: the error names the problem, and nothing is sent upstream.
        page.select_option("#pg-target", "model:fake-gpt")
        page.locator("#pg-tools-box summary").click()
        page.fill("#pg-tools", '[{"type": "function", "function": {"name": "bad name"}}]')
        page.fill("#pg-message", "What is the weather in Paris?")
        page.locator("#pg-send").click()
        expect(page.locator("#pg-error")).to_contain_text("tools[0].function.name")
        expect(page.locator("#pg-tools")).to_have_attribute("aria-invalid", "true")
        # Nothing was said: the message is given back to send again once the tools are fixed.
        expect(page.locator("#pg-transcript .turn")).to_have_count(0)
        expect(page.locator("#pg-message")).to_have_value("What is the weather in Paris?")
        shots.take(page, "tools-malformed")

        # The embedded model refuses tools with the API's message.
        page.select_option("#pg-target", "model:nova-local")
        page.fill("#pg-tools", TOOLS_JSON)
        page.fill("#pg-message", "What is the weather in Paris?")
        page.locator("#pg-send").click()
        expect(page.locator("#pg-error")).to_have_text(
            "The model 'nova-local' does not take tools."
        )

        # A tool the model calls: each call's name and its arguments, pretty-printed.
        page.select_option("#pg-target", "model:fake-gpt")
        page.fill("#pg-message", "What is the weather in Paris?")
        page.locator("#pg-send").click()
        turn = page.locator(".turn-assistant").last
        expect(turn.locator(".turn-note")).to_have_text("The model asked to call a tool.")
        expect(turn.locator(".tool-name")).to_have_text(["get_weather", HOSTILE_TOOL])
        expect(turn.locator(".tool-call-id")).to_have_text(["call_fake0x0", "call_fake0x1"])
        expect(turn.locator(".tool-arguments").first).to_have_text(
            '{\n  "city": "Paris",\n  "days": 2\n}'
        )
        expect(turn.locator(".tool-arguments").last).to_contain_text(
            '"note": "</pre><script>window.__pwned=2</script>"'
        )
        expect(turn.locator(".text")).to_have_count(0)
        expect(page.locator("#pg-error")).to_have_text("")
        expect(page.locator("#pg-cost")).not_to_have_text("–")
        assert turn.locator("img, script").count() == 0
        assert page.evaluate("window.__pwned") is None
        shots.take(page, "tools-call-shown")

        # Shown the same way when the conversation is continued from the history.
        page.goto("/conversations/")
        page.get_by_role("link", name="What is the weather in Paris?").first.click()
        page.get_by_role("link", name="Continue in playground").click()
        saved_turn = page.locator(".turn-assistant").last
        expect(saved_turn.locator(".tool-name")).to_have_text(["get_weather", HOSTILE_TOOL])
        expect(saved_turn.locator(".tool-arguments").first).to_have_text(
            '{\n  "city": "Paris",\n  "days": 2\n}'
        )
        assert saved_turn.locator("img, script").count() == 0
        assert page.evaluate("window.__pwned") is None
        shots.take(page, "tools-call-continued")
        context.close()

    # The two refusals above are answered 400 on purpose; Chromium logs each such response.
    refused = [p for p in problems if "/playground/chat" in p and "status of 400" in p]
    assert len(refused) <= 2
    assert [p for p in problems if p not in refused] == []
    bodies = fake_upstream.bodies
    assert len(bodies) == 1
    assert bodies[0]["tools"] == json.loads(TOOLS_JSON)
    saved = Conversation.objects.get(user=user)
    reply = saved.messages.get(role="assistant")
    assert reply.tool_calls is not None
    assert [call["function"]["name"] for call in reply.tool_calls] == ["get_weather", HOSTILE_TOOL]
