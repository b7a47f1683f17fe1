from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts.models import ApiKey, User
from billing.services import top_up
from core.ratelimit import limiter
from llm.catalog import reset_catalog_cache
from personas.models import Persona, TrainingDataItem
from tests.factories import ApiKeyFactory, UserFactory, raw_key
from tests.fake_upstream import FakeUpstream, running_fake_upstream
from tests.servers import inside_fresh_wall_clock_window


@pytest.fixture(autouse=True)
def _test_settings(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Tests render templates without running collectstatic first.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _clean_cache() -> Iterator[None]:
    # Rate-limit counters and cached personas must not leak between tests.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def user(db: None) -> User:
    return UserFactory.create(username="alice")


@pytest.fixture
def other_user(db: None) -> User:
    return UserFactory.create(username="charlie")


@pytest.fixture
def api_key(user: User) -> ApiKey:
    return ApiKeyFactory.create(user=user)


@pytest.fixture
def own_ids(user: User) -> dict[str, int]:
    """Ids of a persona of ``user``'s and one of its training items, for path templates."""
    persona = Persona.objects.create(
        owner=user, name="Mine", description="d", system_prompt="p", default_model="nova-local"
    )
    item = TrainingDataItem.objects.create(persona=persona, type="text", content="c")
    return {"persona": persona.pk, "item": item.pk}


@pytest.fixture
def funded_user(user: User) -> User:
    top_up(user=user, amount=Decimal("10"), note="test funds")
    return user


def client_for(key: ApiKey) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_key(key)}")
    return client


@pytest.fixture
def api_client(api_key: ApiKey) -> APIClient:
    return client_for(api_key)


@pytest.fixture
def other_api_client(other_user: User) -> APIClient:
    return client_for(ApiKeyFactory.create(user=other_user))


@pytest.fixture
def anon_client() -> APIClient:
    return APIClient()


UPSTREAM_CATALOG = """
[[models]]
id = "nova-local"
provider = "local"
context_window = 8192
input_price_per_mtok = "0.10"
output_price_per_mtok = "0.20"

[[models]]
id = "fake-gpt"
provider = "openai"
base_url = "{url}"
api_key_env = "FAKE_UPSTREAM_KEY"
upstream_model = "fake"
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
vision = true
reasoning = true
read_timeout = 2

[[models]]
id = "fake-text"
provider = "openai"
base_url = "{url}"
context_window = 4096
input_price_per_mtok = "3.00"
output_price_per_mtok = "15.00"
read_timeout = 2
"""


@pytest.fixture(scope="session")
def _upstream_server() -> Iterator[FakeUpstream]:
    with running_fake_upstream() as upstream:
        yield upstream


@pytest.fixture
def fake_upstream(_upstream_server: FakeUpstream) -> Iterator[FakeUpstream]:
    """The fake OpenAI-compatible provider on loopback, freshly scripted for each test."""
    _upstream_server.reset()
    yield _upstream_server
    _upstream_server.reset()


@pytest.fixture
def upstream_catalog(
    fake_upstream: FakeUpstream, settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """A catalog with nova-local plus fake-gpt / fake-text served by the fake upstream."""
    path = tmp_path / "models.toml"
    path.write_text(UPSTREAM_CATALOG.format(url=fake_upstream.url))
    monkeypatch.setenv("FAKE_UPSTREAM_KEY", "sk-upstream-test-key")
    settings.MODELS_FILE = path
    reset_catalog_cache()
    yield path
    reset_catalog_cache()


class FakeClock:
    """A clock that moves only when a test moves it (``now`` in seconds)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


# The start of a rate-limit window (a multiple of WINDOW_SECONDS), in seconds since the epoch.
RATE_WINDOW_START = 1_800_000_000.0


@pytest.fixture
def fresh_rate_window() -> Iterator[FakeClock]:
    """The rate limiter's clock (``core.ratelimit.limiter``), stopped at the start of a window:
    a test that counts up to a limit meets no window boundary unless it moves the clock. Only
    this process's limiter reads it; a server in another process counts by its own clock."""
    clock = FakeClock(RATE_WINDOW_START)
    with limiter.use_clock(clock):
        yield clock


@pytest.fixture
def fresh_wall_clock_window() -> None:
    """For a server in another process (``tests.servers.running_nova``), which counts by the
    real clock: start well inside a real minute, so no window boundary falls in the middle of a
    test that counts up to a limit (waits up to 10 s)."""
    inside_fresh_wall_clock_window()
