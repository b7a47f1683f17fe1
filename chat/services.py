"""Chat completions: prepare (checks, prompt), generate (providers), finish (save + charge).

The views call :func:`prepare_chat` (sync, database), then a provider (async), then
:func:`finish_chat` (sync, one transaction). Contract §3 fixes the order of the checks:
401 and 429 happen in the view, then 400 (the serializer and :func:`prepare_chat`'s model
checks), then 404 (persona, conversation), then 402 (balance).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from billing.models import Hold
from billing.money import usage_cost
from billing.services import HoldSettled, charge_usage, place_hold, release_hold
from chat.cache import UNREAD, PersonaAccess, PersonaSnapshot, Unread, persona_for_chat
from conversations.models import Conversation, Message
from core.errors import InvalidRequest, NotFound
from core.text import (
    MESSAGE_OVERHEAD_TOKENS,
    REPLY_PRIMING_TOKENS,
    count_message_tokens,
    count_tokens,
    latest_user_text,
    storable_text,
)
from llm.catalog import ModelSpec, get_catalog
from llm.types import SAMPLING_FIELDS, GenerationRequest, Grounding, Usage
from personas.models import Persona

if TYPE_CHECKING:
    from accounts.models import ApiKey, User

PERSONA_MODES = (Conversation.Mode.AGENTS, Conversation.Mode.PERSONAL, Conversation.Mode.API_AGENTS)
GENERAL_MODES = (Conversation.Mode.CHAT, Conversation.Mode.API)
IMAGE_PLACEHOLDER = "[image]"


@dataclass
class ChatContext:
    """Everything decided before generation starts."""

    user: User
    api_key: ApiKey | None
    model: ModelSpec
    persona: Persona | None
    generation: GenerationRequest
    new_messages: list[dict[str, Any]]
    save: bool
    mode: str
    conversation: Conversation | None
    stored_system_prompt: str | None
    hold: Hold | None = None
    # The prompt's size in Nova's tokenizer, as checked against the context window.
    prompt_tokens: int = 0
    stream: bool = False
    include_usage: bool = False
    exclude_reasoning: bool = False
    completion_id: str = field(default_factory=lambda: "chatcmpl-" + secrets.token_urlsafe(18))
    created: int = field(default_factory=lambda: int(time.time()))


@dataclass(frozen=True)
class ChatOutcome:
    usage: Usage
    cost: Decimal
    conversation_id: int | None


def message_text(content: Any) -> str:
    """The text of a message as stored: image parts become placeholders (contract §11)."""
    if isinstance(content, str):
        return content
    pieces = []
    for part in content or []:
        if part.get("type") == "text":
            pieces.append(part.get("text", ""))
        elif part.get("type") == "image_url":
            pieces.append(IMAGE_PLACEHOLDER)
    return "\n".join(pieces)


def _has_images(messages: list[dict[str, Any]]) -> bool:
    return any(
        isinstance(m["content"], list) and any(p["type"] == "image_url" for p in m["content"])
        for m in messages
    )


def _check_vision(model: ModelSpec, messages: list[dict[str, Any]]) -> None:
    if not model.vision and _has_images(messages):
        raise InvalidRequest(f"The model '{model.id}' does not accept images.", param="messages")


def _resolve_model(model_id: str | None, persona: Persona | None) -> ModelSpec:
    catalog = get_catalog()
    chosen = model_id or (persona.default_model if persona else None)
    model = catalog.get(chosen) if chosen else None
    if model is None:
        raise InvalidRequest(f"The model '{chosen}' does not exist.", param="model")
    return model


def _continued_conversation(
    *, user: User, conversation_id: int, persona: Persona | None
) -> Conversation:
    """The caller's conversation of the right kind, else 404 (contract §6)."""
    modes = PERSONA_MODES if persona is not None else GENERAL_MODES
    conversation = (
        Conversation.objects.filter(pk=conversation_id, user=user, mode__in=modes)
        .only("id", "persona_id", "mode", "user_id")
        .first()
    )
    if conversation is None or (persona is not None and conversation.persona_id != persona.pk):
        raise NotFound(f"Conversation {conversation_id} not found.", param="conversation_id")
    return conversation


def _persona_system_message(persona: Persona, user: User, rendered: str) -> str:
    """What a conversation stores as its system message (contract §4 and §11).

    The persona's prompt and training data are secret to its owner: anyone else's
    conversation only names the persona.
    """
    if persona.owner_id is not None and persona.owner_id == user.pk:
        return rendered
    return f'Conversation with the persona "{persona.name}": {persona.description}'


