"""Evaluate Nova's moderation engine on a tuning part and a holdout part of each labelled set.

    .venv/bin/python benchmarks/moderation_eval.py [--no-cv] [labelled.jsonl[.gz] ...]

Every labelled set (the dev file ../shared/data/moderation-dev.jsonl.gz, the ToxiGen sentences
in moderation/training/data/, and any file given as an argument) is split once by a hash of the
text (`moderation/training/splits.py`) into a tuning part (7/10) and a holdout part (3/10).

* Tuning: 5-fold cross-validation over the tuning parts of the dev file and ToxiGen; each fold's
  model is trained (and calibrated, and its thresholds chosen) on the other folds plus the
  hand-written rows, and scores only its held-out fold.
* Holdout: scored once by the shipped artifact, which was trained on tuning parts only.

For each it prints "any category" AUPRC, precision, recall, F1 and false-positive rate at the
engine's own verdicts (a text counts as flagged when its status is DISALLOWED and the verdict
names a learned category or EXTREMISM as category or signal: what `/v1/moderations` reports as
`flagged`; a flag that context softened to LOG_ONLY is ALLOWED and does not count), AUPRC per
category, and latency per text (p50/p95, one core).
No text is ever printed.
"""

from __future__ import annotations

import os

# One core, as in production workers; must be set before numpy loads.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import gzip  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.metrics import average_precision_score  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.moderation_speed import prose_text, report_latency, timed  # noqa: E402
from moderation.engine import classifier, moderate  # noqa: E402
from moderation.engine.classifier import LEARNED_CATEGORIES  # noqa: E402
from moderation.training.splits import split  # noqa: E402
from moderation.training.train import (  # noqa: E402
    DEFAULT_DEV_PATH,
    EVAL_ONLY_SETS,
    EXTRA_SETS,
    FUNCTIONAL_PATH,
    Example,
    folds_by_source,
    load_handwritten,
    load_jsonl,
    train_calibrated,
)

# Engine categories that count as "unsafe" for a file labelled with the dev file's categories.
DECISION_CATEGORIES = frozenset(LEARNED_CATEGORIES) | {"EXTREMISM"}


def metrics(
    examples: Sequence[Example], risks: Sequence[float], flagged: Sequence[bool]
) -> dict[str, float]:
    y = np.array([e.unsafe == 1 for e in examples])
    pred = np.array(flagged, dtype=bool)
    tp = int((y & pred).sum())
    fp = int((~y & pred).sum())
    fn = int((y & ~pred).sum())
    tn = int((~y & ~pred).sum())
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "n": len(examples),
        "unsafe": int(y.sum()),
        "auprc": float(average_precision_score(y, risks))
        if y.any() and not y.all()
        else float("nan"),
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "fpr": fp / (fp + tn) if fp + tn else float("nan"),
    }


class Scored:
    def __init__(self) -> None:
        self.risks: list[float] = []
        self.flagged: list[bool] = []
        self.scores: list[dict[str, float]] = []
        self.times: list[tuple[float, float]] = []


