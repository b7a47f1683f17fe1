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
_CYRILLIC_GREEK = re.compile(r"[\u0370-\u03ff\u0400-\u052f]")
# Cyrillic and Greek letters with no Latin look-alike ("я", "ж", "λ"): a text that uses them is
# written in that script, not disguised Latin.
_OWN_LETTERS = re.compile(
    "["
    + "".join(c for c in map(chr, range(0x370, 0x530)) if c.isalpha() and c not in _CONFUSABLES)
    + "]"
)
_WORD_RUN = re.compile(r"\w+")


def _unconfuse(text: str) -> str:
    """Cyrillic and Greek look-alikes -> Latin ("kіll" with a Cyrillic "і" reads "kill"), except
    in text written in those scripts, where only words that mix in Latin letters are changed:
    "Привет" stays Russian instead of becoming "npubet"."""
    script = _CYRILLIC_GREEK.findall(text)
    if not script:
        return text.translate(_CONFUSABLE_TABLE)  # the Latin variants ("ß", "ł") only
    own = len(_OWN_LETTERS.findall(text))
    if own < 2 or own < 0.1 * len(script) or len(script) < len(_HAS_LETTER.findall(text)):
        return text.translate(_CONFUSABLE_TABLE)
    return _WORD_RUN.sub(
        lambda m: m[0].translate(_CONFUSABLE_TABLE) if _HAS_LETTER.search(m[0]) else m[0], text
    )


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
# A run inside a word ("fuuuck"); a token made only of one letter ("kkk", "www") is kept.
_REPEATS = re.compile(r"(?<=[a-z])([a-z])\1{2,}|([a-z])\2{2,}(?=[a-z])")
_PUNCT_REPEATS = re.compile(r"([^\w\s])\1{3,}")
_SPACES = re.compile(r"[ \t\f\v]+")
_DOUBLE = re.compile(r"([a-z])\1+")


# "8" read as "ate" after a word's first consonants: "h8" (hate), "h8ers" (haters), "sk8".
_EIGHT_AS_ATE = re.compile(r"(?<![\w])([bcdfghjklmnpqrstvwxz]{1,2})8([a-z]{0,4})(?![\w])")


def _eight_as_ate(match: re.Match[str]) -> str:
    head, tail = match.group(1), match.group(2)
    return head + ("at" if tail.startswith("e") else "ate") + tail


