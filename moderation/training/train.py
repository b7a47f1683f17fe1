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

TRAINING_DIR = Path(__file__).resolve().parent
HANDWRITTEN_PATH = TRAINING_DIR / "handwritten_train.jsonl"
PROJECT_ROOT = TRAINING_DIR.parent.parent
DEFAULT_DEV_PATH = PROJECT_ROOT.parent / "shared" / "data" / "moderation-dev.jsonl.gz"

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
    c: float = 8.0
    handwritten_weight: float = 0.5
    any_uses_handwritten: bool = False


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
    featurizer = Featurizer(words, chars, params.char_weight, params.lexicon_weight)
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
        sample_weight = np.array(
            [params.handwritten_weight if rows[i].source == "handwritten" else 1.0 for i in keep]
        )
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


# Decision thresholds per head, tuned by 5-fold cross-validation on the dev file.
DEFAULT_THRESHOLDS: dict[str, float] = {
    ANY: 0.55,
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


def cross_validate(
    dev: Sequence[Example],
    extra: Sequence[Example],
    k: int = 5,
    params: Params = DEFAULT_PARAMS,
) -> tuple[list[list[int]], list[Model]]:
    """Train one model per fold on the other folds' dev rows plus `extra`."""
    fold_ids = folds(dev, k)
    models = []
    for held in fold_ids:
        held_set = set(held)
        train = [e for i, e in enumerate(dev) if i not in held_set] + list(extra)
        models.append(train_model(train, params))
    return fold_ids, models


def build_artifact(
    dev_path: Path = DEFAULT_DEV_PATH,
    handwritten_path: Path = HANDWRITTEN_PATH,
    out_path: Path | None = None,
    params: Params = DEFAULT_PARAMS,
) -> tuple[Path, Model]:
    """Train on every source and write the shipped artifact."""
    from moderation.engine.classifier import ARTIFACT_PATH

    examples = load_jsonl(dev_path, "dev") + load_handwritten(handwritten_path)
    model = train_model(examples, params)
    target = out_path or ARTIFACT_PATH
    model.save(target)
    return target, model
