"""Text normalisation against evasion.

`normalize()` turns the many spellings people use to slip past filters into one canonical,
lower-case form: Unicode NFKC, zero-width and format characters removed, diacritics stripped,
case folded, Cyrillic/Greek look-alikes mapped to Latin, leetspeak inside words decoded
("k1ll", "$h!t"), single letters separated by spaces or dots joined ("b a d" -> "bad") and
runs of three or more identical letters squeezed ("fuuuuck" -> "fuck").

`squeeze()` additionally collapses every doubled letter; lexicon matching compares squeezed
forms on both sides so "kil", "kill" and "kiiill" all match.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Zero-width spaces/joiners, word joiner, BOM, soft hyphen, bidi marks and other invisible
# format characters that split a word without showing.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]"
)

# Look-alike letters (Cyrillic, Greek, a few others) -> Latin. Applied after casefold.
_CONFUSABLES = {
    # Cyrillic
    "а": "a",
    "в": "b",
    "е": "e",
    "ё": "e",
    "з": "3",
    "к": "k",
    "м": "m",
    "н": "h",
    "о": "o",
    "р": "p",
    "с": "c",
    "т": "t",
    "у": "y",
    "х": "x",
    "ѕ": "s",
    "і": "i",
    "ї": "i",
    "ј": "j",
    "ԁ": "d",
    "ɡ": "g",
    "һ": "h",
    "ԛ": "q",
    "ԝ": "w",
    "ӏ": "l",
    "ь": "b",
    "п": "n",
    "г": "r",
    "и": "u",
    "л": "n",
    # Greek
    "α": "a",
    "β": "b",
    "γ": "y",
    "δ": "d",
    "ε": "e",
    "η": "n",
    "ι": "i",
    "κ": "k",
    "μ": "u",
    "ν": "v",
    "ο": "o",
    "ρ": "p",
    "σ": "o",
    "ς": "s",
    "τ": "t",
    "υ": "u",
    "χ": "x",
    "ω": "w",
    "ϲ": "c",
    # Latin variants NFKC keeps
    "ı": "i",
    "ł": "l",
    "ø": "o",
    "đ": "d",
    "ß": "ss",
    "æ": "ae",
    "œ": "oe",
    "ɑ": "a",
    "ɩ": "i",
    "ʀ": "r",
    "ᴀ": "a",
}
_CONFUSABLE_TABLE = str.maketrans(_CONFUSABLES)

# Leetspeak, decoded only inside a token that also holds letters, so "2024" or "$50" survive.
_LEET = str.maketrans(
    {
        "0": "o",
        "1": "i",
        "3": "e",
        "4": "a",
        "5": "s",
        "7": "t",
        "8": "b",
        "9": "g",
        "@": "a",
        "$": "s",
        "!": "i",
        "|": "l",
        "€": "e",
        "+": "t",
    }
)
_LEET_TOKEN = re.compile(r"[\w@$!|€+]+")
_HAS_LETTER = re.compile(r"[a-z]")
_HAS_LEET = re.compile(r"[0-9@$!|€+]")
# "f*ck", "sh*t": a masking star between letters; keep it as-is for the lexicon's patterns.
_SPACED = re.compile(r"(?<![\w])(?:[a-z][ .\-_*/·•]{1,2}){2,}[a-z](?![\w])")
_REPEATS = re.compile(r"([a-z])\1{2,}")
_PUNCT_REPEATS = re.compile(r"([^\w\s])\1{3,}")
_SPACES = re.compile(r"[ \t\f\v]+")
_DOUBLE = re.compile(r"([a-z])\1+")


def _strip_marks(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", stripped)


def _decode_leet(match: re.Match[str]) -> str:
    token = match.group(0)
    # Punctuation around a word ("kill!", "|hey|") is not part of it.
    core = token.strip("!|+")
    if not core or not _HAS_LETTER.search(core) or not _HAS_LEET.search(core):
        return token
    start = token.index(core)
    # Leave ordinary alphanumerics alone: "mp3", "b2b", "covid19", "4x4", "1st", "9am", "5g".
    if re.fullmatch(r"[a-z]{0,3}\d+(?:st|nd|rd|th|am|pm|s|k|m|g|x\d+|yo|h|d|p)?", core):
        return token
    if re.fullmatch(r"[a-z]*\d{2,}", core):
        return token
    return token[:start] + core.translate(_LEET) + token[start + len(core) :]


def _join_spaced(match: re.Match[str]) -> str:
    letters = re.sub(r"[^a-z]", "", match.group(0))
    return letters


@lru_cache(maxsize=4096)
def normalize(text: str) -> str:
    """Canonical lower-case form of `text` for matching and classification."""
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", text)
    text = text.casefold()
    text = text.translate(_CONFUSABLE_TABLE)
    text = _strip_marks(text)
    text = _LEET_TOKEN.sub(_decode_leet, text)
    text = _SPACED.sub(_join_spaced, text)
    text = _REPEATS.sub(r"\1", text)
    text = _PUNCT_REPEATS.sub(r"\1\1\1", text)
    text = _SPACES.sub(" ", text)
    return text.strip()


def squeeze(text: str) -> str:
    """Collapse doubled letters ("kill" -> "kil") for tolerant lexicon matching."""
    return _DOUBLE.sub(r"\1", text)


def strip_invisible(text: str) -> str:
    """NFKC with invisible characters removed; keeps case, digits and layout (for PII)."""
    return _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
