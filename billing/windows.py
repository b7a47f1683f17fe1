"""The windows of spend limits, from one clock that tests can move (docs/billing.md, Limits).

Every window starts at 00:00 UTC: a daily one today, a weekly one on this week's Monday, a
monthly one on the 1st; a limit that never resets counts from the beginning. Charges are
counted on the UTC day of this same clock, so moving it moves both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, time, timedelta

from django.utils import timezone

from accounts.models import LimitReset

# The first day of the window of a limit that never resets: before any record.
BEGINNING = date(1970, 1, 1)


class Clock:
    """Where billing reads "now" (the charge's time and day, the limit windows)."""

    def __init__(self, now: Callable[[], datetime] = timezone.now) -> None:
        self.now = now

    @contextmanager
    def use(self, now: Callable[[], datetime]) -> Iterator[None]:
        """Take "now" from ``now`` inside the block (tests), then from the previous clock."""
        previous, self.now = self.now, now
        try:
            yield
        finally:
            self.now = previous


clock = Clock()


def now() -> datetime:
    return clock.now()


def utc_day(moment: datetime) -> date:
    return moment.astimezone(UTC).date()


def today() -> date:
    return utc_day(now())


def window_start(reset: str, day: date) -> date:
    """The first UTC day of the window of ``reset`` that holds ``day``."""
    if reset == LimitReset.DAILY:
        return day
    if reset == LimitReset.WEEKLY:
        return day - timedelta(days=day.weekday())
    if reset == LimitReset.MONTHLY:
        return day.replace(day=1)
    return BEGINNING


def next_window_start(reset: str, day: date) -> date | None:
    """The first day of the next window after the one holding ``day``; None for never."""
    if reset == LimitReset.DAILY:
        return day + timedelta(days=1)
    if reset == LimitReset.WEEKLY:
        return window_start(reset, day) + timedelta(days=7)
    if reset == LimitReset.MONTHLY:
        return (day.replace(day=28) + timedelta(days=4)).replace(day=1)
    return None


def midnight(day: date) -> datetime:
    """00:00 UTC of ``day``."""
    return datetime.combine(day, time.min, tzinfo=UTC)
