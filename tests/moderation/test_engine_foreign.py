"""French, German and Spanish text, and text in other scripts, read by the foreign-language
path: heads over the multilingual encoder alone, instead of the n-gram tier and
all-MiniLM-L6-v2, which learned English (all texts written for these tests)."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterator

import pytest

from moderation.engine import classifier, multilingual
from moderation.engine.classifier import ANY, FOREIGN_BAR, Model, blend_any, get_model, logit
from moderation.engine.normalize import normalize
from moderation.engine.pipeline import moderate


@pytest.fixture
def without_foreign_path() -> Iterator[None]:
    """The engine with the shipped model minus its foreign-language heads."""
    classifier.use_model(dataclasses.replace(get_model(), foreign_weights=None))
    try:
        yield
    finally:
        classifier.use_model(None)


@pytest.mark.parametrize(
    "text",
    [
        "Je vais te tuer ce soir.",
        "Demain on part à la mer avec les enfants.",
        "Ich habe gestern einen Kuchen für meine Oma gebacken.",
        "Die Band hat gestern richtig gut gespielt.",
        "El concierto de anoche fue increíble.",
        "¿Dónde está la estación de tren?",
        "Les gens comme toi devraient disparaître.",
        # Other scripts: read by the multilingual encoder, which knows 16 languages.
        "Привет, как дела? Хорошего дня!",
        "أتمنى لك يوماً سعيداً",
        "今天天气很好，我们去公园吧。",
    ],
)
def test_french_german_and_spanish_read_as_foreign(text: str) -> None:
    assert multilingual.reads_as_foreign(normalize(text))


@pytest.mark.parametrize(
    "text",
    [
        "I will kill you tonight.",
        # German and Spanish words that are English words too, or appear in English text.
        "Man, I was so tired I could die.",
        "The Day of the Dead is celebrated in Mexico with marigolds and family altars.",
        "We had dinner at La Tasca and the paella was great.",
        "The die is cast, as Caesar said.",
        "Es ist what they call a loan phrase in the article I read.",
        "My grandmother always said Привет when she called.",
        "ok",
        "",
    ],
)
def test_english_does_not_read_as_foreign(text: str) -> None:
    assert not multilingual.reads_as_foreign(normalize(text))


def test_the_language_is_told_from_the_texts_beginning() -> None:
    """The encoder reads the beginning of a text; so does the language check, which therefore
    costs the same on a text of 100,000 characters."""
    english = "The council met on Tuesday to discuss the bus routes and the parks budget. "
    french = "Le conseil s'est réuni mardi pour parler des lignes de bus et du budget des parcs. "
    assert multilingual.reads_as_foreign(normalize(french * 40 + english * 40))
    assert not multilingual.reads_as_foreign(normalize(english * 40 + french * 40))


def test_a_foreign_text_is_read_by_the_foreign_path_alone() -> None:
    model = get_model()
    assert model.has_foreign
    assert model.foreign_weights is not None
    assert model.foreign_weights.shape == (multilingual.DIM, len(model.heads))
    french = normalize("Les gens comme toi devraient disparaître, tu pollues l'air.")
    probs = model.foreign_probs(french)
    assert model.any_blend is not None
    top = max(p for head, p in probs.items() if head != ANY)
    expected = {**probs, ANY: blend_any(model.any_blend, probs[ANY], top)}
    assert model.predict(french) == expected
    # Without the foreign heads the same text goes through the English tiers.
    plain = dataclasses.replace(model, foreign_weights=None)
    assert plain.predict(french) != expected
    # English text never takes the foreign path, and sentences (semantic=False) never do.
    english = normalize("People like you should disappear, you pollute the air.")
    assert model.predict(english) == plain.predict(english)
    assert model.predict(french, semantic=False) == plain.predict(french, semantic=False)


def test_the_foreign_bar_is_moved_onto_the_any_threshold() -> None:
    """A foreign text's calibrated probability of FOREIGN_BAR reads as the "any category"
    threshold, on every head; the order of texts is the calibrated one."""
    model = get_model()
    text = normalize("Er zog ihr das Höschen aus.")
    raw = model.foreign_logits(text)
    shift = logit(model.thresholds[ANY]) - logit(FOREIGN_BAR)
    for head, z, p in zip(model.heads, raw, model.foreign_probs(text).values(), strict=True):
        slope, offset = model.foreign_calibration[head]
        assert logit(p) == pytest.approx(slope * float(z) + offset + shift, abs=1e-4)
    # At exactly the bar, the "any category" head sits on its threshold.
    at_bar = logit(FOREIGN_BAR) + shift
    assert 1 / (1 + math.exp(-at_bar)) == pytest.approx(model.thresholds[ANY], abs=1e-9)


def test_the_artifact_round_trips_the_foreign_path(tmp_path) -> None:
    model = get_model()
    path = tmp_path / "artifact.json"
    model.save(path)
    again = Model.from_json(json.loads(path.read_text()))
    assert again.has_foreign
    assert again.foreign_calibration == pytest.approx(model.foreign_calibration, abs=1e-6)
    text = normalize("Te voy a esperar a la salida.")
    for head, p in model.predict(text).items():
        assert again.predict(text)[head] == pytest.approx(p, abs=1e-4)


# Unsafe texts in the three languages that no rule reads: the engine flagged none of them
# before the foreign path, and flags each with it.
UNFLAGGED_BEFORE = [
    # ("Tu es trop moche et trop bête" is now read by the French insult rule too.)
    ("Franchement ta tête me donne envie de vomir, tout le monde au lycée se moque de toi.", None),
    ("Les gens comme toi devraient disparaître, tu pollues l'air qu'on respire.", None),
    ("Leute wie du sollten einfach verschwinden, du bist eine Schande für alle.", None),
    (
        "Elle a enlevé sa culotte et s'est allongée sur le lit en écartant les jambes pour lui.",
        "SEXUAL",
    ),
    ("Er zog ihr das Höschen aus und leckte sie, bis sie kam.", "SEXUAL"),
    ("Me gustaría follarte toda la noche hasta que grites mi nombre.", "SEXUAL"),
    # Russian, which normalisation turned into Latin nonsense before.
    ("Ты жалкое ничтожество, никто тебя не любит.", "HARASSMENT"),
]
# Safe texts in the three languages, some naming a group or with a strong word.
SAFE_FOREIGN = [
    "Demain on part à la mer avec les enfants, j'ai hâte de voir leur tête devant les vagues.",
    "Le gouvernement a présenté hier son budget pour l'année prochaine.",
    "Ich habe gestern einen Kuchen für meine Oma gebacken, sie hat sich sehr gefreut.",
    "Meine Nachbarn sind Muslime und helfen mir immer beim Einkaufen.",
    "El concierto de anoche fue increíble, la banda tocó todas sus canciones clásicas.",
    "Mis compañeros de piso son gais y cocinan de maravilla.",
    "Мои соседи мусульмане, очень добрые люди.",
    "Завтра идём в кино с друзьями.",
    "أتمنى لك يوماً سعيداً",
    "今天天气很好，我们去公园吧。",
]


@pytest.mark.parametrize(("text", "category"), UNFLAGGED_BEFORE)
def test_foreign_unsafe_text_is_flagged_by_the_foreign_path(text: str, category: str | None):
    v = moderate(text)
    assert v.status == "DISALLOWED", (v.category, v.scores)
    if category:
        assert v.category == category


@pytest.mark.usefixtures("without_foreign_path")
@pytest.mark.parametrize(("text", "category"), UNFLAGGED_BEFORE)
def test_the_english_tiers_alone_let_the_same_text_through(text: str, category: str | None):
    assert moderate(text).status == "ALLOWED"


@pytest.mark.parametrize("text", SAFE_FOREIGN)
def test_foreign_safe_text_stays_allowed(text: str) -> None:
    v = moderate(text)
    assert (v.status, v.category) == ("ALLOWED", "SAFE"), v.scores
