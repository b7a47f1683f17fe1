"""The persona side of a chat, cached per process: the persona, its training data, its prompt.

Persona chat used to load the persona and its training data (two queries) and render the system
prompt on every request. Here they are kept in process memory under the persona's *cache
version* (``personas.services.persona_cache_version``): every committed write to a persona or
its training data, through ``personas.services``, replaces that version in the shared cache, so
every process's next request misses and reloads. The version is read before the database, so
a reader that raced a write stores what it read under the old version, which nobody reads again.

The rendered prompt is cached per context window when all of the training data fits the budget:
it then does not depend on the user's message. When it does not fit, the items are chosen per
request by relevance (``personas.prompting``), from the cached items.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from chat.providers.base import Grounding
from core.sharedcache import shared_cache
from personas.models import Persona, TrainingDataItem
from personas.prompting import (
    build_system_prompt,
    grounding_for,
    select_items,
    training_data_budget,
)
from personas.selectors import get_persona_for, parse_id, training_items_for
from personas.services import persona_cache_version

__all__ = ["PersonaSnapshot", "clear_persona_snapshots", "persona_for_chat"]

MAX_SNAPSHOTS = 1024
_PERSONA_FIELDS = tuple(f.attname for f in Persona._meta.concrete_fields)


@dataclass
class PersonaSnapshot:
    """A persona row and its training data as read at one cache version; never mutated but
    for the memo of rendered prompts."""

    values: tuple[Any, ...]
    items: tuple[TrainingDataItem, ...]
    grounding: Grounding
    _prompts: dict[int, str | None] = field(default_factory=dict)

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

    def is_visible_to(self, user_id: int | None) -> bool:
        # The rule of personas.selectors.personas_visible_to: public, or the caller's own.
        values = dict(zip(_PERSONA_FIELDS, self.values, strict=True))
        return bool(values["is_public"]) or (user_id is not None and values["owner_id"] == user_id)

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


_snapshots: OrderedDict[tuple[int, str], PersonaSnapshot] = OrderedDict()
_lock = threading.Lock()


def _remember(key: tuple[int, str], snapshot: PersonaSnapshot) -> None:
    with _lock:
        _snapshots[key] = snapshot
        _snapshots.move_to_end(key)
        while len(_snapshots) > MAX_SNAPSHOTS:
            _snapshots.popitem(last=False)


def clear_persona_snapshots() -> None:
    """Forget every snapshot of this process (tests)."""
    with _lock:
        _snapshots.clear()


def persona_for_chat(
    user: Any, persona_id: Any, *, version: str | None = None
) -> tuple[Persona, PersonaSnapshot]:
    """The persona for a chat request if ``user`` may see it, with its cached snapshot.

    Raises NotFound exactly as ``personas.selectors.get_persona_for`` does. A hit costs one
    cache read (the version) and no query; a miss costs the version, then two queries.
    ``version``: the persona's cache version when the caller already read it (the chat view
    reads it in the rate limit's round trip).
    """
    pk = parse_id(persona_id)
    if pk is None:
        get_persona_for(user, persona_id)  # raises the canonical NotFound
    assert pk is not None
    user_id = int(user.pk) if getattr(user, "is_authenticated", False) else None
    if version is None:
        # Read through the process-wide cache object: no new Redis connection per request.
        version = persona_cache_version(pk, using=shared_cache())
    key = (pk, version)
    with _lock:
        snapshot = _snapshots.get(key)
    if snapshot is None or not snapshot.is_visible_to(user_id):
        # Not cached, or not the caller's to see: the selector decides, and raises NotFound
        # for a missing or private persona exactly as everywhere else.
        persona = get_persona_for(user, persona_id)
        snapshot = PersonaSnapshot.of(persona, tuple(training_items_for(persona)))
        _remember(key, snapshot)
    return snapshot.persona(), snapshot
