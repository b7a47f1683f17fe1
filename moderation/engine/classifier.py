"""The learned classifier: linear heads over n-grams, and a semantic tier over a sentence encoder.

Features (computed in pure Python, identically at training and inference time):

* word unigrams and bigrams of the normalised text, and character n-grams (2-5) inside word
  boundaries, each block weighted by sublinear TF x IDF and L2-normalised;
* lexicon features (log counts of profanity, slurs, sexual terms ...; see `lexicon.py`);
* a 256-dimensional static sentence embedding (`embedding.py`, weights shipped by the
  `wordllama` package), which carries meaning across synonyms and languages.

Each head (one per category, plus "ANY" for "any category") is a logistic regression whose
weights live in a JSON artifact (float32 arrays, base64), so inference needs only numpy. Each
head's raw logit is then calibrated (Platt scaling fitted on out-of-fold predictions of the
tuning data), so `predict()` returns calibrated probabilities.

The semantic tier adds a second logistic-regression head per category over two sentence
embeddings side by side: all-MiniLM-L6-v2 (`encoder.py`, a 6-layer transformer, English) and
Universal Sentence Encoder multilingual v3 (`multilingual.py`, whose space is shared by 16
languages, so heads trained on English read French, German and Spanish too).
The two tiers' logits are combined per head by a two-input logistic regression fitted on
out-of-fold logits of the tuning data (stacking, which is also the calibration). The encoder
costs tens of milliseconds on a long text, so it runs only when the n-gram tier's "any
category" probability reaches `gate` (chosen in training so that almost no unsafe tuning text
falls below it); below the gate the n-gram tier's own calibrated probabilities stand.

Last, the "any category" probability takes in the most likely category's (`any_blend`): a
two-input logistic regression on both logits, fitted like the stacking, may only raise the
"any category" logit, and the result is Platt-scaled again. The category heads learn from more
sets than the "any category" head (README.md in `moderation/training/`), so where they are sure
and it is not, they catch what it misses; where it is sure, it stands (on texts unlike the
tuning data the category heads alone rank worse than it does).
"""

from __future__ import annotations

import base64
import json
import math
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from . import embedding, encoder, multilingual
from .lexicon import LEXICON_FEATURES, lexicon_counts

ARTIFACT_PATH = Path(__file__).resolve().parent / "artifacts" / "classifier.json"
FORMAT = "nova-moderation-linear/3"
ANY = "ANY"
# Categories the dev file labels; "any category" means any of these.
LEARNED_CATEGORIES: tuple[str, ...] = (
    "SEXUAL",
    "HATE_SPEECH",
    "VIOLENCE",
    "HARASSMENT",
    "SELF_HARM",
    "CHILD_SAFETY",
)

_WORD = re.compile(r"[a-z][a-z0-9']*|\d+")
_CHAR_TOKEN = re.compile(r"\S+")
CHAR_MIN, CHAR_MAX = 2, 5
MAX_CHARS = 20_000  # longer texts are classified on their head and tail
# The semantic tier's input: both encoders' embeddings, side by side.
SEMANTIC_NAME = f"{encoder.NAME}+{multilingual.NAME}"
SEMANTIC_DIM = encoder.DIM + multilingual.DIM
# The calibrated probability from which the foreign-language path flags a text (`foreign_probs`),
# chosen on the tuning parts of the French, German and Spanish texts of the evaluation-only sets
# (moderation/training/README.md): 0.65 and 0.7 gave the same F1, 0.7 the fewer false positives.
FOREIGN_BAR = 0.7


def word_ngrams(text: str) -> Counter[str]:
    words = _WORD.findall(text)
    grams: Counter[str] = Counter(words)
    grams.update(f"{a} {b}" for a, b in pairwise(words))
    return grams


@lru_cache(maxsize=50_000)
def _token_ngrams(token: str) -> tuple[str, ...]:
    padded = f" {token} "
    size = len(padded)
    return tuple(
        padded[i : i + n]
        for n in range(CHAR_MIN, min(CHAR_MAX, size) + 1)
        for i in range(size - n + 1)
    )


def char_ngrams(text: str) -> Counter[str]:
    grams: Counter[str] = Counter()
    for token, count in Counter(_CHAR_TOKEN.findall(text)).items():
        for gram in _token_ngrams(token):
            grams[gram] += count
    return grams


def lexicon_vector(text: str) -> list[float]:
    values: list[float] = []
    words = max(len(text.split()), 1)
    for count in lexicon_counts(text).values():
        values.append(math.log1p(count))
        values.append(min(count / words * 10.0, 3.0))
    return values


