"""The default cache as one object per process, for code on the request hot path.

``django.core.cache.cache`` is kept per async context, and under ASGI every request runs in a
new one: each request built its own ``RedisCache``, hence its own connection pool and a new TCP
connection to Redis (with its handshake) for every rate-limit count. :func:`shared_cache` returns
one instance per process instead; redis-py's pool is thread-safe, so the database threads and
the event loop's callers share its connections. It follows ``settings.CACHES`` when tests
replace it.
"""

from __future__ import annotations

import threading

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, BaseCache, caches

__all__ = ["shared_cache"]

_lock = threading.Lock()
_current: tuple[object, BaseCache] | None = None


def shared_cache() -> BaseCache:
    """The process-wide instance of the default cache (same keys, prefix and data)."""
    global _current
    config = settings.CACHES
    current = _current
    if current is None or current[0] is not config:
        with _lock:
            if _current is None or _current[0] is not config:
                _current = (config, caches.create_connection(DEFAULT_CACHE_ALIAS))
            current = _current
    return current[1]
