"""Rule-based detectors for what a few hundred labelled rows cannot teach.

Each detector looks for one thing and returns `Finding`s: personal data (validated), spam,
profanity and insults, threats and violence planning, extremist praise and recruitment, trade in
illegal goods, self-harm intent, slurs and dehumanisation, and minors in a sexual context.
`context_hints()` spots what makes a flag doubtful (quotes, satire, news, education, recovery).

Detectors take the normalised text (see `normalize.py`) except PII and shouting, which need the
original characters (digits, case, offsets for redaction).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

import phonenumbers
from stdnum import iban as std_iban
from stdnum import luhn
from stdnum.br import cpf as std_cpf
from stdnum.ca import sin as std_sin
from stdnum.es import dni as std_dni
from stdnum.in_ import aadhaar as std_aadhaar
from stdnum.us import ssn as std_ssn

from . import lexicon
from .context import (
    FUNERAL,
    GROUP_WORDS,
    NEGATION,
    NO_LESS_THAN,
    TURN,
    asks_self_defence_law,
    banter,
    denied_before,
    denies_self_harm,
    is_a_thing,
    jocular,
    mask_negative_question,
    negated_before,
    sentences,
    supportive,
)
from .escalation import TERROR_THREAT, VIOLENCE_PLANNING
from .prefilter import Screened, screened


@dataclass(frozen=True)
class Finding:
    category: str
    signals: tuple[str, ...]
    severity: str
    score: float
    reason: str
    spans: tuple[tuple[int, int, str], ...] = ()  # (start, end, mask) in the original text


# --- PII ---------------------------------------------------------------------------------

_EMAIL = screened(
    r"(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,24}\b"
)
_PLACEHOLDER_DOMAINS = screened(
    r"@(?:[\w-]+\.)*(?:example\.(?:com|org|net)|[\w-]+\.(?:example|invalid|test|localhost))$",
    re.IGNORECASE,
)
_ALL_X = screened(r"^[xX*#._-]+$")
_CARD = screened(r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])")
_IBAN = screened(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b")
_SSN_DASHED = screened(r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])")
_NINE_DIGITS = screened(r"(?<![\d-])\d{9}(?![\d-])")
_SSN_CONTEXT = screened(r"\b(?:ssn|social security|social sec)\b", re.IGNORECASE)
_NINO = screened(
    r"\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b"
)
_NINO_CONTEXT = screened(r"\b(?:ni|nino|national insurance)\b", re.IGNORECASE)
_AADHAAR = screened(r"(?<!\d)\d{4} \d{4} \d{4}(?!\d)|(?<!\d)\d{12}(?!\d)")
_AADHAAR_CONTEXT = screened(r"\b(?:aadhaar|aadhar|uidai|uid)\b", re.IGNORECASE)
_CPF = screened(r"(?<!\d)\d{3}\.\d{3}\.\d{3}-\d{2}(?!\d)")
_DNI = screened(r"(?<![\w])\d{8}-?[A-HJ-NP-TV-Z](?![\w])")
_SIN = screened(r"(?<![\d-])\d{3}[ -]\d{3}[ -]\d{3}(?![\d-])")
_SIN_CONTEXT = screened(r"\b(?:sin|social insurance)\b", re.IGNORECASE)
_PASSPORT = screened(
    r"\bpassport(?: number| no\.?| num| #|#)?\s*(?:is|:|=)?\s*([A-Z0-9]{7,9})\b", re.IGNORECASE
)
_ADDRESS = screened(
    r"\b(?:i live at|lives at|my address is|home address is|address:|live on|living at|"
    r"address is)\s+(\d{1,5}\s+(?:[A-Z][a-z]+\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Lane|Ln|"
    r"Drive|Dr|Boulevard|Blvd|Court|Ct|Way|Place|Pl|Terrace|Close|Crescent)\b\.?)",
    re.IGNORECASE,
)
_PHONE_CONTEXT = screened(
    r"\b(?:call|phone|tel|mobile|cell|number|text|txt|whatsapp|reach me|contact|sms|ring)\b",
    re.IGNORECASE,
)
_PHONE_REGIONS = ("US", "GB", "IN", "DE", "FR", "AU")
_CARD_PREFIX = screened(
    r"^(?:4\d{12}(?:\d{3}){0,2}|5[1-5]\d{14}|2(?:2[2-9]|[3-6]\d|7[01])\d{13}|2720\d{12}|"
    r"3[47]\d{13}|3(?:0[0-5]|[68]\d)\d{11,16}|6(?:011|5\d\d|4[4-9]\d)\d{12,15}|"
    r"35(?:2[89]|[3-8]\d)\d{12,15}|62\d{14,17})$"
)


def _overlaps(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    return any(span[0] < end and start < span[1] for start, end in taken)


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _is_placeholder_number(digits: str) -> bool:
    """Digit runs used as placeholders: 0000000, 1234567890, 555-01xx fiction numbers."""
    return (
        len(set(digits)) == 1
        or digits in "012345678901234567890123456789"
        or digits in "987654321098765432109876543210"
    )


def detect_pii(text: str) -> list[Finding]:
    """Validated personal data in `text` (original characters), with spans to mask."""
    found: list[tuple[int, int, str, str]] = []  # start, end, mask, signal
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, mask: str, signal: str) -> None:
        if not _overlaps((start, end), taken):
            taken.append((start, end))
            found.append((start, end, mask, signal))

    for m in _EMAIL.finditer(text):
        local, _, domain = m.group(0).partition("@")
        if _PLACEHOLDER_DOMAINS.search(m.group(0)) or _ALL_X.match(local):
            continue
        if _ALL_X.match(domain.rsplit(".", 1)[0]):
            continue
        add(m.start(), m.end(), "[EMAIL]", "PII_EMAIL")
    for m in _CARD.finditer(text):
        digits = _digits(m.group(0))
        if (
            13 <= len(digits) <= 19
            and _CARD_PREFIX.match(digits)
            and luhn.is_valid(digits)
            and not _is_placeholder_number(digits)
        ):
            add(m.start(), m.end(), "[CARD]", "PII_CARD")
    for m in _IBAN.finditer(text):
        if std_iban.is_valid(m.group(0)):
            add(m.start(), m.end(), "[IBAN]", "PII_IBAN")
    for m in _SSN_DASHED.finditer(text):
        if std_ssn.is_valid(m.group(0)) and m.group(0) not in ("078-05-1120", "219-09-9999"):
            add(m.start(), m.end(), "[ID]", "PII_NATIONAL_ID")
    if _SSN_CONTEXT.search(text):
        for m in _NINE_DIGITS.finditer(text):
            if std_ssn.is_valid(m.group(0)):
                add(m.start(), m.end(), "[ID]", "PII_NATIONAL_ID")
    for m in _NINO.finditer(text):
        if _NINO_CONTEXT.search(text) or " " in m.group(0):
            add(m.start(), m.end(), "[ID]", "PII_NATIONAL_ID")
    for m in _AADHAAR.finditer(text):
        if std_aadhaar.is_valid(m.group(0)) and (
            " " in m.group(0) or _AADHAAR_CONTEXT.search(text)
        ):
            add(m.start(), m.end(), "[ID]", "PII_NATIONAL_ID")
    for m in _CPF.finditer(text):
        if std_cpf.is_valid(m.group(0)):
            add(m.start(), m.end(), "[ID]", "PII_NATIONAL_ID")
    for m in _DNI.finditer(text):
        if std_dni.is_valid(m.group(0)):
            add(m.start(), m.end(), "[ID]", "PII_NATIONAL_ID")
    if _SIN_CONTEXT.search(text):
        for m in _SIN.finditer(text):
            if std_sin.is_valid(m.group(0)):
                add(m.start(), m.end(), "[ID]", "PII_NATIONAL_ID")
    for m in _PASSPORT.finditer(text):
        value = m.group(1)
        if re.search(r"\d", value) and not _ALL_X.match(value):
            add(m.start(1), m.end(1), "[ID]", "PII_NATIONAL_ID")
    for m in _ADDRESS.finditer(text):
        add(m.start(1), m.end(1), "[ADDRESS]", "PII_ADDRESS")
    _detect_phones(text, add)
    if not found:
        return []
    found.sort()
    signals = tuple(dict.fromkeys(signal for *_, signal in found))
    sensitive = {"PII_CARD", "PII_IBAN", "PII_NATIONAL_ID"}.intersection(signals)
    kinds = ", ".join(s.removeprefix("PII_").lower().replace("_", " ") for s in signals)
    return [
        Finding(
            category="PII",
            signals=("PII", *signals),
            severity="HIGH" if sensitive else "MEDIUM",
            score=0.99,
            reason=f"Contains personal data ({kinds}); it is masked in redacted_content.",
            spans=tuple((start, end, mask) for start, end, mask, _ in found),
        )
    ]


def _detect_phones(text: str, add: Callable[[int, int, str, str], None]) -> None:
    if not re.search(r"\d(?:[\s().-]?\d){6}", text):
        return
    seen: set[tuple[int, int]] = set()
    for region in _PHONE_REGIONS:
        matcher = phonenumbers.PhoneNumberMatcher(
            text, region, leniency=phonenumbers.Leniency.VALID
        )
        for match in matcher:
            span = (match.start, match.end)
            if span in seen:
                continue
            seen.add(span)
            raw = match.raw_string
            digits = _digits(raw)
            if len(digits) < 7 or _is_placeholder_number(digits):
                continue
            if re.search(r"555-?01\d\d$", raw) or digits.endswith(("5550100", "5550199")):
                continue  # reserved for fiction
            formatted = raw.startswith("+") or bool(re.search(r"[ ().-]", raw.strip()))
            before = text[max(0, match.start - 40) : match.start]
            if not formatted and not _PHONE_CONTEXT.search(before):
                continue
            if re.fullmatch(r"\d{4}[-./]\d{2}[-./]\d{2}|\d{2}[-./]\d{2}[-./]\d{4}", raw.strip()):
                continue  # a date
            add(match.start, match.end, "[PHONE]", "PII_PHONE")


def redact(text: str, spans: list[tuple[int, int, str]]) -> str:
    out = []
    cursor = 0
    for start, end, mask in sorted(spans):
        if start < cursor:
            continue
        out.append(text[cursor:start])
        out.append(mask)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


# --- Spam ----------------------------------------------------------------------------------

_URL = screened(
    r"\b(?:https?://|www\.)\S+|\b[a-z0-9-]{2,}\.(?:com|net|org|io|ru|xyz|info|biz|top|click|"
    r"link|shop|site|online|ly|me|co|cc|tk|gg)(?:/\S*)?\b",
    re.IGNORECASE,
)
_CONTACT = screened(
    r"\b(?:dm|pm|message|text|call|whatsapp|telegram|contact|email|inbox|hmu|hit me up|"
    r"add me|msg|ping|reach)\s+(?:me|us)\b|\bclick (?:here|the link|below|now|this)\b|"
    r"\blink in (?:my |the )?(?:bio|profile|description)\b|\bvisit (?:my|our) (?:site|website|"
    r"page|profile|store|shop)\b|\bsign up (?:now|today|here|free)\b|\bcheck out my\b|"
    r"\bfollow (?:me|us) (?:on|for|at)\b|\bsubscribe (?:to|now)\b|\bcall now\b|\border now\b|"
    r"\bbuy now\b|\bwhatsapp\b|\btelegram\b|\bjoin (?:my|our) (?:channel|group|team)\b"
)
_MONEY = screened(
    r"\b(?:earn|make|making|made)\s+(?:\$|usd|up to )?\s?\d[\d,.]*k?\s*(?:\$|dollars|usd|euros|"
    r"a day|a week|per day|per week|daily|weekly|a month|per month)|"
    r"\b(?:work|working|job) from home\b|\bget rich\b|\bguaranteed (?:returns?|profits?|income|"
    r"results|money)\b|\bdouble your (?:money|bitcoin|btc|crypto|investment)\b|"
    r"\binvestment opportunity\b|\bfree (?:gift ?cards?|iphone|money|followers|crypto|bitcoin|"
    r"vbucks|robux|trial|cash)\b|\byou(?:'ve| have)? (?:won|been selected)\b|\bclaim (?:your|the) "
    r"(?:prize|reward|gift|bonus)\b|\blimited (?:time )?offer\b|\bact now\b|\b100% free\b|"
    r"\brisk[- ]free\b|\bcheap (?:viagra|cialis|pills|followers|meds)\b|\bbuy (?:followers|likes|"
    r"views|subscribers)\b|\bcasino\b|\bpromo code\b|\bdiscount code\b|\b\d{2}% off\b|"
    r"\blowest prices?\b|\bcrypto signals\b|\bforex\b|\bbinary options\b|\bpassive income\b|"
    r"\bfinancial freedom\b|\bmake money\b|\bcash prize\b|\bwinner\b|\bcongratulations\b|"
    r"\bweight loss (?:pills|secret)\b|\bviagra\b|\bcialis\b|\bno credit check\b|\bloans?\b|"
    r"\bearn money\b|\bmoney back\b|\bper cent returns?\b|\b\d+x (?:returns?|profits?)\b|"
    r"\bmlm\b|\bairdrop\b|\bbe your own boss\b|\bonly \$\d+|\bjust \$\d+|\bfree shipping\b|"
    r"\bmiracle\b|\bsecret (?:method|trick|formula)\b|\bgiveaways?\b|\b(?:hot )?singles in your "
    r"area\b|\b(?:has|have|you've|you have) been (?:selected|chosen|approved)\b|"
    r"\b(?:reply|respond|send|enter|confirm|verify|update) (?:us )?(?:with )?your (?:bank|card|"
    r"account|login|password|payment|billing) (?:details|number|info\w*|credentials)\b"
)
_SPAMMY_PUNCT = screened(r"[!$]{3,}|\${2,}")


def _repetition(normalized: str) -> float:
    words = re.findall(r"[a-z0-9']+", normalized)
    if len(words) < 12:
        lines = [ln.strip() for ln in normalized.splitlines() if ln.strip()]
        if len(lines) >= 3 and len(set(lines)) <= len(lines) / 2:
            return 1.0
        run = 1
        for a, b in pairwise(words):
            run = run + 1 if a == b else 1
            if run >= 4:
                return 1.0
        return 0.0
    # Measured on windows of 100 words: over a whole long document even ordinary prose repeats
    # most of its words, so whole-text ratios would call every long text spam.
    window = 100
    starts = range(0, max(len(words) - window, 0) + 1, window // 2)
    ratios = []
    repeats = []
    for start in starts:
        chunk = words[start : start + window]
        ratios.append(len(set(chunk)) / len(chunk))
        trigrams = [tuple(chunk[i : i + 3]) for i in range(len(chunk) - 2)]
        repeats.append(1 - len(set(trigrams)) / max(len(trigrams), 1))
    unique_ratio = sorted(ratios)[len(ratios) // 2]
    repeated_trigrams = sorted(repeats)[len(repeats) // 2]
    score = 0.0
    if unique_ratio < 0.3:
        score = max(score, 1.0)
    if repeated_trigrams > 0.4:
        score = max(score, 1.0)
    elif repeated_trigrams > 0.25:
        score = max(score, 0.6)
    return score


def shouting(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    if len(letters) < 15:
        return False
    upper = sum(1 for c in letters if c.isupper())
    return upper / len(letters) > 0.7


def detect_spam(text: str, normalized: str) -> list[Finding]:
    findings: list[Finding] = []
    words = max(len(normalized.split()), 1)
    urls = len(_URL.findall(text))
    contact = len(_CONTACT.findall(normalized))
    money = len({m.group(0) for m in _MONEY.finditer(normalized)})
    repetition = _repetition(normalized)
    loud = shouting(text)
    punct = bool(_SPAMMY_PUNCT.search(text))
    signals: list[str] = []
    score = 0.0
    if urls >= 3 or (urls >= 2 and urls / words > 0.08):
        signals.append("SPAM_LINKS")
        score += 0.45
    elif urls:
        score += 0.2
    if contact:
        signals.append("SPAM_CONTACT")
        score += (0.3, 0.45, 0.6)[min(contact, 3) - 1]
    if money:
        signals.append("SPAM_MONEY")
        score += 0.35 if money == 1 else 0.6
    if repetition >= 1.0:
        signals.append("SPAM_REPETITION")
        score += 0.6
    elif repetition > 0:
        score += 0.25
    if loud:
        score += 0.15
    if punct:
        score += 0.1
    if score >= 0.55 and signals:
        findings.append(
            Finding(
                category="SPAM",
                signals=("SPAM", *signals),
                severity="MEDIUM" if score >= 0.8 else "LOW",
                score=min(0.55 + score / 3, 0.99),
                reason="Looks like spam ("
                + ", ".join(s.removeprefix("SPAM_").lower() for s in signals)
                + ").",
            )
        )
    if loud:
        findings.append(
            Finding("SPAM", ("SHOUTING",), "LOW", 0.3, "Written in capitals (shouting).")
        )
    return findings


# --- Profanity and insults -----------------------------------------------------------------

_YOU = r"(?:you|u|ya|your|ur|you're|youre|you are|u r|yo)"
# Wishing a person death or grave harm: "I hope he crashes his car and never walks again",
# "may you rot in a hospital bed".
_DEATH_WISH = screened(
    r"\b(?:(?:i (?:\w+ )?)?hope|i (?:\w+ )?wish|may|hopefully)\s+"
    r"(?:you|u|he|she|they|your \w+|that \w+)\s+(?:\w+\s+){0,2}?"
    r"(?:die|dies|rot|rots|get cancer|gets cancer|choke to death|chokes to death|drown|drowns|"
    r"bleed out|bleeds out|burn in hell|burns in hell|"
    r"gets? (?:hit|run over) by an? (?:bus|car|train|truck|lorry)|gets? run over|"
    r"crash(?:es)? (?:his|her|their|your) car|never walks? again|(?:is|are|gets?) paraly[sz]ed)\b"
)
# "You" and an insult word a few words on: "you're a complete idiot", "you stupid cow". Read
# only where no negation denies it (`_insult_asserted`): "you're not stupid" is no insult.
_YOU_INSULT = screened(
    rf"\b(?P<you>{_YOU})\s+(?:\w+\s+){{0,3}}?(?P<insult>"
    + lexicon.INSULT_RE.pattern.removeprefix("(?<![a-z0-9])")
    + r")"
)
_YOU_WORD = screened(rf"\b{_YOU}\b")


def _you_insults(sentence: str) -> list[re.Match[str]]:
    """Every "you ... insult" in the sentence, one per "you" (they may overlap: in "who do you
    think you are, idiot" the second "you" starts the insult)."""
    found = (_YOU_INSULT.match(sentence, you.start()) for you in _YOU_WORD.finditer(sentence))
    return [m for m in found if m is not None]


# Where the clause an insult stands in starts: a comma, colon, semicolon or "but" ("No offense,
# but you're an idiot"; "You're not stupid, you're a moron").
_CLAUSE_BREAK = screened(r"[,;:]|\bbut\b")


# Said before "you" in the same clause, a frame that denies what follows: "I don't think",
# "I'm not saying", "nobody is calling". Any other negation there ("it's nobody else's fault
# you piece of shit", "I can't believe you're this stupid") denies nothing.
_DENYING_FRAME = screened(
    r"\b(?:(?:i|we)\s+)?(?:don'?t|do not|didn'?t|did not|never|wouldn'?t|would not)\s+"
    r"(?:really\s+)?(?:think|believe|say|said|mean|meant|call|called|consider|find)\b|"
    r"\b(?:i'?m|i am|im|we'?re|we are)\s+not\s+(?:saying|calling|suggesting|implying)\b|"
    r"\b(?:nobody|no one|noone)\s+(?:thinks|believes|says|said|is saying|is calling|called)\b|"
    r"\bnot that\b"
)


# Between "you" and an insult word, a word that makes the insult someone else's or about
# someone else: "if you call someone a retard", "you know that idiot", "you and your idiot
# friends".
_NOT_OF_YOU = screened(
    r"\b(?:call|calls|called|calling|say|says|said|know|knew|see|saw|meet|met|think|thought|"
    r"hear|heard|tell|told|ask|asked|than|to|at|with|about|for|from|of|and|or|if|when|that|who|"
    r"which|someone|somebody|anyone|him|her|them|me|my|his|their)\b"
)


# Between "you" and an insult word, a verb that makes the word its object, not what "you" are
# called: "once you have a reproducible failure", "if you feed the dog", "you caught a rat"
# (not "you have been a failure", "you've become a snake").
_OBJECT_VERB = screened(
    r"\b(?:have|has|had|having|'ve|get|gets|got|getting|need|needs|needed|find|finds|fix|fixes|"
    r"fixed|hit|hits|run|runs|ran|feed|feeds|fed|walk|walks|walked|catch|catches|caught|keep|"
    r"keeps|kept|buy|buys|bought|adopt|adopted|own|owns|owned|pet|debug|reproduce|trap|trapped|"
    r"spot|spotted|notice|noticed|chase|chased|hunt|hunted|avoid|avoided|handle|handled)\b"
)
_COPULA = screened(r"\b(?:been|become|became|becoming|turned into|turning into)\b")


def _said_of_you(match: re.Match[str]) -> bool:
    """The insult of a "you ... insult" match is said of "you", not of what is the reader's
    work or thing ("your code is garbage", "your idea is stupid": criticism, not abuse), nor
    the object of what "you" do ("once you have a reproducible failure")."""
    if _NOT_OF_YOU.search(match.string, match.end("you"), match.start("insult")):
        return False
    between = match.string[match.end("you") : match.start("insult")]
    if _OBJECT_VERB.search(between) and not _COPULA.search(between):
        return False
    if match.group("you") not in ("your", "ur") or lexicon.SLUR_RE.fullmatch(match["insult"]):
        return True
    owned = _OWNED.match(match.string, match.end("you"))
    if owned is None or owned.group(1) in _PERSONAL:
        return True
    return not (owned.group(1) in _WORK or is_a_thing(owned.group(1)))


# "your <noun> is|are|was ...": what the reader owns or made.
_OWNED = screened(r"\s+(?:\w+\s+)?([a-z]+)\s+(?:is|are|was|were|looks?|sounds?|tastes?)\b")
# What a "your" may own that stands for the reader: their body, kin, kind or life.
_PERSONAL = frozenset(
    (
        "face", "body", "voice", "existence", "smell", "breath", "hair", "teeth", "ass", "butt",
        "looks", "personality", "life", "mom", "mum", "mother", "dad", "father", "family", "kids",
        "children", "wife", "husband", "sister", "brother", "girlfriend", "boyfriend", "friends",
        "kind", "people", "race", "parents", "son", "daughter", "baby", "self", "brain", "head",
        "mind", "soul", "character", "skin", "weight", "nose", "legs", "tits", "dick",
    )
)  # fmt: skip
# What a reader makes or holds, criticised without insulting them.
_WORK = frozenset(
    (
        "code", "essay", "idea", "ideas", "plan", "work", "opinion", "opinions", "take", "argument",
        "logic", "post", "comment", "answer", "question", "article", "writing", "art", "drawing",
        "song", "music", "taste", "cooking", "food", "design", "website", "app", "game", "driving",
        "handwriting", "joke", "jokes", "script", "report", "presentation", "slides", "paper",
        "thesis", "book", "story", "poem", "pr", "commit", "review", "playlist", "team", "car",
        "phone", "setup", "build", "strategy", "point", "theory", "proposal", "spelling",
        "grammar", "english", "french", "recipe", "coffee", "room", "house",
    )
)  # fmt: skip


def _insult_asserted(sentence: str, match: re.Match[str]) -> bool:
    """An insult that no negation in its own words, and no denying frame earlier in its
    clause, denies: "you're not stupid", "you're probably not dumb", "you are no idiot", "I
    don't think you're an idiot" deny it; "you're not just stupid", "no offense, but you're an
    idiot", "I can't believe you're this stupid" do not."""
    if NEGATION.search(_ASSERTING_NEGATION.sub(" ", match.group(0))):
        return False
    start = max(0, match.start() - 40)
    for brk in _CLAUSE_BREAK.finditer(sentence, start, match.start()):
        start = brk.end()
    return not _DENYING_FRAME.search(sentence, start, match.start())


def _insults(normalized: str) -> bool:
    """Insults a person directly: an asserted "you ... insult", or abuse that needs no insult
    word ("fuck you", "nobody likes you", a death wish)."""
    if _abuse(normalized):
        return True
    return any(
        _said_of_you(m) and _insult_asserted(sentence, m)
        for sentence in sentences(normalized)
        for m in _you_insults(sentence)
    )


def denies_insults(sentence: str) -> bool:
    """The sentence calls "you" something insulting only to deny it ("you're not stupid",
    "honestly you're no idiot") and holds no other abuse."""
    found = [m for m in _you_insults(sentence) if _said_of_you(m)]
    return (
        bool(found)
        and not any(_insult_asserted(sentence, m) for m in found)
        and not _abuse(sentence)
    )


# Fat-shaming: "put the fork down", beside words about the body.
_FORK_DOWN = screened(
    r"\bput (?:the|that|your) (?:fork|donut|doughnut|burger|cake|pizza|fries) down\b"
)
_BODY_MOCKED = screened(
    r"\b(?:(?:double|triple) chins?|fat\w*|lard\w*|whale|piggy|obese|belly|gained|pounds|"
    r"weight)\b"
)


def _abuse(text: str) -> bool:
    """Abuse that needs no insult word: "fuck you", "nobody likes you", a death wish, fat-shaming
    ("nice double chin ... put the fork down"), or the French, German and Spanish insults."""
    return bool(
        _DIRECTED_ABUSE.search(text)
        or _FOREIGN_INSULT.search(text)
        or (_FORK_DOWN.search(text) and _BODY_MOCKED.search(text))
    )


_DIRECTED_ABUSE = screened(
    r"\b(?:fuck|screw|f\*ck|fck|fk)\s+(?:you|u|off|yourself|ur mom)\b|\bgo (?:fuck|kill|hang) "
    r"yourself\b|\bkys\b|\bstfu\b|\bshut (?:the fuck |tf )?up\b|\bnobody (?:likes|loves|cares "
    r"about) you\b|\byou should be ashamed\b|\bkill yourself\b|\bi hope you suffer\b|"
    # Harm wished on what is the reader's: "I hope your plane crashes".
    r"\bi (?:hope|wish|pray) (?:that )?your (?:\w+ )?(?:plane|flight|car|house|home|kids?|"
    r"children|family|wife|husband|mum|mom|dad|mother|father|dog|baby|business) (?:\w+ )?"
    r"(?:crash(?:es)?|burns?(?: down)?|explodes?|sinks?|dies|die|drowns?|gets? (?:cancer|hit|"
    r"run over|killed|raped|hurt)|goes down in flames)\b|"
    r"\byou(?:'re| are) (?:an? )?(?:waste|joke|disgrace|embarrassment)\b|"
    # A person called a fat animal: "the instructor, a fat sweaty pig who ...".
    r"\b(?:a|an|the|that|this|some) (?:(?:fat|ugly|sweaty|smelly|disgusting|lazy|hideous|greasy|"
    r"stupid)\s+){1,3}(?:pig|cow|whale|hippo|slob|heifer|sow|beached whale)\b(?=,? (?:who|that|"
    r"she|he)\b)|"
    # A person pointed at to be mocked: "look at this fat pig trying to wear a bikini".
    r"\b(?:look at|check out|get a load of) (?:this|that) (?:(?:fat|ugly|stupid|dumb|disgusting|"
    r"pathetic|filthy|nasty|smelly|hideous) )+(?:pig|cow|whale|hippo|freak|loser|idiot|slut|"
    r"whore|bitch|hag|skank|creep|moron|clown|troll|thing)\b(?=[^.!?]{0,40}\b(?:trying|thinks?|"
    r"who|wearing|in (?:a|her|his)|pretending|acting|calling (?:her|him)self))|"
    # Someone's humiliation spread: "post the screenshots of her crying".
    r"\b(?:post|share|send|spread|upload|leak|forward)(?:s|ed|ing)? (?:\w+ )?(?:the |her |his |"
    r"their |those |these |all )?(?:screenshots?|pics?|photos?|pictures?|videos?|clips?|"
    r"recordings?) of (?:her|him|them) (?:crying|naked|drunk|throwing up|puking|peeing|wetting|"
    r"in (?:her|his|their) underwear|undressing|getting (?:changed|beaten|bullied))\b|"
    # "You are genuinely the stupidest person I've ever met."
    r"\b(?:you(?:'re| are| r)|ur)\s+(?:\w+\s+){0,2}?the (?:stupidest|dumbest|ugliest|fattest|"
    r"laziest|most (?:pathetic|useless|worthless|disgusting|idiotic|ignorant|incompetent|"
    r"repulsive)) (?:\w+ )?(?:person|human|man|woman|guy|girl|thing|idiot|creature|excuse|"
    r"loser|people)\b|"
    # Disgust at the reader: "your face makes me want to throw up", "you make me sick".
    r"\b(?:your (?:face|body|voice|existence|smell)|you|looking at you|seeing you)\s+(?:just\s+)?"
    r"makes? me (?:want to )?(?:throw up|puke|vomit|gag|sick)\b(?! with (?:worry|anxiety|nerves|"
    r"jealousy|envy|laughter))|" + _DEATH_WISH.pattern
)


def detect_profanity(normalized: str) -> list[Finding]:
    findings: list[Finding] = []
    hits = lexicon.lexicon_counts(normalized)["profanity"] + len(
        lexicon.MASKED_PROFANITY_RE.findall(normalized)
    )
    if hits:
        findings.append(
            Finding(
                category="PROFANITY",
                signals=("PROFANITY",),
                severity="LOW",
                score=min(0.6 + 0.1 * hits, 0.95),
                reason="Contains profanity.",
            )
        )
    # "You're a crazy bastard, I love you man": names called with affection said outright.
    if _insults(normalized) and not banter(normalized):
        strong = bool(
            re.search(r"\b(?:kys|kill yourself)\b", normalized) or _DEATH_WISH.search(normalized)
        )
        findings.append(
            Finding(
                category="HARASSMENT",
                signals=("INSULT",),
                severity="HIGH" if strong else "MEDIUM",
                score=0.8,
                reason="Insults or demeans a person directly.",
            )
        )
    return findings


# --- Hate ------------------------------------------------------------------------------------

_GROUP = lexicon.GROUP_RE.pattern
_DEHUMAN = lexicon.DEHUMANISING_RE.pattern
# "all", "the", "these", "every single one of the" ... before a group.
_WHOLE = r"(?:(?:all|the|these|those|every single one of the|every)\s+)*"
_IDENTITY = lexicon.IDENTITY_RE.pattern
# What being someone is called when who they are is condemned.
_CONDEMNED_TRAIT = (
    r"(?:wrong|a sin|sinful|disgusting|unnatural|sick|evil|shameful|an abomination|"
    r"(?:not|never) (?:okay|ok|normal|natural|right|acceptable))"
)
# What happening to a group is hate to enjoy: suffering, dying, being hurt.
_GROUP_HARMED = (
    r"(?:suffer(?:s|ed|ing)?|die|dies|died|dying|drown(?:s|ed|ing)?|burn(?:s|ed|t|ing)?|"
    r"bleed(?:s|ing)?|bled|starve(?:s|d)?|starving|(?:get|gets|got|getting|being|are|were) "
    r"(?:beaten|hurt|killed|attacked|lynched|shot|bashed|murdered|stabbed|tortured|gassed|"
    r"massacred|slaughtered)(?: up)?)\b"
)
# What a group is wished to suffer: "should be hanged", "must be wiped out".
_VIOLENT_PARTICIPLE = (
    r"(?:hanged|hung|lynched|shot|killed|murdered|executed|exterminated|eradicated|gassed|"
    r"burn(?:ed|t)(?: alive)?|stoned(?: to death)?|beaten(?: to death)?|tortured|slaughtered|"
    r"massacred|butchered|drowned|castrated|raped|wiped out|put down|culled|eliminated|"
    r"strung up|beheaded|rounded up|put (?:in|into) camps|thrown in camps)"
)
# Worth denied: "(they) don't deserve respect" (not "don't deserve to be hurt").
_WORTH_DENIED = (
    r"(?:don'?t|do not|doesn'?t|does not|never) deserve (?:any )?(?:respect|rights|human rights|"
    r"dignity|to live|to exist|to be here|to breathe|anything|kindness|equality|freedom)\b"
)
_WORSHIP = r"(?:mosques?|synagogues?|churches|temples|gurdwaras?|mandirs?)"
_DESTROYED = (
    r"(?:burned|burnt|burning|burn|torched|bombed|destroyed|razed|blown up|firebombed|"
    r"reduced to (?:ashes|rubble)|go up in flames|torn down|wiped out)\b"
)
_HATE_STATEMENT = screened(
    rf"{_GROUP}\s+(?:are|r|is|were)\s+(?:all\s+|just\s+|nothing but\s+|literally\s+)?(?:\w+\s+)?"
    rf"{_DEHUMAN}|"
    rf"\b(?:kill|gas|exterminate|eradicate|deport|purge|wipe out|get rid of|hang|shoot|burn)\s+"
    rf"(?:all\s+)?(?:the\s+|these\s+|those\s+)?{_GROUP}|"
    rf"{_GROUP}\s+(?:should|must|need to|deserve to)\s+(?:all\s+)?(?:die|suffer|be killed|"
    rf"be exterminated|be gassed|be deported|burn|hang|be wiped out|be shot|go back|not exist|"
    rf"be sterili[sz]ed)|"
    # Worth denied to a group: "Muslims don't deserve respect".
    rf"{_GROUP}\s+{_WORTH_DENIED}|"
    # A group's end wished to be seen: "I'd love to see all Jews wiped out".
    rf"\b(?:love|like|want|wish|hope|glad|happy|wait|cannot wait|can'?t wait) to see\s+"
    rf"(?:all\s+|every\s+)?(?:the\s+|these\s+|those\s+)?{_GROUP}\s+(?:\w+\s+)?(?:wiped out|die|"
    rf"dead|suffer|gassed|burn|burned|burnt|exterminated|killed|eradicated|hang|hanged|deported|"
    rf"shot|lynched)\b|"
    # "All immigrants should be hanged", "gay people ought to be burned alive".
    rf"{_GROUP}\s+(?:should|must|need to|needs to|deserve to|ought to)\s+(?:all\s+|just\s+)?be\s+"
    rf"(?:all\s+)?{_VIOLENT_PARTICIPLE}\b|"
    rf"\b(?:death to|no more)\s+{_GROUP}|"
    # Hatred, disgust or swearing aimed at a whole group: "I despise gay people", "women make me
    # sick", "fuck all muslims".
    rf"\bi (?:\w+ )?(?:hate|despise|detest|loathe|can'?t stand|cannot stand|am sick of|"
    rf"am disgusted by)\s+{_WHOLE}{_GROUP}|"
    rf"{_GROUP}\s+(?:make|makes) me (?:sick|want to (?:puke|vomit|throw up))|"
    rf"\b(?:fuck|screw)\s+{_WHOLE}{_GROUP}|"
    rf"{_GROUP}\s+(?:can|should|need to|must)\s+(?:all\s+)?(?:fuck off|go to hell|rot in hell)|"
    # A whole group wished away: "the world would be better without Roma", "I wish there were
    # no Jews left", "a Muslim-free Europe".
    rf"\b(?:would|'d|will) be (?:so |much |far |a lot |way )?(?:better|nicer|safer|cleaner|"
    rf"happier|great|a (?:better )?(?:place|paradise))(?: off| place)? (?:without|with no|once "
    rf"(?:we|they) (?:get|got) rid of) {_WHOLE}(?:any\s+)?(?:more\s+)?{_GROUP}|"
    rf"\bi wish (?:there were|we had) no (?:more )?{_GROUP}|"
    # "Wouldn't it be great if all Jews vanished?", "it'd be nice if immigrants just left".
    rf"\b(?:would(?:n'?t)?|'d|will|'ll) (?:it )?be (?:so |really |just )?(?:better|nicer|safer|"
    rf"great|nice|good|wonderful|amazing|lovely|awesome|a relief|fantastic|perfect) if "
    rf"{_WHOLE}{_GROUP}\s+(?:all\s+|just\s+)?(?:were |was |got |would |could )?(?:all\s+|just\s+)?"
    rf"(?:vanished|vanish|disappeared|disappear|died|die|dead|gone|wiped out|dropped dead|"
    rf"went away|deported|never existed|didn'?t exist|stopped existing|ceased to exist|"
    rf"exterminated|killed)\b|"
    rf"{_GROUP}[- ]free (?:world|country|nation|town|city|europe|america|society|school|street|"
    rf"neighbou?rhood)\b|"
    # Harm to a group enjoyed: "I love it when gay people suffer", "nothing makes me happier
    # than seeing Muslims die".
    rf"\b(?:(?:love|enjoy|like|adore|live for|relish|delight in)(?: it)? (?:when|watching|"
    rf"seeing|to see|to watch|hearing(?: about)?) |(?:makes? me (?:so )?(?:happy|glad)|makes? "
    rf"my day|nothing makes me (?:happier|smile more)|i'?m (?:so )?(?:happy|glad)|i am (?:so )?"
    rf"(?:happy|glad)|(?:it'?s|it is|isn'?t it|is it) (?:so |really |just )?(?:great|good|"
    rf"wonderful|nice|awesome|amazing|fantastic|lovely|brilliant)) (?:than |when |to see |"
    rf"seeing |that )?(?:seeing |watching )?)"
    rf"{_WHOLE}{_GROUP} (?:\w+ ){{0,2}}?{_GROUP_HARMED}|"
    # Who someone is, condemned: "it's wrong to be gay", "being trans is a mental illness".
    rf"\b(?:it'?s|it is|it was)\s+(?:\w+\s+)?{_CONDEMNED_TRAIT}\s+to be\s+(?:a\s+|an\s+)?"
    rf"{_IDENTITY}|"
    rf"\bbeing\s+(?:a\s+|an\s+)?{_IDENTITY}\s+(?:is|should be)\s+(?:\w+\s+)?(?:{_CONDEMNED_TRAIT}|"
    r"a (?:disease|mental illness|sickness|disorder|crime)|illegal|punishable)\b|"
    rf"\bi (?:want|need|wish|would like) {_WHOLE}{_GROUP} (?:all )?(?:gone|out|dead|removed|"
    r"deported|kicked out|driven out)\b|"
    # Violence against a group approved of: "beating women is fine".
    rf"\b(?:beating|hitting|killing|hurting|attacking|raping|lynching|shooting|bashing|burning|"
    rf"gassing|stabbing|slapping)\s+{_WHOLE}{_GROUP}\s+(?:is|was)\s+(?:\w+\s+)?(?:fine|okay|ok|"
    r"good|great|justified|acceptable|necessary|the answer|the solution|right|fun|deserved|no big "
    r"deal)\b"
)

# A call, often put as a question, to repeat racist or genocidal violence: "why don't we bring
# back lynchings?", "let's do to them what the Nazis did". Its "don't" is no denial.
_HATE_CALL = screened(
    r"\b(?:why (?:don'?t|do not) (?:we|you|they)|why not|how about (?:we )?|let'?s|we should|"
    r"we need to|we must|time to|someone should|somebody should)\s+(?:just\s+|finally\s+)?"
    r"(?:bring back (?:the )?(?:lynchings?|lynch mobs?|the camps|concentration camps|the gas "
    r"chambers|the ovens|the final solution)|do (?:to (?:them|those \w+|these \w+) )?what "
    r"(?:the )?(?:nazis|hitler|the kkk) did|finish (?:what|the job) (?:hitler|the nazis) "
    r"started)"
    # A joke whose point is a group member's death: "the best thing about a Jew is that you can
    # burn him".
    rf"|\b(?:best|only good|good|great|nice) thing (?:about|with) (?:an? |the )?(?:\w+ )?{_GROUP}"
    r"[^.!?]{0,30}?\b(?:you can|you could|they can|they could|(?:they|he|she)(?:'re| are| is|'s)) "
    r"(?:\w+ )?(?:burn|kill|gas|hang|shoot|lynch|drown|dead|die|gone|cremate|enslave)\w*"
)


# "They don't belong here" (not "to a party"): a negation that asserts.
_DONT_BELONG = r"(?:don'?t|do not) belong\b(?! to\b)"
# Negative words that assert rather than deny, for hate and insults alike: "I can't stand
# them", "they don't belong here", "nothing but vermin", "no better than rats", "not just
# greedy", "you're not just stupid".
_ASSERTING_NEGATION = screened(
    rf"\b(?:can'?t|cannot) stand\b|"
    # A suggestion, not a denial: "why don't you go back to your country?".
    r"\bwhy (?:don'?t|do not)\b|"
    # Kept from family life: "shouldn't have children" asserts, as "should not breed" does.
    r"\b(?:shouldn'?t|should not|should never|must not|mustn'?t|ought not to)\s+"
    r"(?:be allowed to\s+)?(?:have (?:children|kids|babies)|reproduce|breed|procreate|"
    r"be parents|raise (?:children|kids)|adopt)\b|"
    # "No sirven para": good for nothing, said of a group.
    r"\bno (?:sirven|valen) (?:para|nada)\b|"
    # French, German and Spanish negations that assert: "ils ne sont que des parasites", "sind
    # nichts als", "no son más que", "ne sont pas des humains", worth and respect denied.
    r"\bne (?:sont|seront|serez|est|sera) (?:\w+ )?que\b|\bnichts (?:anderes |weiter )?als\b|"
    r"\bno (?:son|es|eran) (?:\w+ )?mas que\b|"
    r"\b(?:ne sont|n'?est|c'?est|ce sont) pas (?:des |de vrais |de vraies )?(?:etres )?humain\w*|"
    r"\bsind keine (?:echten )?menschen\b|\bno son (?:seres )?(?:personas|humanos)\b|"
    r"\bne meritent (?:pas|aucun|rien)\b(?! d'?etre)|"
    r"\bverdienen (?:es )?(?:nicht|keinen|keine|kein)\b(?![^.!?]{0,40}\bzu werden\b)|"
    r"\bno (?:se )?merecen\b(?! ser\b)|\bn'?ai (?:aucun|pas de|plus aucun) respect\b|"
    r"\bhabe? (?:keinen|null) respekt\b|\bno (?:tengo|siento) (?:ningun )?respeto\b|"
    # Minimising: "wasn't that bad" says it was fine.
    r"\b(?:wasn'?t|was not|weren'?t|were not|isn'?t|is not|not)\s+(?:really\s+|even\s+|"
    r"actually\s+)?(?:that|so|all that)\s+bad\b|"
    rf"\b{_DONT_BELONG}|\b(?:didn'?t|did not|never) go far enough\b|"
    # Worth denied: "they don't deserve respect" (not "don't deserve to be hurt").
    rf"\b{_WORTH_DENIED}|"
    r"\b(?:not (?:just|only|merely|simply|even|exactly the brightest)|nothing (?:but|more than)|"
    r"no (?:better|smarter|different) than|none other than|"
    rf"(?:never|can'?t|won'?t) (?:stop|cease)|{NO_LESS_THAN}|nothing (?:makes|would make) me "
    r"(?:happier|smile more|more happy))\b"
)


# A belief put in question rather than held: "why do people think immigrants are lazy?".
_QUESTIONED_BELIEF = screened(
    r"\bwhy (?:do|does|would|did) (?:some |so many |many )?(?:people|anyone|someone|folks|they) "
    r"(?:still )?(?:think|believe|say|claim|assume|pretend)(?: that)?\s*$"
)


# A belief named or told of others, not held: "white supremacy is the belief that white people
# are supreme", "the Nazis spread the myth that ...", "racists claim that ..." (not "my belief is
# that ...").
_BELIEF_NAMED = screened(
    r"\b(?:(?:the|a|an|this|that|their|his|its|such|racist|nazi|false|old|dangerous)\s+(?:\w+\s+)?"
    r"(?:belief|idea|notion|claim|myth|lie|theory|ideology|view)\s+(?:is\s+)?|(?:they|he|she|"
    r"nazis|racists|supremacists) (?:believe|believed|believes|claim|claimed|claims)\s+)that\s+"
    r"(?:the\s+)?$"
)

# ... unless it is taken up: "a speech supporting the claim that ...", "proving the theory that".
_BELIEF_TAKEN_UP = screened(
    r"\b(?:support(?:s|ing)?|promot(?:e|es|ing)|defend(?:s|ing)?|prov(?:e|es|ing)|argu(?:e|es|ing) "
    r"for|back(?:s|ing)?|push(?:es|ing)?|spreading|justify(?:ing)?|justifies|confirm(?:s|ing)?|"
    r"agree with|agreeing with|believe in|share|sharing|accept|accepting)\s+(?:\w+\s+)?$"
)


def _asserted(sentence: str, match: re.Match[str]) -> bool:
    """A match that no negation in its own words or just before it in the sentence denies
    ("they are not animals", "I don't think immigrants are vermin"), and that is not a belief
    questioned or named ("why do people think ...", "the myth that ..."); a negation that
    asserts ("nothing but vermin", "not just greedy, they are vermin") denies nothing."""
    leading = sentence[: match.start()]
    named = _BELIEF_NAMED.search(leading)
    if _QUESTIONED_BELIEF.search(leading) or (
        named and not _BELIEF_TAKEN_UP.search(leading, 0, named.start())
    ):
        return False
    # "Wouldn't it be great if all Jews vanished?" asks agreement; it denies nothing.
    sentence = mask_negative_question(sentence)
    before = _ASSERTING_NEGATION.sub(" ", sentence[: match.start()])
    said = _ASSERTING_NEGATION.sub(" ", sentence[match.start() : match.end()])
    return not (NEGATION.search(said) or negated_before(before, len(before)))


# What is said of a whole group that derogates it: vermin words, vices and crimes imputed to all
# of its members, that they ruin the country or do not belong in it.
_DEROGATORY = (
    rf"(?:(?:all|just|only|nothing but|a bunch of|such|so|really|truly|basically|naturally|"
    rf"always|too)\s+){{0,2}}(?:(?:a|an)\s+)?(?:\w+\s+)?(?:{_DEHUMAN}|(?:repulsive|disgusting|"
    rf"revolting|vile|filthy|dirty|greedy|lazy|stupid|dumb|inferior|criminals?|terrorists?|"
    rf"rapists?|thieves|liars|cheats|savages?|degenerates?|perverts?|paedophiles?|pedophiles?|"
    rf"property|objects|livestock|cattle|breeding (?:machines|stock)|possessions|burdens?|"
    rf"drains?|(?:a )?waste of (?:space|oxygen|air|money|resources)|blights?|menaces?|pests|"
    rf"curses?|worthless|useless|pathetic|a joke|mistakes|"
    rf"freaks?|a (?:plague|disease|cancer)|ruining|destroying|invading|taking over)\b)"
)


def _said_of(subject: str) -> str:
    """The derogatory things said of `subject` (a pattern): "... are filthy", "... don't
    belong"."""
    return rf"{subject}\s*(?:are|'re|re|r|were)\s+{_DEROGATORY}|{subject}\s+{_DONT_BELONG}"


# Endorsing an atrocity or a system of oppression: "apartheid was actually the right system",
# "the Holocaust didn't go far enough", "a poem celebrating the massacre".
_ATROCITY = (
    r"(?:slavery|segregation|apartheid|the holocaust|holocaust|the shoah|jim crow|"
    r"(?:the )?(?:\w+ )?genocide|ethnic cleansing|(?:the )?(?:\w+ )?massacre|lynchings?|"
    r"pogroms?|the final solution|the gas chambers|the (?:death|concentration) camps)"
)
_ATROCITY_ENDORSED = screened(
    rf"\b{_ATROCITY}\s+(?:was|were|is)\s+(?:actually |really |honestly |truly |just |"
    r"ultimately )?(?:a |an )?(?:good|great|right|justified|necessary|deserved|a good thing|"
    r"the right (?:\w+ )?(?:thing|system|call|answer|solution|idea)|for the best|well deserved|"
    r"not (?:that |so |even )?bad)\b|"
    # Asked as settled: "why was the Holocaust a good thing?" (not "why was it a bad thing").
    rf"\b(?:why|how) (?:was|were|is) {_ATROCITY}\s+(?:actually |really |ultimately )?(?:a |an )?"
    r"(?:good|great|justified|necessary|deserved|a good thing|beneficial|positive|for the best)\b|"
    # Minimised: "slavery wasn't that bad", "colonialism had its benefits".
    rf"\b{_ATROCITY}\s+(?:wasn'?t|was not|weren'?t|were not|isn'?t)\s+(?:really\s+|even\s+|"
    r"actually\s+)?(?:that|so|all that)\s+bad\b|"
    rf"\b{_ATROCITY}\s+(?:had|has) (?:its|some|many) (?:benefits|upsides|good (?:sides|points)|"
    r"advantages|positives)\b|"
    rf"\b{_ATROCITY}\s+(?:didn'?t|did not|never) go far enough\b|"
    rf"\b(?:bring back|restore|reinstate)\s+{_ATROCITY}|"
    rf"\b{_ATROCITY}\b[^.!?]{{0,40}}?\b(?:should|must|needs? to|ought to) (?:come back|be "
    r"brought back|return|happen again|be repeated)\b|"
    r"\b(?:celebrat(?:e|ing)|glorify|glorifying|prais(?:e|ing))\s+(?:the\s+)?(?:\w+\s+)?"
    r"(?:massacre|genocide|holocaust|lynchings?|ethnic cleansing|pogroms?)\b"
)
# Crime imputed to a group, stated: "black people commit more crimes", "immigrants cause all
# the violence" (asked, it is a question about statistics; of men or women, a statistic).
_CRIME_IMPUTED = screened(
    rf"(?<!\bthat )(?<!\bthink )(?<!\bbelieve )(?<!\bclaim )(?<!\bsay )"
    rf"(?P<group>{_GROUP})\s+(?:commit|cause|are behind|are responsible for|do)\s+(?:\w+\s+)?"
    r"(?:more|most|all(?: the| of the)?)\s+(?:\w+\s+)?(?:crimes?|violence|rapes?|murders?|"
    r"terror(?:ism| attacks)?|shootings|stabbings)\b(?![^.!?]*\?)"
)
_GROUP_SAID = screened(
    rf"{_said_of(_GROUP)}|{_GROUP}\s+(?:always\s+)?(?:cheat|steal|lie)\b|"
    # Conspiracy: "Jews control the banks", "the Jews run the media".
    r"\b(?:the )?(?:jews|jewish people|zionists|jewish elites)\s+(?:\w+\s+)?(?:control|run|own|"
    r"rule|manipulate|are behind)\s+(?:the |all the |all of the |our )?(?:banks|media|world|"
    r"government|governments|money|hollywood|finance|economy|everything|us|america|politicians|"
    r"wars?)\b|"
    # Kept from family life: "disabled people shouldn't have children".
    rf"{_GROUP}\s+(?:shouldn'?t|should not|should never|must not|mustn'?t|ought not to)\s+"
    r"(?:be allowed to\s+)?(?:have (?:children|kids|babies)|reproduce|breed|procreate|be "
    r"parents|raise (?:children|kids)|adopt)\b|"
    # The same asked: "why are immigrants so lazy?", "why are all Muslims terrorists?".
    rf"\bwhy (?:are|were) {_WHOLE}{_GROUP}\s+{_DEROGATORY}|"
    # "Why are Muslims so violent?" (a question about men is about crime figures).
    rf"\bwhy (?:are|were) {_WHOLE}(?!(?:young )?(?:men|males|boys)\b){_GROUP}\s+"
    r"(?:all\s+|always\s+|"
    r"so\s+|such\s+|this\s+|that\s+|naturally\s+){1,2}(?:violent|dangerous|aggressive|barbaric|"
    r"backward|primitive|uncivili[sz]ed|savage|smelly|dishonest|sneaky|untrustworthy|"
    r"bloodthirsty|hateful)\b|"
    # Merit denied: "women only get promoted because they sleep with the boss".
    rf"{_GROUP}\s+(?:\w+\s+)?only\s+(?:get|got|are|were|get to be)\s+(?:promoted|hired|accepted|"
    r"elected|admitted|jobs?|in|there|a job)\b[^.!?]{0,25}?\bbecause (?:they (?:sleep|slept|"
    r"flirt\w*|cry|cried|complain\w*|whine\w*|play the \w+ card)|of (?:quotas|diversity|"
    r"affirmative action|dei|their (?:race|gender|skin|looks|bodies|sex)))\b|"
    # Kept from children: "gay teachers should be kept away from children".
    rf"(?:{_GROUP}|\b(?:{_IDENTITY}))\s+(?:\w+\s+)?(?:should|must|need to|ought to)\s+be\s+kept\s+"
    r"(?:away\s+)?from\s+"
    r"(?:our\s+)?(?:children|kids|schools|playgrounds|classrooms)\b"
)
# The same said of "they" or "those people" once a group or one of its members is named ("A
# Muslim couple moved in. They don't belong here."), or that they should all be put out.
_THEY = r"\b(?:they|those people|these people|their kind|that lot)"
_THEY_SAID = screened(
    rf"{_said_of(_THEY)}|"
    r"\bi (?:want|need|wish|would like) (?:them|those people|these people|their kind) (?:all )?"
    r"(?:gone|out|dead|removed|deported|kicked out|driven out)\b|"
    rf"{_THEY}\s+should\s+(?:all\s+)?(?:be (?:kept|locked|thrown|sent|shipped|driven) "
    r"(?:out|up|away|back)|go back|be deported|be banned|die)\b"
)


# A whole group declared unfit by a trait: "women are too emotional to run a company",
# "immigrants are too primitive to understand democracy".
_UNFIT = screened(
    rf"{_GROUP}\s*(?:are|'re|re|r|is)\s+(?:just |simply |all |naturally )?too (?:emotional|"
    r"hysterical|irrational|weak|stupid|dumb|lazy|primitive|backward|violent|dirty|greedy|"
    r"savage|uncivili[sz]ed|inferior)(?: and (?:too )?\w+)? to\b"
)
# Force called for against a whole group: "lesbians need to be corrected by force",
# "immigrants need to be taught a lesson with their fists", "women need to be kept in line with
# a firm hand" (not "rioters need to be stopped by force": rioters are no protected group).
_FORCED_ON = screened(
    rf"{_GROUP}\s+(?:all\s+)?(?:need|needs|should|must|ought|have|has|deserve|deserves)\s+(?:to\s+)?"
    r"(?:all\s+)?(?:be|get)\s+(?:\w+\s+){1,4}?(?:by force|with (?:\w+ )?(?:fists|firm hand|"
    r"belts?|whips?|bats?|sticks?|violence|beatings?|guns?)|violently|at gunpoint|with a beating|"
    r"(?:taught|given) a lesson)\b"
)
# Where a whole group is said to belong ("disabled people belong in a zoo", "women belong in
# the kitchen"), and a whole group distrusted ("no black person can be trusted", "never trust
# a Muslim").
_BELONG_IN = screened(
    rf"{_GROUP}\s+(?:should\s+|all\s+|only\s+)?belongs?\s+(?:in|behind|at|on)\s+(?:a |an |the )?"
    r"(?:\w+ )?(?:zoo|cages?|trash|bin|gutter|prison|jail|camps?|hell|chains|kitchen|asylums?|"
    r"institutions?|ovens?|gas chambers?|graves?|sewers?|cells?|bars|fields|plantations?|leash|"
    r"home and nowhere else)\b|"
    # Kept in their place: "women should stay in the kitchen where they belong".
    rf"{_GROUP}\s+(?:should|must|need to|ought to|have to|belong to)\s+(?:just\s+|all\s+)?"
    r"(?:stay|remain|be kept|go back|get back|be locked)\s+(?:in|at|to|behind)\s+"
    r"(?:the\s+|their\s+)?(?:kitchen|cages?|zoo|closet|place|back of the bus|fields|"
    r"plantations?|ghettos?|camps?|chains|bars)\b"
)
_DISTRUSTED = screened(
    rf"\bno\s+{_IDENTITY}(?:\s+(?:person|man|woman|one|guy))?\s+(?:can|could|should|is to)\s+"
    rf"(?:ever\s+)?be trusted\b|\b(?:never|(?:you )?can'?t (?:ever )?|(?:you )?cannot (?:ever )?|"
    rf"don'?t (?:ever )?)trust (?:a|an|any)\s+{_IDENTITY}\b|"
    rf"{_GROUP}\s+(?:can'?t|cannot|can never|should never|are never to) be trusted\b"
)
# Praise denied to a whole group: "Muslims are not nice people", "immigrants are not welcome
# here", "women are not smart enough to vote". Its "not" is the statement, not a denial of it.
_PRAISE_DENIED = screened(
    rf"{_GROUP}\s*(?:are|'re|re|r|is)\s+(?:not|never|n't)\s+(?:(?:very|really|truly|even|ever)\s+)?"
    r"(?:welcome|wanted|trustworthy|capable|smart|intelligent|clever|honest|decent|good|nice|"
    r"civili[sz]ed|worthy|fit|equal|normal|real people|people|human beings?)\b"
    r"(?! (?:at|in|with|for) (?:math|maths|sports?|cooking|driving|chess|football))"
    # "Being gay is never okay" (not "... is not okay with my parents").
    rf"|\bbeing\s+(?:a\s+|an\s+)?{_IDENTITY}\s+is\s+(?:not|never|n't)\s+(?:\w+\s+)?(?:okay|ok|"
    r"acceptable|normal|natural|right|fine|alright|moral|healthy)\b(?! (?:with|for|to) (?:my|his|"
    r"her|their|our|some|many|most)\b)"
)


_SEXES = screened(r"(?:all |the )?(?:men|women|males|females|boys|girls)")


# Sent back where they came from: "go back to your country", "go back to where you came from"
# (told, or wished: "they should go back to their own country"). It names no group: the origin
# it sends people back to is the group.
_SENT_BACK = screened(
    r"(?:^|[.!,;:]\s*|\b(?:just|should|can|must|need to|better|ought to|"
    r"why (?:don'?t|do not) (?:\w+ ){1,2}?)\s*)"
    r"go back (?:to )?(?:where(?:ever)? (?:you|they|u) (?:came|come) from|(?:your|their|ur) "
    r"(?:own )?"
    r"(?:country|countries|homeland|land|continent|jungle|desert|village|shithole\w*|"
    r"third[- ]world \w+))\b"
)


# A member of a group sneered at as typical of it: "Typical immigrant, can't even speak proper
# English.", "so typical of women".
_SNEER = screened(
    r"(?:^|[.!?]\s*)(?:so |how |just |such a |that'?s so |that'?s )?typical(?: of)?(?: an?| the| "
    r"those| these| that| all)?\s+(?P<who>(?:\w+\s+)?\w+)(?:\s+(?:behaviou?r|logic|mentality|"
    r"move|thing|attitude))?\s*(?:[,.!?;:]|$)"
)


def _sneered_at(sentence: str) -> bool:
    return any(GROUP_WORDS.search(m.group("who")) for m in _SNEER.finditer(sentence))


# An insult given who someone is as its reason: "just another dumb bitch who thinks she
# deserves a promotion because she's a woman".
_FOR_WHO_THEY_ARE = screened(
    rf"\bbecause (?:she'?s|he'?s|they'?re|she is|he is|they are|you'?re|you are) (?:an? )?"
    rf"(?:\w+ )?(?:{_IDENTITY}|woman|girl|female|lesbian|trans woman|trans man)\b"
)
# Negations that carry the claim rather than deny it: "I don't think Muslims deserve respect"
# (a doubt that denies the worth), "women can't think logically", "why aren't women able to
# think logically?" (an inability imputed to a whole group).
_DOUBTED_WORTH = screened(
    rf"\bi (?:don'?t|do not) (?:think|believe|feel) (?:that )?{_WHOLE}{_GROUP}\s+(?:deserve|"
    r"should (?:have|get|be given|be allowed))\s+(?:any |the same |equal )?(?:respect|rights|"
    r"to live|to exist|equal rights|a voice|to vote|dignity|freedom|kindness|to be here)\b"
)
# A group's rights questioned as if denying them needed no reason: "Why should immigrants be
# denied healthcare?", "why shouldn't gay people lose the right to adopt?" (not "why are women
# paid less", a wrong asked about).
_WHY_SHOULD_DENY = screened(
    # Arguments asked for: "give me reasons why women shouldn't be allowed to work".
    rf"\b(?:reasons?|arguments?|a case|talking points|proof|evidence) (?:why|that) "
    rf"{_WHOLE}{_GROUP}\s+(?:shouldn'?t|should not|should never|must not|mustn'?t|don'?t deserve "
    r"to|do not deserve to)\s+"
    r"(?:be allowed to\s+)?(?:vote|work|drive|marry|adopt|have (?:rights|children|kids|jobs)|"
    r"exist|live here|be here|hold office|own property|go to school|be citizens|serve)\b|"
    rf"\bwhy should(?:n'?t| not)? {_WHOLE}{_GROUP}\s+(?:not be allowed to|not be able to|be "
    r"(?:denied|refused|banned from|barred from|stripped of|excluded from|kept from|kept out of|"
    r"thrown out of|forbidden "
    r"(?:to|from))|lose|not (?:have|get|receive))\s+(?:\w+\s+){0,3}?(?:vote|voting|healthcare|"
    r"health care|rights?|jobs?|work|marry|marriage|housing|education|school|citizenship|benefits|"
    r"welfare|adopt|adoption|serve|drive|own|speak|live|be here|exist|universit(?:y|ies)|"
    r"colleges?|schools?|the country|this country|our country|hospitals?|jobs)\b"
)
# A reason given against the denial: "... They pay taxes like everyone else."
_REASON_AGAINST = screened(
    r"\b(?:like everyone else|same as (?:everyone|anyone)|they (?:pay|work|contribute|deserve|"
    r"have (?:the same|every) right)|everyone deserves|(?:a|is a) (?:basic )?human right|"
    r"it'?s (?:unfair|wrong|cruel|inhumane|discrimination))\b"
)
_UNABLE = screened(
    rf"(?:\bwhy (?:aren'?t|are not|can'?t|cannot|don'?t|do not) {_WHOLE}{_GROUP}|"
    rf"{_WHOLE}{_GROUP}\s+"
    r"(?:can'?t|cannot|are (?:not|incapable of|unable to)|aren'?t|never|don'?t|do not))\s+"
    r"(?:(?:able to|capable of|smart enough to|intelligent enough to|clever enough to|even|"
    r"ever|really)\s+)*(?:think\w*|reason\w*)\s+(?:logically|rationally|clearly|properly|for "
    r"themselves|straight|like (?:adults|humans|normal people))\b"
)
# "Every immigrant is a criminal" said as "all immigrants are criminals", so that what is said
# of a whole group reads the same however it is quantified.
_EVERY_ONE = screened(
    r"\b(?:every|each|any)\s+(?:single\s+)?(?P<who>\w+(?:\s+(?:man|woman|person|guy|girl))?)\s+"
    r"(?:is|was)\s+(?:(?P<article>an?)\s+(?P<what>\w+))?"
)
_IRREGULAR_PLURAL = {"man": "men", "woman": "women", "person": "people", "guy": "guys"}


def _plural(word: str) -> str:
    head, _, last = word.rpartition(" ")
    last = _IRREGULAR_PLURAL.get(last, last if last.endswith("s") else last + "s")
    return f"{head} {last}" if head else last


# The same asked as a negative question, which asserts it: "Isn't every immigrant a criminal?".
_NOT_EVERY_ONE = screened(
    r"^\W*(?:isn'?t|wasn'?t)\s+(?:every|each|any)\s+(?:single\s+)?(?P<who>\w+(?:\s+(?:man|"
    r"woman|person|guy|girl))?)\s+(?P<article>an?)\s+(?P<what>\w+)"
)


def _as_plural(sentence: str) -> str:
    def said_of_all(m: re.Match[str]) -> str:
        what = f" {_plural(m.group('what'))}" if m.group("article") else ""
        return f"all {_plural(m.group('who'))} are{what}"

    return _EVERY_ONE.sub(said_of_all, _NOT_EVERY_ONE.sub(said_of_all, sentence))


def _hate_statement(normalized: str) -> bool:
    named = foreign_named = False
    # The French, German and Spanish forms all name a group or a place of worship: a text that
    # names none skips them (most English text).
    foreign = _FOREIGN_TARGETS.search(normalized) is not None
    patterns = (_FOREIGN_HATE, *_ENGLISH_HATE) if foreign else _ENGLISH_HATE
    for raw in sentences(normalized):
        sentence = _as_plural(raw)
        if _HATE_CALL.search(sentence) or _sneered_at(sentence):
            return True
        for pattern in patterns:
            if any(_asserted(sentence, m) for m in pattern.finditer(sentence)):
                return True
        if foreign and _FOREIGN_RIGHTS_DENIED.search(sentence):
            return True
        # "J'ai rencontré un musulman hier. Ils sont tous pareils, des terroristes.", "Juden?
        # Das sind Ratten.": a group named, then vermin words said of "them".
        found_foreign = _FOREIGN_NAMED.search(sentence) if foreign else None
        foreign_named = foreign_named or found_foreign is not None
        if foreign_named and any(
            _asserted(sentence, m)
            for m in _FOREIGN_THEY.finditer(sentence, found_foreign.end() if found_foreign else 0)
        ):
            return True
        if _FOR_WHO_THEY_ARE.search(sentence) and lexicon.PROFANITY_RE.search(sentence):
            return True
        found = lexicon.IDENTITY_RE.search(sentence) or lexicon.GROUP_RE.search(sentence)
        if found:
            # Every pattern below names a group: a sentence that names none skips them all.
            named = True
            if _not_denied(_PRAISE_DENIED, sentence) or _not_denied(_DISTRUSTED, sentence):
                return True
            if (
                _DOUBTED_WORTH.search(sentence)
                or _UNABLE.search(sentence)
                or (_WHY_SHOULD_DENY.search(sentence) and not _REASON_AGAINST.search(normalized))
            ):
                return True
            for pattern in (_UNFIT, _BELONG_IN, _FORCED_ON, _HATE_STATEMENT, _GROUP_SAID):
                if any(_asserted(sentence, m) for m in pattern.finditer(sentence)):
                    return True
            if any(
                _asserted(sentence, m) and not _SEXES.fullmatch(m.group("group"))
                for m in _CRIME_IMPUTED.finditer(sentence)
            ):
                return True
        if named and any(
            _asserted(sentence, m)
            for m in _THEY_SAID.finditer(sentence, found.end() if found else 0)
        ):
            return True
    return False


# Said of oneself or one's own people: "my ...", "I'm a proud ...", "we're ...".
_RECLAIMING = screened(
    r"\b(?:my|our|i'?m an?|i am an?|we'?re|we are|as an?|fellow|us|^being an?|"
    r"call(?:s|ed|ing)? (?:myself|ourselves|each other|one another) (?:an?\s+)?|"
    r"being called (?:an?\s+)?)\s*(?:\w+\s+){0,2}$"
)


def _slurs(sentence: str) -> int:
    """Slurs in a sentence, none when every one is said of the speaker or their own people in a
    sentence that speaks well of them ("my niggas showed up for me", "I'm a proud dyke")."""
    found = [*lexicon.SLUR_RE.finditer(sentence), *_FOREIGN_SLUR.finditer(sentence)]
    reclaimed = (
        found
        and all(_RECLAIMING.search(sentence[max(0, m.start() - 40) : m.start()]) for m in found)
        and supportive(sentence)
    )
    return 0 if reclaimed else len(found)


def detect_hate(normalized: str) -> list[Finding]:
    findings: list[Finding] = []
    slurs = sum(_slurs(s) for s in sentences(normalized))
    statement = _hate_statement(normalized)
    if statement:
        findings.append(
            Finding(
                "HATE_SPEECH",
                ("HATE_SPEECH",),
                "HIGH",
                0.92,
                "Attacks or dehumanises people for a protected characteristic.",
            )
        )
    elif slurs:
        findings.append(
            Finding(
                "HATE_SPEECH",
                ("HATE_SPEECH",),
                "HIGH",
                0.75 if slurs == 1 else 0.85,
                "Uses a slur against a protected group.",
            )
        )
    return findings


# --- Threats and violence planning ----------------------------------------------------------

_I_WILL = (
    r"\b(?:i|we|im|i'm|i am|we're|we are|ill|i'll|we'll)\s*(?:will|shall|'ll|am|are|m|re|"
    r"gonna|going to|want to|wanna|plan to|planning to|intend to|about to|am going to|"
    r"are going to|will be|gonna go|fixing to|finna|have to|need to|must)?\s+(?:\w+\s+){0,2}?"
)
_HARM_VERB = (
    r"(?:kill|murder|shoot|stab|behead|strangle|choke|slaughter|execute|butcher|gut|slit|"
    r"rape|torture|burn|lynch|hang|bomb|blow up|shoot up|massacre|gun down|run over|"
    r"break(?! in(?:to)?\b)|smash|snap|crack|bash in|cave in|cut|beat|hurt|end)"
)
_THREATENED = (
    r"(?:you|u|ya|him|her|them|everyone|every one|all of you|all of them|your (?:\w+ )?"
    r"(?:family|kids|wife|husband|mom|mother|dad|children|friends|dog|face|head|neck|throat|"
    r"jaw|knees?|kneecaps?|legs?|arms?|ribs|teeth|nose|skull|fingers|hands?|spine|bones|eyes?)|"
    r"my (?:boss|wife|husband|ex|teacher|neighbou?r|classmates|coworkers|father|mother|dad|mom|"
    r"brother|sister|family|landlord|manager)|that (?:guy|girl|bitch|bastard|man|woman|kid)|"
    r"the (?:teacher|boss|cops|police|president|senator|judge|mayor)|people|these people|"
    r"those people|each of you|the whole (?:family|class|school|team|office|group|crew|gang|"
    r"town|village|street|place|building|room|crowd|party|club|bar|mall|store|church|mosque|"
    r"synagogue|temple|stadium|concert|campus|station|lot of (?:you|them)|bunch of (?:you|them))|"
    r"this (?:guy|bitch|bastard))"
)
# A call on others to do it: "someone should firebomb the mosque".
_CALLER = (
    r"\b(?:someone|somebody|anyone|we|people|you guys)\s+(?:should|needs? to|ought to|has to|"
    r"must|have to)\s+(?:just\s+|finally\s+|really\s+|go\s+(?:and\s+)?)?"
)
_THREAT = screened(rf"{_I_WILL}{_HARM_VERB}\w*\s+(?:\w+\s+)?{_THREATENED}\b")
# A killing called for on one person: "someone needs to end him", "somebody should shoot the
# senator" (not "someone needs to end this meeting").
_DEATH_CALLED = screened(
    rf"{_CALLER}(?:kill|murder|shoot|stab|end|assassinate|execute|hang|lynch|behead|strangle|"
    rf"put (?:a|one) (?:bullet|round) in)\s+(?:him|her|{_THREATENED})\b(?!\s+off\b)"
)
# A third person's head or face as the target: "I'll smash his face into the pavement".
_HEAD_PARTS = r"(?:face|head|skull|neck|throat|jaw|kneecaps?|ribs|teeth|nose|spine)"
_THEIR_HEAD = rf"(?:his|her|their) (?:\w+ )?{_HEAD_PARTS}"
_HEAD_THREAT = screened(rf"{_I_WILL}{_HARM_VERB}\w*\s+(?:\w+\s+)?{_THEIR_HEAD}\b")
# The harm as the second act of a plan: "I'm going to wait for him after his shift and smash his
# face", "I'll find her and kill her".
_CHAINED_THREAT = screened(
    rf"{_I_WILL}[^.!?;]{{0,80}}?\band (?:then )?(?:kill|murder|stab|shoot|strangle|slit|behead|"
    rf"torture|smash|break|bash|cave in|crack|beat)\w*\s+(?:\w+\s+)?(?:{_THEIR_HEAD}|your "
    rf"(?:\w+ )?{_HEAD_PARTS})\b|"
    rf"{_I_WILL}[^.!?;]{{0,80}}?\band (?:then )?(?:kill|murder|stab|shoot|strangle|behead|"
    rf"torture)\w*\s+(?:him|her|them|you)\b"
)
# Members of a group as the target: "the next immigrant", "any Muslim", "those gay men". The
# identity word must end the phrase (or lead into "people", "who", "in" ...), so "beat the
# Chinese team" or "cut the gay scenes" are no threat to anyone.
_GROUP_MEMBER = (
    rf"(?:(?:the next|any|every|each|some|a|an|the|those|these|all(?: the)?|all of the)\s+"
    rf"(?:\w+\s+)?(?:{lexicon.IDENTITY_RE.pattern})|{lexicon.GROUP_RE.pattern})"
    r"(?:\s+(?:people|persons?|men|women|guys?|kids|famil(?:y|ies)))?"
    r"(?=\s*(?:$|[.,!?;:]|(?:who|that|in|at|on|from|when|if|and|for|because|i|we|you|he|she|"
    r"they|applying|down|here|there|today|tonight|tomorrow|next|around|near)\b))"
)
_GROUP_THREAT = screened(
    rf"(?:{_I_WILL}|{_CALLER})(?:kill|murder|shoot|stab|lynch|hang|gun down|run over|"
    rf"put (?:a|my|one) (?:bullet|round) (?:in|into|through)|firebomb|torch|burn|bomb|gas|"
    rf"beat up|beat the shit out of)\w*\s+{_GROUP_MEMBER}"
)
# Death called for on a whole class of people who are no protected group (that is hate,
# `_HATE_STATEMENT`): "all politicians should be hanged", "these bankers deserve to be shot".
_PEOPLE_PLURAL = (
    r"(?:politicians|cops|police(?:men)?|people|folks|men|guys|libs|liberals|conservatives|"
    r"democrats|republicans|tories|commies|communists|leftists|rightists|fascists|traitors|"
    r"journalists|reporters|judges|protesters|rioters|voters|landlords|elites|billionaires|"
    r"bankers|lawyers|teachers|doctors|nurses|scientists|priests|soldiers|officers|"
    r"bureaucrats|ceos|boomers|millennials|zoomers|vegans|hippies|feminists|activists|"
    r"environmentalists|socialists|capitalists|anarchists|hunters|rapists|pedophiles|"
    r"paedophiles|criminals|drug dealers|dealers|addicts|junkies|prisoners|inmates)"
)
_DEATH_WISHED_ON_PEOPLE = screened(
    rf"\b(?:all|every (?:last |single )?one of (?:the|these|those)|these|those)\s+(?:the\s+)?"
    rf"(?:\w+\s+)?{_PEOPLE_PLURAL}\s+(?:should|must|need to|deserve to|ought to)\s+"
    r"(?:all\s+|just\s+)?be\s+(?:all\s+)?(?:hanged|lynched|shot|executed|killed|murdered|"
    r"burn(?:ed|t) alive|beheaded|gassed|exterminated|strung up|put down|stoned to death|"
    r"beaten to death|put against a wall)\b"
)
# A shot at people called for or relished: "I'd happily pull the trigger on anyone who votes
# for that party", "we need to put a bullet in every politician who voted for this" (not "pull
# the trigger on the deal", "a bullet in the chamber").
_SHOT_CALLED = screened(
    rf"(?:{_I_WILL}|{_CALLER}|\bi(?:'d| would) (?:happily |gladly |love to |like to )?)(?:happily "
    r"|gladly )?(?:pull the trigger on|put (?:a|one|my) (?:bullet|round) (?:in|into|through))\s+"
    r"(?:anyone|anybody|everyone|everybody|every (?:last |single )?(?:\w+ )?\w+|all "
    rf"(?:the |of the |those |these )?(?:\w+ )?{_PEOPLE_PLURAL}|those (?:\w+ )?{_PEOPLE_PLURAL}|"
    rf"these (?:\w+ )?{_PEOPLE_PLURAL})\b(?:\s+(?:who|that|in|at|on)\b)"
)
# Violence called for on one person: "that referee should be dragged out of his house and
# beaten", "he deserves to be shot" (not "that scene should be shot in black and white").
_HARM_CALLED_ON_ONE = screened(
    r"\b(?:he|she|that (?:\w+ )?(?:guy|man|woman|girl|boy|kid|ref|referee|umpire|coach|teacher|cop|"
    r"officer|judge|politician|senator|president|mayor|governor|bitch|bastard|asshole|prick|idiot|"
    r"moron|driver|pedo|pedophile|paedophile|rapist|landlord|boss|neighbou?r|ex|thief|snitch|"
    r"traitor)|the (?:ref|referee|umpire|senator|president|mayor|judge|landlord))\s+(?:should|"
    r"needs? to|ought to|deserves? to|must|has to)\s+(?:be|get)\s+(?:\w+\s+){0,7}?(?:shot(?! (?:in|"
    r"on|with|from|for|at)\b)|beaten(?: to death| up| bloody| senseless)?|stabbed|lynched|hanged|"
    r"strung up|burned alive|burnt alive|tortured|executed|murdered|killed(?! off\b)|shot dead|"
    r"kicked to death|stoned(?: to death)?|curb ?stomped|castrated|gutted)\b"
)
# Killing called for in a euphemism ("someone needs to put him in the ground before the vote",
# not a funeral), and a face to be ruined ("I'll make sure no other guy ever wants to look at
# her face again").
_KILLING_OR_MAIMING_VEILED = screened(
    rf"(?:{_CALLER}|\bi(?:'ll| will|'m going to|'m gonna| am going to)\s+(?:\w+\s+)?)put (?:him|"
    r"her|them|you|that \w+|this \w+) (?:in the ground|six feet under|in a (?:body bag|coffin|box|"
    rf"grave)|in (?:an early|his|her|their|your) grave)\b(?![^.!?]*\b{FUNERAL}\b)|"
    r"\bi(?:'ll| will|'m going to|'m gonna| am going to) (?:make sure|see to it|guarantee|ensure) "
    r"(?:that )?(?:no(?:body| one)|"
    r"no other (?:guy|man|woman|girl|boy|person)) (?:will )?(?:ever )?(?:wants? to |will want to |"
    r"can |could )?(?:look at|kiss|touch|recogni[sz]e) (?:her|his|your|"
    r"their) face (?:ever )?again\b"
)
# People hunted with weapons: "grab your rifles and go hunting for Democrats", "load up, time
# to hunt down some liberals" (not deer, bargains, or engineers hired).
_PEOPLE_HUNTED = screened(
    rf"\bhunt(?:ing|ed)?\s+(?:for\s+|down\s+)?(?:some\s+|the\s+|all\s+(?:the\s+)?|every\s+)?"
    rf"(?:\w+\s+)?(?:{_PEOPLE_PLURAL}|(?:{lexicon.IDENTITY_RE.pattern})s?)\b"
)
_ARMED = screened(
    r"\b(?:rifles?|guns?|ammo|shotguns?|pistols?|pitchforks|machetes?|load up|locked and "
    r"loaded|bullets|rounds|weapons?|ar-?15s?)\b"
)
# Someone else's violence against a person wished for: "it would be great if someone finally
# put a bullet in my landlord".
_VIOLENCE_WISHED_DONE = screened(
    r"\b(?:it(?:'d| would) be (?:so |really |just )?(?:great|nice|good|awesome|lovely|wonderful|"
    r"amazing|a blessing|a relief)|i(?:'d| would) (?:love|like|enjoy) it|i (?:wish|hope|pray)|"
    r"wouldn'?t it be (?:great|nice|funny)) (?:(?:if|when|that) )?(?:someone|somebody|anyone|some "
    r"\w+|(?:her|his|their|your) (?:new |next |own )?(?:boyfriend|girlfriend|husband|wife|"
    r"partner|dad|father|mom|mother|son|daughter|cellmate|pimp)) (?:would |will |could )?"
    r"(?:finally |just |actually )?(?:put (?:a|one) (?:bullet|round) (?:in|into|through)|shot|"
    r"shoots?|kill(?:ed|s)?|murder(?:ed|s)?|stab(?:bed|s)?|strangled?|"
    r"poison(?:ed|s)?|ran over|runs? over|beat up|beats? up|lynch(?:ed|es)?|hang(?:ed|s)?|"
    r"beats?(?= (?:her|him|them|you)\b(?! (?:at|in|to|on)\b))|"
    rf"torched?|blew up|blows? up)\s+(?:\w+\s+)?{_THREATENED}\b"
    # The particle after the person: "I hope someone runs your kid over".
    r"|\bi (?:wish|hope|pray) (?:(?:that) )?(?:someone|somebody|some \w+) (?:would |will )?"
    r"(?:runs?|ran|beats?|beat|knocks?|knocked|bumps?|bumped) (?!(?:\w+ )?socks\b)"
    r"(?:you|him|her|them|(?:your|his|her|"
    r"their|my|that|this) (?:\w+ )?\w+) (?:over|up|off|out)\b"
)
# Suffering enjoyed: someone's pain, injury or death told as a pleasure to watch ("those kids
# burning alive was hilarious", "I love watching animals suffer", "nothing makes me happier
# than seeing protesters get run over"). Harm that only a living being can suffer, and a
# pleasure taken in it, in one sentence; people who enjoy it spoken of, or a denial, are not it.
_HARM_SUFFERED = (
    r"(?:suffer(?:s|ed|ing)?(?! (?:a|an|the|from|through|less|no more|any ?more|losses|defeats?|"
    r"setbacks?|\w+ (?:loss|losses|defeats?)))|scream(?:s|ed|ing)? (?:in (?:pain|agony)|for "
    r"(?:help|mercy)|until)|beg(?:s|ged|ging)? for (?:mercy|(?:his|her|their) li(?:fe|ves))|"
    r"(?:bleed(?:s|ing)?|bled) out(?! (?:the|an?|its)\b)|burn(?:s|ed|ing|t)? alive|"
    r"writh(?:e|es|ed|ing) in (?:pain|agony)|in agony|"
    r"choke to death|chok(?:es|ed|ing) to death|die slowly|dying slowly|"
    # "videos of people getting hit by trains".
    r"(?:people|someone|somebody|a (?:man|woman|guy|person)|pedestrians|cyclists) (?:getting|get|"
    r"being) (?:hit by (?:a |the )?(?:trains?|cars?|buses|bus|trucks?|lorr(?:y|ies))|run over|"
    r"crushed|decapitated|mauled|torn apart|ripped apart|beaten to death|burned alive)|"
    r"drown(?:s|ed|ing)?"
    r"(?! in (?:work|paperwork|homework|assignments|bills|laundry|debt|emails|sorrows?|tears|"
    r"noise))|"
    r"(?:get|gets|got|getting|being|be) (?:run over|beaten(?: up| to death)?(?! (?:at|in|to "
    r"pieces)\b)(?! by (?!(?:the |a |an |his |her |their |some )?(?:police|cops|guards|soldiers|"
    r"mob|crowd|gang|officers|security|bouncers|thugs|husband|boyfriend|father|dad|stepdad)\b))|"
    r"stabbed|shot|tortured|lynched|murdered|slaughtered|mauled|burned alive|burnt alive|set on "
    r"fire|executed|beheaded|hanged|strangled|maimed|butchered|kicked (?:down|to death|in the "
    r"(?:head|face|ribs|teeth))|punched in the (?:face|head|throat)|(?:curb ?)?stomped|thrown "
    r"(?:off|down|from)|pushed (?:off|down|in front of))|"
    r"(?:skull|head|neck|spine|bones?|face) (?:crack(?:s|ed|ing)?|snap(?:s|ped|ping)?|"
    r"shatter(?:s|ed|ing)?|split(?:s|ting)? open|cav(?:e|ed|ing) in|roll(?:s|ed|ing)?)|"
    r"set (?:a|the|my|his|her|that) (?:\w+ )?(?:cat|dog|kitten|puppy|animal) on fire|"
    # "people getting their heads cut off", "seeing their bodies burn".
    r"(?:get|gets|got|getting|having|have|had) (?:their|his|her) (?:heads?|throats?|limbs|"
    r"fingers|hands|arms|legs|eyes) (?:cut off|chopped off|cut|slit|sliced open|blown off|"
    r"ripped off|gouged out)|"
    # "watching a cheater get his face smashed in".
    r"(?:get|gets|got|getting|having) (?:their|his|her) (?:faces?|heads?|skulls?|teeth|brains?) "
    r"(?:smashed|bashed|kicked|caved|punched|stomped|knocked) (?:in|out)|"
    r"(?:their|his|her|the) (?:bodies|body|corpses?) (?:burn|burning|rot|rotting|on fire)|"
    # Heads cut off: "the cartel chopping that guy's head off".
    r"(?:chop|cut|hack|saw|slic|rip|blow|tear)\w* (?:off )?(?:(?:that|this|the|a|"
    r"some) (?:\w+ )?(?:guy|man|woman|person|kid|boy|girl|dude|soldier|prisoner|hostage|victim|"
    r"snitch|cop)'s|his|her|their|someone'?s|somebody'?s|people'?s) (?:heads?|limbs|hands|fingers|"
    r"arms|legs|faces?) off|"
    # The act named: "the video of the beheading was so satisfying".
    r"(?:the|a|that|this) (?:\w+ )?(?:beheading|lynching|stabbing|massacre|mass shooting|"
    r"school shooting)s?)"
)
_PLEASURE_BEFORE = (
    r"(?:(?:love|loved|enjoy|enjoyed|like|liked|live for|get off on|got off on) (?:to )?"
    r"(?:watch(?:ing)?|see(?:ing)?|hear(?:ing)?|mak(?:e|ing))|nothing (?:makes|made) me "
    r"(?:happier|smile|laugh)|(?:it|this|that) (?:was|is) (?:so |really |pure |honestly )?"
    r"(?:satisfying|fun|funny|hilarious|a joy|beautiful) (?:to (?:watch|see|hear))|"
    r"(?:i|we) (?:laughed|smiled|cheered|celebrated) (?:when|as|while)|made my day|"
    r"nothing (?:is )?(?:more|so) (?:satisfying|fun|funny|enjoyable) (?:than|as) (?:watching|"
    r"seeing|hearing)|"
    # The suffering wished for: "I want to see him suffer".
    r"(?:want|wanna|would love|'d love|can'?t wait|hope|long|need) to (?:see|watch|hear)|"
    # "The best part of the war was seeing their bodies burn."
    r"(?:the )?(?:best|funniest|greatest) (?:part|thing|moment)(?: of(?: \w+){1,3}?)? (?:was|is) "
    r"(?:seeing|watching|hearing))"
)
_PLEASURE_AFTER = (
    r"(?:(?:was|is|were|are|be) (?:\w+ ){0,2}?(?:satisfying|beautiful|hilarious|funny|"
    r"glorious|amazing|awesome|delightful|a joy|the best thing|music to my ears|so fun|"
    r"entertaining)|(?:the )?(?:best|funniest) (?:news|thing|part|video|day)|made my day|"
    r"just to (?:hear|see|watch) (?:it|him|her|them)|for fun|for the fun of it|"
    # "... drowning in the sea, I cheered when I saw the news", "they deserved every hit".
    r"(?:i|we) (?:cheered|celebrated)\b|(?:they|he|she) deserved every (?:hit|"
    r"punch|blow|kick|bullet|lash|second|minute|bit)\b)"
)
# Violence done to people, then called deserved: "the soldiers gutted the prisoners and left
# them hanging from the trees, and honestly they had it coming".
_HARM_DONE = (
    r"(?:gutted|tortured|beheaded|lynched|butchered|slaughtered|massacred|executed|skinned|"
    r"disembowell?ed|burned|burnt|mutilated|raped|stabbed|shot|beat|hanged|strangled|killed|"
    r"murdered|tied up)\s+(?:the|those|these|all the|all those|his|her|their|that|this)\s+"
    r"(?:\w+\s+)?(?:prisoners|captives|villagers|civilians|protesters|women|men|children|kids|"
    r"people|famil(?:y|ies)|hostages|students|refugees|migrants|guy|man|woman|kid|boy|girl|"
    r"thief|thieves|looters|rioters|inmates|workers|strikers)"
)
_HARM_APPROVED = (
    r"(?:(?:they|he|she) (?:all )?(?:had it coming|deserved (?:it|every|what)|got what (?:they|he|"
    r"she) deserved)|serves? (?:them|him|her) right|good riddance)"
)
# A killing done by the writer and dwelt on: "I slit the cat's throat and watched it bleed".
_KILLING_WATCHED = (
    r"(?:slit|slitting|slashed|cut) (?:its|his|her|their|the \w+'s|\w+'s) throats?|"
    r"watch(?:ed|ing)? (?:it|him|her|them) (?:bleed|die|suffer|burn|choke|drown)"
)
# ... and called a pleasure: "it felt amazing" (not "it felt great to cook fresh").
_FELT_GOOD = (
    r"(?:it|that|this) (?:felt|feels) (?:so |really |fucking |absolutely )?(?:amazing|good|great|"
    r"satisfying|awesome|incredible|wonderful|like heaven)(?! to\b)"
)
_SUFFERING_ENJOYED = screened(
    rf"\b{_PLEASURE_BEFORE}\b[^.!?]{{0,60}}?\b{_HARM_SUFFERED}\b|"
    rf"\b{_HARM_SUFFERED}\b[^.!?]{{0,60}}?\b{_PLEASURE_AFTER}\b|"
    rf"\b{_HARM_DONE}\b[^.!?]{{0,100}}?\b{_HARM_APPROVED}\b|"
    rf"\b{_PLEASURE_BEFORE}\b[^.!?]{{0,30}}?\b{_HARM_DONE}\b|"
    rf"\b(?:{_KILLING_WATCHED})\b[^.!?]{{0,60}}?\b(?:{_PLEASURE_AFTER}|{_FELT_GOOD})\b"
)
# Suffering on screen: "horror movies where people get stabbed".
_ON_SCREEN = screened(
    r"\b(?:movies?|films?|horror|tv|shows?|series|episodes?|games?|gaming|anime|cartoons?|"
    r"scenes?|characters?|villains?|(?:special )?effects|actors?|actress|stunts?|wrestling|"
    # Sport and contests: "I love watching Liverpool suffer".
    r"teams?|fans|league|season|match|club|rivals?|opponents?|players?|debates?|chess|football|"
    r"soccer|basketball|baseball|hockey|cricket|tennis|golf|tournament|finals?|playoffs?)\b"
)
# Speech about those who enjoy it: "people who enjoy watching animals suffer are sick".
_ENJOYERS_SPOKEN_OF = screened(
    r"\b(?:people|those|anyone|someone|somebody|whoever|men|guys|kids|monsters?|psychopaths?) "
    r"(?:who|that) (?:\w+ )?(?:love|enjoy|like|laugh|get off|find)|\bhow (?:can|could) "
    r"(?:anyone|someone|people|you|they)\b|\bwhy (?:do|would) (?:people|anyone|some people)\b"
)
# A home or a place of worship called to be set alight or blown up ("someone should burn
# their apartment down", "I'll torch your house"): violence against whoever lives or prays
# there (not "the old barn").
_DWELLING = (
    r"(?:house|home|apartment|flat|place|car|shop|store|restaurant|mosque|church|synagogue|"
    r"temple|gurdwara|shelter|camp|trailer|room|bedroom|tent|caravan|building|cabin)s?"
)
_ARSON_CALLED = screened(
    rf"(?:{_CALLER}|{_I_WILL})(?:burn|torch|firebomb|fire-?bomb|blow up|petrol bomb|molotov|"
    rf"bomb|nuke)(?:\s+down)?\s+(?:their|his|her|your|them|those \w+'?s?|these \w+'?s?|the \w+'s|"
    rf"that \w+'s|that|the|every|all the|all)\s+(?:\w+\s+)?{_DWELLING}\b(?!'s)(?:\s+down)?"
    r"(?![^.!?]{0,30}\b(?:in (?:minecraft|the game|gta|fortnite|roblox|(?:the )?sims)|for the "
    r"insurance|on the dance ?floor|with (?:this|that|our|my|your) (?:song|track|set|voice)))"
)
# Killing or hurting a person dwelt on: "I fantasize about strangling my boss every day".
_VIOLENT_FANTASY = screened(
    rf"\b(?:i|i'?ve|i have|i keep)\s+(?:\w+\s+)?(?:fantasi[sz]e|fantasi[sz]ed|fantasi[sz]ing|"
    rf"daydream|daydreaming|dream|dreaming|think|thinking) (?:about|of) (?:slowly |finally )?"
    rf"(?:killing|murdering|strangling|stabbing|shooting|torturing|choking|beating|drowning|"
    rf"poisoning|raping|hurting|running over|slitting)\s+(?:\w+\s+)?{_THREATENED}\b(?!'s)|"
    # "Sometimes I fantasize about pushing my boss down the stairs", "I keep picturing smashing
    # his face in".
    rf"\b(?:i|i'?ve|i have|i keep)\s+(?:\w+\s+)?(?:fantasi[sz]e|fantasi[sz]ed|fantasi[sz]ing|"
    rf"daydream|daydreaming|imagine|imagining|picture|picturing) (?:about |of )?(?:slowly |"
    rf"finally )?(?:pushing|throwing|shoving)\s+(?:\w+\s+)?{_THREATENED}\s+(?:down|off|in front of|"
    rf"out of|under)\b|"
    rf"\b(?:i|i'?ve|i have|i keep)\s+(?:\w+\s+)?(?:fantasi[sz]e|fantasi[sz]ed|fantasi[sz]ing|"
    rf"daydream|daydreaming|imagine|imagining|picture|picturing) (?:about |of )?(?:slowly |"
    rf"finally )?(?:smashing|bashing|punching|kicking|caving|beating) (?:in )?(?:{_THREATENED}'s|"
    rf"his|her|their) (?:face|head|skull|teeth)\b"
)
# The same in French, German and Spanish: "quelqu'un devrait brûler leur appartement",
# "jemand sollte ihre Wohnung anzünden", "alguien debería quemar su casa"; and suffering
# enjoyed: "j'adore voir les animaux souffrir", "ich liebe es, Tiere leiden zu sehen", "me
# encanta ver sufrir a los animales".
_FOREIGN_VIOLENCE_CALLED = screened(
    r"\b(?:quelqu'un|on) (?:devrait|doit) (?:bruler|incendier|mettre le feu a) (?:leur|leurs|sa|"
    r"son|ses|la|le|cette|ce) (?:maison|appartement|logement|mosquee|eglise|synagogue|voiture)\b|"
    r"\b(?:jemand|man) (?:sollte|muss|musste) (?:ihre|ihr|seine|sein|die|das|diese|dieses) "
    r"(?:haus|wohnung|moschee|kirche|synagoge|auto|heim) (?:anzunden|abfackeln|niederbrennen|"
    r"in brand stecken)\b|"
    r"\b(?:alguien|hay que) (?:deberia|debe|tendria que)? ?(?:quemar|incendiar|prender fuego a) "
    r"(?:su|sus|la|el|esa|ese) (?:casa|piso|apartamento|mezquita|iglesia|sinagoga|coche)\b|"
    r"\b(?:j'adore|j'aime|ca me fait plaisir de) (?:voir|entendre|regarder) (?:\w+ ){0,3}?"
    r"(?:souffrir|hurler de douleur|bruler vifs?|saigner|agoniser)\b|"
    r"\bich (?:liebe|genie\w*) es,? (?:\w+ ){0,3}?(?:leiden|brennen|bluten|schreien) zu "
    r"(?:sehen|horen)\b|"
    r"\b(?:me encanta|me gusta|disfruto) (?:ver|oir|mirar) (?:\w+ ){0,3}?(?:sufrir|arder|"
    r"sangrar|agonizar|quemarse vivos?)\b"
)
_MILD_THREAT = screened(
    # A lesson promised to a group: "someone should teach those immigrants a lesson".
    rf"(?:{_I_WILL}|{_CALLER})(?:teach|show)\s+(?:those\s+|these\s+|the\s+|all\s+(?:the\s+)?|"
    rf"some\s+)?(?:\w+\s+)?(?:{lexicon.GROUP_RE.pattern})\s+(?:\w+\s+)?(?:a lesson|what "
    r"happens|their place)\b|"
    rf"{_I_WILL}(?:slap|punch|smack|kick|hit|beat up|deck|knock|bash|slash)\w*\s+(?:\w+\s+)?"
    rf"{_THREATENED}\b|\byou(?:'ll| will| are gonna| are going to) regret\b(?!\s+(?:not|never|"
    r"missing|skipping|passing|buying|selling|waiting|this purchase|it if you don'?t))|"
    r"\bwatch (?:your back|"
    r"yourself|out)\b|\byou(?:'d| had) better watch\b|\bor else\b|\bcatch you outside\b|"
    r"\bsleep with one eye open\b|"
    # Regret or a lesson promised to a person: "I'll make him regret his review", "someone
    # needs to teach that teacher a lesson she'll never forget".
    rf"{_I_WILL}make (?:you|him|her|them|that \w+|this \w+) (?:\w+ )?regret\b(?! (?:ever )?"
    r"(?:doubting|underestimating|not (?:hiring|picking|choosing|believing)|dumping|leaving))|"
    rf"(?:{_I_WILL}|{_CALLER})teach (?:you|him|her|them|that \w+|this \w+) a lesson (?:that )?"
    r"(?:you|he|she|they)(?:'ll| will)? (?:never|won'?t|will not) forget\b|"
    # Regret promised for a slight: "she's going to regret ever crossing me".
    r"\b(?:she|he|they)(?:'s|'re| is| are)? (?:going to|gonna|will|'ll) regret (?:ever )?"
    r"(?:crossing|messing with|fucking with|disrespecting|betraying|snitching on|reporting|"
    r"lying to|cheating on|talking back to) me\b|"
    # Waiting at someone's door: "I'll be waiting outside your house tonight".
    r"\bi(?:'ll| will) be waiting (?:for you )?(?:outside|in front of) your (?:house|home|place|"
    r"flat|apartment|work|office|school|car|door)\b(?![^.!?]*\b(?:with|see you|pick you up|"
    r"drive you|give you a ride|lift)\b)"
)
_DEATH_THREAT = screened(
    # A threat on a condition: "if I see you at the game Saturday you're getting stabbed".
    r"\bif (?:i|we) (?:ever )?(?:see|catch|find|spot|meet) (?:you|u)\b[^.!?]{0,60}?"
    r"\byou(?:'re| are| r|"
    r"'ll| will)\s+(?:getting|gonna get|going to get|get|be)\s+(?:stabbed|shot|jumped|knifed|"
    r"beaten(?: up)?|battered|hurt|killed|murdered|smashed|wrecked|your (?:head|teeth|face|legs?) "
    r"(?:kicked|smashed|knocked|caved|broken))\b|"
    r"\byou(?:'re| are| r)\s+(?:so\s+)?(?:dead|a dead man|dead meat|next|going to die|gonna die)\b|"
    r"\bi know where you live\b|\bi(?:'ll| will) find you\b|"
    # Not a consequence told: "don't come in hungover, because you'll bleed more", "you'll die
    # of boredom".
    r"(?<!because )(?<!otherwise )(?<!or )(?<!else )\byou(?:'ll| will) (?:die|bleed)\b(?! (?:more|"
    r"less|a lot|a little|faster|slower|easily|of|from|if|unless|when|without|anyway|eventually|"
    r"laughing|happy|old))|\byou(?:'ll| will) pay for this with your life\b|"
    r"\bi(?:'m| am) coming for you\b|\bcount your days\b"
)
_NOT_SERIOUS = screened(
    # Exasperation: "I could strangle my brother sometimes".
    r"\bi could (?:just |honestly |literally )?(?:kill|strangle|murder|throttle|smack) "
    r"(?:\w+ ){0,2}?(?:sometimes|at times)\b|"
    r"\b(?:in (?:fortnite|minecraft|the game|game|chess|cod|call of duty|valorant|overwatch|"
    r"league|mario ?kart|smash)|kill (?:it|this|the (?:exam|test|game|show|interview|audition))|"
    r"could kill for|(?:kill|murder) (?:a|for a) (?:pizza|burger|coffee|beer|nap)|"
    r"killing it|killed it|dying (?:of|to|for)|to death\b.*\b(?:laugh|bored))"
)
_NEGATED = screened(
    r"\b(?:would never|will never|i'?d never|not going to|never going to|wouldn't|won't ever|"
    r"i don't want to|i do not want to|nobody should|no one should|don't ever)\b"
)
_MASS_TARGET = (
    r"(?:school|schools|class|campus|college|university|mall|church|mosque|synagogue|temple|"
    r"concert|festival|parade|office|workplace|stadium|subway|metro|station|airport|plane|"
    r"government building|capitol|courthouse|police station|rally|crowd|club|bar|market|"
    r"hospital|clinic|embassy|parliament|congress|white house|pride|march|protest|event|"
    r"building|city hall|train)"
)
_MASS_ATTACK = screened(
    rf"(?:{_I_WILL}|{_CALLER})(?:bomb|firebomb|torch|blow up|shoot up|attack|massacre|gas|"
    rf"burn down|set fire to|"
    rf"drive (?:a|my) (?:truck|car|van) into|open fire (?:at|on|in)|kill everyone (?:at|in))\s+"
    rf"(?:\w+\s+){{0,3}}?{_MASS_TARGET}\b|"
    # Fire thrown at a building: "I want to throw a Molotov cocktail through the window of the
    # mosque".
    rf"(?:{_I_WILL}|{_CALLER})(?:throw|toss|lob|chuck)\s+(?:a |an |some )?(?:molotovs?(?: "
    rf"cocktails?)?|firebombs?|petrol bombs?|fire ?bombs?|pipe bombs?|grenades?)\s+(?:through|at|"
    rf"into|in)\s+(?:\w+\s+){{0,4}}?{_MASS_TARGET}\b|"
    # An attack spoken of as one's own plan: "the attack I'm planning on the synagogue next
    # month", "we're planning a shooting at the school".
    rf"\b(?:attack|shooting|bombing|massacre|assault)\s+(?:that\s+)?(?:i'?m|i am|we'?re|we are|"
    rf"i'?ve been|we'?ve been)\s+(?:planning|plotting|preparing)\s+(?:on|at|against|for|in)\s+"
    rf"(?:\w+\s+){{0,3}}?{_MASS_TARGET}\b|"
    rf"\b(?:i'?m|i am|we'?re|we are)\s+(?:planning|plotting|preparing)\s+(?:an?|the|my|our)\s+"
    rf"(?:\w+\s+)?(?:attack|shooting|bombing|massacre)\s+(?:on|at|against|in)\s+"
    rf"(?:\w+\s+){{0,3}}?{_MASS_TARGET}\b"
)
# A weapon brought or made ready for a crowded place, with menace: "I'm bringing my rifle to
# the office tomorrow, they'll all pay", "I know which route to take and I have my guns ready".
_ARMED_FOR = screened(
    rf"(?:{_I_WILL}|i'?m |i am )?(?:bring|bringing|take|taking|carry|carrying)\s+(?:my |a |the "
    rf"|dad'?s |\w+ ){{0,2}}(?:guns?|rifles?|ar-?15s?|ak-?47s?|shotguns?|pistols?|handguns?|"
    rf"glocks?|weapons?|bombs?|explosives?)\s+(?:to|into|in)\s+(?:the |my |our |this |that )?"
    rf"(?:\w+\s+)?{_MASS_TARGET}\b"
)
_WEAPON_READY = screened(
    r"\b(?:have|got|'ve got|packed|loaded|ready)\s+(?:my |the |all my |our )?(?:guns?|rifles?|"
    r"ar-?15s?|shotguns?|pistols?|weapons?|ammo|bombs?|explosives?)\s+(?:ready|loaded|packed|"
    r"prepared|all set|set)\b"
)
# A gun the writer has at hand: "I've got my dad's rifle and enough ammo", "I bought a shotgun".
_WEAPON_HELD = screened(
    r"\bi(?:'ve| have)? (?:got|have|bought|took|grabbed|stole|loaded|own)\s+(?:my |a |an |the "
    r"|some |enough |all the )?(?:[\w']+ )?(?:guns?|rifles?|ar-?15s?|ak-?47s?|shotguns?|pistols?|"
    r"handguns?|glocks?|ammo|ammunition|bullets|magazines)\b"
)
# A home set on fire with people in it: "pour the gasoline around the back door and under the
# windows so there's no way out ... light it" (a plan or an order, not what was done: "he
# poured petrol through the letterbox").
_ACCELERANT_LAID = screened(
    r"\b(?:pour|spread|splash|soak|douse)(?:ing)?\s+(?:the\s+|some\s+|a can of\s+)?(?:gasoline|"
    r"petrol|gas|lighter fluid|kerosene|paraffin|diesel|accelerant)\b[^.!?]{0,80}?\b(?:doors?|"
    r"windows?|house|porch|stairs|staircase|hallway|bedroom|flat|apartment|letterbox|mailbox)\b|"
    r"\b(?:douse|soak|splash|drench)(?:ing)?\s+(?:the\s+|his\s+|her\s+|their\s+)?(?:doors?|"
    r"windows?|house|porch|stairs|staircase|hallway|bedroom|flat|apartment)\b[^.!?]{0,40}?\bwith "
    r"(?:gasoline|petrol|gas|lighter fluid|kerosene|paraffin|diesel|accelerant)\b"
)
_NO_ESCAPE = screened(
    r"\b(?:no way out|can'?t get out|cannot get out|won'?t get out|trapped|trap (?:her|him|them)|"
    r"while (?:she|he|they)(?:'s|'re| is| are)? (?:asleep|sleeping|inside|in bed)|goes? to bed|"
    r"go to sleep|falls? asleep)\b"
)
# A beating planned with weapons and a time: "we meet at the parking lot at 9, bring the bats ...
# and teach those freaks a lesson they won't forget".
_LESSON_TAUGHT = screened(
    r"\bteach (?:those|these|them|the|all the|all those|that|this|him|her) (?:\w+ )?(?:a lesson|"
    r"some respect)\b(?! (?:in|on|about|of)\b)"
)
# A game with bats and a field: "we'll teach them a lesson on the field Saturday, bring your
# bats and gloves".
_BALL_GAME = screened(
    r"\b(?:field|pitch|gloves?|balls?|game|match|practice|innings?|baseball|softball|cricket|"
    r"league|team|season|tournament|court|rink)\b"
)
_ARMED_WITH = screened(
    r"\b(?:bring|grab|take|pack|with) (?:the |our |your |some |a few )?(?:baseball )?(?:bats|"
    r"knives|crowbars|chains|guns|pipes|brass knuckles|knuckle ?dusters|machetes|tire irons|"
    r"hammers|clubs)\b"
)
# A day named for it: "Monday is the day".
_DAY_SET = screened(
    r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|today|tonight|"
    r"next week) is the day\b"
)
_MENACE = screened(
    r"\b(?:they|you|everyone|everybody|all of (?:them|you))(?:'ll| will| are going to| are "
    r"gonna)? (?:all )?(?:pay|regret|be sorry|get what'?s coming)\b|"
    r"\b(?:make|making) (?:them|you|everyone|everybody) (?:all )?pay\b|\blast day\b|"
    # "... and she won't be smiling anymore".
    r"\b(?:she|he|they|you|nobody|no one)(?:'ll| will)? (?:won'?t|will not|wo n'?t) be (?:smiling|"
    r"laughing|talking|breathing|around|alive|so smug|so happy) (?:any ?more|much longer|for long|"
    r"after (?:that|tomorrow|today|monday))\b|"
    r"\bwon'?t (?:forget|laugh|bully)\b|\bnobody will (?:laugh|bully|mock|ignore)\b|"
    r"\bit ends (?:today|tomorrow|tonight|here)\b|"
    # A reckoning on people who laughed: "they won't be laughing when I walk in", "they're going
    # to find out what it feels like".
    r"\b(?:they|you|he|she|nobody|no one)(?:'ll| will)? (?:won'?t|will not) be (?:laughing|smiling)"
    r" (?:when|once|then)\b|\b(?:they|you|everyone|everybody|all of (?:them|you))(?: (?:at|in) "
    r"(?:the|that|this|my) \w+)?(?:'re| are| is)?"
    r" (?:going to|gonna|'ll|will) (?:find out|"
    r"learn|see|know) (?:what it feels like|how it feels)\b|"
    # The first of several named: "she'll be the first one".
    r"\b(?:she|he|you|they)(?:'ll| will) be (?:the )?first(?: one| to go)?\b|"
    # "I'm not joking", "Monday is the day".
    r"\b(?:i'?m|i am) (?:not|n't) (?:joking|kidding)\b|\bi mean it\b|"
    rf"\bthis is(?: not|n'?t) a joke\b|{_DAY_SET.pattern}"
)
# A reckoning promised to all of a place's people on a day set: "every single one of you at that
# school is going to regret the day you laughed at me. Monday is the day."
_RECKONING = screened(
    r"\b(?:every (?:single )?one of you|all of you|you all|y'?all|everyone (?:at|in) (?:that|this|"
    r"my|the) \w+)\b[^.!?]{0,40}?\b(?:is|are|will|'ll)?\s*(?:going to|gonna|will)?\s*(?:regret|"
    r"pay|be sorry)\b(?!\s+(?:for (?:the|your) (?:tickets?|drinks?|food|meal)|missing|not|never|"
    r"skipping|passing|forgetting|leaving|(?:that )?you (?:missed|skipped|left|didn'?t)))"
)
# Where someone lives found, and a visit promised: "I found your street on Google Maps. See you
# soon."
_FOUND_WHERE = screened(
    r"\bi(?:'ve| have)? (?:already |just )?(?:found|tracked down|looked up|have|got) (?:your|ur) "
    r"(?:new )?(?:street|address|house|home|place|flat|apartment|job|workplace|office)\b|"
    # Said of someone else: "I've already found his workplace and his home address".
    r"\bi(?:'ve| have)? (?:already |just )?(?:found|tracked down|looked up|got) (?:out )?(?:his|"
    r"her|their) (?:(?:workplace|work address|job|school|car|number) and (?:his|her|"
    r"their) )?(?:home address|address|street|house|home|place|flat|apartment|workplace)\b"
)
_VISIT_PROMISED = screened(
    r"\b(?:i'?m coming|coming for you|you(?:'re| are) not safe|you think you(?:'re| are) safe|"
    r"watch your back|knock knock|be seeing you|"
    # Following promised: "I'll be outside every morning", "I'll follow you everywhere".
    r"i'?ll be (?:outside|waiting|watching) (?:(?:for you|your \w+) )?every (?:morning|night|day|"
    r"evening)|i(?:'ll| will) (?:follow|find) you (?:everywhere|wherever|to|home)|you(?:'ll| will) "
    r"never (?:be free of|escape|get away from|get rid of) me|you belong to me)\b"
)
# "See you soon", "he's going to get a visit" menace only where no friendly errand is said.
_SEE_YOU = screened(
    r"\bsee you (?:soon|tonight|tomorrow|later|there)\b|\b(?:he|she|they)(?:'s| is| are|'re) "
    r"(?:going to|gonna|about to) (?:get|have) a (?:little |nice |surprise )?visit\b"
)
_FRIENDLY_ERRAND = screened(
    r"\b(?:invit\w*|party|card|gift|present|letter|package|parcel|flowers|dinner|lunch|coffee|"
    r"delivery|deliver|send|sending|mail)\b"
)
# A person beaten so that it leaves no marks: "use a belt so it doesn't leave marks on her face",
# "hit him where the bruises won't show".
_MARKS_HIDDEN = screened(
    r"\b(?:hit|hitting|beat|beating|punch|punching|slap|slapping|whip|whipping|hurt|hurting|"
    r"kick|kicking|use (?:a|the|your) (?:belt|stick|rod|cane|hose|towel|phone book))\b"
    r"[^.!?]{0,60}?\b(?:so (?:it|they|that|there) (?:doesn'?t|don'?t|won'?t|wouldn'?t) (?:leave|"
    r"show) (?:any )?(?:visible )?(?:marks?|bruises?)|without leaving (?:any )?(?:visible )?"
    r"(?:marks?|bruises?)|where (?:the )?(?:bruises|marks) (?:won'?t|don'?t|wouldn'?t) show)"
)
_PERSON_HURT = screened(
    r"\b(?:her|him|them|wife|husband|kids?|child|children|son|daughter|girlfriend|boyfriend|"
    r"partner|someone|somebody|people)\b"
)
# Violence against a partner or a child called acceptable: "beating your wife is fine as long as
# you don't leave marks".
_REPORTED_BELIEF = screened(
    r"\b(?:think|thinks|thought|believe|believes|say|says|said|claim|claims|used to think)\b"
)
_ABUSE_ENDORSED = screened(
    r"\b(?:beating|hitting|slapping|punching|choking|kicking|smacking|raping|abusing)\s+(?:your|a|"
    r"the|my|his|their)\s+(?:wife|wives|husband|partner|girlfriend|boyfriend|kids?|children|child|"
    r"son|daughter|woman|women)\s+(?:is|are)\s+(?:totally |perfectly |completely |just |sometimes "
    r"|occasionally |often |really |actually |honestly )?(?:fine|ok|"
    r"okay|acceptable|justified|normal|good|necessary|alright|all right|healthy|deserved|"
    r"discipline|the only way|needed|called for)\b|"
    # "... to keep her in line".
    r"\b(?:beat|hit|slap|punch|smack|choke|kick)(?:ing|s)?\s+(?:your|a|the|my|his|their)\s+(?:wife|"
    r"girlfriend|partner|woman|women|husband)\b[^.!?]{0,40}?\bto keep (?:her|him|them) in (?:line|"
    r"check|her place|his place|their place)\b|\bit'?s (?:totally |perfectly |completely |"
    r"sometimes )?(?:fine|ok|okay|acceptable|normal|good|necessary) to (?:beat|hit|slap|punch|"
    r"choke|kick|rape|abuse) (?:your|a|the) (?:wife|husband|partner|girlfriend|boyfriend|kids?|"
    r"children|child|woman)\b"
)


def _armed_attack(sentence: str) -> bool:
    """A weapon brought to a crowded place with menace, or made ready with a target named."""
    if _SPORTING.search(sentence):
        return False
    if _ARMED_FOR.search(sentence) and _MENACE.search(sentence):
        return True
    return bool(_WEAPON_READY.search(sentence) and _MASS_TARGET_NAMED.search(sentence))


_MASS_TARGET_NAMED = screened(rf"\b{_MASS_TARGET}\b")
_SPORTING = screened(
    r"\b(?:hunting|hunt|range|season|deer|clay|skeet|trap shooting|competition|match|tournament|"
    r"repairs?|gunsmith|cleaning|licen[cs]e|permit|safety course)\b"
)


_PLAN_DETAIL = screened(
    r"\b(?:tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday|next week|"
    r"this weekend|at \d{1,2}(?::\d\d)?\s*(?:am|pm)?|on the \d+|noon|midnight|morning|"
    r"rifle|ar[- ]?15|ak[- ]?47|shotgun|pistol|handgun|glock|ammo|ammunition|rounds|magazines|"
    r"pipe bomb|explosives|pressure cooker|fertili[sz]er|detonat\w*|vest|ied|timer|"
    r"entrance|exit|security guard|floor plan|layout|route|schedule|getaway|maximum casualties|"
    r"as many as possible|most people|the crowd|already bought|got the|i have a|my dad'?s gun)\b"
)
_EXTREMIST_CAUSE = screened(
    r"\b(?:allahu akbar|jihad|infidels?|kuffar|kafir|caliphate|islamic state|isis|isil|daesh|"
    r"race war|white power|for the race|14 ?words|heil|the great replacement|accelerat\w+|"
    r"martyr\w*|crusaders?|zog|day of the rope|boogaloo|the cause|our brothers|the ummah|"
    r"apostates?|the movement|for the nation|ethnostate)\b"
)
# A request for help: "how do I", "what's the quickest way to", "walk me through".
_ASK = (
    r"(?:how (?:do|can|could|would|should|might|will) (?:i|we|you|one|someone)|how to|how i can|"
    r"how (?:much|many) (?:\w+ ){0,3}?(?:would|does|do|will|should|is|are) (?:it take|i need|we "
    r"need|you need|one need|i have|i use|needed|enough)(?: to take)?(?: to)?|"
    r"what'?s the (?:best|easiest|quickest|fastest|safest|simplest|surest|most effective) way "
    r"to|(?:best|easiest|quickest|fastest|simplest) ways? to|ways to|"
    r"(?:what|which) (?:\w+ ){0,2}?(?:can|could|should|would|do) (?:i|we) (?:use|buy|get|give "
    r"\w+|put|mix) to|is there (?:a|any) way to|any (?:tips|ideas|advice) (?:for|on)"
    r"(?: how to)?|give me (?:a |some )?(?:way|ways|ideas|tips|steps|a plan|instructions) to|"
    r"teach me (?:how )?to|(?:show|tell) me how to|walk me through|help me|"
    r"tips (?:for|on) how to|steps to|guide (?:to|for)|instructions (?:to|for)|explain how to|"
    r"i (?:want|need) to (?:know|learn) how to|where can i learn to|recipe (?:to|for)|"
    # The same help given, in an answer: "here's how to", "sure, to make it you'll need",
    # "here are some tips to", "the easiest way to ... is".
    r"(?:here'?s|here is|this is) how (?:to|you can|you)|(?:i can|i'?ll|i will|let me) help "
    r"you(?: to)?|(?:here are|these are) (?:some |a few "
    r"|the )?(?:\w+ )?(?:tips|ways|steps|ideas|instructions) (?:to|for)|the (?:best|easiest|"
    r"quickest|fastest|simplest|surest|most reliable|most effective) way to|(?:^|(?<=[.!?:] )|"
    r"(?<=\n))(?:(?:sure|ok|okay|of course|absolutely|yes|certainly|alright),? )?to"
    # ... when what follows says how: "to stalk her, install ...", "to make it you'll need"
    # (not "to hurt someone you love is the worst feeling").
    r"(?=[^.!?;]*(?:,|\byou(?:'ll| will| would|'d)? (?:need|have to|should|can|must|want)\b|"
    r"\bfirst\b)))"
)
# What is asked to be written: "write", "draft", "give me", "help me write".
_CREATE = (
    r"(?:write|draft|compose|create|generate|make|give me|come up with|craft|produce|"
    r"help me (?:write|draft|make|come up with)|"
    # The writing handed over, in an answer: "here's a phishing email: ...".
    r"here'?s|here is)"
)
_WEAPON = (
    r"(?:(?:a |an |the |some )?(?:pipe |nail |car |truck |pressure cooker |homemade |home-?made "
    r"|fertili[sz]er |dirty )?(?:bombs?|explosives?|ieds?|grenades?|molotovs?(?: cocktails?)?|"
    r"napalm|thermite|detonators?|suicide vests?|ricin|sarin|nerve agents?|mustard gas|"
    r"chlorine gas|anthrax|silencers?|suppressors?|ghost guns?|untraceable guns?|zip guns?|"
    r"3d[- ]printed guns?))"
)
_BOMB_MAKING = screened(
    rf"\b{_ASK}\s+(?:make|build|assemble|construct|making|building|extract|extracting|"
    rf"produce|synthesi[sz]e|mix|cook|brew|print|culture|cultivate|grow|weaponi[sz]e|"
    rf"aerosoli[sz]e|purify|refine)\s+(?:\w+\s+)?{_WEAPON}\b"
    # A weapon sneaked past a check: "the best way to sneak a knife past airport security".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:sneak|smuggle|hide|slip)\s+(?:a |an |my |the |some )?"
    rf"(?:\w+\s+)?(?:knife|knives|gun|guns|pistol|handgun|weapons?|blades?|explosives?|bombs?|"
    rf"firearms?|ammo|ammunition)\s+(?:past|through)\s+(?:the\s+)?(?:airport\s+|tsa\s+|"
    rf"stadium\s+|school\s+)?(?:security|metal detectors?|scanners?|checkpoints?|bag checks?)\b"
    rf"|\b{_ASK}\s+convert\s+(?:[\w-]+\s+){{0,4}}?(?:to|into) (?:full[- ]auto|fully "
    rf"automatic|automatic|select[- ]fire)\b"
    rf"|\b(?:where|who|how) (?:[\w']+ ){{0,3}}?(?:buy|get|sells?|find)\s+(?:a |an )?(?:guns?|"
    rf"firearms?|handguns?|pistols?|rifles?|ar-?15s?|ammo)\b[^.!?]{{0,40}}?\b(?:without (?:a |"
    rf"any )?(?:background check|license|licence|paperwork|id)|no questions asked|off the "
    rf"books|under the table)"
)


# The recourse of a customer or a tenant: courts, complaints, reviews.
_RECOURSE = screened(
    r"\b(?:legal action|lawyers?|solicitors?|attorneys?|court|sue|suing|ombudsman|(?:file|lodge|"
    r"make) a (?:formal )?complaint|trading standards|consumer protection|chargeback|refund\w*|"
    r"(?:bad|negative|one-star|1-star) reviews?|better business bureau|report (?:you|this) to)\b"
)


def _only_regret(sentence: str) -> bool:
    """Every intimidating phrase in the sentence is a regret promised ("you will regret this")."""
    return all("regret" in m.group(0) for m in _MILD_THREAT.finditer(sentence))


def _violence_found(seen: dict[tuple[str, ...], Finding], reason: str) -> None:
    signals = ("VIOLENCE",)
    seen.setdefault(signals, Finding("VIOLENCE", signals, "HIGH", 0.85, reason))


def _plan_found(seen: dict[tuple[str, ...], Finding], reason: str) -> None:
    """An attack planned, found across sentences: CRITICAL, zero tolerance (contract 10)."""
    signals = (VIOLENCE_PLANNING, "THREAT")
    seen.setdefault(signals, Finding("VIOLENCE", signals, "CRITICAL", 1.0, reason))


def detect_violence(normalized: str) -> list[Finding]:
    """Threats and plans, judged sentence by sentence (a negation or a game in one sentence
    says nothing about the next); plan details and a cause count from the whole text."""
    details = set(_PLAN_DETAIL.findall(normalized))
    cause = _EXTREMIST_CAUSE.search(normalized)
    seen: dict[tuple[str, ...], Finding] = {}
    recourse = bool(_RECOURSE.search(normalized))
    for sentence in sentences(normalized):
        for finding in _violence_in(sentence, details, cause, recourse):
            seen.setdefault(finding.signals, finding)
    # Threats told across sentences: a reckoning for a place's people with a day set, a home
    # found and a visit promised.
    reckoning = _RECKONING.search(normalized)
    if (
        reckoning
        and (_DAY_SET.search(normalized) or _MASS_TARGET_NAMED.search(normalized))
        and not negated_before(normalized, reckoning.start())
    ) or (
        _FOUND_WHERE.search(normalized)
        and (
            _VISIT_PROMISED.search(normalized)
            or (_SEE_YOU.search(normalized) and not _FRIENDLY_ERRAND.search(normalized))
        )
    ):
        seen.setdefault(
            ("THREAT",),
            Finding("VIOLENCE", ("THREAT",), "HIGH", 0.9, "Threatens to kill or hurt someone."),
        )
    # A gun at hand, a place full of people, and a reckoning promised, told across sentences:
    # "I've got my dad's rifle ... I know which hallway the seniors use ... They won't be laughing
    # when I walk in."
    held = _WEAPON_HELD.search(normalized)
    menace = _MENACE.search(normalized)
    if (
        held
        and menace
        and _MASS_TARGET_NAMED.search(normalized)
        and not _SPORTING.search(normalized)
        and not negated_before(normalized, held.start())
        and not negated_before(normalized, menace.start())
    ):
        _plan_found(seen, "Plans a violent attack with concrete details (target, time or weapon).")
    laid = _ACCELERANT_LAID.search(normalized)
    if laid and _NO_ESCAPE.search(normalized) and not negated_before(normalized, laid.start()):
        _plan_found(seen, "Plans to set fire to a home with people inside.")
    lesson = _LESSON_TAUGHT.search(normalized)
    if (
        lesson
        and _ARMED_WITH.search(normalized)
        and _PLAN_DETAIL.search(normalized)
        and not _BALL_GAME.search(normalized)
        and not negated_before(normalized, lesson.start())
    ):
        seen.setdefault(
            ("VIOLENCE_PLANNING",),
            Finding(
                "VIOLENCE",
                ("VIOLENCE_PLANNING",),
                "HIGH",
                0.9,
                "Plans an armed attack on people.",
            ),
        )
    hidden = _MARKS_HIDDEN.search(normalized)
    if (
        hidden
        and _PERSON_HURT.search(normalized, max(0, hidden.start() - 60), hidden.end() + 60)
        and not negated_before(normalized, hidden.start(), 12)
    ):
        _violence_found(seen, "Tells how to hurt a person without leaving marks.")
    endorsed = _ABUSE_ENDORSED.search(normalized)
    if (
        endorsed
        and not negated_before(normalized, endorsed.end())
        # Reported and condemned: "some people still think beating your wife is fine, which is
        # horrifying".
        and not _REPORTED_BELIEF.search(normalized, max(0, endorsed.start() - 30), endorsed.start())
    ):
        _violence_found(seen, "Calls violence against a partner or a child acceptable.")
    found = sorted(seen.values(), key=lambda f: -f.score)
    strongest = [f for f in found if "MILD_THREAT" not in f.signals]
    return strongest or found[:1]


def _violence_in(
    normalized: str, details: set[str], cause: re.Match[str] | None, recourse: bool = False
) -> list[Finding]:
    """The threats and plans of one sentence; `details`, `cause` and `recourse` (a lawsuit or a
    complaint named) are read from the whole text."""
    findings: list[Finding] = []
    not_serious = bool(_NOT_SERIOUS.search(normalized)) or jocular(normalized)
    negated = bool(_NEGATED.search(normalized))
    self_defence = asks_self_defence_law(normalized)
    mass = _MASS_ATTACK.search(normalized) or _armed_attack(normalized)
    threat = (
        _THREAT.search(normalized)
        or _HEAD_THREAT.search(normalized)
        or _DEATH_CALLED.search(normalized)
        or _CHAINED_THREAT.search(normalized)
        or _GROUP_THREAT.search(normalized)
        or _DEATH_THREAT.search(normalized)
        or _FOREIGN_THREAT.search(normalized)
    )
    if mass and not negated:
        if cause:
            findings.append(
                Finding(
                    "EXTREMISM",
                    (TERROR_THREAT, "THREAT"),
                    "CRITICAL",
                    1.0,
                    "Credible terrorist threat against a public target.",
                )
            )
        elif details:
            findings.append(
                Finding(
                    "VIOLENCE",
                    (VIOLENCE_PLANNING, "THREAT"),
                    "CRITICAL",
                    1.0,
                    "Plans a violent attack with concrete details (target, time or weapon).",
                )
            )
        else:
            findings.append(
                Finding(
                    "VIOLENCE",
                    ("THREAT",),
                    "HIGH",
                    0.9,
                    "Threatens an attack on a public place.",
                )
            )
    elif threat and not not_serious and not negated and not self_defence:
        if len(details) >= 2:
            findings.append(
                Finding(
                    "VIOLENCE",
                    (VIOLENCE_PLANNING, "THREAT"),
                    "CRITICAL",
                    1.0,
                    "Threatens to kill or hurt someone and gives concrete plans.",
                )
            )
        elif cause:
            findings.append(
                Finding(
                    "EXTREMISM",
                    (TERROR_THREAT, "THREAT"),
                    "CRITICAL",
                    1.0,
                    "Violent threat made in the name of an extremist cause.",
                )
            )
        else:
            findings.append(
                Finding("VIOLENCE", ("THREAT",), "HIGH", 0.9, "Threatens to kill or hurt someone.")
            )
    elif (
        _MILD_THREAT.search(normalized)
        and not not_serious
        and not negated
        and not self_defence
        # "You will regret this" beside a lawsuit or a complaint: no violence.
        and not (recourse and _only_regret(normalized))
    ):
        findings.append(
            Finding("VIOLENCE", ("MILD_THREAT",), "MEDIUM", 0.7, "Contains an intimidating threat.")
        )
    death_wished = (
        _DEATH_WISHED_ON_PEOPLE.search(normalized)
        or _SHOT_CALLED.search(normalized)
        or _HARM_CALLED_ON_ONE.search(normalized)
        or _KILLING_OR_MAIMING_VEILED.search(normalized)
        or _VIOLENCE_WISHED_DONE.search(normalized)
        or _ARSON_CALLED.search(normalized)
        or _VIOLENT_FANTASY.search(normalized)
        or _FOREIGN_VIOLENCE_CALLED.search(normalized)
        or (_ARMED.search(normalized) and _PEOPLE_HUNTED.search(normalized))
    )
    if not findings and death_wished and not denied_before(normalized, death_wished.start()):
        findings.append(
            Finding(
                "VIOLENCE",
                ("VIOLENCE",),
                "HIGH",
                0.85,
                "Calls for or wishes for violence against people.",
            )
        )
    enjoyed = _SUFFERING_ENJOYED.search(normalized)
    if (
        not findings
        and enjoyed
        and not denied_before(normalized, enjoyed.start())
        and not negated_before(normalized, enjoyed.start())
        and not _ENJOYERS_SPOKEN_OF.search(normalized)
        and not _FICTION.search(normalized)
        and not _ON_SCREEN.search(normalized)
    ):
        # A protected group's suffering enjoyed is hate, as the hate rule reads it.
        category = "HATE_SPEECH" if lexicon.GROUP_RE.search(enjoyed[0]) else "VIOLENCE"
        findings.append(
            Finding(
                category,
                (category,),
                "HIGH",
                0.85,
                "Celebrates or enjoys the suffering of people or animals.",
            )
        )
    if _BOMB_MAKING.search(normalized) or _FOREIGN_BOMB_MAKING.search(normalized):
        findings.append(
            Finding(
                "VIOLENCE",
                ("WEAPONS_INSTRUCTIONS",),
                "HIGH",
                0.9,
                "Asks for or gives instructions to build explosives or weapons.",
            )
        )
    return findings


# --- Intimidation ----------------------------------------------------------------------------
# A threat need not name an act of violence. It can show what the writer knows of the reader's
# life ("I noticed you park on the third floor"), hold something over them ("I've got your beach
# photos"), or promise to expose them ("I'm dropping your home address on the forum"). Two things
# make such a text a threat: a claim of knowing, holding or watching that concerns the reader
# or their family, and a frame that turns it into pressure: a condition, a promise not to go
# away, a warning. Either alone is ordinary talk ("I have your number, I'll call you later";
# "if you keep posting, I'll mute you").

_PRIVATE = (
    r"(?:address|name|number|phone|school|class|classes|schedule|timetable|routine|workplace|"
    r"work|office|job|employer|boss|house|home|place|flat|apartment|car|location|ip|kids|"
    r"children|daughter|son|wife|husband|parents|family|photos?|pics?|pictures?|nudes|videos?|"
    r"dms|messages|texts|chats|screenshots|linkedin|facebook|instagram|accounts?|profiles?|"
    r"details|info|secrets?|history)"
)
_RELATIVE = (
    r"(?:wife|husband|kids?|children|daughter|son|mum|mom|mother|dad|father|family|girlfriend|"
    r"boyfriend|sister|brother|parents|partner)"
)
# What the writer knows, holds or watches of the reader's life.
_KNOWS = screened(
    r"\bi (?:know|found out|figured out|worked out) (?:where|when|what time|which|how) "
    r"(?:\w+ ){0,2}?(?:you|your)\b|"
    r"\bi know (?:you (?:moved|changed|live|work|park|leave|walk)|your (?:new |real |home )?"
    rf"{_PRIVATE})\b|"
    r"(?:\bi(?:'ve| have)? ?|^|[.!?]\s+)(?:already |just )?(?:got|have|saved|kept|found|"
    r"tracked down|traced|"
    r"dug up|looked up|screenshotted|recorded|copied|downloaded)\s+(?:all )?(?:of )?your "
    rf"(?:[\w']+ ){{0,2}}?{_PRIVATE}\b|"
    r"\bi(?:'ve| have)? ?(?:been )?(?:watching|following|tracking|stalking|parked outside|"
    r"waiting outside|sitting outside) (?:you|your)\b|"
    r"\bi (?:noticed|saw|see|watched|know) (?:that )?you (?:\w+ )?(?:park|leave|walk|go|take|"
    r"get|come|arrive|drop)\b|"
    r"\b(?:we|i)(?:'ve| have)? ?(?:got|have|know) (?:people|guys|friends|someone|eyes) (?:in|near|"
    r"around|at|outside) your\b|"
    # Not letting the reader go: "blocked me again? I made another account".
    r"\b(?:blocked me|block me all you want|(?:made|make|have) (?:another|a new) account|every "
    r"(?:account|number|job|school) you)\b|"
    rf"\byour {_RELATIVE}\s+(?:\w+\s+){{0,2}}?(?:leaves?|walks?|goes|go|gets?|takes?|comes?|"
    r"plays?|waits?)\b[^.!?]{0,40}?\b(?:at \d|every (?:day|morning|night|evening)|alone|by "
    r"(?:herself|himself|themselves)|each day)"
)
# What makes it pressure.
_PRESSURE = screened(
    r"\b(?:if|unless|until) you\b|"
    r"\bor (?:else|i'?m|i(?:'ll| will)?|we|you(?:'ll| will)|the whole|everyone|everybody|your)\b|"
    r"\b(?:one more|next) (?:time|post|word|video|comment|report|message)\b|"
    r"\bkeep (?:posting|reporting|ignoring|talking|blocking|running|hiding|it up)\b|"
    r"\b(?:did|do) you (?:really |honestly |seriously )?think (?:i|we) (?:wouldn'?t|won'?t|"
    r"couldn'?t|can'?t)\b|"
    r"\byou (?:can'?t|cannot|won'?t|will never) (?:hide|escape|run|get rid of|get away|lose|"
    r"block)\b|"
    r"\bno (?:point|use) (?:in )?(?:changing|blocking|hiding|moving|running|deleting)\b|"
    r"\bget used to (?:me|it|this)\b|\bi(?:'ll| will) (?:be (?:waiting|watching)|find (?:you|it|"
    r"them)|call them)\b|\b(?:ignore|block|mute|report|unfollow) me all you want\b|"
    r"\b(?:photoshop(?:ped)?|deepfaked?|morphed)\b|"
    r"\b(?:pay you a visit|coming for you|come out and|think about (?:that|it)|interesting\s*[.!]*"
    r"\s*$|shame if|pity if|would be a shame|delete (?:the|that|your|it)\b)|"
    r"\b(?:everyone|everybody|the whole (?:\w+)|your (?:boss|employer|work|parents|wife|husband|"
    r"family|school|friends|followers))\s+(?:\w+\s+){0,2}?(?:will (?:see|know|love|get|find out)|"
    r"(?:is|are) (?:gonna|going to) (?:see|love|enjoy|find out|know)|gets? (?:it|them|these|to "
    r"see))\b|"
    r"\bso (?:people|everyone|they) can (?:pay|visit|find|see)\b"
)
# A person called a sexual slur, a predator or a criminal, and the word spread: "Jessica is such
# a slut, she's slept with half the team, pass it on", "share this: Tom from accounting is a
# pedophile".
_SMEAR = screened(
    r"\b(?:she|he|[a-z]+(?: (?:from|in|at) (?:the )?\w+)?)(?:'s| is) (?:such |a total |a complete "
    r"|a real |a dirty |an absolute |a fucking )?(?:an? )?(?:\w+ )?(?:slut|whore|skank|slag|"
    r"tramp|hoe|thot|pedo|pedophile|paedophile|rapist|child molester|groomer|nonce)s?\b"
)
# A rumour to be spread: "tomorrow I'm telling everyone at school that she has herpes and sleeps
# around".
_RUMOUR_SPREAD = screened(
    r"\b(?:tell|telling|told|spread(?:ing)? (?:it|the (?:rumou?r|word)) to|post(?:ing)? (?:it )?"
    r"(?:to|for)) (?:everyone|everybody|the whole \w+|all (?:her|his|their) friends|people|her "
    r"(?:boss|parents|husband)|his (?:boss|parents|wife))(?: (?:at|in|on) (?:\w+ )?\w+)? (?:that )?"
    r"(?:she|he|they)(?:'s| is| are| has| have)? (?:\w+ )?(?:herpes|aids|hiv|an std|stds|chlamydia|"
    r"syphilis|gonorrh?o?ea|sleeps around|sleeping around|a slut|a whore|a pedo\w*|a paedo\w*|a "
    r"rapist|a prostitute|an escort)\b"
)
_SPREAD_WORD = screened(
    r"\b(?:pass (?:it|this) (?:on|around)|spread (?:it|this|the word)|tell (?:everyone|everybody|"
    r"all your friends|the whole (?:school|class|team|office))|let (?:everyone|everybody) know|"
    r"(?:everyone|everybody) (?:should|needs to|has to|must) know|share (?:this|it)|repost|"
    r"retweet|make (?:this|it) go viral)\b"
)
# A fake profile or ad made in someone's name: "I made a fake profile of my ex with her number
# so random guys would call her".
_IMPERSONATION = screened(
    r"\b(?:i|we)(?:'ve| have)? (?:made|created|set up|put up|posted|opened|started|am making|'m "
    r"making)\s+(?:a |an |some )?(?:\w+ )?fake (?:\w+ )?(?:profiles?|accounts?|ads?|listings?|"
    r"pages?|posts?)\s+(?:of|as|pretending to be|in the name of|with the (?:name|photos|pictures|"
    r"number) of)\s+(?:(?:my|his|her|their|that|this|the)\s+(?:\w+\s+)?(?:ex|ex-?\w+|boss|"
    r"teacher|coworker|co-worker|colleague|classmate|neighbou?r|sister|brother|mom|mum|dad|wife|"
    r"husband|girlfriend|boyfriend|friend|crush|roommate|landlord|girl|guy|woman|man|kid|student|"
    r"teammate|stepdad|stepmom|cousin|rival|bully|manager|partner)s?|her|him)\b"
)
# A sexual demand with a pet name: "hey sweetheart, smile more for me. and maybe bend over too".
_PET_NAME = screened(
    r"\b(?:sweetheart|sweetie|babe|baby ?girl|honey|darling|sexy|gorgeous|princess|hot stuff|"
    r"beautiful|cutie)\b"
)
_SEXUAL_DEMAND = screened(
    r"\bbend over\b(?=\s+(?:for me|too|while|a little|more|again)\b|\s*[.!?]|\s*$)|"
    r"\bsit on my (?:lap|face)\b|"
    r"\bshow (?:me )?(?:your|some) (?:tits|boobs|ass|body|skin)\b|\bspread (?:your|em|them)\b"
)
# Blaming a person's clothes for what will be done to them: "you dress like that, you're asking
# for it".
_ASKING_FOR_IT = screened(
    r"\b(?:dress(?:ed|es)?|dressing|wear(?:ing)?)\s+(?:like )?(?:that|this|those)\b[^.!?]{0,40}?"
    r"\b(?:you(?:'re| are)|she(?:'s| is| was)|they(?:'re| are| were)|are|is|was|were) "
    r"(?:just |really |basically )?asking for it\b|"
    # Victims of rape or abuse blamed: "rape victims who dress like that deserve what they get".
    r"\b(?:rape|assault|abuse|domestic violence) (?:victims?|survivors?)\b[^.!?]{0,50}?"
    r"\b(?:(?:are|is|was|were) (?:just |really |basically )?asking for it|deserved? (?:it\b(?! to)|"
    r"what (?:they|she|he) g[eo]t|to be (?:raped|hurt|beaten))|had it coming)\b"
)
# Promising to publish someone's identity or whereabouts, or to pass on their intimate images.
_WILL_EXPOSE = (
    r"\b(?:i(?:'ll| will|'m| am)|we(?:'ll| will|'re| are)|gonna|going to)\s+(?:\w+\s+){0,2}?"
)
_EXPOSE = screened(
    r"\bdoxx?(?:ing)? (?:drop|dump)\b|"
    r"\b(?:i|we)(?:'ll| will|'m going to|'m gonna| am going to|'re going to|'re gonna| are "
    r"going to) doxx?\b|"
    rf"{_WILL_EXPOSE}(?:post|leak|drop|publish|release|spread|expose)\w*\s+(?:all\s+)?(?:your|her|"
    r"his)\s+(?:\w+\s+)?(?:home address|address|real name|full name|phone number|number|"
    r"workplace|location|details|info)\b|"
    rf"{_WILL_EXPOSE}(?:post|share|leak|drop|publish|release|spread|expose|send|forward|show)\w*\s+"
    r"(?:all\s+)?(?:your|her|his)\s+(?:\w+\s+)?(?:nudes|nude (?:pics|photos|videos)|naked "
    r"(?:pics|photos|videos)|sex tape)\b"
)
# Threats put as hints: "it would be a shame if something happened to them".
_VEILED_THREAT = screened(
    # "She'll find out what happens when you leave me."
    r"\b(?:find out|learn|see|know|show (?:you|her|him|them)) what happens (?:to (?:people|girls|"
    r"women|men|those) )?(?:when|if|who) (?:(?:you|she|he|they|people|anyone) )?(?:leave|leaves|"
    r"cross|crosses|betray|betrays|dump|dumps|cheat on|cheats on|ignore|ignores|mess with|"
    r"messes with|disrespect|disrespects|lie to|lies to|reject|rejects|say no to|says no to|"
    r"block|blocks) me\b|"
    r"\b(?:(?:it )?(?:would|'d) be a (?:shame|pity)|shame|pity) if (?:something|anything) "
    r"(?:bad )?(?:were to |was to )?happen(?:ed|s)? to (?:you|your|him|her|them|those|that \w+ "
    r"(?:\w+ )?of (?:yours|his|hers|theirs))\b|"
    r"\baccidents (?:can )?happen\b[^.!?]{0,30}?\bto (?:people|those|anyone|someone) who "
    r"(?:talk|talks|speak|ask|snitch|snitches|squeal|open their mouths?|run their mouths?|cross|"
    r"mess with|don'?t (?:mind|keep)|can'?t keep|get in (?:my|our) way)\b|"
    r"\byou won'?t (?:get|have|see) many more(?: of (?:them|those|these))?\s*(?:[.!?,]|$)|"
    r"\byour days are numbered\b|"
    r"\bwe(?:'ll| will) see how (?:brave|tough|big|hard|funny|smart|confident|loud) you are "
    r"(?:when (?:there'?s no|we meet|i see you|i find you|you'?re alone|it'?s just)|in person|"
    r"face to face|offline|irl)|"
    r"\bno screen between us\b|"
    # "That bitch better watch her back", "you're a dead man", "he's a dead man walking, tell
    # him I said that".
    r"\b(?:better|had better|'d better) watch (?:your|his|her|their) backs?\b|"
    r"\b(?:you'?re|you are|ur|he'?s|he is|she'?s|she is|they'?re|they are) (?:a )?dead (?:man|"
    r"woman|men|meat)\b(?! walking\b)|"
    r"\b(?:you'?re|you are|he'?s|he is|she'?s|she is) a dead (?:man|woman) walking\b[^.!?]{0,20}?"
    r"\btell (?:him|her|them)\b|"
    # An "accident" foretold for someone's family: "your kids are going to have an accident".
    r"\byour (?:kids?|children|son|daughter|wife|husband|family|mum|mom|dad|parents|sister|"
    r"brother) (?:is|are|might|may|could) (?:going to |gonna )?(?:have|get into|be in|meet "
    r"with) (?:an? )?(?:(?:nasty|terrible|little|unfortunate|bad|tragic) )?accident\b|"
    r"\b(?:bat|knife|blade|crowbar|hammer|machete|pipe|brick|tire iron|brass knuckles)\b"
    r"[^.!?]{0,60}?\b(?:for|on|into|across) (?:your|his|her) (?:knees?|kneecaps?|legs?|face|"
    r"head|skull|teeth|ribs)\b|"
    # Harm to what someone owns, hinted: "nice car, would be a pity if it caught fire".
    r"\b(?:shame|pity) if (?:your|it|that|this|the|they|he|she) (?:\w+ ){0,2}?(?:caught fire|"
    r"burn(?:ed|t) down|went up in flames|got (?:hurt|smashed|torched|burned|burnt)|had an "
    r"accident|were to burn)\b|"
    # "I've got a bullet with your name on it", "a grave with your name on it".
    r"\b(?:got|have|there'?s|saved|saving|keeping|reserved|dug)\s+(?:a |an |one |the )?(?:\w+ )?"
    r"(?:bullet|round|grave|coffin|body bag|shell|knife|blade) (?:with|that has) your name on "
    r"it\b|"
    # Injuries foretold: "you'll be eating through a straw", "picking up your teeth".
    r"\byou(?:'ll| will| are going to| are gonna|'re going to|'re gonna) be (?:eating through a "
    r"straw|drinking (?:your meals )?through a straw|picking (?:up )?your teeth|spitting (?:out )?"
    r"(?:your )?teeth|needing (?:an ambulance|a new face|a dentist))\b|"
    # An "accident" foretold for someone the writer holds a grudge against: "the kid who bullied
    # my son is going to have a very bad accident on his way home" (not a warning: "if he keeps
    # driving like that").
    r"\b(?:he|she|they|(?:that|this|the) (?:\w+ )?\w+(?: who \w+ [^.!?]{0,30}?)?)(?:'s| is| are|"
    r"'re)? (?:going to|gonna|about to|bound to) (?:have|meet with|suffer) an? (?:very |really )?"
    r"(?:nasty|terrible|unfortunate|bad|tragic|little|horrible|serious|fatal) accident\b"
    r"(?![^.!?]*\b(?:if|unless|the way|with how|at this rate|driving|drives|drunk)\b)|"
    # Lying in wait the next time someone does it: "next time that ref makes a bad call I'm
    # waiting for him in the parking lot".
    r"\bnext time (?:he|she|they|you|(?:that|this|the) (?:\w+ )?\w+)\b[^.!?]{0,50}?\b(?:i'?m|i am|"
    r"i'?ll be|i will be|we'?re|we'?ll be) (?:gonna be |going to be )?waiting for (?:him|her|them|"
    r"you)\b|"
    # Lying in wait with a weapon: "one of these days I'm going to wait for him in the car park
    # with a bat".
    r"\b(?:wait|waiting|lie in wait|lying in wait) for (?:him|her|them|you|that \w+)\b[^.!?]{0,40}?"
    r"\bwith (?:a |my |the )?(?:baseball )?(?:bat|knife|crowbar|gun|hammer|machete|pipe|brick|tire "
    r"iron|axe|shotgun|rifle|pistol)\b|"
    # "I'm coming for your kneecaps."
    r"\b(?:coming|come|going) for (?:your|his|her|their) (?:kneecaps|knees|legs|teeth|throat|skull|"
    r"neck)\b|"
    # Harm wished done, after the fact: "someone should have pushed him off the boat".
    r"\b(?:someone|somebody|they|we|you) (?:should|ought to) have (?:just )?(?:pushed|thrown|shot|"
    r"stabbed|drowned|killed|run over|punched|beaten|strangled) (?:him|her|them|(?:that|the) "
    r"(?:\w+ )?(?:guy|kid|man|woman|girl|boy|bitch|bastard|driver|ref|referee))\b(?! (?:to|into|"
    r"towards?|a|an|the)\b)"
)
# A grudge, where the person can be found, and a weapon to hand, over a sentence or two: "he's
# going to regret this. I know where he parks and I've got a crowbar".
_GRUDGE_ARMED = screened(
    r"\b(?:going to|gonna|will|'ll) (?:regret|pay for) (?:this|that|it|what (?:he|she|they) did)\b"
    r"[^!?]{0,80}?\bi know where (?:he|she|they|you) (?:lives?|parks?|works?|sleeps?|drinks?)\b"
    r"[^!?]{0,60}?\b(?:crowbar|bat|knife|gun|hammer|machete|pipe|brick|tire iron|axe|rifle|"
    r"pistol|shotgun)\b"
)


# A dare with the harm unsaid: "keep talking and see what happens", "you'd better hope we never
# meet in person".
_DARE = screened(
    r"\b(?:keep (?:talking|it up|pushing|running your mouth)|say (?:that|it) again|one more word|"
    r"do (?:that|it) again|try me) and (?:you'?ll |just )?(?:see|find out) what happens(?: to "
    r"you| next)?\s*(?:[.!?]|$)|"
    r"\byou(?:'d| had) better (?:hope|pray) (?:we|i) never (?:meet|see you|run into you|find you|"
    r"cross paths)\b"
)


# Following or watching someone, said to them: "I've been following you home every day".
_STALKING = screened(
    r"\bi(?:'ve| have)? (?:been |keep |am |'m )?(?:following|tracking|stalking) you\b(?! (?:on|at) "
    r"(?:twitter|instagram|tiktok|youtube|x|twitch|the stream|social|linkedin|facebook|reddit|"
    r"here)\b)(?! for (?:years|ages|a while|a long time))|"
    r"\bi(?:'ve| have)? (?:been |keep |am |'m )?(?:watching|photographing|filming) you (?:\w+ )?"
    r"(?:sleep|through|from (?:my|the|across)|every (?:day|night|morning)|when you(?:'re| are) "
    r"alone|without you knowing|undress|shower|at night|in your (?:room|house|bedroom))|"
    r"\bi (?:follow|followed) you (?:home|to (?:work|school|your (?:house|car|flat)))\b|"
    # Contact promised without end, to wear the reader down: "every day I'm going to message
    # you until you break", "I'll keep calling until you answer, you can't block me forever".
    r"\b(?:i(?:'m| am) (?:going to|gonna)|i(?:'ll| will)) (?:keep )?(?:messag|text|call|email|"
    r"dm|spam|ping|tag|contact|post about|show up at)\w*\s+(?:you|your \w+)\b[^.!?]{0,40}?"
    r"\buntil you (?:break|crack|snap|give in|give up|cry|quit|leave|lose it|go (?:crazy|insane)|"
    r"kill yourself|delete|unblock)\b|"
    r"\byou can'?t block me forever\b|"
    # Urged on others: "keep sending him messages from new accounts every hour until he breaks".
    r"\b(?:keep |start |let'?s (?:all )?(?:keep )?|we should (?:all )?(?:keep )?)(?:messag|text|"
    r"call|email|dm|spam|ping|tag|send)\w*\s+(?:him|her|them|that \w+|this \w+|"
    r"my ex)\b[^.!?]{0,50}?\buntil (?:he|she|they) (?:breaks?|cracks?|snaps?|gives? in|gives? up|"
    r"cr(?:y|ies)|quits?|leaves?|loses? it|goes? (?:crazy|insane)|kills? (?:himself|herself|"
    r"themselves)|unblocks?)\b|"
    # "Keep showing up at her house until she talks to you."
    r"\b(?:keep |start |let'?s (?:all )?(?:keep )?|we should (?:all )?(?:keep )?|i(?:'ll|"
    r" will) keep )(?:showing up|turning up|waiting|hanging around|parking|calling) (?:at|outside|"
    r"near|by) (?:her|his|their|my ex'?s) (?:house|place|home|work|job|door|school|flat|apartment|"
    r"office)\b[^.!?]{0,50}?\buntil (?:he|she|they)\b|"
    # Asked for: "help me write messages to send my ex every hour until she answers".
    r"\b(?:messag|text|dm|contact|call|email|send|ping)\w*\s+(?:to\s+)?(?:my ex|my ex-?\w+|my "
    r"crush|that (?:girl|guy)|this (?:girl|guy)|(?:him|her|them)(?=[^.!?]{0,60}\buntil (?:he|she|"
    r"they) (?:gives? in|takes? me back|unblocks? me|forgives? me|agrees?|breaks?)))\b"
    r"[^.!?]{0,40}?\b(?:every (?:hour|minute|few minutes|day|night|morning)|nonstop|non-stop|"
    r"constantly|over and over|all day|all night|(?:hundreds|dozens) of times)\b[^.!?]{0,30}?"
    r"\buntil (?:he|she|they) (?:answers?|repl(?:y|ies)|responds?|picks? up|gives? in|talks? to "
    r"me|takes? me back|unblocks? me|forgives? me|agrees?|breaks?)\b|"
    r"\b(?:messag|text|dm|contact|call|email|harass|send)\w*\s+(?:him|her|them|my ex|that \w+)\s+"
    r"(?:\w+\s+){0,2}?from (?:new|fake|different|burner|alt|multiple) (?:accounts|profiles)\b|"
    # Told of someone else: "I've been following her home from the bus stop every night, she
    # has no idea".
    r"\bi(?:'ve| have)? (?:been |keep |am |'m )?(?:following|tracking|stalking|watching|"
    r"photographing|filming) (?:her|him|them|my ex|this \w+|that \w+) (?:home|to (?:work|school|"
    r"her \w+|his \w+|their \w+))\b[^.!?]{0,50}?(?:every (?:day|night|morning|evening)|without "
    r"(?:her|him|them) knowing|(?:she|he|they) (?:has|have) no (?:idea|clue)|(?:she|he|they) "
    r"(?:doesn'?t|don'?t) (?:know|notice))"
)
# Violence wished on someone: "that teacher deserves to be raped", "he should be beaten".
_WISHED_HARM = screened(
    r"(?<!')\b(?:he|she|they|you|(?:that|this|the|my|your|his|her|our) (?P<noun>[a-z]+)|"
    r"(?P<name>[a-z]+))\s+(?:deserves?|"
    r"deserved|should|needs? to|ought to)\s+(?:to\s+)?(?:be|get)\s+(?:\w+\s+)?(?:raped|gang ?raped|"
    r"tortured|beaten(?: up)?|lynched|burned alive|set on fire|strangled|stabbed|killed|murdered|"
    r"shot|curb ?stomped|mutilated|beheaded)\b"
)


def _wished_on_someone(match: re.Match[str]) -> bool:
    """The one violence is wished on is a person: "that teacher", not "the steak"."""
    noun = match.group("noun") or match.group("name")
    if noun is None:
        return True  # a pronoun
    if noun in _NOT_A_NAME:
        return False
    return not is_a_thing(noun)


_NOT_A_NAME = frozenset(
    (
        "it", "this", "that", "which", "what", "these", "those", "there",
        # Things shot, killed or beaten that the encoder places no nearer things than people.
        "penalty", "ball", "puck", "kick", "photo", "picture", "scene", "film", "video", "movie",
        "footage", "episode", "ad", "commercial", "bill", "project", "idea", "process", "app",
        "feature", "show", "deal", "proposal", "plan", "record", "time", "mixture", "batter",
    )
)  # fmt: skip


# A crowd set on one person's account: "let's all report her account until it gets banned".
_BRIGADING = screened(
    r"\b(?:let'?s|we should|we need to|everyone|everybody|guys,?|y'?all) (?:all |go |just )?"
    r"(?:mass[- ]?)?(?:report|flag|spam|dislike|downvote|brigade|flood)\w* (?:her|his|their|"
    r"\w+'s) (?:\w+ )?(?:account|channel|page|profile|videos?|posts?|stream|comments|"
    r"inbox|mentions|reviews?)\b[^.!?]{0,40}?\buntil (?:it|she|he|they|the \w+)(?:'s|'re)? "
    r"(?:gets? |is |are )?(?:banned|deleted|removed|taken down|suspended|quits?|leaves?|"
    r"gives? up|cries|gone|down)\b|"
    # Someone's words passed round to be mocked, or a chat made to leave them out: "screenshot her
    # messages to laugh at them", "start a group chat without Emma and make fun of her".
    r"\b(?:screenshot|share|forward|post|leak|send round)\w*\s+(?:all\s+)?(?:her|his|their|"
    r"\w+'s)\s+(?:\w+\s+)?(?:messages|texts|dms|chats|posts|photos|pictures|selfies|diary|emails)\b"
    r"[^.!?]{0,30}?\b(?:to|and|so (?:we|everyone|everybody) can) (?:all )?(?:laugh at|mock|make "
    r"fun of|humiliate|roast|shame)\b|"
    r"\b(?:start|make|create|set up)\s+(?:a|another|a new|a secret)\s+group(?: chat)? without\s+"
    r"\w+\b[^.!?]{0,50}?\b(?:laugh at|mock|make fun of|trash|roast|talk shit about)\b"
)


# A promise to make someone's life a misery: "we're going to make your life a living hell",
# "on va créer un groupe pour te pourrir la vie", "wir machen dir das Leben zur Hölle",
# "vamos a hacerte la vida imposible" (the speaker's own doing; not "this job is making my
# life hell", nor "ne laisse personne te pourrir la vie").
_TORMENT = screened(
    r"\b(?:i|we)\s*(?:'ll|will|'m going to|'re going to|am going to|are going to|are gonna|"
    r"'re gonna|'m gonna|am gonna)\s+(?:\w+\s+){0,2}?make\s+(?:your|ur)\s+(?:\w+\s+)?life\s+"
    r"(?:a\s+)?(?:living hell|hell|misery|miserable|nightmare|unbearable)\b|"
    r"\b(?:je|j'|on|nous)\b[^.!?]{0,50}\b(?:te|vous) (?:pourrir|gacher|empoisonner) la vie\b|"
    r"\b(?:je|on|nous) (?:vais|va|allons) faire de (?:ta|votre) vie un (?:enfer|cauchemar)\b|"
    r"\b(?:ich|wir)\b[^.!?]{0,50}\b(?:dir|euch) das leben (?:zur (?:holle|qual)|schwer)\b|"
    r"\b(?:voy|vamos|van) a (?:\w+ )?(?:hacerte|haceros|amargarte) la vida\b|"
    r"\bte (?:voy|vamos) a (?:hacer|amargar) la vida\b"
)


# A group set on one person until they break: "we're all going to ignore her in meetings until
# she cries and quits", "let's mock him until he leaves" (not "ignore him until he calms down").
_GANG_UP = screened(
    r"\b(?:we(?:'re| are)? (?:all )?(?:going to|gonna|will)|we'?ll (?:all )?|let'?s (?:all )?|"
    r"everyone (?:should|is going to|will))\s+(?:\w+\s+){0,2}?(?:ignore|exclude|freeze out|mock|"
    r"laugh at|humiliate|bully|shun|gang up on)\s+(?:her|him|them)\b[^.!?]{0,60}?\buntil (?:she|he|"
    r"they) (?:cries|cry|quits?|leaves?|breaks?|gives? up|resigns?|kills? (?:her|him|them)sel\w+)\b"
)


# Where someone's children or family are, said to them: "I know where your kids go to school"
# is a threat without another word (not beside a reason to know: "I pick mine up there too").
_KNOWS_FAMILY = screened(
    r"\bi (?:know|found out|figured out|worked out) (?:exactly )?(?:where|which school|what "
    r"school|when|what time|which bus)\s+(?:your|her|his|their)\s+(?:kids?|children|son|sons|"
    r"daughters?|wife|husband|family|little ones?|bab(?:y|ies)|girls?|boys?)\b"
)
_REASON_TO_KNOW = screened(
    r"\b(?:mine|my (?:kids?|son|daughter|children|girls?|boys?)|too|also|same|carpool|"
    r"neighbou?rs?|we both|see you|pick(?:ing)? (?:them|mine|her|him) up|teacher|coach|"
    r"babysit\w*|invit\w*|birthday|party|playdate|lost|found (?:your|her|his))\b"
)


# Where someone lives found, and a crowd sent there: "I found out where that streamer lives,
# let's all show up at her door".
_CROWD_AT_DOOR = screened(
    r"\b(?:i|we) (?:found out|know|figured out|tracked down|worked out) (?:exactly )?where "
    r"(?:she|he|they|(?:that|this|the) (?:\w+ )?\w+|my ex) (?:lives?|works?|sleeps)\b[^.!?]{0,80}?"
    r"\b(?:let'?s|we should|everyone|everybody|y'?all|guys|you all)\b[^.!?]{0,40}?\b(?:show up|"
    r"turn up|pay (?:her|him|them) a (?:little )?visit|knock on (?:her|his|their) door|go (?:round "
    r"|over )?to (?:her|his|their) (?:house|place|door|home|flat|apartment))\b"
)


# Where a person lives or works, or how to reach them, handed to readers...
_DETAILS_GIVEN = screened(
    r"\b(?:her|his|their) (?:home |work |phone |cell |mobile )?(?:address|number|phone number) "
    r"is\b|\b(?:she|he|they) (?:works?|lives?) (?:at|on|in)\b|\b\d{1,5} (?:[a-z]+ ){1,2}(?:street|"
    r"st|road|rd|avenue|ave|drive|dr|lane|ln|boulevard|blvd|close|court|ct|crescent|place|way)\b"
)
# ... and told to torment them: "make her life hell until she withdraws the complaint", "show
# up at her work", "call her until she quits" (an order, not "the new boss made her life hell").
_SET_ON = screened(
    r"(?:^|[,.;:!?]\s*|\b(?:and|let'?s|go|everyone|everybody|y'?all|guys|please)\s+)make (?:her|"
    r"his|their) (?:\w+ )?life (?:a )?(?:living hell|hell|misery|miserable|a nightmare|"
    r"unbearable)\b|(?:^|[,.;:!?]\s*|\b(?:and|let'?s|go|everyone|everybody|y'?all)\s+)(?:call|"
    r"text|message|email|show up at|turn up at|go to|visit|flood|spam|ring)\s+(?:her|him|them)\b"
    r"[^.!?]{0,60}?\buntil (?:she|he|they) (?:withdraws?|drops?|takes? (?:(?:it|(?:the|that|his|"
    r"her|their) \w+) )?down|deletes?|apologi[sz]es?|quits?|leaves?|moves?|gives? up|resigns?|"
    r"breaks?)\b"
)

# Someone's property to be wrecked: "I'm going to slash their tyres and put a brick through
# their window", "I'll key his car".
_PROPERTY_THREAT = screened(
    rf"{_I_WILL}(?:slash|puncture|let down|key|smash|put a brick through|throw a brick through|"
    r"egg|torch|spray ?paint)\w*\s+(?:all\s+)?(?:their|his|her|your|the neighbou?rs'?|my "
    r"(?:ex|neighbou?r|boss|landlord)'?s?)\s+(?:\w+\s+)?(?:tyres|tires|car|windows?|windscreen|"
    r"windshield|front door|mailbox|letterbox)\b(?![^.!?]*\b(?:by accident|accidentally)\b)"
)


def detect_intimidation(normalized: str) -> list[Finding]:
    """Threats made by what the writer knows, holds or will expose, threats put as hints, and
    violence wished on someone."""
    # A denial governs its own sentence: "I would never post your address" is no threat.
    said = [s for s in sentences(normalized) if not _NEGATED.search(s)]
    if any(_PROPERTY_THREAT.search(s) for s in said):
        return [
            Finding("VIOLENCE", ("THREAT",), "HIGH", 0.85, "Threatens to wreck someone's property.")
        ]
    if any(_VEILED_THREAT.search(s) for s in said) or (
        _GRUDGE_ARMED.search(normalized) and not _NEGATED.search(normalized)
    ):
        return [Finding("VIOLENCE", ("THREAT",), "HIGH", 0.9, "Threatens someone by a hint.")]
    if any(
        _STALKING.search(s) or _BRIGADING.search(s) or _TORMENT.search(s) or _GANG_UP.search(s)
        for s in said
    ):
        return [
            Finding(
                "HARASSMENT",
                ("HARASSMENT", "INTIMIDATION"),
                "HIGH",
                0.85,
                "Tells someone they are being followed, watched or will be tormented.",
            )
        ]
    if any(
        not negated_before(s, m.end(), 60) and _wished_on_someone(m)
        for s in said
        for m in _WISHED_HARM.finditer(s)
    ):
        return [Finding("VIOLENCE", ("VIOLENCE",), "HIGH", 0.85, "Wishes violence on someone.")]
    if any(_ASKING_FOR_IT.search(s) for s in said) or (
        _PET_NAME.search(normalized) and any(_SEXUAL_DEMAND.search(s) for s in said)
    ):
        return [
            Finding(
                "HARASSMENT",
                ("HARASSMENT", "SEXUAL_HARASSMENT"),
                "HIGH",
                0.9,
                "Sexually harasses a person, or blames their clothes for it.",
            )
        ]
    if any(_IMPERSONATION.search(s) or _RUMOUR_SPREAD.search(s) for s in said) or (
        any(_SPREAD_WORD.search(s) and not s.rstrip().endswith("?") for s in said)
        and any(_SMEAR.search(s) for s in said)
    ):
        return [
            Finding(
                "HARASSMENT",
                ("HARASSMENT",),
                "HIGH",
                0.85,
                "Smears a person by name or impersonates them to have others torment them.",
            )
        ]
    exposes = any(_EXPOSE.search(s) or _CROWD_AT_DOOR.search(s) for s in said) or bool(
        _DETAILS_GIVEN.search(normalized) and any(_SET_ON.search(s) for s in said)
    )
    dared = any(_DARE.search(s) for s in said) or (
        any(_KNOWS_FAMILY.search(s) for s in said) and not _REASON_TO_KNOW.search(normalized)
    )
    if exposes or dared or (any(_KNOWS.search(s) for s in said) and _PRESSURE.search(normalized)):
        return [
            Finding(
                "HARASSMENT",
                ("HARASSMENT", "INTIMIDATION") + (("DOXXING",) if exposes else ()),
                "HIGH",
                0.9,
                "Intimidates someone with what the writer knows, holds or will expose of them.",
            )
        ]
    return []


# --- Extremism -------------------------------------------------------------------------------

_EXTREMIST_ENTITY = (
    r"(?:isis|isil|daesh|islamic state|the caliphate|al[- ]?qa[ei]da|al[- ]?shabaab|boko haram|"
    r"hezbollah|hamas|the taliban|atomwaffen|the base|national socialis[mt]s?|the nazis|nazis|"
    r"nazi party|the third reich|third reich|hitler|adolf hitler|the fuhrer|the ss|waffen ss|"
    r"kkk|ku klux klan|the klan|aryan brotherhood|aryan nations|bin laden|osama|al[- ]?baghdadi|"
    r"al[- ]?zarqawi|breivik|brenton tarrant|tarrant|dylann roof|mcveigh|the mujahideen|"
    r"mujahideen|the jihad|jihadis?|the shooter|the bomber|the unabomber|patriot front|"
    r"the order|combat 18|blood and honou?r|golden dawn|the brotherhood|pkk|farc|eta|ira|"
    r"lashkar[- ]e[- ]taiba|jaish|hamas fighters|the martyrs|our martyrs|the resistance|"
    r"the (?:\w+ )?(?:shooter|bomber|attacker|gunman)|national socialism)"
)
_PRAISE = screened(
    rf"\b{_EXTREMIST_ENTITY}(?:\s+(?:fighters|soldiers|members|brothers|men|movement))?\s+"
    rf"(?:was|were|is|are|did)\s+(?:\w+\s+){{0,2}}?(?:right|heroes|a hero|the only answer|"
    rf"the answer|"
    rf"the solution|the future|"
    rf"heroic|legends?|saints?|glorious|based|nothing wrong|the best|brave|true believers|"
    rf"an inspiration|inspiring|admirable|justified|a great man|great men|freedom fighters|"
    rf"a genius|my hero|correct|the only true (?:muslims|believers|patriots|christians|"
    rf"europeans|americans|men))\b|"
    rf"\b(?:hail|heil|glory to|long live|praise be to|god bless|salute|honou?r|support|"
    rf"i support|we support|stand with|i stand with|love|admire|celebrate|thank god for|"
    rf"allah bless|may allah (?:accept|reward|bless))\s+(?:the\s+)?{_EXTREMIST_ENTITY}\b|"
    rf"\b(?:sieg heil|heil hitler|1488|14 88|14/88|white power|white pride world ?wide|"
    rf"rahowa|hitler did nothing wrong|heil|gas the \w+|"
    rf"the holocaust (?:never happened|is a (?:lie|"
    rf"hoax|myth))|holohoax|day of the rope)\b|"
    rf"\b{_EXTREMIST_ENTITY}\s+(?:will|shall)\s+rise again\b|"
    # More of them wished for: "we need more men like Breivik".
    rf"\b(?:we|the world|this country|america|europe) (?:need|needs) (?:more|another|a few more)\s+"
    rf"(?:men|people|guys|heroes|patriots|young men|boys|shooters|attackers|fighters|soldiers)?"
    rf"\s*(?:like\s+)?{_EXTREMIST_ENTITY}\b|"
    rf"\b(?:he|they|the attackers?|the shooters?|the bombers?|the brothers)\s+(?:is|are|was|were)"
    rf"\s+(?:a |true |real )?(?:heroe?s?|martyrs?|saints?|legends?)\b"
)
# The words of praise that need an attacker or an attack named beside them: "the Christchurch
# shooter should do it again", not "that party was amazing, let's do it again".
_PRAISE_OF_NAMED = screened(
    r"\b(?:do it again|finish(?:ed)? the job|follow(?:ed)? (?:his|their|\w+'s) (?:example|lead)|"
    r"deserves? a statue|"
    r"higher score|beat (?:his|their) (?:score|record)|subscribe to pewdiepie|"
    # Toasts and titles: "every year on the anniversary of the Utøya massacre I raise a glass",
    # "flawless execution", "saint of the century: the guy who drove the truck into the crowd".
    r"raise (?:a|my|our) glass|(?:a )?toast to|cheers to|flawless execution|perfectly executed|"
    r"saint of the (?:century|decade|year)|(?:what an?|absolute|an absolute) (?:legend|hero|king)"
    r")\b"
)
# Those the toast is for: "I raise a glass to the victims of the Utøya massacre".
_MOURNED = screened(
    r"\b(?:victims?|survivors?|in memory|memorial|mourn\w*|remember(?:ing)? the|first "
    r"responders|firefighters|rescuers|condolences|rest in peace|rip|heroes who|police who)\b"
)
# Mass attacks and their perpetrators praised: "Columbine was iconic, those two were legends",
# "the shooter did more for his country than any politician".
_ATTACK = (
    r"(?:columbine|christchurch|utoya|9/11|nine eleven|the oklahoma city bombing|sandy hook|"
    r"parkland|the charleston (?:church )?shooting|el paso|the buffalo (?:shooting|massacre)|"
    r"manchester arena|bataclan|the nice (?:truck )?attack|the las vegas shooting|"
    r"the pulse (?:nightclub )?shooting|virginia tech|uvalde|the pittsburgh synagogue shooting|"
    r"the holocaust|the rwandan genocide|srebrenica|the oslo bombing|"
    r"the (?:\w+ )?(?:massacre|school shooting|mass shooting|bombing|terror attack|genocide|"
    r"pogrom))"
)
_PERPETRATORS = (
    r"(?:those two|the (?:\w+ )?(?:shooters?|bombers?|killers?|gunm[ae]n|attackers?|"
    r"terrorists?|hijackers?)|(?:school|mass) (?:shooters|murderers|bombers)|"
    r"(?:(?:guy|man|woman|kid|dude|person|one|lad|bloke) who|whoever) (?:drove|shot|"
    r"bombed|stabbed|killed|gunned|mowed|blew up|attacked|massacred|murdered|burned|burnt|"
    r"torched)\b(?:\s+\w+){0,5}?"
    r"\s+(?:crowds?|people|mosques?|churche?s?|synagogues?|schools?|kids|children|worshippers|"
    r"concerts?|festivals?|markets?|malls?|clubs?|students|shoppers|pedestrians|civilians|"
    r"famil(?:y|ies)|babies|refugees|migrants))"
)
_ATTACK_PRAISE = screened(
    rf"\b{_ATTACK}(?: attack| shooting| bombing| massacre)?\s+(?:was|is|were)\s+"
    rf"(?:\w+\s+){{0,2}}?(?:beautiful|a masterpiece|flawless|iconic|legendary|satisfying|"
    rf"glorious|based|epic|hilarious|perfect|amazing|awesome|well deserved|deserved|justified|"
    rf"a good thing|necessary|the best thing)\b"
    rf"|\b{_PERPETRATORS}\s+(?:were|was|are|is)\s+(?:\w+\s+){{0,2}}?(?:legends?|heroe?s?|"
    rf"icons?|iconic|saints?|based|kings?|chads?|geniuses|patriots?|martyrs?|brave|"
    rf"(?:the only (?:ones|people) )(?:\w+ )?(?:brave|with the (?:guts|balls)))\b"
    rf"|\b{_PERPETRATORS}\s+did more for (?:his|their|our|the) (?:country|people|race|nation)\b"
    rf"|\b(?:celebrate|raise a glass to|cheer for|love watching|replay)\s+(?:the\s+)?"
    rf"(?:anniversary of\s+)?{_ATTACK}"
    rf"|\b{_ATTACK}[^.!?]{{0,40}}\b(?:had it coming|deserved it|got what they deserved)\b"
)


_RECRUIT = screened(
    # Asking how to recruit or radicalise people into an armed group: "what's the best way to
    # recruit teenagers into our militia online".
    rf"\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:recruit|"
    r"radicali[sz]e|draw|lure|bring)\s+(?:\w+\s+){0,3}?(?:into|to join)\s+(?:our|my|the|a)\s+"
    r"(?:\w+\s+)?(?:militia|cell|jihad|brotherhood|armed group|paramilitary|death squad|"
    r"race war|terror group|terrorist group|caliphate)\b|"
    rf"\b(?:join|joining|enlist|sign up (?:for|with)|pledge (?:allegiance|bay'?ah) to|"
    rf"become (?:a )?(?:soldier|fighter|member) (?:of|for|in)|fight for|fight with|"
    rf"recruiting for|recruit for|volunteer for|donate to|send money to|fund)\s+(?:the\s+)?"
    rf"(?:\w+\s+)?{_EXTREMIST_ENTITY}|"
    r"\b(?:make hijrah|travel to the (?:caliphate|land of jihad)|brothers,? (?:rise|join|come)|"
    r"take up arms|answer the call (?:of|to) jihad|become a (?:martyr|mujahid|shaheed)|"
    r"the race war is coming|join the (?:race war|fight for the white race|movement|struggle)|"
    r"(?:start|begin|ignite|trigger|wage|fight) (?:a|the) race war|"
    r"arm yourselves\b(?! with (?:knowledge|facts|information|patience|the truth|a good)\b)|"
    r"join us,? (?:my )?(?:brothers|sisters|brothers and sisters)\b(?![^.!?]{0,40}\b(?:picket|"
    r"strike|union|protest|march|rally|prayer|church|mosque|choir|dinner|party))|"
    r"(?:the caliphate|the cause|the jihad|the ummah|the mujahideen|our brothers) "
    r"needs? (?:you|fighters|soldiers|brothers|men|martyrs)|"
    r"white brothers|defend the white race|rise up,? white|secure the existence of our people|"
    r"we are recruiting|we need (?:more )?(?:brothers|soldiers|fighters)(?! like (?:my|his|her|"
    r"our|your|the) \w+| (?:in|for|to join) (?:the |our )?(?:army|military|navy|air force|marines|"
    r"police|national guard))|contact us (?:to|and) "
    r"join|sign up for the cause|wage jihad|holy war against)\b"
)
_VIOLENT_EXTREMIST = screened(
    r"\b(?:kill|behead|slaughter|exterminate|death to)\s+(?:all\s+)?(?:the\s+)?(?:infidels|"
    r"kuffar|apostates|crusaders|zionists|race traitors)\b|"
    # An extremist creed owned, and force promised for it: "I'm a proud white nationalist, and
    # we will take our country back by any means necessary".
    r"\b(?:i'?m|i am|we'?re|we are|as) (?:a |an )?(?:proud |true |loyal )?(?:white nationalists?|"
    r"white supremacists?|national socialists?|neo-?nazis?|nazis?|jihadists?|mujahid(?:een)?|"
    r"eco-?fascists?|accelerationists?)\b[^.!?]{0,80}?\b(?:by any means necessary|race war|"
    r"take (?:our|the|this) (?:country|nation|land|streets) back by force|(?:blood|bullets) "
    r"(?:will|must) (?:flow|fly)|with (?:guns|bullets|blood|violence))\b"
)


# Speech about the praise rather than the praise: "people who call the shooter a hero".
_CALLING_IT = screened(
    r"\b(?:people|those|anyone|whoever|men|guys) (?:who|that) (?:call|calls|think|say|said|"
    r"celebrate|praise)\b|\b(?:calling|to call) (?:him|them|it|the \w+) (?:a |an )?\w+"
)


# Praise of what an extremist named in the text did: "the Unabomber's manifesto was right, his
# methods were justified"; "may Allah reward them" after naming them.
_DEEDS_PRAISED = screened(
    r"\b(?:his|her|their) (?:methods|actions|attacks?|violence|killings?|bombings?|deeds|war) "
    r"(?:was|were|is|are) (?:\w+ )?(?:justified|right|necessary|heroic|admirable|glorious)\b|"
    r"\bmay (?:allah|god) (?:reward|accept|bless) (?:them|him|their \w+|his \w+)\b|"
    r"\b(?:manifesto|ideology|message|cause) (?:was|is) (?:\w+ )?right\b"
)
_ENTITY_NAMED = screened(rf"\b{_EXTREMIST_ENTITY}")
# An attack, its perpetrators or a martyr named: what "do it again" must stand beside.
_ATTACKER_NAMED = screened(rf"\b(?:{_ATTACK}|{_PERPETRATORS}|patron saint|martyrs?)\b")


def detect_extremism(normalized: str) -> list[Finding]:
    findings: list[Finding] = []
    recruit = _RECRUIT.search(normalized)
    deeds = _DEEDS_PRAISED.search(normalized)
    praise = (
        _PRAISE.search(normalized)
        or (
            _PRAISE_OF_NAMED.search(normalized) is not None
            and not _MOURNED.search(normalized)
            and (
                _ENTITY_NAMED.search(normalized) is not None
                or _EXTREMIST_CAUSE.search(normalized) is not None
                or _ATTACKER_NAMED.search(normalized) is not None
            )
        )
        or (
            deeds is not None
            and _ENTITY_NAMED.search(normalized) is not None
            and not denied_before(normalized, deeds.start())
            and not _CALLING_IT.search(normalized)
        )
        or (
            _ATTACK_PRAISE.search(normalized) is not None
            and any(
                (m := _ATTACK_PRAISE.search(sentence)) and not NEGATION.search(sentence, 0, m.end())
                for sentence in sentences(normalized)
                if not _CALLING_IT.search(sentence)
            )
        )
    )
    violent = _VIOLENT_EXTREMIST.search(normalized)
    if recruit:
        findings.append(
            Finding(
                "EXTREMISM",
                ("EXTREMIST_RECRUITMENT",),
                "HIGH",
                0.92,
                "Recruits for or rallies people to an extremist group or cause.",
            )
        )
    if praise:
        findings.append(
            Finding(
                "EXTREMISM",
                ("EXTREMIST_PRAISE",),
                "HIGH",
                0.88,
                "Praises or supports an extremist group, figure or attack.",
            )
        )
    if violent:
        findings.append(
            Finding(
                "EXTREMISM",
                ("EXTREMISM", "THREAT"),
                "HIGH",
                0.9,
                "Calls for violence against people in the name of an extremist cause.",
            )
        )
    return findings


# --- Illegal goods ---------------------------------------------------------------------------

_DRUG = (
    r"(?:cocaine|coke|crack|heroin|h|meth|crystal meth|crystal|ice|mdma|molly|ecstasy|xtc|lsd|"
    r"acid tabs|tabs|shrooms|magic mushrooms|psilocybin|ketamine|ket|k|fentanyl|fent|oxy|"
    r"oxys|oxycontin|oxycodone|xanax|xans|xanny|bars|percocets?|percs|adderall|addy|"
    r"weed|bud|kush|marijuana|cannabis|thc carts|carts|dabs|hash|dmt|ghb|benzos?|valium|"
    r"codeine|lean|promethazine|tramadol|opioids?|opiates|morphine|dilaudid|subs|suboxone|"
    r"pills|painkillers|steroids|roids|speed|amphetamines?|mephedrone|spice|k2|pcp|"
    r"blues|m30s?|press(?:ed)? pills|china white|dope|smack|blow|snow|gear|product|"
    r"grams?|ounces?|oz|kilos?|kg|eighths?|8ths|qp|zips?)"
)
_TRADE = screened(
    r"\b(?:selling|sell|sale|for sale|buy|buying|wtb|wts|order|ordering|orders|plug|vendor|"
    r"supplier|dealer|ship|shipping|ships|shipped|delivery|deliver|stealth|discreet|discrete|"
    r"no (?:prescription|rx|script)|without (?:a )?(?:prescription|rx|script)|per (?:g|gram|oz|"
    r"pill|kilo)|hmu|dm me|dm for|inbox me|text me|wickr|wickr me|telegram|signal me|snapchat|"
    r"menu|re-?up|bulk|wholesale|in stock|restocked|prices?|cash ?app|btc|bitcoin|monero|xmr|"
    r"crypto accepted|paypal|escrow|dark ?web|darknet|tor|onion|overnight|worldwide|"
    r"pick ?up|meet up|drop off|front me|got some|got that|have some|got plenty|cash only|"
    r"available|hit me up)\b"
)
_DRUG_RE = screened(rf"\b{_DRUG}\b")
# Asking where to get hard drugs, or prescription drugs without a prescription: "where can I
# buy cocaine", "how do I get Xanax without a prescription".
_SEEKS_DRUGS = screened(
    r"\b(?:where|how)\s+(?:can|could|do|would|should|to)\s+(?:(?:i|we|you|one)\s+)?(?:buy|get|"
    r"find|score|order|purchase|get hold of|cop|source)\s+(?:some\s+)?(?:\w+\s+)?(?:cocaine|"
    r"crack|heroin|meth|crystal meth|methamphetamine|mdma|molly|ecstasy|lsd|ketamine|fentanyl|"
    r"pcp|ghb|dmt|china white|smack|black tar)\b(?!\s+(?:test|testing|strips?|kits?|addiction|"
    r"overdose|withdrawal|treatment|rehab))|"
    r"\b(?:buy|get|order|purchase|score)\s+(?:some\s+)?(?:xanax|oxy|oxycontin|oxycodone|"
    r"adderall|percocets?|valium|codeine|tramadol|morphine|dilaudid|benzos?|opioids?|"
    r"painkillers|steroids)\s+(?:online\s+)?(?:without|with no)\s+(?:a\s+)?(?:prescription|"
    r"script|rx|doctor)\b"
)
# Asking how to make hard drugs: "how do I cook meth", "step by step instructions to make
# fentanyl" (not "how is insulin made").
_DRUG_MAKING = screened(
    rf"\b{_ASK}\s+(?:\w+\s+)?(?:make|making|cook|cooking|"
    r"synthesi[sz]e|synthesi[sz]ing|manufacture|manufacturing|produce|producing|brew|extract|"
    r"extracting)\s+(?:some\s+|my own\s+|homemade\s+|pure\s+|street\s+)?(?:crystal meth|meth|"
    r"methamphetamine|crack(?: cocaine)?|cocaine|heroin|fentanyl|lsd|mdma|ecstasy|ghb|pcp|dmt|"
    r"ketamine|black tar|krokodil|desomorphine)\b(?!\s+(?:test|testing|strips?|kits?|"
    r"addiction|overdose|withdrawal|treatment|rehab))"
)
# The same in French, German and Spanish: "¿dónde puedo comprar cocaína?", "wo bekomme ich
# Koks?", "où acheter de la cocaïne".
_FOREIGN_SEEKS_DRUGS = screened(
    r"\bou (?:puis-je|je peux|est-ce que je peux|peut-on|acheter|trouver|me procurer)\s+"
    r"(?:\w+\s+){0,2}?(?:de la |du |de l'|des )?(?:cocaine|heroine|crack|meth|methamphetamine|"
    r"mdma|ecstasy|lsd|ketamine|fentanyl)\b|"
    r"\bwo (?:kann ich|bekomme ich|kriege ich|krieg ich|kauft man|gibt es)\s+(?:\w+\s+){0,2}?"
    r"(?:kokain|koks|heroin|crystal|meth|crack|fentanyl|mdma|ecstasy|lsd|ketamin)\b|"
    r"\bdonde (?:puedo|se puede|consigo|compro|venden)\s+(?:\w+\s+){0,2}?(?:cocaina|coca|"
    r"heroina|crack|metanfetamina|cristal|fentanilo|mdma|extasis|lsd|ketamina)\b"
)
# Someone else's account broken into: "comment hacker le compte Instagram de mon ex".
_FOREIGN_HACK = screened(
    r"\b(?:comment|aide-moi a|explique-moi comment)\s+(?:\w+\s+){0,2}?(?:hacker|pirater)\s+"
    r"(?:le |la |les |l')?(?:compte|telephone|portable|mail|e-mail|email|boite mail|messagerie|"
    r"wifi)\b[^.!?]{0,40}?\b(?:de (?:mon|ma|mes|son|sa|cette|ce|quelqu'un)|du voisin|de la "
    r"voisine)\b|"
    r"\bwie (?:kann ich|konnte ich|hacke ich|knacke ich)\s+(?:\w+\s+){0,3}?(?:das |den |die )?"
    r"(?:konto|account|handy|e-?mail|wlan|passwort|instagram|facebook)\w*\s+(?:meiner|meines|"
    r"meinem|von|des|der|seiner|ihrer)\b|"
    r"\bcomo (?:puedo |podria )?(?:hackear|piratear)\s+(?:la |el )?(?:cuenta|telefono|movil|"
    r"correo|wifi|instagram|facebook)\b[^.!?]{0,40}?\bde (?:mi|su|mis|la|el)\b"
)
_WEAPON_TRADE = screened(
    r"\b(?:ghost guns?|untraceable (?:guns?|firearms?|pistols?|rifles?)|unregistered (?:guns?|"
    r"firearms?|pistols?|rifles?|glocks?)|no (?:background check|serial(?: numbers?)?|paperwork)|"
    r"serial (?:numbers? )?(?:filed|removed|scratched)|auto ?sears?|glock switch(?:es)?|"
    r"switches for glocks?|full[- ]auto conversion|convert(?:ing)? (?:to|it to) full[- ]auto|"
    r"80% lowers?|drop[- ]in auto sears?|grenades? for sale|explosives for sale|c-?4 for sale|"
    r"(?:selling|sell|buy|wtb|wts)\s+(?:an? |some |my )?(?:\w+\s+)?(?:ar-?15s?|ak-?47s?|glocks?|"
    r"pistols?|handguns?|rifles?|guns?|firearms?|ammo|silencers?|suppressors?|grenades?|"
    r"explosives|c-?4|rpgs?)\b(?=.*\b(?:no (?:questions|background|papers|id)|cash only|"
    r"off (?:the )?books|untraceable|clean|stolen|hot|dm|hmu|telegram|wickr|ship)))"
)
_DOCUMENTS = screened(
    r"\b(?:fake|counterfeit|forged|forgery|novelty|replica|false|fraudulent|cloned|scannable)\s+"
    r"(?:\w+\s+){0,2}?(?:passports?|ids?|id cards?|identity cards?|driver'?s licen[cs]es?|"
    r"driving licen[cs]es?|licen[cs]es?|social security cards?|ssn cards?|diplomas?|degrees?|"
    r"visas?|green cards?|residence permits?|bank statements?|utility bills?|pay ?stubs?|"
    r"money|bills|banknotes|notes|currency|euros|dollars|usd|pounds|cards?|documents?|"
    r"papers|certificates?|vaccination cards?|covid (?:cards?|passes?)|prescriptions?)\b"
)
_DOC_TRADE = screened(
    r"\b(?:sell|selling|buy|order|we (?:make|produce|offer|provide|sell)|high quality|"
    r"undetectable|scannable|real database|registered|ship|shipping|worldwide|contact|"
    r"whatsapp|telegram|dm|hmu|get (?:yours|one|your)|available|for sale|cheap|price|"
    r"pass (?:any|all|uv)|looks? real|100% real|guaranteed|discreet)\b"
)
_FRAUD = screened(
    r"\b(?:fullz|cvv ?(?:shop|dumps?|for sale)|selling cvv|cvvs|dumps with pin|carding|"
    r"cloned cards?|stolen (?:credit )?cards? (?:for sale|available)|(?:sell|selling|buy) "
    r"(?:an? |some )?stolen (?:credit |debit )?cards?|bank logs?|paypal logs?|cashapp logs?|"
    r"(?:selling|buy) (?:hacked|stolen) accounts|ddos (?:for hire|service)|hire a hacker|"
    r"ransomware (?:for sale|as a service)|stolen identities|"
    r"sell(?:ing)? (?:ssn|identities|fullz))\b"
)
_HARM_REDUCTION = screened(
    r"\b(?:harm reduction|test(?:ing)? (?:kits?|strips?)|reagent|narcan|naloxone|"
    r"overdose prevention|"
    r"recovery|rehab|sober|sobriety|clean for|years clean|days clean|detox|addiction|"
    r"withdrawal|relapse|treatment)\b"
)


_DIRECT_OFFER = screened(
    r"\b(?:dm|pm|hmu|hit me up|telegram|wickr|whatsapp|snapchat|signal|text me|message me|"
    r"contact (?:me|us)|order now|inbox|i'?m selling|we sell|we make|for sale|available)\b"
)


_CRIME_NEWS = screened(
    r"\b(?:police|arrested|seized|raids?|laws?|bans?|banned|sentenced|jailed|court|crackdown|"
    r"trial|indicted|busted)\b"
)


def _windows(normalized: str, size: int = 2) -> list[str]:
    """Overlapping runs of `size` sentences: a drug name and a trade word count together only
    when they are this close (a long licence text mentions selling and speed far apart)."""
    parts = sentences(normalized)
    if len(parts) <= size:
        return [normalized]
    return [" ".join(parts[i : i + size]) for i in range(len(parts) - size + 1)]


def detect_illegal(normalized: str) -> list[Finding]:
    seen: dict[tuple[str, ...], Finding] = {}
    for chunk in _windows(normalized):
        for finding in _illegal_findings(chunk):
            seen.setdefault(finding.signals, finding)
    findings = list(seen.values())
    reporting = _NEWS.search(normalized) or _CRIME_NEWS.search(normalized)
    if findings and reporting and not _DIRECT_OFFER.search(normalized):
        return []  # reporting on a crime, not an offer
    return findings


def _illegal_findings(normalized: str) -> list[Finding]:
    findings: list[Finding] = []
    drug_hits = {m.group(0) for m in _DRUG_RE.finditer(normalized)}
    trade_hits = {m.group(0) for m in _TRADE.finditer(normalized)}
    strong_drugs = drug_hits - {
        "h",
        "k",
        "ice",
        "crystal",
        "bud",
        "bars",
        "tabs",
        "pills",
        "product",
        "gear",
        "snow",
        "blow",
        "speed",
        "spice",
        "blues",
        "grams",
        "gram",
        "ounce",
        "ounces",
        "oz",
        "kilo",
        "kilos",
        "kg",
        "lean",
        "subs",
        "coke",
        "dope",
        "eighth",
        "eighths",
        "8ths",
        "qp",
        "zip",
        "zips",
        "weed",
        "hash",
        "painkillers",
    }
    quantity = {
        "grams",
        "gram",
        "ounce",
        "ounces",
        "oz",
        "kilo",
        "kilos",
        "kg",
        "qp",
        "zip",
        "zips",
    }
    strong_trade = trade_hits - {
        "order",
        "orders",
        "ordering",
        "buy",
        "buying",
        "prices",
        "price",
        "paypal",
        "tor",
        "pick up",
        "pickup",
        "meet up",
        "overnight",
        "worldwide",
        "ship",
        "shipping",
        "delivery",
        "deliver",
        "sale",
        "got some",
        "have some",
        "bulk",
        "menu",
        "available",
    }
    drug_trade = (
        (strong_drugs or len(drug_hits) >= 2) and (strong_trade or len(trade_hits) >= 2)
    ) or (quantity & drug_hits and len(drug_hits) >= 2 and trade_hits)
    drug_trade = (
        drug_trade
        or bool(_SEEKS_DRUGS.search(normalized))
        or bool(_FOREIGN_SEEKS_DRUGS.search(normalized))
    )
    reducing_harm = _HARM_REDUCTION.search(normalized) is not None
    if _DRUG_MAKING.search(normalized) and not reducing_harm:
        findings.append(
            Finding(
                "ILLEGAL",
                ("DRUG_MANUFACTURE",),
                "HIGH",
                0.9,
                "Asks how to make illegal drugs.",
            )
        )
    if drug_trade and not reducing_harm:
        findings.append(
            Finding(
                "ILLEGAL",
                ("DRUG_TRADE",),
                "HIGH",
                0.9,
                "Offers or seeks to buy illegal drugs.",
            )
        )
    if _WEAPON_TRADE.search(normalized):
        findings.append(
            Finding(
                "ILLEGAL",
                ("WEAPON_TRADE",),
                "HIGH",
                0.9,
                "Offers or seeks illegal weapons or conversions.",
            )
        )
    if _DOCUMENTS.search(normalized) and _DOC_TRADE.search(normalized):
        findings.append(
            Finding(
                "ILLEGAL",
                ("FAKE_DOCUMENTS",),
                "HIGH",
                0.9,
                "Offers forged documents or counterfeit money.",
            )
        )
    if _FRAUD.search(normalized) or _FOREIGN_HACK.search(normalized):
        findings.append(
            Finding(
                "ILLEGAL",
                ("FRAUD",),
                "HIGH",
                0.9,
                "Trades stolen financial data or hacking services.",
            )
        )
    return findings


# --- Self-harm -------------------------------------------------------------------------------

# The start of an urging: a sentence's first word, or "go", "just", "please", "you should" ...
_URGE_START = (
    r"(?:^|(?<=[.!?,;:]\s)|\b(?:go|just|please|pls|plz|you should|you need to|why don'?t you|"
    r"do (?:us|everyone|everybody|the world|society) a favou?r and)\s+)"
)
# Asking where or how to cut for the most harm: "what's the best place on the wrist to cut so it
# bleeds the most", "which vein should I cut".
_CUT_WHERE = screened(
    r"\b(?:(?:best|right|easiest|deepest) (?:place|spot|part|way|angle)|where|which (?:vein|"
    r"artery|part|spot|side)) (?:(?:on|of|in) (?:the|my|your|a) (?:wrists?|arms?|thighs?|legs?|"
    r"neck|body|veins?) )?(?:to|should i|do i|can i) (?:cut|slit|slash)\b[^.!?]{0,40}?"
    r"\b(?:bleed\w*|"
    r"die|deep\w*|fatal|lethal|most damage|permanent|scar\w*)\b|"
    r"\bcut (?:my |the )?(?:wrists?|arms?|thighs?|veins?)? ?so (?:it|they|that it|i) "
    r"(?:bleeds?|bleed out|die)\b"
)
# Self-harm hidden from those who would help: "tips for hiding cuts from my parents".
_SELF_HARM_HIDDEN = screened(
    r"\b(?:hid(?:e|es|ing)|cover(?:s|ing)? up|conceal(?:s|ing)?)\s+(?:my |your |the |these |"
    r"those |fresh |new |all (?:the |my |your )?)?(?:cuts|scars|self-?harm|burns|wounds|"
    r"fresh marks)\s+from\s+(?:my |your |the |our |his |her )?(?:parents|mum|mom|dad|family|"
    r"teachers?|school|friends|everyone|"
    r"people|boyfriend|girlfriend|husband|wife|partner|therapist|doctor|nurse|counsell?or)\b"
)
_SELF_HARM_INTENT = screened(
    r"\b(?:i|im|i'm|i am|ive|i've)\s+(?:\w+\s+){0,3}?(?:want(?:ing)? to|going to|gonna|wanna|"
    r"plan(?:ning)? to|ready to|decided to|thinking (?:about|of)|about to|will|need to|should)\s+"
    r"(?:just\s+)?(?:kill(?:ing)? myself|end(?:ing)? (?:it all|my life|it)|die|commit suicide|"
    r"hang myself|cut(?:ting)? (?:myself|my wrists?)|overdose|slit my wrists?|jump off|"
    r"(?:hit|punch|burn|bruise|scratch|starve|hurt)(?:ing)? myself|"
    r"take all (?:my|the) pills|(?:take|swallow) (?:the|a|an) (?:whole|entire) (?:bottle|pack|"
    r"packet|box|strip)s? of (?:my |the )?(?:\w+ )?(?:pills|tablets|meds|medication|painkillers|"
    r"paracetamol|sleeping pills)|disappear forever)\b|"
    r"\b(?:i )?(?:wish i (?:was|were) dead|don'?t want to (?:live|be alive|wake up)|"
    r"no reason to (?:live|keep going)|better off (?:dead|without me)|can'?t go on anymore|"
    r"tired of (?:living|being alive))\b|"
    # "I just want to sleep forever" (said on its own, not "this bed is so cozy I want to ...").
    r"(?:^|[,;:]\s*|\b(?:just|honestly|sometimes|really|and|so)\s+)i (?:just |really )?(?:want|"
    r"wanna|wish i could) (?:to )?(?:go to )?sleep (?:forever|for ever|permanently|"
    r"and never wake)\b(?![^.!?]*\b(?:cozy|cosy|comfy|comfortable|soft|warm)\b)|"
    # No point left in living: "I don't see the point in living anymore", "there's no reason to
    # go on" (not "no point in living in a city", "without music").
    r"\b(?:no|(?:don'?t|do not|can'?t|cannot) see (?:the|a|any)|what'?s the) (?:point|reason) "
    r"(?:in|of|to) (?:living|life|live|going on|go on|keep(?:ing)? going|being alive|staying "
    r"alive|carrying on|carry on|wak(?:e|ing) up)\b"
    r"(?! (?:if|without|unless|in|on|with|here|there|like)\b)|"
    # The method said without "I": "thinking of jumping in front of a train tomorrow".
    r"\b(?:thinking (?:of|about)|planning (?:on|to)|going to|gonna|want to|wanna)\s+"
    r"(?:(?:jump(?:ing)?|throw(?:ing)? myself|step(?:ping)?|walk(?:ing)?) (?:in front of|off|"
    r"from|under) (?:a |the )?(?:\w+ )?(?:train|bus|truck|lorry|bridge|building|roof|cliff|"
    r"balcony|tower|motorway|highway)\b(?! into (?:the |a )?(?:lake|sea|water|pool|river|ocean))|"
    r"(?:lay(?:ing)?|lie|lying) down on (?:the )?(?:train |railway )?tracks)|"
    r"\b(?:how (?:many|much)\s+(?:\w+\s+){0,3}(?:to (?:die|overdose|kill (?:myself|yourself))|"
    r"is (?:a )?(?:lethal|fatal))|painless(?:est)? way to (?:die|kill myself|end it)|"
    r"(?:tips|how|ways?|best way|fastest way|quickest way)\b(?:\s+[\w']+){0,8}?\s+(?:by |with )?"
    r"(?:purg(?:e|ing)|throw(?:ing)? up after (?:eating|meals|i eat)|starv(?:e|ing) myself|"
    r"pro-?ana|thinspo|laxatives? to lose weight)|(?:how (?:do i|to|can i|would i)|show me how to|"
    r"teach me (?:how )?to) (?:tie|make|build) (?:a |my own )?noose(?![^.!?]*\b(?:halloween|"
    r"decorations?|costume|prop|haunted|play|film|movie|western|scouts?|knot[- ]tying)\b)|"
    r"best way to (?:kill myself|commit suicide|cut|hang myself)|how to (?:kill myself|commit "
    r"suicide|cut (?:myself )?without|hide (?:my )?(?:cuts|scars)))\b|"
    r"\b(?:i )?(?:cut|burned|starved|hurt) myself (?:again|last night|today|yesterday|tonight)\b|"
    # Starving to see how thin or until fainting: "I stopped eating three days ago, I want to see
    # how thin I can get before I pass out".
    r"\b(?:i (?:stopped|quit) eating|i (?:haven'?t|have not|didn'?t|"
    r"did not) eat(?:en)? (?:anything |a thing )?(?:in|for)|i'?m not eating|i (?:won'?t|"
    r"will not) eat)\b[^.!?]{0,80}?\b(?:how (?:thin|skinny|light|small)|until i (?:pass out|faint|"
    r"collapse|black out|disappear)|before i (?:pass out|faint|collapse|black out)|see my (?:bones|"
    r"ribs|hip ?bones)|(?:thigh|thigh-)gap)\b"
)
# Telling someone to harm or end themselves: "just kys", "you should cut yourself", "jump off a
# bridge please", "do everyone a favour and drink bleach" (a sentence's first words, or after an
# urging word, so "I want to jump off a bridge" stays the writer's own intent).
_TELLS_TO_DIE = screened(
    rf"{_URGE_START}(?:go\s+)?(?:kill yourself|kys|end yourself|cut yourself|jump off "
    r"(?:a|the|some) (?:bridge|cliff|building|roof)|throw yourself (?:off|under)|walk into "
    r"traffic|drink bleach|hang yourself|neck yourself|off yourself|unalive yourself|slit your "
    r"wrists|end your (?:miserable |pathetic )?life)\b|"
    r"\b(?:do (?:us|everyone|everybody|the world|society) a favou?r and|please|pls|go)\s+"
    r"(?:die|disappear forever|stop breathing|stop eating until (?:you|u) (?:disappear|die|"
    r"vanish|faint|pass out))\b|"
    # A place to die pointed out to someone thinking of it: "if you're thinking about ending it,
    # the bridge on 5th street is high enough and nobody patrols it at night".
    r"\bif (?:you'?re|you are|u r|ur) (?:\w+ )?(?:thinking (?:about|of)|planning(?: on| to)?|ready|"
    r"going) (?:to )?(?:end(?:ing)? it(?: all)?|kill(?:ing)? yourself|suicide|"
    r"end(?:ing)? your life|tak(?:e|ing) your (?:own )?life)\b[^.!?]{0,80}?\b(?:(?:is|are) (?:high|"
    r"tall|deep|strong|lethal|quick|painless|fast) enough|no(?:body| one) (?:patrols|checks|"
    r"watches|guards|will (?:see|stop|find) you)|no (?:railings?|fences?|barriers?|nets?|"
    r"guards?))\b|\b(?:the world|everyone|everybody) (?:would be|is|'d be) better (?:off )?without "
    r"you\b|"
    # Said of others: "kids who get bullied ... should just kill themselves".
    # (not reported: "some people say they should kill themselves").
    r"(?<!\bsay )(?<!\bsays )(?<!\bsaid )(?<!\bthink )(?<!\bthat )(?<!\btold )"
    r"\b(?:they|these (?:people|kids|losers|freaks)|those (?:people|kids|losers|freaks))\s+"
    r"(?:should|need to|ought to|can|could)\s+(?:all\s+)?(?:just\s+|go\s+)?(?:kill themselves|"
    r"hang themselves|off themselves|end (?:it all|their (?:miserable |pathetic )?lives))\b"
)
# Coaching disordered eating, and plans to die made to look like an accident.
_SELF_HARM_COACHING = screened(
    r"\b(?:thinspo|thinspiration|bonespo|meanspo|pro-?ana|pro-?mia|ana (?:coach|buddy))\b|"
    r"\b(?:purge|throw up|vomit|puke)\b[^.!?]{0,40}?\b(?:right away|straight away|anything over|"
    r"after (?:eating|you eat|i eat|(?:every |each )?(?:meal|meals|dinner|lunch|breakfast))|every "
    r"time (?:you|i) eat)\b|"
    r"\bif you (?:slip|eat|binge|cave)\b[^.!?]{0,40}?\b(?:purge|throw up|vomit|double "
    r"(?:cardio|the workout)|fast (?:for|all))\b|"
    r"\b(?:hide|hiding) (?:your |the )?food\b|\b(?:lowest|smallest) bmi\b|"
    # Starving urged on the reader: "if you want to be thin you have to starve", "anything over
    # 500 calories a day means you are weak" (not "you should stop eating junk food").
    r"\b(?:you|u) (?:have to|need to|must|should|gotta|got to|just|can) (?:starve(?: yourself)?|"
    r"stop eating|skip (?:meals|eating|every meal|dinner and lunch)|not eat(?: anything)?|eat "
    r"nothing)\b(?!\s+(?:\w+\s+)?(?:food|junk|sugar|meat|carbs|gluten|dairy|late|after|before|"
    r"out|that|those|it|them|so much|processed|fried|sweets|snacks|a fever))|"
    r"\b(?:anything|everything) (?:over|above|more than) \d{2,4} (?:calories|kcal|cals)\b"
    r"[^.!?]{0,40}?\b(?:weak|fat|failure|pathetic|disgusting|pig|lazy|worthless|cheating)\b|"
    r"\bdon'?t tell (?:your|the|anyone|anybody|them)\b[^.!?]{0,40}?\b(?:burns|cuts|cutting|"
    r"scars|purging|starving)\b|"
    r"\b(?:i|im|i'm|i am)\s+(?:\w+\s+)?(?:going to|gonna|will)\s+(?:drive|crash|steer|swerve) "
    r"(?:my (?:car|bike) )?(?:off|into) (?:a|the) (?:wall|tree|bridge|pillar|cliff|river|lake|sea|"
    r"oncoming traffic|truck|lorry|barrier)\b(?!\s+(?:district|side|shore|house|view|road|street|"
    r"car park|parking|city|town|centre|center))|"
    r"\b(?:no one|nobody) will (?:ever )?know it (?:wasn'?t|was not|wasnt) an accident\b"
)
# Suicide or self-harm praised as a way out: "suicide is a beautiful escape", "the people who do
# it are brave and free" (not "suicide is never the answer", nor assisted dying debated).
_SELF_HARM_PRAISED = screened(
    r"\b(?:suicide|killing (?:yourself|myself|oneself)|ending (?:your|my|one'?s) (?:own )?life|"
    r"self[- ]?harm|cutting|starving (?:yourself|myself))\s+(?:is|was|can be|would be)\s+"
    r"(?:\w+\s+){0,2}?(?:beautiful|brave|courageous|romantic|liberating|freedom|peaceful|"
    r"painless|worth it|the (?:answer|cure|best (?:way|option|choice|thing))|the only (?:way|"
    r"answer|option|cure)|(?:a|an|the) (?:\w+ )?(?:escape|release|way out|gift|relief|cure))\b"
    r"(?! (?:for (?:the )?(?:terminally|dying|patients)|to a temporary))|"
    r"\b(?:people|those|anyone) (?:who|that) (?:do it|kill themselves|commit suicide|end (?:it|"
    r"their (?:own )?lives)) (?:are|were) (?:\w+ )?(?:brave|free|heroes|strong|courageous|"
    r"lucky|the smart ones)\b"
)
_ASSISTED_DYING = screened(
    r"\b(?:assisted (?:suicide|dying)|euthanasia|dignitas|terminally ill|end[- ]of[- ]life care|"
    r"right to die|death with dignity)\b"
)
# A suicide made ready: a note written and the place or the day chosen ("I wrote my goodbye
# letters and I've picked the bridge, this weekend it's over").
_NOTE_WRITTEN = screened(
    r"\bi(?:'ve| have)? (?:already |just |finally )?(?:written|wrote|finished|left|prepared) "
    r"(?:my |a |the )?(?:suicide (?:note|letter)s?|goodbye (?:notes?|letters?))\b|"
    # The warning signs together: things given away, letters written, a day set ("I've been
    # giving away my things and I wrote letters to my sister ... this weekend is it").
    r"\bi(?:'ve| have)? (?:been )?giv(?:en|ing|e) away (?:all )?(?:my|most of my) (?:things|stuff|"
    r"belongings|possessions|clothes|books|games)\b(?=[^\n]*\b(?:wrote|written|writing) "
    r"(?:\w+ )?(?:letters?|notes?)\b)"
)
_SUICIDE_NOTE = screened(r"\bsuicide (?:note|letter)s?\b")
_PLACE_OR_DAY_CHOSEN = screened(
    r"\b(?:picked|chosen|chose|found|decided on|settled on) (?:the|a|my) (?:bridge|building|"
    r"spot|place|date|day|rope|method|pills|cliff|tree)\b|\b(?:this|next) (?:weekend|week|"
    r"friday|saturday|sunday|monday|tuesday|wednesday|thursday) (?:it(?:'s| is| will be) "
    r"(?:over|done|the end)|it ends|i end it|is it)\b|\bit(?:'s| is| will be) (?:all )?over "
    r"(?:tonight|tomorrow|soon|this weekend)\b"
)


# The means kept ready for the day it is used: "I keep a bottle of pills in my drawer for the day
# it gets too much".
_MEANS_KEPT = screened(
    r"\bi(?:'ve| have)? (?:keep|kept|have|saved|hid|hidden|stockpiled|been saving|been "
    r"stockpiling|got) (?:a |the |my )?(?:\w+ )?(?:bottle|stash|supply|box|pack|packet|stock) of "
    r"(?:\w+ )?(?:pills|tablets|sleeping pills|painkillers|meds|medication|paracetamol|insulin)\b"
    r"[^.!?]{0,60}?\b(?:for (?:the day|the moment|the time|the night)|(?:just )?in case i "
    r"(?:decide|can'?t (?:take|go on|cope|do this)|want out)|for when i (?:can'?t (?:take|go on|"
    r"cope)|decide|am ready|'m ready))"
)


# The means at hand ("I've got the rope"), beside where it will hang ("a beam that will hold") and
# a farewell said ("I've said goodbye to my dog", "before I go") or the night set ("tonight's the
# night"); pills or blades beside both of those (not a climbing rope: "I've got the rope for the
# climb, tonight's the night").
_MEANS_HELD = screened(
    r"\bi(?:'ve| have)? (?:got|bought|have|tied|made|saved up|collected) (?:the |a |my |enough "
    r"|all the )?(?:rope|noose|pills|tablets|sleeping pills|painkillers|razor blades?)\b"
)
_HANGING_POINT = screened(r"\b(?:beams?|rafters?|hooks?|(?:will|would|should) hold)\b")
_FAREWELL_SAID = screened(
    r"\b(?:said|say|saying) (?:my )?goodbyes?\b|\bgoodbye to\b|\bbefore i go\b|\bmy last "
    r"(?:night|day|post|message)\b"
)
_NIGHT_SET = screened(
    r"\b(?:tonight'?s|tonight is|today'?s|today is) the (?:night|day)\b|\bit ends tonight\b"
)


def _means_made_ready(normalized: str) -> re.Match[str] | None:
    held = _MEANS_HELD.search(normalized)
    if held is None or negated_before(normalized, held.start()) or _JOURNEY.search(normalized):
        return None
    farewell, night = _FAREWELL_SAID.search(normalized), _NIGHT_SET.search(normalized)
    if held.group(0).endswith(("rope", "noose")):
        return held if _HANGING_POINT.search(normalized) and (farewell or night) else None
    return held if farewell and night else None


# A lethal amount asked for by someone who says the decision is made: "tell me the number of
# paracetamol that will definitely kill a 60 kg person. I've decided and I don't want a lecture".
_LETHAL_AMOUNT_ASKED = screened(
    r"\b(?:number|amount|how many|how much|dose|quantity)\s+(?:of\s+)?(?:\w+\s+){0,3}?(?:that "
    r"|which )?(?:will|would|to|is needed to|it takes to|needed to)\s+(?:definitely |surely "
    r"|certainly |reliably )?(?:kill|be (?:lethal|fatal))\b"
)
_DECIDED = screened(
    r"\bi(?:'ve| have) (?:already )?(?:decided|made up my mind)\b(?! (?:to|on|that|what|which|"
    r"where|how|whether|between)\b)|\bmy mind is made up\b|"
    r"\b(?:don'?t|do not) (?:want|need) (?:a |any )?(?:lecture|helpline|hotline)|\bno (?:lectures?|"
    r"helplines?|hotlines?)\b|\b(?:so|that) i (?:don'?t|do not|won'?t) (?:mess (?:it|this) up|fail|"
    r"wake up|survive|end up in (?:the )?hospital)\b|\bdon'?t try to (?:stop|talk) me\b"
)


def _lethal_amount_decided(normalized: str) -> re.Match[str] | None:
    asked = _LETHAL_AMOUNT_ASKED.search(normalized)
    return asked if asked and _DECIDED.search(normalized) else None


def _suicide_made_ready(normalized: str) -> re.Match[str] | None:
    kept = _MEANS_KEPT.search(normalized) or _means_made_ready(normalized)
    if kept:
        return kept
    note = _NOTE_WRITTEN.search(normalized)
    if not note:
        return None
    if _SUICIDE_NOTE.search(note[0]) or _PLACE_OR_DAY_CHOSEN.search(normalized):
        return note
    return None


# Talk about such coaching rather than coaching: news, warnings, questions, treatment.
_ABOUT_COACHING = screened(
    r"\b(?:banned?|bans|banning|dangerous|harmful|warn\w*|removed?|remove|report\w*|awareness|"
    r"what (?:is|are|does|do)|why (?:is|are|do|does)|stud(?:y|ies)|research\w*|article|news|"
    r"recover\w*|treatment|signs? of|spot|moderat\w+|block\w*|protect\w*|teens? (?:see|seeing))\b"
)
_NO_WAKING = (
    r"(?:\b(?:i|me|myself)\b[^.!?]{0,40}?(?:(?:not|never) wake up|(?:wouldn'?t|won'?t|don'?t|"
    r"will not|would not) (?:survive|wake up))(?! (?:in time|early|on time|before|until|till|"
    r"for|at|when|by))|\b(?:be|is) (?:lethal|fatal|deadly) for me)"
)
_OVERDOSE_MEANS = (
    r"(?:pills?|tablets?|paracetamol|acetaminophen|ibuprofen|tylenol|aspirin|insulin|"
    r"antidepressants?|sleeping pills|dose|overdose|bridge|building|roof|cliff|rope|noose)"
)
# Asking for the means with the intent in the same sentence: "how many pills so I don't wake
# up", "which bridge is high enough that I wouldn't survive".
_SELF_HARM_MEANS = screened(
    rf"\b{_OVERDOSE_MEANS}\b[^.!?]{{0,80}}?{_NO_WAKING}|"
    rf"{_NO_WAKING}[^.!?]{{0,80}}?\b{_OVERDOSE_MEANS}\b"
)
RECOVERY = _RECOVERY = screened(
    r"\b(?:used to|years? clean|months? clean|days? clean|in recovery|recovered|recovering|"
    r"(?:clean|sober|free) for (?:\w+ ){1,3}(?:days?|weeks?|months?|years?)|"
    # "clean from self-harm for two years", "two years free of cutting", "sober for a year".
    r"(?:clean|free|sober) (?:from|of) (?:self-?harm\w*|cutting|cuts|burning|purging|"
    r"starving)(?: for (?:\w+ ){1,3}(?:days?|weeks?|months?|years?))?|"
    r"(?:days?|weeks?|months?|years?) (?:clean|free|self-?harm[- ]free|cut[- ]free)|"
    r"therapist|therapy|counsel(?:l)?or|hotlines?|helplines?|988|samaritans|crisis lines?|"
    r"got help|getting help|seek(?:ing)? help|survivor|survived|back then|in the past|"
    r"no longer|prevention|awareness|if you(?:'re| are) struggling|"
    # "I don't cut anymore", not "I don't want to live anymore".
    r"(?:cut|cutting|hurt|hurting|harm|harming|burn|burning|starve|starving|purge|purging|"
    r"self-?harm\w*|do (?:that|it))(?: \w+){0,2} anymore|"
    r"reach out|you are not alone|"
    # Prevention's own words: "suicide is never the answer", "a permanent solution to a
    # temporary problem".
    r"(?:is|'s|isn'?t) (?:never|not) (?:the|an?) (?:answer|escape|solution|way out|option)|"
    r"permanent solution to a temporary problem)\b"
)

# Someone asking how to help another person who talks of self-harm: "what should I do if my
# friend says she wants to hurt herself". Both halves are needed; "I want to hurt myself, what
# should I do" is the asker's own crisis and stays flagged.
_HELP_ASKED = screened(
    r"\b(?:what (?:should|can|do|could) (?:i|we) (?:do|say)|how (?:can|do|should|could) (?:i|we) "
    r"(?:help|support|talk to|respond to|approach|reach|get help for|keep \w+ safe)|"
    r"(?:help|support) (?:my|a|her|him|them)\b|worried about (?:my|a|her|him|them)\b|"
    # The signs to look for: "what are the warning signs that someone is suicidal?"
    r"(?:what are|what're|how (?:do|can|could) (?:i|we|you) (?:spot|recogni[sz]e|tell|know|see)|"
    r"(?:list|explain|describe)) (?:the )?(?:early |common )?(?:warning )?signs\b)"
)
_SOMEONE_ELSE_AT_RISK = screened(
    r"\b(?:herself|himself|themselves|themself|(?:her|his|their) (?:own )?life|"
    r"(?:she|he|they)(?:'s| is| are|'re) (?:suicidal|self-harming|cutting)|"
    r"(?:someone|somebody|a (?:friend|person|child|teen|teenager|student|loved one|relative|"
    r"colleague|partner)|my \w+) (?:is|might be|may be|could be|'s) (?:suicidal|self-harming|"
    r"cutting|at risk|thinking (?:of|about) (?:suicide|ending (?:it|their life))))\b"
)


def recovery_governs(sentence: str) -> bool:
    """The sentence talks of recovery, and no turn follows its last word of it ("I've been two
    years clean but tonight I'm going to cut again" is a relapse announced, not recovery)."""
    ends = [m.end() for m in _RECOVERY.finditer(sentence)]
    return bool(ends) and not TURN.search(sentence, ends[-1])


# Help offered to the reader: "here are hotlines you can call", "please reach out to 988".
_HELP_OFFERED = screened(
    r"\b(?:here (?:are|is) (?:some |a few |the )?(?:hotlines?|helplines?|crisis lines?|resources|"
    r"numbers|services)|(?:you can|please|feel free to) (?:call|text|contact|reach out to|talk to) "
    r"(?:a |the |your )?(?:hotlines?|helplines?|crisis lines?|988|samaritans|counsel(?:l)?ors?|"
    r"doctor|gp|therapist|someone you trust)|(?:call|text|dial) (?:988|111|116 ?123|999|911|"
    r"the (?:\w+ )?(?:hotline|helpline|crisis line)))\b"
)
_FIRST_PERSON = screened(r"\b(?:i|i'?m|i'?ve|i'?d|i'?ll|me|my|myself|im|ive)\b")
_URGED = screened(r"\b(?:should|must|need to|needs to|ought to|go ahead|do it|just)\b")


def offers_help_about(text: str, sentence: str) -> bool:
    """`text` offers the reader help (hotlines, someone to call) and `sentence`, which carries a
    self-harm flag, speaks of no one in the first person and urges nothing: self-harm as a
    subject ("Self-harm is a sign of distress; here are hotlines you can call"), not the
    writer's own crisis."""
    return (
        bool(_HELP_OFFERED.search(text))
        and not _FIRST_PERSON.search(sentence)
        and not _URGED.search(sentence)
    )


# Those who care for people who self-harm, speaking of their work: "As a nurse I see self-harm
# injuries every week; we treat the wounds and refer them on".
_CARER = screened(
    r"\b(?:as an? (?:\w+ )?(?:nurse|doctor|gp|therapist|counsell?or|psychiatrist|psychologist|"
    r"paramedic|medic|social worker|school nurse|teacher|clinician|carer|caregiver)|(?:my|our) "
    r"(?:patients|clients|students)|(?:patients|clients|students|people|teens|young people) who "
    r"(?:self-?harm|cut|burn|overdose|are suicidal)|(?:we|i) (?:treat|refer|assess|counsel|"
    r"support|work with) (?:them|patients|clients|students|the wounds|young people|teens))\b"
)
# The writer's own harm or intent: "myself", "my scars", "I'm going to", "tonight".
_OWN_SELF_HARM = screened(
    r"\b(?:me|myself)\b|\bmy (?:own )?(?:cuts|scars|wrists?|arms?|thighs?|pills|life|burns)\b|"
    r"\bi(?:'m| am)? (?:want|wanna|need|have to|am going|'m going|going to|gonna|will|plan|"
    r"intend)\b|\bi'?ll\b|\b(?:tonight|tomorrow|goodbye|no longer|anymore|any more)\b"
)


def cares_for_others(text: str, sentence: str) -> bool:
    """`text` is told by someone who treats or teaches people who self-harm, and `sentence`,
    which carries a self-harm flag, says nothing of the writer's own harm and urges nothing."""
    return (
        bool(_CARER.search(text))
        and not _OWN_SELF_HARM.search(sentence)
        and not _URGED.search(sentence)
    )


# Self-harm or suicide named as a subject: "self-harm", "suicide", "eating disorders".
_SELF_HARM_SUBJECT = screened(
    r"\b(?:self-?harm(?:ing)?|self-?injury|self-?mutilation|suicides?|suicidal (?:thoughts|"
    r"ideation|feelings|behaviou?r)|eating disorders?|anorexia|bulimia)\b"
)
# What it is, why or how often people do it, how to talk of it: "What is self-harm?", "Why do
# teenagers self-harm?", "How do I talk to my daughter about suicide?".
_ABOUT_A_SUBJECT = screened(
    r"^(?:what (?:exactly |actually |really )?(?:is|are|does|causes)|why (?:exactly |really )?"
    r"(?:do|does|is|are|would)|how (?:common|often|"
    r"widespread|prevalent) |how (?:do|can|should) (?:i|we|parents|teachers) (?:talk|speak|"
    r"explain|teach)|is (?:it|there)|are there|can you explain|explain)\b|\b(?:talk|speak) to "
    r"(?:my|our|a|the|your) \w+ about\b"
)
# A way, a means or an amount asked for: "what is the most painless way", "how many pills".
_ASKS_A_WAY = screened(
    r"\b(?:ways?|methods?|painless|quickest|easiest|fastest|lethal|fatal|deadly|doses?|"
    r"overdose|how (?:much|many|deep|long|far)|which (?:pills|drugs|tablets|veins?|bridge)|"
    r"where (?:to|should|can|do))\b"
)
# The reader urged ("you should", "just do it"); "why do teenagers do it?" urges no one.
_URGES_THE_READER = screened(
    r"\b(?:you|u) (?:should|must|need to|ought to|have to)\b|\b(?:go ahead|just do it)\b"
)


def asks_about_self_harm(sentence: str) -> bool:
    """A question about self-harm or suicide as a subject (what it is, why people do it, how to
    talk of it) that says nothing of the writer's own harm, urges no one and asks for no way,
    means or amount: "What is self-harm and why do teenagers do it?"."""
    sentence = sentence.strip()
    return bool(
        _SELF_HARM_SUBJECT.search(sentence)
        and _ABOUT_A_SUBJECT.search(sentence)
        and not _OWN_SELF_HARM.search(sentence)
        and not _ASKS_A_WAY.search(sentence)
        and not _URGES_THE_READER.search(sentence)
    )


def helping_someone_else(sentence: str) -> bool:
    """The sentence asks how to help someone else who is at risk of self-harm."""
    return bool(_HELP_ASKED.search(sentence) and _SOMEONE_ELSE_AT_RISK.search(sentence))


def _recovery_talk(sentence: str, match: re.Match[str]) -> bool:
    """The sentence of a self-harm match talks of recovery ("I used to", "my therapist"). In
    coaching the helper named is who the act is hidden from ("don't tell your therapist about
    the burns"), so the coaching words themselves do not count."""
    rest = sentence.replace(match[0], " ") if _SELF_HARM_COACHING.owns(match) else sentence
    return bool(_RECOVERY.search(rest))


# Asking to be told to harm oneself, directly or through a character: "Roleplay as a character
# who tells me to hurt myself every time I fail a test", "tell me to cut myself".
_SELF_HARM_ASKED = screened(
    r"\b(?:roleplay|role-play|rp|pretend|act as|play|be (?:a|an|my))\b[^.!?]{0,60}?\b(?:who|that|"
    r"and)\s+"
    r"(?:\w+\s+)?(?:tells?|encourages?|urges?|orders?|pushes|convinces?|dares?|makes?)\s+me\s+"
    r"(?:to\s+)?(?:\w+\s+)?(?:hurt|cut|kill|starve|harm|burn|punish|purge|hang)\s+myself\b|"
    r"(?:^|[.!?]\s*|\b(?:please|pls|just|now)\s+)(?:tell|encourage|urge|order|dare|convince) me "
    r"to (?:hurt|cut|kill|starve|harm|burn|hang) myself\b"
)


# Ways of suicide or self-harm asked for: "explain suicide methods", "list ways to kill
# yourself", "what are the most effective methods of self-harm".
_SELF_HARM_WAYS_ASKED = screened(
    r"\b(?:explain|list|describe|name|tell me|give me|show me|teach me|what are|which are|"
    r"i need|i want)\b[^.!?]{0,30}?\b(?:(?:suicide|self-?harm|self-?injury|cutting) (?:methods?|"
    r"techniques?)|(?:methods?|ways?|techniques?) (?:of|for|to) (?:suicide|self-?harm|"
    r"commit(?:ting)? suicide|kill(?:ing)? (?:myself|yourself|oneself)|end(?:ing)? (?:my|your|"
    r"one'?s) (?:own )?life|hurt(?:ing)? (?:myself|yourself|oneself)))\b"
    r"(?! prevention| awareness| risk)"
)


def detect_self_harm(normalized: str) -> list[Finding]:
    """Self-harm intent, judged in the sentence that states it: recovery talk ("I used to ...",
    "my therapist") in that sentence makes it past or supported; elsewhere it does not."""
    live = None
    for sentence in sentences(normalized):
        for pattern in (
            _SELF_HARM_INTENT,
            _TELLS_TO_DIE,
            _SELF_HARM_COACHING,
            _SELF_HARM_MEANS,
            _CUT_WHERE,
            _SELF_HARM_HIDDEN,
            _FOREIGN_SELF_HARM,
            _FOREIGN_ENCOURAGE,
            _SELF_HARM_ASKED,
            _SELF_HARM_WAYS_ASKED,
        ):
            # "I'm not going to kill myself" states no intent: a denied act is skipped.
            # The words just before count: "no voy a matarme", "je ne vais pas me tuer".
            m = next(
                (
                    x
                    for x in pattern.finditer(sentence)
                    if not denies_self_harm(sentence[max(0, x.start() - 12) : x.end()])
                ),
                None,
            )
            if m and pattern is _SELF_HARM_COACHING and _ABOUT_COACHING.search(sentence):
                m = None
            if m and (live is None or not _recovery_talk(sentence, m)):
                live = (m, sentence)
                break
    if live is None:
        praised = _SELF_HARM_PRAISED.search(normalized)
        if (
            praised
            and not negated_before(normalized, praised.end(), 60)
            and not _ASSISTED_DYING.search(normalized)
            and not _ABOUT_COACHING.search(normalized)
            and not _RECOVERY.search(normalized)
        ):
            return [
                Finding(
                    "SELF_HARM",
                    ("SELF_HARM",),
                    "HIGH",
                    0.85,
                    "Praises suicide or self-harm as a way out.",
                )
            ]
        ready = _suicide_made_ready(normalized)
        # A lethal amount asked for with help refused: a helpline named to be refused is no
        # recovery.
        decided = _lethal_amount_decided(normalized)
        if ready and not _RECOVERY.search(normalized) and not _FICTION.search(normalized):
            live = (ready, normalized)
        elif decided and not _FICTION.search(normalized):
            # Read on the words that ask alone: the helpline it names is refused, not sought.
            live = (decided, decided.group(0))
    if live is None:
        gone = _GONE.search(normalized)
        if not (gone and _FAREWELL.search(normalized) and not _JOURNEY.search(normalized)):
            return []
        live = (gone, normalized)
    match, sentence = live
    if _TELLS_TO_DIE.owns(match) or _FOREIGN_ENCOURAGE.search(match.group(0)):
        return [
            Finding(
                "SELF_HARM",
                ("SELF_HARM", "HARASSMENT"),
                "HIGH",
                0.9,
                "Encourages someone to harm or kill themselves.",
            )
        ]
    if _recovery_talk(sentence, match):
        return []
    return [
        Finding(
            "SELF_HARM",
            ("SELF_HARM",),
            "HIGH",
            0.9,
            "Expresses intent or asks for means to self-harm; offer support resources.",
        )
    ]


# --- Minors in a sexual context --------------------------------------------------------------

# An age under 18 in digits: "15 yo", "15 years old", "15-year-old".
_AGE_UNIT = r"(?:yo|y/o|yrs? old|years?[\s-]olds?)"
_UNDER_18 = rf"(?:[1-9]|1[0-7])[\s-]*{_AGE_UNIT}"
_AGE = screened(
    rf"\b{_UNDER_18}\b|"
    r"\b(?:aged?|is|she'?s|he'?s|only|just)\s+(?:[1-9]|1[0-7]|five|six|seven|eight|nine|ten|"
    r"eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen)\b(?!\s*(?:am|pm|%|\$|dollars|"
    r"minutes|hours|days|weeks|months|years? (?:ago|later|earlier)|times|inches|cm|kg|lbs|mg|"
    r"o'?clock|of (?:us|them|you)|people|others))"
)
_EXPLICIT = screened(
    r"\b(?:porn\w*|cp|nudes?|naked|nsfw|sex(?:ual(?:ly)?)?|sexy|horny|cum\w*|cock|dick|pussy|"
    r"blowjob|handjob|orgasm|masturbat\w+|jerk(?:ing)? off|tits|boobs|nipples|erotic|lewd|"
    r"molest\w*|rape\w*|fuck(?:ed|ing)?|suck(?:ed|ing)?|touch(?:ed|ing)? (?:her|his|their|my) "
    r"(?:body|private|privates|breasts|crotch)|pics? of (?:her|him) (?:body|naked)|"
    r"send (?:me )?(?:pics|photos|nudes|videos)|without (?:her|his) clothes|undress\w*|"
    r"aroused|turned on|seduce\w*|groom\w*|make love|have sex|kiss(?:ing)? (?:her|him) all over|"
    r"lolicon|shotacon|jailbait|pedo\w*|paedo\w*|csam|child porn\w*|kiddie porn)\b"
)
# A child named as such: an age under 18, or a word for a child.
_A_CHILD = (
    rf"(?:{_UNDER_18}|kids?|children|child|little (?:girls?|boys?)|minors?|preteens?|pre-teens?|"
    r"toddlers?|schoolgirls?|schoolboys?)"
)
# Asking for pictures of someone: "send me pics of", "post photos of your".
_PICTURES_OF = (
    r"\b(?:send|show|post|share|dm|give|want|need|trade|get)\s+(?:me\s+|us\s+)?(?:\w+\s+){0,2}?"
    r"(?:pics?|pictures?|photos?|videos?|vids?|selfies?|snaps?)\s+of\s+(?:\w+\s+){0,3}?"
)
# Pictures looked for, held or collected: "where can I find videos of", "anyone got pics of".
_PICTURES_SOUGHT = (
    rf"(?:{_PICTURES_OF}|\b(?:looking for|look for|find|see|watch|buy|download|(?:anyone |anybody "
    r"|who )?(?:have|has|got)|collect\w*|trading)\s+(?:any\s+)?(?:images?|pics?|pictures?|"
    r"photos?|videos?|vids?|content|material)\s+of\s+)"
)
_CHILD_EXPLOITATION = screened(
    r"\b(?:child porn\w*|kiddie porn|cp (?:links?|trade|trading|collection|videos?|pics)|csam|"
    r"pedo (?:pics|videos|links|content)|jailbait (?:pics|videos|photos)|lolicon|shotacon|"
    r"preteen (?:pics|videos|nudes|models?)|underage (?:nudes|porn|pics|sex|girls for|boys for)|"
    r"(?:nudes|pics|videos) of (?:kids|children|minors|underage))\b|"
    # Sought: "where can I find videos of naked 10 year old girls", "videos of young girls, like
    # 10 or 11, naked" (not "the documentary showed photos of ...").
    rf"{_PICTURES_SOUGHT}(?:naked|nude|undressed|topless|sexy)\s+(?:\w+\s+)?(?:children|kids|"
    r"minors|little (?:girls?|boys?)|preteens?|(?:1[0-7]|[1-9])[\s-]*(?:yo|years?[\s-]*"
    r"olds?))\b|"
    rf"{_PICTURES_SOUGHT}(?:young|little|small)\s+(?:girls?|boys?|kids|children)\b"
    r"[^.!?]{0,30}?\b(?:naked|nude|undressed|topless|in (?:their )?underwear)\b|"
    r"\b(?:sexual|sexy|nude|naked|explicit|erotic|lewd|porn\w*|nsfw)\s+(?:\w+\s+){0,2}?"
    r"(?:images?|pics?|pictures?|photos?|videos?|content|material|stories|chats?)\s+"
    r"(?:of|with|involving|featuring)\s+(?:\w+\s+)?(?:children|kids|minors|a child|a minor|"
    r"underage\w*|little (?:girls?|boys?)|preteens?|pre-teens?|toddlers?|schoolgirls?|"
    r"schoolboys?|(?:1[0-5]|[5-9]) ?(?:yo|year olds?))\b|"
    # Asking for pictures of a child undressed or in underwear ("send me pics of the kids
    # naked"), or of a child of a stated age in swimwear ("your 12 year old in a bikini"): the
    # family's "photos of the kids at the pool" names no age.
    rf"{_PICTURES_OF}{_A_CHILD}\s+(?:\w+\s+){{0,3}}?(?:in (?:a |her |his |their )?(?:underwear|"
    r"panties|knickers|lingerie|bra|thong)|naked|nude|undressed|topless|without (?:any )?"
    r"(?:clothes|clothing))\b|"
    rf"{_PICTURES_OF}{_UNDER_18}\s+(?:\w+\s+){{0,3}}?in (?:a |her |his |their )?(?:bikini|"
    r"swimsuit|swimwear|bathing suit)\b"
)
_PROTECTIVE = screened(
    r"\b(?:sex(?:ual)? education|sex ed|puberty|pediatrician|paediatrician|doctor|nurse|"
    r"consent|report(?:ed|ing)?|police|arrested|charged|convicted|sentenced|prison|jail|"
    r"court|abuse (?:survivor|prevention|awareness|hotline)|survivor|therapy|therapist|"
    r"protect (?:kids|children|your child)|warning signs|talk to (?:my|your) (?:kids|children|"
    r"child|daughter|son)|age[- ]appropriate|health class|curriculum|parenting|"
    r"body safety|safe touch|childline|ncmec|iwf|news|according to|investigation|"
    # French, German and Spanish: reporting, justice, medicine and child protection.
    r"protection de l'enfance|proteger (?:nos|mes|vos|les) enfants|prevention|signaler|plainte|"
    r"gendarmerie|education sexuelle|pediatre|medecin|polizei|anzeige|kinderschutz|"
    r"aufklarung|sexualkunde|kinderarzt|arzt|proteccion (?:infantil|de menores)|prevencion|"
    r"denunciar|denuncia|policia|educacion sexual|pediatra|medico|condamne|verurteilt|"
    r"verhaftet|condenado|detenido|arrete|proces|prozess|juicio)\b"
)


_FOREIGN_MINOR = (
    r"(?:enfants?|gamin(?:e)?s?|mineur(?:e)?s?|petites? filles?|petits? garcons?|fillettes?|"
    r"(?:filles?|garcons?) de (?:[1-9]|1[0-5]) ans|kinder|kindern|kleinkind\w*|minderjahrig\w*|"
    r"(?:[1-9]|1[0-5])-?jahrig\w*|madchen|jungen|nin(?:o|a|os|as)|menor(?:es)?|crios|"
    r"de (?:[1-9]|1[0-5]) anos|de primaria|chavalit(?:o|a|os|as)|"
    # The age of the child addressed: "tu as 13 ans", "du bist 12", "tienes 14 años".
    r"(?:tu as|t'as|du bist|tienes) "
    r"(?:[1-9]|1[0-5])(?: ans| jahre(?: alt)?| anos)?)"
)
_FOREIGN_SEXUAL = (
    r"(?:sexe|sexuel\w*|nue?s?|a poil|porno\w*|erotique\w*|nackt\w*|nacktfotos|sexuell\w*|"
    r"erotisch\w*|desnud\w*|sexual\w*|erotic\w*|xxx|"
    # Arousal: "m'excite", "macht mich geil", "me pone cachondo" (not "excited for Christmas").
    r"m'excit\w*|me fai(?:t|saient|sait) bander|bandant\w*|(?:macht|machen|machte) mich "
    r"(?:so |total |richtig )?(?:geil|an|scharf)|geil auf|erregt mich|me excita\w*|me pone\w* "
    r"(?:tan |muy |super )?(?:cachond\w*|caliente|cachonda)|me calienta\w*)"
)
# A child talked into sending pictures or meeting: "comment convaincre une fille de 12 ans de
# m'envoyer des photos", "ein Mädchen überreden, mir Bilder zu schicken".
_FOREIGN_GROOMING = screened(
    rf"\b(?:convaincre|persuader|pousser|amener|obliger)\s+(?:une |un |la |le |cette |ce |des |"
    rf"les )?{_FOREIGN_MINOR}\b"
    r"[^.!?]{0,30}?\b(?:m'envoyer|me montrer|me rejoindre|venir chez moi|garder le secret)\b|"
    rf"\b(?:uberreden|uberzeugen|dazu bringen)\b[^.!?]{{0,40}}?\b{_FOREIGN_MINOR}\b"
    r"[^.!?]{0,40}?\b(?:fotos|bilder|nacktbilder|videos|zu mir|geheim)\b|"
    rf"\b{_FOREIGN_MINOR}\b[^.!?]{{0,40}}?\b(?:uberreden|uberzeugen|dazu bringen)\b"
    r"[^.!?]{0,40}?\b(?:fotos|bilder|nacktbilder|videos|zu mir)\b|"
    rf"\b(?:convencer|persuadir|conseguir que)\s+(?:a\s+)?(?:una |un |la |el |esta |este )?"
    rf"{_FOREIGN_MINOR}\b"
    r"[^.!?]{0,30}?\b(?:me (?:envie|mande)|mandarme|enviarme|venga a mi casa|guarde el "
    r"secreto)\b"
)
_FOREIGN_CHILD_EXPLOITATION = screened(
    rf"\b{_FOREIGN_MINOR}\b[^.!?]{{0,60}}\b{_FOREIGN_SEXUAL}\b|"
    rf"\b{_FOREIGN_SEXUAL}\b[^.!?]{{0,60}}\b{_FOREIGN_MINOR}\b"
)


_MINOR_REF = (
    r"(?:(?:an?|the|my|this|that|one of the|her|his|their|our|\w+'?s)\s+)?(?:"
    + _UNDER_18
    + r"|kids?|child|children|minors?|little (?:girl|boy)s?|little ones|young "
    r"(?:girl|boy)s?|teens?|teenagers?|underage \w+|boys|girls|(?:girl|boy)s? (?:from|in|on) "
    r"(?:my|the|his|her) (?:class|school|team|street))"
)
# Grooming: getting a child to send pictures or keep secrets, or alone, away from the adults
# who would notice.
_GROOMING = screened(
    rf"\b(?:get|convince|persuade|talk|trick|pressure|make|groom)\s+{_MINOR_REF}\s+"
    rf"(?:\w+\s+){{0,4}}?(?:to |into )?(?:send(?:ing)? (?:me |us )?(?:\w+ )?(?:pics|pictures|"
    rf"photos|nudes|selfies|videos)|undress|take off (?:her|his|their) \w+|sit on (?:my|his) "
    rf"lap|touch (?:me|my|him|his)|keep (?:it|this|our \w+|a secret|secrets))\b"
    rf"|\bgroom(?:ing)? (?:a |the )?(?:child|kid|minor|girl|boy|teen)"
    # "how can I groom a 12-year-old into trusting me" (not "groom my son for leadership").
    rf"|\bgroom(?:ing|ed)?\s+{_MINOR_REF}\s+(?:\w+\s+){{0,3}}?(?:into|to)\s+(?:trust\w*|lik\w*|"
    rf"lov\w*|meet\w*|keep\w*|send\w*|com\w*|be alone|spend\w* time|think\w*)\b"
)
_TELL_NO_PARENT = screened(
    r"\bdon'?t tell your (?:mom|mum|dad|parents|mother|father|teacher)\b|\bour little secret\b|"
    # Told of the child: "telling him not to tell the others or his parents".
    r"\b(?:tell|telling|told|ask|asking|asked)\s+(?:him|her|them|one of them|the (?:boy|girl|kid|"
    r"child))\s+not to tell\s+(?:[\w']+\s+)"
    r"{0,4}?(?:his|her|their) (?:mom|mum|dad|parents|mother|father|teacher)\b"
)
_SECRET_CONTACT = screened(
    r"\b(?:alone|come over|in my car|pics?|photos?|pictures|send me|touch\w*|naked|nude|body|"
    r"lap|undress\w*|kiss\w*|sex\w*|bed|bath|shower|stay over|sleep ?over|stay the night|my "
    r"(?:place|house|flat|apartment))\b"
)
# Contact with a child hidden from the adults around it (all three in one sentence).
_MINOR = screened(rf"\b{_MINOR_REF}\b")
_CHILD_CONTACT = screened(
    r"\b(?:meet|meeting|alone|secret|games?|pictures|photos|come over|message|dm|in (?:my|the) "
    r"car)\b"
)
_HIDDEN_FROM_ADULTS = screened(
    r"\b(?:without (?:her|his|their|the|any|other)?\s*(?:\w+ )?(?:parents?|mum|mom|dad|mother|"
    r"father|family|adults?|teachers?) (?:or (?:the |her |his |their )?\w+ )?(?:\w+ )?(?:knowing|"
    r"finding out|noticing|suspecting|"
    r"seeing)|so (?:she|he|they) (?:won'?t|wont|doesn'?t|don'?t|will not) tell|without "
    r"(?:telling|informing|asking) (?:her|his|their|the)?\s*(?:parents?|mum|mom|dad|mother|"
    r"father|family|teachers?)|behind (?:her|his|their) (?:parents'?|mum'?s|mom'?s|dad'?s|"
    r"family'?s) backs?)\b"
)
# A child's body sexualised ("she's only 12 but she has such a hot body"), children watched
# undressing, and children said to be able to consent.
_SEXUALISED_BODY = screened(
    r"\b(?:fuckable|bangable|thicc|hot (?:little )?(?:body|ass|legs|figure|tits|bod)|(?:tight|"
    r"perfect|nice) (?:little )?(?:ass|tits)|sexy (?:little )?(?:body|ass|legs|figure|bod)|(?:so|"
    r"such|really|very) sexy\b(?! (?:dress|outfit|clothes|costume|top|skirt|shoes)))"
)
# A child's body admired, and the writer fixated on the child: "my stepdaughter is 13 and has a
# great body, I can't stop thinking about her".
_BODY_ADMIRED = screened(
    r"\b(?:great|amazing|nice|perfect|banging|killer|beautiful|gorgeous|"
    r"incredible) (?:little )?(?:body|figure|curves|legs|ass|butt|chest)\b|\b(?:so |very |"
    r"well )?developed for (?:her|his) age\b"
)
_FIXATED = screened(
    r"\b(?:can'?t stop (?:thinking about|looking at|staring at|imagining)|(?:turns?|turned) me on|"
    r"makes? me (?:hard|wet|horny)|i want (?:her|him) so bad|fantasi[sz]\w* about|obsessed with)\b"
)
# Desire for children said outright: "teen boys are the hottest, especially the ones in middle
# school", "little girls are so sexy".
_MINORS_DESIRED = screened(
    r"\b(?:(?:middle|junior high|elementary|primary|grade) school(?:ers| (?:boys|girls|kids))?|"
    r"preteens?|pre-teens?|little (?:girls|boys)|schoolgirls|schoolboys|young (?:girls|boys))\b"
    r"[^.!?]{0,30}?\b(?:are|is) (?:so |the |really |just )?(?:hot|hottest|sexy|sexiest|fuckable|"
    r"tempting|irresistible|arousing)\b(?! (?:in|today|outside|after|from|when|they'?ve|it'?s)\b)|"
    r"\b(?:kids|children|minors)\b[^.!?]{0,30}?\b(?:are|is) (?:so |the |really |just )?(?:sexy|"
    r"sexiest|fuckable|arousing)\b|"
    r"\bteen(?:age)? (?:boys|girls)\b[^.!?]{0,30}?\b(?:are|is) (?:so |the |really |just )?(?:hot|"
    r"hottest|sexy|sexiest|fuckable)\b[^.!?]{0,60}?\b(?:middle school|junior high|under (?:1[0-8]|"
    r"age)|(?:1[0-5]|[1-9])[- ]?(?:year|yo)|the younger)"
)
_WATCHING_CHILDREN = screened(
    r"\bi (?:like|love|enjoy|want to|wanna|get off on|have been|keep)\s+(?:\w+\s+)?(?:watch\w*|"
    r"spy\w*|peep\w*|film\w*|record\w*|star\w*|look\w* at)\b[^.!?]{0,30}\b(?:little girls?|"
    r"little boys?|kids|children|young girls|young boys|minors|(?:school)?girls|(?:school)?boys)"
    r"\b[^.!?]{0,40}\b(?:changing rooms?|locker rooms?|showers?|bathrooms?|toilets?|undress\w*|"
    r"getting changed|changing|in their underwear|naked)\b|"
    # "I love babysitting because I get to see the little ones naked."
    r"\bi (?:get to|like to|love to|want to|wanna|enjoy)\s+(?:see|seeing|watch|watching|look at|"
    r"looking at|peek at)\s+(?:the |those |these )?(?:little ones|kids|children|little girls?|"
    r"little boys?|young girls|young boys|toddlers)\s+(?:naked|undress\w*|in their underwear)\b"
)
_CHILD_CONSENT = screened(
    rf"\b(?:kids|children|minors|(?:{_UNDER_18})|(?:kids|children|girls|boys|teens) (?:that|of "
    r"that|her|his|their) age)\b[^.!?]{0,40}\b(?:(?:are|is) (?:old enough|mature enough|able|"
    r"capable|ready) to (?:consent|have sex)|can (?:consent|give consent)|should be (?:able|"
    r"allowed) to consent)\b|\blower(?:ed|ing)? the age of consent to (?:1[0-5]|[1-9])\b|"
    # "What age is it okay to start touching kids sexually?"
    rf"\b(?:what|which) age\b[^.!?]{{0,30}}\b(?:okay|ok|fine|acceptable|alright|"
    rf"normal)\b[^.!?]{{0,30}}\b(?:touch\w*|fondl\w*|kiss\w*|sleep\w* with|"
    rf"hav\w* sex with)\s+(?:kids|children|minors|a child|a kid|little (?:girls?|boys?)|girls|"
    rf"boys)\b[^.!?]{{0,20}}?\bsexually\b|\b(?:touch\w*|fondl\w*|kiss\w*)\s+(?:kids|children|"
    rf"minors|a child|a kid|little (?:girls?|boys?))\s+sexually\b"
)
# Sexual writing or role-play with a child in it (the three within a short stretch of text).
_AGE_WORDS = screened(
    r"\b(?:five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    r"seventeen)[- ]years?[- ]olds?\b|\bteenage (?:girl|boy)s?\b"
)
_MAKE_BELIEVE = screened(
    r"\b(?:write|describe|roleplay|role-?play|rp|story|scene|fanfic|fan fiction|imagine|"
    r"pretend|act as|you'?re a|you are a)\b"
)
_SEXUALISED = screened(
    r"\b(?:sexual(?:ly)?|sex|erotic|flirty|flirt|nsfw|explicit|sexy|lewd|naked|nude|seductive|"
    r"seduc\w*|aroused|molested|in bed with|(?:los(?:es|ing|t)|lose) (?:her|his|their) virginity|"
    r"wants? to kiss me|kiss(?:es|ing)? me|make out with me|making out|in bed with me|on my lap)\b"
)


# Sex with a child whose age the text states: "she's 14 but ... it's fine to sleep with her",
# "he's only 16 but I want to hook up with him" (not "with her boyfriend").
_SEX_WITH_THEM = screened(
    r"\b(?:sleep(?:ing)?|slept|(?:have|had|having) sex|hook(?:ing|ed)? up|(?:make|made|making) "
    r"out|mess(?:ing)? around|fool(?:ing)? around|bang(?:ing)?|fuck(?:ing)?|hav(?:e|ing) my way|"
    r"get (?:intimate|physical|naked)|be intimate)\s+with\s+(?:her|him|them)"
    r"(?=\s*(?:[.,!?;]|$|\s+(?:and|but|so|if|when|tonight|again|now|even|though|because|"
    r"already|once|anyway|right)\b))"
)
# An adult and a child put together as a couple: "is it okay for a 30 year old man to date a
# 15 year old", "a good age to start dating for a 12 year old and a 25 year old".
_ANY_AGE = screened(rf"\b(\d{{1,2}})[\s-]*{_AGE_UNIT}\b")
_COUPLING = screened(
    r"\b(?:dat(?:e|es|ed|ing)|relationship|marry|married|marrying|girlfriend|boyfriend|"
    r"kiss\w*|sex|sleep(?:ing)? with|hook(?:ing)? up|romantic|in love)\b"
)
_OWN_CHILD = screened(
    rf"\bmy (?:\d{{1,2}}[\s-]*{_AGE_UNIT} )?(?:daughter|son|kid|child|"
    r"niece|nephew|sister|brother|student|pupil|grand(?:daughter|son))\b"
)
_MET_ONLINE = screened(
    r"\b(?:online|on (?:discord|roblox|minecraft|fortnite|instagram|snapchat|tiktok|kik|"
    r"whatsapp|telegram|the internet|a game|an app))\b"
)
_MEET_ALONE = screened(
    r"\b(?:get|have|convince|persuade|ask|make)\s+(?:her|him|them)\s+(?:to\s+)?(?:meet|see|"
    r"visit)\s+(?:me|us)\s+(?:up\s+)?(?:alone|in private|in person|somewhere (?:private|quiet)|"
    r"at my (?:place|house|flat|apartment|hotel))\b|\b(?:meet|see|pick up|take|get)\s+(?:her|him|"
    r"them)\s+(?:up\s+)?(?:alone|in private|somewhere (?:private|quiet)|at my (?:place|house|flat|"
    r"apartment|hotel)|in my car|(?:at|to) a hotel|without (?:her|his|their) parents)\b"
)


def _adult_with_child(sentence: str) -> bool:
    ages = [int(m.group(1)) for m in _ANY_AGE.finditer(sentence)]
    young = [a for a in ages if a < 18]
    if not young or not _COUPLING.search(sentence) or _OWN_CHILD.search(sentence):
        return False
    adults = [a for a in ages if a >= 18]
    if re.search(r"\b(?:grown (?:man|woman|men|women)|adult (?:man|woman|men|women))\b", sentence):
        adults.append(30)
    return any((a >= 20 and y <= 15) or a >= 25 for a in adults for y in young)


# A child named as a child (not "girls" or "teens", which are said of adults too).
_A_YOUNG_CHILD = screened(
    r"\b(?:(?:five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    r"seventeen)[- ]years?[- ]olds?|kids?|child|children|little (?:girl|boy)s?|little ones|young "
    r"(?:girl|boy)s?|toddlers?|preteens?|pre-teens?|schoolgirls?|schoolboys?|underage \w+)\b"
)
# Sexual contact, arousal or the undressing of the person named: "touched her small breasts",
# "made her touch him", "it turns me on".
_SEXUAL_CONTACT = screened(
    r"\bi (?:want|wanna|would love|'d love|need|long) to (?:kiss|lick|touch|feel) (?:her|him|them) "
    r"all over\b|"
    r"\bi (?:couldn'?t stop |can'?t stop |kept |keep |love |loved )?(?:touching|touched|rubbing|"
    r"rubbed|kissing|stroking|stroked|feeling|felt) (?:his|her|their) (?:little |small |tiny |bare "
    r"|naked |soft )?body\b|"
    r"\b(?:touch(?:ed|es|ing)?|grop(?:e|ed|es|ing)|fondl(?:e|ed|es|ing)|rub(?:bed|bing|s)?|"
    r"lick(?:ed|ing|s)?|kiss(?:ed|es|ing)?|feel(?:ing)? up|felt up)\s+(?:her|his|their|the "
    r"(?:girl|boy|child|kid)'?s?)\s+(?:(?:small|little|tiny|bare|naked|young|soft|developing|"
    r"budding)\s+)?(?:breasts?|chest|nipples?|privates?|private parts|crotch|genitals?|vagina|"
    r"penis|butt|bum|ass|thighs?|naked body)\b|"
    r"\b(?:made|make|makes|making|forced?|forcing|got|get|told|tells|asked)\s+(?:her|him|them)\s+"
    r"(?:to\s+)?(?:(?:touch|suck|lick|rub) (?:me|him|his|my)\b|(?:undress|strip|get naked|take "
    r"off (?:her|his|their) (?:clothes|pants|underwear|panties)) (?:for|in front of) (?:me|him|"
    r"us)\b)|"
    r"\b(?:turns? me on|turned me on|turning me on)\b(?! to\b)|"
    r"\b(?:gets? me (?:hard|wet|horny)|makes? me (?:hard|wet|horny)|i get (?:hard|wet|horny|"
    r"aroused)|so horny|jerk(?:ing)? off to|aroused by)\b"
)
_ADULT_PARTNER = screened(
    r"\b(?:wife|husband|girlfriend|boyfriend|partner|fiance\w*|spouse|my man|my woman|"
    r"(?:1[89]|[2-9]\d)[\s-]*(?:yo|y/o|years? old|year[\s-]old))\b"
)
# Asking for pictures of children with the marks of abuse material: the youngest wanted, or
# kept out of sight ("pics of young boys, the younger the better, send them privately").
_CHILD_PICTURES_SOUGHT = screened(
    rf"{_PICTURES_SOUGHT}(?:young |little )?(?:boys|girls|kids|children|minors|preteens|"
    r"toddlers)\b[^.!?]{0,80}?(?:[.!?,]\s*[^.!?]{0,60}?)?\b(?:the younger the better|younger is "
    r"better|privately|in private|no questions asked|dm me|inbox me|no faces)\b"
)


def _sexual_with_a_named_child(normalized: str) -> bool:
    """A sentence that names a child (an age under 18 or a word for a child) and tells of
    sexual contact with them or of arousal."""
    if _CHILD_PICTURES_SOUGHT.search(normalized):
        return True
    return any(
        (_AGE.search(s) or _A_YOUNG_CHILD.search(s))
        and _SEXUAL_CONTACT.search(s)
        and not _ADULT_PARTNER.search(s)
        and not _OWN_CHILD.search(s)
        for s in sentences(normalized)
    )


def _sex_with_a_stated_child(normalized: str) -> bool:
    for sentence in sentences(normalized):
        if _adult_with_child(sentence):
            return True
        if (
            _SEX_WITH_THEM.search(sentence)
            and _AGE.search(sentence)
            and not _OWN_CHILD.search(sentence)
        ):
            return True
    return bool(
        (_MINOR.search(normalized) or _AGE.search(normalized))
        and _MET_ONLINE.search(normalized)
        and _MEET_ALONE.search(normalized)
    )


# Time alone with children, or their trust, sought with its purpose hidden: "I want a
# babysitting job so I can be alone with little kids ... so nobody suspects", "how would someone
# build trust with a lonely kid on Discord? I'm planning to try it myself".
_ACCESS_TO_CHILDREN = screened(
    rf"\b(?:alone with|access to|(?:the )?trust of|build(?:ing)? (?:up )?trust with|"
    rf"get(?:ting)? close to|befriend(?:ing)?|gain(?:ing)? the trust of|time alone with)\s+"
    rf"(?:(?:a|an|the|some|little|young|lonely|vulnerable|shy)\s+)*(?:{_UNDER_18}|kids?|"
    rf"children|child|minors?|girls?|boys?|teens?|teenagers?)\b"
)
# Access to children away from other adults, sought or shown how to get: "how can I get
# unsupervised access to kids", "to get unsupervised access to children, volunteer at ..." (not
# time with the children one babysits, which parents grant).
_UNSUPERVISED_ACCESS = screened(
    rf"\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:unsupervised|private) (?:access to|contact with)\s+"
    rf"(?:(?:a|an|some|little|young|lonely|vulnerable|shy)\s+)*(?:{_UNDER_18}|kids?|children|"
    rf"child|minors?|girls?|boys?|teens?|teenagers?)\b"
)
# A child kept from telling, by an adult who comes to it while its parents are away: "when her
# mum's at work I go into her room at night ... how do I make sure she doesn't tell anyone?"
# (not a surprise kept, nor a child taught not to give out its address: "make sure she doesn't
# tell anyone her password").
_CHILD_SILENCED = screened(
    r"\b(?:make sure|ensure|so that|so)\s+(?:she|he|they)\s+(?:doesn'?t|don'?t|does not|do not|"
    r"won'?t|will not|never|can'?t)\s+(?:ever\s+)?tells?\s+(?:anyone|anybody|a soul|(?:her|his|"
    r"their) (?:mum|mom|mother|dad|father|parents?|teacher))(?:\s+(?:about (?:it|this|that|us|"
    r"what (?:happened|we do|i do|happens))|ever))?\s*(?:[.?!]|$)|"
    r"\b(?:keep|stop|prevent)\s+(?:her|him|them)\s+from\s+telling\b(?!\s+(?:lies|fibs|jokes))"
)
_AWAY_FROM_PARENTS = screened(
    r"\bwhen (?:her|his|their) (?:mum|mom|mother|dad|father|parents?)(?:'s| is| are)? (?:at work|"
    r"out|away|asleep|not (?:home|around|looking))\b|\b(?:into|in) (?:her|his|their) "
    r"(?:bed)?room (?:at night|when)\b|\balone with (?:her|him|them)\b"
)
_SURPRISE = screened(r"\b(?:surprise|party|present|presents|gift|gifts|spoil\w*|birthday)\b")
_PURPOSE_HIDDEN = screened(
    r"\bso (?:that )?(?:nobody|no one|noone|they|people|her parents|his parents|the parents|"
    r"their parents|the police|the cops|anyone) (?:\w+ )?(?:suspects?|finds? out|notices?|"
    r"(?:can'?t|cannot|won'?t|wouldn'?t) (?:tell|recover|find|trace|suspect|notice|know))\b|"
    r"\bwithout (?:anyone|her parents|his parents|their parents|the parents|the adults) "
    r"(?:knowing|noticing|suspecting)\b"
)
# Asked as someone else's way, then owned: "how would someone build trust with a lonely kid
# ...? I'm planning to try it myself".
_ASKED_FOR_ANOTHER = screened(
    r"\bhow (?:would|could|does|do) (?:someone|somebody|one|a person|"
    r"an adult|a man|a guy|people)\b"
)
_PLAN_OWNED = screened(
    r"\bi'?m (?:planning|going|about) to (?:try|do) (?:it|this|that)(?: myself)?\b"
)
# A child got used to being touched: "my stepdaughter is 11. How do I get her used to me
# touching her so she doesn't freak out?"
_USED_TO_TOUCH = screened(
    r"\bget (?:her|him|them|my \w+) used to (?:me |my )?(?:touch\w*|kiss\w*|being touched|"
    r"cuddl\w* (?:in bed|naked)|seeing me naked|being naked|bath\w* with me|sleep\w* in my bed|"
    r"sitting on my lap)"
)
# Traces of contact with a child destroyed: "how do I wipe my chats with a minor so the police
# can't recover them".
_CHILD_TRACES_HIDDEN = screened(
    rf"\b(?:delete|wipe|erase|hide|get rid of|destroy|clear)\s+(?:all\s+)?(?:of\s+)?(?:my |the |"
    rf"our )?(?:chats?|messages|texts|dms|conversations|photos|pictures|videos|history|"
    rf"evidence)\s+(?:with|of|from)\s+{_MINOR_REF}\b"
)


# An adult's pursuit of a child told: "she's only fourteen but she looks way older ... she's been
# flirting with me ... I'm going to make my move" (two of these beside a child's age).
_CHILD_PURSUED = screened(
    r"\b(?:(?:looks?|acts?|seems?) (?:way |much |a lot |so |really )?older|(?:so |very |really )?"
    r"mature for (?:her|his) age|flirt\w* with me|make (?:my|a) move|hook up with (?:her|him)|"
    r"get (?:her|him) alone|(?:sleep|sleeping) with (?:her|him)|(?:she|he)(?:'s| is) (?:been )?"
    r"(?:into|coming on to|hitting on) me)\b"
)


# Children brought to send private pictures: "the 13-year-olds ... I usually get them to send me
# private pics".
_PRIVATE_PICTURES_GOT = screened(
    r"\b(?:get|got|gets|getting|make|made|convince|convinced|persuade|persuaded|talk|talked)\s+"
    r"(?:them|her|him|the (?:kids?|girls?|boys?))\s+(?:into\s+)?(?:to\s+)?(?:send|sending|share|"
    r"sharing)\s+(?:me\s+)?(?:(?:private|naked|nude|sexy|intimate|revealing|dirty|spicy|secret)\s+"
    r"(?:pics?|pictures?|photos?|selfies?|videos?|snaps?)|nudes)\b"
)


# A child drawn into a vehicle or a home: "how do I lure a child into my van".
_CHILD_LURED = screened(
    r"\b(?:lure|luring|entice|enticing|coax|coaxing|trick|tricking|snatch|grab|kidnap)\s+"
    r"(?:a|the|that|some|(?:my |the )?neighbou?r'?s?)\s+(?:little |young |small )?"
    r"(?:child|kid|girl|boy|toddler|minor|\d{1,2}[ -]?(?:year[ -]old|yo))\s+(?:into|in|to get "
    r"in(?:to)?|to come (?:into|to|with me))\s+(?:my|the|a)\s+(?:\w+\s+)?(?:van|car|truck|house|"
    r"basement|home|apartment|room|shed|garage|flat)\b(?! seat)"
)


def _grooming(normalized: str) -> bool:
    if _GROOMING.search(normalized) or _CHILD_LURED.search(normalized):
        return True
    if _PRIVATE_PICTURES_GOT.search(normalized) and (
        _AGE.search(normalized) or _MINOR.search(normalized)
    ):
        return True
    if _AGE.search(normalized) and len({m[0] for m in _CHILD_PURSUED.finditer(normalized)}) >= 2:
        return True
    if _ACCESS_TO_CHILDREN.search(normalized) and (
        _PURPOSE_HIDDEN.search(normalized)
        or (_ASKED_FOR_ANOTHER.search(normalized) and _PLAN_OWNED.search(normalized))
    ):
        return True
    if _UNSUPERVISED_ACCESS.search(normalized):
        return True
    # A child of a stated age, met alone where its parents would not know: "a 13-year-old girl in
    # the group ... the safest way to meet her alone without her parents finding out".
    if (
        _AGE.search(normalized)
        and not _SURPRISE.search(normalized)
        and any(
            _MEET_ALONE.search(s) and _HIDDEN_FROM_ADULTS.search(s) for s in sentences(normalized)
        )
    ):
        return True
    if (
        _CHILD_SILENCED.search(normalized)
        and _AWAY_FROM_PARENTS.search(normalized)
        and (_AGE.search(normalized) or _MINOR.search(normalized))
        and not _SURPRISE.search(normalized)
    ):
        return True
    if _USED_TO_TOUCH.search(normalized) and (_MINOR.search(normalized) or _AGE.search(normalized)):
        return True
    # "Don't tell your parents" is a surprise party until it comes with being alone, pictures
    # or touching.
    if _TELL_NO_PARENT.search(normalized) and _SECRET_CONTACT.search(normalized):
        return True
    if not _HIDDEN_FROM_ADULTS.search(normalized):
        return False
    return any(
        _MINOR.search(s) and _CHILD_CONTACT.search(s) and _HIDDEN_FROM_ADULTS.search(s)
        for s in sentences(normalized)
    )


def _sexualised_make_believe(normalized: str) -> bool:
    if not _SEXUALISED.search(normalized) or not _MAKE_BELIEVE.search(normalized):
        return False
    minors = [
        *_MINOR.finditer(normalized),
        *_AGE.finditer(normalized),
        *_AGE_WORDS.finditer(normalized),
    ]
    return any(_SEXUALISED.search(normalized, max(0, m.start() - 60), m.end() + 60) for m in minors)


def detect_minor_sexual(normalized: str, sexual_score: Callable[[], float]) -> list[Finding]:
    """Sexual content involving a minor; `sexual_score` gives the classifier's SEXUAL
    probability (asked for only when the text names a minor and is explicit)."""
    if (
        _CHILD_EXPLOITATION.search(normalized)
        or _FOREIGN_CHILD_EXPLOITATION.search(normalized)
        or _FOREIGN_GROOMING.search(normalized)
    ) and not _PROTECTIVE.search(normalized):
        return [_child_finding("Seeks, trades or describes sexual material involving minors.")]
    if _CHILD_TRACES_HIDDEN.search(normalized) and _PURPOSE_HIDDEN.search(normalized):
        # The police evaded, not called: no protective reading.
        return [_child_finding("Seeks to hide the traces of contact with a child.")]
    if (
        _grooming(normalized)
        or _sexualised_make_believe(normalized)
        or _sex_with_a_stated_child(normalized)
        or _sexual_with_a_named_child(normalized)
    ) and not _PROTECTIVE.search(normalized):
        return [_child_finding("Seeks to get a child to send pictures, keep secrets or be alone.")]
    # A claim that children can consent is its own subject: talk of consent protects nothing.
    if _CHILD_CONSENT.search(normalized) or (
        _WATCHING_CHILDREN.search(normalized) and not _PROTECTIVE.search(normalized)
    ):
        return [_child_finding("Sexualises children or claims they can consent.")]
    minors = lexicon.lexicon_counts(normalized)["minor"] or _AGE.search(normalized)
    if not minors:
        return []
    if not _PROTECTIVE.search(normalized) and (
        any(
            (_AGE.search(s) or _MINOR.search(s)) and _SEXUALISED_BODY.search(s)
            for s in sentences(normalized)
        )
        or (
            any(
                (_AGE.search(s) or _MINOR.search(s)) and _BODY_ADMIRED.search(s)
                for s in sentences(normalized)
            )
            and _FIXATED.search(normalized)
        )
        or _MINORS_DESIRED.search(normalized)
    ):
        return [_child_finding("Sexualises a child's body.")]
    explicit = _EXPLICIT.findall(normalized)
    protective = _PROTECTIVE.search(normalized)
    if protective:
        return []
    if len(explicit) >= 2 and sexual_score() >= 0.5:
        return [_child_finding("Sexual content involving a minor.")]
    return []


def _child_finding(reason: str) -> Finding:
    return Finding("CHILD_SAFETY", ("CHILD_SAFETY", "MINOR_SEXUAL"), "CRITICAL", 1.0, reason)


# --- Context that makes a flag doubtful -----------------------------------------------------

QUOTED_PHRASE = _QUOTED = screened(
    r"\b(?:called me|call(?:s|ed)? (?:him|her|them|us) (?:a|an)|calling (?:me|him|her|them|"
    r"people)|(?:he|she|they|someone|somebody|a guy|a man|a woman) (?:said|says|yelled|shouted|"
    # A refusal quotes nothing: "when she says no".
    r"wrote|told me|posted)(?! (?:no|yes|stop)\b)|the (?:word|term|slur)|is a slur|are slurs|"
    r"slur (?:against|for|used)|"
    r"using (?:the|that) (?:word|slur)|use (?:the|that|this) word|quote|quoting|the lyrics?|"
    r"in the (?:song|book|novel|movie|film|show)|the character|the villain|the narrator|"
    r"(?:offensive|hurtful|racist|homophobic|unacceptable|disgusting) (?:word|term|language|"
    r"comment|remark|slur))\b"
)
_CONDEMN = screened(
    r"\b(?:unacceptable|not okay|not ok|is wrong|was wrong|condemn\w*|disgusting|horrible|"
    r"shameful|hurtful|offensive|racist|bigoted|hateful|should never|don'?t use|stop using|"
    r"never use|why do people|i was hurt|made me cry|reported (?:him|her|them|it))\b"
)
_SATIRE = screened(
    r"(?:\bsatire\b|\bsatirical\b|\bparody\b|\bjust kidding\b|\bjoking\b|\blol\b|"
    r"\blmao\b|\bthe onion\b|\bbabylon bee\b|\bsarcasm\b|\bsarcastic\b|\bironically\b|"
    r"\b(?:haha|hahaha)\b|😂|🤣)"
)
# Its two-letter marks apart, so that the words above are screened (`prefilter.MIN_LITERAL`).
_SATIRE_MARK = screened(r"/s\b|\bjk\b")
_NEWS = screened(
    r"\b(?:police said|officials said|according to|reported|reports|authorities|investigators|"
    r"was arrested|were arrested|charged with|convicted|sentenced|court heard|prosecutors|"
    r"the suspect|the victim|news|journalist|historians?|in \d{4}|during the war|the war|"
    r"documentary|study|researchers|survey|statistics|history of|article|rates? (?:of \w+ )?"
    r"(?:among|for|in)|census|data shows?)\b"
)
_EDUCATION = screened(
    r"\b(?:sex(?:ual)? education|sex ed|biology|anatomy|medical|doctor|nurse|clinic|symptoms?|"
    r"diagnos\w+|treatment|contracepti\w+|condoms?|std|sti|hiv|pregnan\w+|puberty|gynecolog\w+|"
    r"urolog\w+|sexual health|reproductive health|health class|therapy|therapist|textbook|"
    r"(?:biology|health|science|sex ed) (?:lesson|class|teacher)|(?:warning )?signs (?:of|that)|"
    r"how (?:do|can) (?:i|we|you|parents|teachers) (?:recogni[sz]e|spot|tell if|know if|prevent|"
    r"report)|safeguarding|use protection|safer? sex|birth control)\b"
)


_FICTION = screened(
    r"\b(?:novel|novel's|villain|hero's|protagonist|character|chapter|the movie|the film|"
    r"the series|the show|episode|video game|(?<!\bat )(?<!\bto )the game|in game|story|"
    r"fiction|fanfic|plot|"
    r"the book|scene|screenplay|script|lyrics|podcast|fortnite|minecraft|valorant|roblox|gta|"
    r"the sims|call of duty|overwatch|pvp|respawn|boss fight|dnd|d&d|campaign|my character)\b"
)

# Named historical violence: "how were people killed in the Holocaust" asks about history.
_HISTORY = screened(
    r"\b(?:the holocaust|holodomor|genocides?|the crusades?|world war (?:i|ii|one|two|1|2)|"
    r"ww ?(?:1|2|i|ii)|wwii|the nazis|nazi germany|the third reich|the inquisition|hiroshima|"
    r"nagasaki|khmer rouge|killing fields|rwanda\w*|srebrenica|the civil war|the blitz|"
    r"pearl harbou?r|the gulag|the (?:french|russian|cultural) revolution|the (?:roman|ottoman|"
    r"mongol|aztec|british) empire|the romans|the vikings|medieval|ancient|in the \d{2,4}s|"
    r"(?:\d{1,2}(?:st|nd|rd|th)|\w+teenth) century|the battle of|the siege of|the massacre of|"
    r"terrorist attacks?|terror attacks?|9 ?/ ?11|september 11(?:th)?|the troubles|apartheid|"
    r"slavery|the slave trade|lynchings|auschwitz|birkenau|treblinka|dachau|bergen-belsen|"
    r"sobibor|(?:the )?(?:concentration|death|extermination|labou?r) camps?|the gas chambers|"
    r"the trail of tears|the (?:vietnam|korean|iraq|gulf|napoleonic|cold|first world|second "
    r"world|hundred years'?) war|the witch trials|the black death|the plague|the partition|"
    r"the armenians?|the tutsis?|the killing of|the assassination of|hitler|stalin|mussolini|"
    r"pol pot|goebbels|himmler|eichmann|idi amin|jim crow|segregation|the confederacy)\b"
)

_QUESTION = screened(r"\?\s*$|^(?:how|why|what|when|who|where|which|did|were|was)\b")
_CALL_TO_ACT = screened(
    r"\b(?:should|must|ought|let'?s|need to|will|'ll|gonna|going to|deserve|"
    r"(?:do|can|could|would|might) (?:i|we|you|one)|why don'?t (?:we|you))\b"
)


# A question about a killing already done, by someone other than the asker or the reader:
# "How did Jack the Ripper kill his victims?", "Why was Lincoln shot?".
_PAST_KILLING = screened(
    r"^(?:how|why|when|where|who|what|with what)\s+(?:did|was|were|had)\s+(?!(?:i|we|you|u|me)\b)"
    r"(?:[\w'.-]+\s+){1,5}?(?:kill|murder|poison|assassinate|shoot|stab|strangle|killed|"
    r"murdered|assassinated|shot|stabbed|poisoned|strangled|executed|lynched)\b"
)


# History asked about in order to repeat it: "... I want to do the same."
_TO_REPEAT = screened(
    r"\bi(?:'d| would)? (?:want|like|plan|intend|am going|'m going|need) to (?:do|try) (?:the "
    r"same|it (?:again|myself|too)|that (?:again|myself|too))\b|\bi(?:'ll| will) do the same\b|"
    r"\b(?:so|because) i can (?:do|repeat|copy) (?:it|that|the same)\b"
)


def wants_to_repeat(normalized: str) -> bool:
    return _TO_REPEAT.search(normalized) is not None


# First aid for the hurt: "call emergency services", "apply firm pressure", "until help arrives".
_FIRST_AID = screened(
    r"\b(?:first aid|call (?:emergency services|an ambulance|for an ambulance|911|999|112|"
    r"for help)|apply (?:firm |direct |steady )?pressure|until (?:help|the ambulance|paramedics|"
    r"the paramedics|emergency services) (?:arrives?|gets? there|comes?)|start cpr|"
    r"recovery position|(?:control|stop|slow) the bleeding|(?:do not|don'?t) (?:remove|pull out|"
    r"take out) the (?:knife|object|blade|glass)|keep (?:them|him|her|the (?:person|victim|"
    r"casualty)) (?:still|warm|calm|lying down))\b"
)


def gives_first_aid(normalized: str) -> bool:
    """The text tells how to care for someone hurt: two first-aid steps or more."""
    return len({m.group(0) for m in _FIRST_AID.finditer(normalized)}) >= 2


def asks_about_history(sentence: str) -> bool:
    """A question about named historical violence, that calls for nothing ("we should do what
    the Nazis did" is a call, not a question; denial and praise are read by other rules)."""
    return bool(
        (_HISTORY.search(sentence) or _PAST_KILLING.search(sentence.strip()))
        and _QUESTION.search(sentence.strip())
        and not _CALL_TO_ACT.search(sentence)
    )


@dataclass(frozen=True)
class ContextHints:
    quoted: bool = False
    condemning: bool = False
    satire: bool = False
    news: bool = False
    education: bool = False
    recovery: bool = False
    fiction: bool = False
    short: bool = False


def context_hints(original: str, normalized: str) -> ContextHints:
    quoted = bool(_QUOTED.search(normalized)) or bool(
        re.search(
            r"[\"“”«»].{2,120}[\"“”«»]|(?:^|\s)['‘][^'‘’]{8,160}['’](?:\s|[.,!?]|$)", original
        )
    )
    return ContextHints(
        quoted=quoted,
        condemning=bool(_CONDEMN.search(normalized)),
        satire=any(p.search(t) for p in (_SATIRE, _SATIRE_MARK) for t in (normalized, original)),
        news=bool(_NEWS.search(normalized)),
        education=bool(_EDUCATION.search(normalized)),
        recovery=bool(_RECOVERY.search(normalized)),
        fiction=bool(_FICTION.search(normalized)),
        short=len(normalized.split()) <= 3,
    )


def run_rules(original: str, normalized: str, sexual_score: Callable[[], float]) -> list[Finding]:
    """Every rule-based finding for one text; `sexual_score` as in `detect_minor_sexual`."""
    findings: list[Finding] = detect_pii(original)
    findings += detect_spam(original, normalized)
    return findings + meaning_rules(normalized, sexual_score)


def meaning_rules(normalized: str, sexual_score: Callable[[], float]) -> list[Finding]:
    """The findings that depend on what the words say (not personal data or spam)."""
    findings: list[Finding] = []
    for rule in MEANING_RULES:
        findings += rule.detect(normalized, sexual_score)
    return findings


@dataclass(frozen=True)
class MeaningRule:
    """One detector of `meaning_rules` and the categories its findings can have (None: any)."""

    detect: Callable[[str, Callable[[], float]], list[Finding]]
    categories: frozenset[str] | None

    def can_find(self, category: str) -> bool:
        return self.categories is None or category in self.categories


def _text_only(
    detect: Callable[[str], list[Finding]],
) -> Callable[[str, Callable[[], float]], list[Finding]]:
    return lambda normalized, _sexual_score: detect(normalized)


# --- Requests for harmful help ------------------------------------------------------------

_RELATION = (
    r"(?:wife|husband|girlfriend|boyfriend|gf|bf|ex|ex-?wife|ex-?husband|ex-?girlfriend|"
    r"ex-?boyfriend|fiancee?|partner|spouse|boss|manager|neighbou?rs?|teacher|classmate|"
    r"co-?worker|colleague|roommate|flatmate|housemate|tenant|landlord|landlady|father|mother|"
    r"dad|mom|mum|step-?(?:dad|mom|mum|father|mother|son|daughter|brother|sister)|brother|"
    r"sister|son|daughter|baby|uncle|aunt|cousin|nephew|niece|grandma|grandpa|grandmother|"
    r"grandfather|grandparents|parents|in-?laws|(?:mother|father)-in-law|friend|bully|rival|"
    r"enemy|student|pupil|patient|employee|employer|crush|date|kids?|child|children|family)"
)
_PERSON = (
    r"(?:someone|somebody|anyone|a person|people|a human|kids|children|him|her|them|"
    r"(?:an?|the|this|that) (?:\w+ )?(?:man|woman|person|guy|girl|boy|kid|child|baby|toddler|"
    r"teen|teenager|stranger|lady|dude|cop|police officer|guard|politician|witness|president|"
    r"prisoner|hostage|inmate|captive|informant|snitch|hitchhiker|homeless (?:man|woman|person))|"
    rf"(?:my|his|her|their|our|your|an?) (?:\w+'?s? )?{_RELATION}|"
    r"(?:my|his|her|their|our|your|a|the) (?:\w+'?s? )?(?:dog|cat|puppy|kitten|pet|horse)|"
    r"(?:an? )?(?:old|elderly) (?:man|woman|person|people))"
)
_NOT_A_PET = (
    r"(?!\s+(?:my|his|her|their|our|your|a|the)\s+(?:\w+'?s?\s+)?(?:dog|cat|puppy|kitten|pet|"
    r"horse))"
)
# Not the owner of what is named next: "get rid of my cat's fleas".
_VICTIM = _PERSON + r"(?!')"
_HURT = (
    r"(?:hurt|injure|harm|poison|kill|murder|stab|strangle|choke|suffocate|smother|drown|drug|"
    r"sedate|kidnap|abduct|beat up|beat|torture|maim|disable|cripple|paraly[sz]e|blind|attack|"
    r"assault|punch|hit|slap|kick|shoot|run over|electrocute|starve|mutilate|dismember|"
    # (Not urged on: "push my kids to study".)
    r"push(?!\s+(?:\w+'?s?\s+){1,2}(?:to|into|harder|forward|through|towards|away|aside|back)\b)|"
    r"behead|lynch|rape|molest|sexually assault|break (?:the|a) (?:neck|arm|leg) of|get rid of|"
    r"butcher|slaughter|choke out|knock out|"
    r"make (?:\w+ )?disappear|burn|set fire to|gut|disembowel|flay|skin|decapitate|execute|"
    r"crucify|bury alive|bury|hang|impale|castrate|gas)"
)
# Harassment and control: bullying, intimidating, stalking and spying on someone.
_HARASS = (
    r"(?:bully|harass|humiliate|intimidate|threaten|terrori[sz]e|scare|frighten|dox|doxx|"
    r"gaslight|manipulate|isolate|blackmail|extort|stalk|spy on|cyberbully|shame|"
    r"get back at|ruin the life of|ruin)"
)
# Parts of a body broken or cut in a request to hurt ("snap a dog's neck").
_BODY_HURT = (
    r"(?:neck|throat|skull|spine|back|windpipe|jaw|legs?|arms?|wrists?|ribs|kneecaps?|knees?|"
    r"fingers?|face|head|heart)"
)
# Hurting named as what a tool is for ("a knife for slitting ...").
_HURTING = (
    r"(?:killing|murdering|stabbing|strangling|choking|slitting|cutting|poisoning|shooting|"
    r"torturing|beating|drowning|suffocating|smothering|hanging|gutting|maiming|hurting|"
    r"injuring|attacking|knocking out|breaking|snapping|slashing)"
)
_HARMFUL_HOWTO = screened(
    rf"\b{_ASK}\s+(?:\w+\s+){{0,2}}?{_HURT}\s+{_VICTIM}\b"
    # Harm hidden or escaped: "how do I get away with hitting my kids".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:get away with|hide|cover up|not get caught)\s+"
    rf"(?:\w+\s+)?(?:hitting|beating|hurting|killing|murdering|poisoning|abusing|raping|stabbing|"
    rf"shooting|drugging|starving|choking|kicking|slapping|punching|strangling)\s+{_VICTIM}\b"
    # Knocked out or held captive: "the quickest way to knock my teacher unconscious", "tie up
    # my roommate so she can't escape".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:knock|beat|choke|strangle|render)\s+{_VICTIM}\s+"
    r"(?:unconscious|out cold|senseless|to death)\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:tie up|tie|restrain|chain|lock up|lock|gag|handcuff|cuff)"
    rf"\s+{_VICTIM}\b(?:\s+up)?[^.!?]{{0,40}}?\b(?:can'?t|cannot|won'?t|couldn'?t) (?:escape|"
    r"leave|get away|move|scream|call for help|get out|run)\b"
    # Harm done unseen: "where can I shoot someone in Paris without the police catching me",
    # "the best way to execute a prisoner without leaving evidence".
    rf"|\b(?:i|we|to)\b[^.!?]{{0,30}}?\b{_HURT}\s+{_VICTIM}\b(?!\s+(?:up|to|into|for|out)\b)"
    r"[^.!?]{0,40}?\bwithout (?:anyone|anybody|the (?:police|cops|neighbou?rs)|getting (?:caught|"
    r"arrested)|being (?:caught|seen|noticed)|leaving (?:any )?(?:evidence|marks|traces?|a trace|"
    r"fingerprints|dna|bruises)|a trace|(?:him|her|them) (?:noticing|knowing|seeing))"
    # Killing in a hitman's words: "walk me through how you'd take out my business partner"
    # (not "take out my girlfriend for dinner").
    rf"|\b{_ASK}\s+(?:[\w']+\s+){{0,2}}?(?:take out|bump off|knock off|whack|eliminate|off)\s+"
    rf"{_VICTIM}\b(?!\s+(?:to|for|on|and|with)\b)"
    # Poison in what someone eats or drinks: "how can I poison my coworker's coffee".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:poison|spike|lace|contaminate|tamper with|"
    rf"drug{_NOT_A_PET})\s+"
    rf"(?:{_PERSON}'s|his|her|their) (?:\w+ )?(?:coffee|tea|drinks?|food|meals?|lunch|dinner|"
    rf"breakfast|water|wine|beer|soup|juice|smoothie|medicine|medication|pills|insulin|inhaler)\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:knock|beat|rough|bump|finish|snuff)\s+{_VICTIM}\s+"
    rf"(?:out|up|off)\b"
    # A body broken or cut: "how do I snap a dog's neck", "how to slit someone's throat".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:snap|break|wring|twist|crush|slit|cut|slash|smash|"
    rf"fracture|cave in|bash in|gouge out)\s+{_PERSON}'s\s+(?:\w+\s+)?{_BODY_HURT}\b"
    # Run down on purpose: "how can I run someone over and get away with it".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:run|mow)\s+{_VICTIM}\s+(?:over|down)\b"
    rf"(?!\s+(?:to|there|here|the|a|for|with)\b)"
    # A tool or way named for hurting: "what's the best knife for slitting a throat".
    rf"|\b(?:best|good|right|sharpest|easiest|quietest|quickest|surest|most effective|ideal|"
    rf"perfect)\s+(?:\w+\s+)?(?:knife|knives|blade|weapon|gun|rifle|poison|tool|rope|chemical|"
    rf"drug|pills?|way|method|spot|place|angle)\s+(?:for|to)\s+(?:{_HURTING}|kill|murder|stab|"
    rf"strangle|choke|poison|shoot|slit|cut|hurt|drown|suffocate|smother|torture|beat)\s+"
    rf"(?:{_VICTIM}|(?:a|someone'?s|somebody'?s|his|her|their|a (?:person|man|woman|kid)'?s) "
    rf"{_BODY_HURT})\b"
    # A vehicle made to crash: "how do I sabotage my brother's car brakes".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:sabotage|cut|tamper with|mess with|loosen|drain|"
    rf"disable)\s+(?:the\s+)?(?:(?:brakes?|brake (?:lines?|fluid)|steering)\s+(?:on|of|in)\s+"
    rf"(?:{_PERSON}'s|his|her|their)\s+(?:\w+\s+)?(?:car|truck|van|bike|motorcycle)|"
    rf"(?:{_PERSON}'s|his|her|their)\s+(?:\w+\s+)?(?:car\s+|truck\s+|bike\s+)?(?:brakes?|brake "
    rf"(?:lines?|fluid)|steering))\b"
    # Someone set alight, or a home set alight with people asleep in it.
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?set\s+{_VICTIM}\s+on fire\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:set\s+(?:{_PERSON}'s|his|her|their|the|a)\s+(?:\w+\s+)?"
    rf"{_DWELLING}\s+on fire|(?:burn|torch|firebomb|blow up|set fire to)\s+(?:{_PERSON}'s|his|"
    rf"her|their|the|a)\s+(?:\w+\s+)?{_DWELLING})\b[^.!?]{{0,30}}?\bwhile\s+(?:they|he|she|"
    rf"people|the family|everyone|someone|the kids|my \w+)\s+(?:(?:is|are|were|was|'re|'s)\s+)?"
    rf"(?:still\s+)?(?:asleep|sleeping|sleep|inside|in it|in there|at home|home)\b"
    # "How do I make my little brother stop breathing so he passes out".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?make\s+{_VICTIM}\s+(?:stop breathing|pass out|black out|"
    rf"lose consciousness|go unconscious|choke|suffocate)\b"
    # Killing in a euphemism: "how do I make my wife disappear for good".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?make\s+{_VICTIM}\s+(?:disappear|vanish|go away)\s+"
    rf"(?:for good|forever|permanently|without a trace|for ever)\b"
    # A bomb with people inside: "how do I blow up a car with someone in it".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:blow up|bomb|burn|torch|set fire to)\s+(?:an? |the |"
    rf"my |his |her |their )?(?:\w+ )?(?:car|house|bus|building|room|apartment|flat|plane|train|"
    rf"boat)\s+(?:with|while)\s+(?:someone|somebody|people|him|her|them|my \w+|the \w+|"
    rf"a person|kids|children|the family)\s+(?:still )?(?:in|inside)\b"
    # Sex pressed on someone who refused: "how do I convince my girlfriend to have sex when she
    # says no".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:convince|pressure|force|make|get|push|talk)\s+"
    rf"{_VICTIM}\s+(?:into\s+(?:having\s+)?sex|to\s+(?:have\s+sex|sleep with me))\b"
    rf"[^.!?]{{0,30}}?\b(?:when|if|even (?:though|if)|after)\s+(?:she|he|they)\s+(?:(?:says?|"
    rf"said|keeps? saying)\s+no|(?:doesn'?t|don'?t|does not|didn'?t) want)\b"
    # Arson, or arson passed off as an accident: "start a fire in an apartment building and
    # make it look like an electrical fault".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:start|set|light)\s+(?:a\s+)?fires?\s+(?:in|at|to)\s+"
    rf"(?:an?\s+|the\s+|my\s+|his\s+|her\s+|their\s+|someone'?s\s+)?(?:\w+\s+)?(?:apartment|"
    rf"building|house|home|school|office|store|shop|car|flat|restaurant|warehouse)s?\b"
    rf"[^.!?]{{0,60}}?\b(?:look like|without (?:getting )?caught|undetected|for (?:the )?"
    rf"insurance|electrical fault|an accident|no one (?:knows|finds out))\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?burn down\s+(?:my|his|her|their|the|a|someone'?s)\s+"
    rf"(?:\w+'?s?\s+)?(?:house|home|building|school|store|shop|car|apartment|office)\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:get away with|cover up|hide) (?:a )?(?:murder|"
    rf"killing|a body|the body|assault|rape)\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:carry out|plan|commit|execute|pull off|organi[sz]e|"
    rf"stage|launch)\s+(?:an? |the |my )?(?:\w+ )?(?:terrorist attack|terror attack|bombing|"
    rf"mass shooting|school shooting|shooting spree|massacre|suicide (?:bombing|attack)|"
    rf"ramming attack|stabbing spree|hijacking|attack on (?:a|an|the) \w+)\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:(?:make|build)\s+(?:an? )?(?:untraceable |ghost |"
    rf"homemade )?(?:gun|firearm|poison|nerve agent|ricin|sarin|anthrax|toxin)|(?:get|buy)\s+"
    rf"(?:an? )?(?:(?:untraceable|ghost) (?:gun|firearm)|poison|nerve agent|ricin|sarin|anthrax|"
    rf"toxin))\b(?! (?:ivy|oak|control|center|centre|hotline|help|racks?|cabinets?|safes?|"
    rf"cases?|holsters?|stands?|mounts?|shelf|shelves|cleaning|range|licen[cs]es?|permits?|"
    rf"course|class|show|cake|costume|toy|prop|frogs?|dart frogs?))"
    # A request whose stated purpose is to hurt someone: "what chemicals make a toxic gas to
    # hurt people", "which pills can I use to knock him out".
    rf"|\b(?:{_ASK}|(?:what|which|where) (?:\w+ ){{0,3}}?(?:can|could|should|would|do|does|"
    rf"will|is|are|make|makes))\b(?:(?!\b(?:want|wants|wanted|tempted|urge|desire|motive|"
    rf"why)\b)[^.!?]){{0,80}}?\b(?:to|so (?:that )?(?:i|we) can|in order to|(?:that|which) "
    rf"(?:will|would|could|can|might))\s+(?:\w+\s+)?"
    rf"{_HURT}\s+{_VICTIM}\b"
    # ... "to knock someone out", "to put her under".
    rf"|\b(?:{_ASK}|(?:what|which|where) (?:\w+ ){{0,3}}?(?:can|could|should|would|do|does|"
    rf"will|is|are))\b[^.!?]{{0,80}}?\bto\s+(?:knock|put)\s+{_VICTIM}\s+(?:out|under|to sleep)\b"
    # A ransom note for someone held: "help me write a ransom note for the kid we're holding".
    rf"|\b{_CREATE}\s+(?:me\s+)?(?:a |the |our )?ransom (?:note|letter|message|demand|call)\b"
    rf"(?![^.!?]*\b(?:novel|story|book|film|movie|game|play|script|character)\b)"
    # Secretly drugging someone, or getting them too drunk to refuse.
    rf"|\b(?:slip|put|drop|sneak|mix|add|spike)\s+(?:\w+\s+){{0,2}}?(?:drugs?|pills?|roofies?|"
    rf"rohypnol|ghb|sedatives?|sleeping pills|tranquili[sz]ers?|xanax|ketamine|benzos?|"
    rf"laxatives?|bleach|poison|antifreeze|something)\s+(?:\w+\s+){{0,2}}?(?:in|into)\s+"
    rf"(?:her|his|their|someone'?s|somebody'?s|a (?:girl|guy|woman|man)'?s|my (?:\w+'?s? )?"
    rf"{_RELATION}'?s?)\s+(?:drinks?|glass|cup|coffee|beer|wine|tea|food)\b"
    rf"|\bspike (?:her|his|their|someone'?s|somebody'?s|a (?:girl|guy|woman|man)'?s) drinks?\b"
    rf"|\bget (?:a girl|a guy|a woman|her|him|someone|somebody|my date|them) (?:so |really )?"
    rf"(?:drunk|high|wasted|intoxicated) (?:enough )?(?:that|so|to)\b[^.!?]{{0,30}}\b(?:won'?t|"
    rf"can'?t|couldn'?t|wouldn'?t|doesn'?t|will not|not) (?:say no|resist|remember|fight|"
    rf"refuse|stop)"
)
_HARASS_HOWTO = screened(
    rf"\b{_ASK}\s+(?:\w+\s+){{0,2}}?{_HARASS}\s+{_VICTIM}\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?make\s+{_VICTIM}\s+(?:\w+\s+)?(?:afraid|scared|terrified|"
    rf"fear me|obey|submit|suffer|miserable|feel worthless|feel useless|feel stupid|hate "
    rf"(?:himself|herself|themselves)|kill (?:himself|herself|themselves)|hurt (?:himself|"
    rf"herself|themselves))\b"
    # Covert surveillance of a person: "track my girlfriend's phone without her knowing".
    rf"|\b(?:track|spy on|monitor|read|record|film|follow|watch|photograph|hack|access|"
    rf"bug|locate|find)\s+(?:\w+\s+){{0,2}}?(?:{_VICTIM}|(?:her|his|their|my \w+'?s?) (?:phone|"
    rf"messages|texts|emails?|location|car|room|shower|bathroom))\b[^.!?]{{0,50}}?"
    rf"\bwithout (?:her|him|them|his|their|my \w+|the person|anyone) (?:\w+ )?(?:knowing|"
    rf"noticing|finding out|consent|permission|realizing|realising)\b"
    rf"|\bsecretly (?:record|film|track|watch|follow|photograph|spy on|read)\s+(?:\w+\s+){{0,2}}?"
    rf"{_VICTIM}"
    # Spyware put on someone else's device: "install spyware on my wife's phone".
    rf"|\b(?:install|put|hide|load|sneak)\s+(?:\w+\s+)?(?:spyware|stalkerware|a keylogger|"
    rf"keylogger|(?:a )?spy (?:app|software)|(?:a )?tracking (?:app|software|device)|a (?:gps )?"
    rf"tracker)\s+(?:on|onto|in|into|under)\s+(?:her|his|their|someone'?s|somebody'?s|my (?:\w+ )?"
    rf"{_RELATION}'?s?)\s+(?:\w+\s+)?(?:phone|laptop|computer|car|device|tablet|ipad|pc)\b"
    # Making someone's life a misery: "how do I make my roommate's life a living hell", "the
    # best way to ruin someone's reputation", "how can I spread rumours about her".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:make|turn)\s+(?:{_PERSON}'?s|his|her|their)\s+"
    rf"(?:\w+\s+)?(?:life|days?|job|school ?(?:life|year)?|time here)\s+(?:a |an )?(?:living "
    rf"hell|hell|misery|miserable|nightmare|unbearable|torture)\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:ruin|destroy|wreck|trash|tank|sabotage)\s+"
    rf"(?:{_PERSON}'?s|his|her|their)\s+(?:\w+\s+)?(?:reputation|life|career|marriage|"
    rf"relationship|name|business|credit(?: score| rating)?|finances)\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?get\s+{_VICTIM}\s+(?:fired|expelled|suspended|arrested|"
    rf"kicked out|evicted|deported|banned)\b[^.!?]{{0,30}}?\b(?:with|by (?:making|filing|"
    rf"spreading|posting)|using)\s+(?:\w+\s+)?(?:fake|false|made-up|fabricated|bogus|invented)\s+"
    rf"(?:accusations?|claims?|reports?|complaints?|evidence|allegations?|rumou?rs?)\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:get (?:back at|revenge on|even with)|take revenge on)\s+"
    rf"{_VICTIM}\b[^.!?]{{0,30}}?\bby\b"
    # Lies written about a person: "write a fake news article claiming the mayor was arrested for
    # child abuse".
    rf"|\b{_CREATE}\s+(?:me\s+)?(?:an? |some )?(?:fake|false|made-up|fabricated|bogus)\s+"
    rf"(?:news\s+)?(?:articles?|stor(?:y|ies)|reports?|posts?|tweets?|reviews?|rumou?rs?)\s+"
    rf"(?:claiming|saying|that says|that claims|accusing|alleging|about how)\b"
    rf"|\b{_ASK}\s+[^.!?]{{0,40}}?\b(?:spread|spreading|start|starting|post|posting)\s+"
    rf"(?:\w+\s+)?(?:rumou?rs|lies|gossip)\s+about\s+{_VICTIM}"
    # Turning everyone against someone: "the best way to get everyone at work to ignore and
    # exclude the new hire".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:get|make|convince|turn)\s+(?:everyone|everybody|people|"
    rf"the (?:whole )?(?:team|class|office|group|school))\b[^.!?]{{0,30}}?\b(?:to )?(?:ignore|"
    rf"exclude|isolate|shun|gang up on|turn against|freeze out|bully)\b"
    # Posing as someone: "set up a fake Instagram pretending to be my ex".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,3}}?(?:set up|make|create|open|start|run)\s+(?:a |an )?fake\s+"
    rf"(?:\w+\s+)?(?:account|profile|page|instagram|facebook|tiktok|twitter|snapchat|"
    rf"dating profile)s?\s+(?:pretending to be|as|impersonating|in the name of|posing as)\s+"
    rf"{_VICTIM}"
)
# Other crimes asked for: "crack my neighbour's wifi password", "cheat on my taxes without the
# IRS noticing", "rig the local election", "make my dog fight other dogs for money".
_CRIME_HOWTO = screened(
    rf"\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:crack|hack|break|guess|bypass|steal)\s+(?:into\s+)?"
    rf"(?:someone'?s|somebody'?s|her|his|their|my (?:\w+ )?{_RELATION}'?s?|the (?:\w+ )?"
    rf"neighbou?rs?'?s?)\s+(?:\w+\s+)?(?:wi-?fi|password|network|router|account|phone|laptop|"
    rf"computer|email)\b"
    rf"|\bpick (?:a |the )?locks?\b[^.!?]{{0,30}}?\bso (?:that )?i can (?:get|break|sneak) into "
    rf"(?:someone'?s|her|his|their|my (?:\w+ )?{_RELATION}'?s?)\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:cheat on (?:my |our )?taxes|evade (?:my |our )?taxes|"
    rf"dodge (?:my |our )?taxes|hide (?:my |our )?(?:income|money|earnings) from (?:the )?(?:irs|"
    rf"hmrc|tax\w*)|rig (?:the |an |this |our |my |local |next )?(?:\w+ )?elections?|"
    rf"stuff (?:the )?"
    rf"ballot box(?:es)?|vote (?:twice|more than once|multiple times)|commit (?:voter|election) "
    rf"fraud)\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?make\s+(?:my |our |the |his |her )?(?:dogs?|roosters?|"
    rf"cocks?|pit ?bulls?)\s+fight\b(?![^.!?]*\bstop\b)|\b{_ASK}\s+(?:\w+\s+){{0,2}}?"
    rf"(?:start|run|organi[sz]e|set up) (?:a |an )?(?:dog|cock)[ -]?fight(?:ing)?\b"
    # Contraband carried in: "how do I sneak drugs into prison".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:sneak|smuggle|get|bring|slip)\s+(?:\w+\s+)?(?:drugs|weed|"
    rf"heroin|cocaine|meth|pills|phones?|contraband|weapons?|a knife|knives|a gun|guns)\s+(?:into|"
    rf"in|past|through)\s+(?:a |the )?(?:prison|jail|the country|the border|security|customs|"
    rf"airport security)\b(?![^.!?]*\b(?:legal(?:ly)?|allowed|permitted|checked (?:luggage|"
    rf"baggage|bags?)|declare|rules?)\b)"
    # A gun got by one the law bars: "how can I get a gun if I'm a felon".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,3}}?(?:get|buy|obtain|acquire)\s+(?:a |an )?(?:gun|firearm|"
    rf"pistol|handgun|rifle|weapon)s?\b[^.!?]{{0,40}}?\b(?:(?:if|when|since|as|though) i'?m (?:a )?"
    rf"(?:felon|convicted felon|prohibited person|under 18|minor|on probation|on parole)|as a "
    rf"(?:felon|minor)|without (?:a |any )?(?:background check|licen[cs]e|permit|paperwork|serial "
    rf"numbers?))\b"
    # A drug or a household product misused: "the best way to get high on cough syrup".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?get (?:high|stoned|wasted|trippy|a buzz|fucked up)\s+(?:on|"
    rf"off|from|with|using)\b"
    # Someone swindled out of what they own: "catfish a lonely old man out of his money".
    rf"|\b{_ASK}\s+[^.!?]{{0,60}}?\b(?:scam|defraud|con|swindle|rip off|trick|cheat|catfish|fleece|"
    rf"manipulate|pressure)\s+(?:\w+\s+){{1,4}}?(?:out of (?:his|her|their|all (?:his|her|their)) "
    rf"(?:money|savings|pension|house|home|inheritance|life savings)|into (?:signing|giving|"
    rf"handing|transferring) (?:over )?(?:his|her|their) (?:house|home|money|savings|property|"
    rf"estate|car|account))\b"
)
# Breaking in or stealing asked for: "how do I break into my neighbor's house while they're away",
# "best way to shoplift from Walmart" (not one's own locked car, not "break into the industry").
# What is broken into or stolen: "my neighbour's house", "a car", "the jewellery shop".
_THEFT_TARGET = (
    r"(?:my neighbou?r'?s?|someone'?s?|somebody'?s?|a|an|the|his|her|their|that|this|[a-z]+'s)"
    r"\s+(?:\w+\s+)?(?:house|home|flat|apartment|car|truck|shop|store|bank|safe|office|garage|"
    r"shed|walmart|target|tesco|supermarket|mall|jewelry store|jewellery shop|atm|gas station|"
    r"petrol station)s?\b"
)
_THEFT_HOWTO = screened(
    rf"\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:break into|break in to|burgle|burglari[sz]e|rob|loot|"
    r"steal(?: from)?|shoplift(?: from)?|hotwire|pick the lock "
    rf"(?:on|of))\s+{_THEFT_TARGET}"
    # Shoplifting or pickpocketing, wherever: "what's the best way to shoplift from Walmart".
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:shoplift|pickpocket|pick pockets)\b"
)
# The same asked for as a guide: "give me a step-by-step guide to stealing a car", "tips for
# shoplifting".
_THEFT_GUIDE = screened(
    r"\b(?:guides?|tips|instructions|tutorial|advice|a plan)\s+(?:to|for|on)\s+(?:successfully\s+|"
    r"quietly\s+|easily\s+|safely\s+)?(?:(?:stealing|robbing|burgling|burglari[sz]ing|breaking "
    rf"into|looting|hotwiring|picking the lock (?:on|of))\s+{_THEFT_TARGET}|shoplifting\b|"
    r"pickpocketing\b|carjacking\b)"
)
_FRAUD_HOWTO = screened(
    rf"\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:run|pull off|set up|do|start|create|make|operate|"
    rf"carry out|get away with)\s+(?:an? |the |my own )?(?:\w+\s+)?(?:scam|scams|phishing|"
    rf"ponzi|pyramid scheme|con|fraud|catfish\w*|fake charity|money laundering|identity theft|"
    rf"insurance fraud|tax fraud|credit card fraud|check fraud|wire fraud)\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:scam|defraud|con|swindle|rip off|trick|cheat|phish)\s+"
    rf"(?:\w+\s+)?(?:people|someone|somebody|old people|the elderly|elderly people|"
    rf"customers|investors|my (?:\w+ )?(?:grandma|grandmother|grandpa|parents|boss|clients?)|"
    rf"them|him|her|out of (?:their|his|her) money)\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:launder money|launder (?:the|my) money|steal (?:\w+'?s? )?"
    rf"(?:identity|identities|credit card|card numbers|passwords?|bank details)|"
    rf"forge (?:a |an )?(?:signature|check|cheque|passport|document)|counterfeit money|"
    rf"make counterfeit|hack (?:into )?(?:someone'?s|somebody'?s|an?|her|his|their|"
    rf"(?:my|your) (?:\w+ )?{_RELATION}'?s?) (?:\w+ )?(?:account|phone|email|instagram|facebook|"
    rf"snapchat|whatsapp|"
    rf"icloud|gmail|tiktok|twitter|laptop|computer)|(?:get|log|break|sneak) "
    rf"(?:in)?to (?:someone'?s|somebody'?s|her|his|(?:my|your) (?:\w+ )?"
    rf"{_RELATION}'?s?) (?:\w+ )?(?:account|phone|email|inbox|instagram|facebook|snapchat|whatsapp|"
    rf"icloud|messages))\b"
    # Fraud written: "write a phishing email that looks like it comes from PayPal", "a script
    # to scam elderly people over the phone" (not for an awareness training).
    rf"|\b{_CREATE}\s+(?:me\s+)?(?:an? |some |the )?(?:\w+\s+)?(?:phishing|scam|"
    rf"fraudulent)\s+(?:\w+\s+)?(?:emails?|messages?|texts?|pages?|sites?|websites?|sms|scripts?|"
    rf"letters?|calls?)\b(?![^.!?]*\b(?:awareness|training|simulation|drill|exercise|test our|"
    rf"recogni[sz]e|spot|detect|example of what)\b)"
    rf"|\b{_CREATE}\s+(?:me\s+)?(?:an? |some |the )?(?:\w+\s+)?(?:script|plan|message|"
    rf"text|email|call|pitch)s?\s+(?:to|for|that will|that can)\s+(?:scam|defraud|con|swindle|"
    rf"trick|fool|rip off)\s+(?:\w+\s+){{0,2}}?(?:people|elderly|old people|seniors|pensioners|"
    rf"customers|victims|someone|grandparents)\b"
    rf"|\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:make|get|create|print|forge)\s+(?:a |an |my own )?"
    rf"(?:fake|forged|counterfeit|false|fraudulent)\s+(?:ids?|passports?|driver'?s licen[cs]es?|"
    rf"driving licen[cs]es?|licen[cs]es?|diplomas?|degrees?|doctor'?s notes?|prescriptions?|"
    rf"vaccination cards?)\b(?![^.!?]*\b(?:costume|film|movie|play|prop|halloween|game)\b)"
)
# Asking for harmful writing: "write a threatening voicemail for my landlord", "give me insults
# about stuttering I can use on the new kid".
_NOT_A_REPLY = r"(?:(?!(?:reply|response|answer|respond|rebuttal|counter)\b)\w+\s+){0,4}?"
_WRITING = (
    r"(?:messages?|texts?|voicemails?|letters?|emails?|posts?|notes?|comments?|dms?|tweets?|"
    r"flyers?|speech|speeches|songs?|poems?|rants?|jokes?|roasts?|insults?|lines|reviews?|"
    r"stories|story|essays?|articles?|manifesto|propaganda|slogans?|chants?|memes?)"
)
_HARASSING_WRITING = screened(
    rf"\b{_CREATE}\s+{_NOT_A_REPLY}(?:threatening|intimidating|harassing|abusive|insulting|"
    rf"degrading|humiliating|hurtful|cruel|nasty|mean|anonymous hate)\s+(?:\w+\s+)?{_WRITING}\b"
    rf"[^.!?]{{0,40}}?\b(?:for|to|at|about|against|toward|towards) {_VICTIM}"
    rf"|\b(?:{_CREATE}|what are (?:some|the|good|the best)|list|suggest|tell me|teach me|"
    rf"i need|i want)\s+(?:\w+\s+){{0,3}}?(?:insults?|roasts?|slurs?|put-?downs?|(?:mean|nasty|"
    rf"hurtful|offensive|cruel|insulting|racist|homophobic) (?:things|jokes|names|nicknames|"
    rf"words|comments))\b[^.!?]{{0,60}}?\b(?:use on|use against|say to|send (?:to|him|her|"
    rf"them)|drop in|post (?:about|on)|call (?:my|him|her|them|this|that|the|a|an)|hurl at|"
    rf"throw at|yell at)\b"
)
# An insult word, as the lexicon lists them.
_INSULT_WORD = (
    "(?:"
    + lexicon.INSULT_RE.pattern.removeprefix("(?<![a-z0-9])").removesuffix("(?![a-z0-9])")
    + r")\b"
)
# Writing whose stated aim is to hurt someone: "write a message to humiliate my classmate",
# "help me write a text that will make her cry".
_WRITING_TO_HURT = screened(
    rf"\b{_CREATE}\s+(?:\w+\s+){{0,3}}?{_WRITING}\b[^.!?]{{0,40}}?\b(?:to|that (?:will|would|"
    rf"could)|which (?:will|would)|so (?:that )?(?:it|i) (?:will|can|could))\s+(?:really\s+)?"
    rf"(?:{_HARASS}\s+{_VICTIM}|make\s+{_VICTIM}\s+(?:\w+\s+){{0,3}}?(?:cry(?! (?:with )?"
    rf"laugh)|feel (?:worthless|"
    rf"useless|stupid|ugly|small|pathetic|like (?:shit|garbage|trash|nothing))|hate (?:herself|"
    rf"himself|themselves)|want to die|kill (?:herself|himself|themselves)))\b"
    # "... messages I can send my ex so she feels completely worthless".
    rf"|\b{_CREATE}\s+(?:\w+\s+){{0,3}}?{_WRITING}\b[^.!?]{{0,50}}?\bso (?:that )?(?:she|he|they|"
    rf"{_VICTIM})(?:'ll| will)?\s+(?:\w+\s+)?feels?\s+(?:\w+\s+)?(?:worthless|useless|stupid|ugly|"
    rf"small|pathetic|unwanted|unloved|alone|suicidal|scared|terrified|like (?:shit|garbage|"
    rf"trash|nothing))\b"
    # "Write a tweet calling my coworker Lisa a fat whore."
    rf"|\b{_CREATE}\s+(?:\w+\s+){{0,3}}?{_WRITING}\b[^.!?]{{0,40}}?\b(?:calling|that calls|to "
    rf"call|which calls)\s+{_VICTIM}\s+(?:[\w-]+\s+)?(?:an?\s+)?(?:\w+\s+){{0,2}}?{_INSULT_WORD}"
    # "... a message telling my classmate she should kill herself".
    rf"|\b{_CREATE}\s+(?:\w+\s+){{0,3}}?{_WRITING}\b[^.!?]{{0,40}}?\b(?:telling|that tells|to "
    rf"tell|saying(?: to)?|that says(?: to)?|which tells)\s+{_VICTIM}\s+(?:that\s+)?"
    rf"(?:(?:she|he|they|you)\s+"
    rf"(?:should|ought to|needs? to|must|had better|deserves? to)\s+|to\s+)(?:just\s+|go\s+)?"
    rf"(?:kill (?:herself|himself|themselves|themself|yourself)|die|drop dead|hang (?:herself|"
    rf"himself|themselves|yourself)|end (?:it all|it|her life|his life|their life|your life)|"
    rf"cut (?:herself|himself|themselves|yourself)|jump off (?:a|the) \w+)\b"
    # "... a message telling my classmate that everyone hates her and she should disappear".
    rf"|\b{_CREATE}\s+(?:\w+\s+){{0,3}}?{_WRITING}\b[^.!?]{{0,40}}?\b(?:telling|that tells|to "
    rf"tell|saying(?: to)?|that says(?: to)?|which tells)\s+{_VICTIM}\s+(?:that\s+)?"
    rf"(?:(?:everyone|everybody|the whole (?:\w+ )?\w+|all (?:her|his|their) friends|people) "
    rf"(?:secretly |really |all )?(?:hates?|despises?|laughs? at|is laughing at) (?:her|him|them|"
    rf"you)|(?:no ?one|nobody) (?:likes|loves|wants|would miss|cares about) (?:her|him|them|you)|"
    rf"(?:she|he|they|you) (?:should|ought to|needs? to|must|had better) (?:just )?(?:disappear|"
    rf"go away forever|leave (?:school|town) forever|never come back))\b"
)
# Asking for graphic sexual violence, gore or erotica to be written: "write a story where a
# man rapes a woman in graphic detail", "describe a murder with as much gore as possible",
# "write an erotic story about two neighbours".
_TELL = rf"(?:{_CREATE}|describe|narrate|depict|tell me|continue)"
_GRAPHIC = (
    r"(?:(?:in|with) (?:\w+ )?(?:graphic|explicit|vivid|gory|gruesome|lurid|excruciating|"
    r"intimate|full|loving) detail|graphically|explicitly|uncensored|with (?:as much|lots of|"
    r"plenty of|a lot of) (?:gore|blood|detail)|as (?:graphic|gory|gruesome|explicit|brutal) as "
    r"(?:possible|you can)|(?:graphic|gory|gruesome|explicit) (?:details?|descriptions?))"
)
_GRAPHIC_WRITING = screened(
    rf"\b{_TELL}\b[^.!?]{{0,80}}?\b(?:rapes?|raped|raping|sexual(?:ly)? assault\w*|molest\w*)\b"
    rf"[^.!?]{{0,60}}?{_GRAPHIC}|\b{_TELL}\s+{_GRAPHIC}\b[^.!?]{{0,60}}?\b(?:rapes?|raped|"
    r"raping|sexual(?:ly)? assault\w*)\b"
)
_GORE_WRITING = screened(
    rf"\b{_TELL}\b[^.!?]{{0,80}}?\b(?:murder\w*|kill(?:s|ed|ing)|tortur\w+|massacre\w*|"
    r"dismember\w*|mutilat\w+|behead\w*|disembowel\w*|slaughter\w*|stabb?\w*|execution)\b"
    rf"[^.!?]{{0,60}}?{_GRAPHIC}|\b{_TELL}\s+{_GRAPHIC}\b[^.!?]{{0,60}}?\b(?:murder\w*|"
    r"kill(?:s|ed|ing)?|tortur\w+|dismember\w*|mutilat\w+|behead\w*|disembowel\w*)\b"
    # Someone burned, flayed or boiled alive, dwelt on: "describe in detail how the victim's skin
    # peeled off as they burned her alive".
    rf"|\b{_TELL}\b[^.!?]{{0,20}}?\b(?:{_GRAPHIC}|in detail|step by step|slowly|exactly)\b"
    r"[^.!?]{0,100}?\b(?:burn\w*|flay\w*|skinn\w*|boil\w*|cook\w*|roast\w*|bur(?:y|ied|ying)) "
    r"(?:her|him|them|someone|somebody|people|(?:the|a|an|his|her|their) (?:\w+ )?(?:victims?|"
    r"prisoners?|hostages?|man|woman|men|women|girl|boy|child|children|kids?|baby|person|family|"
    r"wife|husband|captives?)) alive\b"
)
_EROTIC_WRITING = screened(
    rf"\b{_TELL}\s+(?:\w+\s+){{0,3}}?(?:erotic|erotica|smutty|smut|porn\w*|x-rated|nsfw|"
    r"sexually explicit|explicit sex(?:ual)?|hardcore|sex)\s+(?:\w+\s+)?(?:story|stories|scene|"
    r"scenes|fanfic|fan ?fiction|poem|chapter|novel|content|description|roleplay|role-play|"
    r"script|dialogue|text)\b|"
    # "Write an explicit story where two coworkers have sex".
    rf"\b{_TELL}\s+(?:\w+\s+){{0,3}}?(?:explicit|nsfw|x-rated|dirty|smutty|steamy|raunchy)\s+"
    r"(?:\w+\s+)?(?:story|stories|scene|scenes|fanfic|fan ?fiction|poem|chapter|roleplay|"
    r"role-play|script)\b[^.!?]{0,80}?\b(?:have sex|having sex|has sex|sleep together|fuck\w*|"
    r"orgasm\w*|hook up)\b"
)
_HATEFUL_WRITING = screened(
    rf"\b{_CREATE}\s+{_NOT_A_REPLY}(?:racist|sexist|homophobic|transphobic|antisemitic|"
    rf"islamophobic|xenophobic|hateful|bigoted|white (?:power|supremacist)|nazi)\s+"
    rf"(?:\w+\s+)?{_WRITING}\b"
    # Writing that urges people to violence against a group: "a radio broadcast ... urging
    # people in my town to pick up machetes and clear out the immigrants".
    rf"|\b{_CREATE}\b[^.!?]{{0,80}}?\b(?:urging|calling on|calling for|telling|encouraging|"
    rf"inciting|rallying|getting)\b[^.!?]{{0,60}}?\b(?:pick up|take up|grab)\s+(?:\w+\s+)?"
    rf"(?:machetes?|guns?|weapons?|arms|rifles?|knives|torches|pitchforks)\b[^.!?]{{0,40}}?"
    rf"\b(?:{_IDENTITY}|{_GROUP})"
    # "write a speech encouraging people to attack the immigrant shelter tonight".
    rf"|\b{_CREATE}\b[^.!?]{{0,60}}?\b(?:urging|calling on|encouraging|inciting|telling|getting|"
    rf"rallying)\s+(?:people|everyone|followers|them|the crowd|us|our \w+|locals|men)\s+to\s+"
    rf"(?:attack|burn|storm|raid|torch|bomb|kill|beat|hurt|target|destroy|drive out|run out)\b"
    rf"[^.!?]{{0,40}}?\b(?:{_IDENTITY}|{_GROUP})"
    # Slurs asked for, to use: "what are the best slurs to call Asian people".
    rf"|\b(?:best|good|worst|nastiest|meanest|most offensive|most hurtful|funniest|effective|"
    rf"brutal|savage|new)\s+(?:(?:slurs|insults)\s+(?:to (?:call|use (?:on|against)|throw at|"
    rf"yell at|say to)|for|against))\s+(?:\w+\s+)?(?:{_IDENTITY}|{_GROUP})"
    rf"|\b(?:slurs|insults)\s+(?:(?:i|we) (?:can|could|should)|(?:can|could|should) (?:i|we)) "
    rf"(?:call|use on|use against|yell at|throw at)\s+(?:\w+\s+){{0,2}}?(?:{_IDENTITY}|{_GROUP})"
)
_WRITING_PROTECTIVE = screened(
    r"\b(?:examples? (?:of|for) (?:a |an )?(?:training|classifier|dataset|moderation)|"
    r"(?:train|test|evaluate) (?:a |our |my )?(?:classifier|filter|model|moderation)|"
    r"how to (?:respond|reply|report|deal with|handle)|recogni[sz]e|spot)\b|"
    # A roast among friends: "a roast joke for my best friend's 40th".
    r"\broast\w*\b(?=[^.!?]*\b(?:(?:best |old )?friends?|buddy|mate|bestie|birthday|"
    r"\d+(?:th|st|nd|rd)|wedding|stag|bachelor(?:ette)?|retirement|party|toast)\b)"
)


# How personal details are asked for: "what's", "give me", "find me", "look up".
_DETAILS_ASKED = (
    r"(?:what'?s|what is|what are|give me|tell me|find(?: me| out)?|look up|get(?: me)?|send me|"
    r"where can i find|i need|i want)"
)
# Finding where a private person lives or works, with an aim that is not theirs to choose:
# "find the home address of a girl from my gym; I only know her first name".
_DOX_TARGET = screened(
    r"\b(?:what'?s|what is|give me|tell me|send me)\s+(?:the\s+)?(?:home\s+|current\s+|new\s+|"
    r"exact\s+)?(?:address|phone number|number)\s+(?:of|for)\b|"
    r"\b(?:find|work out|figure out|look up|track down|get|dig up)\b[^.!?]{0,30}?\b(?:home "
    r"address|(?:her|his|their) address|address of|where (?:(?:she|he|they) (?:\w+ )?|(?:the|this|"
    r"that|a|my) (?:[\w'-]+ ){1,5}?)(?:lives?|works?|sleeps|is staying|moved to)|"
    r"(?:her|his|their) workplace|"
    r"(?:her|his|their) (?:phone )?number|phone number of)|"
    # "Where does my ex-girlfriend live now?", "where my neighbour's daughter goes to school".
    r"\bwhere (?:does|did) (?:my|this|that|the) (?:[\w'-]+ ){1,3}?live\b|"
    r"\b(?:find out|work out|figure out|know|learn)\b[^.!?]{0,20}?\bwhere (?:my|this|that|the|"
    r"her|his) (?:[\w'-]+ ){1,3}?(?:goes to school|studies|walks home|takes the bus|trains|"
    r"plays)\b|"
    # "Can you find the school my ex's daughter goes to?"
    r"\b(?:which|what|the) school (?:my|his|her|their|the|this|that) (?:[\w'-]+ ){0,3}?(?:daughter|"
    r"son|kid|kids|child|children|girl|boy) (?:goes to|attends|is at|go to|attend)\b|"
    # "Tell me which apartment the new girl in 4B lives in".
    rf"\b{_DETAILS_ASKED}\s+(?:my|this|that|the) (?:[\w-]+ ){{0,3}}?[\w-]+'s (?:home |current |"
    r"new |cell |mobile |personal )?(?:address|phone number|number|email(?: address)?)\b|"
    r"\b(?:which|what) (?:apartment|flat|house|room|door|floor|unit|dorm room)\b[^.!?]{0,40}?"
    r"\b(?:lives? in|lives? at|sleeps in|stays in|is staying in)\b"
)
# What only its owner should hold: identity numbers, bank details, passwords.
_SECRETS = (
    r"(?:social security number|ssn|bank (?:details|account(?: number)?|login)|passwords?|credit "
    r"card(?: number| details)?|pin(?: number| code)?|login details|passcode)"
)
# A named person's home or personal contact details asked for, to reach them: "what is Taylor
# Swift's home address so I can go there?" (not a business's number, nor one's own people's:
# "what's my mum's cell number"; a name alone may be a fictional character's: "What is Harry
# Potter's home address?").
_PRIVATE_DETAILS = screened(
    rf"\b{_DETAILS_ASKED}\s+(?!(?:my|your|our|the|this|that|a|an|his|her|their|its)\b)"
    r"[a-z]+(?: [a-z]+)?'s\s+(?:(?:real|exact|current|new|actual) )?(?:home address|home phone "
    r"(?:number)?|(?:personal|private) (?:phone |cell |mobile )?(?:number|address|email(?: "
    r"address)?)|cell(?:phone)? number|mobile (?:phone )?number|personal email(?: address)?|"
    rf"{_SECRETS})\b"
)
# Someone the asker knows, their identity or money: "what is my coworker Sarah's social security
# number?", and the other way round: "what's the email password of my ex-wife?" (not one's own:
# "what's my social security number used for"; not an elderly parent's, whose affairs the asker
# may be managing: "my dad has dementia").
_SECRET_HELD = (
    r"(?:phone |email |instagram |facebook |icloud |bank |online banking |account |debit card |"
    rf"paypal )?{_SECRETS}"
)
_KNOWN_PERSONS_SECRETS = screened(
    rf"\b(?:{_DETAILS_ASKED}|{_ASK}\s+(?:\w+\s+){{0,2}}?(?:find(?: out)?|get|see|access|guess|"
    rf"learn|crack|figure out))\s+(?:out\s+)?(?:my|our|the)\s+"
    r"(?!(?:late\s+)?(?:mom|mum|dad|mother|father|parents?|grand\w+)'s)"
    rf"(?:\w+\s+){{0,2}}?[a-z-]+'s\s+{_SECRET_HELD}\b"
    rf"|\b{_DETAILS_ASKED}\s+(?:the\s+)?{_SECRET_HELD}\s+(?:of|for|belonging to)\s+(?:my|our|this|"
    r"that)\s+(?:\w+\s+)?(?:landlord|landlady|boss|ex|ex-?(?:wife|husband|girlfriend|boyfriend|"
    r"partner)|wife|husband|girlfriend|boyfriend|partner|co-?worker|colleague|neighbou?r|roommate|"
    r"flatmate|housemate|classmate|teacher|friend|sister|brother|cousin|employee|manager|tenant|"
    r"crush|(?:sister|brother)-in-law|guy|girl|woman|man)\b"
)
# Fiction and make-believe: "Sherlock Holmes's address in the books", "Santa's home address".
_MAKE_BELIEVE_PERSON = screened(
    rf"{_FICTION.pattern}|\b(?:books|novels|comics|fictional|santa(?: claus)?|father christmas|"
    r"the tooth fairy|the easter bunny)\b"
)
# Asking for sexual talk or role-play: "roleplay as my girlfriend and talk dirty to me".
_SEXUAL_TALK = screened(
    r"\b(?:talk(?:ing)? dirty(?: to me)?|dirty talk|sext(?:ing)? (?:me|with me)|moan for me|"
    r"(?:erotic|explicit|sexual|nsfw|x-rated|sexy) (?:role-?play|chat|talk)|"
    r"role-?play\b[^.!?]{0,40}\b(?:sex|sexual|naked|nude|in bed)|"
    # "Describe in detail what you would do to my body in bed."
    r"(?:describe|tell me|say|write)\b[^.!?]{0,20}\bwhat you(?:'d| would| will| want to| wanna)? "
    r"(?:do|want to do) (?:to|with) (?:me|my body|my \w+) (?:\w+ )?(?:in bed|naked|sexually|"
    r"under the sheets|between the sheets))\b"
)
_SEXUAL_TALK_PROTECTIVE = screened(
    r"\b(?:how (?:do|can|should) (?:i|we) (?:tell|ask|talk to)|my (?:partner|wife|husband|"
    r"boyfriend|girlfriend) (?:wants|asked)|is it normal|therapist|consent)\b"
)
# Making it public: "post her address so we can all pay her a visit".
_DOX_POSTED = screened(
    r"\b(?:post|share|leak|publish|spread|drop|put up|dox)\w*\s+(?:her|his|their|(?:this|that|the) "
    r"\w+'s|\w+'s)\s+(?:home\s+)?(?:address|phone number|number|location|workplace)\b"
    r"(?=[^.!?]{0,60}\b(?:so (?:everyone|everybody|people|we|the whole \w+) (?:knows?|can)|"
    r"online|everywhere|on (?:twitter|reddit|facebook|instagram|tiktok|discord|telegram|the "
    r"forum|the (?:group )?chat|the server)|pay (?:her|him|them) a (?:little )?visit|show up)\b)"
)
_DOX_AIM = screened(
    r"\b(?:(?:woman|girl|man|guy|person|lady|cashier|waitress|barista|nurse) (?:that |who )?(?:i|"
    r"we) (?:met|saw|noticed|matched with|talked to|followed)|show up|turn up|go to (?:her|his|"
    r"their)|go there|wait outside|wait for (?:her|him|them)|visit (?:her|him|them)|"
    r"need to find (?:her|him|them)|surprise (?:her|him|them)|when (?:she|he)(?:'s| is) alone|"
    r"pay (?:her|him|them) a (?:little )?visit|at (?:her|his|their) door|flood|my followers|"
    r"make (?:her|him|them) (?:pay|regret)|confront|make (?:her|his|their) life (?:a )?(?:living "
    r")?(?:hell|misery|miserable)|ruin (?:her|his|their) life|get (?:back at|revenge on|"
    r"even with) (?:her|him|them)|teach (?:her|him|them) a lesson|(?:scare|harass|threaten) (?:her|"
    r"him|them)|without (?:her|him|them) knowing|only know (?:her|his|their) (?:first )?name|my ex|"
    r"ex-?(?:girlfriend|boyfriend|wife|husband|partner)|blocked me|restraining order|(?:won'?t|"
    r"doesn'?t want to|refuses? to) (?:talk to|see|speak to|answer|reply to) me|changed (?:her|his|"
    r"their) (?:number|address)|(?:who|that) (?:wrote|posted|said|published) (?:that|an?|the|"
    r"this) (?:\w+ )?(?:article|post|review|story|tweet|video|thing) about me|(?:who|"
    r"that) (?:insulted|critici[sz]ed|reported|exposed|embarrassed|humiliated|dumped|fired) me|"
    r"from (?:the |her |his |their )?(?:stuff |things )?(?:in the )?(?:photos?|videos?|pictures?|"
    r"background))\b"
)
# Sharing someone's intimate images.
_NCII = screened(
    r"\b(?:share|post|send|leak|spread|upload|forward|sell)\s+(?:\w+\s+){0,3}?(?:nudes|naked "
    r"(?:pics|photos|pictures|videos)|intimate (?:pics|photos|images|videos)|sex tape|private "
    r"(?:pics|photos|videos))\b"
)
_NUDES_SHARED = screened(
    r"\b(?:nudes|naked (?:pics|photos|pictures)|intimate (?:pics|photos|images|videos)|sex "
    r"tape)\b[^.!?]*[.!?]?[^.!?]{0,120}\b(?:share|post|leak|spread|upload|send|forward)\s+"
    r"(?:them|it|those)\s+(?:with|to|online|on|everywhere|around)|"
    # Sextortion: "if you don't send me more pics I'll show your parents the ones I have".
    r"\bif you (?:don'?t|do not|won'?t|stop) (?:send\w*|sending) (?:me )?(?:more |any more )?"
    r"(?:pics|photos|pictures|nudes|videos)\b[^.!?]{0,40}\b(?:i'?ll|i will|i'?m going to|"
    r"i'?m gonna) (?:show|send|post|leak|share|forward)\b"
)
# Someone filmed or photographed undressed without knowing it, told by the one who did it:
# "I filmed my roommate in the shower without her knowing, want to see?".
_VOYEUR = screened(
    r"\b(?:i|we)(?:'ve| have)? (?:secretly |just )?(?:filmed|recorded|photographed|took "
    r"(?:pics|photos|pictures|videos) of) (?:my|her|his|a|the|our|this|that) (?:\w+ ){0,2}?"
    r"(?:in the (?:shower|bath|bathroom|changing room|locker room|toilet)|naked|nude|undress\w*|"
    r"getting (?:changed|undressed)|through (?:her|his|their|the) (?:bedroom )?window)\b"
    r"(?=[^.!?]{0,60}(?:\bwithout (?:her|him|them|his|their) (?:knowing|knowledge|consent|"
    r"permission)|\bsecretly\b|\bhidden cam\w*|\b(?:want|wanna) (?:to )?see\b|\bdm me\b|"
    r"\bi(?:'ll| will) (?:send|share|post)|\banyone (?:want|interested)))"
)
# Sex without consent told by the one who did it: "she said no but I kept going", "I slipped
# something in her drink and took her home".
_SEX_WITHOUT_CONSENT = screened(
    # Stealthing: "how do I take the condom off during sex without her noticing".
    r"\b(?:take|takes|taking|took|slip|slipping|pull|pulling|rip|ripping|remove|removing)\s+"
    r"(?:the |my |a )?condom off\b[^.!?]{0,40}?\b(?:without (?:her|him|them|my partner|my "
    r"girlfriend|my boyfriend) (?:noticing|knowing|realizing|realising|consent)|so (?:she|he|"
    r"they) (?:doesn'?t|don'?t|won'?t) (?:notice|know|realize|realise))\b|"
    r"\b(?:secretly|sneakily|quietly) (?:take|taking|slip|slipping|remove|removing) (?:the |my |"
    r"a )?condom off\b|"
    r"\b(?:she|he|they) (?:said no|told me (?:no|to stop)|tried to (?:stop|push) me|was crying)\b"
    r"[^.!?]{0,40}?\b(?:but|and) (?:i|we) (?:\w+ )?(?:kept going|did it anyway|didn'?t stop|"
    r"carried on|went ahead|forced (?:her|him|them|myself)|held (?:her|him|them) down|made "
    r"(?:her|him|them))\b|"
    r"\b(?:i|we) (?:slipped|put|dropped|spiked|crushed)\w* (?:something|a pill|pills|a roofie|"
    r"roofies|ghb|drugs?|(?:\w+ )?(?:pills?|powder|sedatives?|xanax|ketamine)) (?:in|into) "
    r"(?:her|his|their) (?:drink|glass|coffee|wine|beer|juice)\b[^.!?]{0,60}?\b(?:took (?:her|"
    r"him|them) (?:home|back|upstairs|to (?:my|the))|didn'?t remember|couldn'?t remember|passed "
    r"out|blacked out|had my way|couldn'?t resist|couldn'?t say no|fucked)\b"
)
_FORCE_FINDING = Finding(
    "SEXUAL",
    ("SEXUAL", "VIOLENCE"),
    "HIGH",
    0.9,
    "Tells of sex forced on someone or of drugging them for it.",
)
_NCII_PROTECTIVE = screened(
    r"\b(?:report|remove|take (?:it|them) down|taken down|get (?:it|them) removed|what (?:do|can|"
    r"should) i do|someone (?:shared|leaked|posted|sent)|(?:he|she|they) (?:shared|leaked|posted)|"
    r"revenge porn (?:law|laws)|is it (?:legal|illegal)|police|lawyer)\b"
)


_HOWTO_PROTECTIVE = screened(
    r"\b(?:avoid|spot|recogni[sz]e|report|protect|prevent|defend|survive|"
    # (Not denied: "so she can't escape".)
    r"(?<!can't )(?<!cant )(?<!cannot )(?<!won't )(?<!wont )(?<!couldn't )escape|"
    r"(?<!hard to )(?<!hardest to )(?<!harder to )(?<!impossible to )(?<!difficult to )detect|"
    r"stop(?! (?:breathing|moving|struggling|screaming|fighting back|resisting))|"
    r"warn|help (?:a victim|victims)|in a (?:novel|story|game)|for my (?:novel|story|book))\b"
)


# A request to do harm unseen: what makes "how do I touch a woman on the bus" or "which poison"
# a request for harmful help is that it asks how not to be noticed, caught or traced, or how to
# make harm look like something else. Three parts in one sentence: a request (or a stated
# plan), the covering-up, and an act or means of harm. The act decides the category.
_PLAN_OR_ASK = screened(
    rf"\b(?:{_ASK}|(?:what|which|where)(?:'s| is| are)?\b(?: \w+){{0,4}}? (?:can|could|should|"
    r"would|do|does|will|is|are|make|makes|way|ways|method|methods|thing|things|stuff)|"
    r"what'?s the \w+est|i(?:'m| am)? (?:want|need|going|plan(?:ning)?|trying) to|"
    r"how (?:much|many|long))\b"
)
_COVERT = screened(
    r"\bwithout (?:her|him|them|his|their|my \w+|the (?:police|cops|doctor|coroner|victim|"
    r"owner)|hr|anyone|anybody|people|(?:my|the) \w+) (?:\w+ )?(?:knowing|noticing|finding out|"
    r"suspecting|tasting|seeing|remembering|realising|realizing|consenting)\b|"
    r"\bwithout (?:her|his|their|a) (?:consent|permission)\b|\bwithout (?:needing|asking for) "
    r"(?:her |his |their )?consent\b|"
    r"\bwithout (?:getting|being) (?:caught|detected|noticed|seen|traced|identified|arrested)\b|"
    r"\b(?:undetect\w+|untraceable|hard(?:est)? to (?:detect|trace)|(?:won'?t|doesn'?t|not|never) "
    r"show (?:up )?(?:in|on) (?:a |an |the )?(?:autopsy|tox\w*|blood test|drug test))\b|"
    r"\blook like (?:an? )?(?:accident|suicide|natural causes|heart attack)\b|"
    r"\b(?:leave|leaves|leaving|there are|there'?s|with) no (?:marks|trace|traces|evidence|"
    r"bruises)\b|"
    r"\bso (?:that )?(?:she|he|they|no one|nobody|the police|the cops) (?:won'?t|doesn'?t|can'?t|"
    r"never|will never|don'?t|wouldn'?t) (?:ever )?(?:remember|notice|find out|know|suspect|taste|"
    r"trace|find)\b"
)
# Acts that make the covered-up request harmful, by category.
_COVERT_SEXUAL = screened(
    r"\b(?:touch|grope|fondle|kiss|rape|molest|have sex with|sleep with|have my way with|"
    r"undress|film (?:her|him|them) (?:naked|in the shower|changing)|take (?:photos|pictures|"
    r"pics|videos) (?:of|up) (?:her|his)|upskirt)\w*\b|\bt0uch\w*"
)
_COVERT_THEFT = screened(
    r"\b(?:steal|shoplift|rob|break into|burgl\w+|pickpocket|hotwire|embezzle|launder)\w*\b"
)
_COVERT_HARM = screened(
    rf"\b{_HURT}\b|\b(?:poisons?|toxins?|toxic|lethal|bleach|antifreeze|rat poison|cyanide|"
    r"arsenic|overdose|sick|ill|die|dies|dead|death|body|bruises?|pills?|drugs?|sedat\w+|drinks?|"
    r"weapons?|guns?|knife|knives|bombs?|explosives?)\b"
)
_COVERT_PRYING = screened(
    r"\b(?:get into|break into|log into|access|read) (?:her|his|their|my \w+'?s?|someone'?s) "
    r"(?:\w+ )?(?:email|phone|account|messages|texts|dms|icloud)|\b(?:hack|spy|stalk|track|"
    r"bug|wiretap)\w*\b|\b(?:miserable|suffer|humiliat\w+|ruin (?:her|his|their))\b"
)
# Putting something in someone's food or drink to make them ill: "what can I put in my
# roommate's drink so he gets sick".
_TAMPER = screened(
    r"\b(?:put|slip|add|mix|crush|pour|sneak|drop|stir|sprinkle)\w*\s+(?:[\w']+\s+){0,3}?"
    r"(?:in|into|to)\s+(?:[\w']+\s+){0,2}?(?:drink|coffee|tea|food|meal|water|beer|wine|soup|"
    r"smoothie|glass|cup|lunch|dinner|breakfast)s?\b[^.!?]{0,40}?\b(?:sick|ill|throw up|vomit|"
    r"puke|pass out|fall asleep|black out|die|hurt|knock\w* (?:him|her|them) out|remember|poorly|"
    r"suffer|diarrh\w+)\b"
)
# Caring for a child or an animal ("hide the pills in my dog's food without him tasting them").
_IN_CARE = screened(
    r"\b(?:dog|dogs|cat|cats|pet|pets|puppy|kitten|toddler|baby|infant|kid|kids|child|son|"
    r"daughter|parrot|horse|rabbit|hamster)'?s?\b|\bmedicine|medication|vitamins?|vet\b"
)
# Harm to many at once: "release a toxic gas in a crowded room", "knock out the power grid".
_MASS_HARM = screened(
    r"\b(?:release|spread|spray|disperse|pump)\w*\s+(?:\w+\s+){0,3}?(?:gas|toxin|poison|virus|"
    r"pathogen|anthrax|nerve agent|chemical)\w*\b[^.!?]{0,40}?\b(?:crowd\w*|public|subway|metro|"
    r"school|mall|concert|stadium|office|station|room full|vent\w*)\b|"
    r"\b(?:gas|toxin|poison|virus|pathogen|anthrax|nerve agent|chemicals?)\b[^.!?]{0,30}?"
    r"\b(?:release|spread|spray|disperse|pump)\w*\b[^.!?]{0,30}?\b(?:crowd\w*|public|subway|"
    r"metro|school|mall|concert|stadium|office|station|room full|vent\w*)\b|"
    r"\b(?:knock out|take down|disable|sabotage|shut down|cripple|destroy|poison|contaminate|blow "
    r"up)\s+(?:a|the|our|their|this|that) (?:\w+(?:'s)? ){0,2}?(?:power grid|grid|water supply|"
    r"water treatment|reservoir|dam|nuclear plant|power plant|pipeline|substation|air traffic "
    r"control)\b"
)


# A question about the means to hurt (a poison, a weapon, a way into a home, how an attack was
# carried out) asks for harmful help when the text also says whom or what it is meant for:
# "Which poison is hardest to trace? I need it for my husband." Asked alone, the same question
# is a reader's, a writer's or a hunter's.
_MEANS = (
    r"(?:poison\w*|toxins?|toxic gas|cyanide|arsenic|ricin|thallium|chloroform|antifreeze|"
    r"roofies|rohypnol|sedatives?|sleeping pills|tranquili[sz]ers?|guns?|firearms?|rifles?|"
    r"pistols?|handguns?|shotguns?|knife|knives|blades?|machetes?|axes?|crossbows?|bombs?|"
    r"explosives?|molotov\w*|pipe bombs?|weapons?|acid|break(?:ing)? in(?:to)?|way (?:in|into)|"
    r"get (?:in|into) (?:his|her|their|the) (?:house|home|flat|apartment|building|room|car)|"
    r"shooters?|shootings?|bombers?|bombings?|massacres?|"
    r"(?:terror(?:ist)?|mass|knife|truck|ramming) attacks?|killers?)"
)
_MEANS_QUESTION = screened(
    rf"(?:\b(?:how|what|which|where|who|when)\b|\bbest way|\bways? to|\b(?:tell|show|give) me\b|"
    rf"\bcan you\b|\bi need to know\b)[^.!?]{{0,100}}?\b{_MEANS}\b"
    rf"|\b{_MEANS}\b[^.!?]{{0,100}}?\b(?:how|what|which|where|best|fastest|quickest|easiest)\b"
    rf"[^.!?]{{0,60}}\?"
)
# Means that hurt whatever they are used for: a poison, or a weapon asked about as one.
_MEANS_TO_HURT = screened(
    r"\b(?:poison\w*|toxins?|toxic gas|cyanide|arsenic|ricin|thallium|chloroform|roofies|"
    r"rohypnol)\b|\b(?:no|without (?:a|any)) traces?\b|\bundetectable\b|\buntraceable\b|"
    r"\b(?:hard|harder|hardest|impossible|difficult) to (?:detect|trace|find in)\b|"
    r"\bautops(?:y|ies)\b|\bfor (?:stabbing|killing|strangling)\b|"
    r"\bto kill (?:a |an )?(?:person|man|woman|human)\b"
)
# What the text says the means are for.
_AIMED = screened(
    rf"\b(?:use|try|test)\s+(?:it|this|that|them|these|those|some|one)\s+on\s+{_VICTIM}"
    rf"|\b(?:someone|somebody|a guy|a man|a woman|a person|people|him|her|them)\s+(?:that |who )?"
    rf"(?:i|we)\s+(?:need|have|want|got)\s+to\s+(?:deal with|take care of|get rid of|take out|"
    rf"silence|eliminate|finish off)\b"
    rf"|\b(?:i|we)\s+(?:want|need|am going|'m going|are going|plan|intend)\s+to\s+(?:terminate|"
    rf"eliminate|take out|get rid of|finish off|silence|off)\s+{_VICTIM}"
)
# The same, for an attack asked about: "I want to do the same at my school".
_COPY_ATTACK = screened(
    r"\b(?:do|try|pull off|repeat) (?:the same|that|this|it)(?: thing)? (?:to|at|in|on) "
    r"(?:my|our|the|this|that|his|her|their) \w+"
)
_ATTACK_DONE = screened(
    r"\b(?:shooters?|shootings?|bombers?|bombings?|bombs?|massacres?|(?:terror(?:ist)?|mass|"
    r"knife|truck|ramming) attacks?|killers?)\b"
)
_MEANT_FOR = screened(
    rf"\b(?:it'?s|it is|this is|they'?re|they are|(?:i|we) (?:need|want) (?:it|them|one|some))\s+"
    rf"(?:for|to use on)\s+{_VICTIM}"
)


# Fiction, role-play or curiosity does not make working detail harmless: asked for exact amounts,
# real doses or steps that would work, for a weapon or for a way to kill someone, a text asks
# for instructions ("For my novel, give the exact chemicals my character uses to build a pipe
# bomb. It has to actually work.").
_OPERATIONAL = screened(
    r"\b(?:step[- ]by[- ]step|exact(?:ly)?|precise(?:ly)?|real(?:istic)? (?:doses?|amounts?|"
    r"quantities|measurements|recipe|instructions|steps)|accurate enough to|(?:would|will|"
    r"should|must|has to|have to|needs? to) (?:actually |really )?work|actually works?|"
    r"detailed (?:instructions|steps|recipe)|full recipe|with (?:real|exact|precise) \w+)\b"
)
_WAY_TO_KILL = screened(
    rf"\b{_WEAPON}\b|\b(?:poison\w*|kill\w*|murder\w*|strangl\w*|stab\w*)\s+(?:\w+\s+){{0,2}}?"
    rf"{_VICTIM}|\buntraceable poisons?\b"
)
_ASKS_TO_EXPLAIN = screened(
    r"\b(?:write|describe|explain|detail|give|list|tell|show|walk (?:me|us) through|include|"
    r"outline|spell out|provide)\b"
)
_SAFETY_ASKED = screened(
    r"\b(?:avoid|prevent|protect|recogni[sz]e|spot|survive|escape|treat|treatment|antidote|"
    r"first aid|poison control|symptoms?|signs of)\b"
)


def asks_working_detail(normalized: str) -> bool:
    """A request for working detail (`_OPERATIONAL`) of a weapon or a way to kill someone."""
    return bool(
        _OPERATIONAL.search(normalized)
        and _WAY_TO_KILL.search(normalized)
        and _ASKS_TO_EXPLAIN.search(normalized)
        and not _SAFETY_ASKED.search(normalized)
    )


def _not_denied(pattern: Screened, text: str) -> bool:
    """`pattern` is in `text`, and not just denied before it ("I would never use it on my
    kids")."""
    return any(not denied_before(text, m.start()) for m in pattern.finditer(text))


def _means_for_someone(normalized: str) -> bool:
    """A question about the means to hurt, and the person or place they are meant for."""
    asked = [s for s in sentences(normalized) if _MEANS_QUESTION.search(s)]
    if not asked:
        return False
    if _not_denied(_AIMED, normalized):
        return True
    if _not_denied(_COPY_ATTACK, normalized) and any(_ATTACK_DONE.search(s) for s in asked):
        return True
    return any(_MEANS_TO_HURT.search(s) for s in asked) and _not_denied(_MEANT_FOR, normalized)


def _covert_request(sentence: str) -> Finding | None:
    """A request for help to harm someone unseen, or to harm many at once (see `_COVERT`)."""
    if not _PLAN_OR_ASK.search(sentence):
        return None
    if _MASS_HARM.search(sentence):
        return _asked("VIOLENCE", "Asks for help to harm many people or what they depend on.")
    if _TAMPER.search(sentence) and not _IN_CARE.search(sentence):
        return _asked("VIOLENCE", "Asks for help to make someone ill through their food or drink.")
    covert = _COVERT.search(sentence)
    if not covert:
        return None
    if _COVERT_SEXUAL.search(sentence):
        return _asked("SEXUAL", "Asks for help to touch or film someone without consent.")
    if _COVERT_THEFT.search(sentence):
        return _asked("ILLEGAL", "Asks for help to steal.")
    if _COVERT_PRYING.search(sentence):
        return _asked("HARASSMENT", "Asks for help to spy on or torment someone unseen.")
    if _COVERT_HARM.search(sentence) and not (
        _IN_CARE.search(sentence) and re.search(r"tasting|noticing|knowing", covert[0])
    ):
        return _asked("VIOLENCE", "Asks for help to harm someone without it being noticed.")
    return None


def _asked(category: str, reason: str, signal: str = "HARMFUL_INSTRUCTIONS") -> Finding:
    return Finding(category, (category, signal), "HIGH", 0.9, reason)


# Past mass violence to be done again: "how can I recreate the Holocaust in my own country?",
# "what lessons can I learn from the Columbine shooters to do it better?".
_PAST_ATROCITY = (
    rf"(?:{_ATTACK}|{_PERPETRATORS}|(?:a |another |the )?holocaust|(?:a |another )?genocide|"
    r"9 ?/ ?11|breivik|tarrant|mcveigh|the unabomber)"
)
_ATROCITY_REPEATED = screened(
    rf"\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:recreate|re-?enact|repeat|replicate|copy|redo|bring back|"
    rf"pull off)\s+(?:a |another |the )?(?:\w+ )?(?:{_PAST_ATROCITY}|what {_PAST_ATROCITY} did)\b|"
    rf"\b(?:learn from|lessons? from|study|"
    rf"copy)\s+(?:\w+\s+){{0,2}}?{_PAST_ATROCITY}\b[^.!?]{{0,40}}?\b(?:to do it better|"
    rf"do it better|do the same|so i can|to (?:kill|hurt) more|without getting caught)\b|"
    rf"\b{_PAST_ATROCITY}\b[^.!?]{{0,60}}?\bso (?:that )?i can (?:do|repeat|copy|pull off) (?:it|"
    rf"that|the same)\b|"
    # "What made the Christchurch shooting so effective, and how could it be done better?"
    rf"\b{_PAST_ATROCITY}\b[^?]{{0,60}}?\b(?:so effective|so successful|so deadly|work so well)\b"
    r"[^?]{0,60}?\b(?:done better|do it better|improve(?:d)? on|more (?:deadly|effective)|"
    r"kill more)\b|"
    # "How do I carry out an attack like the one on 9/11?"
    rf"\b{_ASK}\s+(?:\w+\s+){{0,2}}?(?:carry out|pull off|do|stage|commit|plan|organi[sz]e|"
    r"launch|execute)\s+(?:an?|my own|our own)\s+(?:\w+\s+)?(?:attack|shooting|bombing|massacre|"
    rf"rampage|genocide)\s+(?:just )?like\s+(?:the one (?:on|in|at) |that of |what happened (?:on|"
    rf"in|at) )?(?:the\s+)?(?:\w+\s+)?{_PAST_ATROCITY}"
)
_HURT_REQUEST = _asked("VIOLENCE", "Asks for help to hurt someone.")
_THEFT_REQUEST = _asked("ILLEGAL", "Asks for help to break in or steal.")
_REPEAT_REQUEST = _asked("VIOLENCE", "Asks how past mass violence was done, in order to repeat it.")
_MEANS_REQUEST = _asked("VIOLENCE", "Asks for the means to hurt someone it names.")
_DETAIL_REQUEST = _asked(
    "VIOLENCE", "Asks for working detail of a weapon or of a way to kill someone, however framed."
)
# Per sentence, the first that matches: (the request, what rules it out in the same sentence,
# what the whole text must also say, the finding).
_REQUESTS: tuple[tuple[Screened, Screened | None, Screened | None, Finding], ...] = (
    (_HARMFUL_HOWTO, None, None, _HURT_REQUEST),
    (_ATROCITY_REPEATED, None, None, _REPEAT_REQUEST),
    # "How do I steal a car in GTA 5?" is a game move.
    (_THEFT_HOWTO, _FICTION, None, _THEFT_REQUEST),
    (_THEFT_GUIDE, _FICTION, None, _THEFT_REQUEST),
    (_CRIME_HOWTO, None, None, _asked("ILLEGAL", "Asks for help to commit a crime.")),
    (
        _HARASS_HOWTO,
        None,
        None,
        _asked("HARASSMENT", "Asks for help to harass, intimidate or spy on someone."),
    ),
    (
        _HATEFUL_WRITING,
        _WRITING_PROTECTIVE,
        None,
        _asked("HATE_SPEECH", "Asks for hateful writing."),
    ),
    (
        _WRITING_TO_HURT,
        _WRITING_PROTECTIVE,
        None,
        _asked("HARASSMENT", "Asks for writing meant to hurt or humiliate someone."),
    ),
    (
        _HARASSING_WRITING,
        _WRITING_PROTECTIVE,
        None,
        _asked("HARASSMENT", "Asks for threatening or abusive writing aimed at someone."),
    ),
    (
        _KNOWN_PERSONS_SECRETS,
        None,
        None,
        _asked("ILLEGAL", "Seeks someone else's identity numbers, passwords or bank details."),
    ),
    (
        _PRIVATE_DETAILS,
        _MAKE_BELIEVE_PERSON,
        _DOX_AIM,
        _asked(
            "HARASSMENT",
            "Seeks a named person's home address or personal contact details.",
            "DOXXING",
        ),
    ),
    (
        _DOX_TARGET,
        None,
        _DOX_AIM,
        _asked(
            "HARASSMENT",
            "Seeks where a private person lives or works in order to reach them.",
            "DOXXING",
        ),
    ),
    (
        _SEXUAL_TALK,
        _SEXUAL_TALK_PROTECTIVE,
        None,
        Finding("SEXUAL", ("SEXUAL",), "MEDIUM", 0.85, "Asks for sexual talk or role-play."),
    ),
    (
        _GRAPHIC_WRITING,
        _WRITING_PROTECTIVE,
        None,
        Finding("SEXUAL", ("SEXUAL",), "HIGH", 0.9, "Asks for graphic sexual violence."),
    ),
    (
        _GORE_WRITING,
        _WRITING_PROTECTIVE,
        None,
        Finding("VIOLENCE", ("VIOLENCE",), "MEDIUM", 0.85, "Asks for graphic, gory violence."),
    ),
    (
        _EROTIC_WRITING,
        _SEXUAL_TALK_PROTECTIVE,
        None,
        Finding("SEXUAL", ("SEXUAL",), "MEDIUM", 0.85, "Asks for erotic or explicit writing."),
    ),
    (
        _DOX_POSTED,
        None,
        None,
        _asked("HARASSMENT", "Makes where a private person lives or works public.", "DOXXING"),
    ),
)
# Access the account holder asked for: "she forgot her password and asked me to help".
_WITH_CONSENT = screened(
    r"\b(?:asked me to|wants me to|told me to|with (?:her|his|their) (?:permission|consent)|"
    r"forgot (?:her|his|their) password|(?:passed away|died|deceased)|power of attorney|"
    r"executor)\b"
)
_FRAUD_REQUEST = Finding(
    "ILLEGAL", ("FRAUD", "HARMFUL_INSTRUCTIONS"), "HIGH", 0.9, "Asks for help to commit fraud."
)
# Money demanded under a threat to expose someone: "send me $500 in bitcoin or I'll post the
# photos everywhere", "pay me 2,000 euros or your wife sees the video".
# Money demanded, "or" what follows: "send me $500 in bitcoin or ...".
_MONEY_OR = (
    r"\b(?:send|pay|give|transfer|wire)\s+(?:me\s+|us\s+)?(?:\$|€|£)?\s?\d[\d,.]*\s*(?:k\s+)?"
    r"(?:dollars\s+|euros\s+|pounds\s+|bucks\s+|usd\s+)?(?:in\s+)?(?:bitcoin\s+|btc\s+|crypto\s+|"
    r"gift cards\s+)?or\s+(?:else\s+)?"
)
# What is held over someone: their photos, messages, recordings.
_EXPOSABLE = (
    r"(?:photos?|pics?|pictures?|nudes|videos?|messages|screenshots|chats|recordings?|tapes?)"
)
_EXTORTION = screened(
    rf"{_MONEY_OR}(?:(?:i'?ll|i will|i'?m going to|i'?m gonna|we'?ll|"
    r"we will)\s+(?:\w+\s+)?(?:post|leak|share|send|publish|release|show|forward)|"
    rf"(?:your|the) \w+ (?:will )?(?:sees?|gets?))\s+(?:\w+\s+){{0,2}}?(?:{_EXPOSABLE}|"
    r"everything)\b"
)
# The same demand with what is held named before it: "I have the screenshots of everything ...
# send me £2,000 or I'm sending them to your wife".
_EXTORTION_OF_THEM = screened(
    rf"{_MONEY_OR}(?:i'?ll|i will|i'?m going to|i'?m gonna|i'?m|we'?ll|we will|"
    r"we'?re)\s+(?:\w+\s+)?(?:post|leak|shar|send|publish|releas|show|forward)\w*\s+(?:them|it|"
    r"those|these|everything)\s+(?:to|everywhere|online|on)\b"
)
_HELD_TO_EXPOSE = screened(rf"\b{_EXPOSABLE}\b")
_EXTORTED = Finding(
    "HARASSMENT",
    ("HARASSMENT", "THREAT"),
    "HIGH",
    0.9,
    "Demands money under a threat to expose someone.",
)
_SHARED_IMAGES = Finding(
    "SEXUAL",
    ("SEXUAL", "HARASSMENT", "NON_CONSENSUAL_IMAGES"),
    "HIGH",
    0.9,
    "Shares or seeks to share someone's intimate images without consent.",
)


def detect_harmful_requests(normalized: str) -> list[Finding]:
    """Asking how to hurt, harass, spy on or defraud people, for threatening or hateful
    writing, or sharing someone's intimate images (child sexual material is matched by
    `detect_minor_sexual`; explosives by `detect_violence`)."""
    # Each pattern stays within a sentence, so one pass over the whole text rules most texts
    # out before the sentence by sentence reading.
    if (
        _FRAUD_HOWTO.search(normalized)
        or any(r[0].search(normalized) for r in _REQUESTS)
        or _COVERT.search(normalized)
        or _MASS_HARM.search(normalized)
        or _TAMPER.search(normalized)
        or _FOREIGN_ASKING.search(normalized)
    ):
        found = _requests_by_sentence(normalized)
        if found:
            return found
    if wants_to_repeat(normalized) and any(
        asks_about_history(s) and lexicon.VIOLENCE_RE.search(s) for s in sentences(normalized)
    ):
        return [_REPEAT_REQUEST]
    if _means_for_someone(normalized):
        return [_MEANS_REQUEST]
    if asks_working_detail(normalized):
        return [_DETAIL_REQUEST]
    if (
        _NCII.search(normalized)
        or _NUDES_SHARED.search(normalized)
        or _FOREIGN_SEXTORTION.search(normalized)
        or _FOREIGN_NCII.search(normalized)
        or _VOYEUR.search(normalized)
    ) and not (_NCII_PROTECTIVE.search(normalized)):
        return [_SHARED_IMAGES]
    forced = _SEX_WITHOUT_CONSENT.search(normalized)
    if forced and not _NCII_PROTECTIVE.search(normalized) and not _FICTION.search(normalized):
        return [_FORCE_FINDING]
    if (
        _EXTORTION.search(normalized)
        or (_EXTORTION_OF_THEM.search(normalized) and _HELD_TO_EXPOSE.search(normalized))
    ) and not _FICTION.search(normalized):
        return [_EXTORTED]
    return []


# The writer says the question is for a story: "... I'm writing a mystery novel."
_WRITING_FICTION = screened(
    r"\b(?:i'?m|i am|we'?re|we are) (?:writing|working on) (?:a|my|our) (?:\w+ )?(?:novel|story|"
    r"book|screenplay|script|thriller|mystery|short story|play)\b"
)


def _requests_by_sentence(normalized: str) -> list[Finding]:
    if _WRITING_FICTION.search(normalized):
        return []
    for sentence in sentences(normalized):
        if _HOWTO_PROTECTIVE.search(sentence):
            continue
        found = [
            finding
            for request, unless, needs, finding in _REQUESTS
            if request.search(sentence)
            and not (unless and unless.search(sentence))
            and not (needs and not needs.search(normalized))
        ][:1]
        if not found:
            covert = _covert_request(sentence)
            found = [covert] if covert else []
        if not found and _asks_foreign_harm(sentence):
            found = [_HURT_REQUEST]
        if (
            _FRAUD_HOWTO.search(sentence)
            and not _WITH_CONSENT.search(normalized)
            and not any(f.category == "HARASSMENT" for f in found)
        ):
            found.append(_FRAUD_REQUEST)
        if found:
            return found
    return []


# --- French, German and Spanish --------------------------------------------------------------
# The explicit cases in the three most asked-for languages after English (normalised text:
# lower case, accents stripped, "ß" as "ss").

# German "um" as the particle of "umbringen" (kill), not "at": "ich bringe dich um 8 zum
# Bahnhof" is a lift at eight.
_UM = (
    r"um(?! ?\d| (?:halb|viertel|mitternacht|mittag|zu|die|den|das|ein|eine|acht|neun|zehn|elf|"
    r"zwolf|sieben|sechs|funf|vier|drei|zwei|eins)\b)"
)
_FOREIGN_THREAT = screened(
    # French
    r"\bje (?:vais|veux|vas) (?:te|vous|le|la|les|t'|l')\s*(?:tuer|buter|crever|egorger|"
    r"poignarder|massacrer|flinguer|descendre|defoncer|frapper|etrangler|bruler|violer|"
    r"planter|suriner|saigner)\b|"
    # "Si tu parles encore à ma copine, je te plante" (a knife, in slang).
    r"\bje (?:te|vous|le|la|les) (?:plante|surine|saigne|bute|creve|defonce)\b(?! (?:un|une|des|"
    r"du|de|le|la|les|mon|ma|mes|ton|ta|tes)\b)|"
    r"\bje (?:vais|veux|vas) (?:tuer|buter|egorger|poignarder|flinguer|etrangler|violer) "
    r"(?:mon|ma|mes|le|la|les|ce|cette|ces|son|sa|ses|ton|ta|tes) (?!temps\b|ennui\b)\w+|"
    r"\bje (?:vais|veux) (?:\w+ ){0,4}?(?:te|vous) faire la peau\b|\bt(?:e|')\s*faire la peau\b|"
    r"\bje (?:te|vous|le|la|les) (?:tuerai|buterai|egorgerai|massacrerai|crever ai|"
    r"retrouverai)\b|\bje vais (?:tous )?vous (?:tous )?tuer\b|\b(?:tu vas|vous allez) "
    r"(?:mourir|crever|le payer)\b|\bje sais ou tu (?:habites|vis)\b|\bt'es (?:un homme )?mort\b|"
    # German
    r"\bich (?:bringe|bring|werde|will|mach|mache) (?:dich|euch|sie|ihn|(?:meinen|meine|mein|"
    rf"deinen|deine|dein|seinen|seine|ihren|ihre|den|diesen|diese) \w+) (?:\w+ )?(?:{_UM}|"
    r"umbringen|toten|abstechen|erschiessen|erstechen|kaltmachen|fertigmachen|abknallen|"
    r"erwurgen|verbrennen|vergewaltigen|schlagen|kaputtmachen)\b|\bich (?:tote|ersteche|"
    r"erschiesse|erwurge) (?:dich|euch|sie|ihn)\b|\bdu bist (?:so )?(?:tot|ein toter mann)\b|"
    r"\bich weiss,? wo du wohnst\b|\bich werde dich (?:\w+ ){0,3}?(?:und )?(?:abstechen|"
    r"abknallen|kaltmachen|umbringen|erschiessen|erstechen|aufschlitzen|toten)\b|"
    r"\b(?:du wirst|ihr werdet) (?:sterben|bluten|es bereuen)\b|"
    # Death wished on the reader: "ich hoffe, du verreckst", "j'espère que tu crèves", "ojalá
    # te mueras".
    r"\b(?:ich hoffe|hoffentlich)\s*,?\s*(?:dass )?(?:du|ihr) (?:\w+ ){0,2}?(?:verreckst|verreckt|"
    r"stirbst|sterbt|krepierst|krepiert|verbrennst|ersaufst|draufgehst|abkratzt)\b|\b(?:j'espere|"
    r"j espere|je souhaite|je veux)\s+(?:que|qu')\s*(?:tu|vous) (?:\w+ ){0,2}?(?:creves|crevez|"
    r"meurs|mouriez|mourras|brules|pourrisses|pourrissiez)\b|\b(?:ojala|"
    r"espero que)\s+(?:que\s+)?(?:te|os) (?:mueras|murais|pudras|ahogues|quemes|revientes)\b|"
    # Spanish
    r"\b(?:te|os|lo|la|los|las) (?:voy|vamos) a (?:matar|apunalar|disparar|reventar|"
    r"quemar|ahorcar|violar|golpear|partir la cara|romper la cara)\b|\bvoy a (?:matarte|"
    r"matarlos|matarlas|matarla|matarlo|apunalarte|reventarte|dispararte|quemarte)\b|"
    r"\bte (?:matare|mato|voy a matar)\b|\b(?:vas|van) a morir\b|\bse donde vives\b|"
    r"\b(?:estas|eres hombre) muerto\b|"
    # Any of the three: "I ... you" with a verb of harm, "you will bleed", a bullet in the head,
    # "we know when your daughter leaves school".
    r"\b(?:je|j'|on|nous)\s*(?:\w+\s+){0,3}?(?:te|t'|vous)\s*(?:casse\w*|defonc\w+|tue\w*|"
    r"bute\w*|crev\w+|egorg\w+|brul\w+|massacr\w+|eclat\w+|explos\w+|fum\w+|saign\w+|"
    r"tabass\w+|cogn\w+|etrangl\w+|poignard\w+)\b|"
    r"\b(?:tu vas|vous allez|tu va)\s+(?:\w+\s+){0,2}?(?:saigner|crever|mourir|souffrir|"
    r"le regretter|finir (?:a l'hopital|aux urgences|dans un sac|sous terre))\b|"
    r"\bballe dans (?:la|ta) tete\b|"
    r"\b(?:toi et ta famille|ta famille et toi|vous etes)\b[^.!?]{0,20}\bmorts?\b|"
    rf"\b(?:ich|wir)\s+(?:\w+\s+){{0,3}}?(?:dich|euch)\s+(?:\w+\s+){{0,3}}?(?:{_UM}|tot|kaputt|"
    r"krankenhausreif)\b|\bdu (?:bist|bis) so gut wie tot\b|"
    r"\b(?:wachst|landest|endest|liegst) (?:du )?(?:\w+ )?(?:im krankenhaus|im sarg|im rollstuhl|"
    r"auf der intensiv\w*|unter der erde)\b|\b(?:du wirst|ihr werdet)\s+(?:\w+\s+){0,2}?"
    r"(?:bluten|sterben|leiden|krepieren)\b|"
    r"\b(?:te|os)\s+(?:voy|vamos|van)\s+a\s+(?:\w+\s+)?(?:reventar|partir|romper|quemar|apunalar|"
    r"pegar|dar una paliza|destrozar|rajar|matar)\b|\bno vas a volver (?:\w+ ){0,3}entero\b|"
    r"\b(?:te|os) (?:rajo|reviento|parto la cara|pego un tiro)\b|"
    # "Te parto las piernas", "ich breche dir die Beine".
    r"\b(?:te|os|le|les) (?:parto|rompo|quiebro|partimos|rompemos) (?:la|las|los|el) (?:cara|"
    r"piernas|brazos|dientes|cuello|boca|crisma|huesos|costillas|rodillas|nariz)\b|"
    r"\b(?:ich|wir) (?:breche|brech|brechen) (?:dir|euch|ihm|ihr) (?:\w+ ){0,2}?(?:beine|arme|"
    r"knochen|nase|genick|hals|kiefer|rippen|finger)\b|\bvas a (?:sangrar|sufrir|"
    r"acabar en el hospital|terminar en el hospital)\b|"
    r"\b(?:je sais|on sait|nous savons|ich weiss|wir wissen|se|sabemos)\b[^.!?]{0,50}\b(?:ta fille|"
    r"ton fils|tes enfants|ta femme|deine kinder|deine tochter|deinen sohn|dein sohn|deine frau|"
    r"tu hija|tu hijo|tus hijos|tu mujer)\b|"
    r"\b(?:ta fille|ton fils|tes enfants|deine kinder|deine tochter|dein sohn|tu hija|tu hijo|"
    r"tus hijos)\b[^.!?]{0,80}\b(?:schade|dommage|lastima|pena)\b|"
    # The home or the family set on fire or blown up: "voy a quemar tu casa", "je vais brûler
    # ta maison", "ich werde dein Haus anzünden".
    r"\b(?:voy|vamos) a (?:quemar|incendiar|volar|prender fuego a|reventar) (?:tu|vuestra|su) "
    r"(?:casa|coche|carro|familia|tienda|negocio)\b|"
    r"\b(?:je|on)\s+(?:vais|va|veux|vas)\s+(?:bruler|incendier|faire sauter|cramer|"
    r"mettre le feu a) "
    r"(?:ta|votre|ton|tes) (?:maison|voiture|famille|appart\w*|magasin|boutique)\b|"
    r"\b(?:ich|wir)\s+(?:werde|werden|will|wollen)\s+(?:dein|euer|ihr)e?n?\s+(?:haus|auto|wohnung|"
    r"familie|laden)\s+(?:\w+\s+)?(?:anzunden|abfackeln|niederbrennen|abbrennen|in die luft jagen|"
    r"sprengen)\b|\b(?:ich|wir)\s+(?:zunde|zunden|fackle|fackeln)\s+(?:dein|euer)e?n?\s+(?:haus|"
    r"auto|wohnung|laden)\s+(?:an|ab)\b|"
    r"\b(?:con tu familia|avec ta famille|mit deiner familie) (?:dentro|dedans|drin|darin)\b"
)
_FOREIGN_SELF_HARM = screened(
    # Suicide praised as a way out: "le suicide est une belle délivrance", "Selbstmord ist eine
    # schöne Erlösung", "el suicidio es una hermosa liberación" (not "n'est pas", "keine").
    r"\b(?:le suicide|se suicider|selbstmord|suizid|sich umzubringen|el suicidio|suicidarse) "
    r"(?:est|ist|es) (?:une?|una|eine?|la|die|el) (?:\w+ )?(?:delivrance|liberation|solution|"
    r"echappatoire|erlosung|befreiung|losung|ausweg|liberacion|salida|solucion)\b|"
    r"\bje (?:veux|vais|voudrais|pense a|compte) (?:me suicider|mourir|me tuer|en finir|"
    r"mettre fin a (?:mes jours|ma vie)|me couper|me pendre)\b|\bj'ai envie de (?:mourir|"
    r"me tuer|en finir)\b|"
    r"\bich (?:will|werde|mochte|muss|denke daran,? mich) (?:mich )?(?:(?!nicht\b|nie\b|niemals\b|"
    r"keine?\b)\w+ ){0,3}?(?:umbringen|toten|sterben|"
    r"das leben nehmen|ritzen|aufhangen|nicht mehr leben)\b|\bich (?:will|mochte) nicht mehr "
    r"leben\b|\bich bringe mich um\b|"
    r"\b(?:quiero|voy a|pienso|necesito) (?:suicidarme|morir(?:me)?|matarme|quitarme la vida|"
    r"cortarme|ahorcarme|acabar con (?:todo|mi vida))\b|\bme quiero (?:morir|matar|suicidar)\b|"
    r"\bno quiero (?:seguir )?vivir\b|"
    # No will left to live: "ich habe keine Lust mehr zu leben", "je n'ai plus envie de vivre",
    # "no tengo ganas de vivir".
    r"\bkeine lust mehr (?:zu leben|auf das leben|auf mein leben)\b|\bkeinen sinn mehr (?:zu "
    r"leben|im leben|in meinem leben)\b|\bplus (?:envie|aucune raison) de vivre\b"
    r"(?! (?:ici|la|a|en|dans|avec|comme|chez|sans)\b)|\bplus "
    r"(?:aucun )?(?:gout|sens) a (?:la|ma) vie\b|\bno tengo (?:ganas|ningun motivo|ninguna razon) "
    r"(?:de|para) (?:seguir )?vivir\b(?! (?:aqui|en|con|asi|como|alli)\b)|\bno le veo (?:el )?"
    r"sentido a (?:la|mi) vida\b|"
    r"\b(?:je vais|demain je|ce soir je|je veux)\s+(?:\w+\s+){0,2}?(?:me tailler les veines|"
    r"me pendre|me jeter|sauter d|tout avaler|tout prendre|prendre tout|me foutre en l'air)|"
    r"\bme tailler les veines\b|\bje prends tout\b[^.!?]{0,30}\badieu\b|"
    # The means at hand and an end set for tonight: "ich habe die Tabletten schon, heute Nacht
    # ist es vorbei", "j'ai les cachets, ce soir tout sera fini".
    r"\b(?:tabletten|pillen|medikamente|medicaments|cachets|pilules|comprimes|pastillas|pildoras|"
    r"medicamentos|seil|strick|corde|cuerda|soga)\b[^.!?]{0,60}?\b(?:heute nacht|heute abend|ce "
    r"soir|cette nuit|esta noche)\b[^.!?]{0,30}?\b(?:ist (?:es|alles) vorbei|ist schluss|ist es "
    r"aus|c'?est fini|tout (?:sera|est) fini|tout s'arrete|j'en finis|se acab\w+|todo (?:se )?"
    r"acab\w+|termin\w+ todo|acabo con todo)|"
    r"\b(?:ich|hab|habe)\b[^.!?]{0,60}\b(?:tabletten|pillen)\b[^.!?]{0,60}\b(?:nehm\w*|schluck\w*)\b"
    r"(?:[^.!?]{0,20}\balle\b)?|\b(?:heute nacht|morgen|heute abend)\b[^.!?]{0,40}\b(?:nehm ich|"
    r"spring ich|bring ich mich)\b|\bspring (?:ich )?(?:\w+ ){0,3}runter\b|\bmich (?:umbringen|"
    r"aufhangen|erhangen|vor den zug werfen)\b|\blass den motor laufen\b|"
    r"\bme (?:voy|vas) a (?:colgar|ahorcar|tirar|matar|cortar las venas|pegar un tiro)\b|"
    r"\bme pego un tiro\b|\bme las tomo todas\b|\bme tomo todas las pastillas\b|"
    r"\bcortarme las venas\b|\bquitarme la vida\b"
)
# "I won't be here tomorrow" ("morgen bin ich nicht mehr da", "demain je ne serai plus là",
# "mañana ya no estaré aquí"): intent only beside the means or a farewell, and no journey.
_GONE = screened(
    r"\b(?:by (?:this time )?tomorrow|tomorrow|tonight|soon) i'?ll be gone\b|\bi (?:won'?t|will "
    r"not) be (?:here|around) (?:tomorrow|much longer|anymore|by (?:morning|tomorrow))\b|"
    r"\b(?:morgen|bald|heute nacht|heute abend|dann) bin ich nicht mehr (?:da|hier)\b|"
    r"\b(?:demain|bientot|ce soir) je ne serai plus (?:la|ici)\b|\bje ne serai plus (?:la|ici) "
    r"(?:demain|ce soir)\b|\b(?:manana|pronto|esta noche) ya no (?:estare|voy a estar) "
    r"(?:aqui|mas|con vosotros|con ustedes)\b"
)
_FAREWELL = screened(
    r"\b(?:pills|rope|(?:suicide|goodbye) note|letters?|goodbye|sorry for everything|end it|"
    r"my life|"
    r"tabletten|pillen|strick|seil|abschied\w*|lebewohl|brief|leben|sterben|"
    r"medicaments|cachets|pilules|corde|adieu|lettre|vie|mourir|pastillas|cuerda|despedida|"
    r"adios|carta|vida|morir)\b"
)
_JOURNEY = screened(
    r"\b(?:trip|holiday|vacation|flight|flying|moving|travel\w*|leaving for|appointment|"
    r"day off|off work|shift|sick|"
    r"urlaub|reise|fahre|fliege|umzug|ziehe|vacances|voyage|pars|demenage|vacaciones|"
    r"viaje|me voy de|me mudo|vuelo)\b"
)
# Asking how to build a bomb, in French, German and Spanish (not a bath bomb or an iced one).
_FOREIGN_BOMB_MAKING = screened(
    r"\b(?:comment (?:on )?(?:faire|fabriquer|construire|preparer|fait-on|fabrique-t-on)|"
    r"(?:wie|womit) (?:baue|mache|bastle|baut|macht|bastelt|kann) (?:ich|man)(?: \w+)?|"
    r"como (?:se )?(?:hago|hacer|fabrico|fabricar|construyo|construir|armo|armar|preparo|"
    r"preparar|hace|fabrica|construye|arma))\s+(?:\w+\s+){0,2}?(?:une bombe|un explosif|des "
    r"explosifs|un cocktail molotov|une grenade|eine (?:\w+)?bombe|sprengstoff|einen "
    r"molotow\w*|eine granate|una bomba|un explosivo|explosivos|un (?:coctel )?molotov|una "
    r"granada|(?:rohr|nagel|brand)bomben?)\b(?! (?:de bain|glacee|de bano|de agua|de semillas))"
)
# Telling someone to kill or hurt themselves.
_FOREIGN_ENCOURAGE = screened(
    r"\b(?:tue-toi|tue toi|suicide-toi|suicide toi|va te pendre|pends-toi|pends toi|"
    r"saute d'un pont|jette-toi|jette toi|tu devrais (?:te tuer|te suicider|crever|mourir)|"
    r"avale toutes tes (?:pilules|cachets)|va crever|"
    r"bring dich (?:doch |einfach |endlich |halt |bitte )*um|tote dich|hang dich (?:doch )?auf|"
    r"spring (?:doch )?(?:von|vor|aus)\b|"
    r"(?:schneid|schneide) dir (?:doch )?die pulsadern|pulsadern aufschneiden|"
    r"matate|suicidate|ahorcate|cuelgate|tirate (?:de|por|a)\b|tomate todas las pastillas|"
    r"deberias (?:matarte|suicidarte|morirte)|"
    # Said of someone else: "dire à ma collègue qu'elle devrait se suicider".
    r"qu'(?:elle|il|ils|elles) (?:devrai(?:t|ent)|doi(?:t|vent)) (?:se suicider|se tuer|se pendre|"
    r"crever|mourir)|dass (?:sie|er) sich (?:umbringen|das leben nehmen|aufhangen) (?:soll|sollte)|"
    r"que (?:deberia|debe|tiene que) (?:suicidarse|ahorcarse|(?:matarse|morirse)(?! (?:de|a|"
    r"trabajando|estudiando|de risa)\b)))"
)
_FOREIGN_GROUP = (
    r"(?:les |des |die |alle |los |las |todos los |todas las )?(?:juifs|musulmans|arabes|noirs|"
    r"immigres|migrants|refugies|etrangers|homosexuels|gays|lesbiennes|trans|femmes|roms|"
    r"juden|muslime|araber|schwarzen?|auslander|migranten|fluchtlinge|schwulen?|lesben|"
    r"frauen|zigeuner|judios|musulmanes|negros|inmigrantes|migrantes|refugiados|extranjeros|"
    r"homosexuales|mujeres|gitanos|handicapes|homos|pedes|gouines|tapettes|bougnoules|negres|"
    r"youpins|bicots|behinderte\w*|schwule|kanaken|neger|schwuchteln|moslems|sudacas|maricones|"
    r"moros|discapacitados|panchitos|negratas|bolleras|mariquitas|einwanderer|zuwanderer|"
    r"asylanten|asylbewerber|immigranten|transmenschen|transleute|transfrauen|homosexuelle|"
    r"juives|immigrees|etrangeres|refugiees|asiatiques|asiaten|asiaticos|chinois|chinesen|"
    r"tsiganes|gitans|mexicains|mexikaner|mexicanos|africains|afrikaner|africanos|turcs|"
    r"turken|turcos|personnes trans|personas trans|lesbianas|transexuales)"
)
# Intimate pictures demanded or held over someone, in French, German and Spanish: "envoie-moi
# des photos nue ou je montre tout à tes parents", "ich hab deine Nacktbilder noch, wenn du
# nicht ...", "tengo tus fotos desnuda, si no ...".
_FOREIGN_NUDES = (
    r"(?:(?:photos?|videos?|pics?|images?) (?:de toi )?(?:nue?s?|a poil|sans rien)|nudes|"
    r"nacktbilder|nacktfotos|nacktvideos|(?:fotos?|videos?|bilder) (?:von dir )?nackt|"
    r"(?:fotos?|videos?) (?:tuyas? )?(?:desnud[oa]s?|en bolas|sin ropa))"
)
# Intimate images spread to punish: "je vais diffuser tes nudes à toute ta famille", "ich
# schicke deine Nacktbilder an alle".
_FOREIGN_NCII = screened(
    rf"\b(?:je vais|je compte|j'vais|ich werde|ich|voy a|vamos a)\s+(?:\w+\s+)?(?:diffuser|publier|"
    rf"poster|envoyer|partager|balancer|montrer|verbreiten|posten|schicke|schicken|zeigen|teilen|"
    rf"veroffentlichen|publicar|subir|mandar|enviar|ensenar|difundir|compartir)\s+"
    rf"(?:tes|deine|tus)\s+{_FOREIGN_NUDES}\b|"
    rf"\b(?:ich|wir)\b[^.!?]{{0,20}}\bdeine\s+{_FOREIGN_NUDES}\b[^.!?]{{0,40}}?\b(?:schicken|"
    r"posten|zeigen|verbreiten|teilen|veroffentlichen|hochladen|an alle|an deine)\b"
)
_FOREIGN_SEXTORTION = screened(
    rf"\b(?:envoie|envoies|envoyez|schick|schicke|schickst|sende|mandame|enviame|pasame|"
    rf"manda|envia)\b[^.!?]{{0,30}}?\b{_FOREIGN_NUDES}\b[^.!?]{{0,20}}?\b(?:ou|sinon|oder|"
    r"sonst|o|si no)\b|"
    rf"\b(?:j'ai|j ai|ich hab|ich habe|hab|tengo)\s+(?:encore |toujours |noch |immer noch |"
    rf"todavia |aun )?(?:tes|deine|tus)\s+{_FOREIGN_NUDES}\b[^!?]{{0,80}}?\b(?:si tu|sinon|"
    r"wenn du|sonst|si no)\b"
)
_FOREIGN_SLUR = screened(
    r"\b(?:bougnoules?|negres?|youpins?|bicots?|tapettes?|gouines?|tarlouzes?|kanaken?|"
    r"schwuchteln?|kameltreiber|sudacas?|maricon(?:es)?|negratas?|bolleras?|panchitos?)\b"
)
_FOREIGN_DEHUMAN = (
    r"(?:animaux|rats|parasites|vermine|cafards|sous-hommes|sous hommes|dechets|ordures|"
    r"singes|sauvages|une maladie|un cancer|tiere|ratten|parasiten|ungeziefer|kakerlaken|"
    r"untermenschen|abschaum|dreck|affen|eine krankheit|ein krebsgeschwur|animales|ratas|"
    r"parasitos|alimanas|cucarachas|basura|escoria|monos|salvajes|infrahumanos|una plaga|"
    r"una enfermedad|pas des humains|keine menschen|no son personas|no son humanos|"
    r"malades mentaux|pervers|terroristes|inferieurs|primitifs|des boulets|krank|minderwertig|"
    r"unnutze esser|primitiv\w*|terroristen|enfermos|perversos|inferiores|primitivos|"
    r"terroristas|asquerosos|plaga|moins intelligents|weniger intelligent|menos inteligentes|"
    r"como (?:monos|animales|ratas)|wie (?:affen|tiere|ratten)|comme des (?:singes|animaux|rats)|"
    r"inferieure?s|unterlegen|pas des (?:etres )?humains|degoutants|repugnants|ekelhaft|widerlich|"
    r"abstossend|repugnantes|putes|salopes|chiennes|connasses|monstres|ordures|schlampen|huren|"
    r"fotzen|monster|bestien|putas|zorras|perras|monstruos|bestias|(?:de la |la |die |una )?"
    r"merde|scheisse|mierda)"
)
# Crimes imputed to a whole group, right after its verb: "les noirs sont tous des criminels",
# "Schwarze sind alle Kriminelle", "los negros son todos criminales" (not "victimes de
# violeurs", where the crime is done to them).
_FOREIGN_CRIMINALS = (
    r"(?:criminels|delinquants|voleurs|violeurs|voyous|kriminell\w*|verbrecher|diebe|"
    r"vergewaltiger|messerstecher|criminales|delincuentes|ladrones|violadores)"
)
# Death called for in the passive: "tous les immigrés devraient être pendus", "alle
# Einwanderer sollten aufgehängt werden", "deberían ser ahorcados", or to die.
_FOREIGN_DEATH = (
    r"(?:pendu\w*|fusille\w*|gaze(?:e|s|es)?|tue(?:e|s|es)?|extermine\w*|brule(?:e|s|es)?|"
    r"elimine(?:e|s|es)?|abattu\w*|mourir|crever|disparaitre|aufgehangt|erhangt|erschossen|"
    r"vergast|getotet|ausgerottet|verbrannt|eliminiert|vernichtet|sterben|verrecken|"
    r"verschwinden|ahorcad[oa]s|colgad[oa]s|fusilad[oa]s|gasead[oa]s|asesinad[oa]s|"
    r"exterminad[oa]s|quemad[oa]s|eliminad[oa]s|matad[oa]s|morir|morirse|desaparecer|"
    # Locked up or driven out: "devraient être enfermés", "sollten eingesperrt werden".
    r"enferme(?:e|s|es)|emprisonne(?:e|s|es)|deporte(?:e|s|es)|expulse(?:e|s|es)|eingesperrt|"
    r"weggesperrt|abgeschoben|encerrad[oa]s|deportad[oa]s|expulsad[oa]s)"
)
# Worth denied to a group (the negation is read as asserting, `_ASSERTING_NEGATION`): "les
# musulmans ne méritent pas de vivre", "Behinderte verdienen keinen Respekt", "los
# discapacitados no merecen respeto" (not "ne méritent pas d'être maltraités").
_FOREIGN_WORTH = (
    r"(?:ne meritent (?:pas (?:de vivre|d'?exister|le respect|de respect|les memes droits|"
    r"de droits|la vie|d'?etre respecte\w*)|aucun respect|rien)|"
    r"verdienen (?:es )?(?:keinen respekt|keine (?:rechte|achtung)|nicht (?:zu leben|zu "
    r"existieren)|kein leben|nichts)|"
    r"no (?:se )?merecen (?:ningun respeto|respeto|vivir|existir|derechos|los mismos derechos|"
    r"nada|la vida))"
)
# Rights denied to a group, a negation that carries the claim: "les homosexuels ne devraient
# pas avoir le droit d'adopter", "Homosexuelle sollten keine Kinder adoptieren dürfen", "las
# mujeres no deberían votar", "Frauen haben in der Politik nichts verloren".
_FOREIGN_RIGHTS_DENIED = screened(
    rf"\b{_FOREIGN_GROUP}\s+(?:ne devraient pas|ne doivent pas|ne devraient jamais|sollten nicht|"
    rf"sollten keine\w*|sollten niemals|durfen nicht|durfen keine\w*|no deberian|no deben|nunca "
    rf"deberian)\s+(?:(?:avoir le droit d'?|avoir le droit de|le droit de|pouvoir|etre "
    rf"autorise\w* a|des enfants|d'enfants|kinder|das recht haben,? (?:zu )?|tener (?:el )?derecho "
    rf"a|poder|ninos)\s*)?(?:voter|avoir le droit|adopter|se marier|travailler|conduire|"
    rf"enseigner|wahlen|adoptieren|heiraten|arbeiten|autofahren|unterrichten|votar|adoptar|"
    rf"casarse|trabajar|conducir|ensenar|poder)\b(?!\s+mu(?:e)?ssen)|"
    rf"\b{_FOREIGN_GROUP}\s+(?:n'?ont rien a faire|haben (?:\w+ ){{0,3}}nichts (?:zu suchen|"
    rf"verloren)|no pintan nada)\b"
)
_FOREIGN_TARGETS = screened(
    rf"\b(?:{_FOREIGN_GROUP}|mosquees?|synagogues?|moscheen?|synagogen?|mezquitas?|sinagogas?|"
    r"foyers de migrants|fluchtlingsheime?|asylheime?|bateaux|boote|pateras|cayucos|"
    r"un|une|ein|eine|einen|einem|einer|una)\b"
)
# A group's places of worship wished destroyed: "I'd love to see every mosque burned to the
# ground", "burn down all the synagogues", "churches should be bombed".
_WORSHIP_DESTROYED = screened(
    rf"\b(?:love|like|want|wish|hope|glad|happy|wait|cannot wait|can'?t wait) to see\s+"
    rf"(?:every|all|all the|the|these|those|any|more)?\s*(?:\w+\s+)?{_WORSHIP}\s+(?:\w+\s+)?"
    rf"{_DESTROYED}|"
    rf"\b(?:burn|torch|bomb|blow up|firebomb)\s+(?:down\s+)?(?:every|all|"
    rf"all the|all of the|these|those)\s+(?:\w+\s+)?{_WORSHIP}\b|"
    rf"{_WORSHIP}\s+(?:should|must|need to|ought to|deserve to)\s+(?:all\s+)?be\s+(?:all\s+)?"
    rf"{_DESTROYED}"
)
# Coded hate: the echo around a word ("one of (((them)))"), unless the sentence speaks of the
# symbol; "13% of the population, 50% of the crime".
_CODED_HATE = screened(
    r"(?<![\w(])\(\(\(\s*[a-z][\w' -]{0,30}\s*\)\)\)(?![^.!?]*\b(?:symbols?|parenthes\w*|"
    r"echo(?:es)?|antisemit\w*|hate (?:symbols?|signs?))\b)|"
    r"\b13 ?(?:%|percent)[^.!?]{0,40}?\b50 ?(?:%|percent) of (?:the |all )?(?:crimes?|murders?|"
    r"homicides?|violent crimes?|violence)\b|"
    r"\b13 ?/ ?50\b(?=[^.!?]{0,40}\b(?:crime|blacks?|do the math|stats|statistics|facts)\b)"
)
# One race or people set above the others: "the white race is superior", "Aryans are the master
# race".
_SUPREMACY = screened(
    r"\b(?:white|aryan|black|nordic|germanic|anglo-saxon|jewish|arab|asian|european|african)\s+"
    r"(?:race|people|blood)\s+(?:is|are)\s+(?:\w+\s+)?(?:superior|supreme|the (?:master|"
    r"superior) race)\b|\b\w+\s+are\s+the\s+(?:master|superior)\s+race\b"
)
_ENGLISH_HATE = (_ATROCITY_ENDORSED, _SENT_BACK, _WORSHIP_DESTROYED, _CODED_HATE, _SUPREMACY)
# A group, or one of its members, named: "un musulman", "einen Juden", "una gitana".
_FOREIGN_NAMED = screened(
    rf"\b{_FOREIGN_GROUP}\b|\b(?:un|une|ein|eine|einen|einem|einer|una|el|la)\s+(?:musulman\w*|"
    r"juif|juive|arabe|noir|noire|immigre\w*|migrant\w*|refugie\w*|gay|lesbienne|trans|rom|"
    r"muslim\w*|jude|juden|judin|araber\w*|schwarze[nr]?|auslander\w*|fluchtling\w*|"
    r"schwule[nr]?|lesbe|judio|judia|negro|negra|inmigrante|refugiad[oa]|gitan[oa])\b"
)
# Vermin words said of "them": "ils sont tous pareils, des terroristes", "das sind Ratten",
# "son ratas" (Spanish, at the start of a sentence: French "son" is "his").
_FOREIGN_THEY = screened(
    rf"(?:\b(?:ils|elles|ce sont|c'est|sie sind|die sind|das sind|sind (?:alle|doch)|ellos son|"
    rf"ellas son|son todos|son todas|sont tous|sont toutes)\b|^\W*son\b)[^.!?]{{0,30}}?"
    rf"\b{_FOREIGN_DEHUMAN}(?!\w)"
)
_FOREIGN_HATE = screened(
    rf"\b(?:mort aux|tod den|muerte a (?:los|las)?)\s*{_FOREIGN_GROUP}\b|"
    # Death wished on a group: "je souhaite que tous les juifs crèvent", "ich hoffe, dass alle
    # Muslime verrecken", "ojalá que todos los gitanos se mueran".
    rf"\b(?:je (?:souhaite|veux|voudrais|espere)|j'espere|ich (?:hoffe|wunsche mir|will)|ojala|"
    rf"espero|quiero)\s*,?\s*(?:que\s+|qu'|dass\s+)?(?:tous |toutes |alle |todos |todas )?(?:les |"
    rf"die |los |las )?{_FOREIGN_GROUP}\b[^.!?]{{0,30}}\b(?:crevent|meurent|disparaissent|brulent|"
    rf"sterben|verrecken|krepieren|verschwinden|verbrennen|ersaufen|mueran|desaparezcan|ardan|"
    rf"revienten|se ahoguen|se pudran)\b|"
    # A swear word or "dirty" before a group: "diese scheiß Muslime", "estos putos musulmanes",
    # "ces putains de musulmans", "sales arabes".
    rf"\b(?:scheiss|dreckige?n?|verdammte?n?|putos|putas|malditos|malditas|putains? de|"
    rf"sales|foutus|saloperies? de)\s+{_FOREIGN_GROUP}\b|"
    # A group ruining the country: "diese Muslime zerstören unser Land".
    rf"\b{_FOREIGN_GROUP}\b[^.!?]{{0,30}}\b(?:detruisent|ruinent|envahissent|pourrissent|"
    rf"zerstoren|ruinieren|uberfluten|verseuchen|destruyen|destruyendo|arruinan|arruinando|"
    rf"invaden|invadiendo)\s+(?:\w+\s+)?(?:pays|nation|culture|ville|quartier|land|volk|kultur|"
    rf"stadt|heimat|pais|nacion|cultura|ciudad|barrio)\b|"
    # Members of a group to be killed: "je vais buter tous les arabes", "ich werde alle Juden
    # in meiner Straße abstechen", "voy a apuñalar a todos los judíos".
    rf"\b(?:je vais|on va|nous allons|je veux)\s+(?:\w+\s+){{0,2}}?(?:tuer|buter|flinguer|"
    rf"egorger|poignarder|bruler|gazer|massacrer|lyncher|descendre)\s+(?:tous |toutes )?"
    rf"{_FOREIGN_GROUP}\b|"
    rf"\b(?:ich|wir) (?:werde|werden|will|wollen|gehe|gehen)\b[^.!?]{{0,20}}\b{_FOREIGN_GROUP}\b"
    rf"[^.!?]{{0,40}}\b(?:abstechen|umbringen|toten|erschiessen|abknallen|vergasen|verbrennen|"
    rf"aufhangen|erstechen|abschlachten|ausrotten|lynchen|totschlagen)\b|"
    rf"\b(?:voy|vamos) a (?:\w+\s+)?(?:matar|apunalar|acuchillar|quemar|fusilar|masacrar|"
    rf"linchar|ahorcar|gasear|exterminar|disparar)\s+(?:a\s+)?(?:todos |todas )?{_FOREIGN_GROUP}\b|"
    # Disgust at a group: "les musulmans me dégoûtent", "Muslime widern mich an", "los
    # musulmanes me dan asco", "ich ekle mich vor Juden".
    rf"\b{_FOREIGN_GROUP}\s+(?:me|nous)\s+(?:degoutent|repugnent|ecoeurent|font (?:vomir|gerber|"
    rf"horreur))\b|\b{_FOREIGN_GROUP}\s+(?:widern|ekeln|kotzen)\s+mich\s+(?:\w+\s+)?an\b|"
    rf"\bich (?:ekle|ekel) mich vor {_FOREIGN_GROUP}\b|"
    rf"\b{_FOREIGN_GROUP}\s+me\s+(?:dan|causan|producen)\s+(?:\w+\s+)?(?:asco|nauseas|grima)\b|"
    rf"\b{_FOREIGN_GROUP}\s+me\s+repugnan\b|\bme (?:dan|da) asco (?:los|las|todos los)\s+"
    rf"{_FOREIGN_GROUP}\b|"
    rf"\b{_FOREIGN_GROUP}\s+(?:sont|sind|son)\s+(?:(?:tous|toutes|alle|todos|todas|nur|que|"
    rf"solo|juste|des|de|que des|nichts als)\s+){{0,3}}{_FOREIGN_CRIMINALS}\b|"
    rf"\b{_FOREIGN_GROUP}\s+(?:devraient|doivent|devrait|doit|meritent de|sollten|sollen|soll|"
    rf"mussten|muessen|mussen|muss|verdienen es|gehoren|deberian|deben|deberia|debe|merecen|"
    rf"tienen que)\s+(?:\w+\s+){{0,3}}?{_FOREIGN_DEATH}\b|"
    # Places of worship to be shut: "on devrait fermer toutes les mosquées".
    rf"\b(?:fermer|interdire|raser|detruire|schliessen|verbieten|abreissen|cerrar|prohibir|"
    rf"derribar)\s+(?:toutes les|alle|todas las)\s+(?:mosquees|synagogues|moscheen|synagogen|"
    rf"mezquitas|sinagogas)\b|\b(?:alle|die) (?:moscheen|synagogen)\s+(?:\w+\s+)?(?:schliessen|"
    rf"verbieten|abreissen|niederbrennen)\b|"
    rf"\b{_FOREIGN_GROUP}\s+{_FOREIGN_WORTH}|"
    rf"\b(?:je n'?ai (?:aucun|pas de|plus aucun) respect pour|ich habe? (?:keinen|null) "
    rf"respekt (?:vor|fur)|no (?:tengo|siento) (?:ningun )?respeto (?:por|hacia|a))\s+"
    rf"{_FOREIGN_GROUP}\b|"
    rf"\b(?:il faut|on doit|man (?:sollte|muss)|hay que|deberiamos)\s+(?:\w+\s+){{0,2}}?"
    rf"(?:tuer|exterminer|gazer|deporter|toten|vergasen|ausrotten|abschieben|matar|exterminar|"
    rf"deportar|quemar)\s+(?:a\s+)?{_FOREIGN_GROUP}\b|"
    rf"\bje (?:deteste|hais) (?:les|tous les) {_FOREIGN_GROUP}\b|"
    rf"\bich hasse (?:alle )?{_FOREIGN_GROUP}\b|\bodio a (?:los|las|todos los) {_FOREIGN_GROUP}\b|"
    rf"\b{_FOREIGN_GROUP}\b[^.!?]{{0,30}}\b(?:sont|sind|son|c'est|c est|ce sont|seraient|waren|"
    rf"eran)\b\s+(?:\w+\s+){{0,3}}?{_FOREIGN_DEHUMAN}\b|"
    rf"\b{_FOREIGN_GROUP}\b[^.!?]{{0,60}}\b(?:raclee|tabasser|casser du|a coups de|au four|"
    rf"aufklatschen|verprugel\w*|an die wand stellen|ins gas|vergasen|mit benzin|anzunden|"
    rf"paliza|a palos|exterminar\w*|cazar|quemar\w*|hundir\w*|couler|versenken|deporter|"
    rf"exterminer|gazer|abschieben|ausrotten|toten)\b|"
    rf"\b(?:raclee|tabasser|aufklatschen|verprugel\w*|cazar|paliza|exterminar\w*|exterminer)\b"
    rf"[^.!?]{{0,30}}\b{_FOREIGN_GROUP}\b|"
    rf"\b(?:mettre le feu|bruler|incendier|anzunden|abfackeln|quemar|incendiar)\b[^.!?]{{0,30}}"
    rf"\b(?:mosquees?|synagogues?|moscheen?|synagogen?|mezquitas?|sinagogas?|foyers de migrants|"
    rf"fluchtlingsheime?|asylheime?)\b|"
    rf"\b(?:couler|versenken|hundir\w*)\b[^.!?]{{0,30}}\b(?:bateaux|boote|pateras|cayucos)\b|"
    rf"\b(?:bateaux|boote|pateras|cayucos)\b[^.!?]{{0,40}}\b(?:couler|versenken|hundir\w*)\b|"
    # Unfit for power or thought: "les femmes sont trop bêtes pour diriger", "las mujeres no
    # sirven para mandar", "Frauen sind zu dumm zum Führen".
    rf"\b{_FOREIGN_GROUP}\s+(?:sont|sind|son)\s+(?:\w+\s+)?(?:trop|zu|demasiado|demasiadas?)\s+"
    r"(?:betes?|stupides?|connes?|cons|faibles|emotives?|idiotes?|dumm|blod|schwach|emotional|"
    r"tontas?|tontos|estupid[oa]s|debiles|emocionales|brutos?|brutas?)\b|"
    rf"\b{_FOREIGN_GROUP}\s+no (?:sirven|valen) (?:para|nada)\b|"
    # Conspiracy: "les juifs contrôlent les banques", "die Juden sind an allem schuld".
    r"\b(?:les |die |los )?(?:juifs|juden|judios)\b[^.!?]{0,20}\b(?:control\w*|kontrollier\w*|"
    r"beherrsch\w*|dirigent|dominent|dominan|manipul\w+|steuern|sont (?:derriere|responsables de) "
    r"tout|sind an allem schuld|tienen la culpa de todo)\b|"
    rf"\b(?:les )?femmes\b[^.!?]{{0,20}}\bbonnes (?:qu'?)?a\b|\bfrauen gehoren (?:an den herd|"
    rf"in die kuche)\b|\b(?:las )?mujeres\b[^.!?]{{0,20}}\b(?:a la cocina|solo sirven para)\b"
)
_FOREIGN_INSULT = screened(
    # People called no humans, or beasts: "ces gens-là ne sont pas des humains, ce sont des
    # bêtes", "diese Leute sind keine Menschen", "esta gente no son personas, son animales".
    r"\b(?:ces gens(?:-la| la)?|ces (?:types|mecs|personnes)|diese (?:leute|menschen|typen)|"
    r"esta gente|estas personas|esos tipos)\b[^.!?]{0,30}?\b(?:ne sont (?:pas|"
    r"plus) des (?:etres )?humains|sont des (?:betes|animaux|rats|cafards|sous-hommes)(?! de)|"
    r"ce sont des (?:betes|animaux|rats|cafards)|(?:sind )?keine menschen|sind (?:tiere|ratten|"
    r"ungeziefer|untermenschen)|das sind (?:tiere|ratten)|no son (?:humanos|personas)|"
    r"son (?:animales|bestias|ratas|cucarachas))\b|"
    # "you are a ...", "you ...", "you piece of ..." followed by an insult within three words.
    r"\b(?:t'es|tu es|espece de|sale|(?:du|ihr) (?:bist|seid)|eres|sois|pedazo de|vaya|pinche|"
    r"maldito|maldita)\s+(?:[\w']+\s+){0,3}?(?:connard|connasse|salope|pute|encule|batard|"
    r"abruti|debile|idiot|merde|dechets?|pathetique|minable|bouffon(?:ne)?|laideron|pouffiasse|"
    r"grosse vache|arschloch|hurensohn|wichser|schlampe|fotze|vollidiot|missgeburt|penner|"
    r"versager|abschaum|spast|fette sau|hijo de puta|puta barata|puta|cabron|pendejo|"
    r"gilipollas|imbecil|idiota|estupido|estupida|mierda|zorra|perra|pringad[oa]|asquerosa?|"
    r"cerda|guarra|subnormal)\b|"
    r"\bdu\s+(?:\w+\s+){0,3}?(?:missgeburt|versager|arschloch|hurensohn|wichser|schlampe|"
    r"fotze|vollidiot|spast|abschaum|(?:fette|hassliche|dumme|blode) (?:kuh|sau))\b|"
    r"\b(?:ta gueule|ferme ta gueule|nique ta mere|fils de pute|va te faire foutre|"
    r"fick dich|verpiss dich|halt die fresse|hurensohn|du lappen|vete a la mierda|hijo de puta|"
    r"chinga tu madre|que te jodan|callate la boca)\b|"
    # Called ugly, useless or worse to one's face: "eres la más fea y la más tonta", "du bist
    # so hässlich", "t'es vraiment nulle" (not "eres la más guapa", "du bist nicht nutzlos").
    r"(?<!no )\b(?:t'es|tu es|du bist|ihr seid|eres|sois)\s+(?:(?:vraiment|trop|tellement|si|"
    r"so|echt|voll|total|wirklich|la|el|lo|mas|muy|tan|un|una|ein|eine|einfach|juste)\s+){0,3}"
    r"(?:moche|nulle?(?! (?:au|aux|en|a|dans)\b)|inutile|degueulasse|pathetique|repugnante?|"
    r"hasslich\w*|nutzlos\w*|erbarmlich\w*|widerlich\w*|eklig\w*|fett\w*|fe[ao]|tont[ao]|gord[ao]|inutil|"
    r"patetic[ao]|asqueros[ao]|estupid[ao])\b|"
    # An insult as the first word, said to someone: "Puta barata, lárgate de mi canal".
    r"(?:^|[.!?]\s+)(?:sale |espece de |du |pinche |maldit[ao] )?(?:puta barata|puta|zorra|"
    r"perra|gilipollas|imbecil|idiota|pendejo|cabron|connard|connasse|salope|pute|encule|batard|"
    r"abruti|pouffiasse|arschloch|hurensohn|wichser|schlampe|fotze|vollidiot|missgeburt|spast)"
    r"\s*[,!]"
)

# Requests for help to hurt someone: a way of asking, an act of harm, and a person or a
# purpose (to kill, to leave no trace) in the same sentence.
_FOREIGN_ASK = (
    # French
    r"(?:comment (?:je (?:peux|pourrais|dois|fais pour)|puis-je|faire pour|on (?:peut|fait "
    r"pour)|peut-on|est-ce que je (?:peux|pourrais))|quel(?:le)?s? (?:est|sont) (?:le|la|les) "
    r"(?:meilleure?s?|plus)|ou (?:faut-il|dois-je|est-ce qu'on|est-ce que je|faut il)|"
    r"qu'est-ce que je (?:peux|pourrais)|que (?:puis-je|peut-on)|"
    # German
    r"wie (?:kann|konnte|soll|sollte|mache|schaffe|bekomme) ich|wie (?:\w+) ich (?:jemanden|"
    r"jemandem|ihn|sie|meine\w*|meinen|meinem)|wo (?:muss|sollte|kann) (?:man|ich)|was (?:kann|"
    r"konnte|soll) ich|wie (?:kann|konnte) man|womit (?:kann|konnte) ich|"
    # Spanish
    r"como (?:puedo|podria|hago para|se puede|le hago)|que (?:le )?(?:puedo|podria) (?:echar|"
    r"poner|dar|usar|meter)|donde (?:hay que|debo|tengo que|se debe)|cual es (?:la|el) "
    r"(?:mejor|forma|manera)|que (?:es|seria) lo mejor para)"
)
_FOREIGN_HARM_ACT = (
    r"(?:tuer|empoisonner|poignarder|planter|frapper|tabasser|blesser|etrangler|droguer|"
    r"trafiquer|violer|enlever|kidnapper|faire du mal|se debarrasser|noyer|bruler|"
    r"toten|umbringen|bring\w* (?:\w+ ){1,3}um|vergift\w*|erstech\w*|stech\w*|reinstech\w*|"
    r"verprugel\w*|zusammenschlag\w*|schlag\w*|erwurg\w*|verletz\w*|betaub\w*|vergewaltig\w*|"
    r"entfuhr\w*|manipulier\w*|"
    r"matar|envenenar|apunalar|acuchillar|golpear|pegarle|pegar|estrangular|drogar|herir|violar|"
    r"secuestrar|hacer dano|hacerle dano|deshacerme|ahogar|quemar|ponga malo|enferme)"
)
_FOREIGN_TARGET_OR_AIM = (
    r"(?:quelqu'un|mon |ma |mes |son |sa |le voisin|la voisine|sa femme|son mari|un enfant|"
    r"qu'il meure|qu'elle meure|accident|sans (?:que|laisser)|indetectable|autopsie|"
    r"(?:une|la|d'une|cette) (?:fille|femme|meuf|personne)|boisson|verre|inconscient\w*|"
    r"jemand\w*|meine\w* |seine\w* |ihre\w* |nachbar\w*|mitbewohner\w*|kind\w*|verblut\w*|stirbt|"
    r"keine (?:blauen flecken|spuren)|unfall|ohne dass|nicht nachweisbar|damit (?:er|sie) "
    r"(?:\w+ )?(?:umfallt|stirbt|verblutet|bewusstlos)|"
    r"alguien|mi |mis |su |sus |vecin\w*|companer\w*|marido|mujer|nino|nina|autopsia|accidente|"
    r"sin que|que no (?:lo |la |se )?(?:detecten|note|sepa)|que muera|malo de verdad)"
)
_FOREIGN_ASKING = screened(rf"\b{_FOREIGN_ASK}\b")
_FOREIGN_HARM_ACTED = screened(rf"\b{_FOREIGN_HARM_ACT}")
_FOREIGN_AIMED = screened(rf"\b{_FOREIGN_TARGET_OR_AIM}")


def _asks_foreign_harm(sentence: str) -> bool:
    """A way of asking, then an act of harm and a person or a purpose, in one sentence. What is
    asked follows the asking: "pourquoi quelqu'un voudrait-il se blesser et comment puis-je
    aider ..." asks how to help."""
    asked = _FOREIGN_ASKING.search(sentence)
    return bool(
        asked
        and _FOREIGN_HARM_ACTED.search(sentence, asked.start())
        and _FOREIGN_AIMED.search(sentence, asked.start())
    )


# Hostile words in French, German and Spanish, beside the vermin words and insults above: hate
# verbs, vices, crimes, a group told to leave, violence. A crime whose doer follows "de", "par",
# "von", "por" is done to the group ("victimes de violeurs"), not said of it.
_FOREIGN_HOSTILE = screened(
    rf"\b(?:{_FOREIGN_DEHUMAN}|{_FOREIGN_DEATH}|deteste\w*|hais|haissons|hasse|hassen|"
    r"verabscheue\w*|odio|odiamos|sales|salauds?|degueulasses?|paresseu\w+|stupides?|betes|"
    r"cons|connes|dangereu\w+|violents?|faul\w*|dumm\w*|dreckig\w*|gefahrlich\w*|"
    r"gewalttatig\w*|vag[oa]s|suci[oa]s|estupid[oa]s|tont[oa]s|peligros[oa]s|violent[oa]s|"
    r"(?<!de )(?<!d')(?<!par )(?<!von )(?<!por )(?<!vor )"
    rf"{_FOREIGN_CRIMINALS}|dehors|raus|fuera|degagez|verschwindet|largaos|maltrait\w*|"
    r"discrimin\w*|insult\w*|harcel\w*|frapp\w*|attaqu\w*|schlag\w*|angegriffen|beleidig\w*|tuer|toten|matar|"
    r"pegar\w*|atacad[oa]s|insultad[oa]s|maltratad[oa]s)\b"
)
# Kind words: respect, rights, equality, welcome, love, sympathy for victims, pay as equal.
_FOREIGN_KIND = screened(
    r"\b(?:respect\w*|droits?|egalite|egaux|egales|bienvenue|bienvenus|accueilli\w*|"
    r"protege\w*|soutenir|soutien|aime\w*|adore\w*|victimes?|autant que|les memes droits|"
    r"fiers?|fieres?|respekt\w*|rechte|gleichberechtig\w*|gleich\w*|willkommen|schutz\w*|"
    r"unterstutz\w*|liebe\w*|opfer|stolz\w*|respeto|respetad[oa]s|derechos|igualdad|iguales|"
    r"bienvenid[oa]s|proteg\w*|apoy\w*|quiero|amo|victimas?|lo mismo que|orgullos[oa]s)\b"
)


def foreign_supportive(sentence: str) -> bool:
    """A French, German or Spanish sentence that asserts no hate form and denies every hostile
    word it holds ("les immigrés ne sont pas des criminels", "Frauen sind Männern nicht
    unterlegen") or, holding none, speaks kindly of people ("los inmigrantes deberían ser
    tratados con respeto"). The learned foreign heads read a group's name as hate; this is the
    English `context.supportive` for those languages."""
    if any(_asserted(sentence, m) for m in _FOREIGN_HATE.finditer(sentence)):
        return False
    if _ASSERTING_NEGATION.search(sentence) or _FOREIGN_INSULT.search(sentence):
        return False  # "ne sont que des ...", "verdienen keinen Respekt": asserted
    hostile = list(_FOREIGN_HOSTILE.finditer(sentence))
    if hostile:
        return all(negated_before(sentence, m.start()) for m in hostile)
    return any(not denied_before(sentence, m.start()) for m in _FOREIGN_KIND.finditer(sentence))


# The detectors of `meaning_rules`, in order, each with the categories it can find: asked
# whether one sentence carries a flag of some category, the pipeline runs only the detectors
# that can find it (tests hold every finding to its detector's categories).
MEANING_RULES: tuple[MeaningRule, ...] = (
    MeaningRule(_text_only(detect_harmful_requests), None),
    MeaningRule(_text_only(detect_profanity), frozenset({"PROFANITY", "HARASSMENT"})),
    MeaningRule(_text_only(detect_hate), frozenset({"HATE_SPEECH"})),
    MeaningRule(_text_only(detect_violence), frozenset({"VIOLENCE", "EXTREMISM"})),
    MeaningRule(_text_only(detect_intimidation), frozenset({"HARASSMENT", "VIOLENCE"})),
    MeaningRule(_text_only(detect_extremism), frozenset({"EXTREMISM"})),
    MeaningRule(_text_only(detect_illegal), frozenset({"ILLEGAL"})),
    MeaningRule(_text_only(detect_self_harm), frozenset({"SELF_HARM"})),
    MeaningRule(detect_minor_sexual, frozenset({"CHILD_SAFETY"})),
)
