from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from billing.money import parse_amount
from billing.selectors import get_balance
from billing.services import top_up
from core.errors import ApiError


class Command(BaseCommand):
    help = "Top up a user's balance (AMOUNT 0 only prints the balance)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("amount")
        parser.add_argument("--note", default="", help="A note kept in the ledger.")

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"User '{options['username']}' does not exist.")
        try:
            # Exact: an amount with more than 8 decimals (0.000000001) is refused, never
            # rounded, so a top-up cannot silently add nothing.
            amount = parse_amount(options["amount"])
            if amount < 0:
                raise CommandError("AMOUNT must not be negative (use the admin for adjustments).")
            if amount > 0:
                top_up(user=user, amount=amount, note=options["note"] or "topup command")
        except ApiError as exc:
            raise CommandError(f"AMOUNT: {exc.message}") from exc
        self.stdout.write(f"{get_balance(user):f}")
