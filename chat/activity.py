"""The activity record of one chat request (the dashboard's Activity log, docs/billing.md).

Every chat request an API key makes is recorded once, whatever its outcome, by the pipeline
that serves it (``chat.pipeline``), for the gateway and Django's handler alike, and by the
playground. A :class:`ChatTrace` follows the request from its start: ``admit`` says whose it
is, the request's body what it asked for, the end how it went. It is written in one of two
ways, never both:

* with the charge (``billing.services.charge_usage(activity=...)``): the same statement on
  PostgreSQL, the same transaction elsewhere; so a served chat costs no extra round trip;
* on its own (:func:`write_trace`), for a request that was not charged: refused before
  generation (400, 402, 404, 429), failed before any token (502, 504), or left at once.

A request without a valid key has no owner and no record. Nothing of the messages is kept.
Failing to write a record is logged and never changes the response.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from billing.models import ActivityRecord
from billing.services import record_activity
from core.asyncdb import DbExecutor
from core.errors import answered_error
from core.requestid import request_id_of

if TYPE_CHECKING:
    from django.http import HttpRequest

    from accounts.models import ApiKey, User
    from personas.models import Persona

__all__ = ["CLIENT_CLOSED", "ChatTrace", "write_trace", "write_trace_now"]

logger = logging.getLogger(__name__)

# The status of a request whose client left before its response ended (as nginx logs it).
CLIENT_CLOSED = 499
CLIENT_CLOSED_CODE = "client_closed_request"


@dataclass
class ChatTrace:
    """What the activity record of one request will say, filled in as the request goes."""

    endpoint: str
    request_id: str = ""
    created_at: datetime = field(default_factory=timezone.now)
    started: float = field(default_factory=time.monotonic)
    user_id: int | None = None
    api_key_id: int | None = None
    model_requested: str = ""
    model_answered: str = ""
    persona_id: int | None = None
    stream: bool = False
    status: int = 200
    error_type: str = ""
    error_code: str = ""
    finish_reason: str = ""
    latency_ms: int = 0
    # Set once the record is written, or handed to a write that will be (the charge, or its
    # pending-charge record): a request has one record.
    written: bool = False

    @classmethod
    def begin(cls, endpoint: str, request: HttpRequest | None = None) -> ChatTrace:
        """The trace of ``request``, with the id of its ``X-Request-Id`` response header
        (``core.middleware.RequestIdMiddleware``)."""
        return cls(endpoint=endpoint, request_id=request_id_of(request))

    def identify(self, *, user: User, api_key: ApiKey | None) -> None:
        self.user_id = user.pk
        self.api_key_id = api_key.pk if api_key is not None else None

    def asked(self, body: Any) -> None:
        """What the body asked for, read leniently (it may be the body that failed). The
        persona is set only once it is known to be visible to the caller (:meth:`chose`)."""
        if isinstance(body, dict):
            model = body.get("model")
            if isinstance(model, str):
                self.model_requested = model[:100]
            self.stream = body.get("stream") is True

    def chose(self, *, persona: Persona | None = None, model_id: str | None = None) -> None:
        """The persona and the model the request is for, once each is known: a request that
        named no model asked for its persona's default. (The model that answered is set when
        generation ends: a fallback may answer.)"""
        if persona is not None:
            self.persona_id = persona.pk
        if model_id is not None and not self.model_requested:
            self.model_requested = model_id

    def fail(self, exc: BaseException) -> None:
        """The request ended with ``exc``: its status, type and code, as the client is told."""
        if isinstance(exc, asyncio.CancelledError | GeneratorExit):
            self.left()
            return
        error = answered_error(exc)
        self.status = error.status
        self.error_type = error.type
        self.error_code = error.code or ""

    def left(self) -> None:
        """The client closed the connection before the response ended."""
        self.status = CLIENT_CLOSED
        self.error_type = ""
        self.error_code = CLIENT_CLOSED_CODE

    def stop(self) -> None:
        self.latency_ms = max(0, round((time.monotonic() - self.started) * 1000))

    @property
    def owned(self) -> bool:
        return self.user_id is not None

    def _values(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _RECORDED}

    def record(self) -> ActivityRecord:
        """The unsaved record (tokens and cost are zero; a charge sets them)."""
        assert self.user_id is not None
        return ActivityRecord(created_at=self.created_at, **self._values())

    def to_json(self) -> dict[str, Any]:
        """For a pending-charge record: the trace as JSON."""
        return {**self._values(), "created_at": self.created_at.isoformat()}

    @classmethod
    def from_json(cls, values: dict[str, Any]) -> ChatTrace:
        trace = cls(**{name: values[name] for name in _RECORDED if name in values})
        trace.created_at = datetime.fromisoformat(values["created_at"])
        return trace


# The record's values a trace holds, as they are named on both (``created_at`` aside, which
# JSON keeps as text).
_RECORDED = (
    "endpoint",
    "request_id",
    "user_id",
    "api_key_id",
    "model_requested",
    "model_answered",
    "persona_id",
    "stream",
    "status",
    "error_type",
    "error_code",
    "finish_reason",
    "latency_ms",
)


# Writes that must run to the end even when their request is cancelled.
_running: set[asyncio.Future[None]] = set()


def _write(trace: ChatTrace) -> None:
    try:
        record_activity(trace.record())
    except Exception:
        # The request was served; only its line in the activity log is lost.
        logger.exception("could not write the activity record of request %s", trace.request_id)


def _claim(trace: ChatTrace) -> bool:
    """True once for a trace with an owner and no record yet, which the caller then writes."""
    if trace.written or not trace.owned:
        return False
    trace.written = True
    if not trace.latency_ms:
        trace.stop()
    return True


def write_trace_now(trace: ChatTrace) -> None:
    """:func:`write_trace` for a sync caller (the playground's refusals). Never raises."""
    if _claim(trace):
        _write(trace)


async def write_trace(trace: ChatTrace, *, db: DbExecutor) -> None:
    """Write the record of a request that was not charged, once, if it has an owner.

    Shielded: a client that leaves meanwhile does not cancel the write. Never raises but the
    caller's own cancellation.
    """
    if not _claim(trace):
        return
    task = asyncio.ensure_future(db(_write)(trace))
    _running.add(task)
    task.add_done_callback(_running.discard)
    await asyncio.shield(task)
