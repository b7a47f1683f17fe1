from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from billing.models import Hold
from billing.services import release_hold
from chat.pipeline import pending_records, replay_record


class Command(BaseCommand):
    help = (
        "Charge the chats this host could not charge (pending-charge records), then release "
        "the holds of requests that died before they were charged. Run at start-up."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--older-than",
            type=int,
            default=3600,
            metavar="SECONDS",
            help="Release open holds placed longer ago than this (default 3600: longer than "
            "any request runs).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        charged = already = failed = 0
        kept: set[int] = set()
        for path in pending_records():
            try:
                if replay_record(path):
                    charged += 1
                else:
                    already += 1
            except Exception as exc:
                failed += 1
                kept.add(int(path.name.split("-")[1]))
                self.stderr.write(f"{path.name}: not recorded ({exc}); kept for the next run.")
        cutoff = timezone.now() - timedelta(seconds=max(0, options["older_than"]))
        released = sum(
            release_hold(hold)
            for hold in Hold.objects.filter(created_at__lt=cutoff)
            .exclude(pk__in=kept)
            .select_related("user")
        )
        self.stdout.write(
            f"Pending charges recorded: {charged} (already recorded: {already}, failed: "
            f"{failed}); stale holds released: {released}."
        )
