"""``manage.py create_api_key``: a key for a user, with ``--balance`` a top-up. It lives in
billing, not accounts, because it tops the balance up and accounts imports no billing."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from accounts.limits import validate_limit
from accounts.models import Guard, LimitReset, User
from accounts.services import create_api_key, create_user, validate_rpm_limit
from billing.money import parse_amount
from billing.services import top_up
from core.errors import ApiError


class Command(BaseCommand):
    help = "Create an API key for a user and print the raw key (shown only once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--create-user", action="store_true", help="Create the user if missing."
        )
        parser.add_argument("--balance", help="Top the balance up by this amount (USD).")
        parser.add_argument("--detailed-logging", action="store_true")
        parser.add_argument(
            "--rpm",
            type=int,
            default=60,
            help="Requests per minute (default 60, at most MAX_KEY_RPM).",
        )
        parser.add_argument("--name", default="", help="A label for the key.")
        parser.add_argument("--limit", help="A spend limit in USD (default: none).")
        parser.add_argument(
            "--limit-reset",
            choices=LimitReset.values,
            help="When the limit's window starts again (00:00 UTC, weeks on Monday; "
            "default never).",
        )
        parser.add_argument(
            "--guard",
            choices=Guard.values,
            default=Guard.OFF.value,
            help="The chat guard: moderate the user's message (input), the reply (output) or "
            "both (default off; docs/moderation.md, Chat guard).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        username: str = options["username"]
        try:
            validate_rpm_limit(options["rpm"])
        except ApiError as exc:
            raise CommandError(
                f"--rpm must be between 1 and {settings.MAX_KEY_RPM} (MAX_KEY_RPM)."
            ) from exc
        try:
            amount = (
                parse_amount(options["balance"], param="--balance")
                if options["balance"] is not None
                else None
            )
        except ApiError as exc:
            raise CommandError(f"--balance: {exc.message}") from exc
        if amount is not None and amount < 0:
            raise CommandError("--balance must not be negative.")
        try:
            limit = validate_limit(options["limit"])
        except ApiError as exc:
            raise CommandError(f"--limit: {exc.message}") from exc
        if options["limit_reset"] is not None and limit is None:
            raise CommandError("--limit-reset needs --limit.")
        with transaction.atomic():
            user = User.objects.filter(username=username).first()
            if user is None:
                if not options["create_user"]:
                    raise CommandError(
                        f"User '{username}' does not exist (pass --create-user to create it)."
                    )
                user = create_user(username=username)
            try:
                issued = create_api_key(
                    user=user,
                    name=options["name"],
                    detailed_logging=options["detailed_logging"],
                    rpm_limit=options["rpm"],
                    limit=limit,
                    limit_reset=options["limit_reset"],
                    guard=options["guard"],
                )
            except ApiError as exc:  # MAX_KEYS_PER_USER reached; nothing is created
                raise CommandError(exc.message) from exc
            if amount:
                try:
                    top_up(user=user, amount=amount, note="create_api_key --balance")
                except ApiError as exc:  # the balance would overflow; nothing is created
                    raise CommandError(f"--balance: {exc.message}") from exc
        self.stdout.write(issued.raw_key)
