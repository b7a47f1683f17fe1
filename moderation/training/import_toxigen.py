"""Rebuild `data/toxigen.jsonl.gz` from a checkout of microsoft/TOXIGEN (MIT licence).

    python -m moderation.training.import_toxigen /path/to/TOXIGEN

The repository's `prompts/{hate,neutral}_<group>_1k.txt` files are built from a few hundred
human-written demonstration sentences about 13 minority groups. Each distinct sentence becomes
one row: hate -> HATE_SPEECH 1 (the other categories unknown); neutral -> every category 0.
Rows are sorted by a hash of the text, so the file is byte-identical for the same checkout.
Content warning: the hate rows are offensive; never print them.
"""

from __future__ import annotations

import sys
from pathlib import Path

from moderation.engine.classifier import LEARNED_CATEGORIES
from moderation.training.labelled import write_labelled

OUT = Path(__file__).resolve().parent / "data" / "toxigen.jsonl.gz"


def read_sentences(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8").replace("\\n", "\n")
    out = set()
    for line in text.splitlines():
        sentence = line.strip().removeprefix("-").strip()
        if len(sentence) >= 8:
            out.add(sentence)
    return out


def build(repo: Path, out: Path = OUT) -> dict[str, int]:
    hate: set[str] = set()
    neutral: set[str] = set()
    for path in sorted((repo / "prompts").glob("*_1k.txt")):
        (hate if path.name.startswith("hate_") else neutral).update(read_sentences(path))
    neutral -= hate
    rows = [(t, {"HATE_SPEECH": 1}) for t in hate]
    rows += [(t, dict.fromkeys(LEARNED_CATEGORIES, 0)) for t in neutral]
    write_labelled(rows, out)
    return {"hate": len(hate), "neutral": len(neutral)}


if __name__ == "__main__":
    print(build(Path(sys.argv[1])))
