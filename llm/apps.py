from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class LlmConfig(AppConfig):
    name = "llm"
    label = "llm"

    def ready(self) -> None:
        from django.core import checks
        from django.core.signals import setting_changed

        from llm.catalog import check_catalog, reset_catalog_cache

        checks.register(check_catalog)

        # override_settings(MODELS_FILE=...) in tests must never see a stale catalog.
        def _reset_on_models_file_change(*, setting: str, **kwargs: Any) -> None:
            if setting == "MODELS_FILE":
                reset_catalog_cache()

        setting_changed.connect(_reset_on_models_file_change, weak=False)
