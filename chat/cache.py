"""The persona side of a chat, cached per process: the persona, its training data, its prompt.

Persona chat used to load the persona and its training data (two queries) and render the system
prompt on every request. Here they are kept in process memory under the persona's ``revision``,
a column that every write to the persona or its training data bumps in the same transaction
(``personas.services.bump_persona_revision``).

Who may see the persona is never taken from this cache: the persona's visibility, owner and
revision are read from the database on every request (in the key's own authentication query,
``chat.pipeline.admit``), and a snapshot is reused only when its revision is the
current one. A cache that missed an update therefore cannot serve a persona made private or
training data deleted: the row says so, whatever the cache holds.

The rendered prompt is cached per context window when all of the training data fits the budget:
it then does not depend on the user's message. When it does not fit, the items are chosen per
request by relevance (``personas.prompting``), from the cached items.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, ClassVar

from core.ids import parse_id
from core.text import count_tokens
from llm.types import Grounding
from personas.models import Persona, TrainingDataItem, persona_visible, user_id_of
from personas.prompting import (
    build_system_prompt,
    grounding_for,
    select_items,
    training_data_budget,
)
from personas.selectors import get_persona_for, training_items_for

__all__ = ["PersonaAccess", "PersonaSnapshot", "clear_persona_snapshots", "persona_for_chat"]

MAX_SNAPSHOTS = 1024
_PERSONA_FIELDS = tuple(f.attname for f in Persona._meta.concrete_fields)


@dataclass(frozen=True)
class PersonaAccess:
    """What the database says of a persona at the time of the request."""

    is_public: bool
    owner_id: int | None
    revision: int

    # The columns, in the order of the fields above.
    FIELDS: ClassVar[tuple[str, ...]] = ("is_public", "owner_id", "revision")

    def is_visible_to(self, user_id: int | None) -> bool:
        return persona_visible(is_public=self.is_public, owner_id=self.owner_id, user_id=user_id)

    @classmethod
    def read(cls, persona_id: int) -> PersonaAccess | None:
        row = Persona.objects.filter(pk=persona_id).values_list(*cls.FIELDS).first()
        return cls(*row) if row is not None else None


@dataclass
class PersonaSnapshot:
    """A persona row and its training data as read at one cache version; never mutated but
    for the memo of rendered prompts."""

    values: tuple[Any, ...]
    items: tuple[TrainingDataItem, ...]
    grounding: Grounding
    _prompts: dict[int, str | None] = field(default_factory=dict)
    _prompt_tokens: dict[int, int] = field(default_factory=dict)

    @cached_property
    def shared_grounding(self) -> Grounding:
        """What the embedded model gets when someone else chats with a public persona: the
        knowledge to answer from, without the list of the items' titles."""
        return replace(self.grounding, owner_view=False)

    def count_tokens(self, prompt: str) -> int:
        """Tokens of a system prompt this snapshot rendered, counted once per memoised one."""
        for window, memo in self._prompts.items():
            if memo is prompt:
                if window not in self._prompt_tokens:
                    self._prompt_tokens[window] = count_tokens(prompt)
                return self._prompt_tokens[window]
        return count_tokens(prompt)

    @classmethod
    def of(cls, persona: Persona, items: tuple[TrainingDataItem, ...]) -> PersonaSnapshot:
        return cls(
            values=tuple(getattr(persona, name) for name in _PERSONA_FIELDS),
            items=items,
            grounding=grounding_for(persona, items),
        )

    def persona(self) -> Persona:
        """A fresh instance for each request: callers may attach it to rows they save."""
        return Persona.from_db("default", _PERSONA_FIELDS, self.values)

    def system_prompt(self, persona: Persona, *, context_window: int, latest: str) -> str:
        """What ``build_system_prompt`` returns for these items, memoised when it cannot depend
        on the latest user message."""
        if context_window not in self._prompts:
            # With an empty query every item is kept exactly when all of them fit the budget
            # (the selection is greedy over all items): then the prompt is the same for any
            # message and can be kept.
            chosen = select_items(self.items, budget=training_data_budget(context_window), query="")
            self._prompts[context_window] = (
                build_system_prompt(
                    persona, items=self.items, context_window=context_window, latest_user_message=""
                )
                if len(chosen) == len(self.items)
                else None
            )
        prompt = self._prompts[context_window]
        if prompt is not None:
            return prompt
        return build_system_prompt(
            persona, items=self.items, context_window=context_window, latest_user_message=latest
        )


_snapshots: OrderedDict[tuple[int, int], PersonaSnapshot] = OrderedDict()
_lock = threading.Lock()


def _remember(key: tuple[int, int], snapshot: PersonaSnapshot) -> None:
    with _lock:
        _snapshots[key] = snapshot
        _snapshots.move_to_end(key)
        while len(_snapshots) > MAX_SNAPSHOTS:
            _snapshots.popitem(last=False)


def clear_persona_snapshots() -> None:
    """Forget every snapshot of this process (tests)."""
    with _lock:
        _snapshots.clear()


class Unread:
    """The type of :data:`UNREAD`: the caller did not read the persona's row."""


UNREAD = Unread()


def persona_for_chat(
    user: Any, persona_id: Any, *, access: PersonaAccess | Unread | None = UNREAD
) -> tuple[Persona, PersonaSnapshot]:
    """The persona for a chat request if ``user`` may see it, with its cached snapshot.

    Raises NotFound exactly as ``personas.selectors.get_persona_for`` does. ``access``: the
    persona's row as the caller already read it this request (None: no such persona); when not
    given it is read here (one small query). A hit then costs no further query; a miss costs
    two (the persona and its training data).
    """
    pk = parse_id(persona_id)
    if pk is None:
        get_persona_for(user, persona_id)  # raises the canonical NotFound
    assert pk is not None
    user_id = user_id_of(user)
    if isinstance(access, Unread):
        access = PersonaAccess.read(pk)
    if access is None or not access.is_visible_to(user_id):
        get_persona_for(user, persona_id)  # missing or private: the canonical NotFound
        # Made visible between the two reads: serve it, read afresh below.
        access = None
    key = (pk, access.revision) if access is not None else None
    snapshot = None
    if key is not None:
        with _lock:
            snapshot = _snapshots.get(key)
    if snapshot is None:
        persona = get_persona_for(user, persona_id)
        snapshot = PersonaSnapshot.of(persona, tuple(training_items_for(persona)))
        _remember((pk, persona.revision), snapshot)
    return snapshot.persona(), snapshot
