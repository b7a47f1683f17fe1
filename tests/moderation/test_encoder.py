"""The semantic tier: the numpy sentence encoder and how the classifier gates and stacks it."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from moderation.engine import encoder, multilingual, rules
from moderation.engine.classifier import (
    ANY,
    LEARNED_CATEGORIES,
    SEMANTIC_DIM,
    blend_any,
    get_model,
    semantic_vector,
)


def cos(a: str, b: str) -> float:
    return float(encoder.encode(a) @ encoder.encode(b))


def test_embeddings_are_unit_length_and_deterministic():
    first = encoder.encode("The cat sat on the mat.")
    assert first.shape == (encoder.DIM,)
    assert first.dtype == np.float32
    assert abs(float(np.linalg.norm(first)) - 1.0) < 1e-5
    assert np.array_equal(first, encoder.encode("The cat sat on the mat."))


@pytest.mark.parametrize(
    ("text", "paraphrase", "unrelated"),
    [
        (
            "A man is playing a guitar.",
            "Someone plays an instrument.",
            "The stock market fell sharply today.",
        ),
        (
            "How do I reset my password?",
            "I forgot my login and need a new password.",
            "Bake the bread for forty minutes.",
        ),
        (
            "I am going to hurt you badly.",
            "You will be injured by me.",
            "The library opens at nine.",
        ),
    ],
)
def test_meaning_not_words_decides_similarity(text, paraphrase, unrelated):
    # A broken forward pass (wrong attention, weight orientation, pooling) scores paraphrases
    # about like unrelated sentences; the real model keeps them far apart.
    assert cos(text, paraphrase) > cos(text, unrelated) + 0.25


@pytest.mark.parametrize(
    "text",
    [
        "Thanks, the parcel arrived on time.",
        "I will hunt you down and hurt your family.",
        ("Minutes of the council meeting on bus routes and the parks budget. " * 30)[:2000],
        "Je vais te retrouver et te faire du mal.",
    ],
)
def test_int8_graph_matches_the_float32_computation(text):
    assert float(encoder.encode(text) @ encoder.reference_encode(text)) > 0.97


def test_graph_is_built_once_into_the_cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ENCODER_CACHE_DIR", str(tmp_path))
    built = encoder._quantized_path()
    assert built.parent == tmp_path and built.stat().st_size > 10_000_000
    first = built.stat().st_mtime_ns
    assert encoder._quantized_path() == built
    assert built.stat().st_mtime_ns == first
    assert [p.name for p in tmp_path.iterdir()] == [built.name]  # no work files left


def test_long_text_is_encoded_on_its_first_tokens():
    head = "Gardening in spring is a pleasure for the whole family. " * 40
    tail = " Violent threats against the neighbours follow." * 40
    assert np.allclose(encoder.encode(head), encoder.encode(head + tail), atol=1e-5)


def test_empty_text_has_an_embedding():
    assert encoder.encode("").shape == (encoder.DIM,)


def test_shipped_model_stacks_both_tiers_for_every_head():
    model = get_model()
    assert model.has_encoder
    assert set(model.stack) == {ANY, *LEARNED_CATEGORIES}
    assert 0.0 < model.gate < model.thresholds[ANY]


def test_gate_decides_whether_the_encoder_runs():
    model = get_model()
    text = "you are a worthless idiot and everyone hates you"
    raw = model.logits(text)
    ngram_only = {h: model.calibrate(h, float(z)) for h, z in zip(model.heads, raw, strict=True)}
    # The final "any category" blend applies to whichever tier's probabilities stand.
    assert model.any_blend is not None

    def blended(probs: dict[str, float]) -> dict[str, float]:
        assert model.any_blend is not None
        top = max(p for h, p in probs.items() if h != ANY)
        return {**probs, ANY: blend_any(model.any_blend, probs[ANY], top)}

    closed = dataclasses.replace(model, gate=1.01)
    assert closed.predict(text) == blended(ngram_only)
    opened = dataclasses.replace(model, gate=0.0)
    semantic = model.encoder_logits(text)
    expected = {
        h: model.combine(h, float(z), float(e))
        for h, z, e in zip(model.heads, raw, semantic, strict=True)
    }
    assert opened.predict(text) == blended(expected)
    assert opened.predict(text) != blended(ngram_only)
    assert opened.predict(text, semantic=False) == blended(ngram_only)


def test_artifact_round_trips_the_semantic_tier(tmp_path):
    model = get_model()
    path = tmp_path / "artifact.json"
    model.save(path)
    again = type(model).load(path)
    assert set(again.stack) == set(model.stack)
    for head, weights in model.stack.items():
        assert again.stack[head] == pytest.approx(weights, abs=1e-6)
    assert again.gate == pytest.approx(model.gate, abs=1e-6)
    assert again.encoder_weights is not None and model.encoder_weights is not None
    assert np.array_equal(again.encoder_weights, model.encoder_weights)
    text = "I will find you and make you pay"
    for head, p in model.predict(text).items():
        assert again.predict(text)[head] == pytest.approx(p, abs=1e-4)


# --- The multilingual encoder (Universal Sentence Encoder multilingual v3) -----------------


def test_multilingual_embeddings_are_unit_length_and_deterministic():
    a = multilingual.encode("Je vais te tuer ce soir.")
    assert a.shape == (multilingual.DIM,) and a.dtype == np.float32
    assert np.linalg.norm(a) == pytest.approx(1.0, abs=1e-4)
    assert np.array_equal(a, multilingual.encode("Je vais te tuer ce soir."))
    assert multilingual.encode("").shape == (multilingual.DIM,)


@pytest.mark.parametrize(
    ("english", "translations", "unrelated"),
    [
        (
            "I am going to kill you tonight.",
            [
                "Je vais te tuer ce soir.",
                "Ich werde dich heute Nacht töten.",
                "Te voy a matar esta noche.",
            ],
            "The museum opens at nine on Sundays.",
        ),
        (
            "Refugees are rats and should be drowned.",
            [
                "Les réfugiés sont des rats, il faut les noyer.",
                "Flüchtlinge sind Ratten und sollten ertrinken.",
                "Los refugiados son ratas y hay que ahogarlos.",
            ],
            "Refugees opened a bakery on our street.",
        ),
    ],
)
def test_a_sentence_and_its_translations_lie_close_together(english, translations, unrelated):
    # What lets heads trained on English read French, German and Spanish.
    e = multilingual.encode(english)
    far = float(e @ multilingual.encode(unrelated))
    for t in translations:
        assert float(e @ multilingual.encode(t)) > far + 0.2, t


def test_only_the_first_characters_are_encoded():
    head = "Have a lovely day at the beach with your family. " * 40
    assert np.array_equal(
        multilingual.encode(head), multilingual.encode(head + "I will kill you." * 100)
    )


def test_the_semantic_tier_reads_both_encoders_side_by_side():
    text = "you are a worthless idiot and everyone hates you"
    vector = semantic_vector(text)
    assert vector.shape == (SEMANTIC_DIM,) == (encoder.DIM + multilingual.DIM,)
    assert np.array_equal(vector[: encoder.DIM], encoder.encode(text))
    assert np.array_equal(vector[encoder.DIM :], multilingual.encode(text))
    model = get_model()
    assert model.encoder_weights is not None
    assert model.encoder_weights.shape == (SEMANTIC_DIM, len(model.heads))
    # Both halves carry weight in every head.
    for half in (model.encoder_weights[: encoder.DIM], model.encoder_weights[encoder.DIM :]):
        assert np.abs(half).sum(axis=0).min() > 0


def test_predict_later_runs_minilm_on_a_side_thread_while_the_caller_goes_on(monkeypatch):
    text = "you are a worthless idiot and everyone hates you"
    model = dataclasses.replace(get_model(), gate=0.0)
    expected = model.predict(text)
    threads: list[str] = []
    original = encoder.encode

    def spy(clipped: str) -> np.ndarray:
        threads.append(threading.current_thread().name)
        return original(clipped)

    monkeypatch.setattr(encoder, "encode", spy)
    pending = model.predict_later(text)
    # Started before anyone asks for the result, on the side pool, not the calling thread.
    deadline = time.monotonic() + 10
    while not threads and time.monotonic() < deadline:
        time.sleep(0.001)
    assert threads and threads[0].startswith("nova-encoder")
    assert pending() == expected
    assert pending() is pending()  # asked twice, computed once
    assert len(threads) == 1


def test_predict_later_below_the_gate_starts_no_encoder(monkeypatch):
    text = "you are a worthless idiot and everyone hates you"
    model = dataclasses.replace(get_model(), gate=1.01)

    def refuse(clipped: str) -> np.ndarray:
        raise AssertionError("the encoder ran below the gate")

    monkeypatch.setattr(encoder, "encode", refuse)
    assert model.predict_later(text)() == model.predict(text)


def test_more_concurrent_texts_than_side_threads_all_finish_with_the_same_verdicts():
    texts = [f"you are a worthless idiot number {i} and everyone hates you" for i in range(20)]
    model = dataclasses.replace(get_model(), gate=0.0)
    alone = [model.predict(t) for t in texts]
    with ThreadPoolExecutor(max_workers=20) as pool:
        together = list(pool.map(model.predict, texts, timeout=60))
    # Equal up to float rounding: BLAS may split a product differently while another thread
    # holds its thread limit.
    for got, want in zip(together, alone, strict=True):
        assert got == pytest.approx(want, abs=1e-5)


def test_the_rules_ask_for_the_sexual_probability_only_when_a_minor_is_in_explicit_text():
    # The pipeline hands the rules a function, so they run while the encoder still works;
    # the probability decides only whether explicit words about a minor are sexual content.
    asked: list[float] = []

    def sexual(p: float) -> Callable[[], float]:
        def score() -> float:
            asked.append(p)
            return p

        return score

    plain = "The council met on Tuesday to discuss the bus routes."
    assert rules.run_rules(plain, plain.lower(), sexual(0.9)) == []
    assert asked == []
    text = "she is 16 and they were naked, the sex was great"
    assert "CHILD_SAFETY" in {f.category for f in rules.run_rules(text, text, sexual(0.9))}
    assert "CHILD_SAFETY" not in {f.category for f in rules.run_rules(text, text, sexual(0.1))}
    assert asked == [0.9, 0.1]
