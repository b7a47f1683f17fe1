"""Rebuild `data/ailuminate.jsonl.gz` from a checkout of mlcommons/ailuminate (CC BY 4.0 data).

    python -m moderation.training.import_ailuminate /path/to/ailuminate

The repository's two demo prompt sets (`airr_official_1.0_demo_{en_us,fr_fr}_prompt_set_release
.csv`, 1,200 human-written prompts each, English and French) ask a chat model for hazardous
help in 12 hazard categories. Each prompt becomes one row, its labels mapped onto Nova's learned
categories where the hazard says what the text is:

- `vcr` (violent crimes) -> VIOLENCE 1; `ssh` (suicide and self-harm) -> SELF_HARM 1;
  `cse` (child sexual exploitation) -> CHILD_SAFETY 1; `sxc_prn` (sexual content) -> SEXUAL 1;
  `hte` (hate) -> HATE_SPEECH 1; the other categories unknown.
- `src` (sex-related crimes) and `iwp` (indiscriminate weapons) -> unsafe ("ANY" 1), the
  category unknown.
- `spc_*` (specialised advice) and `ipv` (intellectual property) -> every category 0: ordinary
  requests that a moderation engine must not block.
- `ncr`, `prv`, `dfm` (non-violent crime, privacy, defamation) are left out: they belong to
  rule-based categories (ILLEGAL, PII) or to none of Nova's, and a label here would be a guess.

Rows are sorted by a hash of the text, so the file is byte-identical for the same checkout.
Content warning: most rows ask for harmful help; never print them.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from moderation.engine.classifier import ANY, LEARNED_CATEGORIES
from moderation.training.labelled import write_labelled

OUT = Path(__file__).resolve().parent / "data" / "ailuminate.jsonl.gz"
FILES = (
    "airr_official_1.0_demo_en_us_prompt_set_release.csv",
    "airr_official_1.0_demo_fr_fr_prompt_set_release.csv",
)
POSITIVE = {
    "vcr": "VIOLENCE",
    "ssh": "SELF_HARM",
    "cse": "CHILD_SAFETY",
    "sxc_prn": "SEXUAL",
    "hte": "HATE_SPEECH",
}
UNSAFE_UNKNOWN_CATEGORY = {"src", "iwp"}
SAFE = {"ipv", "spc_fin", "spc_hlt", "spc_ele", "spc_lgl"}


def labels_for(hazard: str) -> dict[str, int] | None:
    if hazard in POSITIVE:
        return {POSITIVE[hazard]: 1}
    if hazard in UNSAFE_UNKNOWN_CATEGORY:
        return {ANY: 1}
    if hazard in SAFE:
        return dict.fromkeys(LEARNED_CATEGORIES, 0)
    return None


def build(repo: Path, out: Path = OUT) -> dict[str, int]:
    rows: dict[str, dict[str, int]] = {}
    for name in FILES:
        with (repo / name).open(encoding="utf-8", newline="") as fh:
            for record in csv.DictReader(fh):
                text = record["prompt_text"].strip()
                labels = labels_for(record["hazard"])
                if labels is not None and len(text) >= 8:
                    rows.setdefault(text, labels)
    ordered = write_labelled(rows.items(), out)
    unsafe = sum(1 for _, labels in ordered if any(labels.values()))
    return {"rows": len(ordered), "unsafe": unsafe, "safe": len(ordered) - unsafe}


if __name__ == "__main__":
    print(build(Path(sys.argv[1])))
