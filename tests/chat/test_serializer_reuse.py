"""The chat request serializer reuses its bound fields per thread: reuse must never carry one
request's state, errors or rules into the next, in one thread or across threads."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from chat.serializers import ChatCompletionRequestSerializer

GOOD: dict[str, Any] = {
    "model": "nova-local",
    "messages": [{"role": "user", "content": "hi"}],
    "temperature": 0.5,
    "reasoning": {"effort": "low"},
    "stream_options": {"include_usage": True},
}


def validate(body: Any, *, persona_required: bool = False) -> tuple[bool, Any]:
    serializer = ChatCompletionRequestSerializer(data=body, persona_required=persona_required)
    if serializer.is_valid():
        return True, dict(serializer.validated_data)
    return False, serializer.errors


def test_the_same_fields_serve_one_request_after_another_in_a_thread() -> None:
    first = ChatCompletionRequestSerializer(data=GOOD)
    second = ChatCompletionRequestSerializer(data=GOOD)
    assert first.fields is second.fields  # reused: no deep copy per request
    assert all(field.parent is second for field in second.fields.values())


def test_an_invalid_request_leaves_nothing_behind_for_the_next() -> None:
    ok, errors = validate({**GOOD, "temperature": 3, "reasoning": {"effort": "huge"}})
    assert not ok
    assert set(errors) == {"temperature", "reasoning"}
    ok, data = validate(GOOD)
    assert ok
    assert data["temperature"] == 0.5
    assert data["reasoning"] == {"effort": "low"}
    assert data["stream_options"] == {"include_usage": True}


def test_each_serializer_keeps_its_own_rules() -> None:
    ok, errors = validate({"messages": [{"role": "user", "content": "hi"}]}, persona_required=True)
    assert not ok and "persona_id" in errors
    ok, _ = validate(GOOD, persona_required=False)
    assert ok
    ok, errors = validate(
        {"persona_id": 1, "messages": [{"role": "system", "content": "x"}]}, persona_required=True
    )
    assert not ok and "messages[0].role" in errors


@pytest.mark.parametrize("threads", [4])
def test_threads_validating_at_once_each_get_their_own_answer(threads: int) -> None:
    bodies = [
        ({**GOOD, "temperature": 0.1 * i}, True) if i % 2 == 0 else ({**GOOD, "top_k": -i}, False)
        for i in range(threads)
    ]
    failures: list[str] = []
    barrier = threading.Barrier(threads)

    def run(body: dict[str, Any], valid: bool) -> None:
        barrier.wait()
        for _ in range(300):
            ok, result = validate(body)
            if ok != valid:
                failures.append(f"{body}: {result}")
                return
            if ok and result["temperature"] != body["temperature"]:
                failures.append(f"temperature {result['temperature']} for {body['temperature']}")
                return
            if not ok and set(result) != {"top_k"}:
                failures.append(f"errors {result} for {body}")
                return

    workers = [threading.Thread(target=run, args=pair) for pair in bodies]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert failures == []
