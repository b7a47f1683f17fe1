"""The activity record of one API request, followed from its start (docs/billing.md,
"Activity log").

An :class:`ActivityTrace` is begun when a request arrives, learns whose it is once its key is
known (``identify``), what it asked for and how it ended, and becomes one
:class:`~billing.models.ActivityRecord`. Chat requests use ``chat.activity.ChatTrace``, which
adds what a chat body says and how a charged chat writes its record with the charge;
moderation requests, which are not charged, use this class and :func:`write_trace_now`.

A request without a valid key has no owner and no record. Nothing of the content is kept.
Failing to write a record is logged and never changes the response.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Self

from django.utils import timezone

from billing.models import ActivityRecord
from billing.services import record_activity
from core.errors import answered_error
from core.requestid import request_id_of

if TYPE_CHECKING:
    from django.http import HttpRequest

    from accounts.models import ApiKey, User

__all__ = ["CLIENT_CLOSED", "ActivityTrace", "claim", "write_now", "write_trace_now"]

logger = logging.getLogger(__name__)

# The status of a request whose client left before its response ended (as nginx logs it).
CLIENT_CLOSED = 499
CLIENT_CLOSED_CODE = "client_closed_request"


@dataclass
class ActivityTrace:
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
    # Set by a request that is not charged (moderation); a charge sets them from its usage.
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # Set once the record is written, or handed to a write that will be (a charge, or its
    # pending-charge record): a request has one record.
    written: bool = False

    @classmethod
    def begin(cls, endpoint: str, request: HttpRequest | None = None) -> Self:
        """The trace of ``request``, with the id of its ``X-Request-Id`` response header
        (``core.middleware.RequestIdMiddleware``)."""
        return cls(endpoint=endpoint, request_id=request_id_of(request))

    def identify(self, *, user: User, api_key: ApiKey | None) -> None:
        self.user_id = user.pk
        self.api_key_id = api_key.pk if api_key is not None else None

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

    def values(self) -> dict[str, Any]:
        """The record's values, named as on the record (``created_at`` aside)."""
        return {name: getattr(self, name) for name in RECORDED}

    def record(self) -> ActivityRecord:
        """The unsaved record (a charge sets its tokens and cost)."""
        assert self.user_id is not None
        return ActivityRecord(created_at=self.created_at, **self.values())


# The record's values a trace holds.
RECORDED = (
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
    "prompt_tokens",
    "completion_tokens",
)


def write_now(trace: ActivityTrace) -> None:
    """Write ``trace``'s record. Never raises: the request was served, only its line in the
    activity log would be lost."""
    try:
        record_activity(trace.record())
    except Exception:
        logger.exception("could not write the activity record of request %s", trace.request_id)


def claim(trace: ActivityTrace) -> bool:
    """True once for a trace with an owner and no record yet, which the caller then writes."""
    if trace.written or not trace.owned:
        return False
    trace.written = True
    if not trace.latency_ms:
        trace.stop()
    return True


def write_trace_now(trace: ActivityTrace) -> None:
    """Write the record of a request that was not charged, once, if it has an owner. Never
    raises."""
    if claim(trace):
        write_now(trace)
