"""A circuit breaker: after a failure, stop calling a dependency for a while.

A dependency that hangs (Redis under ``CLIENT PAUSE``, a full network buffer) costs every
request its whole socket timeout, and a few blocked threads then queue everything behind
them. The breaker turns that into one slow request: the first failure *opens* it, and for
``cool_off`` seconds :meth:`CircuitBreaker.allow` says no, so callers skip the dependency and
take their degraded path at once. After the cool-off one caller at a time is let through as
a probe (*half-open*): its success closes the breaker, its failure opens it again for another
cool-off. A failure that cost no time (a refused connection) may open it with no cool-off:
skipping saves nothing then, and the next call probes, so the dependency is used again as soon
as it is back, while the outage is still logged only once.

The breaker only keeps the state; its owner logs. :meth:`~CircuitBreaker.record_failure` and
:meth:`~CircuitBreaker.record_success` return True exactly when they open or close it, so an
outage is logged once when it starts and once when it ends, not once per request.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from enum import Enum

__all__ = ["CircuitBreaker", "State"]


class State(Enum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half-open"


class CircuitBreaker:
    """Thread-safe. ``clock``: seconds, monotonic (injectable for tests)."""

    def __init__(self, *, cool_off: float, clock: Callable[[], float] = time.monotonic) -> None:
        if cool_off <= 0:
            raise ValueError("cool_off must be positive")
        self.cool_off = cool_off
        self._clock = clock
        self._lock = threading.Lock()
        self._state = State.CLOSED
        # While open: when the next probe may start. While half-open: when the probe in flight
        # is given up on (its caller died or never reported), so another one may start.
        self._until = 0.0

    @property
    def state(self) -> State:
        return self._state

    def _closed(self) -> bool:
        # A call rather than a test of self._state where it is read twice (outside the lock,
        # then under it): mypy would take the second read to be the first one's narrowed type.
        return self._state is State.CLOSED

    def allow(self) -> bool:
        """May the caller use the dependency now? While half-open, True for the probe only."""
        # The common case reads one attribute without the lock: a request racing a state change
        # either makes one more call or skips one more, both harmless.
        if self._closed():
            return True
        with self._lock:
            if self._closed():
                return True
            now = self._clock()
            if now < self._until:
                return False
            self._state = State.HALF_OPEN
            self._until = now + self.cool_off
            return True

    def record_success(self) -> bool:
        """The dependency answered. True when this closed the breaker."""
        if self._closed():
            return False
        with self._lock:
            if self._closed():
                return False
            self._state = State.CLOSED
            return True

    def record_failure(self, *, cool_off: float | None = None) -> bool:
        """The dependency failed. True when this opened a closed breaker (not on a failed probe,
        which only starts another cool-off).

        ``cool_off``: for this failure instead of the breaker's own, e.g. 0 for a failure that
        cost no time (a refused connection), so the next call probes at once.
        """
        with self._lock:
            opened = self._state is State.CLOSED
            self._state = State.OPEN
            self._until = self._clock() + (self.cool_off if cool_off is None else cool_off)
            return opened
