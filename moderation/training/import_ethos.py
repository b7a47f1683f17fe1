"""Rebuild `data/ethos.jsonl.gz` from a checkout of the ETHOS hate speech dataset.

The repository is intelligence-csd-auth-gr/Ethos-Hate-Speech-Dataset.

    python -m moderation.training.import_ethos /path/to/Ethos-Hate-Speech-Dataset

ETHOS (Mollas et al., 2022; GNU GPLv3) is 998 YouTube and Reddit comments, each with the share of
annotators who judged it hate speech (`ethos_data/Ethos_Dataset_Binary.csv`), and for the hate
comments the shares who judged that it incites violence and that it is aimed at one person
(`ethos_data/Ethos_Dataset_Multi_Label.csv`). Only those two files are read: the repository also
carries a copy of the Davidson et al. tweets, which Nova keeps for independent evaluation.

A share of at least one half is a yes; a share of zero is a no; anything between is left unknown:

- hate -> HATE_SPEECH 1; VIOLENCE 1 if it incites violence, 0 if no annotator said so;
  HARASSMENT 1 if it is aimed at one person (a hateful attack on someone);
- no annotator saw hate -> every category 0;
- comments some annotators but not half saw as hate are left out.

Rows are sorted by a hash of the text, so the file is byte-identical for the same checkout.
Content warning: the hate rows are offensive; never print them.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from moderation.engine.classifier import LEARNED_CATEGORIES
from moderation.training.labelled import write_labelled

OUT = Path(__file__).resolve().parent / "data" / "ethos.jsonl.gz"
DATA = Path("ethos") / "ethos_data"


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter=";"))


def _verdict(share: str) -> int | None:
    value = float(share)
    if value >= 0.5:
        return 1
    return 0 if value == 0 else None


def labels_for(is_hate: str, aspects: dict[str, str] | None) -> dict[str, int] | None:
    hate = _verdict(is_hate)
    if hate is None:
        return None
    if not hate:
        return dict.fromkeys(LEARNED_CATEGORIES, 0)
    labels = {"HATE_SPEECH": 1}
    if aspects is not None:
        violence = _verdict(aspects["violence"])
        if violence is not None:
            labels["VIOLENCE"] = violence
        if _verdict(aspects["directed_vs_generalized"]) == 1:
            labels["HARASSMENT"] = 1
    return labels


def build(repo: Path, out: Path = OUT) -> dict[str, int]:
    aspects = {
        r["comment"].strip(): r for r in _rows(repo / DATA / "Ethos_Dataset_Multi_Label.csv")
    }
    chosen: dict[str, dict[str, int]] = {}
    for row in _rows(repo / DATA / "Ethos_Dataset_Binary.csv"):
        text = row["comment"].strip()
        labels = labels_for(row["isHate"], aspects.get(text))
        if labels is not None and len(text) >= 8:
            chosen[text] = labels
    rows = write_labelled(chosen.items(), out)
    counts = {"rows": len(rows)}
    for category in ("HATE_SPEECH", "VIOLENCE", "HARASSMENT"):
        counts[category] = sum(labels.get(category) == 1 for _, labels in rows)
    return counts


if __name__ == "__main__":
    print(build(Path(sys.argv[1])))
