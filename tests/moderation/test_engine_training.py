"""The training command rebuilds the artifact deterministically (on a small data set here)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
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
    # The foreign-language path is trained and calibrated with the rest.
    assert model.has_foreign and set(model.foreign_calibration) == set(model.heads)


def test_shipped_artifact_is_small_json():
    from moderation.engine.classifier import ARTIFACT_PATH

    assert ARTIFACT_PATH.stat().st_size < 5_000_000
    assert ARTIFACT_PATH.read_bytes()[:1] == b"{"
    assert moderate("hello").scores


def test_every_labelled_set_ships_and_reads_with_labels():
    from moderation.training.train import EVAL_ONLY_SETS, EXTRA_SETS, load_handwritten, load_jsonl

    assert set(EVAL_ONLY_SETS) == {
        "ailuminate",
        "chat",
        "functional",
        "prompts",
        "answers",
        "documents",
        "functional_new",
    }
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


def _ethos_checkout(root, binary: str, multi: str, davidson: str = ""):
    data = root / "ethos" / "ethos_data"
    data.mkdir(parents=True)
    (data / "Ethos_Dataset_Binary.csv").write_text(binary, encoding="utf-8")
    (data / "Ethos_Dataset_Multi_Label.csv").write_text(multi, encoding="utf-8")
    if davidson:  # the repository also carries the Davidson tweets: never read
        (root / "ethos" / "hs_data").mkdir()
        (root / "ethos" / "hs_data" / "hate-speech-and-offensive-language.csv").write_text(davidson)
    return root


def test_ethos_import_reads_the_annotator_shares(tmp_path):
    import gzip

    from moderation.training.import_ethos import build

    binary = (
        "comment;isHate\n"
        "Group A should all be driven out and beaten;1.0\n"
        "You personally are subhuman like the rest of group B;0.8\n"
        "Group C ruin every town they move to;0.666666667\n"
        "Borderline remark some annotators disliked;0.3\n"
        "What a lovely recipe, thanks for sharing;0.0\n"
    )
    multi = (
        "comment;violence;directed_vs_generalized;gender;race;national_origin;disability;"
        "religion;sexual_orientation\n"
        "Group A should all be driven out and beaten;0.833333333;0;0;1;0;0;0;0\n"
        "You personally are subhuman like the rest of group B;0;0.75;0;0;1;0;0;0\n"
        "Group C ruin every town they move to;0.2;0.2;0;0;1;0;0;0\n"
    )
    repo = _ethos_checkout(tmp_path / "repo", binary, multi, davidson="tweet,class\nx,0\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    out_a, out_b = tmp_path / "a" / "ethos.jsonl.gz", tmp_path / "b" / "ethos.jsonl.gz"
    counts = build(repo, out_a)
    build(repo, out_b)
    assert out_a.read_bytes() == out_b.read_bytes()
    assert counts == {"rows": 4, "HATE_SPEECH": 3, "VIOLENCE": 1, "HARASSMENT": 1}
    with gzip.open(out_a, "rt", encoding="utf-8") as fh:
        labels = {row["text"]: row["labels"] for row in map(json.loads, fh)}
    assert labels["Group A should all be driven out and beaten"] == {
        "HATE_SPEECH": 1,
        "VIOLENCE": 1,
    }
    assert labels["You personally are subhuman like the rest of group B"] == {
        "HATE_SPEECH": 1,
        "VIOLENCE": 0,
        "HARASSMENT": 1,
    }
    # A share between none and half is unknown, not a no.
    assert labels["Group C ruin every town they move to"] == {"HATE_SPEECH": 1}
    assert "Borderline remark some annotators disliked" not in labels
    assert set(labels["What a lovely recipe, thanks for sharing"].values()) == {0}


def test_category_only_sources_leave_the_any_heads_as_they_were():
    """ETHOS teaches the category heads; the "any category" heads and the n-gram vocabularies
    are exactly what they would be without it."""
    import numpy as np

    from moderation.engine.classifier import ANY
    from moderation.training.train import HEADS, Example, Params, load_handwritten, train_model

    base = load_handwritten()[::4]
    ethos = [
        Example(e.text + " (seen on a forum)", {"HATE_SPEECH": 1, "VIOLENCE": 1}, "ethos")
        for e in base[::2]
    ]
    params = Params(encoder=False)
    without = train_model(base, params)
    with_ethos = train_model(base + ethos, params)
    a, v = HEADS.index(ANY), HEADS.index("VIOLENCE")
    assert without.featurizer.words.index == with_ethos.featurizer.words.index
    assert np.array_equal(without.weights[:, a], with_ethos.weights[:, a])
    assert without.intercepts[a] == with_ethos.intercepts[a]
    assert not np.array_equal(without.weights[:, v], with_ethos.weights[:, v])
    # Taught everywhere, the same rows would change the "any category" head.
    everywhere = train_model(base + ethos, Params(encoder=False, category_only=()))
    assert not np.array_equal(without.weights[:, a], everywhere.weights[:, a])


def test_the_shipped_sets_are_what_the_shared_writer_writes(tmp_path):
    """Every importer writes through `write_labelled`: the committed files come out
    byte-identical from their own rows, whatever order they are given in."""
    import gzip

    from moderation.training.labelled import write_labelled
    from moderation.training.train import TRAINING_DIR

    for name in ("toxigen", "ailuminate", "ethos"):
        shipped = TRAINING_DIR / "data" / f"{name}.jsonl.gz"
        with gzip.open(shipped, "rt", encoding="utf-8") as fh:
            rows = [(r["text"], r["labels"]) for r in map(json.loads, fh)]
        out = tmp_path / name / shipped.name
        write_labelled(reversed(rows), out)
        assert out.read_bytes() == shipped.read_bytes(), name


def _blended_model(any_blend):
    from moderation.training.train import Params, load_handwritten, train_model

    model = train_model(load_handwritten()[::3], Params(encoder=False))
    model.any_blend = any_blend
    return model


def test_the_any_probability_blends_in_the_top_category():
    """With a blend, "any category" is a logistic function of the ANY head's and the most
    likely category's logits; the artifact keeps the blend."""
    import math

    from moderation.engine.classifier import ANY, Model, blend_any, logit
    from moderation.engine.normalize import normalize

    blend = (0.5, 0.5, 0.0, 1.2, -0.1)
    plain = _blended_model(None)
    blended = _blended_model(blend)
    text = normalize("I will find you and break every bone in your body")
    before, after = plain.predict(text), blended.predict(text)
    top = max(p for head, p in before.items() if head != ANY)
    assert {h: p for h, p in after.items() if h != ANY} == {
        h: p for h, p in before.items() if h != ANY
    }
    assert after[ANY] == blend_any(blend, before[ANY], top)
    z = max(logit(before[ANY]), 0.5 * logit(before[ANY]) + 0.5 * logit(top))
    assert abs(after[ANY] - 1 / (1 + math.exp(-(1.2 * z - 0.1)))) < 1e-9
    # The top category can raise the "any category" logit, never lower it.
    same = (1.0, 1.0, 0.0, 1.0, 0.0)
    assert blend_any(same, 0.5, 0.9) > blend_any(same, 0.5, 0.6) > 0.5
    assert blend_any(same, 0.5, 0.2) == blend_any(same, 0.5, 0.01) == 0.5
    restored = Model.from_json(json.loads(json.dumps(blended.to_json())))
    assert restored.any_blend == blend
    assert restored.predict(text)[ANY] == after[ANY]
    assert Model.from_json(json.loads(json.dumps(plain.to_json()))).any_blend is None


