"""The chat guard: moderation applied to chats (docs/moderation.md, Chat guard).

A key (``ApiKey.guard``) and a persona (``Persona.guard``) may each ask for the guard on the
input, the output or both; a chat gets the union of the two (:func:`chat_guard`). With neither
set, the pipeline pays two attribute reads and nothing else.

* **Input** (:func:`check_input`, sync, in ``prepare_chat`` after the 404s and the context
  window's 400, before the hold's 402): the latest user message is moderated; a DISALLOWED
  verdict is a 400 ``content_blocked`` (:class:`ContentBlocked`), before anything is generated,
  held or charged.
* **Output, streamed** (:class:`StreamGuard`): each choice's text is held back until the window
  holding it has been moderated. A window is made of whole fragments (chunks are sent as the
  provider sent them): it closes with the fragment that ends a sentence once it has
  ``MIN_WINDOW_CHARS`` characters, or with the one that brings it to ``WINDOW_CHARS``, and the
  rest is checked when the stream ends. Each check reads the window after the last
  ``CONTEXT_CHARS`` characters already released, so a phrase split across two windows is still
  read whole. A DISALLOWED window is never sent: the choice ends with ``finish_reason:
  "content_filter"``, and once every choice has ended so the upstream's stream is closed.
* **Output, not streamed** (:func:`check_reply`): the whole reply is moderated once; a
  DISALLOWED reply is cut before its first DISALLOWED window (read as a stream would be), or
  answered empty when no single window is.

Verdicts that are not ALLOW are recorded as ``/v1/moderation`` verdicts are
(``moderation.services.record_verdict``: the review queue's rules included), with the endpoint
``chat_input`` or ``chat_output``: a blocked input at once, the others (:attr:`ChatGuard.findings`)
with the chat's turn, linked to its conversation (:func:`record_findings`).

The engine is CPU work (about 10 ms per 2,000 characters): the input check runs on the
pipeline's database thread with the rest of ``prepare_chat``, the output checks on a worker
thread (``asyncio.to_thread``) so the event loop keeps serving other requests. The LLM judge is
never asked: a guard must not wait seconds for a second opinion.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from accounts.models import ApiKey, Guard, User
from core.errors import ErrorEnvelope, InvalidRequest
from core.text import content_text
from moderation.engine import Verdict, moderate
from moderation.engine.vocabulary import Action, Status
from moderation.models import ModerationVerdict
from moderation.services import record_verdict

if TYPE_CHECKING:
    from conversations.models import Conversation
    from llm.types import Choice
    from personas.models import Persona

__all__ = [
    "CONTEXT_CHARS",
    "MIN_WINDOW_CHARS",
    "WINDOW_CHARS",
    "ChatGuard",
    "ContentBlocked",
    "StreamGuard",
    "chat_guard",
    "check_input",
    "check_reply",
    "record_findings",
    "split_windows",
]

# A window is checked once it holds this many characters...
WINDOW_CHARS = 200
# ... or earlier, at a sentence end, once it holds at least this many.
MIN_WINDOW_CHARS = 24
# How much of the text already released is read again before each window.
CONTEXT_CHARS = 160

CONTENT_FILTER = "content_filter"
_OFF = Guard.OFF.value
_INPUT_SIDES = frozenset({Guard.INPUT.value, Guard.BOTH.value})
_OUTPUT_SIDES = frozenset({Guard.OUTPUT.value, Guard.BOTH.value})
# The end of a sentence (with any closing quotes or brackets), or a line break; then spaces.
_SENTENCE_BREAK = re.compile(r"(?:[.!?\u2026]+[\"'\u201d\u2019)\]]*(?:\s+|$)|\n\s*)")
# A sentence end inside a streamed fragment (read with the last character of the one before,
# so a break split across two fragments is seen once, in the second).
_BREAK_IN_FRAGMENT = re.compile(r"[.!?\u2026][\"'\u201d\u2019)\]]*\s|\n")


class ContentBlocked(InvalidRequest):
    """400 ``content_blocked``: the guard refused the user's message; ``error.metadata``
    carries the verdict's category, severity and reason."""

    code = "content_blocked"

    def __init__(self, verdict: Verdict, *, param: str | None) -> None:
        super().__init__(
            "The chat guard blocked this message: "
            f"{verdict.category} ({verdict.severity.lower()} severity).",
            param=param,
        )
        self.metadata = {
            "category": verdict.category,
            "severity": verdict.severity,
            "reason": verdict.reason,
        }

    def envelope(self) -> ErrorEnvelope:
        body = super().envelope()
        error: dict[str, Any] = {**body["error"], "metadata": dict(self.metadata)}
        return cast(ErrorEnvelope, {"error": error})


