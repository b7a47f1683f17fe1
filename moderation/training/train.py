"""Deterministic training of the moderation classifier (see README.md in this folder).

`train_model(examples)` builds the vocabularies and fits one logistic-regression head per
category plus the "ANY" head; `cross_validate()` is the 5-fold protocol of the benchmark: the
model is retrained per fold on the other folds' dev rows plus all hand-written rows, and only
the held-out dev rows are scored. Inputs are sorted and seeds fixed, so the same sources always
give the same artifact.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression

from moderation.engine.classifier import (
    ANY,
    LEARNED_CATEGORIES,
    Featurizer,
    Model,
    Vocabulary,
    char_ngrams,
    clip,
    word_ngrams,
)
from moderation.engine.normalize import normalize
from moderation.training.splits import split

TRAINING_DIR = Path(__file__).resolve().parent
HANDWRITTEN_PATH = TRAINING_DIR / "handwritten_train.jsonl"
PROJECT_ROOT = TRAINING_DIR.parent.parent
DEFAULT_DEV_PATH = PROJECT_ROOT.parent / "shared" / "data" / "moderation-dev.jsonl.gz"
TOXIGEN_PATH = TRAINING_DIR / "data" / "toxigen.jsonl.gz"

HEADS: tuple[str, ...] = (ANY, *LEARNED_CATEGORIES)
SEED = 20261122


@dataclass(frozen=True)
class Params:
    word_min_df: int = 2
    char_min_df: int = 3
    max_word_features: int = 20_000
    max_char_features: int = 40_000
    char_weight: float = 1.0
    lexicon_weight: float = 0.3
    embedding_weight: float = 0.5
    c: float = 8.0
    handwritten_weight: float = 0.5
    extra_weight: float = 0.5
    any_uses_handwritten: bool = True
    max_fpr: float = 0.09


DEFAULT_PARAMS = Params()


@dataclass(frozen=True)
class Example:
    text: str
    labels: dict[str, int]  # category -> 0/1; absent = unknown
    source: str = "dev"

    @property
    def unsafe(self) -> int | None:
        known = [self.labels[c] for c in LEARNED_CATEGORIES if c in self.labels]
        if any(known):
            return 1
        # A row is safe for "any category" only when all its known labels are 0.
        return 0 if known else None


def load_jsonl(path: Path, source: str) -> list[Example]:
    opener = gzip.open if path.suffix == ".gz" else open
    examples = []
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            labels = {str(k): int(v) for k, v in row.get("labels", {}).items()}
            examples.append(Example(row["text"], labels, source))
    return examples


def load_handwritten(path: Path = HANDWRITTEN_PATH) -> list[Example]:
    return load_jsonl(path, "handwritten") if path.exists() else []


def _sorted(examples: Iterable[Example]) -> list[Example]:
    return sorted(
        examples,
        key=lambda e: (hashlib.sha1(e.text.encode(), usedforsecurity=False).hexdigest(), e.source),
    )


def _vocabulary(docs: Sequence[Counter[str]], min_df: int, limit: int) -> Vocabulary:
    df: Counter[str] = Counter()
    for grams in docs:
        df.update(grams.keys())
    kept = [g for g, n in df.items() if n >= min_df]
    kept.sort(key=lambda g: (-df[g], g))
    kept = sorted(kept[:limit])
    n_docs = len(docs)
    idf = np.array([math.log((1 + n_docs) / (1 + df[g])) + 1.0 for g in kept], dtype=np.float32)
    return Vocabulary({g: i for i, g in enumerate(kept)}, idf)


def _matrix(featurizer: Featurizer, texts: Sequence[str]) -> sparse.csr_matrix:
    indptr = [0]
    indices: list[int] = []
    data: list[float] = []
    for text in texts:
        cols, vals = featurizer.sparse_row(text)
        indices += cols
        data += vals
        indptr.append(len(indices))
    return sparse.csr_matrix(
        (np.asarray(data, dtype=np.float64), np.asarray(indices), np.asarray(indptr)),
        shape=(len(texts), featurizer.dim),
    )


def _target(example: Example, head: str) -> int | None:
    if head == ANY:
        return example.unsafe
    value = example.labels.get(head)
    return None if value is None else int(value)


def _weight(example: Example, params: Params) -> float:
    if example.source == "dev":
        return 1.0
    if example.source == "handwritten":
        return params.handwritten_weight
    return params.extra_weight


def train_model(
    examples: Sequence[Example],
    params: Params = DEFAULT_PARAMS,
    thresholds: dict[str, float] | None = None,
) -> Model:
    """Fit the vocabularies and every head on `examples` (deterministic)."""
    rows = _sorted(examples)
    texts = [clip(normalize(e.text)) for e in rows]
    words = _vocabulary(
        [word_ngrams(t) for t in texts], params.word_min_df, params.max_word_features
    )
    chars = _vocabulary(
        [char_ngrams(t) for t in texts], params.char_min_df, params.max_char_features
    )
    featurizer = Featurizer(
        words, chars, params.char_weight, params.lexicon_weight, params.embedding_weight
    )
    matrix = _matrix(featurizer, texts)
    weights = np.zeros((featurizer.dim, len(HEADS)), dtype=np.float32)
    intercepts = np.zeros(len(HEADS), dtype=np.float32)
    for h, head in enumerate(HEADS):
        keep = [
            i
            for i, e in enumerate(rows)
            if _target(e, head) is not None
            and (head != ANY or params.any_uses_handwritten or e.source != "handwritten")
        ]
        y = np.array([_target(rows[i], head) for i in keep], dtype=np.int64)
        if len(set(y.tolist())) < 2:
            intercepts[h] = -6.0
            continue
        sample_weight = np.array([_weight(rows[i], params) for i in keep])
        clf = LogisticRegression(
            C=params.c,
            class_weight="balanced",
            max_iter=5000,
            solver="liblinear",
            random_state=SEED,
        )
        clf.fit(matrix[keep], y, sample_weight=sample_weight)
        weights[:, h] = clf.coef_[0].astype(np.float32)
        intercepts[h] = np.float32(clf.intercept_[0])
    meta: dict[str, Any] = {
        "examples": len(rows),
        "sources": dict(sorted(Counter(e.source for e in rows).items())),
        "params": params.__dict__,
    }
    return Model(
        featurizer=featurizer,
        heads=HEADS,
        weights=weights,
        intercepts=intercepts,
        thresholds=dict(thresholds or DEFAULT_THRESHOLDS),
        meta=meta,
    )


# Fallback decision thresholds (calibrated probabilities); `fit_calibration` replaces them with
# the ones chosen on the tuning data.
DEFAULT_THRESHOLDS: dict[str, float] = {
    ANY: 0.5,
    "SEXUAL": 0.5,
    "HATE_SPEECH": 0.5,
    "VIOLENCE": 0.5,
    "HARASSMENT": 0.5,
    "SELF_HARM": 0.5,
    "CHILD_SAFETY": 0.5,
}


def folds(examples: Sequence[Example], k: int = 5) -> list[list[int]]:
    """Deterministic stratified folds over `examples` (indices), by hash of the text."""
    order = sorted(
        range(len(examples)),
        key=lambda i: hashlib.sha1(examples[i].text.encode(), usedforsecurity=False).hexdigest(),
    )
    pos = [i for i in order if examples[i].unsafe == 1]
    neg = [i for i in order if examples[i].unsafe != 1]
    out: list[list[int]] = [[] for _ in range(k)]
    for j, i in enumerate(pos + neg):
        out[j % k].append(i)
    return [sorted(f) for f in out]


def _platt(logits: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Slope and offset of a logistic fit of `y` on `logits` (Platt scaling)."""
    if len(set(y.tolist())) < 2:
        return 1.0, 0.0
    clf = LogisticRegression(C=1.0, solver="lbfgs", max_iter=1000)
    clf.fit(logits.reshape(-1, 1), y)
    return float(clf.coef_[0][0]), float(clf.intercept_[0])


