"""The training command rebuilds the artifact deterministically (on a small data set here)."""

from __future__ import annotations

import json
from io import StringIO

from django.core.management import call_command

from moderation.engine.classifier import Model
from moderation.engine.pipeline import moderate
from moderation.training.train import HANDWRITTEN_PATH


def test_train_moderation_is_deterministic(tmp_path):
    rows = HANDWRITTEN_PATH.read_text().splitlines()[::3]
    data = tmp_path / "small.jsonl"
    data.write_text("\n".join(rows) + "\n")
    empty = tmp_path / "none.jsonl"
    empty.write_text("")
    outputs = []
    for name in ("a.json", "b.json"):
        out = tmp_path / name
        stdout = StringIO()
        call_command("train_moderation", data=data, handwritten=empty, output=out, stdout=stdout)
        assert str(out) in stdout.getvalue()
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    artifact = json.loads(outputs[0])
    assert "pickle" not in json.dumps(artifact["meta"])
    model = Model.from_json(artifact)
    assert set(model.predict("hello")) == set(model.heads)


def test_shipped_artifact_is_small_json():
    from moderation.engine.classifier import ARTIFACT_PATH

    assert ARTIFACT_PATH.stat().st_size < 5_000_000
    assert ARTIFACT_PATH.read_bytes()[:1] == b"{"
    assert moderate("hello").scores


def test_every_labelled_set_ships_and_reads_with_labels():
    from moderation.training.train import EVAL_ONLY_SETS, EXTRA_SETS, load_handwritten, load_jsonl

    assert set(EVAL_ONLY_SETS) == {"ailuminate", "chat", "functional"}
    for name, path in {**EXTRA_SETS, **EVAL_ONLY_SETS}.items():
        rows = load_jsonl(path, name)
        assert rows, name
        # Each row says whether it is unsafe, and both kinds are present.
        assert {row.unsafe for row in rows} == {0, 1}, name
        # No set trains on another's text: the evaluation-only sets stay unseen.
        if name in EVAL_ONLY_SETS:
            trained = {r.text for n, p in EXTRA_SETS.items() for r in load_jsonl(p, n)}
            trained |= {r.text for r in load_handwritten()}
            assert not trained & {row.text for row in rows}, name
