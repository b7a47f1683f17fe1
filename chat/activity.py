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
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from billing.activity import RECORDED, ActivityTrace, claim, write_now
from core.asyncdb import DbExecutor

if TYPE_CHECKING:
    from personas.models import Persona

__all__ = ["ChatTrace", "write_trace"]


@dataclass
class ChatTrace(ActivityTrace):
    """An activity trace that reads a chat body and can travel with a pending charge."""

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

    def to_json(self) -> dict[str, Any]:
        """For a pending-charge record: the trace as JSON."""
        return {**self.values(), "created_at": self.created_at.isoformat()}

    @classmethod
    def from_json(cls, values: dict[str, Any]) -> ChatTrace:
        trace = cls(**{name: values[name] for name in RECORDED if name in values})
        trace.created_at = datetime.fromisoformat(values["created_at"])
        return trace


# Writes that must run to the end even when their request is cancelled.
_running: set[asyncio.Future[None]] = set()


async def write_trace(trace: ChatTrace, *, db: DbExecutor) -> None:
    """Write the record of a request that was not charged, once, if it has an owner.

    Shielded: a client that leaves meanwhile does not cancel the write. Never raises but the
    caller's own cancellation.
    """
    if not claim(trace):
        return
    task = asyncio.ensure_future(db(write_now)(trace))
    _running.add(task)
    task.add_done_callback(_running.discard)
    await asyncio.shield(task)
