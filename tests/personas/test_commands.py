"""create_persona prints the new persona's id alone; bad input is a CommandError."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User
from personas.models import Persona

pytestmark = pytest.mark.django_db


def _run(*args: str) -> str:
    out = StringIO()
    call_command("create_persona", *args, stdout=out)
    return out.getvalue()


def test_create_persona_prints_the_new_id(user: User) -> None:
    output = _run(
        "--owner",
        "alice",
        "--name",
        "Helper",
        "--description",
        "Helps.",
        "--system-prompt",
        "You help people.",
    )
    assert output.endswith("\n")
    persona = Persona.objects.get(pk=int(output.strip()))
    assert persona.pk >= 6
    assert persona.owner == user
    assert (persona.name, persona.category, persona.is_public) == ("Helper", "general", False)
    assert (persona.default_model, persona.default_temperature) == ("nova-local", 0.7)


def test_create_persona_with_every_option(user: User) -> None:
    output = _run(
        "--owner",
        "alice",
        "--name",
        "Pub",
        "--description",
        "d",
        "--system-prompt",
        "p",
        "--category",
        "support",
        "--public",
        "--model",
        "nova-local",
        "--temperature",
        "1.25",
    )
    persona = Persona.objects.get(pk=int(output))
    assert (persona.category, persona.is_public, persona.default_temperature) == (
        "support",
        True,
        1.25,
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--owner", "nobody"], "nobody"),
        (["--temperature", "3"], "default_temperature"),
        (["--temperature", "nan"], "default_temperature"),
        (["--model", "no-such-model"], "default_model"),
        (["--name", " "], "name"),
        (["--temperature", "warm"], "temperature"),
    ],
)
def test_bad_arguments_are_command_errors(user: User, extra: list[str], message: str) -> None:
    args: dict[str, Any] = {
        "--owner": "alice",
        "--name": "Helper",
        "--description": "d",
        "--system-prompt": "p",
    }
    for flag, value in zip(extra[::2], extra[1::2], strict=True):
        args[flag] = value
    argv = [part for pair in args.items() for part in pair]
    with pytest.raises(CommandError) as excinfo:
        _run(*argv)
    assert message in str(excinfo.value)
    assert not Persona.objects.filter(owner__isnull=False).exists()


def test_missing_required_argument_is_a_command_error(user: User) -> None:
    with pytest.raises(CommandError):
        _run("--owner", "alice", "--name", "Helper")
