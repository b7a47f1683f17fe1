"""Training-data injection: each type's readable form, the budget, and BM25 selection."""

from __future__ import annotations

from typing import Any

import pytest

from core.text import count_tokens
from llm.types import Grounding, GroundingItem
from personas.models import Persona, TrainingDataItem
from personas.prompting import (
    TRAINING_DATA_HEADER,
    TRAINING_DATA_SHARE,
    build_system_prompt,
    grounding_for,
    latest_user_message,
    render_item,
    select_items,
    system_prompt_for,
    training_data_budget,
)
from tests.factories import PersonaFactory, TrainingDataItemFactory

PROMPT = "You are the shop assistant of Example Ltd."


def _persona() -> Persona:
    return Persona(pk=100, name="Shop", description="Answers shop questions.", system_prompt=PROMPT)


def _item(pk: int, type_: str = "text", content: str = "", title: str = "", **meta: Any) -> Any:
    return TrainingDataItem(pk=pk, type=type_, content=content, title=title, metadata=meta)


# --- Rendering ---


def test_qa_pair_renders_as_question_and_answer() -> None:
    item = _item(1, "qa_pair", "Nine to five.", "Hours", question="When are you open?")
    assert render_item(item) == "Q: When are you open?\nA: Nine to five."


def test_example_renders_as_an_example_block() -> None:
    item = _item(1, "example", "User: hi\nAssistant: Hello!", "Greeting")
    assert render_item(item) == "Example: Greeting\n<<<\nUser: hi\nAssistant: Hello!\n>>>"
    assert render_item(_item(2, "example", "x")).startswith("Example:\n<<<\n")


def test_document_renders_with_its_title_as_heading() -> None:
    item = _item(1, "document", "Returns within 30 days.", "Returns policy")
    assert render_item(item) == "### Returns policy\nReturns within 30 days."
    assert render_item(_item(2, "document", "Body")) == "### Document\nBody"


def test_knowledge_renders_as_a_fact() -> None:
    assert render_item(_item(1, "knowledge", "We ship to the EU.")) == "Fact: We ship to the EU."
    titled = _item(2, "knowledge", "We ship to the EU.", "Shipping")
    assert render_item(titled) == "Fact (Shipping): We ship to the EU."


def test_text_renders_as_a_paragraph() -> None:
    assert render_item(_item(1, "text", "  Be friendly.  ")) == "Be friendly."
    assert render_item(_item(2, "text", "Be friendly.", "Tone")) == "Tone\nBe friendly."


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        (
            _item(1, "qa_pair", "Nine to five.", question="When are you open?"),
            "Q: When are you open?\nA: Nine to five.",
        ),
        (_item(2, "example", "User: hi", "Greeting"), "Example: Greeting\n<<<\nUser: hi\n>>>"),
        (
            _item(3, "document", "Returns within 30 days.", "Returns"),
            "### Returns\nReturns within 30 days.",
        ),
        (_item(4, "knowledge", "We ship to the EU."), "Fact: We ship to the EU."),
        (_item(5, "text", "Be friendly."), "Be friendly."),
    ],
)
def test_system_prompt_contains_each_type_in_its_readable_form(
    item: TrainingDataItem, expected: str
) -> None:
    prompt = build_system_prompt(
        _persona(), items=[item], context_window=8192, latest_user_message="hello"
    )
    assert prompt.startswith(PROMPT + "\n\n" + TRAINING_DATA_HEADER)
    assert prompt.endswith(expected)


def test_without_items_the_prompt_is_the_personas_own() -> None:
    prompt = build_system_prompt(_persona(), items=[], context_window=8192, latest_user_message="")
    assert prompt == PROMPT


# --- All fit ---


def test_all_items_fit_in_id_order() -> None:
    items = [_item(pk, "knowledge", f"Fact number {pk}.") for pk in (30, 10, 20)]
    prompt = build_system_prompt(
        _persona(), items=items, context_window=8192, latest_user_message="number 30"
    )
    positions = [prompt.index(f"Fact number {pk}.") for pk in (10, 20, 30)]
    assert positions == sorted(positions)


# --- Budget ---


def test_budget_is_a_share_of_the_context_window() -> None:
    assert TRAINING_DATA_SHARE == 0.25
    assert training_data_budget(8192) == 2048
    assert training_data_budget(1) == 0


def _section(prompt: str) -> str:
    return prompt[len(PROMPT) + 2 :]


def test_items_never_cut_and_section_within_budget() -> None:
    sentence = "The warehouse ships parcels every weekday morning before ten. "
    items = [_item(pk, "document", sentence * (pk % 4 + 1), f"Doc {pk}") for pk in range(1, 30)]
    for context_window in (120, 200, 333, 500, 1000):
        prompt = build_system_prompt(
            _persona(), items=items, context_window=context_window, latest_user_message="ships"
        )
        budget = training_data_budget(context_window)
        if prompt == PROMPT:
            continue
        assert count_tokens(_section(prompt)) <= budget
        chosen = select_items(items, budget=budget, query="ships")
        assert chosen
        for item in chosen:
            assert render_item(item) in prompt  # whole, never half
        for item in set(items) - set(chosen):
            assert f"### Doc {item.pk}\n" not in prompt