@dataclass(frozen=True)
class Finding:
    """A verdict to record with the chat's turn."""

    endpoint: str
    verdict: Verdict
    content: str


@dataclass
class ChatGuard:
    """The guard of one chat: which sides it reads, and what it found so far."""

    user: User
    api_key: ApiKey | None
    input: bool
    output: bool
    findings: list[Finding] = field(default_factory=list)


def chat_guard(user: User, api_key: ApiKey | None, persona: Persona | None) -> ChatGuard | None:
    """The guard a chat gets: the union of its key's and its persona's; None when both are
    off (the common case: two attribute reads, no query)."""
    key_guard = api_key.guard if api_key is not None else _OFF
    persona_guard = persona.guard if persona is not None else _OFF
    if key_guard == _OFF and persona_guard == _OFF:
        return None
    sides = {key_guard, persona_guard}
    return ChatGuard(
        user=user,
        api_key=api_key,
        input=not sides.isdisjoint(_INPUT_SIDES),
        output=not sides.isdisjoint(_OUTPUT_SIDES),
    )


def _latest_user_message(messages: list[dict[str, Any]]) -> tuple[int, str] | None:
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if message.get("role") == "user":
            return index, content_text(message.get("content"))
    return None


def check_input(
    guard: ChatGuard, messages: list[dict[str, Any]], *, conversation: Conversation | None
) -> None:
    """Moderate the latest user message of the request (sync: it runs in ``prepare_chat``).

    Raises ContentBlocked (400) on a DISALLOWED verdict, recorded at once (with the continued
    conversation, if any: the new turn is never saved). Another verdict that is not ALLOW is
    kept in ``guard.findings``, recorded with the turn.
    """
    latest = _latest_user_message(messages)
    if latest is None or not latest[1].strip():
        return
    index, text = latest
    verdict = moderate(text)
    if verdict.action == Action.ALLOW:
        return
    if verdict.status == Status.DISALLOWED:
        record_verdict(
            user=guard.user,
            api_key=guard.api_key,
            verdict=verdict,
            content=text,
            endpoint=ModerationVerdict.Endpoint.CHAT_INPUT,
            conversation=conversation,
        )
        raise ContentBlocked(verdict, param=f"messages[{index}].content")
    guard.findings.append(Finding(ModerationVerdict.Endpoint.CHAT_INPUT, verdict, text))


def record_findings(guard: ChatGuard, conversation: Conversation | None) -> None:
    """Record the verdicts kept in ``guard.findings`` (in the caller's transaction, the one
    that saves the turn), linked to ``conversation``; then forget them."""
    for finding in guard.findings:
        record_verdict(
            user=guard.user,
            api_key=guard.api_key,
            verdict=finding.verdict,
            content=finding.content,
            endpoint=finding.endpoint,
            conversation=conversation,
        )
    guard.findings.clear()


# --- Output ---


def _tail(text: str) -> str:
    """The context read before the next window: the end of ``text``, from a word start."""
    if len(text) <= CONTEXT_CHARS:
        return text
    cut = text[-CONTEXT_CHARS:]
    space = cut.find(" ")
    return cut[space + 1 :] if 0 <= space < CONTEXT_CHARS // 4 else cut


def split_windows(text: str) -> list[str]:
    """``text`` cut into the windows the guard reads: at sentence ends once a window holds
    ``MIN_WINDOW_CHARS`` characters, else every ``WINDOW_CHARS``; joined they are ``text``."""
    windows: list[str] = []
    start = 0
    for match in _SENTENCE_BREAK.finditer(text):
        end = match.end()
        while end - start > WINDOW_CHARS:
            windows.append(text[start : start + WINDOW_CHARS])
            start += WINDOW_CHARS
        if end - start >= MIN_WINDOW_CHARS:
            windows.append(text[start:end])
            start = end
    while start < len(text):
        windows.append(text[start : start + WINDOW_CHARS])
        start += WINDOW_CHARS
    return windows


def _first_blocked_window(text: str) -> tuple[str, Verdict, str] | None:
    """Read ``text`` window by window, as a stream would be: the text before the first
    DISALLOWED window, its verdict and what was read; None when no window is."""
    released = ""
    tail = ""
    for window in split_windows(text):
        read = tail + window
        verdict = moderate(read)
        if verdict.status == Status.DISALLOWED:
            return released, verdict, read
        released += window
        tail = _tail(tail + window)
    return None


