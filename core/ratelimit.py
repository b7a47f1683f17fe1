"""Per-key requests-per-minute limits in the shared cache (docs/api.md, Rate limits).

A fixed one-minute window aligned to the clock: every process sharing the cache (Redis in
production) counts into the same key, so the limit holds across processes. On Redis the
count is one round trip (INCR + EXPIRE in a pipeline). If the cache is unreachable the
request is served: rate limiting degrades, the API does not. A failure opens the cache's circuit
breaker (``core.sharedcache.cache_breaker``): after a timeout, for ``REDIS_BREAKER_SECONDS``
requests skip Redis altogether (no 429, no rate-limit headers) instead of each waiting out
``REDIS_TIMEOUT``, then one request probes it; after a fast failure (connection refused) the next
request probes at once. The outage is logged once when it starts and once when it ends.

Callers pass a key's id and its stored limit; the limit is capped at ``settings.MAX_KEY_RPM``
here too, so a key saved above the cap (before it existed, or by hand) gets no more than the
cap. The window is computed from ``limiter.clock`` only, which tests replace with
:meth:`RateLimiter.use_clock`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest

from core.errors import RateLimited
from core.sharedcache import cache_breaker, shared_cache, shared_redis, through_breaker

__all__ = [
    "REQUEST_ATTRIBUTE",
    "WINDOW_SECONDS",
    "RateLimitState",
    "RateLimiter",
    "enforce",
    "hit",
    "limiter",
]

logger = logging.getLogger(__name__)

WINDOW_SECONDS = 60
REQUEST_ATTRIBUTE = "nova_ratelimit"


@dataclass(frozen=True)
class RateLimitState:
    limit: int
    count: int
    reset: int

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.count)

    @property
    def exceeded(self) -> bool:
        # The request that brings the count to exactly the limit is still served.
        return self.count > self.limit

    def headers(self) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.reset),
        }


def _increment(cache_key: str) -> int:
    """Count one into ``cache_key``: the new count."""
    redis = shared_redis()
    if redis is not None:
        client, make_key = redis
        full_key = make_key(cache_key)
        pipe = client.pipeline(transaction=False)
        pipe.incr(full_key)
        pipe.expire(full_key, WINDOW_SECONDS * 2)
        count, _ = pipe.execute()
        return int(count)
    # Local memory: add() is a no-op when the key exists, incr() is atomic under its lock.
    cache = shared_cache()
    cache.add(cache_key, 0, WINDOW_SECONDS * 2)
    try:
        return int(cache.incr(cache_key))
    except ValueError:  # expired between add and incr
        cache.set(cache_key, 1, WINDOW_SECONDS * 2)
        return 1


class RateLimiter:
    """Counts requests per key id in fixed windows of ``clock`` (seconds since the epoch)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock

    @contextmanager
    def use_clock(self, clock: Callable[[], float]) -> Iterator[None]:
        """Take "now" from ``clock`` inside the block (tests), then from the previous clock."""
        previous, self.clock = self.clock, clock
        try:
            yield
        finally:
            self.clock = previous

    def hit(self, key_id: int, limit: int) -> RateLimitState | None:
        """Count one request for this key: the resulting state, or None when the cache is down
        or its breaker open."""
        now = self.clock()
        window = int(now // WINDOW_SECONDS)
        reset = max(1, int((window + 1) * WINDOW_SECONDS - now))
        # A hung Redis (a timeout) is skipped for the breaker's cool-off; one that refuses at
        # once costs nothing to try, so the next request probes it and counting resumes as soon
        # as it is back.
        count = through_breaker(
            lambda: _increment(f"rl:{key_id}:{window}"), opened=_degraded, closed=_restored
        )
        if count is None:
            return None
        return RateLimitState(limit=min(limit, settings.MAX_KEY_RPM), count=count, reset=reset)


def _degraded(exc: Exception, slow: bool) -> None:
    logger.warning(
        "rate limiting degraded: cache unreachable (%s: %s); circuit opened, %s",
        type(exc).__name__,
        exc,
        f"requests skip the cache for {cache_breaker().cool_off:g} s between probes"
        if slow
        else "requests probe the cache until it answers",
        exc_info=True,
    )


def _restored() -> None:
    logger.warning("rate limiting restored: cache reachable again; circuit closed")


limiter = RateLimiter()


def hit(key_id: int, limit: int) -> RateLimitState | None:
    """Count one request for key ``key_id`` against ``min(limit, settings.MAX_KEY_RPM)``: the
    resulting state, or None when the cache is down or its breaker open (the request is served
    without rate limiting)."""
    return limiter.hit(key_id, limit)


def enforce(request: HttpRequest, *, key_id: int, limit: int) -> None:
    """Count the request (:func:`hit`), keep its state on the request for the rate-limit
    headers (``REQUEST_ATTRIBUTE``), and raise RateLimited (429) when it is over the limit."""
    state = limiter.hit(key_id, limit)
    if state is None:
        return
    setattr(request, REQUEST_ATTRIBUTE, state)
    if state.exceeded:
        raise RateLimited(
            f"Rate limit of {state.limit} requests per minute exceeded for this API key.",
            retry_after=state.reset,
            headers=state.headers(),
        )
