"""The chat pipeline: admit -> prepare -> generate -> finish, for every way in.

One module, one code path. Each entry point differs only in I/O and says how database work
runs (``db``, a :data:`core.asyncdb.DbExecutor`):

* ``chat.gateway`` (daphne, production) serves the API's POSTs on the event loop, its database
  work on ``core.asyncdb.on_db_threads``;
* ``chat.api`` (the same URLs through Django: the test client, a server without the gateway)
  runs the same :func:`serve`, its database work in the caller's thread;
* ``chat.views.playground_chat`` (the dashboard) prepares from its own form of request and
  streams through :func:`sse_response`.

The steps, in the order of docs/api.md, Errors (401, 429, 400, 404, 402):

1. **admit** (:func:`admit`, sync): the key (401), its rate limit (429), the body (400);
2. **prepare** (:func:`prepare_chat`, sync): model and images (400), persona and conversation
   (404), the context window (400), the credit hold (402); the model's input;
3. **generate** (:func:`complete`, :func:`stream_chunks`, async): the provider of ``llm``;
4. **finish** (:func:`finish_chat`, sync, one transaction, run through :func:`_settle` so it
   survives the client leaving and the database failing): the turn saved by ``conversations``
   when the key logs, the exact cost charged by ``billing``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import time
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from rest_framework import exceptions as drf_exceptions
from rest_framework.request import Request

from accounts.auth import Alongside, authenticate_key_with, parse_bearer, touch_last_used
from accounts.models import ApiKey, User
from billing.models import ActivityRecord, Hold
from billing.money import money_string, usage_cost
from billing.services import HoldSettled, charge_usage, place_hold, release_hold
from chat.activity import ChatTrace, write_trace
from chat.cache import UNREAD, PersonaAccess, PersonaSnapshot, Unread, persona_for_chat
from chat.guard import (
    CONTENT_FILTER,
    ChatGuard,
    StreamGuard,
    chat_guard,
    check_input,
    check_reply,
    record_findings,
)
from chat.serializers import ChatCompletionRequestSerializer, requested_persona_id
from conversations.models import Conversation
from conversations.selectors import continued_conversation, conversation_history
from conversations.services import record_turn
from conversations.text import message_text
from core.asyncdb import DbExecutor
from core.errors import (
    SERVER_ERROR_MESSAGE,
    ApiError,
    AuthenticationError,
    InvalidRequest,
    ServerError,
    known_error,
)
from core.ids import parse_id
from core.parsers import BoundedJSONParser
from core.ratelimit import enforce
from core.text import (
    MESSAGE_OVERHEAD_TOKENS,
    REPLY_PRIMING_TOKENS,
    count_message_tokens,
    count_tokens,
    latest_user_text,
)
from llm import router
from llm.capabilities import check_capabilities
from llm.catalog import ModelSpec, get_catalog
from llm.types import (
    PASSTHROUGH_FIELDS,
    Choice,
    Delta,
    Finish,
    GenerationRequest,
    Grounding,
    Usage,
)
from personas.models import Persona

logger = logging.getLogger(__name__)

__all__ = [
    "ChatContext",
    "ChatOutcome",
    "admit",
    "complete",
    "finish_chat",
    "pending_records",
    "prepare_chat",
    "replay_record",
    "serve",
    "sse_response",
    "stream_chunks",
]


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
    # How many choices the request asked for (``n``).
    choices: int = 1
    include_usage: bool = False
    exclude_reasoning: bool = False
    # The chat guard (chat.guard), None when neither the key nor the persona asks for it.
    guard: ChatGuard | None = None
    # The request's activity record to be (chat.activity); None for a replayed charge of a
    # process that kept none.
    trace: ChatTrace | None = None
    # How the request was settled (saved and charged), once it was (finish_chat).
    outcome: ChatOutcome | None = None
    completion_id: str = field(default_factory=lambda: "chatcmpl-" + secrets.token_urlsafe(18))
    created: int = field(default_factory=lambda: int(time.time()))


@dataclass(frozen=True)
class ChatOutcome:
    usage: Usage
    cost: Decimal
    conversation_id: int | None
    # The saved reply (None when nothing was saved).
    message_id: int | None = None


# --- Serving a request ---


async def serve(
    request: HttpRequest, *, persona_required: bool, db: DbExecutor, committed: bool
) -> HttpResponseBase:
    """A chat-completion POST: the JSON completion, or the event stream when asked.

    A stream's first chunk waits for the provider's first event, so a provider that fails at
    once raises its ApiError (502/504) from the first ``anext`` of the body. ``committed``
    says whether the entry point has sent its status line by then: if not (``chat.gateway``
    waits for the first chunk) it answers the error as JSON; if so (Django's handler) the error
    becomes the stream's error event (:func:`errors_as_events`).
    """
    endpoint = ActivityRecord.Endpoint.AGENTS if persona_required else ActivityRecord.Endpoint.CHAT
    trace = ChatTrace.begin(endpoint, request)
    try:
        ctx = await db(admit)(request, persona_required=persona_required, trace=trace)
        if ctx.stream:
            # The stream records itself, however it ends (stream_chunks).
            return sse_response(ctx, db=db, committed=committed)
        body = await complete(ctx, db=db)
    except BaseException as exc:
        # Refused, failed or left before a response: recorded here unless its charge did.
        trace.fail(exc)
        await write_trace(trace, db=db)
        raise
    # Compact UTF-8 JSON, the bytes DRF's JSONRenderer writes for the rest of the API.
    content = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return HttpResponse(content.encode(), content_type="application/json")


# --- 1. Admit ---


def _request_data(request: HttpRequest) -> Any:
    """The JSON body, parsed by the API's parser: the same 400 (invalid_json) and 415."""
    try:
        return Request(request, parsers=[BoundedJSONParser()]).data
    except drf_exceptions.APIException as exc:
        raise known_error(exc) or exc from None


def admit(
    request: HttpRequest, *, persona_required: bool, trace: ChatTrace | None = None
) -> ChatContext:
    """Everything before generation, in the order 401, 429, 400, 404, 402, in one call so an
    async request crosses to a database thread once. ``trace`` learns whose request it is as
    soon as the key is known, then what it asked for.

    The body is parsed before the key is read so that the persona's row (visibility, revision)
    is read in the key's own query; its errors are still raised after the 401 and the 429.
    """
    raw_key = parse_bearer(request.META.get("HTTP_AUTHORIZATION"))
    if raw_key is None:
        raise AuthenticationError(
            "Missing API key: send it as 'Authorization: Bearer sk-...'.", code="missing_api_key"
        )
    body_error: ApiError | None = None
    try:
        body = _request_data(request)
    except ApiError as exc:
        body, body_error = None, exc
    # persona_id, or a model "persona/<id>": either way the persona's row comes with the key.
    persona_pk = requested_persona_id(body)
    read = authenticate_key_with(
        raw_key,
        alongside=Alongside(Persona, persona_pk, PersonaAccess.FIELDS)
        if persona_pk is not None
        else None,
    )
    key = read.key
    if trace is not None:
        trace.identify(user=key.user, api_key=key)
        trace.asked(body)
    touch_last_used(key)
    enforce(request, key_id=key.pk, limit=key.rpm_limit)
    if body_error is not None:
        raise body_error
    serializer = ChatCompletionRequestSerializer(data=body, persona_required=persona_required)
    try:
        serializer.is_valid(raise_exception=True)
    except drf_exceptions.ValidationError as exc:
        raise known_error(exc) or exc from None
    data = serializer.validated_data
    access: PersonaAccess | Unread | None = UNREAD
    if persona_pk is not None and parse_id(data.get("persona_id")) == persona_pk:
        access = PersonaAccess(*read.alongside) if read.alongside is not None else None
    return prepare_chat(
        user=key.user,
        api_key=key,
        data=data,
        save=key.detailed_logging,
        mode=Conversation.Mode.API_AGENTS if "persona_id" in data else Conversation.Mode.API,
        persona_access=access,
        trace=trace,
    )


# --- 2. Prepare ---


def _check_model(model: ModelSpec, data: dict[str, Any]) -> None:
    """Refuse what ``model`` cannot do rather than send the request without it (400 naming
    the param; the router skips a fallback with the same check)."""
    check_capabilities(model, messages=data["messages"], params=data)


def _resolve_model(model_id: str | None, persona: Persona | None) -> ModelSpec:
    catalog = get_catalog()
    chosen = model_id or (persona.default_model if persona else None)
    model = catalog.get(chosen) if chosen else None
    if model is None:
        raise InvalidRequest(f"The model '{chosen}' does not exist.", param="model")
    return model


def _persona_system_message(persona: Persona, user: User, rendered: str) -> str:
    """What a conversation stores as its system message (docs/personas.md, Secrecy).

    The persona's prompt and training data are secret to its owner: anyone else's
    conversation only names the persona.
    """
    if persona.is_owned_by(user.pk):
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
    trace: ChatTrace | None = None,
) -> ChatContext:
    """Run the checks that follow body validation and build the model's input.

    Raises InvalidRequest (400: model, images, conversation_id without logging), NotFound
    (404: persona, conversation), InvalidRequest (400: context_length_exceeded) and
    InsufficientQuota (402, from the hold), in that order. ``persona_access`` is the persona's
    row when the caller already read it (with the key: one query fewer). The persona, its
    training data and its rendered prompt come from ``chat.cache``. ``trace`` learns the
    persona and the model as they are found, so a later refusal is recorded with them.
    """
    persona_id = data.get("persona_id")
    new_messages: list[dict[str, Any]] = data["messages"]
    explicit = _resolve_model(data["model"], None) if data.get("model") is not None else None
    if explicit is not None:
        _check_model(explicit, data)
    if "conversation_id" in data and not save:
        raise InvalidRequest(
            "conversation_id needs Detailed Logging: this key's chats are not saved.",
            param="conversation_id",
        )
    persona: Persona | None = None
    snapshot: PersonaSnapshot | None = None
    if persona_id is not None:
        persona, snapshot = persona_for_chat(user, persona_id, access=persona_access)
        if trace is not None:
            trace.chose(persona=persona)
    model = explicit or _resolve_model(None, persona)
    if trace is not None:
        trace.chose(model_id=model.id)
    _check_model(model, data)
    conversation = None
    history: list[dict[str, Any]] = []
    if data.get("conversation_id") is not None:
        conversation = continued_conversation(
            user=user,
            conversation_id=data["conversation_id"],
            persona_id=persona.pk if persona is not None else None,
        )
        history = conversation_history(conversation)
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
        grounding = (
            snapshot.grounding if persona.is_owned_by(user.pk) else snapshot.shared_grounding
        )
        stored_system_prompt = _persona_system_message(persona, user, prompt)
    prompt_tokens = _prompt_tokens(model, snapshot, system, [*history, *new_messages], data)
    # The input guard: after every 400 and 404, before the hold (a blocked message is a 400
    # that places no hold, generates nothing and charges nothing).
    guard = chat_guard(user, api_key, persona)
    if guard is not None and guard.input:
        check_input(guard, new_messages, conversation=conversation)

    params = {name: data[name] for name in PASSTHROUGH_FIELDS if name in data}
    if "temperature" not in params and persona is not None:
        params["temperature"] = persona.default_temperature
    reasoning = data.get("reasoning") or {}
    generation = GenerationRequest(
        model=model,
        messages=[*system, *history, *new_messages],
        params=params,
        grounding=grounding,
        prompt_tokens=prompt_tokens,
    )
    # Last, after every other check (a 402 comes after any 400 and 404): hold the most
    # this request can cost.
    hold = place_hold(
        user=user,
        api_key=api_key,
        model_id=model.id,
        persona=persona,
        amount=most_it_can_cost(
            generation,
            limit=data.get("max_tokens", data.get("max_completion_tokens")),
            choices=data.get("n", 1),
        ),
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
        choices=data.get("n", 1),
        include_usage=bool((data.get("stream_options") or {}).get("include_usage")),
        exclude_reasoning=bool(reasoning.get("exclude")),
        guard=guard,
        trace=trace,
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


def _tool_text(messages: list[dict[str, Any]], data: dict[str, Any]) -> str:
    """What the prompt holds beyond the messages' content: the tools' definitions and the
    calls of earlier assistant messages, as the JSON the model is sent."""
    pieces = [json.dumps(data["tools"])] if data.get("tools") else []
    pieces += [json.dumps(m["tool_calls"]) for m in messages if m.get("tool_calls")]
    return "\n".join(pieces)


def _prompt_tokens(
    model: ModelSpec,
    snapshot: PersonaSnapshot | None,
    system: list[dict[str, Any]],
    rest: list[dict[str, Any]],
    data: dict[str, Any],
) -> int:
    """The prompt's tokens; 400 ``context_length_exceeded`` when they leave no room for a reply.

    The persona's system prompt is counted once per rendering (``PersonaSnapshot``), the rest
    on every request, after a character bound that needs no tokenizer. Tool definitions and
    earlier tool calls count as text.
    """
    tool_text = _tool_text(rest, data)
    if len(tool_text) + sum(len(message_text(m.get("content"))) for m in rest) > (
        model.context_window * MAX_CHARS_PER_TOKEN
    ):
        raise _context_exceeded(model, None)
    tokens = count_message_tokens(rest) if rest else REPLY_PRIMING_TOKENS
    if tool_text:
        tokens += count_tokens(tool_text)
    if system:
        prompt = system[0]["content"]
        tokens += MESSAGE_OVERHEAD_TOKENS + (
            snapshot.count_tokens(prompt) if snapshot is not None else count_tokens(prompt)
        )
    if tokens >= model.context_window:
        raise _context_exceeded(model, tokens)
    return tokens


def most_it_can_cost(generation: GenerationRequest, *, limit: int | None, choices: int) -> Decimal:
    """The hold for a generation: its prompt and max_tokens (or max_completion_tokens), or the
    rest of the context window, for each of its ``choices``, at the prices of the dearest model
    that may answer it (the requested one or a fallback the router would try), so that the
    charge never exceeds the hold whichever model answers."""
    prompt_tokens = generation.prompt_tokens or 0
    costs = []
    for model in router.candidates(generation):
        completion = max(model.context_window - prompt_tokens, 0)
        if limit is not None:
            completion = min(completion, limit)
        costs.append(usage_cost(model, prompt_tokens, completion * choices))
    return max(costs)


# --- 3. Generate ---


async def complete(ctx: ChatContext, *, db: DbExecutor) -> dict[str, Any]:
    """Generate a whole reply on the running loop, then finish it (save and charge) through
    ``db``. A provider error charges nothing and gives the hold back."""
    try:
        completion = await router.complete(ctx.generation)
    except BaseException:
        await _release(ctx, db=db)
        raise
    if completion.model is not None:
        # A fallback model answered: it is named in the response and sets the price.
        ctx.model = completion.model
    if ctx.guard is not None and ctx.guard.output:
        # Every choice is read whole; a blocked one keeps the text before its blocked window.
        try:
            for choice in completion.choices:
                await check_reply(ctx.guard, choice)
        except BaseException as exc:
            # The tokens were generated: charged, with nothing of the reply saved or sent.
            _traced(ctx, error=exc)
            await _settle(ctx, content="", usage=completion.usage, completed=False, db=db)
            raise
    # With n > 1 the first choice is the reply saved; usage covers every choice.
    first = completion.choices[0]
    _traced(ctx, finish_reason=first.finish_reason or "")
    outcome = await _settle(
        ctx,
        content=completion.content,
        tool_calls=first.tool_calls or None,
        usage=completion.usage,
        completed=True,
        db=db,
    )
    return completion_body(ctx, choices=completion.choices, outcome=outcome)


DONE = b"data: [DONE]\n\n"


def _event(payload: Any) -> bytes:
    return b"data: " + json.dumps(payload, separators=(",", ":")).encode() + b"\n\n"


def _chunk(
    ctx: ChatContext,
    delta: dict[str, Any],
    finish_reason: str | None,
    *,
    index: int = 0,
    logprobs: dict[str, Any] | None = None,
) -> dict[str, Any]:
    choice: dict[str, Any] = {"index": index, "delta": delta}
    if logprobs is not None:
        choice["logprobs"] = logprobs
    choice["finish_reason"] = finish_reason
    return {
        "id": ctx.completion_id,
        "object": "chat.completion.chunk",
        "created": ctx.created,
        "model": ctx.model.id,
        "choices": [choice],
    }


class _StreamedChoice:
    """What one choice of a stream produced so far: its text and its tool calls, assembled
    from the fragments (OpenAI sends a call's id and name once, its arguments in pieces)."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.calls: dict[int, dict[str, Any]] = {}

    def add(self, delta: Delta) -> None:
        if delta.content:
            self.parts.append(delta.content)
        for fragment in delta.tool_calls or ():
            if not isinstance(fragment, dict):
                continue
            position = fragment.get("index")
            key = position if isinstance(position, int) else len(self.calls)
            call = self.calls.setdefault(
                key, {"id": "", "type": "function", "function": {"name": "", "arguments": ""}}
            )
            if isinstance(fragment.get("id"), str):
                call["id"] = fragment["id"]
            function = fragment.get("function")
            if isinstance(function, dict):
                if isinstance(function.get("name"), str):
                    call["function"]["name"] += function["name"]
                if isinstance(function.get("arguments"), str):
                    call["function"]["arguments"] += function["arguments"]

    @property
    def text(self) -> str:
        return "".join(self.parts)

    @property
    def tool_calls(self) -> list[dict[str, Any]] | None:
        return [self.calls[key] for key in sorted(self.calls)] or None

    @property
    def generated(self) -> str:
        """Everything the model wrote in this choice: its text and its calls."""
        calls = [
            call["function"]["name"] + call["function"]["arguments"] for call in self.calls.values()
        ]
        return "\n".join([self.text, *calls])


async def stream_chunks(ctx: ChatContext, *, db: DbExecutor) -> AsyncGenerator[bytes, None]:
    """The event stream of a chat, as SSE bytes; nothing is held per stream but this generator.

    The first chunk (the assistant's role) waits for the provider's first event: a provider
    that fails before sending anything raises its ApiError from the first ``anext``, nothing
    generated, nothing charged, the hold given back. From then on, whatever happens (success,
    provider failure, the client leaving), what was generated is saved and charged exactly
    once, in ``finally``, shielded from the request's cancellation (:func:`_settle`).
    """
    try:
        opened = await router.open_stream(ctx.generation)
    except BaseException as exc:
        await _release(ctx, db=db)
        failure = ServerError(SERVER_ERROR_MESSAGE) if isinstance(exc, StopAsyncIteration) else exc
        if ctx.trace is not None:
            ctx.trace.fail(failure)
            await write_trace(ctx.trace, db=db)
        if failure is not exc:
            raise failure from None
        raise
    # A fallback model may be answering: it names the chunks and sets the price.
    ctx.model = opened.model
    streamed: dict[int, _StreamedChoice] = {}
    # The output guard holds each choice's text until its window is moderated (chat.guard).
    guarded = (
        StreamGuard(ctx.guard, choices=ctx.choices)
        if ctx.guard is not None and ctx.guard.output
        else None
    )
    finish: Finish | None = None
    error: ApiError | None = None
    outcome: ChatOutcome | None = None
    left = False
    try:
        # Entered before the first yield: a client gone at the role chunk still closes the
        # provider's stream (and the router's in-flight count) and gives the hold back.
        async with aclosing(opened.events) as events:  # type: ignore[type-var]
            # One role chunk per choice, as OpenAI sends them.
            for index in range(ctx.choices):
                yield _event(_chunk(ctx, {"role": "assistant", "content": ""}, None, index=index))
            async for event in events:
                if isinstance(event, Finish):
                    finish = event
                    continue
                streamed.setdefault(event.index, _StreamedChoice()).add(event)
                delta: dict[str, Any] = {}
                if event.content:
                    delta["content"] = event.content
                if event.reasoning and not ctx.exclude_reasoning:
                    delta["reasoning_content"] = event.reasoning
                if event.tool_calls:
                    # Relayed as the provider sent them, each fragment with its index.
                    delta["tool_calls"] = event.tool_calls
                if guarded is not None:
                    chunk = (
                        _chunk(ctx, delta, None, index=event.index, logprobs=event.logprobs)
                        if delta or event.logprobs is not None
                        else None
                    )
                    for released in await guarded.feed(event.index, event.content, chunk):
                        yield _event(released)
                    if guarded.all_blocked:
                        break  # leaving the block closes the provider's stream
                    continue
                if delta or event.logprobs is not None:
                    yield _event(
                        _chunk(ctx, delta, None, index=event.index, logprobs=event.logprobs)
                    )
            if guarded is not None and not guarded.all_blocked:
                # The final check: whatever each choice still holds.
                for released in await guarded.finish():
                    yield _event(released)
    except ApiError as exc:
        error = exc
    except (GeneratorExit, asyncio.CancelledError):
        left = True  # the client closed the connection
        raise
    finally:
        first = streamed.get(0, _StreamedChoice())
        # What the client received is what is saved: a guarded choice's released text.
        content = first.text if guarded is None else guarded.text(0)
        filtered = guarded.blocked if guarded is not None else frozenset()
        usage = (
            finish.usage
            if finish is not None
            else estimated_usage(ctx, *(choice.generated for choice in streamed.values()))
        )
        ended_by_guard = guarded is not None and guarded.all_blocked
        if left:
            _traced(ctx, left=True)
        elif error is not None or (finish is None and not ended_by_guard):
            _traced(ctx, error=error or ServerError(SERVER_ERROR_MESSAGE))
        else:
            reason = finish.finish_reason if finish is not None else CONTENT_FILTER
            _traced(ctx, finish_reason=CONTENT_FILTER if 0 in filtered else reason)
        try:
            outcome = await _settle(
                ctx,
                content=content,
                # A blocked choice's calls would carry what came after its blocked window.
                tool_calls=None if 0 in filtered else first.tool_calls,
                usage=usage,
                completed=finish is not None and error is None,
                db=db,
            )
        except Exception:
            logger.exception("could not record a streamed chat")
            error = error or ServerError(SERVER_ERROR_MESSAGE)
        if ctx.trace is not None:
            # Nothing was charged (nothing generated): the record is written on its own.
            await write_trace(ctx.trace, db=db)
    # A stream the guard stopped has no Finish of the provider's: it ended as asked.
    if error is not None or (finish is None and not ended_by_guard) or outcome is None:
        failure = error or ServerError(SERVER_ERROR_MESSAGE)
        yield _event(failure.envelope())
        yield DONE
        return
    default_reason = finish.finish_reason if finish is not None else CONTENT_FILTER
    reasons: dict[int, str] = (
        dict(finish.finish_reasons or {0: finish.finish_reason}) if finish is not None else {}
    )
    reasons.update(dict.fromkeys(filtered, CONTENT_FILTER))
    indexes = sorted(set(range(ctx.choices)) | set(reasons))
    for position, index in enumerate(indexes):
        last = _chunk(ctx, {}, reasons.get(index, default_reason), index=index)
        if position == len(indexes) - 1:
            last["conversation_id"] = outcome.conversation_id
        yield _event(last)
    if ctx.include_usage:
        usage_chunk = _chunk(ctx, {}, None)
        usage_chunk["choices"] = []
        usage_chunk["usage"] = usage_body(outcome)
        usage_chunk.update(context_numbers(ctx.model, outcome.usage))
        usage_chunk["conversation_id"] = outcome.conversation_id
        yield _event(usage_chunk)
    yield DONE


async def errors_as_events(ctx: ChatContext, chunks: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """For an entry point whose 200 is already committed when the body starts (Django's
    handler): an error raised before the first chunk is sent as the stream's error event."""
    async with aclosing(chunks) as body:  # type: ignore[type-var]
        try:
            first = await anext(body)
        except StopAsyncIteration:
            return
        except ApiError as exc:
            yield _event(_chunk(ctx, {"role": "assistant", "content": ""}, None))
            yield _event(exc.envelope())
            yield DONE
            return
        yield first
        async for chunk in body:
            yield chunk


def sse_response(ctx: ChatContext, *, db: DbExecutor, committed: bool) -> StreamingHttpResponse:
    """The event-stream response of :func:`stream_chunks`. ``committed``: the entry point
    sends its headers before the body starts (see :func:`errors_as_events`)."""
    chunks = stream_chunks(ctx, db=db)
    response = StreamingHttpResponse(
        errors_as_events(ctx, chunks) if committed else chunks, content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass events through as they come
    return response


# --- 4. Finish ---


def estimated_usage(ctx: ChatContext, *completions: str) -> Usage:
    """Usage counted with Nova's tokenizer, for streams that ended before the provider said:
    ``completions`` is what each choice generated (its text and its tool calls)."""
    return Usage(
        prompt_tokens=ctx.prompt_tokens,
        completion_tokens=sum(count_tokens(text) for text in completions),
    )


def finish_chat(
    ctx: ChatContext,
    *,
    content: str,
    usage: Usage,
    completed: bool,
    tool_calls: list[dict[str, Any]] | None = None,
) -> ChatOutcome:
    """Save the turn (when logging) and charge its exact cost, in one transaction.

    `completed` is False when generation failed or the client left mid-stream; the partial
    reply is still saved and charged for what was generated. A request that produced no
    tokens is neither charged nor saved (docs/billing.md). ``tool_calls``: the reply's calls
    of the request's tools, saved with it.
    """
    if not completed and usage.completion_tokens == 0:
        if ctx.hold is not None:
            release_hold(ctx.hold)
        _record_guard_findings(ctx, ctx.conversation)
        return ChatOutcome(usage=usage, cost=Decimal(0), conversation_id=None)
    cost = usage_cost(ctx.model, usage.prompt_tokens, usage.completion_tokens)
    conversation = ctx.conversation
    message_id: int | None = None
    try:
        if ctx.save:
            with transaction.atomic():
                conversation, reply_message = record_turn(
                    user=ctx.user,
                    api_key=ctx.api_key,
                    conversation=ctx.conversation,
                    mode=ctx.mode,
                    persona=ctx.persona,
                    model_id=ctx.model.id,
                    new_messages=ctx.new_messages,
                    system_prompt=ctx.stored_system_prompt,
                    reply=content,
                    reply_tool_calls=tool_calls or None,
                    prompt_tokens=usage.prompt_tokens,
                    completion_tokens=usage.completion_tokens,
                )
                _charge(ctx, usage=usage, cost=cost, conversation=conversation)
                _record_guard_findings(ctx, conversation)
            message_id = reply_message.pk
        else:
            # Nothing else to write: charge_usage's own transaction is the whole step, without
            # the savepoint a nested block would cost (two round trips).
            _charge(ctx, usage=usage, cost=cost, conversation=conversation)
            _record_guard_findings(ctx, conversation)
    except HoldSettled:
        # Already recorded (a retry that raced ``settle_holds``): charged once, saved once.
        if ctx.trace is not None:
            ctx.trace.written = True
        return ChatOutcome(usage=usage, cost=Decimal(0), conversation_id=None)
    # Only once committed: a turn rolled back must not be named by a pending-charge record.
    ctx.conversation = conversation
    if ctx.trace is not None:
        ctx.trace.written = True  # by the charge
    return ChatOutcome(
        usage=usage,
        cost=cost,
        conversation_id=conversation.pk if conversation else None,
        message_id=message_id,
    )


def _record_guard_findings(ctx: ChatContext, conversation: Conversation | None) -> None:
    """The guard's verdicts that are not ALLOW, with the conversation they were given in."""
    if ctx.guard is not None and ctx.guard.findings:
        record_findings(ctx.guard, conversation)


def _traced(
    ctx: ChatContext,
    *,
    error: BaseException | None = None,
    left: bool = False,
    finish_reason: str = "",
) -> None:
    """How the request ended, on its trace, before the charge writes the record: its error
    (or the client leaving) or its finish reason; the model that answered; the latency."""
    trace = ctx.trace
    if trace is None:
        return
    if left:
        trace.left()
    elif error is not None:
        trace.fail(error)
    else:
        trace.finish_reason = finish_reason
    trace.model_answered = ctx.model.id
    trace.stop()


def _charge(
    ctx: ChatContext, *, usage: Usage, cost: Decimal, conversation: Conversation | None
) -> None:
    trace = ctx.trace
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
        activity=trace.record() if trace is not None and not trace.written else None,
    )


def context_numbers(model: ModelSpec, usage: Usage) -> dict[str, int]:
    return {
        "context_total": model.context_window,
        "context_left": max(0, model.context_window - usage.total_tokens),
    }


def usage_body(outcome: ChatOutcome) -> dict[str, Any]:
    """OpenAI's usage, plus ``cost``: what the request was charged, in USD, as OpenRouter
    reports it (a decimal string of 8 places)."""
    usage = outcome.usage
    return {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "total_tokens": usage.total_tokens,
        "cost": money_string(outcome.cost),
    }


def _choice_body(ctx: ChatContext, choice: Choice) -> dict[str, Any]:
    tool_calls = choice.tool_calls or None
    content = choice.content
    if tool_calls is not None and not content:
        content = None  # only tool calls, as OpenAI answers them
    elif content is None:
        content = ""
    reasoning = choice.reasoning
    return {
        "index": choice.index,
        "message": {
            "role": "assistant",
            "content": content,
            "tool_calls": tool_calls,
            "reasoning_content": None if ctx.exclude_reasoning else (reasoning or None),
        },
        "logprobs": choice.logprobs,
        "finish_reason": choice.finish_reason,
    }


def completion_body(
    ctx: ChatContext, *, choices: list[Choice], outcome: ChatOutcome
) -> dict[str, Any]:
    """The non-streamed response: OpenAI's chat.completion, plus Nova's context numbers,
    persona and conversation_id (docs/api.md, Chat completions)."""
    return {
        "id": ctx.completion_id,
        "object": "chat.completion",
        "created": ctx.created,
        "model": ctx.model.id,
        **context_numbers(ctx.model, outcome.usage),
        "persona": persona_summary(ctx.persona),
        "choices": [_choice_body(ctx, choice) for choice in choices],
        "usage": usage_body(outcome),
        "conversation_id": outcome.conversation_id,
    }


def persona_summary(persona: Persona | None) -> dict[str, Any] | None:
    if persona is None:
        return None
    return {"id": persona.pk, "name": persona.name, "description": persona.description}


# --- 4b. Charges that survive the client and the database ---
#
# Once tokens were generated they are owed, and the client may leave at any moment: a stream's
# client that disconnects cancels the request while the stream's clean-up waits for a database
# thread. :func:`_settle` therefore runs ``finish_chat`` as a task of its own that cancellation
# does not reach (``asyncio.shield``), kept referenced until it is done.
#
# When the database refuses the charge (it is down or restarting), the turn is written to a
# *pending-charge record*, a JSON file under ``settings.PENDING_CHARGES_DIR``, and retried in the
# background until it lands. A process that dies before then leaves the file and the request's
# hold (``billing.models.Hold``) behind; ``manage.py settle_holds`` (run at start-up by
# ``scripts/cluster.py`` and ``deploy/nova.service``) charges from the files and releases any
# other hold left open. A record names its hold, and charging deletes the hold in the same
# transaction, so a request is charged exactly once however often its record is replayed.

RETRY_FIRST_SECONDS = 1.0
RETRY_MAX_SECONDS = 30.0

# Tasks that must run to the end even when their request is cancelled.
_running: set[asyncio.Future[Any]] = set()


def _keep(future: asyncio.Future[Any]) -> asyncio.Future[Any]:
    _running.add(future)
    future.add_done_callback(_running.discard)
    return future


async def _settle(
    ctx: ChatContext,
    *,
    content: str,
    tool_calls: list[dict[str, Any]] | None = None,
    usage: Usage,
    completed: bool,
    db: DbExecutor,
) -> ChatOutcome:
    """``finish_chat`` (save and charge), shielded from the caller's cancellation.

    Raises what ``finish_chat`` raised when the database failed, after keeping the turn in a
    pending-charge record that is retried in the background.
    """
    task = _keep(asyncio.ensure_future(_record(ctx, content, tool_calls, usage, completed, db)))
    return await asyncio.shield(task)


async def _record(
    ctx: ChatContext,
    content: str,
    tool_calls: list[dict[str, Any]] | None,
    usage: Usage,
    completed: bool,
    db: DbExecutor,
) -> ChatOutcome:
    try:
        outcome = await db(finish_chat)(
            ctx, content=content, tool_calls=tool_calls, usage=usage, completed=completed
        )
    except Exception:
        if ctx.hold is None:
            raise
        path = _write_record(
            ctx, content=content, tool_calls=tool_calls, usage=usage, completed=completed
        )
        if ctx.trace is not None:
            ctx.trace.written = True  # by the replay of the record, with its charge
        logger.exception("could not record a chat: kept in %s and retried", path)
        _keep(asyncio.ensure_future(_retry(path, db)))
        raise
    ctx.outcome = outcome
    return outcome


async def _release(ctx: ChatContext, *, db: DbExecutor) -> None:
    """Give back the hold of a request that generated nothing, shielded like :func:`record`."""
    hold = ctx.hold
    if hold is None:
        return
    task = _keep(asyncio.ensure_future(db(release_hold)(hold)))
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        raise
    except Exception:
        # Left open: settle_holds releases it later.
        logger.exception("could not release hold %s", hold.pk)


async def _retry(path: Path, db: DbExecutor) -> None:
    delay = RETRY_FIRST_SECONDS
    while True:
        await asyncio.sleep(delay)
        try:
            await db(replay_record)(path)
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


def _recorded_message(message: dict[str, Any]) -> dict[str, Any]:
    """A new message as a pending-charge record keeps it: its text as stored (images as
    placeholders), and its tool call id or tool calls."""
    content = message.get("content")
    kept: dict[str, Any] = {
        "role": message["role"],
        "content": None if content is None else message_text(content),
    }
    for name in ("tool_call_id", "tool_calls"):
        if name in message:
            kept[name] = message[name]
    return kept


def _write_record(
    ctx: ChatContext,
    *,
    content: str,
    tool_calls: list[dict[str, Any]] | None = None,
    usage: Usage,
    completed: bool,
) -> Path:
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
        "new_messages": [_recorded_message(m) for m in ctx.new_messages],
        "content": content,
        "tool_calls": tool_calls or None,
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "completed": completed,
        # The request's activity record, written with the charge (never any message text).
        "activity": None if ctx.trace is None or ctx.trace.written else ctx.trace.to_json(),
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
        trace=ChatTrace.from_json(data["activity"]) if data.get("activity") else None,
    )
    with transaction.atomic():
        charged = Hold.objects.filter(pk=hold.pk).exists()
        if charged:
            finish_chat(
                ctx,
                content=data["content"],
                tool_calls=data.get("tool_calls"),
                usage=Usage(data["prompt_tokens"], data["completion_tokens"]),
                completed=data["completed"],
            )
    path.unlink(missing_ok=True)
    return charged
