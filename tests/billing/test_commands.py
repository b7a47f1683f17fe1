from __future__ import annotations

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import ApiKey, User, digest_key
from billing.models import LedgerEntry
from billing.selectors import get_balance

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip()


def test_create_api_key_creates_user_balance_and_prints_only_the_key() -> None:
    raw = run(
        "create_api_key",
        "bob",
        "--create-user",
        "--balance",
        "5",
        "--detailed-logging",
        "--rpm",
        "10",
        "--name",
        "ci",
    )
    assert raw.startswith("sk-") and "\n" not in raw
    key = ApiKey.objects.get(digest=digest_key(raw))
    assert key.user.username == "bob"
    assert key.detailed_logging is True
    assert key.rpm_limit == 10
    assert key.name == "ci"
    assert get_balance(key.user) == Decimal("5")


def test_create_api_key_for_missing_user_without_flag_fails() -> None:
    with pytest.raises(CommandError, match="does not exist"):
        run("create_api_key", "ghost")
    assert not User.objects.filter(username="ghost").exists()


@pytest.mark.parametrize("args", [("--rpm", "0"), ("--balance", "lots"), ("--balance", "-3")])
def test_create_api_key_rejects_bad_arguments(user: User, args: tuple[str, str]) -> None:
    with pytest.raises(CommandError):
        run("create_api_key", "alice", *args)
    assert not ApiKey.objects.exists()


def test_topup_adds_and_zero_only_reads(user: User) -> None:
    assert run("topup", "alice", "2.5", "--note", "gift") == "2.50000000"
    assert run("topup", "alice", "0") == "2.50000000"
    assert LedgerEntry.objects.filter(user=user).count() == 1
    assert LedgerEntry.objects.get(user=user).note == "gift"


def test_topup_prints_small_and_zero_balances_in_plain_notation(user: User) -> None:
    assert run("topup", "alice", "0") == "0.00000000"
    assert run("topup", "alice", "0.0000003") == "0.00000030"


@pytest.mark.parametrize("args", [("nobody", "1"), ("alice", "x"), ("alice", "-1")])
def test_topup_argument_errors(user: User, args: tuple[str, str]) -> None:
    with pytest.raises(CommandError):
        run("topup", *args)


def test_revoke_api_key_by_raw_key_and_prefix(user: User) -> None:
    raw = run("create_api_key", "alice")
    assert run("revoke_api_key", raw) == raw[:12]
    assert ApiKey.objects.get().revoked_at is not None
    raw2 = run("create_api_key", "alice")
    assert run("revoke_api_key", raw2[:12]) == raw2[:12]
    with pytest.raises(CommandError):
        run("revoke_api_key", "sk-nothing-like-this")


def test_seed_demo_prints_a_detailed_logging_key_with_balance() -> None:
    raw = run("seed_demo")
    key = ApiKey.objects.get(digest=digest_key(raw))
    assert key.detailed_logging is True
    assert key.user.username == "demo"
    assert get_balance(key.user) >= Decimal("10")
    run("seed_demo")  # idempotent for the user: a second key, no second top-up
    assert LedgerEntry.objects.filter(user=key.user).count() == 1


def test_commands_exit_non_zero_from_the_shell(tmp_path: object) -> None:
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "manage.py", "topup"], capture_output=True, text=True, check=False
    )
    assert result.returncode != 0
    assert "arguments" in result.stderr
