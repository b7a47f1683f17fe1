"""The WordNet noun table (moderation/training/import_wordnet.py): which senses make a noun a
person or a thing, read from files in WordNet's own format."""

from __future__ import annotations

import gzip
from pathlib import Path

from moderation.engine import context
from moderation.training.import_wordnet import classify, lexfiles

# data.noun: offset, lexicographer file, ... (the licence header lines start with a space).
DATA = """\
  1 This software and database is being provided to you
00000001 18 n 01 teacher 0 000 | a person who teaches
00000002 06 n 01 toaster 0 000 | a kitchen appliance
00000003 18 n 01 toaster 0 000 | a person who proposes a toast
00000004 05 n 01 rat 0 000 | a rodent
00000005 18 n 01 rat 0 000 | a despised person
00000006 06 n 01 driver 0 000 | a golf club
00000007 18 n 01 driver 0 000 | the operator of a vehicle
00000008 09 n 01 idea 0 000 | a thought
00000009 06 n 01 teddy_bear 0 000 | a toy
00000010 18 n 02 neighbor 0 neighbour 0 000 | a person who lives nearby
00000011 17 n 01 neighbor 0 000 | a nearby object of the same kind
00000012 14 n 01 couple 0 000 | a pair of people
00000013 06 n 01 couple 0 000 | a mechanical coupling
"""
# index.noun: lemma pos synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt offsets...
INDEX = """\
  1 This software and database is being provided to you
teacher n 1 1 @ 1 1 00000001
toaster n 2 1 @ 2 0 00000003 00000002
rat n 2 1 @ 2 1 00000004 00000005
driver n 2 1 @ 2 1 00000007 00000006
idea n 1 1 @ 1 1 00000008
teddy_bear n 1 1 @ 1 0 00000009
neighbor n 2 1 @ 2 1 00000010 00000011
neighbour n 2 1 @ 2 0 00000010 00000011
couple n 2 1 @ 2 0 00000012 00000013
"""


def test_a_noun_is_a_person_when_an_attested_sense_is_one(tmp_path: Path) -> None:
    (tmp_path / "data.noun").write_text(DATA)
    (tmp_path / "index.noun").write_text(INDEX)
    kinds = classify(tmp_path / "index.noun", lexfiles(tmp_path / "data.noun"))
    assert kinds == {
        "teacher": "P",  # only a person
        "toaster": "T",  # its person sense was never attested in the tagged corpus
        "rat": "T",  # its attested sense is the animal; the insult is the lexicons' job
        "driver": "P",  # the attested sense is the person, though a golf club is one too
        "neighbor": "P",
        "neighbour": "P",  # never tagged itself; "neighbor", in the same synset, is
        "couple": "P",  # its first sense is a group of people
    }  # "idea" names neither; phrases ("teddy_bear") are left out


def test_the_shipped_table_is_sorted_and_read_as_shipped() -> None:
    with gzip.open(context.NOUNS_PATH, "rt", encoding="utf-8") as lines:
        rows = [line.rstrip("\n").split("\t") for line in lines]
    assert [row[0] for row in rows] == sorted(row[0] for row in rows)
    assert {row[1] for row in rows} == {"P", "T"}
    assert len(rows) > 30_000
    assert context.noun_kind("Toasters") == "T"


def test_an_animal_first_is_a_thing_unless_it_names_people_as_often(tmp_path: Path) -> None:
    (tmp_path / "data.noun").write_text(
        "  1 This software and database is being provided to you\n"
        "00000001 05 n 01 cat 0 000 | a feline\n"
        "00000002 18 n 01 cat 0 000 | a man\n"
        "00000003 05 n 01 female 0 000 | an animal that bears young\n"
        "00000004 18 n 01 female 0 000 | a person\n"
        "00000005 18 n 01 hawk 0 000 | an advocate of war\n"
        "00000006 05 n 01 hawk 0 000 | a bird of prey\n"
    )
    (tmp_path / "index.noun").write_text(
        "  1 This software and database is being provided to you\n"
        "cat n 2 1 @ 2 2 00000001 00000002\n"
        "female n 2 1 @ 2 2 00000003 00000004\n"
        "hawk n 2 1 @ 2 2 00000005 00000006\n"
    )
    kinds = classify(tmp_path / "index.noun", lexfiles(tmp_path / "data.noun"))
    assert kinds == {
        "cat": "T",  # the animal first: "why should cats not vote?" names no one
        "female": "P",  # the sexes name people as often as animals
        "hawk": "P",  # a person first, and attested
    }
