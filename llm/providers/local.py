"""The embedded model ``nova-local``: offline, no weights, no download.

It is not a language model. It is a deterministic responder grounded in the persona's training
data: a ``qa_pair`` whose question matches the latest user message gives its answer; otherwise
the most relevant passages of the training data (ranked with the same BM25 as training-data
injection) make up the reply; when nothing is relevant it says who the persona is and what it
can help with. It honours ``max_tokens``, ``stop``, ``temperature`` and ``seed`` like a real
model would, and counts usage with Nova's tokenizer, so it doubles as the free provider for
tests and benchmarks.
"""

from __future__ import annotations

import asyncio
import functools
import random
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from core.text import (
    BM25,
    count_message_tokens,
    count_tokens,
    latest_user_text,
    terms,
    token_spans,
    truncate_tokens,
)
from llm.types import (
    Choice,
    Completion,
    Delta,
    Finish,
    GenerationRequest,
    Grounding,
    Usage,
)

__all__ = ["LocalProvider", "generate_reply"]

# A qa_pair answers the message when the IDF-weighted overlap (Dice coefficient) of their terms
# reaches this: "What are your opening hours?" matches "When are you open? Hours?" but not
# "Do you open on holidays?".
QA_MATCH_THRESHOLD = 0.6
# A passage is kept when its BM25 score is at least this share of the best one, so one strong
# passage is not padded with barely related ones.
PASSAGE_RELATIVE_THRESHOLD = 0.35
MAX_PASSAGES = 3
MAX_REPLY_CHARS = 1200
# With temperature > 0, passages are sampled from this many top candidates.
SAMPLE_POOL = 5
_PARAGRAPH_CHARS = 600
_CHUNK_CHARS = 400
_QUESTION_ECHO_CHARS = 200

_PARAGRAPH_SPLIT = re.compile(r"\n\s*\n")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+")
_GREETINGS = frozenset(
    terms("hi hello hey hiya howdy greetings morning afternoon evening good thanks thank")
)

_PASSAGE_INTROS = (
    "Here is what I know about that.",
    "Here's what I can tell you.",
    "From what I know:",
    "This should help.",
)
_GENERAL_INTROS = (
    "I'm Nova's built-in local model, an offline responder without a language model behind "
    "it, so I can't answer open questions on my own.",
    "I'm the built-in local model: I answer from a persona's training data and have no "
    "general knowledge of my own.",
)
_GENERAL_ADVICE = (
    "For questions like this, pick a persona that knows the topic, or choose a model backed "
    "by a real LLM from the catalog.",
    "Try a persona whose training data covers it, or switch to a model connected to a real "
    "LLM provider.",
)


@dataclass(frozen=True)
class _Passage:
    item: int
    text: str


@dataclass(frozen=True)
class _QuestionAnswer:
    item: int
    terms: frozenset[str]
    answer: str


class _GroundingIndex:
    """Everything the responder needs about one persona, built once per grounding."""

    def __init__(self, grounding: Grounding) -> None:
        passages: list[_Passage] = []
        ranking_texts: list[str] = []
        questions: list[_QuestionAnswer] = []
        for index, item in enumerate(grounding.items):
            for text in _split_passages(item.content):
                passages.append(_Passage(item=index, text=text))
                # The title and question are searched too but never quoted in the reply.
                ranking_texts.append(f"{item.title}\n{item.question}\n{text}")
            if item.type == "qa_pair" and item.question.strip() and item.content.strip():
                questions.append(
                    _QuestionAnswer(
                        item=index,
                        terms=frozenset(terms(item.question)),
                        answer=item.content.strip(),
                    )
                )
        self.passages = passages
        self.bm25 = BM25(ranking_texts)
        self.questions = questions
        # Term weights for question matching: the passages' IDF (questions are part of the
        # ranking texts), so the persona's everyday vocabulary ("python" for a Python tutor)
        # counts for little and the specific words decide.
        self.weights = self.bm25.idf
        self.default_weight = max(self.weights.values(), default=1.0)
        self.topics = _topics(grounding)

    def weight(self, term: str) -> float:
        return self.weights.get(term, self.default_weight)

    def question_matches(self, query_terms: frozenset[str]) -> list[tuple[float, int]]:
        """(score, position in self.questions) of every question above the threshold, best first."""
        if not query_terms:
            return []
        query_weight = sum(self.weight(t) for t in query_terms)
        matches: list[tuple[float, int]] = []
        for position, qa in enumerate(self.questions):
            shared = query_terms & qa.terms
            if not shared:
                continue
            total = query_weight + sum(self.weight(t) for t in qa.terms)
            score = 2.0 * sum(self.weight(t) for t in shared) / total
            if score >= QA_MATCH_THRESHOLD:
                matches.append((score, position))
        matches.sort(key=lambda match: (-match[0], match[1]))
        return matches


