"""How long moderation takes, checked against its targets.

    .venv/bin/python benchmarks/moderation_speed.py [--runs 200] [--judge-runs 3]

Two measurements, each printed with the target it checks; the exit status is 1 when a target
is missed:

* the engine on 2,000-character texts (a repeated sentence, which the spam rules examine, and
  ordinary prose): wall-clock and CPU time per call, p50 and p95, one thread per library (no
  BLAS or onnxruntime thread pools). Target: p95 wall-clock under 60 ms. Clean prose stays
  below the semantic tier's gate, so a third case forces the gate open: the same prose through
  the sentence encoders, the cost of a text the n-gram tier is unsure about. There
  all-MiniLM-L6-v2 runs on a side thread while the rules run, so wall-clock time is under the
  CPU time (which counts every thread). A fourth is French prose, which the foreign path reads
  with the multilingual encoder on every call. A fifth is real text: the dev file's texts of
  1,500 characters or more, cut to 2,000 (what the engine is judged on; unsafe texts among them
  are read sentence by sentence and, when they swear, a second time without the swear words).
* a hung LLM judge: the fake upstream (tests/fake_upstream.py) accepts the request and answers
  nothing for 4 s while the judge's model has a 2 s read timeout. Target: every call returns
  before the upstream would have answered, with the engine's verdict marked "timed out".

Wall-clock figures depend on what else the machine runs; the load average is printed with them.
"""

from __future__ import annotations

import os

# One thread per numerical library, as in production workers; set before numpy loads.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import gzip  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from decimal import Decimal  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from moderation.engine import classifier, forget_texts, moderate  # noqa: E402

ENGINE_P95_TARGET_MS = 60.0
DEV_PATH = ROOT.parent / "shared" / "data" / "moderation-dev.jsonl.gz"
JUDGE_HANG_SECONDS = 4.0
JUDGE_READ_TIMEOUT_SECONDS = 2.0
# Words of a council report; prose_text() draws from them.
_PROSE = (
    "the council met on tuesday to discuss the new bus routes and the budget for parks "
    "residents asked about parking fees school crossings and the late night noise from the "
    "market square while the mayor promised a report before the summer holidays"
)
# The same report in French: read by the foreign path (the multilingual encoder on every call).
_FRENCH_PROSE = (
    "le conseil municipal s'est réuni mardi pour discuter des nouvelles lignes de bus et du "
    "budget des parcs les habitants ont posé des questions sur le stationnement les passages "
    "piétons et le bruit du marché tandis que le maire a promis un rapport avant les vacances"
)


def repeated_text(i: int) -> str:
    """2,000 characters of one sentence repeated; `i` makes each text new to the caches."""
    sentence = "The council met on Tuesday to discuss bus routes and the parks budget. "
    return (sentence * 30)[:2000] + str(i)


def prose_text(i: int, prose: str = _PROSE) -> str:
    """2,000 characters of ordinary words in a random order (seeded by `i`)."""
    words = prose.split()
    rng = np.random.default_rng(i)
    out: list[str] = []
    while len(" ".join(out)) < 2000:
        out.append(words[int(rng.integers(len(words)))])
    return " ".join(out)[:2000]


def timed(text: str) -> tuple[float, float]:
    """Wall-clock and CPU milliseconds of one `moderate()` call (CPU of every thread: the
    semantic tier runs all-MiniLM-L6-v2 on a side thread while the rules run), on a text the
    engine reads as new (the dev texts come round again)."""
    forget_texts()
    wall, cpu = time.perf_counter(), time.process_time()
    moderate(text)
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def report_latency(label: str, runs: npt.NDArray[np.float64]) -> float:
    """Print p50/p95 of (wall, cpu) rows; return the wall-clock p95."""
    w50, w95 = np.percentile(runs[:, 0], [50, 95])
    c50, c95 = np.percentile(runs[:, 1], [50, 95])
    print(
        f"  {label:<16} wall p50 {w50:5.1f} ms  p95 {w95:5.1f} ms | "
        f"cpu p50 {c50:5.1f} ms  p95 {c95:5.1f} ms  ({len(runs)} texts)"
    )
    return float(w95)


