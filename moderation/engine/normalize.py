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

import json
import re
import unicodedata
from functools import lru_cache

from .prefilter import screened

# Zero-width spaces/joiners, word joiner, BOM, soft hyphen, bidi marks and other invisible
# format characters that split a word without showing.
_INVISIBLE = screened(
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
_CYRILLIC_GREEK = screened(r"[\u0370-\u03ff\u0400-\u052f]")
# Cyrillic and Greek letters with no Latin look-alike ("я", "ж", "λ"): a text that uses them is
# written in that script, not disguised Latin.
_OWN_LETTERS = screened(
    "["
    + "".join(c for c in map(chr, range(0x370, 0x530)) if c.isalpha() and c not in _CONFUSABLES)
    + "]"
)
_WORD_RUN = screened(r"\w+")


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
_LEET_TOKEN = screened(r"[\w@$!|€+]+")
_HAS_LETTER = screened(r"[a-z]")
_HAS_LEET = screened(r"[0-9@$!|€+]")
# "f*ck", "sh*t": a masking star between letters; keep it as-is for the lexicon's patterns.
_SPACED = screened(r"(?<![\w])(?:[a-z][ .\-_*/·•]{1,2}){2,}[a-z](?![\w])")
# A run inside a word ("fuuuck"); a token made only of one letter ("kkk", "www") is kept.
_REPEATS = screened(r"(?<=[a-z])([a-z])\1{2,}|([a-z])\2{2,}(?=[a-z])")
_PUNCT_REPEATS = screened(r"([^\w\s])\1{3,}")
_SPACES = screened(r"[ \t\f\v]+")
_DOUBLE = screened(r"([a-z])\1+")


# "8" read as "ate" after a word's first consonants: "h8" (hate), "h8ers" (haters), "sk8".
_EIGHT_AS_ATE = screened(r"(?<![\w])([bcdfghjklmnpqrstvwxz]{1,2})8([a-z]{0,4})(?![\w])")


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


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Misspelled words that carry the meaning, read as meant (hate speech test suites check exactly
# these: "I hate wmoen", "All Mslims are vermin", "ihate women", "#killallimmigrants"). Only
# words a message is judged by are restored: names of groups, insults, slurs, words of violence
# and self-harm, and words of contempt. A word is restored only when it is no known English
# word, and lies one adjacent swap or one dropped letter from exactly one such word, or splits
# into known words one of which is such a word.
_CONTEMPT = _words(
    """
hate hates hated hating despise despises detest loathe disgusting filthy dirty vermin
parasites animals savages cockroaches rats subhuman inferior plague disease scum trash
garbage kill killing murder rape deport exterminate gas lynch shot stupid dumb ugly
woman women people gay gays lesbian lesbians trans transgender black blacks white
whites jew jews jewish muslim muslims islam immigrant immigrants refugee refugees
migrants disabled retards negroes mexicans asians arabs africans homosexual homosexuals
"""
)
_SOUNDS_ALIKE = {"s": "z", "z": "s", "c": "k", "k": "c", "i": "y", "y": "i"}
_RESPELL_MIN = 4  # a shorter word has too many neighbours ("hte": "the" or "hate")
_DROP_MIN = 6  # "pics" is one letter short of a slur
_JOINED_MIN = 5
_WORD_TOKEN = screened(rf"(?<![\w@/._\-])[a-z]{{{_RESPELL_MIN},}}(?![\w@/_\-]|\.\w)")
# Two-letter words a run of words written together may hold ("istabbedhim" is not "is tab bed").
_SHORT_WORDS = _words("to of in on at is be we he me my no so up us an as or by do go it am")
_SUFFIXES = _words(
    "s es ed d ing ly er ers est ness ist ists ion ions ation ment ments al ally ity ies y"
)


@lru_cache(maxsize=1)
def _known_words() -> frozenset[str]:
    """English words: all-MiniLM-L6-v2's whole-word vocabulary (about 21,700 words), the
    segmentation words and the lexicon."""
    from . import encoder

    vocab = json.loads((encoder.model_dir() / "tokenizer.json").read_text())["model"]["vocab"]
    return frozenset(w for w in vocab if w.isascii() and w.isalpha()) | _segment_words() | _CONTEMPT


def is_known(word: str) -> bool:
    known = _known_words()
    return word in known or any(
        word.endswith(end) and word[: -len(end)] in known for end in _SUFFIXES if len(word) > 5
    )


@lru_cache(maxsize=1)
def _respellings() -> dict[str, str]:
    """Misspelling -> the word meant, for the words `_CONTEMPT` and the lexicon name: one
    adjacent swap, or (in a word of six letters or more, not a slur) one dropped inner letter."""
    from . import lexicon

    targets = set(_CONTEMPT)
    for terms in (lexicon.INSULTS, lexicon.VIOLENCE_TERMS, lexicon.SELF_HARM_TERMS):
        targets.update(t for t in terms if t.isalpha())
    targets.update(t for t in lexicon.PROTECTED_GROUPS if t.isalpha())
    slurs = {t for t in lexicon.SLURS if t.isalpha()}
    every = targets | slurs
    meant: dict[str, set[str]] = {}
    for word in every:
        if len(word) < _RESPELL_MIN:
            continue
        variants = {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}
        if len(word) >= _DROP_MIN and word not in slurs:
            # A letter dropped inside the word: without its first or last one it is often
            # another word ("filth", "disable", "despise").
            variants |= {word[:i] + word[i + 1 :] for i in range(1, len(word) - 1)}
            # A letter swapped for one that sounds alike ("muzlims", "imigrantz"), or doubled
            # ("mooslims").
            variants |= {
                word[:i] + alike + word[i + 1 :]
                for i, letter in enumerate(word)
                for alike in _SOUNDS_ALIKE.get(letter, "")
            }
            variants |= {word[: i + 1] + word[i:] for i in range(len(word))}
        if word.endswith("s"):
            # A plural spelt with "z", in a word of any length: "jewz", "ratz".
            variants.add(word[:-1] + "z")
        for variant in variants - {word}:
            meant.setdefault(variant, set()).add(word)
    return {
        v: next(iter(w))
        for v, w in meant.items()
        if len(w) == 1 and v not in every and not is_known(v)
    }


# What a run of words written together must hold to be split: a verb of hate or violence, or a
# group's name ("ihate", "killallimmigrants", "whitedevils"); not a noun that ends many an
# ordinary compound ("headshot", "manslaughter", "deadbolt").
_JOIN_TARGETS = _words(
    """
hate hates hated despise despises kill murder rape lynch deport exterminate
women woman gays gay lesbians blacks black whites white jews jew muslims muslim
immigrants immigrant refugees migrants mexicans asians arabs africans homosexuals
"""
)


def _split_joined(word: str) -> str | None:
    """ "ihate" -> "i hate", "killallimmigrants" -> "kill all immigrants": every piece a known
    word (single letters only "i" and "a"), at most four pieces, one of them a target."""
    known = _known_words()
    n = len(word)
    best: list[list[str] | None] = [[]] + [None] * n
    for end in range(1, n + 1):
        for start in range(max(0, end - 20), end):
            parts = best[start]
            piece = word[start:end]
            if parts is None or len(parts) >= 4:
                continue
            if piece not in known or (len(piece) == 1 and piece not in ("i", "a")):
                continue
            if len(piece) == 2 and piece not in _SHORT_WORDS:
                continue
            candidate = [*parts, piece]
            current = best[end]
            if current is None or len(candidate) < len(current):
                best[end] = candidate
    parts = best[n]
    if not parts or len(parts) < 2 or not _JOIN_TARGETS.intersection(parts):
        return None
    return " ".join(parts)


def _respell_word(match: re.Match[str]) -> str:
    word = match.group(0)
    if is_known(word):
        return word
    meant = _respellings().get(word)
    if meant is not None:
        return meant
    if len(word) >= _JOINED_MIN:
        return _split_joined(word) or word
    return word


# A word with letters masked by stars or hashes ("k*ll", "r*pe", "d**e").
_MASKED_WORD = screened(
    r"(?<![\w*#])[a-z]*[*#]+[a-z]+(?:[*#]+[a-z]*)?(?![\w*#])|(?<![\w*#])[a-z]+[*#]+(?![\w*#])"
)


@lru_cache(maxsize=1)
def _unmaskable() -> dict[int, tuple[str, ...]]:
    """Words of violence, self-harm and contempt and groups' names, by length, that a masked
    word may stand for (swear words keep their masks: the lexicon reads "f*ck" as written)."""
    from . import lexicon

    words = set(_CONTEMPT) | {t for t in lexicon.VIOLENCE_TERMS if t.isalpha()}
    words |= {t for t in lexicon.SELF_HARM_TERMS if t.isalpha()}
    words |= {t for t in lexicon.PROTECTED_GROUPS if t.isalpha()}
    by_length: dict[int, list[str]] = {}
    for word in sorted(words):
        by_length.setdefault(len(word), []).append(word)
    return {n: tuple(w) for n, w in by_length.items()}


def _unmask(match: re.Match[str]) -> str:
    masked = match.group(0)
    letters = sum(ch.isalpha() for ch in masked)
    if letters < 2 or letters < len(masked) / 2:
        return masked
    shape = re.compile("".join("[a-z]" if ch in "*#" else ch for ch in masked))
    meant = [w for w in _unmaskable().get(len(masked), ()) if shape.fullmatch(w)]
    return meant[0] if len(meant) == 1 else masked


def respell(text: str) -> str:
    """`text` (lower case) with misspelled key words restored (`_respellings`, joined words)
    and masked ones unmasked ("k*ll"). French, German or Spanish text is left as written: its
    words are not English ones."""
    from . import multilingual

    if multilingual.reads_as_foreign(text):
        return text
    return _MASKED_WORD.sub(_unmask, _WORD_TOKEN.sub(_respell_word, text))


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
