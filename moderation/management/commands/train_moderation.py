"""`python manage.py train_moderation`: rebuild the shipped moderation classifier artifact."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from moderation.training.train import DEFAULT_DEV_PATH, HANDWRITTEN_PATH, build_artifact


class Command(BaseCommand):
    help = "Train the moderation classifier deterministically and rewrite its artifact."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--data",
            type=Path,
            default=DEFAULT_DEV_PATH,
            help="labelled dev file (default: ../shared/data/moderation-dev.jsonl.gz)",
        )
        parser.add_argument(
            "--handwritten",
            type=Path,
            default=HANDWRITTEN_PATH,
            help="hand-written rows (default: moderation/training/handwritten_train.jsonl)",
        )
        parser.add_argument(
            "--output", type=Path, default=None, help="artifact path (default: the shipped one)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        data: Path = options["data"]
        if not data.exists():
            raise CommandError(f"training data not found: {data}")
        path, model = build_artifact(data, options["handwritten"], options["output"])
        sources = ", ".join(f"{k}={v}" for k, v in model.meta["sources"].items())
        self.stdout.write(f"Wrote {path} ({path.stat().st_size} bytes; {sources})")
