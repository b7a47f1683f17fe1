"""Per-key requests-per-minute limits in the shared cache (contract §9).

A fixed one-minute window aligned to the clock: every process sharing the cache (Redis in
production) counts into the same key, so the limit holds across processes. On Redis the
count is one round trip (INCR + EXPIRE in a pipeline). If the cache is unreachable the
request is served: rate limiting degrades, the API does not. A failure opens the cache's circuit
breaker (``core.sharedcache.cache_breaker``): after a timeout, for ``REDIS_BREAKER_SECONDS``
requests skip Redis altogether (no 429, no rate-limit headers) instead of each waiting out
``REDIS_TIMEOUT``, then one request probes it; after a fast failure (connection refused) the next
request probes at once. The outage is logged once when it starts and once when it ends.

A key's stored ``rpm_limit`` is capped at ``settings.MAX_KEY_RPM`` here too, so a key saved
above the cap (before it existed, or by hand) gets no more than the cap.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from accounts.models import ApiKey
from core.errors import RateLimited
from core.sharedcache import cache_breaker, shared_cache

if TYPE_CHECKING:
    from rest_framework.views import APIView

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


def _integer(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


# Django's RedisCacheClient.get_client() builds a new redis.Redis object on every call; it is
# thread-safe and writes always go to the first server, so one per cache object is kept.
_write_clients: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def _write_client(redis_cache: Any) -> Any:
    client = _write_clients.get(redis_cache)
    if client is None:
        client = _write_clients[redis_cache] = redis_cache.get_client(write=True)
    return client


def _increment(cache_key: str, read: Sequence[str]) -> tuple[int, dict[str, int | None]]:
    cache = shared_cache()
    backend: Any = cache
    redis_cache = getattr(backend, "_cache", None)
    if redis_cache is not None and hasattr(redis_cache, "get_client"):
        full_key = backend.make_and_validate_key(cache_key)
        client = _write_client(redis_cache)
        pipe = client.pipeline(transaction=False)
        pipe.incr(full_key)
        pipe.expire(full_key, WINDOW_SECONDS * 2)
        for name in read:
            # Django's Redis cache stores integers as plain digits: readable without it.
            pipe.get(backend.make_and_validate_key(name))
        count, _, *values = pipe.execute()
        return int(count), {name: _integer(v) for name, v in zip(read, values, strict=True)}
    # Local memory: add() is a no-op when the key exists, incr() is atomic under its lock.
    cache.add(cache_key, 0, WINDOW_SECONDS * 2)
    try:
        count = int(cache.incr(cache_key))
    except ValueError:  # expired between add and incr
        cache.set(cache_key, 1, WINDOW_SECONDS * 2)
        count = 1
    found = cache.get_many(read) if read else {}
    return count, {name: _integer(found.get(name)) for name in read}


def hit(
    key: ApiKey, now: float | None = None, *, read: Sequence[str] = ()
) -> tuple[RateLimitState | None, dict[str, int | None]]:
    """Count one request for this key: the resulting state, or None when the cache is down.

    ``read``: cache keys holding integers to fetch in the same round trip, returned as
    ``{key: value or None}``; all None when the cache is down or its breaker open.
    """
    breaker = cache_breaker()
    if not breaker.allow():
        return None, dict.fromkeys(read)
    now = time.time() if now is None else now
    window = int(now // WINDOW_SECONDS)
    reset = max(1, int((window + 1) * WINDOW_SECONDS - now))
    started = time.monotonic()
    try:
        count, values = _increment(f"rl:{key.pk}:{window}", read)
    except Exception as exc:
        # A hung Redis (a timeout) is skipped for the breaker's cool-off; one that refuses at
        # once costs nothing to try, so the next request probes it and counting resumes as
        # soon as it is back.
        slow = time.monotonic() - started >= settings.REDIS_TIMEOUT / 2
        if breaker.record_failure(cool_off=None if slow else 0.0):
            logger.warning(
                "rate limiting degraded: cache unreachable (%s: %s); circuit opened, %s",
                type(exc).__name__,
                exc,
                f"requests skip the cache for {breaker.cool_off:g} s between probes"
                if slow
                else "requests probe the cache until it answers",
                exc_info=True,
            )
        return None, dict.fromkeys(read)
    if breaker.record_success():
        logger.warning("rate limiting restored: cache reachable again; circuit closed")
    limit = min(key.rpm_limit, settings.MAX_KEY_RPM)
    return RateLimitState(limit=limit, count=count, reset=reset), values


def enforce(
    request: HttpRequest, key: ApiKey, *, read: Sequence[str] = ()
) -> dict[str, int | None]:
    """Count the request, remember the headers for the response, raise 429 when over.

    Returns the integers of ``read`` (see :func:`hit`).
    """
    state, values = hit(key, read=read)
    if state is None:
        return values
    setattr(request, REQUEST_ATTRIBUTE, state)
    if state.exceeded:
        raise RateLimited(
            f"Rate limit of {state.limit} requests per minute exceeded for this API key.",
            retry_after=state.reset,
            headers=state.headers(),
        )
    return values


class ApiKeyRateThrottle(BaseThrottle):
    """DRF throttle for every key-authenticated view."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        key = request.auth
        if isinstance(key, ApiKey):
            enforce(request._request, key)
        return True
