"""``manage.py set_key_limit KEY_OR_PREFIX AMOUNT|none [--limit-reset PERIOD]``: an operator
sets a key's spend limit (docs/billing.md, "Spend limits")."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.limits import set_key_limit
from accounts.models import LimitReset
from accounts.services import find_key_by_raw_or_prefix
from core.errors import ApiError


class Command(BaseCommand):
    help = (
        "Set an API key's spend limit in USD (or 'none' to remove it) and, with --limit-reset, "
        "when it resets. Prints the key's prefix, its limit and its reset period."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("key_or_prefix")
        parser.add_argument("amount", help="USD, at most 8 decimal places; 'none' for no limit.")
        parser.add_argument(
            "--limit-reset",
            choices=LimitReset.values,
            help="When the limit's window starts again (00:00 UTC, weeks on Monday); "
            "unchanged when left out.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            key = find_key_by_raw_or_prefix(options["key_or_prefix"])
        except ApiError as exc:
            raise CommandError(exc.message) from exc
        amount: str = options["amount"]
        try:
            key = set_key_limit(
                key=key,
                limit=None if amount.strip().lower() == "none" else amount,
                limit_reset=options["limit_reset"],
            )
        except ApiError as exc:
            raise CommandError(f"AMOUNT: {exc.message}") from exc
        limit = "none" if key.limit is None else f"{key.limit:f}"
        self.stdout.write(f"{key.prefix} {limit} {key.limit_reset}")
