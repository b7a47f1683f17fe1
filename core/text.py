"""Nova's own tokenizer and BM25 ranking.

One tokenizer serves usage counting, training-data budgets and the embedded local model, so a
reply the local model cuts at ``max_tokens`` is billed as exactly that many tokens. It is an
approximation of OpenAI's BPE tokenizers (about 0.75 English words per token), not a copy: no
vocabulary file is downloaded or shipped.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = [
    "BM25",
    "IMAGE_TOKENS",
    "count_message_tokens",
    "count_tokens",
    "storable_text",
    "terms",
    "token_spans",
    "tokenize",
    "truncate_tokens",
]

# What an image part costs in a prompt: OpenAI's flat price for a low-detail image.
IMAGE_TOKENS = 85
# OpenAI's chat format wraps every message in a few control tokens (role, separators) and
# primes the reply with a few more; counting them keeps our usage close to theirs.
MESSAGE_OVERHEAD_TOKENS = 4
REPLY_PRIMING_TOKENS = 3

# Words up to this length are one token (most common English words are single BPE tokens);
# longer ones are cut into pieces of _PIECE characters. Tuned to about 0.75 English words per
# token. _PIECE * 2 > _WHOLE_WORD_MAX keeps the count of a prefix cut at a piece boundary equal
# to the number of pieces kept, so a reply truncated at max_tokens re-counts to max_tokens.
_WHOLE_WORD_MAX = 8
_PIECE = 5

_TOKEN_RE = re.compile(
    r"""
      [\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]  # CJK: a char each
    | [^\W\d_]+        # letters
    | \d{1,3}          # numbers, in groups of up to three digits (as cl100k does)
    | [\r\n]+          # a run of line breaks
    | [^\w\s]{1,3}     # punctuation, short runs merged ("...", "?!", "```")
    | _+
    """,
    re.VERBOSE,
)

_TERM_RE = re.compile(r"[^\W_]+")

# A deliberately small list: persona knowledge is domain text, and dropping too much hurts
# recall more than it helps precision.
_STOP_WORDS_TEXT = """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your
    yours yourself yourselves s t d ll m re ve don doesn didn isn aren wasn weren
"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())


def token_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of every token of ``text``, in order; whitespace between them
    belongs to no token (BPE folds it into the following one)."""
    spans: list[tuple[int, int]] = []
    append = spans.append
    for match in _TOKEN_RE.finditer(text):
        start, end = match.span()
        if end - start <= _WHOLE_WORD_MAX or not text[start].isalpha():
            append((start, end))
            continue
        for piece_start in range(start, end, _PIECE):
            append((piece_start, min(piece_start + _PIECE, end)))
    return spans


def tokenize(text: str) -> list[str]:
    """Deterministic BPE-like tokens: words, number groups, punctuation, long words in pieces."""
    return [text[start:end] for start, end in token_spans(text)]


def count_tokens(text: str) -> int:
    return len(token_spans(text)) if text else 0


def truncate_tokens(text: str, max_tokens: int) -> str:
    """The longest prefix of ``text`` holding at most ``max_tokens`` tokens (cut at a token end)."""
    spans = token_spans(text)
    if len(spans) <= max_tokens:
        return text
    if max_tokens <= 0:
        return ""
    return text[: spans[max_tokens - 1][1]]


def _content_tokens(content: Any) -> int:
    if content is None:
        return 0
    if isinstance(content, str):
        return count_tokens(content)
    total = 0
    if isinstance(content, list):
        for part in content:
            if not isinstance(part, dict):
                continue
            if part.get("type") == "image_url":
                total += IMAGE_TOKENS
            elif isinstance(part.get("text"), str):
                total += count_tokens(part["text"])
    return total


def count_message_tokens(messages: Sequence[dict[str, Any]]) -> int:
    """Prompt tokens of an OpenAI-format message list, OpenAI-style: per-message overhead plus
    content (text parts counted, each image part a flat IMAGE_TOKENS), plus reply priming."""
    if not messages:
        return 0
    total = REPLY_PRIMING_TOKENS
    for message in messages:
        total += MESSAGE_OVERHEAD_TOKENS + _content_tokens(message.get("content"))
        name = message.get("name")
        if isinstance(name, str) and name:
            total += 1 + count_tokens(name)
    return total


# What no text column can hold: PostgreSQL refuses NUL in text, and a lone surrogate (a JSON
# "\\ud800" escape decodes to one) has no UTF-8 encoding, so psycopg, sqlite3 and the JSON
# renderer all raise on it.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable_text(text: str) -> str:
    """``text`` made storable and encodable as UTF-8: NUL dropped, lone surrogates replaced
    by U+FFFD; any other text comes back unchanged."""
    return _UNSTORABLE.sub(lambda m: "" if m.group() == "\x00" else "\ufffd", text)


def content_text(content: Any) -> str:
    """The text of an OpenAI message content: the string, or its text parts joined by spaces."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(
            part["text"]
            for part in content
            if isinstance(part, dict)
            and part.get("type") == "text"
            and isinstance(part.get("text"), str)
        )
    return ""