def test_an_item_larger_than_the_budget_is_skipped_not_cut() -> None:
    huge = _item(1, "text", "refund " * 500)
    small = _item(2, "text", "Refunds take five days.")
    prompt = build_system_prompt(
        _persona(), items=[huge, small], context_window=400, latest_user_message="refund"
    )
    assert "Refunds take five days." in prompt
    assert "refund refund" not in prompt


def test_nothing_fits_gives_the_bare_prompt() -> None:
    prompt = build_system_prompt(
        _persona(),
        items=[_item(1, "text", "word " * 200)],
        context_window=100,
        latest_user_message="word",
    )
    assert prompt == PROMPT


# --- Ranking ---

_TOPICS = {
    1: ("Shipping", "Parcels are shipped with DHL and arrive within three working days."),
    2: ("Refunds", "A refund is paid back to the original card within five days of the return."),
    3: ("Opening hours", "The shop is open Monday to Saturday from nine to six."),
    4: ("Gift cards", "Gift cards never expire and can be used online and in the shop."),
    5: ("Returns", "Unused items can be returned within thirty days for a full refund."),
    6: ("Loyalty", "Members collect one point per euro and get a voucher at 100 points."),
    7: ("Sizes", "Our shoes run small, so we recommend ordering half a size up."),
    8: ("Payment", "We accept Visa, Mastercard, PayPal and bank transfer."),
    9: ("Warranty", "Electronics carry a two year warranty against manufacturing faults."),
    10: ("Contact", "Email support@example.com or call +44 20 7946 0000 on weekdays."),
}


def _topic_items() -> list[Any]:
    return [_item(pk, "knowledge", text, title) for pk, (title, text) in _TOPICS.items()]


def _budget_for(items: list[Any], count: int) -> int:
    # Enough for the header and about `count` of these similar-sized items.
    per_item = max(count_tokens(render_item(item)) + 1 for item in items)
    return count_tokens(TRAINING_DATA_HEADER) + per_item * count


def test_more_data_than_budget_picks_the_relevant_items() -> None:
    items = _topic_items()
    budget = _budget_for(items, 2)
    chosen = select_items(items, budget=budget, query="How do I get a refund for my return?")
    assert {item.pk for item in chosen} >= {2, 5}
    assert 3 not in {item.pk for item in chosen}


def test_ranking_is_deterministic_and_independent_of_input_order() -> None:
    items = _topic_items()
    budget = _budget_for(items, 3)
    query = "Which cards do you accept for payment?"
    first = [item.pk for item in select_items(items, budget=budget, query=query)]
    again = [item.pk for item in select_items(list(reversed(items)), budget=budget, query=query)]
    assert first == again
    assert 8 in first
    assert first == sorted(first)  # presented in id order


def test_ties_go_to_the_lower_id() -> None:
    items = [_item(pk, "knowledge", f"Identical fact text {pk % 1}.") for pk in range(1, 11)]
    budget = _budget_for(items, 3)
    chosen = select_items(items, budget=budget, query="unrelated words")
    assert [item.pk for item in chosen] == [1, 2, 3]


def test_prompt_with_ranking_holds_the_relevant_items() -> None:
    items = _topic_items()
    window = int(_budget_for(items, 2) / TRAINING_DATA_SHARE) + 1
    prompt = build_system_prompt(
        _persona(),
        items=items,
        context_window=window,
        latest_user_message="is there a warranty on electronics faults?",
    )
    assert _TOPICS[9][1] in prompt
    assert _TOPICS[3][1] not in prompt


# --- Messages and loading ---


def test_latest_user_message_reads_strings_and_parts() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "first"},
        {"role": "assistant", "content": "reply"},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "what about"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
                {"type": "text", "text": "refunds"},
            ],
        },
        {"role": "assistant", "content": "..."},
    ]
    assert latest_user_message(messages) == "what about refunds"
    assert latest_user_message([]) == ""


@pytest.mark.django_db
def test_system_prompt_for_loads_items_in_one_query(django_assert_num_queries: Any) -> None:
    persona = PersonaFactory.create(system_prompt=PROMPT)
    TrainingDataItemFactory.create(persona=persona, type="knowledge", content="We ship to the EU.")
    TrainingDataItemFactory.create(
        persona=persona, type="qa_pair", content="Nine to five.", metadata={"question": "Hours?"}
    )
    TrainingDataItemFactory.create(persona=PersonaFactory.create(), content="Not mine.")
    with django_assert_num_queries(1):
        prompt = system_prompt_for(
            persona, context_window=8192, messages=[{"role": "user", "content": "hours?"}]
        )
    assert prompt.startswith(PROMPT)
    assert "Fact: We ship to the EU." in prompt
    assert "Q: Hours?\nA: Nine to five." in prompt
    assert "Not mine." not in prompt


def test_grounding_for_the_local_model() -> None:
    items = [
        _item(2, "qa_pair", "Nine to five.", "Hours", question="When?"),
        _item(1, "text", "Be kind.", question="ignored for text"),
    ]
    grounding = grounding_for(_persona(), items)
    assert grounding == Grounding(
        name="Shop",
        description="Answers shop questions.",
        items=(
            GroundingItem(type="text", title="", content="Be kind.", question=""),
            GroundingItem(type="qa_pair", title="Hours", content="Nine to five.", question="When?"),
        ),
    )
    hash(grounding)
