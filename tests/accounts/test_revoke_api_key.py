"""``manage.py revoke_api_key`` on a key that is already revoked: it fails, naming the first
revocation, so a script revoking a leaked key learns it was not this run."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import ApiKey, User

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue().strip()


@pytest.mark.parametrize("by", ["raw key", "prefix"])
def test_revoking_a_key_twice_says_it_was_already_revoked(user: User, by: str) -> None:
    raw = run("create_api_key", "alice")
    given = raw if by == "raw key" else raw[:12]
    assert run("revoke_api_key", given) == raw[:12]
    revoked_at = ApiKey.objects.get().revoked_at
    with pytest.raises(CommandError, match=rf"Key {raw[:12]} was already revoked \(.+ UTC\)"):
        run("revoke_api_key", given)
    # The first revocation's time stands.
    assert ApiKey.objects.get().revoked_at == revoked_at
