"""``manage.py models_status``: each catalog model's deployments and how they are doing."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from llm.catalog import CatalogError, get_catalog
from llm.health import health


class Command(BaseCommand):
    help = (
        "Show each model's deployments: requests in flight, failures in the last minute and "
        "cooldowns (shared by every process when Nova uses Redis), and its fallbacks."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("model", nargs="*", help="model ids (default: every model)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            catalog = get_catalog()
        except CatalogError as exc:
            raise CommandError(str(exc)) from exc
        for model_id in options["model"]:
            if model_id not in catalog:
                raise CommandError(f'Unknown model "{model_id}".')
        models = [catalog[i] for i in options["model"]] if options["model"] else list(catalog)
        for model in models:
            self.stdout.write(
                f"{model.id} ({model.provider}) retries={model.retries} "
                f"allowed_fails={model.allowed_fails} cooldown={model.cooldown_seconds:g}s "
                f"fallbacks={', '.join(model.fallbacks) or '-'}"
            )
            if not model.routed:
                # Such a model goes straight to its server: nothing is shared to show.
                [(deployment, _spec)] = model.routes
                self.stdout.write(
                    f"  {deployment.name} (one deployment, no fallbacks: health not tracked)"
                )
                continue
            for status in health.status(model):
                if status.cooling_until is not None:
                    until = datetime.fromtimestamp(status.cooling_until, tz=UTC)
                    cooling = f"cooling down until {until:%Y-%m-%d %H:%M:%S} UTC"
                else:
                    cooling = "healthy"
                self.stdout.write(
                    f"  {status.name} weight={status.weight:g} in_flight={status.in_flight} "
                    f"failures_last_minute={status.recent_failures} "
                    f"requests_this_minute={status.requests_this_minute} "
                    f"tokens_this_minute={status.tokens_this_minute} {cooling}"
                )