def prepare_chat(
    *,
    user: User,
    api_key: ApiKey | None,
    data: dict[str, Any],
    save: bool,
    mode: str,
    persona_access: PersonaAccess | Unread | None = UNREAD,
) -> ChatContext:
    """Run the checks of contract §3 after body validation and build the model's input.

    Raises InvalidRequest (400: model, images, conversation_id without logging), NotFound
    (404: persona, conversation), InvalidRequest (400: context_length_exceeded) and
    InsufficientQuota (402, from the hold), in that order. ``persona_access`` is the persona's
    row when the caller already read it (with the key: one query fewer). The persona, its
    training data and its rendered prompt come from ``chat.cache``.
    """
    persona_id = data.get("persona_id")
    new_messages: list[dict[str, Any]] = data["messages"]
    explicit = _resolve_model(data["model"], None) if data.get("model") is not None else None
    if explicit is not None:
        _check_vision(explicit, new_messages)
    if "conversation_id" in data and not save:
        raise InvalidRequest(
            "conversation_id needs Detailed Logging: this key's chats are not saved.",
            param="conversation_id",
        )
    persona: Persona | None = None
    snapshot: PersonaSnapshot | None = None
    if persona_id is not None:
        persona, snapshot = persona_for_chat(user, persona_id, access=persona_access)
    model = explicit or _resolve_model(None, persona)
    _check_vision(model, new_messages)
    conversation = None
    if data.get("conversation_id") is not None:
        conversation = _continued_conversation(
            user=user, conversation_id=data["conversation_id"], persona=persona
        )
    history: list[dict[str, Any]] = []
    if conversation is not None:
        history = [
            {"role": role, "content": content}
            for role, content in Message.objects.filter(
                conversation=conversation, role__in=(Message.Role.USER, Message.Role.ASSISTANT)
            ).values_list("role", "content")
        ]
    system: list[dict[str, Any]] = []
    grounding: Grounding | None = None
    stored_system_prompt: str | None = None
    if persona is not None and snapshot is not None:
        prompt = snapshot.system_prompt(
            persona,
            context_window=model.context_window,
            latest=latest_user_text(new_messages),
        )
        system = [{"role": "system", "content": prompt}]
        owner = persona.owner_id is not None and persona.owner_id == user.pk
        grounding = snapshot.grounding if owner else snapshot.shared_grounding
        stored_system_prompt = _persona_system_message(persona, user, prompt)
    prompt_tokens = _prompt_tokens(model, snapshot, system, [*history, *new_messages])

    params = {name: data[name] for name in SAMPLING_FIELDS if name in data}
    if "temperature" not in params and persona is not None:
        params["temperature"] = persona.default_temperature
    reasoning = data.get("reasoning") or {}
    generation = GenerationRequest(
        model=model,
        messages=[*system, *history, *new_messages],
        params=params,
        grounding=grounding,
    )
    # Last, after every other check (contract §3: 402 comes after 400 and 404): hold the most
    # this request can cost, from its prompt and max_tokens or the rest of the context window.
    max_completion = model.context_window - prompt_tokens
    if data.get("max_tokens") is not None:
        max_completion = min(max_completion, data["max_tokens"])
    hold = place_hold(
        user=user,
        api_key=api_key,
        model_id=model.id,
        persona=persona,
        amount=usage_cost(model, prompt_tokens, max_completion),
    )
    return ChatContext(
        user=user,
        api_key=api_key,
        model=model,
        persona=persona,
        hold=hold,
        prompt_tokens=prompt_tokens,
        generation=generation,
        new_messages=new_messages,
        save=save,
        mode=mode,
        conversation=conversation,
        stored_system_prompt=stored_system_prompt,
        stream=bool(data.get("stream")),
        include_usage=bool((data.get("stream_options") or {}).get("include_usage")),
        exclude_reasoning=bool(reasoning.get("exclude")),
    )


# No tokenizer turns fewer than this many characters into one token but for runs of spaces: a
# prompt longer than this times the context window is refused before it is counted, so one
# request cannot keep a process busy tokenizing megabytes.
MAX_CHARS_PER_TOKEN = 16


def _context_exceeded(model: ModelSpec, tokens: int | None) -> InvalidRequest:
    counted = f" However, your messages resulted in {tokens} tokens." if tokens else ""
    return InvalidRequest(
        f"This model's maximum context length is {model.context_window} tokens.{counted} "
        "Please reduce the length of the messages.",
        param="messages",
        code="context_length_exceeded",
    )


def _prompt_tokens(
    model: ModelSpec,
    snapshot: PersonaSnapshot | None,
    system: list[dict[str, Any]],
    rest: list[dict[str, Any]],
) -> int:
    """The prompt's tokens; 400 ``context_length_exceeded`` when they leave no room for a reply.

    The persona's system prompt is counted once per rendering (``PersonaSnapshot``), the rest
    on every request, after a character bound that needs no tokenizer.
    """
    if sum(len(message_text(m["content"])) for m in rest) > (
        model.context_window * MAX_CHARS_PER_TOKEN
    ):
        raise _context_exceeded(model, None)
    tokens = count_message_tokens(rest) if rest else REPLY_PRIMING_TOKENS
    if system:
        prompt = system[0]["content"]
        tokens += MESSAGE_OVERHEAD_TOKENS + (
            snapshot.count_tokens(prompt) if snapshot is not None else count_tokens(prompt)
        )
    if tokens >= model.context_window:
        raise _context_exceeded(model, tokens)
    return tokens


