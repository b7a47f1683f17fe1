"""Speed of the pure-Python pieces on a request's path, against their targets.

    .venv/bin/python benchmarks/unit_speed.py

Each figure is the fastest of several runs (robust to a busy machine, still catches a change in
complexity): BM25 ranking over a large corpus (``core.text``), and the local model's reply once
a persona is indexed, for a small persona and one with large training data
(``llm.providers.local``).
Prints each figure, its target and whether it passes; exits 1 when one fails. No database, no
network.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.text import BM25  # noqa: E402
from llm.catalog import load_catalog  # noqa: E402
from llm.providers.local import generate_reply  # noqa: E402
from llm.types import GenerationRequest, Grounding, GroundingItem  # noqa: E402

# The embedded model as the default catalog declares it.
LOCAL = load_catalog(ROOT / "config" / "models.toml")["nova-local"]


@dataclass(frozen=True)
class Case:
    name: str
    call: Callable[[], object]
    repeats: int
    target_seconds: float


def best_of(call: Callable[[], object], repeats: int) -> float:
    """The fastest of ``repeats`` timed calls, in seconds."""
    timings = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        timings.append(time.perf_counter() - started)
    return min(timings)


def _persona(items: int, sentences: int) -> Grounding:
    """A persona of ``items`` documents of ``sentences`` sentences, each about its own subject."""
    documents = (
        " ".join(f"Subject{i} fact {n} and shared words." for n in range(sentences))
        for i in range(items)
    )
    return Grounding(
        name="Archivist",
        description="Knows the archive",
        items=tuple(
            GroundingItem(type="document", title=f"Topic {i}", content=text, question="")
            for i, text in enumerate(documents)
        ),
    )


def _bm25_case() -> Case:
    docs = [
        f"document {i} about topic{i % 50} with some shared words and text" for i in range(2000)
    ]
    index = BM25(docs)
    return Case(
        name="BM25 rank, 2,000 documents",
        call=lambda: index.rank("topic7 shared words"),
        repeats=20,
        target_seconds=0.02,
    )


def _reply_case(name: str, grounding: Grounding, target_seconds: float) -> Case:
    """The local model's reply to a persona it has already indexed."""
    messages = [{"role": "user", "content": "tell me about subject2"}]
    request = GenerationRequest(model=LOCAL, messages=messages, params={}, grounding=grounding)
    generate_reply(request)  # indexes the persona
    return Case(
        name=name,
        call=lambda: generate_reply(request),
        repeats=50,
        target_seconds=target_seconds,
    )


def main() -> int:
    failed = 0
    cases = (
        _bm25_case(),
        _reply_case("local model reply, 4 documents indexed", _persona(4, 3), 0.001),
        _reply_case("local model reply, 200 documents indexed", _persona(200, 40), 0.01),
    )
    for case in cases:
        seconds = best_of(case.call, case.repeats)
        ok = seconds < case.target_seconds
        failed += not ok
        print(
            f"{case.name:<42} {seconds * 1000:8.3f} ms  "
            f"target < {case.target_seconds * 1000:g} ms  {'pass' if ok else 'FAIL'}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
