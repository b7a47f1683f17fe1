"""``manage.py seed_demo``: the demo user, funded, and a key with Detailed Logging on. It lives
in billing, not accounts, because it tops the balance up and accounts imports no billing."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from accounts.models import User
from accounts.services import create_api_key, create_user
from billing.money import parse_amount
from billing.selectors import get_balance
from billing.services import top_up
from core.errors import ApiError

DEMO_USERNAME = "demo"


class Command(BaseCommand):
    help = "Create (or reuse) the demo user and print a new key with Detailed Logging on."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--balance", default="10.00", help="Minimum balance to ensure (USD).")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            minimum = parse_amount(options["balance"], param="--balance")
        except ApiError as exc:
            raise CommandError(f"--balance: {exc.message}") from exc
        if minimum < 0:
            raise CommandError("--balance must not be negative.")
        with transaction.atomic():
            user = User.objects.filter(username=DEMO_USERNAME).first()
            if user is None:
                user = create_user(username=DEMO_USERNAME, password="demo-password-nova")
            shortfall = minimum - get_balance(user)
            if shortfall > 0:
                top_up(user=user, amount=shortfall, note="seed_demo")
            issued = create_api_key(user=user, name="demo", detailed_logging=True)
        self.stdout.write(issued.raw_key)