def latest_user_text(messages: Sequence[dict[str, Any]]) -> str:
    """The text of the last ``user`` message, or "" when there is none."""
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            return content_text(message.get("content"))
    return ""


def _stem(word: str) -> str:
    # Light suffix stripping, enough for "hours"/"hour", "opening"/"open", "reset"/"resetting".
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    elif len(word) > 4 and word.endswith(("sses", "ches", "shes", "xes", "zes")):
        return word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    else:
        return word
    # "running" -> "runn" -> "run": undo the doubled consonant the suffix brought.
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]
    return word


def terms(text: str) -> list[str]:
    """Normalised retrieval terms: casefolded words, stop words dropped, lightly stemmed."""
    result: list[str] = []
    for word in _TERM_RE.findall(text.casefold()):
        if word in STOP_WORDS:
            continue
        result.append(_stem(word))
    return result


class BM25:
    """Okapi BM25 over a fixed list of documents (k1=1.5, b=0.75), pure Python.

    Postings lists make a query cost proportional to the documents that share its terms, not
    to the corpus size. IDF is the non-negative Lucene variant, so a term that occurs in every
    document still counts a little instead of pushing scores below zero.
    """

    def __init__(self, documents: Iterable[str], *, k1: float = 1.5, b: float = 0.75) -> None:
        self.k1 = k1
        self.b = b
        doc_terms = [terms(document) for document in documents]
        self.size = len(doc_terms)
        self.lengths = [len(t) for t in doc_terms]
        self.avg_length = (sum(self.lengths) / self.size) if self.size else 0.0
        postings: dict[str, list[tuple[int, int]]] = {}
        for index, doc in enumerate(doc_terms):
            for term, frequency in Counter(doc).items():
                postings.setdefault(term, []).append((index, frequency))
        self.postings = postings
        self.idf = {
            term: math.log(1.0 + (self.size - len(docs) + 0.5) / (len(docs) + 0.5))
            for term, docs in postings.items()
        }
        # Per-document length normalisation, computed once instead of once per query term.
        avg = self.avg_length or 1.0
        self._norms = [k1 * (1.0 - b + b * length / avg) for length in self.lengths]

    def __len__(self) -> int:
        return self.size

    def scores(self, query: str) -> list[float]:
        result = [0.0] * self.size
        k1_plus_1 = self.k1 + 1.0
        norms = self._norms
        # Each distinct query term counts once: repeating a word must not outweigh the others.
        for term in dict.fromkeys(terms(query)):
            docs = self.postings.get(term)
            if not docs:
                continue
            idf = self.idf[term]
            for index, frequency in docs:
                result[index] += idf * frequency * k1_plus_1 / (frequency + norms[index])
        return result

    def rank(self, query: str) -> list[int]:
        """Document indices by descending score; ties go to the lower index."""
        scores = self.scores(query)
        return sorted(range(self.size), key=lambda index: (-scores[index], index))
