"""The default cache as one object per process, for code on the request hot path.

``django.core.cache.cache`` is kept per async context, and under ASGI every request runs in a
new one: each request built its own ``RedisCache``, hence its own connection pool and a new TCP
connection to Redis (with its handshake) for every rate-limit count. :func:`shared_cache` returns
one instance per process instead; redis-py's pool is thread-safe, so the database threads and
the event loop's callers share its connections. It follows ``settings.CACHES`` when tests
replace it.

:func:`cache_breaker` is the circuit breaker (``core.breaker``) that request-path users of
:func:`shared_cache` consult first: after a failure (a timeout, ``settings.REDIS_TIMEOUT``) they
skip the cache for ``settings.REDIS_BREAKER_SECONDS`` instead of each waiting out the timeout.
It comes with the cache object, so a replaced ``settings.CACHES`` starts with a closed breaker.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, BaseCache, caches

from core.breaker import CircuitBreaker

__all__ = ["cache_breaker", "shared_cache"]


class _Shared(NamedTuple):
    config: object
    cache: BaseCache
    breaker: CircuitBreaker


_lock = threading.Lock()
_current: _Shared | None = None


def _shared() -> _Shared:
    global _current
    config = settings.CACHES
    current = _current
    if current is None or current.config is not config:
        with _lock:
            if _current is None or _current.config is not config:
                _current = _Shared(
                    config,
                    caches.create_connection(DEFAULT_CACHE_ALIAS),
                    CircuitBreaker(cool_off=settings.REDIS_BREAKER_SECONDS),
                )
            current = _current
    return current


def shared_cache() -> BaseCache:
    """The process-wide instance of the default cache (same keys, prefix and data)."""
    return _shared().cache


def cache_breaker() -> CircuitBreaker:
    """The circuit breaker of :func:`shared_cache`: skip the cache while it says no."""
    return _shared().breaker
