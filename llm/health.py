"""How each deployment of each model is doing: requests in flight, recent failures, cooldowns
and per-minute request and token counts (docs/api.md, Models and providers).

The router (``llm.router``) asks which deployments may take a request, and reports every
attempt it starts and how it ended. A deployment that fails ``allowed_fails`` times within
:data:`FAILURE_WINDOW_SECONDS` cools down for the model's ``cooldown_seconds``.

Where Nova keeps its cache in Redis (``core.sharedcache``), failures, cooldowns, rpm/tpm counts
and in-flight counts are kept there too, so every process skips a deployment another one saw
failing. Each process also keeps its own copy, which it uses alone when there is no Redis or
while the cache's circuit breaker says Redis is down: a Redis outage never fails a request, it
only makes health local for a while. The choice between deployments with the fewest requests in
flight uses this process's count.

Only models that have a choice to make (``ModelSpec.routed``: several deployments or a
fallback) consult the shared state; a model with one deployment and no fallback only counts its
requests in flight here, with no Redis round trip.

Times are seconds since the epoch from :attr:`Health.clock` (shared across processes, so not
monotonic); tests replace the clock with :meth:`Health.use_clock`.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from core.sharedcache import shared_redis, through_breaker
from llm.catalog import ModelSpec

__all__ = ["FAILURE_WINDOW_SECONDS", "DeploymentStatus", "Health", "deployment_key", "health"]

logger = logging.getLogger(__name__)

FAILURE_WINDOW_SECONDS = 60
MINUTE = 60
# An in-flight count in Redis outlives a process that died mid-request at most this long after
# the deployment's last request.
INFLIGHT_TTL_SECONDS = 600


def deployment_key(model: ModelSpec, index: int) -> str:
    """The deployment's name in health state: the model id, and its position when not first
    (the common single-deployment case then builds no string)."""
    return model.id if index == 0 else f"{model.id}#{index}"


@dataclass(frozen=True)
class DeploymentStatus:
    """One deployment as ``manage.py models_status`` shows it."""

    name: str
    weight: float
    in_flight: int
    recent_failures: int
    cooling_until: float | None  # seconds since the epoch, while cooling down
    requests_this_minute: int
    tokens_this_minute: int


class _Local:
    """This process's copy of the state, under one lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.in_flight: dict[str, int] = {}
        self.failures: dict[str, collections.deque[float]] = {}
        self.cooling_until: dict[str, float] = {}
        # key -> (minute, requests, tokens)
        self.minute: dict[str, tuple[int, int, int]] = {}


