"""A static sentence embedding: the mean of WordLlama token vectors, L2-normalised.

The weights (a 32,000 x 256 float16 table distilled from large language models' token
embeddings) and the tokenizer ship inside the `wordllama` package installed from the lock
file; they are read from its installed files, never downloaded. Only numpy, `safetensors` and
`tokenizers` run at inference; one 2,000-character text takes about a millisecond.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

NAME = "wordllama-l2_supercat-256"
DIM = 256
MAX_TOKENS = 4096


def _package_dir() -> Path:
    spec = importlib.util.find_spec("wordllama")
    if spec is None or spec.origin is None:
        raise RuntimeError("the wordllama package (moderation embedding weights) is not installed")
    return Path(spec.origin).parent


@lru_cache(maxsize=1)
def _load() -> tuple[object, npt.NDArray[np.float32]]:
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    root = _package_dir()
    tokenizer = Tokenizer.from_file(str(root / "tokenizers" / "l2_supercat_tokenizer_config.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    table = load_file(str(root / "weights" / "l2_supercat_256.safetensors"))["embedding.weight"]
    return tokenizer, np.asarray(table, dtype=np.float32)


def embed(text: str) -> npt.NDArray[np.float32]:
    """The unit-length embedding of `text` (zeros for a text without tokens)."""
    tokenizer, table = _load()
    # A lone surrogate has no UTF-8 form; the tokenizer takes it as U+FFFD.
    text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    ids = tokenizer.encode(text, add_special_tokens=False).ids[:MAX_TOKENS]  # type: ignore[attr-defined]
    if not ids:
        return np.zeros(DIM, dtype=np.float32)
    vector: npt.NDArray[np.float32] = table[ids].mean(axis=0).astype(np.float32)
    norm = float(np.linalg.norm(vector))
    return vector / np.float32(norm) if norm else vector