def _encoder_open(make: Callable[[int], str]) -> Callable[[int], tuple[float, float]]:
    def run(i: int) -> tuple[float, float]:
        model = classifier.get_model()
        classifier.use_model(dataclasses.replace(model, gate=0.0))
        try:
            return timed(make(i))
        finally:
            classifier.use_model(None)

    return run


def dev_texts(path: Path = DEV_PATH) -> list[str]:
    """The dev file's texts of 1,500 characters or more, cut to 2,000 (none when it is absent)."""
    if not path.exists():
        return []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        texts = [json.loads(line)["text"] for line in fh if line.strip()]
    return [t[:2000] for t in texts if len(t) >= 1500]


def engine_latency(runs: int) -> bool:
    moderate("warm up")
    print(f"\nEngine latency (one thread per library; load average {os.getloadavg()[0]:.1f})")
    ok = True
    cases: list[tuple[str, Callable[[int], tuple[float, float]]]] = [
        ("repeated text", lambda i: timed(repeated_text(i))),
        ("2,000-char prose", lambda i: timed(prose_text(i))),
        ("prose, encoder", _encoder_open(prose_text)),
        ("French prose", lambda i: timed(prose_text(i, _FRENCH_PROSE))),
    ]
    real = dev_texts()
    if real:
        cases.append(("dev texts", lambda i: timed(real[i % len(real)])))
    for label, run in cases:
        p95 = report_latency(label, np.array([run(i) for i in range(runs)]))
        passed = p95 < ENGINE_P95_TARGET_MS
        ok &= passed
        print(
            f"  {'':<16} target: wall p95 < {ENGINE_P95_TARGET_MS:.0f} ms "
            f"({p95 / ENGINE_P95_TARGET_MS:.2f} of it): {'pass' if passed else 'FAIL'}"
        )
    return ok


def judge_timeout(runs: int) -> bool:
    import django

    django.setup()
    from llm.catalog import ModelSpec
    from moderation.judge import ask_judge
    from tests.fake_upstream import running_fake_upstream

    # Each call logs its (expected) timeout as a warning.
    for name in ("llm.providers.openai", "moderation.judge"):
        logging.getLogger(name).setLevel(logging.ERROR)
    engine = moderate("die")  # uncertain: the kind of verdict the judge is asked about
    print(
        f"\nHung judge (upstream silent for {JUDGE_HANG_SECONDS:.0f} s, "
        f"read timeout {JUDGE_READ_TIMEOUT_SECONDS:.0f} s)"
    )
    with running_fake_upstream() as upstream:
        upstream.script(hang=JUDGE_HANG_SECONDS)
        spec = ModelSpec(
            id="bench-judge",
            provider="openai",
            base_url=upstream.url,
            api_key_env=None,
            upstream_model="fake",
            context_window=8192,
            input_price_per_mtok=Decimal(0),
            output_price_per_mtok=Decimal(0),
            vision=False,
            reasoning=False,
            read_timeout=JUDGE_READ_TIMEOUT_SECONDS,
        )
        took: list[float] = []
        timed_out = True
        for _ in range(runs):
            started = time.monotonic()
            verdict = ask_judge(engine, content="die", policies=[], instructions=None, spec=spec)
            took.append(time.monotonic() - started)
            timed_out &= "timed out" in verdict.reason
            upstream.reset()
            upstream.script(hang=JUDGE_HANG_SECONDS)
    longest = max(took)
    print(
        f"  per call         {', '.join(f'{t:.2f} s' for t in took)} "
        f"(longest {longest / JUDGE_READ_TIMEOUT_SECONDS:.2f} x the read timeout)"
    )
    passed = timed_out and longest < JUDGE_HANG_SECONDS
    print(
        f"  {'':<16} target: every call under {JUDGE_HANG_SECONDS:.0f} s and reported as "
        f"timed out: {'pass' if passed else 'FAIL'}"
    )
    return passed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=200, help="texts per engine case")
    parser.add_argument("--judge-runs", type=int, default=3, help="calls to the hung judge")
    args = parser.parse_args(argv)
    ok = engine_latency(args.runs)
    ok &= judge_timeout(args.judge_runs)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