LEXICON_DIM = 2 * len(LEXICON_FEATURES)
# Words whose character n-gram columns a vocabulary keeps (then it starts afresh).
_TOKEN_COLUMNS_KEPT = 50_000


# all-MiniLM-L6-v2 runs in onnxruntime, which releases the GIL, so it runs on a side thread (a
# second core) while the calling thread goes on: with the multilingual encoder, and in the
# pipeline with the rules first. A text costs the longer of the two, not their sum; the CPU it
# spends is the same. Each task is a leaf (it submits nothing itself), so a full pool only
# queues work, it never deadlocks.
_SIDE_THREADS = 8


def _yield_gil() -> None:
    """Let a thread waiting for the GIL take it now. The side thread needs it briefly to start
    its encoder and to hand back the result; while the calling thread runs Python (the rules),
    it would otherwise wait up to the switch interval (5 ms) at both ends. Setting a shorter
    interval for the whole process did the same but slowed the server's other requests."""
    time.sleep(0)


@lru_cache(maxsize=1)
def _side_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=_SIDE_THREADS, thread_name_prefix="nova-encoder")


class _SemanticInput:
    """The semantic tier's input for one normalised text, being computed: all-MiniLM-L6-v2
    starts at once on a side thread, the multilingual encoder runs on the calling thread
    (`read_multilingual`, or when the input is asked for). Its numpy work holds the GIL between
    small operations, so beside Python work on another thread it would crawl."""

    def __init__(self, normalized: str) -> None:
        self._clipped = clip(normalized)
        self._minilm = _side_pool().submit(encoder.encode, self._clipped)
        _yield_gil()  # the side thread starts the encoder now, not after a switch interval
        self._multilingual: npt.NDArray[np.float32] | None = None

    def read_multilingual(self) -> None:
        if self._multilingual is None:
            self._multilingual = multilingual.encode(self._clipped)

    def pending(self) -> bool:
        """all-MiniLM-L6-v2 is still at work on the side thread (asked between pieces of
        Python work, it first lets a finished encoder's thread hand back its result)."""
        _yield_gil()
        return not self._minilm.done()

    def __call__(self) -> npt.NDArray[np.float32]:
        self.read_multilingual()
        assert self._multilingual is not None
        return np.concatenate([self._minilm.result(), self._multilingual])


def semantic_vector(normalized: str) -> npt.NDArray[np.float32]:
    """The semantic tier's input for a normalised text: both encoders' embeddings."""
    return _SemanticInput(normalized)()


# ("any category" weight, top category weight, offset) of the combination, then (slope, offset)
# of the Platt scaling of its result (`blend_any`).
Blend = tuple[float, float, float, float, float]


@overload
def logit(p: float) -> float: ...


@overload
def logit(p: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]: ...


def logit(p: float | npt.NDArray[np.float64]) -> float | npt.NDArray[np.float64]:
    """log(p / (1 - p)), `p` clipped away from 0 and 1; for one probability or an array."""
    clipped = np.clip(p, 1e-6, 1.0 - 1e-6)
    z = np.log(clipped / (1.0 - clipped))
    return float(z) if np.ndim(z) == 0 else z


@overload
def raised_logit(combination: tuple[float, float, float], z_any: float, z_top: float) -> float: ...


@overload
def raised_logit(
    combination: tuple[float, float, float],
    z_any: npt.NDArray[np.float64],
    z_top: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]: ...


def raised_logit(
    combination: tuple[float, float, float],
    z_any: float | npt.NDArray[np.float64],
    z_top: float | npt.NDArray[np.float64],
) -> float | npt.NDArray[np.float64]:
    """The "any category" logit with the top category's taken in: the combination of both
    logits, never below the ANY head's own. Training fits the blend on exactly this."""
    a, b, c = combination
    z = np.maximum(z_any, a * z_any + b * z_top + c)
    return float(z) if np.ndim(z) == 0 else z


def blend_any(blend: Blend, p_any: float, p_top: float) -> float:
    """The final "any category" probability from the ANY head's and the top category's."""
    a, b, c, slope, offset = blend
    return _sigmoid(slope * raised_logit((a, b, c), logit(p_any), logit(p_top)) + offset)


def _sigmoid(z: float) -> float:
    """The logistic function, its input clipped to [-30, 30]."""
    return 1.0 / (1.0 + math.exp(-min(max(z, -30.0), 30.0)))


