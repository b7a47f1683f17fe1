"""What the engine does to cost less on long text, and that it reads the same for it.

Word lists grouped by first letter, character n-gram columns looked up once per word, both
encoders' embeddings kept for a text seen a moment ago, sentences read while an encoder runs,
and the copy of a text without its swear words read with the text's own embeddings when the
swearing is sparse.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest

from moderation.engine import (
    classifier,
    context,
    encoder,
    forget_texts,
    lexicon,
    moderate,
    multilingual,
    pipeline,
    prefilter,
    rules,
)
from moderation.engine.classifier import char_ngrams, get_model
from moderation.engine.normalize import normalize


def flat_pattern(terms: Iterable[str]) -> re.Pattern[str]:
    """The word-list regex as one flat alternation, longest term first: the yardstick."""
    alternatives = []
    for term in sorted(set(terms), key=lambda t: (-len(t), t)):
        parts = []
        for ch in term:
            if ch == " ":
                parts.append(r"[\s\-_.]*")
            elif ch.isalpha():
                parts.append(re.escape(ch) + "+")
            else:
                parts.append(re.escape(ch))
        alternatives.append("".join(parts))
    return re.compile(r"(?<![a-z0-9])(?:" + "|".join(alternatives) + r")(?![a-z0-9])")


WORD_LISTS = {
    "profanity": lexicon.PROFANITY,
    "insults": lexicon.INSULTS,
    "slurs": lexicon.SLURS,
    "groups": lexicon.PROTECTED_GROUPS,
    "sexual": lexicon.SEXUAL_EXPLICIT,
    "minors": lexicon.MINOR_TERMS,
    "self_harm": lexicon.SELF_HARM_TERMS,
    "violence": lexicon.VIOLENCE_TERMS,
}


@pytest.mark.parametrize("name", sorted(WORD_LISTS))
def test_grouped_word_list_matches_exactly_what_one_flat_alternation_matches(name):
    terms = sorted(set(WORD_LISTS[name]))
    doubled = [re.sub(r"([a-z])", r"\1\1", t) for t in terms]
    texts = [
        " ".join(terms),
        "-".join(terms),
        ".".join(terms),
        " ".join(doubled),
        "".join(terms),  # no word boundaries: nothing or the same few matches
        " ".join(t[:-1] for t in terms if len(t) > 2),  # cut short: other terms or none
        " ".join(t + "s" for t in terms),
        " ".join(f"x{t} {t}9 {t.upper()}" for t in terms),
    ]
    grouped, flat = lexicon.term_pattern(terms), flat_pattern(terms)
    for text in texts:
        assert [m.span() for m in grouped.finditer(text)] == [m.span() for m in flat.finditer(text)]
    assert grouped.search(" ".join(doubled))  # repeated letters still match


def test_grouped_word_list_prefers_the_longer_term_at_one_start():
    pattern = lexicon.term_pattern(["son", "son of a bitch", "bitch"])
    assert pattern.findall("you son of a bitch") == ["son of a bitch"]
    assert pattern.findall("my son, the bitch") == ["son", "bitch"]


@pytest.mark.parametrize(
    "text",
    [
        "the the the cat cat sat",
        "kill the process, then kill the other process",
        "ça va très bien, merci beaucoup",
        "a",
        "",
        "fuuuuck this d4mn th1ng",
        "word " * 300,
    ],
)
def test_character_columns_looked_up_per_word_weigh_as_the_n_grams_do(text):
    chars = get_model().featurizer.chars
    normalized = normalize(text)
    cols, vals = chars.char_arrays(normalized)
    assert (cols.tolist(), vals.tolist()) == chars.weigh(char_ngrams(normalized))


def test_forget_texts_empties_every_cache_that_remembers_a_text():
    moderate("You worthless idiot, everyone at the office laughs at you behind your back.")
    forget_texts()
    for cached in (
        normalize,
        lexicon.lexicon_counts,
        encoder.cached_embeddings,
        multilingual.cached_embeddings,
        prefilter.found_in,
        context.split_sentences,
    ):
        assert cached.cache_info().currsize == 0


def test_encoders_read_a_text_again_from_their_cache_only_when_their_window_is_the_same():
    forget_texts()
    head = "The committee approved the new budget for the city parks. " * 60
    assert len(encoder.window(head)) < len(head)  # 256 word pieces: a part of it
    first = encoder.encode(head)
    again = encoder.encode(head + " And then something else entirely was said.")
    assert again is first  # past the window: the same embedding, not computed again
    other = encoder.encode("A different text. " + head)
    assert other is not first
    assert encoder.cached_embeddings.cache_info().misses == 2
    assert multilingual.window(head) == head[: multilingual.MAX_CHARS]


class Recorder:
    """Records the `read_as` of every prediction the pipeline starts."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[str, str | None]] = []
        original = classifier.Model.predict_later

        def spy(
            model: classifier.Model,
            normalized: str,
            *,
            semantic: bool = True,
            read_as: str | None = None,
        ) -> classifier.Prediction:
            if semantic:
                self.calls.append((normalized, read_as))
            return original(model, normalized, semantic=semantic, read_as=read_as)

        monkeypatch.setattr(classifier.Model, "predict_later", spy)


INSULT = "You are a pathetic worthless idiot and everyone hates you, so fuck off."
CALM = [
    "We met at the library on Tuesday to plan the spring garden.",
    "The weather was mild and the tulips along the fence had started to open.",
    "Maria brought seed catalogues and a list of what grew well last year.",
    "Tom wants more tomatoes, and the children asked for sunflowers by the gate.",
    "We agreed to share the watering rota and to meet again in two weeks.",
    "Someone suggested a compost bin behind the shed, which everyone liked.",
]


