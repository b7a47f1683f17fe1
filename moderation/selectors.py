"""Moderation reads: the review queue with everything an operator or an export needs."""

from __future__ import annotations

from django.db.models import QuerySet

from moderation.models import ReviewItem


def review_queue(*, state: str | None = ReviewItem.State.PENDING) -> QuerySet[ReviewItem]:
    """Review items, oldest first; `state=None` returns every state.

    Loads the verdict, its user and key, and the reviewer in the same query.
    """
    items = ReviewItem.objects.select_related(
        "verdict", "verdict__user", "verdict__api_key", "reviewer"
    ).order_by("created_at", "id")
    if state is not None:
        items = items.filter(state=state)
    return items