def estimated_usage(ctx: ChatContext, completion_text: str) -> Usage:
    """Usage counted with Nova's tokenizer, for streams that ended before the provider said."""
    return Usage(
        prompt_tokens=ctx.prompt_tokens,
        completion_tokens=count_tokens(completion_text),
    )


def _title(messages: list[dict[str, Any]]) -> str:
    first = next((message_text(m["content"]) for m in messages if m["role"] == "user"), "")
    return " ".join(first.split())[:200]


def finish_chat(
    ctx: ChatContext,
    *,
    content: str,
    usage: Usage,
    completed: bool,
) -> ChatOutcome:
    """Save the turn (when logging) and charge its exact cost, in one transaction.

    `completed` is False when generation failed or the client left mid-stream; the partial
    reply is still saved and charged for what was generated. A request that produced no
    tokens is neither charged nor saved (contract §7).
    """
    if not completed and usage.completion_tokens == 0:
        if ctx.hold is not None:
            release_hold(ctx.hold)
        return ChatOutcome(usage=usage, cost=Decimal(0), conversation_id=None)
    cost = usage_cost(ctx.model, usage.prompt_tokens, usage.completion_tokens)
    conversation = ctx.conversation
    try:
        if ctx.save:
            with transaction.atomic():
                conversation = _save_turn(ctx, content=content, usage=usage)
                _charge(ctx, usage=usage, cost=cost, conversation=conversation)
        else:
            # Nothing else to write: charge_usage's own transaction is the whole step, without
            # the savepoint a nested block would cost (two round trips).
            _charge(ctx, usage=usage, cost=cost, conversation=conversation)
    except HoldSettled:
        # Already recorded (a retry that raced ``settle_holds``): charged once, saved once.
        ctx.conversation = conversation = None
        return ChatOutcome(usage=usage, cost=Decimal(0), conversation_id=None)
    return ChatOutcome(
        usage=usage, cost=cost, conversation_id=conversation.pk if conversation else None
    )


def _charge(
    ctx: ChatContext, *, usage: Usage, cost: Decimal, conversation: Conversation | None
) -> None:
    charge_usage(
        user=ctx.user,
        api_key=ctx.api_key,
        model_id=ctx.model.id,
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        cost=cost,
        persona=ctx.persona,
        conversation=conversation,
        hold=ctx.hold,
    )


def _save_turn(ctx: ChatContext, *, content: str, usage: Usage) -> Conversation:
    conversation = ctx.conversation
    rows: list[Message] = []
    if conversation is None:
        conversation = Conversation.objects.create(
            user=ctx.user,
            api_key=ctx.api_key,
            mode=ctx.mode,
            persona=ctx.persona,
            model_id=ctx.model.id,
            title=_title(ctx.new_messages),
        )
        ctx.conversation = conversation
        if ctx.stored_system_prompt is not None:
            rows.append(
                Message(conversation=conversation, role="system", content=ctx.stored_system_prompt)
            )
    else:
        Conversation.objects.filter(pk=conversation.pk).update(
            updated_at=timezone.now(), model_id=ctx.model.id
        )
    rows += [
        Message(conversation=conversation, role=m["role"], content=message_text(m["content"]))
        for m in ctx.new_messages
    ]
    rows.append(
        Message(
            conversation=conversation,
            role="assistant",
            content=storable_text(content),
            model=ctx.model.id,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
        )
    )
    Message.objects.bulk_create(rows)
    return conversation


def context_numbers(model: ModelSpec, usage: Usage) -> dict[str, int]:
    return {
        "context_total": model.context_window,
        "context_left": max(0, model.context_window - usage.total_tokens),
    }


def completion_body(
    ctx: ChatContext,
    *,
    content: str,
    reasoning: str | None,
    finish_reason: str,
    outcome: ChatOutcome,
) -> dict[str, Any]:
    """The non-streamed response: spec 2.3 plus contract §6."""
    usage = outcome.usage
    return {
        "id": ctx.completion_id,
        "object": "chat.completion",
        "created": ctx.created,
        "model": ctx.model.id,
        **context_numbers(ctx.model, usage),
        "persona": persona_summary(ctx.persona),
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": content,
                    "tool_calls": None,
                    "reasoning_content": None if ctx.exclude_reasoning else (reasoning or None),
                },
                "finish_reason": finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "total_tokens": usage.total_tokens,
        },
        "conversation_id": outcome.conversation_id,
    }


def persona_summary(persona: Persona | None) -> dict[str, Any] | None:
    if persona is None:
        return None
    return {"id": persona.pk, "name": persona.name, "description": persona.description}