class Health:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._local = _Local()

    @contextmanager
    def use_clock(self, clock: Callable[[], float]) -> Iterator[None]:
        """Take "now" from ``clock`` inside the block (tests), then from the previous clock."""
        previous, self.clock = self.clock, clock
        try:
            yield
        finally:
            self.clock = previous

    def reset_local(self) -> None:
        """Forget this process's copy (tests)."""
        self._local = _Local()

    # --- Redis, degrading to local state ---

    def _shared(self, work: Callable[[Any, Callable[[str], str]], Any]) -> Any:
        """``work(client, make_key)`` on Redis; None when Redis is not used or failed (then the
        cache's breaker is told, as the rate limiter tells it, and the outage logged once)."""
        redis = shared_redis()
        if redis is None:
            return None
        return through_breaker(lambda: work(*redis), opened=_local_only, closed=_shared_again)

    # --- what the router asks and reports ---

    def available(self, model: ModelSpec) -> list[bool]:
        """For each deployment of ``model``: neither cooling down nor at its rpm/tpm limit this
        minute. One Redis round trip (MGET) when Redis is used."""
        now = self.clock()
        minute = int(now // MINUTE)
        routes = model.routes
        keys = [deployment_key(model, index) for index in range(len(routes))]
        local = self._local
        with local.lock:
            cooling = [local.cooling_until.get(key, 0.0) > now for key in keys]
            counts = [self._minute_counts(key, minute) for key in keys]

        def read(client: Any, make_key: Callable[[str], str]) -> list[Any]:
            names = []
            for key in keys:
                names.append(make_key(f"llm:cool:{key}"))
                names.append(make_key(f"llm:rpm:{key}:{minute}"))
                names.append(make_key(f"llm:tpm:{key}:{minute}"))
            return list(client.mget(names))

        shared = self._shared(read)
        result = []
        for index, (deployment, _spec) in enumerate(routes):
            requests, tokens = counts[index]
            cool = cooling[index]
            if shared is not None:
                raw_until, raw_requests, raw_tokens = shared[index * 3 : index * 3 + 3]
                cool = cool or (raw_until is not None and float(raw_until) > now)
                requests = max(requests, int(raw_requests or 0))
                tokens = max(tokens, int(raw_tokens or 0))
            over = (deployment.rpm is not None and requests >= deployment.rpm) or (
                deployment.tpm is not None and tokens >= deployment.tpm
            )
            result.append(not cool and not over)
        return result

    def in_flight(self, model: ModelSpec, index: int) -> int:
        """This process's requests in flight to the deployment."""
        return self._local.in_flight.get(deployment_key(model, index), 0)

    def started(self, model: ModelSpec, index: int) -> None:
        """An attempt at the deployment begins: one more in flight, one more request this
        minute."""
        key = deployment_key(model, index)
        local = self._local
        with local.lock:
            local.in_flight[key] = local.in_flight.get(key, 0) + 1
        if not model.routed:
            return
        minute = int(self.clock() // MINUTE)
        with local.lock:
            requests, tokens = self._minute_counts(key, minute)
            local.minute[key] = (minute, requests + 1, tokens)

        def write(client: Any, make_key: Callable[[str], str]) -> None:
            pipe = client.pipeline(transaction=False)
            name = make_key(f"llm:inflight:{key}")
            pipe.incr(name)
            pipe.expire(name, INFLIGHT_TTL_SECONDS)
            # Counted even without an rpm limit: models_status shows it, at no extra round trip.
            name = make_key(f"llm:rpm:{key}:{minute}")
            pipe.incr(name)
            pipe.expire(name, MINUTE * 2)
            pipe.execute()

        self._shared(write)

    def finished(self, model: ModelSpec, index: int, *, failed: bool, tokens: int = 0) -> None:
        """The attempt ended: ``failed`` for a failure worth a retry (it counts towards the
        deployment's cooldown); ``tokens`` it used (for a ``tpm`` limit)."""
        key = deployment_key(model, index)
        local = self._local
        with local.lock:
            local.in_flight[key] = max(0, local.in_flight.get(key, 0) - 1)
        if not model.routed:
            return
        deployment = model.routes[index][0]
        now = self.clock()
        minute = int(now // MINUTE)
        cooled = False
        with local.lock:
            if tokens:
                requests, used = self._minute_counts(key, minute)
                local.minute[key] = (minute, requests, used + tokens)
            if failed:
                window = local.failures.setdefault(key, collections.deque())
                window.append(now)
                while window and window[0] <= now - FAILURE_WINDOW_SECONDS:
                    window.popleft()
                if len(window) >= model.allowed_fails:
                    window.clear()
                    local.cooling_until[key] = now + model.cooldown_seconds
                    cooled = True

        def write(client: Any, make_key: Callable[[str], str]) -> bool:
            pipe = client.pipeline(transaction=False)
            name = make_key(f"llm:inflight:{key}")
            pipe.decr(name)
            pipe.expire(name, INFLIGHT_TTL_SECONDS)
            if tokens:
                name = make_key(f"llm:tpm:{key}:{minute}")
                pipe.incrby(name, tokens)
                pipe.expire(name, MINUTE * 2)
            fails = make_key(f"llm:fails:{key}")
            if failed:
                pipe.zadd(fails, {f"{now!r}:{uuid.uuid4().hex[:8]}": now})
                pipe.zremrangebyscore(fails, "-inf", now - FAILURE_WINDOW_SECONDS)
                pipe.zcard(fails)
                pipe.expire(fails, FAILURE_WINDOW_SECONDS * 2)
            results = pipe.execute()
            # Enough failures across processes, or in this one (Redis may have missed some
            # while it was down): every process skips the deployment from now on.
            if cooled or (failed and int(results[-2]) >= model.allowed_fails):
                self._start_cooldown(client, make_key, model, key, now)
                return True
            return False

        if self._shared(write) or cooled:
            logger.warning(
                "deployment cooling down model=%s deployment=%s seconds=%g",
                model.id,
                deployment.name,
                model.cooldown_seconds,
            )

    def _start_cooldown(
        self,
        client: Any,
        make_key: Callable[[str], str],
        model: ModelSpec,
        key: str,
        now: float,
    ) -> None:
        until = now + model.cooldown_seconds
        pipe = client.pipeline(transaction=False)
        # The value says until when; the expiry only clears the key away afterwards.
        ttl_ms = int(model.cooldown_seconds * 1000) + 1000
        pipe.set(make_key(f"llm:cool:{key}"), repr(until), px=ttl_ms)
        pipe.delete(make_key(f"llm:fails:{key}"))
        pipe.execute()
        with self._local.lock:
            self._local.cooling_until[key] = max(self._local.cooling_until.get(key, 0.0), until)
            self._local.failures.pop(key, None)

    def _minute_counts(self, key: str, minute: int) -> tuple[int, int]:
        # Under the lock.
        current = self._local.minute.get(key)
        if current is None or current[0] != minute:
            return 0, 0
        return current[1], current[2]

    # --- operators ---

    def status(self, model: ModelSpec) -> list[DeploymentStatus]:
        """Each deployment's state: from Redis when it is used (every process's requests),
        else this process's."""
        now = self.clock()
        minute = int(now // MINUTE)
        keys = [deployment_key(model, index) for index in range(len(model.routes))]

        def read(client: Any, make_key: Callable[[str], str]) -> list[Any]:
            pipe = client.pipeline(transaction=False)
            for key in keys:
                pipe.get(make_key(f"llm:inflight:{key}"))
                pipe.zcount(make_key(f"llm:fails:{key}"), now - FAILURE_WINDOW_SECONDS, "+inf")
                pipe.get(make_key(f"llm:cool:{key}"))
                pipe.get(make_key(f"llm:rpm:{key}:{minute}"))
                pipe.get(make_key(f"llm:tpm:{key}:{minute}"))
            return list(pipe.execute())

        shared = self._shared(read)
        local = self._local
        statuses = []
        for index, (deployment, _spec) in enumerate(model.routes):
            key = keys[index]
            with local.lock:
                in_flight = local.in_flight.get(key, 0)
                failures = sum(
                    1 for at in local.failures.get(key, ()) if at > now - FAILURE_WINDOW_SECONDS
                )
                until: float | None = local.cooling_until.get(key)
                requests, tokens = self._minute_counts(key, minute)
            if shared is not None:
                raw_flight, raw_fails, raw_until, raw_requests, raw_tokens = shared[
                    index * 5 : index * 5 + 5
                ]
                in_flight = max(0, int(raw_flight or 0))
                failures = int(raw_fails or 0)
                until = max(until or 0.0, float(raw_until)) if raw_until is not None else until
                requests = max(requests, int(raw_requests or 0))
                tokens = max(tokens, int(raw_tokens or 0))
            statuses.append(
                DeploymentStatus(
                    name=deployment.name,
                    weight=deployment.weight,
                    in_flight=in_flight,
                    recent_failures=failures,
                    cooling_until=until if until is not None and until > now else None,
                    requests_this_minute=requests,
                    tokens_this_minute=tokens,
                )
            )
        return statuses


def _local_only(exc: Exception, slow: bool) -> None:
    logger.warning(
        "deployment health is local to this process: cache unreachable (%s)",
        type(exc).__name__,
    )


def _shared_again() -> None:
    logger.warning("deployment health is shared again: cache reachable")


health = Health()