@functools.lru_cache(maxsize=256)
def _index_for(grounding: Grounding) -> _GroundingIndex:
    return _GroundingIndex(grounding)


def _split_passages(content: str) -> list[str]:
    """Paragraphs; long ones cut into groups of sentences so a reply quotes a readable piece."""
    passages: list[str] = []
    for paragraph in _PARAGRAPH_SPLIT.split(content):
        paragraph = paragraph.strip()
        if not paragraph:
            continue
        if len(paragraph) <= _PARAGRAPH_CHARS:
            passages.append(paragraph)
            continue
        sentences = _SENTENCE_SPLIT.split(paragraph)
        passages.extend(_pack(piece for sentence in sentences for piece in _hard_split(sentence)))
    return passages


def _hard_split(sentence: str) -> list[str]:
    # A "sentence" with no full stop (code, lists) can be very long: cut it at spaces.
    if len(sentence) <= _CHUNK_CHARS:
        return [sentence]
    return _pack(sentence.split(" "))


def _pack(pieces: Iterable[str]) -> list[str]:
    """Consecutive pieces joined by spaces into chunks of at most _CHUNK_CHARS characters (a
    longer piece is a chunk of its own)."""
    chunks: list[str] = []
    chunk = ""
    for piece in pieces:
        if chunk and len(chunk) + 1 + len(piece) > _CHUNK_CHARS:
            chunks.append(chunk)
            chunk = piece
        else:
            chunk = f"{chunk} {piece}" if chunk else piece
    if chunk:
        chunks.append(chunk)
    return chunks


def _topics(grounding: Grounding) -> list[str]:
    """Up to four item titles (or questions) to offer as topics; only to the persona's owner:
    to anyone else a public persona answers from its knowledge without listing it."""
    topics: list[str] = []
    if not grounding.owner_view:
        return topics
    for item in grounding.items:
        topic = (item.title or item.question).strip().rstrip("?.!:")
        if topic and topic.casefold() not in (t.casefold() for t in topics):
            topics.append(topic)
        if len(topics) == 4:
            break
    return topics


def _is_greeting(query_terms: frozenset[str]) -> bool:
    return bool(query_terms) and query_terms <= _GREETINGS


def _rng_for(params: dict[str, Any]) -> random.Random | None:
    """None means greedy (temperature 0 or absent); else a generator, seeded when asked."""
    temperature = params.get("temperature")
    if not temperature:
        return None
    seed = params.get("seed")
    # No seed: fresh entropy, so replies may vary like a sampled model's.
    return random.Random(seed) if seed is not None else random.Random()


def _pick(options: Sequence[str], rng: random.Random | None) -> str:
    return options[0] if rng is None else rng.choice(options)


def _sample_passages(
    ranked: list[tuple[float, int]], rng: random.Random | None, temperature: float
) -> list[int]:
    """Passage indices to quote: the best ones, or a weighted sample of the top candidates."""
    if rng is None:
        return [index for _, index in ranked[:MAX_PASSAGES]]
    pool = ranked[:SAMPLE_POOL]
    # Sharper weights at low temperature: temperature 0.1 is almost greedy, 2 almost uniform.
    exponent = 1.0 / max(temperature, 0.05)
    best = pool[0][0]
    weights = [(score / best) ** exponent for score, _ in pool]
    chosen: list[tuple[float, int]] = []
    count = min(len(pool), rng.randint(1, MAX_PASSAGES))
    while len(chosen) < count:
        position = rng.choices(range(len(pool)), weights=weights)[0]
        chosen.append(pool[position])
        weights[position] = 0.0
        if not any(weights):
            break
    chosen.sort(key=lambda match: (-match[0], match[1]))
    return [index for _, index in chosen]