def _blend_of(values: list[float] | None) -> Blend | None:
    if values is None:
        return None
    a, b, c, slope, offset = (float(v) for v in values)
    return a, b, c, slope, offset


def clip(text: str) -> str:
    if len(text) <= MAX_CHARS:
        return text
    half = MAX_CHARS // 2
    return text[:half] + " " + text[-half:]


# 1 + log(count) for counts up to this, looked up rather than computed (the same floats).
_SUBLINEAR_TF = np.array([0.0] + [1.0 + math.log(c) for c in range(1, 4096)])


def _sublinear(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    if counts.size and int(counts.max()) < len(_SUBLINEAR_TF):
        return _SUBLINEAR_TF[counts]
    return np.array([1.0 + math.log(int(c)) for c in counts])


_NO_COLUMNS = np.zeros(0, dtype=np.int64)
_NO_VALUES = np.zeros(0, dtype=np.float64)


@dataclass
class Vocabulary:
    """The n-gram -> column mapping and IDF weights of one feature block."""

    index: dict[str, int]
    idf: npt.NDArray[np.float32]

    # Per word, the columns of its character n-grams in this vocabulary and their counts, in
    # the order `char_ngrams` meets them (a word's n-grams are looked up once, not per text).
    _token_columns: dict[str, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        # Python floats: indexing a numpy array one value at a time costs more than the rest.
        self._idf_values: list[float] = self.idf.tolist()
        self._idf64 = self.idf.astype(np.float64)

    def weigh(self, grams: Counter[str]) -> tuple[list[int], list[float]]:
        counts: dict[int, int] = {}
        for gram, count in grams.items():
            col = self.index.get(gram)
            if col is not None:
                counts[col] = count
        return self._weighted(counts)

    def char_arrays(self, text: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """`weigh(char_ngrams(text))` as arrays, from each word's columns looked up once:
        the counts are summed per column in numpy, in the order the columns are first met, and
        weighed with the same float operations in the same order as `_weighted` (a sequential
        sum for the norm), so the floats are the same."""
        col_parts: list[npt.NDArray[np.int64]] = []
        count_parts: list[npt.NDArray[np.int64]] = []
        for token, repeats in Counter(_CHAR_TOKEN.findall(text)).items():
            cols, counts = self._columns_of(token)
            if cols.size:
                col_parts.append(cols)
                count_parts.append(counts * repeats if repeats != 1 else counts)
        if not col_parts:
            return _NO_COLUMNS, _NO_VALUES
        every_col = np.concatenate(col_parts)
        columns, first, inverse = np.unique(every_col, return_index=True, return_inverse=True)
        totals = np.bincount(inverse, weights=np.concatenate(count_parts)).astype(np.int64)
        order = np.argsort(first, kind="stable")
        cols = columns[order]
        vals = _sublinear(totals[order]) * self._idf64[cols]
        norm = math.sqrt(float(np.cumsum(vals * vals)[-1]))
        return cols, (vals / norm if norm else vals)

    def _columns_of(self, token: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        found = self._token_columns.get(token)
        if found is None:
            grams = Counter(_token_ngrams(token))
            pairs = [
                (col, count)
                for gram, count in grams.items()
                if (col := self.index.get(gram)) is not None
            ]
            found = (
                np.array([c for c, _ in pairs], dtype=np.int64),
                np.array([n for _, n in pairs], dtype=np.int64),
            )
            if len(self._token_columns) >= _TOKEN_COLUMNS_KEPT:
                self._token_columns.clear()
            self._token_columns[token] = found
        return found

    def _weighted(self, counts: dict[int, int]) -> tuple[list[int], list[float]]:
        """Sublinear TF x IDF of the counted columns, L2-normalised."""
        cols = list(counts)
        idf = self._idf_values
        vals = [(1.0 + math.log(counts[c])) * idf[c] for c in cols]
        norm = math.sqrt(sum(v * v for v in vals))
        if norm:
            vals = [v / norm for v in vals]
        return cols, vals


@dataclass
class Featurizer:
    words: Vocabulary
    chars: Vocabulary
    char_weight: float = 1.0
    lexicon_weight: float = 0.3
    embedding_weight: float = 0.0

    @property
    def embedding_dim(self) -> int:
        return embedding.DIM if self.embedding_weight else 0

    @property
    def dim(self) -> int:
        return len(self.words.index) + len(self.chars.index) + LEXICON_DIM + self.embedding_dim

    def sparse_row(self, normalized: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """The text's nonzero columns and their values."""
        text = clip(normalized)
        w_cols, w_vals = self.words.weigh(word_ngrams(text))
        c_cols, c_vals = self.chars.char_arrays(text)
        offset = len(self.words.index)
        cols = [np.array(w_cols, dtype=np.int64), c_cols + offset]
        vals = [np.array(w_vals, dtype=np.float64), c_vals * self.char_weight]
        offset += len(self.chars.index)
        lexical = [(i, v * self.lexicon_weight) for i, v in enumerate(lexicon_vector(text)) if v]
        cols.append(np.array([offset + i for i, _ in lexical], dtype=np.int64))
        vals.append(np.array([v for _, v in lexical], dtype=np.float64))
        if self.embedding_weight:
            offset += LEXICON_DIM
            vector = embedding.embed(text) * self.embedding_weight
            cols.append(np.arange(offset, offset + embedding.DIM, dtype=np.int64))
            vals.append(vector.astype(np.float64))
        return np.concatenate(cols), np.concatenate(vals)


def encode_array(values: npt.NDArray[Any]) -> str:
    return base64.b64encode(np.ascontiguousarray(values, dtype="<f4").tobytes()).decode("ascii")


def decode_array(data: str) -> npt.NDArray[np.float32]:
    return np.frombuffer(base64.b64decode(data), dtype="<f4").astype(np.float32)


class Prediction:
    """Per-head probabilities of one text, maybe still being computed (`Model.predict_later`).
    Call it for them; it computes them once."""

    def __init__(
        self,
        result: dict[str, float] | Callable[[], dict[str, float]],
        semantic: _SemanticInput | None = None,
    ) -> None:
        self._result = result if isinstance(result, dict) else None
        self._compute = None if isinstance(result, dict) else result
        self._semantic = semantic
        self._lock = threading.Lock()

    def pending(self) -> bool:
        """An encoder is still at work on a side thread: the calling thread may do other work
        for free meanwhile."""
        return self._semantic is not None and self._semantic.pending()

    def read_multilingual(self) -> None:
        """Run the multilingual encoder now, on the calling thread, if it is to run at all."""
        if self._semantic is not None:
            self._semantic.read_multilingual()

    def __call__(self) -> dict[str, float]:
        if self._result is None:
            with self._lock:
                if self._result is None:
                    assert self._compute is not None
                    self._result = self._compute()
        return self._result


@dataclass
class Model:
    featurizer: Featurizer
    heads: tuple[str, ...]
    weights: npt.NDArray[np.float32]  # (dim, heads)
    intercepts: npt.NDArray[np.float32]  # (heads,)
    thresholds: dict[str, float]
    meta: dict[str, Any]
    # Per head (slope, offset) of the Platt scaling applied to the raw logit.
    calibration: dict[str, tuple[float, float]] = field(default_factory=dict)
    # The semantic tier: heads over the encoder's embedding, (encoder.DIM, heads) and (heads,).
    encoder_weights: npt.NDArray[np.float32] | None = None
    encoder_intercepts: npt.NDArray[np.float32] | None = None
    # Per head (n-gram weight, encoder weight, offset) of the stacked logistic combination.
    stack: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    # The n-gram tier's calibrated "any category" probability from which the encoder runs.
    gate: float = 0.0
    # The final "any category" blend (`blend_any`); None in artifacts from before it.
    any_blend: Blend | None = None
    # The foreign-language path: heads over the multilingual encoder's embedding alone,
    # (multilingual.DIM, heads) and (heads,), and their Platt scaling per head.
    foreign_weights: npt.NDArray[np.float32] | None = None
    foreign_intercepts: npt.NDArray[np.float32] | None = None
    foreign_calibration: dict[str, tuple[float, float]] = field(default_factory=dict)

    @property
    def has_encoder(self) -> bool:
        return self.encoder_weights is not None and bool(self.stack)

    @property
    def has_foreign(self) -> bool:
        return self.foreign_weights is not None and bool(self.foreign_calibration)

    def reads_foreign(self, normalized: str) -> bool:
        """Whether `predict` reads this text by the foreign-language path."""
        return self.has_foreign and multilingual.reads_as_foreign(normalized)

    def foreign_logits(self, normalized: str) -> npt.NDArray[np.float32]:
        """Raw logit per head of the foreign-language path (requires a model trained with it)."""
        assert self.foreign_weights is not None and self.foreign_intercepts is not None
        out: npt.NDArray[np.float32] = (
            multilingual.encode(clip(normalized)) @ self.foreign_weights + self.foreign_intercepts
        )
        return out

    def foreign_probs(self, normalized: str) -> dict[str, float]:
        """Per head, the foreign-language path's probability, read against the English bars.

        Platt scaling fitted on the English tuning rows leaves these heads surer on French,
        German and Spanish text than on English: at the "any category" threshold they flagged
        half the safe texts of those languages in the tuning parts. A foreign text is flagged
        from a calibrated probability of FOREIGN_BAR instead: every head's logit is moved by
        the distance from FOREIGN_BAR to that threshold.
        """
        shift = logit(self.thresholds[ANY]) - logit(FOREIGN_BAR)
        out = {}
        for head, z in zip(self.heads, self.foreign_logits(normalized), strict=True):
            slope, offset = self.foreign_calibration.get(head, (1.0, 0.0))
            out[head] = _sigmoid(slope * float(z) + offset + shift)
        return out

    def encoder_logits(self, normalized: str) -> npt.NDArray[np.float32]:
        """Raw logit per head of the semantic tier (requires an encoder-trained model)."""
        return self._encoder_logits(semantic_vector(normalized))

    def _encoder_logits(self, vector: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        assert self.encoder_weights is not None and self.encoder_intercepts is not None
        out: npt.NDArray[np.float32] = vector @ self.encoder_weights + self.encoder_intercepts
        return out

    def logits(self, normalized: str) -> npt.NDArray[np.float32]:
        """Raw (uncalibrated) logit per head for one normalised text."""
        cols, vals = self.featurizer.sparse_row(normalized)
        if cols.size:
            out: npt.NDArray[np.float32] = (
                vals.astype(np.float32) @ self.weights[cols] + self.intercepts
            )
            return out
        return self.intercepts.copy()

    def calibrate(self, head: str, logit: float) -> float:
        slope, offset = self.calibration.get(head, (1.0, 0.0))
        return _sigmoid(slope * logit + offset)

    def combine(self, head: str, logit: float, encoder_logit: float) -> float:
        a, b, c = self.stack[head]
        return _sigmoid(a * logit + b * encoder_logit + c)

    def predict(self, normalized: str, *, semantic: bool = True) -> dict[str, float]:
        """Calibrated probability per head for one normalised text.

        `semantic=False` reads the n-gram tier only (sentences of a flagged text, where the
        question is which sentence carries the flag, not whether the text is unsafe). A text in
        another language than English is read by the foreign-language path alone: the n-gram
        tier and all-MiniLM-L6-v2 learned English and read little else.
        """
        return self.predict_later(normalized, semantic=semantic)()

    def predict_later(
        self, normalized: str, *, semantic: bool = True, read_as: str | None = None
    ) -> Prediction:
        """`predict`, started: calling the result gives the probabilities. When the semantic
        tier runs, all-MiniLM-L6-v2 is already at work on a side thread, so whatever the caller
        does before asking (the rules) overlaps with it. Asking twice gives the same result.

        `read_as`: the semantic tier reads that text instead, a near copy of this one just read
        (whose embeddings the encoders still hold), so neither encoder runs again."""
        if semantic and self.reads_foreign(normalized):
            return Prediction(self._blend(self.foreign_probs(normalized)))
        raw = self.logits(normalized)
        probs = {
            head: self.calibrate(head, float(z)) for head, z in zip(self.heads, raw, strict=True)
        }
        # Below the gate the n-gram tier's own calibrated probabilities stand.
        if not (semantic and self.has_encoder and probs[ANY] >= self.gate):
            return Prediction(self._blend(probs))
        vector = _SemanticInput(read_as or normalized)

        def stacked() -> dict[str, float]:
            encoded = self._encoder_logits(vector())
            return self._blend(
                {
                    head: self.combine(head, float(z), float(e))
                    for head, z, e in zip(self.heads, raw, encoded, strict=True)
                }
            )

        return Prediction(stacked, vector)

    def _blend(self, probs: dict[str, float]) -> dict[str, float]:
        """The "any category" probability takes in the most likely category's."""
        if self.any_blend is not None:
            top = max(probs[c] for c in self.heads if c != ANY)
            probs[ANY] = blend_any(self.any_blend, probs[ANY], top)
        return probs

    def to_json(self) -> dict[str, Any]:
        f = self.featurizer
        return {
            "format": FORMAT,
            "meta": self.meta,
            "heads": list(self.heads),
            "thresholds": {k: round(v, 4) for k, v in sorted(self.thresholds.items())},
            "calibration": {
                k: [round(a, 6), round(b, 6)] for k, (a, b) in sorted(self.calibration.items())
            },
            "char_weight": f.char_weight,
            "lexicon_weight": f.lexicon_weight,
            "embedding": embedding.NAME if f.embedding_weight else None,
            "embedding_weight": f.embedding_weight,
            "lexicon_features": list(LEXICON_FEATURES),
            "word_vocab": sorted(f.words.index, key=f.words.index.__getitem__),
            "word_idf": encode_array(f.words.idf),
            "char_vocab": sorted(f.chars.index, key=f.chars.index.__getitem__),
            "char_idf": encode_array(f.chars.idf),
            "intercepts": encode_array(self.intercepts),
            "weights": encode_array(self.weights),
            "encoder": SEMANTIC_NAME if self.has_encoder else None,
            "encoder_weights": (
                None if self.encoder_weights is None else encode_array(self.encoder_weights)
            ),
            "encoder_intercepts": (
                None if self.encoder_intercepts is None else encode_array(self.encoder_intercepts)
            ),
            "stack": {k: [round(x, 6) for x in v] for k, v in sorted(self.stack.items())},
            "gate": round(self.gate, 6),
            "any_blend": None if self.any_blend is None else [round(x, 6) for x in self.any_blend],
            "foreign_weights": (
                None if self.foreign_weights is None else encode_array(self.foreign_weights)
            ),
            "foreign_intercepts": (
                None if self.foreign_intercepts is None else encode_array(self.foreign_intercepts)
            ),
            "foreign_calibration": {
                k: [round(a, 6), round(b, 6)]
                for k, (a, b) in sorted(self.foreign_calibration.items())
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Model:
        if data.get("format") != FORMAT:
            raise ValueError("unknown moderation artifact format")
        if data.get("embedding") not in (None, embedding.NAME):
            raise ValueError("artifact was trained with another embedding; retrain it")
        if data["lexicon_features"] != list(LEXICON_FEATURES):
            raise ValueError("artifact was trained with a different lexicon; retrain it")
        words = Vocabulary(
            {g: i for i, g in enumerate(data["word_vocab"])}, decode_array(data["word_idf"])
        )
        chars = Vocabulary(
            {g: i for i, g in enumerate(data["char_vocab"])}, decode_array(data["char_idf"])
        )
        featurizer = Featurizer(
            words, chars, data["char_weight"], data["lexicon_weight"], data["embedding_weight"]
        )
        heads = tuple(data["heads"])
        weights = decode_array(data["weights"]).reshape(featurizer.dim, len(heads))
        if data.get("encoder") not in (None, SEMANTIC_NAME):
            raise ValueError("artifact was trained with another encoder; retrain it")
        enc_w = data.get("encoder_weights")
        enc_b = data.get("encoder_intercepts")
        for_w = data.get("foreign_weights")
        for_b = data.get("foreign_intercepts")
        return cls(
            featurizer=featurizer,
            heads=heads,
            weights=weights,
            intercepts=decode_array(data["intercepts"]),
            thresholds={k: float(v) for k, v in data["thresholds"].items()},
            meta=dict(data.get("meta", {})),
            calibration={k: (float(a), float(b)) for k, (a, b) in data["calibration"].items()},
            encoder_weights=(
                None if enc_w is None else decode_array(enc_w).reshape(SEMANTIC_DIM, len(heads))
            ),
            encoder_intercepts=None if enc_b is None else decode_array(enc_b),
            stack={
                k: (float(a), float(b), float(c)) for k, (a, b, c) in data.get("stack", {}).items()
            },
            gate=float(data.get("gate", 0.0)),
            any_blend=_blend_of(data.get("any_blend")),
            foreign_weights=(
                None if for_w is None else decode_array(for_w).reshape(multilingual.DIM, len(heads))
            ),
            foreign_intercepts=None if for_b is None else decode_array(for_b),
            foreign_calibration={
                k: (float(a), float(b)) for k, (a, b) in data.get("foreign_calibration", {}).items()
            },
        )

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))
        path.write_text(text + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Model:
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))


_override: Model | None = None


@lru_cache(maxsize=1)
def _shipped_model() -> Model:
    return Model.load(ARTIFACT_PATH)


def get_model() -> Model:
    """The model in use: the shipped artifact, unless `use_model()` swapped it (CV, tests)."""
    return _override if _override is not None else _shipped_model()


def use_model(model: Model | None) -> None:
    """Swap the model the engine uses (None restores the shipped artifact)."""
    global _override
    _override = model
