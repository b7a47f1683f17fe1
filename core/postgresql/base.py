"""Django's PostgreSQL backend, whose connection pool does not make requests wait on a dead
database.

With Django's pool (``OPTIONS["pool"]``, psycopg_pool) a sync request waits up to the pool's
``timeout`` (``DB_POOL_TIMEOUT``) for a connection, then gets the 503. That is the point when
every connection is busy, but while PostgreSQL is down nothing will come: every request would
hold its thread for the whole timeout before its 503 (without the pool it was refused at once).

So a timeout during which the pool's own connection attempts failed opens a circuit breaker
(``core.breaker``): for ``OUTAGE_COOL_OFF`` seconds requests get the 503 at once, then one
request at a time waits on the pool as usual, which makes the pool try to connect again; its
success closes the breaker. A timeout of a merely busy pool (no failed attempt: the pool is full)
changes nothing, and an idle connection in the pool is always used. The outage is logged once
when it starts and once when it ends. (One breaker per process: Nova has one database.)
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.db.backends.postgresql import base
from psycopg_pool import PoolTimeout

from core.breaker import CircuitBreaker

__all__ = ["OUTAGE_COOL_OFF", "DatabaseWrapper"]

logger = logging.getLogger(__name__)

OUTAGE_COOL_OFF = 5.0

_breaker = CircuitBreaker(cool_off=OUTAGE_COOL_OFF)
_lock = threading.Lock()
# The pool's count of failed connection attempts when a pool timeout last looked at it.
_errors_seen = 0


def _attempts_failed(pool: Any) -> bool:
    """Did the pool fail to connect since the last pool timeout looked?"""
    global _errors_seen
    errors = int(pool.get_stats().get("connections_errors", 0))
    with _lock:
        failed, _errors_seen = errors > _errors_seen, errors
    return failed


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        pool = self.pool
        if pool is None:
            return super().get_new_connection(conn_params)
        if not _breaker.allow() and not pool.get_stats().get("pool_available"):
            # Raised where the pool's own timeout would be: Django wraps it in its
            # OperationalError, which the API answers with the 503 envelope.
            raise PoolTimeout("the database is unreachable: not waiting for a connection")
        try:
            connection = super().get_new_connection(conn_params)
        except PoolTimeout:
            if _attempts_failed(pool) and _breaker.record_failure():
                logger.error(
                    "Database unreachable: no connection from the pool within %g s and its "
                    "connection attempts fail; requests get a 503 at once, probing every %g s",
                    pool.timeout,
                    OUTAGE_COOL_OFF,
                )
            raise
        if _breaker.record_success():
            logger.warning("Database reachable again: the pool serves requests")
        return connection