def best_threshold(probs: np.ndarray, y: np.ndarray, max_fpr: float = 1.0) -> float:
    """The threshold with the best F1 among those whose false-positive rate is <= max_fpr."""
    best, best_f1 = 0.5, -1.0
    negatives = max(int((y == 0).sum()), 1)
    for t in np.unique(np.round(probs, 3)):
        pred = probs >= t
        tp = int((pred & (y == 1)).sum())
        fp = int((pred & (y == 0)).sum())
        fn = int((~pred & (y == 1)).sum())
        if fp / negatives > max_fpr or tp == 0:
            continue
        f1 = 2 * tp / (2 * tp + fp + fn)
        if f1 > best_f1:
            best, best_f1 = float(t), f1
    return min(max(best, 0.05), 0.95)


def fit_calibration(
    examples: Sequence[Example], params: Params = DEFAULT_PARAMS, k: int = 4
) -> tuple[dict[str, tuple[float, float]], dict[str, float]]:
    """Platt scaling and thresholds per head from out-of-fold logits.

    Every example is scored by a model trained without its fold; calibration and thresholds are
    fitted on the dev rows only (the distribution the engine is judged on). The "any category"
    threshold has the best F1 at a false-positive rate of at most `params.max_fpr`.
    """
    rows = list(examples)
    oof = np.zeros((len(rows), len(HEADS)), dtype=np.float64)
    for held in folds(rows, k):
        held_set = set(held)
        model = train_model([e for i, e in enumerate(rows) if i not in held_set], params)
        for i in held:
            oof[i] = model.logits(normalize(rows[i].text))
    calibration: dict[str, tuple[float, float]] = {}
    thresholds: dict[str, float] = {}
    for h, head in enumerate(HEADS):
        keep = [i for i, e in enumerate(rows) if e.source == "dev" and _target(e, head) is not None]
        if not keep:
            keep = [i for i, e in enumerate(rows) if _target(e, head) is not None]
        y = np.array([_target(rows[i], head) for i in keep], dtype=np.int64)
        z = oof[keep, h]
        slope, offset = _platt(z, y)
        calibration[head] = (slope, offset)
        probs = 1.0 / (1.0 + np.exp(-np.clip(slope * z + offset, -30, 30)))
        max_fpr = params.max_fpr if head == ANY else 1.0
        thresholds[head] = best_threshold(probs, y, max_fpr) if y.any() else 0.5
    return calibration, thresholds


