"""Per-key requests-per-minute limits in the shared cache (contract §9).

A fixed one-minute window aligned to the clock: every process sharing the cache (Redis in
production) counts into the same key, so the limit holds across processes. On Redis the
count is one round trip (INCR + EXPIRE in a pipeline). If the cache is unreachable the
request is served and the failure logged: rate limiting degrades, the API does not.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from accounts.models import ApiKey
from core.errors import RateLimited
from core.sharedcache import shared_cache

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


def _increment(cache_key: str) -> int:
    cache = shared_cache()
    backend: Any = cache
    redis_cache = getattr(backend, "_cache", None)
    if redis_cache is not None and hasattr(redis_cache, "get_client"):
        full_key = backend.make_and_validate_key(cache_key)
        client = redis_cache.get_client(full_key, write=True)
        pipe = client.pipeline(transaction=False)
        pipe.incr(full_key)
        pipe.expire(full_key, WINDOW_SECONDS * 2)
        count, _ = pipe.execute()
        return int(count)
    # Local memory: add() is a no-op when the key exists, incr() is atomic under its lock.
    cache.add(cache_key, 0, WINDOW_SECONDS * 2)
    try:
        return int(cache.incr(cache_key))
    except ValueError:  # expired between add and incr
        cache.set(cache_key, 1, WINDOW_SECONDS * 2)
        return 1


def hit(key: ApiKey, now: float | None = None) -> RateLimitState | None:
    """Count one request for this key; the resulting state, or None when the cache is down."""
    now = time.time() if now is None else now
    window = int(now // WINDOW_SECONDS)
    reset = max(1, int((window + 1) * WINDOW_SECONDS - now))
    try:
        count = _increment(f"rl:{key.pk}:{window}")
    except Exception:
        logger.warning("rate limiting degraded: cache unreachable", exc_info=True)
        return None
    return RateLimitState(limit=key.rpm_limit, count=count, reset=reset)


def enforce(request: HttpRequest, key: ApiKey) -> None:
    """Count the request, remember the headers for the response, raise 429 when over."""
    state = hit(key)
    if state is None:
        return
    setattr(request, REQUEST_ATTRIBUTE, state)
    if state.exceeded:
        raise RateLimited(
            f"Rate limit of {state.limit} requests per minute exceeded for this API key.",
            retry_after=state.reset,
            headers=state.headers(),
        )


class ApiKeyRateThrottle(BaseThrottle):
    """DRF throttle for every key-authenticated view."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        key = request.auth
        if isinstance(key, ApiKey):
            enforce(request._request, key)
        return True
