from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.services import find_key_by_raw_or_prefix, revoke_api_key
from core.errors import ApiError


class Command(BaseCommand):
    help = "Revoke an API key given the raw key or its display prefix."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("key_or_prefix")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            key = find_key_by_raw_or_prefix(options["key_or_prefix"])
        except ApiError as exc:
            raise CommandError(exc.message) from exc
        if key.revoked_at is not None:
            # Non-zero exit: a script revoking a leaked key must learn it was not this run.
            raise CommandError(
                f"Key {key.prefix} was already revoked "
                f"({key.revoked_at:%Y-%m-%d %H:%M:%S} UTC); nothing changed."
            )
        revoke_api_key(key=key)
        self.stdout.write(key.prefix)
