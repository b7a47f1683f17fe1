"""Which provider serves a catalog entry: one instance per provider kind and base URL."""

from __future__ import annotations

import threading

from llm.catalog import ModelSpec
from llm.providers.local import LocalProvider
from llm.providers.openai import OpenAIProvider
from llm.types import Provider

__all__ = ["get_provider"]

_providers: dict[tuple[str, str | None], Provider] = {}
_providers_lock = threading.Lock()


def get_provider(model: ModelSpec) -> Provider:
    """The provider for a catalog entry: one instance per provider kind and base_url per process."""
    key = (model.provider, model.base_url)
    provider = _providers.get(key)
    if provider is not None:
        return provider
    with _providers_lock:
        provider = _providers.get(key)
        if provider is None:
            if model.provider == "local":
                provider = LocalProvider()
            elif model.provider == "openai":
                assert model.base_url is not None  # the catalog requires it for "openai"
                provider = OpenAIProvider(model.base_url)
            else:
                raise ValueError(f"Unknown provider kind: {model.provider!r}")
            _providers[key] = provider
    return provider