async def check_reply(guard: ChatGuard, choice: Choice) -> None:
    """Moderate a whole (non-streamed) choice; a DISALLOWED one keeps only the text before
    its blocked window and ends with ``content_filter`` (its tool calls and logprobs, which
    would carry the rest, are dropped)."""
    text = choice.content
    if not text:
        return
    verdict = await asyncio.to_thread(moderate, text)
    if verdict.status == Status.ALLOWED:
        if verdict.action != Action.ALLOW:
            guard.findings.append(Finding(ModerationVerdict.Endpoint.CHAT_OUTPUT, verdict, text))
        return
    located = await asyncio.to_thread(_first_blocked_window, text)
    kept, blocking, read = located if located is not None else ("", verdict, text)
    guard.findings.append(Finding(ModerationVerdict.Endpoint.CHAT_OUTPUT, blocking, read))
    choice.content = kept
    choice.finish_reason = CONTENT_FILTER
    choice.tool_calls = None
    choice.logprobs = None


@dataclass
class _ChoiceState:
    released: list[str] = field(default_factory=list)
    tail: str = ""
    pending: list[str] = field(default_factory=list)
    pending_size: int = 0
    # The last character of the previous fragment (see _BREAK_IN_FRAGMENT).
    last_char: str = ""
    held: list[dict[str, Any]] = field(default_factory=list)
    blocked: bool = False
    # A window was flagged without being blocked: the whole reply is moderated at the end,
    # and that verdict recorded (once, rather than one per window read with that context).
    flagged: bool = False

    def take_held(self) -> list[dict[str, Any]]:
        held, self.held = self.held, []
        return held


class StreamGuard:
    """The output guard of one stream: chunks go in as the provider sends them and come out
    once the window holding their text has been moderated."""

    def __init__(self, guard: ChatGuard, *, choices: int) -> None:
        self.guard = guard
        self.choices = choices
        self._states: dict[int, _ChoiceState] = {}

    @property
    def blocked(self) -> frozenset[int]:
        """The choices that ended with ``content_filter``."""
        return frozenset(i for i, state in self._states.items() if state.blocked)

    @property
    def all_blocked(self) -> bool:
        return len(self.blocked) >= self.choices

    def text(self, index: int) -> str:
        """What the client received of a choice's text."""
        state = self._states.get(index)
        return "".join(state.released) if state is not None else ""

    async def feed(
        self, index: int, content: str | None, chunk: dict[str, Any] | None
    ) -> list[dict[str, Any]]:
        """Take one event of choice ``index`` (its text and its chunk, None when it has nothing
        to send); return the chunks that may be sent now, in order."""
        state = self._states.get(index)
        if state is None:
            state = self._states[index] = _ChoiceState()
        if state.blocked:
            return []
        if chunk is not None:
            state.held.append(chunk)
        if not content:
            # Nothing to judge (reasoning, tool calls, an empty delta): sent at once when no
            # text is held before it, else after that text, in order.
            return state.take_held() if state.pending_size == 0 else []
        state.pending.append(content)
        state.pending_size += len(content)
        ends_sentence = _BREAK_IN_FRAGMENT.search(state.last_char + content) is not None
        state.last_char = content[-1]
        if state.pending_size >= WINDOW_CHARS or (
            ends_sentence and state.pending_size >= MIN_WINDOW_CHARS
        ):
            return await self._check(state)
        return []

    async def finish(self) -> list[dict[str, Any]]:
        """The final check, when the provider's stream has ended: every choice's held text."""
        released: list[dict[str, Any]] = []
        for _, state in sorted(self._states.items()):
            if state.blocked:
                continue
            released += await self._check(state) if state.pending_size else state.take_held()
            if state.flagged and not state.blocked:
                reply = "".join(state.released)
                verdict = await asyncio.to_thread(moderate, reply)
                if verdict.action != Action.ALLOW:
                    self.guard.findings.append(
                        Finding(ModerationVerdict.Endpoint.CHAT_OUTPUT, verdict, reply)
                    )
        return released

    async def _check(self, state: _ChoiceState) -> list[dict[str, Any]]:
        window = "".join(state.pending)
        read = state.tail + window
        state.pending, state.pending_size = [], 0
        verdict = await asyncio.to_thread(moderate, read)
        if verdict.status == Status.DISALLOWED:
            state.blocked = True
            state.held = []
            self.guard.findings.append(
                Finding(ModerationVerdict.Endpoint.CHAT_OUTPUT, verdict, read)
            )
            return []
        if verdict.action != Action.ALLOW:
            state.flagged = True
        state.released.append(window)
        state.tail = _tail(read)
        return state.take_held()