def _strip_marks(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", stripped)


def _decode_leet(match: re.Match[str]) -> str:
    token = match.group(0)
    if token.isalpha():
        return token
    # Punctuation around a word ("kill!", "|hey|") is not part of it.
    core = token.strip("!|+")
    if not core or not _HAS_LETTER.search(core) or not _HAS_LEET.search(core):
        return token
    start = token.index(core)
    # Leave ordinary alphanumerics alone: "mp3", "b2b", "covid19", "4x4", "1st", "9am", "5g".
    if re.fullmatch(r"[a-z]{0,3}\d+(?:st|nd|rd|th|am|pm|s|k|m|g|x|x\d+|yo|h|d|p)?", core):
        return token
    if re.fullmatch(r"[a-z]*\d{2,}|\d+[a-z]{1,3}", core):
        return token
    return token[:start] + core.translate(_LEET) + token[start + len(core) :]


def _join_spaced(match: re.Match[str]) -> str:
    letters = re.sub(r"[^a-z]", "", match.group(0))
    return _segment(letters)


def _segment(letters: str) -> str:
    """Split a de-spaced run into known words ("iwillkillyou" -> "i will kill you").

    Dynamic programming over the word list: fewest words, unknown letters cost more; a run with
    no known word is returned joined ("b a d" -> "bad").
    """
    words = _segment_words()
    n = len(letters)
    empty: list[str] = []
    best: list[tuple[float, list[str]]] = [(0.0, empty)] + [(float("inf"), empty)] * n
    for end in range(1, n + 1):
        for start in range(max(0, end - 20), end):
            cost, parts = best[start]
            if cost == float("inf"):
                continue
            piece = letters[start:end]
            if piece in words:
                step = 1.0
            elif end - start == 1:
                step = 2.5
            else:
                continue
            if cost + step < best[end][0]:
                best[end] = (cost + step, [*parts, piece])
    parts = best[n][1]
    covered = sum(len(p) for p in parts if p in words and len(p) >= 3)
    if covered < 0.6 * n:
        return letters
    out: list[str] = []
    for part in parts:
        if part not in words and out and out[-1] not in words:
            out[-1] += part
        else:
            out.append(part)
    return " ".join(out)


_COMMON_WORDS = [
    "a",
    "i",
    "you",
    "u",
    "we",
    "he",
    "she",
    "it",
    "they",
    "me",
    "him",
    "her",
    "them",
    "my",
    "your",
    "our",
    "his",
    "their",
    "this",
    "that",
    "the",
    "an",
    "and",
    "or",
    "but",
    "not",
    "no",
    "is",
    "are",
    "was",
    "were",
    "be",
    "am",
    "will",
    "shall",
    "can",
    "do",
    "does",
    "did",
    "have",
    "has",
    "had",
    "go",
    "going",
    "gonna",
    "want",
    "to",
    "of",
    "in",
    "on",
    "at",
    "for",
    "with",
    "from",
    "by",
    "up",
    "down",
    "out",
    "off",
    "all",
    "every",
    "one",
    "get",
    "got",
    "so",
    "just",
    "now",
    "here",
    "there",
    "what",
    "who",
    "how",
    "why",
    "when",
    "where",
    "like",
    "love",
    "hate",
    "kill",
    "die",
    "dead",
    "death",
    "shoot",
    "shot",
    "stab",
    "bomb",
    "hurt",
    "beat",
    "rape",
    "sex",
    "porn",
    "nude",
    "naked",
    "suck",
    "lick",
    "join",
    "state",
    "islamic",
    "hijrah",
    "selling",
    "sell",
    "buy",
    "cheap",
    "free",
    "money",
    "cash",
    "click",
    "link",
    "dm",
    "telegram",
    "whatsapp",
    "cocaine",
    "heroin",
    "meth",
    "weed",
    "drugs",
    "pills",
    "gun",
    "guns",
    "fake",
    "id",
    "ids",
    "passport",
    "idiot",
    "stupid",
    "dumb",
    "moron",
    "loser",
    "ugly",
    "fat",
    "bitch",
    "whore",
    "slut",
    "cunt",
    "fuck",
    "fucking",
    "fucker",
    "shit",
    "bullshit",
    "ass",
    "asshole",
    "dick",
    "cock",
    "pussy",
    "bastard",
    "damn",
    "crap",
    "piss",
    "myself",
    "yourself",
    "yourselves",
    "himself",
    "herself",
    "kys",
    "cut",
    "hang",
    "suicide",
    "tonight",
    "today",
    "tomorrow",
    "now",
    "school",
    "jews",
    "muslims",
    "gays",
    "blacks",
    "immigrants",
    "women",
    "men",
    "people",
    "nazi",
    "hitler",
    "heil",
    "isis",
    "jihad",
    "caliphate",
    "brothers",
]


@lru_cache(maxsize=1)
def _segment_words() -> frozenset[str]:
    from . import lexicon

    words = set(_COMMON_WORDS)
    for terms in (
        lexicon.PROFANITY,
        lexicon.INSULTS,
        lexicon.SLURS,
        lexicon.SEXUAL_EXPLICIT,
        lexicon.SELF_HARM_TERMS,
        lexicon.VIOLENCE_TERMS,
        lexicon.PROTECTED_GROUPS,
    ):
        words.update(t for t in terms if " " not in t and "-" not in t)
    return frozenset(words)


@lru_cache(maxsize=4096)
def normalize(text: str) -> str:
    """Canonical lower-case form of `text` for matching and classification."""
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", text)
    text = text.casefold()
    text = _unconfuse(text)
    text = _strip_marks(text)
    text = _EIGHT_AS_ATE.sub(_eight_as_ate, text)
    text = _LEET_TOKEN.sub(_decode_leet, text)
    text = _SPACED.sub(_join_spaced, text)
    text = _REPEATS.sub(lambda m: m.group(1) or m.group(2), text)
    text = _PUNCT_REPEATS.sub(r"\1\1\1", text)
    text = _SPACES.sub(" ", text)
    return text.strip()


def squeeze(text: str) -> str:
    """Collapse doubled letters ("kill" -> "kil") for tolerant lexicon matching."""
    return _DOUBLE.sub(r"\1", text)
