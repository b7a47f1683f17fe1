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
:func:`through_breaker` runs one piece of cache work under that breaker, and :func:`shared_redis`
gives the Redis client behind the cache for work Django's cache API cannot express (pipelines).
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, BaseCache, caches

from core.breaker import CircuitBreaker

__all__ = ["cache_breaker", "shared_cache", "shared_redis", "through_breaker"]

T = TypeVar("T")


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


# Django's RedisCacheClient.get_client() builds a new redis.Redis object on every call; it is
# thread-safe and writes always go to the first server, so one per cache object is kept.
_redis_clients: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def shared_redis() -> tuple[Any, Callable[[str], str]] | None:
    """The write client of the Redis behind :func:`shared_cache` and the cache's key maker
    (prefix and version, as the cache's own keys); None when the cache is not Redis."""
    cache: Any = shared_cache()
    redis_cache = getattr(cache, "_cache", None)
    if redis_cache is None or not hasattr(redis_cache, "get_client"):
        return None
    client = _redis_clients.get(redis_cache)
    if client is None:
        client = _redis_clients[redis_cache] = redis_cache.get_client(write=True)
    return client, cache.make_and_validate_key


def through_breaker(
    work: Callable[[], T],
    *,
    opened: Callable[[Exception, bool], None],
    closed: Callable[[], None],
) -> T | None:
    """``work()`` unless :func:`cache_breaker` says to skip the cache; None when skipped or
    when it raised.

    A failure is reported to the breaker: a slow one (a timeout: at least half of
    ``REDIS_TIMEOUT``) opens it for its cool-off, a fast one (connection refused) lets the next
    call probe at once. ``opened(exc, slow)`` is called when this failure opened the breaker,
    ``closed()`` when this success closed it: each outage is logged once by the caller.
    """
    breaker = cache_breaker()
    if not breaker.allow():
        return None
    started = time.monotonic()
    try:
        result = work()
    except Exception as exc:
        slow = time.monotonic() - started >= settings.REDIS_TIMEOUT / 2
        if breaker.record_failure(cool_off=None if slow else 0.0):
            opened(exc, slow)
        return None
    if breaker.record_success():
        closed()
    return result