def _persona_reply(
    grounding: Grounding, query: str, rng: random.Random | None, temperature: float
) -> str:
    index = _index_for(grounding)
    query_terms = frozenset(terms(query))

    matches = index.question_matches(query_terms)
    if matches:
        if rng is None or len(matches) == 1:
            return index.questions[matches[0][1]].answer
        # Near-ties are a coin toss at temperature > 0; clear winners stay winners.
        close = [m for m in matches if m[0] >= matches[0][0] - 0.05]
        return index.questions[rng.choice(close)[1]].answer

    if not _is_greeting(query_terms):
        scores = index.bm25.scores(query)
        ranked = sorted(
            ((score, i) for i, score in enumerate(scores) if score > 0.0),
            key=lambda match: (-match[0], match[1]),
        )
        if ranked:
            floor = ranked[0][0] * PASSAGE_RELATIVE_THRESHOLD
            ranked = [match for match in ranked if match[0] >= floor]
            parts: list[str] = []
            length = 0
            for passage_index in _sample_passages(ranked, rng, temperature):
                text = index.passages[passage_index].text
                if text in parts or (parts and length + len(text) > MAX_REPLY_CHARS):
                    continue
                parts.append(text)
                length += len(text)
            return "\n\n".join([_pick(_PASSAGE_INTROS, rng), *parts])

    return _introduction(grounding, index, query_terms, rng)


def _introduction(
    grounding: Grounding,
    index: _GroundingIndex,
    query_terms: frozenset[str],
    rng: random.Random | None,
) -> str:
    greeting = _is_greeting(query_terms)
    sentences = [f"{'Hello! ' if greeting else ''}I'm {grounding.name}."]
    description = grounding.description.strip()
    if description:
        sentences.append(description if description[-1] in ".!?" else f"{description}.")
    if query_terms and not greeting:
        sentences.append("I don't have anything on that in what I know.")
    if index.topics:
        topics = [f"“{topic}”" for topic in index.topics]
        listed = topics[0] if len(topics) == 1 else f"{', '.join(topics[:-1])} and {topics[-1]}"
        sentences.append(f"I can help with topics such as {listed}.")
    sentences.append(
        _pick(
            (
                "What would you like to know?",
                "How can I help?",
                "Tell me more about what you need.",
            ),
            rng,
        )
    )
    return " ".join(sentences)


def _general_reply(query: str, rng: random.Random | None) -> str:
    query_terms = frozenset(terms(query))
    if not query or _is_greeting(query_terms):
        return (
            f"Hello! {_pick(_GENERAL_INTROS, rng)} "
            "Pick a persona and I will answer from its knowledge."
        )
    echo = query if len(query) <= _QUESTION_ECHO_CHARS else truncate_tokens(query, 40) + "…"
    return f"{_pick(_GENERAL_INTROS, rng)} You asked: “{echo}”. {_pick(_GENERAL_ADVICE, rng)}"


def _apply_limits(text: str, params: dict[str, Any]) -> tuple[str, str]:
    """Cut at the first stop sequence, then at max_tokens (or its newer name,
    max_completion_tokens); return (text, finish_reason)."""
    stop = params.get("stop")
    sequences = [stop] if isinstance(stop, str) else list(stop or [])
    positions = [text.find(s) for s in sequences if s]
    positions = [p for p in positions if p >= 0]
    if positions:
        text = text[: min(positions)]
    max_tokens = params.get("max_tokens", params.get("max_completion_tokens"))
    if max_tokens is not None and count_tokens(text) > max_tokens:
        # As a model would: the limit is reached before the stop sequence would have been.
        return truncate_tokens(text, max_tokens), "length"
    return text, "stop"


def generate_reply(request: GenerationRequest) -> tuple[str, str]:
    """The local model's full reply and finish_reason for a request (pure, synchronous)."""
    params = request.params
    rng = _rng_for(params)
    temperature = float(params.get("temperature") or 0.0)
    query = latest_user_text(request.messages).strip()
    if request.grounding is None:
        text = _general_reply(query, rng)
    else:
        text = _persona_reply(request.grounding, query, rng, temperature)
    return _apply_limits(text, params)


class LocalProvider:
    async def complete(self, request: GenerationRequest) -> Completion:
        text, finish_reason = generate_reply(request)
        return Completion(
            choices=[Choice(content=text, reasoning=None, finish_reason=finish_reason)],
            usage=Usage(
                prompt_tokens=count_message_tokens(request.messages),
                completion_tokens=count_tokens(text),
            ),
        )

    async def stream(self, request: GenerationRequest) -> AsyncIterator[Delta | Finish]:
        text, finish_reason = generate_reply(request)
        usage = Usage(
            prompt_tokens=count_message_tokens(request.messages),
            completion_tokens=count_tokens(text),
        )
        # One token per fragment, each carrying the whitespace before it, so the fragments
        # join back to exactly the reply and their count is its completion_tokens.
        end = 0
        for _, token_end in token_spans(text):
            yield Delta(content=text[end:token_end])
            end = token_end
            # Let other requests on this event loop run between fragments.
            await asyncio.sleep(0)
        if end < len(text):
            yield Delta(content=text[end:])
        yield Finish(finish_reason=finish_reason, usage=usage)