def test_the_blend_training_fits_is_the_one_the_engine_computes_and_stays_calibrated():
    """`fit_any_blend` gives every row the probability `blend_any` will give it at run time;
    fitted on rows whose label the top category knows better, it leans on the top category,
    and its probabilities stay calibrated (their mean is the share of unsafe rows)."""
    import numpy as np

    from moderation.engine.classifier import blend_any
    from moderation.training.train import fit_any_blend

    rng = np.random.default_rng(7)
    y = (rng.random(400) < 0.3).astype(np.int64)
    p_top = np.clip(np.where(y == 1, 0.75, 0.2) + rng.normal(0, 0.15, 400), 0.01, 0.99)
    p_any = np.clip(0.4 + rng.normal(0, 0.2, 400), 0.01, 0.99)  # knows little
    keep = list(range(300))
    blend, blended = fit_any_blend(p_any, p_top, keep, y[keep])
    assert blend[1] > abs(blend[0])
    for i in (0, 150, 350, 399):
        assert blended[i] == pytest.approx(blend_any(blend, p_any[i], p_top[i]), abs=1e-12)
    assert blended[keep].mean() == pytest.approx(y[keep].mean(), abs=0.02)


def test_calibration_fits_the_blend_on_dev_rows():
    """The blend is fitted on out-of-fold probabilities of the dev rows, with positive weights
    on both logits; without it, none is fitted."""
    from moderation.training.train import Example, Params, fit_calibration, load_handwritten

    rows = load_handwritten()
    dev = [Example(e.text, e.labels, "dev") for e in rows[::2]]
    rest = rows[1::2]
    params = Params(encoder=False)
    fitted = fit_calibration(dev + rest, params)
    assert fitted.any_blend is not None
    a, b, _, slope, _ = fitted.any_blend
    assert a > 0 and b > 0 and slope > 0
    assert 0.05 <= fitted.thresholds["ANY"] <= 0.95
    assert fit_calibration(dev + rest, Params(encoder=False, any_blend=False)).any_blend is None
