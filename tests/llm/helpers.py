"""What the model tests share: a model spec pointing at an upstream, running the provider's
coroutines the way a server would, and a tool conversation for the routing tests."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from decimal import Decimal
from typing import Any, TypeVar, overload

import pytest

from llm.catalog import ModelSpec
from llm.errors import UpstreamFailure
from llm.providers import get_provider
from llm.providers.openai import aclose_clients
from llm.types import Completion, Delta, Finish, GenerationRequest

T = TypeVar("T")

# What the `model` fixture (tests/llm/conftest.py) puts in FAKE_UPSTREAM_KEY.
UPSTREAM_KEY = "sk-upstream-key-for-tests-0123456789"


def spec(base_url: str, **changes: Any) -> ModelSpec:
    fields: dict[str, Any] = {
        "id": "fake-gpt",
        "provider": "openai",
        "base_url": base_url,
        "api_key_env": "FAKE_UPSTREAM_KEY",
        "upstream_model": "fake",
        "context_window": 8192,
        "input_price_per_mtok": Decimal("1.00"),
        "output_price_per_mtok": Decimal("2.00"),
        "vision": True,
        "reasoning": True,
        "connect_timeout": 2.0,
        "read_timeout": 5.0,
        **changes,
    }
    return ModelSpec(**fields)


def run(make: Callable[[], Awaitable[T]]) -> T:
    """asyncio.run with this loop's pooled clients closed at the end, as a server would."""

    async def main() -> T:
        try:
            return await make()
        finally:
            await aclose_clients()

    return asyncio.run(main())


def complete(req: GenerationRequest) -> Completion:
    return run(lambda: get_provider(req.model).complete(req))


def stream(req: GenerationRequest) -> list[Delta | Finish]:
    async def collect() -> list[Delta | Finish]:
        return [event async for event in get_provider(req.model).stream(req)]

    return run(collect)


E = TypeVar("E", bound=Exception)


@overload
def stream_failure(req: GenerationRequest) -> tuple[list[Delta | Finish], UpstreamFailure]: ...
@overload
def stream_failure(req: GenerationRequest, expected: type[E]) -> tuple[list[Delta | Finish], E]: ...
def stream_failure(
    req: GenerationRequest, expected: type[Exception] = UpstreamFailure
) -> tuple[list[Delta | Finish], Exception]:
    """The events streamed before the provider raised, and what it raised (``expected``)."""
    events: list[Delta | Finish] = []

    async def collect() -> None:
        async for event in get_provider(req.model).stream(req):
            events.append(event)

    with pytest.raises(expected) as raised:
        run(collect)
    return events, raised.value


# A conversation that needs a model with tools: a call, and the tool's answer to it. The
# routing tests (tests/llm/test_router.py, tests/chat/test_routing_chat.py) send it to see
# fallbacks skip the models without tools.
TOOL_CONVERSATION: list[dict[str, Any]] = [
    {"role": "user", "content": "What is the weather in Paris?"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "weather", "arguments": '{"city": "Paris"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "18 C, cloudy"},
]
