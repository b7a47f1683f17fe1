"""Recording a generated chat so that its charge survives whatever happens to the request.

Once tokens were generated they are owed, and the client may leave at any moment: a stream's
client that disconnects cancels the request while the stream's clean-up waits for a database
thread. :func:`record` therefore runs ``finish_chat`` as a task of its own that cancellation
does not reach (``asyncio.shield``), kept referenced until it is done.

When the database refuses the charge (it is down or restarting), the turn is written to a
*pending-charge record*, a JSON file under ``settings.PENDING_CHARGES_DIR``, and retried in the
background until it lands. A process that dies before then leaves the file and the request's
hold (``billing.models.Hold``) behind; ``manage.py settle_holds`` (run at start-up by
``scripts/run_cluster.sh``) charges from the files and releases any other hold left open. A
record names its hold, and charging deletes the hold in the same transaction, so a request is
charged exactly once however often its record is replayed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction

from billing.models import Hold
from billing.services import release_hold
from chat.services import ChatContext, ChatOutcome, finish_chat, message_text
from core.asyncdb import run_db
from llm.catalog import get_catalog
from llm.types import GenerationRequest, Usage

__all__ = ["pending_records", "record", "release", "replay_record"]

logger = logging.getLogger(__name__)

RETRY_FIRST_SECONDS = 1.0
RETRY_MAX_SECONDS = 30.0

# Tasks that must run to the end even when their request is cancelled.
_running: set[asyncio.Future[Any]] = set()


def _keep(future: asyncio.Future[Any]) -> asyncio.Future[Any]:
    _running.add(future)
    future.add_done_callback(_running.discard)
    return future


async def record(
    ctx: ChatContext, *, content: str, usage: Usage, completed: bool, pooled: bool
) -> ChatOutcome:
    """``finish_chat`` (save and charge), shielded from the caller's cancellation.

    Raises what ``finish_chat`` raised when the database failed, after keeping the turn in a
    pending-charge record that is retried in the background.
    """
    task = _keep(asyncio.ensure_future(_record(ctx, content, usage, completed, pooled)))
    return await asyncio.shield(task)


async def _record(
    ctx: ChatContext, content: str, usage: Usage, completed: bool, pooled: bool
) -> ChatOutcome:
    try:
        return await run_db(finish_chat, pooled=pooled)(
            ctx, content=content, usage=usage, completed=completed
        )
    except Exception:
        if ctx.hold is None:
            raise
        path = _write_record(ctx, content=content, usage=usage, completed=completed)
        logger.exception("could not record a chat: kept in %s and retried", path)
        _keep(asyncio.ensure_future(_retry(path, pooled)))
        raise


async def release(ctx: ChatContext, *, pooled: bool) -> None:
    """Give back the hold of a request that generated nothing, shielded like :func:`record`."""
    hold = ctx.hold
    if hold is None:
        return
    task = _keep(asyncio.ensure_future(run_db(release_hold, pooled=pooled)(hold)))
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        raise
    except Exception:
        # Left open: settle_holds releases it later.
        logger.exception("could not release hold %s", hold.pk)


async def _retry(path: Path, pooled: bool) -> None:
    delay = RETRY_FIRST_SECONDS
    while True:
        await asyncio.sleep(delay)
        try:
            await run_db(replay_record, pooled=pooled)(path)
        except Exception as exc:
            logger.info("pending charge %s not recorded yet: %s", path.name, exc)
            delay = min(delay * 2, RETRY_MAX_SECONDS)
            continue
        logger.warning("pending charge %s recorded", path.name)
        return


# --- Pending-charge records ---


def _directory() -> Path:
    path = Path(settings.PENDING_CHARGES_DIR)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _write_record(ctx: ChatContext, *, content: str, usage: Usage, completed: bool) -> Path:
    assert ctx.hold is not None
    data = {
        "hold_id": ctx.hold.pk,
        "hold_amount": str(ctx.hold.amount),
        "user_id": ctx.user.pk,
        "api_key_id": ctx.api_key.pk if ctx.api_key is not None else None,
        "model_id": ctx.model.id,
        "persona_id": ctx.persona.pk if ctx.persona is not None else None,
        "conversation_id": ctx.conversation.pk if ctx.conversation is not None else None,
        "save": ctx.save,
        "mode": ctx.mode,
        "stored_system_prompt": ctx.stored_system_prompt,
        "new_messages": [
            {"role": m["role"], "content": message_text(m["content"])} for m in ctx.new_messages
        ],
        "content": content,
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "completed": completed,
    }
    directory = _directory()
    path = directory / f"hold-{ctx.hold.pk}-{secrets.token_hex(4)}.json"
    temporary = path.with_suffix(".tmp")
    with temporary.open("w", encoding="utf-8") as handle:
        # Lone surrogates (unstorable anyway) are escaped by json, never a write error.
        json.dump(data, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
    return path


def pending_records() -> list[Path]:
    return sorted(_directory().glob("hold-*.json"))


def replay_record(path: Path) -> bool:
    """Record the chat a pending-charge file describes, then delete the file.

    True when it was charged now, False when it had been already (its hold was gone). Raises
    when the database still fails; the file stays for the next attempt.
    """
    from accounts.models import ApiKey, User
    from conversations.models import Conversation
    from personas.models import Persona

    data = json.loads(path.read_text(encoding="utf-8"))
    model = get_catalog().get(data["model_id"])
    if model is None:
        raise LookupError(f"model {data['model_id']!r} is no longer in the catalog")
    user = User.objects.get(pk=data["user_id"])
    hold = Hold(pk=data["hold_id"], user=user, amount=Decimal(data["hold_amount"]))
    ctx = ChatContext(
        user=user,
        api_key=ApiKey.objects.filter(pk=data["api_key_id"]).first(),
        model=model,
        persona=Persona.objects.filter(pk=data["persona_id"]).first(),
        generation=GenerationRequest(model=model, messages=[], params={}),
        new_messages=data["new_messages"],
        save=data["save"],
        mode=data["mode"],
        conversation=Conversation.objects.filter(pk=data["conversation_id"]).first(),
        stored_system_prompt=data["stored_system_prompt"],
        hold=hold,
    )
    with transaction.atomic():
        charged = Hold.objects.filter(pk=hold.pk).exists()
        if charged:
            finish_chat(
                ctx,
                content=data["content"],
                usage=Usage(data["prompt_tokens"], data["completion_tokens"]),
                completed=data["completed"],
            )
    path.unlink(missing_ok=True)
    return charged