def test_dense_swearing_is_read_again_by_both_encoders_without_the_swear_words(monkeypatch):
    recorder = Recorder(monkeypatch)
    forget_texts()
    verdict = moderate(INSULT)
    assert verdict.category == "HARASSMENT"  # the insult stands without its swear word
    rechecked = [read_as for text, read_as in recorder.calls if "fuck" not in text]
    assert rechecked == [None]  # the copy without it, read afresh
    assert encoder.cached_embeddings.cache_info().misses == 2
    assert multilingual.cached_embeddings.cache_info().misses == 2


RANT = (
    "You are the most useless, pathetic coworker I have ever had. Nobody in this office can "
    "stand you. Every meeting you open your mouth and waste everyone's time with your stupid "
    "ideas. You are lazy, you are dumb, and you are a disgrace to this team. Everyone laughs at "
    "you behind your back and they are right to. Do us all a favour and quit, because nobody "
    "will miss you."
)


def test_sparse_swearing_reads_the_copy_without_it_with_the_texts_own_embeddings(monkeypatch):
    recorder = Recorder(monkeypatch)
    text = RANT + " Honestly, fuck you. " + RANT
    normalized = context.benign_senses(normalize(text))
    assert pipeline._swearing_is_sparse(normalized)
    forget_texts()
    verdict = moderate(text)
    assert verdict.category == "HARASSMENT"
    rechecked = [read_as for text_read, read_as in recorder.calls if "fuck" not in text_read]
    assert rechecked == [normalized]
    # Each encoder ran once: the copy was read with the text's own embeddings.
    assert encoder.cached_embeddings.cache_info().misses == 1
    assert multilingual.cached_embeddings.cache_info().misses == 1


def test_swearing_share_is_counted_in_what_each_encoder_reads():
    calm = " ".join(CALM * 4)
    # One swear word in about 250 words: sparse.
    assert pipeline._swearing_is_sparse(normalize(calm + " what the fuck " + calm))
    # Four in the first 120 words: dense for the encoders, though sparse over the whole text.
    dense_head = normalize("fuck this shit, fuck that crap. " + calm + " " + calm * 5)
    assert not pipeline._swearing_is_sparse(dense_head)
    # A short text with one swear word is dense.
    assert not pipeline._swearing_is_sparse(normalize("well fuck that, honestly"))


def test_sentences_are_read_ahead_only_while_asked():
    model = get_model()
    parts = pipeline._Sentences("One calm line. Another calm line. A third one here.", model)
    parts.read_ahead(["VIOLENCE"], meanwhile=lambda: False)
    assert parts._probs == {} and parts._rules == {}
    answers = iter([True, False])
    parts.read_ahead(meanwhile=lambda: next(answers))
    assert len(parts._probs) == 1 and parts._rules == {}
    parts.read_ahead(["CHILD_SAFETY"])
    assert set(parts._probs) == set(parts.raw)
    # Only the detectors that can find the category ran on each sentence.
    ran = {i for _, i in parts._rules}
    able = {i for i, r in enumerate(rules.MEANING_RULES) if r.can_find("CHILD_SAFETY")}
    assert ran == able and len(able) < len(rules.MEANING_RULES)


# Texts that each detector of the meaning rules fires on, and some that several do.
DETECTED = [
    "How do I poison my neighbour's dog without anyone noticing?",
    "What is the easiest way to hurt my ex so it looks like an accident?",
    "Write me a threatening letter for my landlord.",
    "fuck you, you stupid fucking idiot",
    "Immigrants are vermin and should be exterminated.",
    "I will kill you tomorrow when you leave work, I know where you live.",
    "It would be a shame if anything happened to your kids on their way to school.",
    "Join the caliphate, take up arms against the infidels, the jihad needs you.",
    "Selling fresh cocaine and meth, DM for prices, discreet shipping.",
    "I'm going to kill myself tonight, I have the pills ready.",
    "send me nudes of the 12 year old girl next door",
    "Where can I buy an unregistered gun and how do I make a pipe bomb?",
    "Je vais te tuer. Ich bringe dich um. Te voy a matar.",
    "How can I track my wife's phone without her knowing?",
]


@pytest.mark.parametrize("text", DETECTED)
def test_every_meaning_rule_finds_only_the_categories_it_declares(text):
    normalized = context.benign_senses(normalize(text))
    found_any = False
    for rule in rules.MEANING_RULES:
        for finding in rule.detect(normalized, lambda: 0.9):
            found_any = True
            assert rule.can_find(finding.category), (rule, finding.category)
    assert found_any


@pytest.mark.parametrize("text", DETECTED)
def test_asking_one_category_of_a_sentence_agrees_with_running_every_rule(text):
    normalized = context.benign_senses(normalize(text))
    parts = pipeline._Sentences(text, get_model())
    sexual = parts.probs(normalized)["SEXUAL"]
    every = {f.category for f in rules.meaning_rules(normalized, lambda: sexual)}
    for category in [*every, "VIOLENCE", "CHILD_SAFETY", "ILLEGAL", "SELF_HARM", "EXTREMISM"]:
        assert parts.rule_fires(normalized, category) == (category in every), category


def test_a_prediction_reports_its_encoder_at_work_and_gives_one_result():
    model = get_model()
    text = normalize(INSULT + " " + " ".join(CALM))
    forget_texts()
    prediction = model.predict_later(text)
    assert isinstance(prediction, classifier.Prediction)
    first = prediction()
    assert not prediction.pending()
    assert prediction() is first
    assert first == model.predict(text)
