"""``create_persona --owner USERNAME --name N --description D --system-prompt P``: prints the new
persona's id alone on one line; bad input is a CommandError."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from core.errors import ApiError
from personas.models import DEFAULT_MODEL_ID
from personas.services import create_persona


class Command(BaseCommand):
    help = "Create a persona for a user (the dashboard is the user's way). Prints the new id."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--owner", required=True, help="Username of the owner.")
        parser.add_argument("--name", required=True)
        parser.add_argument("--description", required=True)
        parser.add_argument("--system-prompt", required=True, dest="system_prompt")
        parser.add_argument("--category", default="general")
        parser.add_argument("--public", action="store_true", help="List it for everyone.")
        parser.add_argument(
            "--model", default=DEFAULT_MODEL_ID, help="Default model id from the catalog."
        )
        parser.add_argument("--temperature", type=float, default=0.7, help="0 to 2.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            owner = User.objects.get(username=options["owner"])
        except User.DoesNotExist:
            raise CommandError(f"No user named {options['owner']!r}.") from None
        try:
            persona = create_persona(
                owner=owner,
                name=options["name"],
                description=options["description"],
                system_prompt=options["system_prompt"],
                category=options["category"],
                default_model=options["model"],
                default_temperature=options["temperature"],
                is_public=options["public"],
            )
        except ApiError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(str(persona.pk))
