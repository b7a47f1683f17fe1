"""What the browser tests share: Debian's Chromium under Playwright, and console watching.

Playwright never downloads a browser here: Debian's Chromium is installed with
`apt-get install chromium`, which .ci/run does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from playwright.sync_api import Browser, ConsoleMessage, Page, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
# Headless, and nothing that reaches beyond loopback (the machine has no other network).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium under Playwright. While it runs, this thread has an event loop, so
    a test touches the database only before and after (Django refuses sync ORM calls then)."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's Chromium with "
            "`apt-get update && apt-get install -y chromium` (.ci/run does this). "
            "Playwright must not download a browser here."
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield browser
        finally:
            browser.close()


def watch_console(page: Page, problems: list[str]) -> None:
    """Console errors (a CSP violation, a failed script) and page errors fail the test."""

    def on_console(message: ConsoleMessage) -> None:
        # The browser asks for /favicon.ico by itself; the dashboard has none (reported).
        if message.type == "error" and not message.location.get("url", "").endswith("/favicon.ico"):
            problems.append(f"{page.url}: {message.text} ({message.location.get('url')})")

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))


def server_password(raw: str) -> str:
    """`raw` hashed for the server process, which checks passwords with Django's default
    hashers, not the tests' MD5."""
    hasher = PBKDF2PasswordHasher()
    return hasher.encode(raw, hasher.salt())
