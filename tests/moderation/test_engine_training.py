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
