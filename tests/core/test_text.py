from __future__ import annotations

import pytest

from core.text import (
    BM25,
    IMAGE_TOKENS,
    count_message_tokens,
    count_tokens,
    terms,
    token_spans,
    tokenize,
    truncate_tokens,
)

ENGLISH = (
    "Django is a high-level Python web framework that encourages rapid development and "
    "clean, pragmatic design. Built by experienced developers, it takes care of much of the "
    "hassle of web development, so you can focus on writing your app without needing to "
    "reinvent the wheel. It's free and open source."
)


def test_tokenize_splits_words_numbers_and_punctuation():
    assert tokenize("Hello, world! 42 apples.") == ["Hello", ",", "world", "!", "42", "apples", "."]


def test_tokenize_cuts_long_words_into_pieces():
    assert tokenize("internationalization") == ["inter", "natio", "naliz", "ation"]


def test_tokenize_groups_digits_by_three():
    assert tokenize("1234567") == ["123", "456", "7"]


def test_tokenize_counts_each_cjk_character():
    assert tokenize("東京都") == ["東", "京", "都"]


def test_tokenize_is_deterministic():
    assert tokenize(ENGLISH) == tokenize(ENGLISH)


def test_english_is_about_three_quarters_of_a_word_per_token():
    ratio = len(ENGLISH.split()) / count_tokens(ENGLISH)
    assert 0.65 <= ratio <= 0.9


def test_count_tokens_of_empty_text_is_zero():
    assert count_tokens("") == 0
    assert tokenize("   ") == []


def test_token_spans_cover_the_tokens():
    text = "Hi there,  friend"
    assert [text[a:b] for a, b in token_spans(text)] == tokenize(text)


@pytest.mark.parametrize("limit", range(12))
def test_truncated_text_recounts_to_the_limit(limit):
    text = "Internationalization matters: 1234567 characters... really!"
    cut = truncate_tokens(text, limit)
    assert count_tokens(cut) == min(limit, count_tokens(text))
    assert text.startswith(cut)


def test_truncate_keeps_short_text_whole():
    assert truncate_tokens("two words", 5) == "two words"


def test_count_message_tokens_adds_overhead_per_message():
    messages = [
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "content": "Hello there"},
    ]
    content = count_tokens("You are helpful.") + count_tokens("Hello there")
    assert count_message_tokens(messages) == content + 2 * 4 + 3


def test_count_message_tokens_counts_text_parts_and_images():
    messages = [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is this?"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
            ],
        }
    ]
    assert count_message_tokens(messages) == count_tokens("What is this?") + IMAGE_TOKENS + 4 + 3


def test_count_message_tokens_of_no_messages_is_zero():
    assert count_message_tokens([]) == 0


def test_terms_casefold_drop_stop_words_and_stem():
    assert terms("What are the Opening HOURS of the shops?") == ["open", "hour", "shop"]


def test_terms_stem_common_suffixes():
    assert terms("running stopped passes boxes cities") == ["run", "stop", "pass", "box", "city"]


def test_bm25_ranks_the_relevant_document_first():
    docs = [
        "The cat sat on the mat.",
        "Python is a programming language used for web development.",
        "Our opening hours are 9 to 5 on weekdays.",
    ]
    index = BM25(docs)
    assert index.rank("when are you open? what hours?")[0] == 2
    assert index.rank("python programming")[0] == 1


def test_bm25_scores_unrelated_documents_zero():
    index = BM25(["apples and pears", "cars and trucks"])
    assert index.scores("trucks")[0] == 0.0
    assert index.scores("trucks")[1] > 0.0


def test_bm25_breaks_ties_by_lower_index():
    index = BM25(["twin text", "other", "twin text"])
    assert index.rank("twin") == [0, 2, 1]
    assert index.rank("nothing matches") == [0, 1, 2]


def test_bm25_prefers_rarer_terms():
    index = BM25(["python django", "python flask", "python fastapi", "ruby rails"])
    scores = index.scores("python rails")
    assert scores[3] > scores[0]


def test_bm25_on_an_empty_corpus():
    index = BM25([])
    assert index.scores("anything") == []
    assert index.rank("anything") == []


def test_bm25_ranks_a_large_corpus():
    # Its speed on this corpus is measured by benchmarks/unit_speed.py.
    docs = [
        f"document {i} about topic{i % 50} with some shared words and text" for i in range(2000)
    ]
    ranked = BM25(docs).rank("topic7 shared words")
    assert ranked[:40] == list(range(7, 2000, 50))
    assert ranked[40:45] == [0, 1, 2, 3, 4]
