"""Database work from async views, on a few long-lived threads with persistent connections.

Django keeps one database connection per thread. Under ASGI, ``sync_to_async`` with the default
``thread_sensitive=True`` runs each request's ORM calls on a thread made for that request, so
with ``CONN_MAX_AGE`` every request opened a new PostgreSQL connection (about 5 ms here) and the
abandoned ones piled up until PostgreSQL refused clients. :func:`on_db_threads` instead runs the
work on a small fixed pool: each pool thread keeps its connection across requests.

Django's own connection upkeep (``close_old_connections`` on request start and finish) never runs
on these threads, so :func:`_tend_connections` does it before each call: a connection past
``CONN_MAX_AGE``, with errors since its last use, or left outside autocommit is closed; one that
sat idle for a while gets the health check Django would have given it.

These threads stay outside the connection pool of ``settings.DATABASES`` (``OPTIONS["pool"]``,
``DB_POOL_MAX_SIZE``), which bounds the connections of every other (sync) request: each thread
opens its own connection, as before the pool, so a process holds at most ``DB_POOL_MAX_SIZE +
DB_THREADS`` connections, and a burst of other requests queueing for the pool cannot hold up
chat, nor chat hold pool connections for as long as its threads live.

Which executor a request uses is its entry point's choice (:class:`DbExecutor`):
``chat.gateway`` uses :func:`on_db_threads`; requests through Django's handler (the test client,
the playground) use :func:`in_caller_thread`, which runs the work in the caller's thread as
``sync_to_async`` normally does, so it sees that thread's transaction (the tests' rollback
transaction).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, Protocol, TypeVar

from asgiref.sync import sync_to_async
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

__all__ = ["DB_THREADS", "DbExecutor", "in_caller_thread", "on_db_threads"]

P = ParamSpec("P")
R = TypeVar("R")

# Enough to overlap database round trips with the event loop's work on two cores; each thread
# holds one connection per database alias.
DB_THREADS = 4
# A connection unused for longer than this is health-checked before its next query.
IDLE_CHECK_SECONDS = 5.0

_executor = ThreadPoolExecutor(max_workers=DB_THREADS, thread_name_prefix="nova-db")
_local = threading.local()


_unpooled_classes: dict[type[BaseDatabaseWrapper], type[BaseDatabaseWrapper]] = {}


def _unpooled(connection: BaseDatabaseWrapper) -> BaseDatabaseWrapper:
    """The same database, settings and alias, with a connection of its own."""
    wrapper_class = type(connection)
    if (unpooled_class := _unpooled_classes.get(wrapper_class)) is None:
        # The PostgreSQL backend connects through its pool when its ``pool`` property is set.
        unpooled_class = _unpooled_classes.setdefault(
            wrapper_class,
            type(f"Unpooled{wrapper_class.__name__}", (wrapper_class,), {"pool": None}),
        )
    # The settings dict is shared, not copied, as between Django's own per-thread wrappers.
    return unpooled_class(connection.settings_dict, connection.alias)


def _leave_the_pool() -> None:
    """Once per thread: replace each pooled alias's wrapper of this thread by an unpooled one."""
    if getattr(_local, "unpooled", False):
        return
    for alias in connections:
        connection = connections[alias]
        if getattr(connection, "pool", None) is not None and connection.connection is None:
            connections[alias] = _unpooled(connection)
    _local.unpooled = True


def _tend_connections() -> None:
    _leave_the_pool()
    now = time.monotonic()
    idle = now - getattr(_local, "last_used", now) > IDLE_CHECK_SECONDS
    for connection in connections.all(initialized_only=True):
        if connection.connection is None:
            continue
        # CONN_MAX_AGE is about per-request threads (0 under ASGI); these few threads are
        # fixed, so their connections live on unless a positive max age says otherwise.
        max_age = connection.settings_dict.get("CONN_MAX_AGE") or 0
        obsolete = max_age > 0 and connection.close_at is not None and now >= connection.close_at
        if idle or obsolete or connection.errors_occurred:
            # Closes a broken or expired connection; otherwise arms the health check.
            connection.close_if_unusable_or_obsolete()
        elif connection.get_autocommit() != connection.settings_dict["AUTOCOMMIT"]:
            connection.close()
    _local.last_used = now


def _tended(func: Callable[P, R]) -> Callable[P, R]:
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        _tend_connections()
        return func(*args, **kwargs)

    return call


class DbExecutor(Protocol):
    """How an async caller runs a sync database function: ``await db(func)(*args)``."""

    def __call__(self, func: Callable[P, R], /) -> Callable[P, Coroutine[Any, Any, R]]: ...


def on_db_threads(func: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """``func`` on Nova's database threads (requests served by ``chat.gateway``), with the
    caller's context variables, through ``loop.run_in_executor`` directly: ``sync_to_async``'s
    own bookkeeping (for thread-sensitive calls and nested ``async_to_sync``, which this work
    never uses) cost more than the hop itself."""
    tended = _tended(func)

    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(
            _executor, functools.partial(context.run, tended, *args, **kwargs)
        )

    return call


def in_caller_thread(func: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """``func`` in the thread-sensitive executor, exactly as plain ``sync_to_async``: for requests
    served through Django's handler, whose database work must see the caller's connection and
    transaction (the test client's)."""
    return sync_to_async(func)