def score(examples: Sequence[Example], out: Scored | None = None) -> Scored:
    out = out or Scored()
    for e in examples:
        wall, cpu = time.perf_counter(), time.thread_time()
        v = moderate(e.text)
        out.times.append(((time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000))
        out.risks.append(v.risk)
        out.flagged.append(
            v.status == "DISALLOWED"
            and bool(DECISION_CATEGORIES.intersection([v.category, *v.detected_signals]))
        )
        out.scores.append(dict(v.scores))
    return out


def per_category(examples: Sequence[Example], scores: Sequence[dict[str, float]]) -> str:
    cells = []
    for category in LEARNED_CATEGORIES:
        rows = [i for i, e in enumerate(examples) if category in e.labels]
        y = [examples[i].labels[category] for i in rows]
        if not any(y) or all(y):
            continue
        ap = average_precision_score(y, [scores[i].get(category, 0.0) for i in rows])
        cells.append(f"{category} {ap:.3f} ({sum(y)}/{len(rows)})")
    return "; ".join(cells)


def report(name: str, part: str, examples: Sequence[Example], s: Scored) -> None:
    m = metrics(examples, s.risks, s.flagged)
    times = np.array(s.times) if s.times else np.zeros((1, 2))
    p50, p95 = np.percentile(times[:, 0], [50, 95])
    print(
        f"{name:<10}{part:<9}{m['n']:>6}{m['unsafe']:>7}{m['auprc']:>8.3f}{m['precision']:>7.3f}"
        f"{m['recall']:>7.3f}{m['f1']:>7.3f}{m['fpr']:>7.3f}{p50:>8.1f}{p95:>8.1f}"
    )
    # What a client can rank by: the highest per-category score the API returns (the "any
    # category" risk above is the engine's own and is not in the response).
    visible = metrics(
        examples, [max(sc.get(c, 0.0) for c in LEARNED_CATEGORIES) for sc in s.scores], s.flagged
    )
    print(f"{'':<19}AUPRC by the highest category score in the response: {visible['auprc']:.3f}")
    cats = per_category(examples, s.scores)
    if cats:
        print(f"{'':<19}per-category AUPRC: {cats}")


def suites(path: Path) -> dict[str, str]:
    """Text -> "suite, label" for a set whose rows name the suite they belong to."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    return {
        r["text"]: f"{r['suite']}, {'unsafe' if any(r['labels'].values()) else 'safe'}"
        for r in rows
        if "suite" in r
    }


def per_suite(examples: Sequence[Example], s: Scored, suite_of: dict[str, str]) -> str:
    """Share of each suite's safe and unsafe rows that the engine gets right."""
    right: dict[str, list[bool]] = {}
    for e, flagged in zip(examples, s.flagged, strict=True):
        key = suite_of.get(e.text)
        if key is not None:
            right.setdefault(key, []).append(flagged == bool(e.unsafe))
    return "; ".join(f"{k} {sum(v)}/{len(v)}" for k, v in sorted(right.items()))


def report_suites(examples: Sequence[Example], s: Scored, suite_of: dict[str, str]) -> None:
    """The per-suite line, for a set whose rows belong to suites (the functional tests)."""
    line = per_suite(examples, s, suite_of)
    if line:
        print(f"{'':<19}right: {line}")


HEADER = (
    f"{'set':<10}{'part':<9}{'texts':>6}{'unsafe':>7}{'AUPRC':>8}{'prec':>7}{'recall':>7}"
    f"{'F1':>7}{'FPR':>7}{'p50 ms':>8}{'p95 ms':>8}"
)


def load_sets(
    extra_files: Sequence[Path], dev_path: Path
) -> dict[str, tuple[list[Example], list[Example]]]:
    sets = {"dev": split(load_jsonl(dev_path, "dev"), lambda e: e.text)}
    for name, path in {**EXTRA_SETS, **EVAL_ONLY_SETS}.items():
        if path.exists():
            sets[name] = split(load_jsonl(path, name), lambda e: e.text)
    for path in extra_files:
        sets[path.name.split(".")[0][:10]] = split(load_jsonl(path, path.name), lambda e: e.text)
    return sets


def tuning_cv(sets: dict[str, tuple[list[Example], list[Example]]], k: int) -> dict[str, Scored]:
    """Out-of-fold engine verdicts for the tuning part of the dev file and every extra set."""
    trained = [name for name in ("dev", *EXTRA_SETS) if name in sets]
    pool = [e for name in trained for e in sets[name][0]]
    handwritten = load_handwritten()
    results: dict[str, Scored] = {name: Scored() for name in trained}
    by_row: dict[int, tuple[float, bool, dict[str, float], tuple[float, float]]] = {}
    try:
        for held in folds_by_source(pool, k):
            held_set = set(held)
            model = train_calibrated(
                [e for i, e in enumerate(pool) if i not in held_set] + handwritten
            )
            classifier.use_model(model)
            s = score([pool[i] for i in held])
            for j, i in enumerate(held):
                by_row[i] = (s.risks[j], s.flagged[j], s.scores[j], s.times[j])
    finally:
        classifier.use_model(None)
    offset = 0
    for name in trained:
        r = results[name]
        for i in range(offset, offset + len(sets[name][0])):
            risk, flagged, scores, took = by_row[i]
            r.risks.append(risk)
            r.flagged.append(flagged)
            r.scores.append(scores)
            r.times.append(took)
        offset += len(sets[name][0])
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("files", nargs="*", type=Path, help="extra labelled JSONL(.gz) files")
    parser.add_argument("--dev", type=Path, default=DEFAULT_DEV_PATH, help="the dev file")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--no-cv", action="store_true", help="skip the tuning cross-validation")
    parser.add_argument(
        "--no-holdout", action="store_true", help="tuning figures only (while tuning)"
    )
    args = parser.parse_args(argv)
    sets = load_sets(args.files, args.dev)
    moderate("warm up")
    started = time.perf_counter()
    cv = {} if args.no_cv else tuning_cv(sets, args.folds)
    print(
        f"Tuning: {args.folds}-fold cross-validation ({time.perf_counter() - started:.0f}s); "
        "holdout: the shipped artifact, never trained or tuned on it.\n"
    )
    suite_of = suites(FUNCTIONAL_PATH) if FUNCTIONAL_PATH.exists() else {}
    print(HEADER)
    for name, (tuning, holdout) in sets.items():
        if name in cv:
            scored = cv[name]
            report(name, "tuning", tuning, scored)
        else:
            scored = score(tuning)
            report(name, "tuning*", tuning, scored)
        report_suites(tuning, scored, suite_of)
        if not args.no_holdout:
            held = score(holdout)
            report(name, "holdout", holdout, held)
            report_suites(holdout, held, suite_of)
    if any(name not in cv for name in sets):
        print("* scored by the shipped artifact (not cross-validated)")
    long_runs = np.array([timed(prose_text(i)) for i in range(200)])
    size = classifier.ARTIFACT_PATH.stat().st_size / 1e6
    print(
        f"\nLatency (one core, shipped artifact {size:.1f} MB; load average "
        f"{os.getloadavg()[0]:.1f})"
    )
    report_latency("2,000-char text", long_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
