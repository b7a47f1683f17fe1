"""Fixtures for the provider tests in this folder; helpers are in tests/llm/helpers.py."""

from __future__ import annotations

import pytest

from llm.catalog import ModelSpec
from tests.fake_upstream import FakeUpstream
from tests.llm.helpers import UPSTREAM_KEY, spec


@pytest.fixture
def upstream(fake_upstream: FakeUpstream) -> FakeUpstream:
    # tests/conftest.py's session-wide fake provider, reset around each test.
    return fake_upstream


@pytest.fixture
def model(upstream: FakeUpstream, monkeypatch: pytest.MonkeyPatch) -> ModelSpec:
    monkeypatch.setenv("FAKE_UPSTREAM_KEY", UPSTREAM_KEY)
    return spec(upstream.url)
