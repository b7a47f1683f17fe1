from __future__ import annotations

import json
from typing import Any

from asgiref.sync import async_to_sync

from accounts.models import User
from personas.models import Persona, TrainingDataItem

CANARY = "CANARY-7f3e-secret-prompt"


def make_persona(
    owner: User | None,
    *,
    name: str = "Tester",
    model: str = "fake-gpt",
    public: bool = False,
    prompt: str = "You are a careful tester.",
    items: list[tuple[str, str, dict[str, Any]]] | None = None,
) -> Persona:
    persona = Persona.objects.create(
        owner=owner,
        name=name,
        description=f"{name} persona",
        category="testing",
        system_prompt=prompt,
        default_model=model,
        default_temperature=0.5,
        is_public=public,
    )
    for kind, content, metadata in items or []:
        TrainingDataItem.objects.create(
            persona=persona, type=kind, content=content, metadata=metadata, title=f"{kind} item"
        )
    return persona


def sse_events(raw: bytes | str) -> list[Any]:
    """Parse an SSE body into JSON payloads, with the literal "[DONE]" kept as a string."""
    text = raw.decode() if isinstance(raw, bytes) else raw
    events: list[Any] = []
    for block in text.split("\n\n"):
        if not block.strip():
            continue
        assert block.startswith("data: "), block
        data = block[len("data: ") :]
        events.append(data if data == "[DONE]" else json.loads(data))
    return events


def streamed_body(response: Any) -> bytes:
    """Drain a streamed response's async iterator from sync test code."""

    async def collect() -> bytes:
        return b"".join([chunk async for chunk in response.streaming_content])

    return async_to_sync(collect)()
