"""Custom policies (`#policy <n>: <description>`) and free-text instructions.

Custom policies are added on top of the built-in ones. A policy is matched against the content
in three ways, and breached when any of them fires:

* **Built-in concepts.** A description that names something the engine already detects is
  breached when that detector fires, even if the built-in action would only log it:
  profanity/swearing, insults/personal attacks/harassment, personal data/contact details/phone
  numbers/emails, links/URLs, spam/advertising/self-promotion, sexual/adult/NSFW content, hate,
  violence/threats, self-harm, drugs/weapons/illegal goods, extremism/terrorism.
* **Named terms.** Capitalised names, quoted phrases and lists after "such as", "like", "e.g.",
  "including", "especially" or a colon ("no mention of competitor brands Acme or Globex",
  'no "free trial" offers') are searched for as whole words in the normalised content.
* **Topics.** The remaining content words of the description are expanded with a small topic
  thesaurus (crypto, medical dosage, gambling, politics, religion, alcohol, dating, weapons,
  drugs, competitors, jobs/recruiting, finance advice) and matched as word stems. A topic
  policy is breached when at least two distinct topic terms occur, or one when the
  description has a single content word; a "promotion"/"advertising" policy also needs a
  promotional cue (sign up, use, try, join, switch to, referral, bonus, link, best ...), and an
  "advice" policy needs advice phrasing (you should, take, try, recommended dose ...).

A policy phrased positively ("only discuss cooking", "must be about cooking") is breached by
content longer than eight words that matches none of its terms.

Instructions (`instructions`) are free text; the engine acts on these forms, case-insensitive,
one or several per text, separated by sentences, semicolons or new lines:

* ``allow <category>`` / ``<category> is ok|allowed|fine`` / ``don't flag <category>``: the
  category is not flagged. Only PROFANITY, SPAM, PII, SEXUAL (adult content) and HARASSMENT
  can be relaxed; CHILD_SAFETY, EXTREMISM, VIOLENCE threats and the escalation rules cannot.
* ``block <category>`` / ``no <category>`` / ``flag <category>``: a low-risk category that
  would only be logged (e.g. profanity) is blocked.
* ``treat "<term>" as <category>`` / ``treat mentions of <term> as <category>``: the term
  flags that category.
* ``be strict``/``stricter``/``zero tolerance``/``children's platform``/``kids``: all learned
  thresholds are lowered by 30%; ``be lenient``/``looser``/``adult platform``/``mature
  audience``: raised by 30%.
* ``<category> threshold <0..1>`` / ``threshold for <category> <0..1>``: sets that category's
  threshold.

Category names may be written as in the verdict (HATE_SPEECH) or in words ("hate speech",
"swearing", "personal data", "adult content", "ads"). docs/moderation.md ("Custom policies",
"Instructions") describes the same behaviour for API users.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .normalize import normalize
from .prefilter import screened
from .vocabulary import SCORED_CATEGORIES


class PolicyParseError(ValueError):
    """A custom policy line that is not `#policy <n>: <description>`."""

    def __init__(self, line_number: int, line: str, message: str) -> None:
        super().__init__(f"line {line_number}: {message}")
        self.line_number = line_number
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Policy:
    number: int
    description: str

    @property
    def signal(self) -> str:
        return f"POLICY_{self.number}"


_POLICY_LINE = screened(r"#policy ([1-9]\d{0,8}): *(\S.*)")


def parse_policies(text: str) -> list[Policy]:
    """Parse custom policies; every non-blank line must be `#policy <n>: <description>`.

    `<n>` is a positive integer, unique in the text. Raises PolicyParseError naming the first
    bad line (1-based line number).
    """
    policies: list[Policy] = []
    seen: set[int] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        match = _POLICY_LINE.fullmatch(line)
        if not match:
            raise PolicyParseError(number, raw, "expected '#policy <n>: <description>'")
        n = int(match.group(1))
        if n in seen:
            raise PolicyParseError(number, raw, f"policy number {n} is used twice")
        seen.add(n)
        policies.append(Policy(n, match.group(2).strip()))
    return policies


# Words naming a built-in concept -> the category the engine detects for it.
_CONCEPTS: tuple[tuple[str, str], ...] = (
    (r"profan\w*|swear\w*|curs(?:e|ing)|cuss\w*|foul language|obscen\w*|bad words", "PROFANITY"),
    (
        r"insult\w*|personal attacks?|harass\w*|bully\w*|name[- ]calling|abus(?:e|ive) "
        r"(?:language|comments)|toxic\w*|rude\w*",
        "HARASSMENT",
    ),
    (
        r"personal (?:data|info\w*|details)|pii|contact (?:details|info\w*)|phone numbers?|"
        r"e-?mail(?: address)?e?s?|addresses|doxx?\w*|private information",
        "PII",
    ),
    (r"spam\w*|advert\w*|\bads?\b|self[- ]promotion|solicit\w*|scams?", "SPAM"),
    (r"links?|urls?|external websites?", "LINKS"),
    (r"sexual\w*|adult content|nsfw|porn\w*|nudity|explicit content|sex\b", "SEXUAL"),
    (r"hate\w*|racis\w*|slurs?|bigot\w*|discriminat\w*", "HATE_SPEECH"),
    (r"violen\w*|threats?|gore|graphic", "VIOLENCE"),
    (r"self[- ]harm|suicid\w*", "SELF_HARM"),
    (r"illegal\w*|drugs?|weapons?|firearms?|guns?|contraband", "ILLEGAL"),
    (r"extremis\w*|terroris\w*|radicali\w*", "EXTREMISM"),
)
_CONCEPT_RES = tuple((screened(rf"\b(?:{p})\b"), c) for p, c in _CONCEPTS)

# Topic thesaurus: a stem in the description -> terms to look for in the content.
_TOPICS: dict[str, tuple[str, ...]] = {
    "crypto": (
        "crypto",
        "cryptocurrency",
        "bitcoin",
        "btc",
        "ethereum",
        "eth",
        "binance",
        "coinbase",
        "kraken",
        "bybit",
        "okx",
        "kucoin",
        "exchange",
        "token",
        "coin",
        "altcoin",
        "defi",
        "wallet",
        "staking",
        "trading",
        "usdt",
        "solana",
        "doge",
    ),
    "exchang": ("exchange", "binance", "coinbase", "kraken", "bybit", "okx", "kucoin", "trading"),
    "medic": (
        "dose",
        "dosage",
        "mg",
        "milligram",
        "tablet",
        "pill",
        "capsule",
        "prescription",
        "medication",
        "medicine",
        "ibuprofen",
        "paracetamol",
        "acetaminophen",
        "aspirin",
        "antibiotic",
        "insulin",
        "xanax",
        "adderall",
        "opioid",
        "drug",
    ),
    "dosag": ("dose", "dosage", "mg", "milligram", "tablet", "pill", "capsule", "ml", "daily"),
    "gambl": (
        "bet",
        "betting",
        "casino",
        "poker",
        "odds",
        "wager",
        "slots",
        "jackpot",
        "sportsbook",
    ),
    "politic": (
        "election",
        "vote",
        "voting",
        "president",
        "democrat",
        "republican",
        "party",
        "senator",
        "congress",
        "parliament",
        "government",
        "politician",
        "campaign",
        "trump",
        "biden",
        "labour",
        "tory",
    ),
    "religio": ("god", "jesus", "allah", "church", "mosque", "bible", "quran", "pray", "religion"),
    "alcohol": (
        "beer",
        "wine",
        "vodka",
        "whisky",
        "whiskey",
        "drunk",
        "alcohol",
        "booze",
        "liquor",
    ),
    "dating": (
        "date",
        "dating",
        "tinder",
        "hookup",
        "single",
        "girlfriend",
        "boyfriend",
        "romance",
    ),
    "weapon": ("gun", "rifle", "pistol", "ammo", "knife", "weapon", "firearm", "ar15", "glock"),
    "competitor": ("competitor", "rival", "alternative", "instead of us", "switch to"),
    "recruit": ("hiring", "job", "recruiting", "apply", "position", "vacancy", "salary"),
    "financ": ("invest", "stock", "shares", "portfolio", "returns", "trading", "forex", "fund"),
    "invest": ("invest", "stock", "shares", "portfolio", "returns", "trading", "forex", "fund"),
    "diet": ("diet", "calories", "weight loss", "fasting", "keto", "supplement"),
}

_PROMO_POLICY = screened(r"\b(?:promot\w*|advertis\w*|endors\w*|recommend\w*|market\w*|plug\w*)\b")
_PROMO_CUE = screened(
    r"\b(?:sign up|signup|register|use|using|try|join|switch to|move to|go to|check out|"
    r"referral|ref code|promo|bonus|code|link|best|better|recommend\w*|cheaper|lower fees|"
    r"download|visit|get started|deposit|buy|trade on|i use|we use)\b"
)
_ADVICE_POLICY = screened(r"\b(?:advice|advise|recommendations?|guidance|tips|instructions)\b")
_ADVICE_CUE = screened(
    r"\b(?:you should|you can|you could|try|take|taking|recommended|i recommend|i'd recommend|"
    r"i suggest|the dose is|dose is|start with|up to|no more than|every \d+ hours|"
    r"\d+\s*(?:mg|ml|mcg|g)\b|twice a day|once a day|a day)\b"
)
_ONLY_POLICY = screened(r"^(?:only|must be about|stay on topic|keep (?:it|posts) about)\b")
_NEGATIVE_LEAD = screened(
    r"^(?:no|don'?t|do not|never|avoid|ban|block|forbid|prohibit|disallow|not allowed:?|"
    r"refrain from|without)\b\s*"
)
_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "for",
        "with",
        "about",
        "and",
        "or",
        "any",
        "other",
        "others",
        "no",
        "not",
        "don't",
        "do",
        "never",
        "avoid",
        "ban",
        "block",
        "mention",
        "mentions",
        "mentioning",
        "promotion",
        "promotions",
        "promote",
        "promoting",
        "posting",
        "post",
        "posts",
        "content",
        "discussion",
        "discussions",
        "discuss",
        "talk",
        "talking",
        "about",
        "allowed",
        "forbidden",
        "prohibited",
        "is",
        "are",
        "be",
        "must",
        "should",
        "users",
        "user",
        "please",
        "only",
        "messages",
        "message",
        "sharing",
        "share",
        "shared",
        "giving",
        "give",
        "advice",
        "anything",
        "things",
        "stuff",
        "related",
        "such",
        "as",
        "like",
        "including",
        "e.g",
        "especially",
        "our",
        "us",
        "we",
        "this",
        "that",
        "these",
        "those",
        "from",
        "by",
        "at",
        "it",
        "its",
        "their",
        "they",
        "them",
        "you",
        "your",
        "brand",
        "brands",
        "products",
        "product",
        "company",
        "companies",
        "other's",
    ]
)
_LIST_LEAD = screened(r"(?:such as|like|e\.g\.?|including|especially|namely|:)\s*(.+)$", re.I)


@dataclass(frozen=True)
class PolicyMatcher:
    policy: Policy
    concept: str | None
    terms: tuple[str, ...]
    topic_terms: tuple[str, ...]
    content_words: int
    promo: bool
    advice: bool
    only: bool
    category: str


def _term_regex(term: str) -> re.Pattern[str]:
    norm = normalize(term)
    return re.compile(rf"(?<![a-z0-9]){re.escape(norm)}(?![a-z0-9])")


def _named_terms(description: str) -> list[str]:
    terms: list[str] = []
    terms += re.findall(r"[\"“'‘]([^\"”'’]{2,60})[\"”'’]", description)
    list_match = _LIST_LEAD.search(description)
    if list_match:
        for part in re.split(r",|\bor\b|\band\b|/|;", list_match.group(1)):
            part = part.strip(" .!\"'")
            if part and part.lower() not in _STOPWORDS and len(part) <= 40:
                terms.append(part)
    # Capitalised names (not the first word): "competitor brands Acme or Globex".
    words = description.split()
    for i, word in enumerate(words):
        clean = word.strip(",.;:!?()\"'")
        if i > 0 and len(clean) > 1 and clean[0].isupper() and clean.lower() not in _STOPWORDS:
            terms.append(clean)
    return list(dict.fromkeys(t for t in terms if t))


def compile_policy(policy: Policy) -> PolicyMatcher:
    desc = normalize(policy.description)
    concept = None
    for regex, category in _CONCEPT_RES:
        if regex.search(desc):
            concept = category
            break
    named = _named_terms(policy.description)
    body = _NEGATIVE_LEAD.sub("", desc)
    words = [w for w in re.findall(r"[a-z0-9][a-z0-9'-]*", body) if w not in _STOPWORDS]
    named_norm = {normalize(t) for t in named}
    words = [w for w in words if w not in named_norm]
    topic_terms: list[str] = []
    for word in words:
        for stem, expansion in _TOPICS.items():
            if word.startswith(stem):
                topic_terms += expansion
        topic_terms.append(word)
    category = _policy_category(desc, concept)
    return PolicyMatcher(
        policy=policy,
        concept=concept,
        terms=tuple(named),
        topic_terms=tuple(dict.fromkeys(topic_terms)),
        content_words=len(words),
        promo=bool(_PROMO_POLICY.search(desc)),
        advice=bool(_ADVICE_POLICY.search(desc)),
        only=bool(_ONLY_POLICY.search(desc)),
        category=category,
    )


def _policy_category(desc: str, concept: str | None) -> str:
    if concept == "LINKS":
        return "SPAM"
    if concept:
        return concept
    if re.search(r"\b(?:medic\w*|dos\w+|health|diet|drug\w*|pills?)\b", desc):
        return "ILLEGAL" if re.search(r"\bdrugs?\b", desc) else "SELF_HARM"
    if re.search(r"\b(?:weapons?|guns?|gambl\w*|alcohol)\b", desc):
        return "ILLEGAL"
    return "SPAM"


def _stem_hits(content: str, terms: tuple[str, ...]) -> set[str]:
    hits: set[str] = set()
    for term in terms:
        if len(term) <= 3 or " " in term:
            if re.search(rf"(?<![a-z]){re.escape(term)}(?![a-z])", content):
                hits.add(term)
        elif re.search(rf"(?<![a-z0-9]){re.escape(term[: max(4, len(term) - 2)])}", content):
            hits.add(term)
    return hits


def policy_breached(
    matcher: PolicyMatcher, normalized: str, detected_categories: set[str], has_links: bool
) -> bool:
    """Whether the content (normalised) breaks this policy."""
    if matcher.concept == "LINKS":
        if has_links:
            return True
    elif matcher.concept and matcher.concept in detected_categories:
        return True
    term_hit = any(_term_regex(t).search(normalized) for t in matcher.terms)
    topic_hits = _stem_hits(normalized, matcher.topic_terms)
    if matcher.only:
        return len(normalized.split()) > 8 and not term_hit and not topic_hits
    if term_hit:
        return True
    if matcher.concept and not matcher.topic_terms:
        return False
    promo_cue = bool(_PROMO_CUE.search(normalized))
    advice_cue = bool(_ADVICE_CUE.search(normalized))
    if matcher.promo and not promo_cue:
        return False
    if matcher.advice and not advice_cue:
        return False
    # A promotional or advice cue is the second piece of evidence for a one-term hit.
    cued = (matcher.promo and promo_cue) or (matcher.advice and advice_cue)
    needed = 1 if matcher.content_words <= 1 or cued else 2
    return len(topic_hits) >= needed


# --- Instructions ----------------------------------------------------------------------------

_CATEGORY_WORDS: tuple[tuple[str, str], ...] = (
    (r"profanity|swearing|swear words|cursing|curse words|bad language|foul language", "PROFANITY"),
    (r"spam|ads|advertising|advertisements|promotions?|self[- ]promotion|links", "SPAM"),
    (r"pii|personal data|personal information|contact details|emails?|phone numbers?", "PII"),
    (r"sexual(?: content)?|adult content|nsfw|nudity|sex", "SEXUAL"),
    (r"harassment|insults?|personal attacks|bullying|rudeness", "HARASSMENT"),
    (r"hate(?: speech)?|hate_speech|slurs|racism", "HATE_SPEECH"),
    (r"violence|violent content|gore|threats?", "VIOLENCE"),
    (r"self[- _]harm|suicide", "SELF_HARM"),
    (r"illegal(?: goods)?|drugs|weapons", "ILLEGAL"),
    (r"extremism|terrorism", "EXTREMISM"),
    (r"child[_ ]safety", "CHILD_SAFETY"),
)
RELAXABLE = frozenset({"PROFANITY", "SPAM", "PII", "SEXUAL", "HARASSMENT"})
_CAT = "|".join(p for p, _ in _CATEGORY_WORDS)


def _category_of(words: str) -> str | None:
    for pattern, category in _CATEGORY_WORDS:
        if re.fullmatch(rf"(?:{pattern})", words.strip()):
            return category
    return None


@dataclass
class Instructions:
    """What the engine understood from the free-text instructions."""

    allowed: set[str] = field(default_factory=set)
    blocked: set[str] = field(default_factory=set)
    terms: list[tuple[str, str]] = field(default_factory=list)  # (normalised term, category)
    threshold_factor: float = 1.0
    thresholds: dict[str, float] = field(default_factory=dict)
    applied: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.applied


_ALLOW = screened(
    rf"\b(?:allow|permit|ignore|don'?t flag|do not flag|no need to flag)\s+(?:all\s+)?({_CAT})\b|"
    rf"\b({_CAT})\s+(?:is|are)\s+(?:ok|okay|allowed|fine|acceptable|permitted)\b"
)
_BLOCK = screened(rf"\b(?:block|flag|forbid|disallow|no|reject)\s+(?:all\s+)?({_CAT})\b")
_TREAT = screened(
    rf"\btreat\s+(?:mentions of\s+|the word\s+|any\s+)?[\"“']?([^\"”']+?)[\"”']?\s+as\s+({_CAT}|"
    r"[a-z_]+)\b"
)
_STRICT = screened(
    r"\b(?:be (?:more )?strict|stricter|strict mode|zero tolerance|children'?s (?:platform|app|"
    r"site)|for kids|kids (?:platform|app)|young audience|be conservative|err on the side of "
    r"caution)\b"
)
_LENIENT = screened(
    r"\b(?:be (?:more )?lenient|lenient|looser|be loose|relaxed|adult platform|mature audience|"
    r"adults only|18\+ (?:platform|site)|only flag (?:obvious|clear))\b"
)
_THRESHOLD = screened(
    rf"\b(?:threshold (?:for|of)\s+({_CAT})\s*(?:to|=|:|of|at)?\s*([01](?:\.\d+)?)|"
    rf"({_CAT})\s+threshold\s*(?:to|=|:|of|at|is)?\s*([01](?:\.\d+)?))"
)


def parse_instructions(text: str | None) -> Instructions:
    """Parse free-text instructions into the adjustments the engine can make."""
    result = Instructions()
    if not text:
        return result
    for raw in re.split(r"[\n;]|(?<=[.!?])\s+", text):
        sentence = raw.strip()
        if not sentence:
            continue
        norm = sentence.casefold().replace("’", "'")
        for m in _TREAT.finditer(norm):
            category = _category_of(m.group(2)) or (
                m.group(2).upper() if m.group(2).upper() in SCORED_CATEGORIES else None
            )
            term = normalize(m.group(1).strip())
            if category and term:
                result.terms.append((term, category))
                result.applied.append(f"treat '{m.group(1).strip()}' as {category}")
        threshold = _THRESHOLD.search(norm)
        if threshold:
            words = threshold.group(1) or threshold.group(3)
            value = threshold.group(2) or threshold.group(4)
            category = _category_of(words)
            if category and value:
                result.thresholds[category] = min(max(float(value), 0.01), 0.99)
                result.applied.append(f"{category} threshold {float(value):.2f}")
        allow = _ALLOW.search(norm)
        if allow:
            category = _category_of(allow.group(1) or allow.group(2))
            if category in RELAXABLE:
                result.allowed.add(category)
                result.applied.append(f"allow {category}")
        elif not _TREAT.search(norm):
            for m in _BLOCK.finditer(norm):
                category = _category_of(m.group(1))
                if category:
                    result.blocked.add(category)
                    result.applied.append(f"block {category}")
        if _STRICT.search(norm):
            result.threshold_factor = 0.7
            result.applied.append("stricter thresholds")
        elif _LENIENT.search(norm):
            result.threshold_factor = 1.3
            result.applied.append("looser thresholds")
    return result
