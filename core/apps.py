from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core import checks
from django.utils.module_loading import import_string

HOOKS = ("process_request", "process_response", "process_exception")


def check_edge_middleware(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[Any]:
    """The edge middleware run on every request, chat included (``core.middleware.EdgeChain``):
    they must lead ``MIDDLEWARE`` and offer Django's hooks."""
    edge = list(getattr(settings, "EDGE_MIDDLEWARE", []))
    errors: list[Any] = []
    if list(settings.MIDDLEWARE[: len(edge)]) != edge:
        errors.append(
            checks.Error(
                "MIDDLEWARE must begin with EDGE_MIDDLEWARE, in that order.",
                hint="Add a middleware to EDGE_MIDDLEWARE (every request, chat included) or "
                "SITE_MIDDLEWARE (browser pages), never to MIDDLEWARE directly.",
                id="core.E001",
            )
        )
    for path in edge:
        if not any(hasattr(import_string(path), hook) for hook in HOOKS):
            errors.append(
                checks.Error(
                    f"{path} in EDGE_MIDDLEWARE has none of Django's middleware hooks.",
                    hint="Edge middleware run as hooks on the event loop (no I/O).",
                    id="core.E002",
                )
            )
    return errors


class CoreConfig(AppConfig):
    name = "core"

    def ready(self) -> None:
        checks.register(check_edge_middleware)