def train_calibrated(examples: Sequence[Example], params: Params = DEFAULT_PARAMS) -> Model:
    """A model trained on every example, calibrated and thresholded out of fold."""
    calibration, thresholds = fit_calibration(examples, params)
    model = train_model(examples, params, thresholds)
    model.calibration = calibration
    model.meta["calibration"] = "Platt scaling on 4-fold out-of-fold logits of the dev rows"
    return model


def load_sources(
    dev_path: Path = DEFAULT_DEV_PATH,
    handwritten_path: Path = HANDWRITTEN_PATH,
    toxigen_path: Path | None = TOXIGEN_PATH,
) -> tuple[list[Example], list[Example]]:
    """(dev tuning rows, other training rows): only the tuning part of each labelled set."""
    dev, _ = split(load_jsonl(dev_path, "dev"), lambda e: e.text)
    extra = load_handwritten(handwritten_path)
    if toxigen_path is not None and toxigen_path.exists():
        extra += split(load_jsonl(toxigen_path, "toxigen"), lambda e: e.text)[0]
    return dev, extra


def cross_validate(
    dev: Sequence[Example],
    extra: Sequence[Example],
    k: int = 5,
    params: Params = DEFAULT_PARAMS,
) -> tuple[list[list[int]], list[Model]]:
    """One calibrated model per fold, trained on the other folds' dev rows plus `extra`."""
    fold_ids = folds(dev, k)
    models = []
    for held in fold_ids:
        held_set = set(held)
        train = [e for i, e in enumerate(dev) if i not in held_set] + list(extra)
        models.append(train_calibrated(train, params))
    return fold_ids, models


def build_artifact(
    dev_path: Path = DEFAULT_DEV_PATH,
    handwritten_path: Path = HANDWRITTEN_PATH,
    out_path: Path | None = None,
    params: Params = DEFAULT_PARAMS,
    toxigen_path: Path | None = TOXIGEN_PATH,
) -> tuple[Path, Model]:
    """Train on the tuning part of every source and write the shipped artifact."""
    from moderation.engine.classifier import ARTIFACT_PATH

    dev, extra = load_sources(dev_path, handwritten_path, toxigen_path)
    model = train_calibrated(dev + extra, params)
    target = out_path or ARTIFACT_PATH
    model.save(target)
    return target, model
