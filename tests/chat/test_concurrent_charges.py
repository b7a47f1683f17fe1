"""Concurrent chats on one balance leave the ledger equal to the balance (docs/billing.md,
The ledger)."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.db import connection

from billing.models import LedgerEntry, UsageRecord
from billing.selectors import get_balance
from billing.services import top_up
from tests.conftest import client_for
from tests.factories import ApiKeyFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_twenty_concurrent_chats_charge_exactly() -> None:
    user = UserFactory.create(username="parallel")
    top_up(user=user, amount="5")
    key = ApiKeyFactory.create(user=user, detailed_logging=True, rpm_limit=1000)
    statuses: list[int] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(20)

    def chat(index: int) -> None:
        try:
            client = client_for(key)
            barrier.wait(timeout=10)
            response = client.post(
                "/v1/agents/chat/completions",
                {"persona_id": 1, "messages": [{"role": "user", "content": f"question {index}"}]},
                format="json",
            )
            statuses.append(response.status_code)
        except BaseException as exc:  # surfaced below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=chat, args=(i,)) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert statuses == [200] * 20
    # Summed in Python: SQLite's SUM() of a decimal column goes through floats.
    spent = sum(UsageRecord.objects.filter(user=user).values_list("cost", flat=True), Decimal(0))
    assert UsageRecord.objects.filter(user=user).count() == 20
    assert get_balance(user) == Decimal("5") - spent
    ledger = sum(LedgerEntry.objects.filter(user=user).values_list("amount", flat=True), Decimal(0))
    assert ledger == get_balance(user)
