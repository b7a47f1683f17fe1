"""Invariants every fault test checks: the books balance and no conversation is half-written."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import httpx

from accounts.models import User
from billing.models import Balance, Hold, LedgerEntry, UsageRecord
from billing.selectors import get_balance
from conversations.models import Conversation, Message
from tests.chat.helpers import sse_events

__all__ = [
    "assert_books_balance",
    "assert_conversations_whole",
    "conversation_roles",
    "live_sse",
    "message_count",
]


def assert_books_balance(user: User, *, spent: Decimal, funded: Decimal = Decimal("10")) -> None:
    """sum(ledger) == balance == funded - spent, and every charge has its usage record."""
    # Summed in Python: SQLite's SUM() works in floating point (9.99955199999999), while each
    # column value comes back as an exact Decimal.
    entries = LedgerEntry.objects.filter(user=user)
    ledger = sum(entries.values_list("amount", flat=True), Decimal(0))
    balance = get_balance(user)
    assert ledger == balance, f"ledger {ledger} != balance {balance}"
    assert balance == funded - spent, f"balance {balance} != {funded} - {spent}"
    charges = entries.filter(kind=LedgerEntry.Kind.CHARGE).values_list("amount", flat=True)
    charged = -sum(charges, Decimal(0))
    costs = UsageRecord.objects.filter(user=user).values_list("cost", flat=True)
    used = sum(costs, Decimal(0))
    assert charged == used == spent, f"charged {charged}, usage {used}, expected {spent}"
    # Every request's hold was settled or released, and nothing is still reserved.
    assert not Hold.objects.filter(user=user).exists()
    reserved = Balance.objects.filter(user=user).values_list("reserved", flat=True).first()
    assert reserved in (None, Decimal(0)), f"still reserved: {reserved}"


def conversation_roles(conversation_id: int) -> list[str]:
    return list(
        Message.objects.filter(conversation_id=conversation_id)
        .order_by("id")
        .values_list("role", flat=True)
    )


def assert_conversations_whole(user: User) -> None:
    """Every saved conversation is [system] then whole (user, assistant) turns, never a user
    message without its reply, and every assistant message has a usage record's tokens."""
    for conversation in Conversation.objects.filter(user=user):
        roles = conversation_roles(conversation.pk)
        if roles and roles[0] == "system":
            roles = roles[1:]
        assert roles, f"conversation {conversation.pk} has no turns"
        assert len(roles) % 2 == 0, f"conversation {conversation.pk}: {roles}"
        assert roles == ["user", "assistant"] * (len(roles) // 2), roles


def message_count(user: User) -> int:
    return Message.objects.filter(conversation__user=user).count()


def live_sse(url: str, key: str, body: dict[str, Any], timeout: float = 30) -> list[Any]:
    """POST a streamed chat to a live server and read the whole event stream."""
    with httpx.stream(
        "POST",
        url,
        json={**body, "stream": True},
        headers={"Authorization": f"Bearer {key}"},
        timeout=timeout,
    ) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        return sse_events(response.read())
