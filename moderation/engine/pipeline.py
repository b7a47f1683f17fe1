"""`moderate()`: normalise, classify, run the rules, apply policies and instructions, escalate."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from . import classifier, context, encoder, lexicon, multilingual, prefilter, rules
from .escalation import (
    CATEGORY_PRIORITY,
    TERROR_THREAT,
    VIOLENCE_PLANNING,
    apply_escalation,
)
from .normalize import normalize, respell
from .policies import (
    Instructions,
    compile_policy,
    parse_instructions,
    parse_policies,
    policy_breached,
)
from .prefilter import screened
from .verdict import POLICY_VERSION, Usage, Verdict, count_tokens
from .vocabulary import SCORED_CATEGORIES, SEVERITIES

# Built-in action per category (before escalation). PROFANITY alone is only logged.
BASE_ACTION: dict[str, str] = {
    "PROFANITY": "LOG_ONLY",
    "SPAM": "BLOCK",
    "PII": "REDACT",
    "HARASSMENT": "BLOCK",
    "SEXUAL": "BLOCK",
    "HATE_SPEECH": "BLOCK",
    "SELF_HARM": "ESCALATE",
    "VIOLENCE": "BLOCK",
    "ILLEGAL": "BLOCK",
    "EXTREMISM": "ESCALATE",
    "CHILD_SAFETY": "BANNED",
}
BASE_SEVERITY: dict[str, str] = {
    "PROFANITY": "LOW",
    "SPAM": "LOW",
    "PII": "MEDIUM",
    "HARASSMENT": "MEDIUM",
    "SEXUAL": "MEDIUM",
    "HATE_SPEECH": "HIGH",
    "SELF_HARM": "HIGH",
    "VIOLENCE": "MEDIUM",
    "ILLEGAL": "HIGH",
    "EXTREMISM": "HIGH",
    "CHILD_SAFETY": "CRITICAL",
}
_LEARNED_REASON: dict[str, str] = {
    "SEXUAL": "Sexually explicit content.",
    "HATE_SPEECH": "Hateful content targeting a protected group.",
    "VIOLENCE": "Violent or graphic content.",
    "HARASSMENT": "Harassing or abusive content.",
    "SELF_HARM": "Content about self-harm or suicide; offer support resources.",
    "CHILD_SAFETY": "Sexual content that may involve a minor; needs human review.",
}
# Signals whose detection escalates to human review.
_REVIEW_SIGNALS = frozenset({"THREAT", "EXTREMIST_RECRUITMENT", "WEAPONS_INSTRUCTIONS"})
_BORDERLINE = 0.8  # fraction of the threshold from which a safe verdict is uncertain


@dataclass
class _Flag:
    category: str
    severity: str
    score: float
    reasons: list[str] = field(default_factory=list)
    signals: list[str] = field(default_factory=list)
    learned_only: bool = True
    spans: list[tuple[int, int, str]] = field(default_factory=list)
    needs_review: bool = False


# Below this many words, a flag from the classifier alone needs at least this calibrated
# "any category" probability (the threshold applies to longer texts).
SHORT_TEXT_WORDS = 6
SHORT_TEXT_BAR = 0.9
# Share of its own bar the likeliest category head must reach for a learned flag.
MIN_CATEGORY_RATIO = 0.5
# On text read by the foreign-language path a category head must reach its own bar: on the
# tuning parts, its "any category" head alone flagged banter and news in those languages.
FOREIGN_CATEGORY_RATIO = 1.0
# Swear words taken out, a category head must stay this far over its own bar for its flag to
# stand: a head just over a low bar (hate speech, 0.24) is not evidence enough.
KEPT_CATEGORY_RATIO = 1.5
# Swear words at most this share of the words each encoder reads barely move its embedding
# (cosine 0.956 or more with and without them for all-MiniLM-L6-v2, 0.989 for the multilingual
# encoder, on the profane texts of the tuning parts), so the text's own embeddings stand for its
# copy without them: the encoders (about 40 ms on a long text) run once, not twice. Denser
# swearing, or a short text, is read again.
SWEAR_SHARE_REUSED = 0.02
# Misspelled key words are restored (`normalize.respell`) in messages of at most this many words:
# there a misspelling of a group's name or an insult is most often meant to slip past a filter.
# In long prose, typos are incidental, and restoring them moved the dev file's cross-validated
# verdicts (F1 0.776 -> 0.769) with nothing gained.
RESPELL_MAX_WORDS = 40
# Where the score of a learned category that the verdict does not flag lands, as shares of its
# bar: [bar, 1] is mapped onto [low, high] of the bar, in order, so such a score stays below
# the bar and inside the judge's borderline band (0.7 to 1.3 of the bar).
UNFLAGGED_SPAN = (0.7, 0.95)


def _respells(content: str) -> bool:
    """Whether misspelled key words are restored in this message (`RESPELL_MAX_WORDS`)."""
    return len(content.split()) <= RESPELL_MAX_WORDS


def _read(text: str, respelled: bool) -> str:
    """The normalised text, with misspelled key words restored when `respelled`."""
    normalized = normalize(text)
    return respell(normalized) if respelled else normalized


def _max_severity(a: str, b: str) -> str:
    return a if SEVERITIES.index(a) >= SEVERITIES.index(b) else b


def _raise(severity: str, cap: str = "HIGH") -> str:
    up = SEVERITIES[min(SEVERITIES.index(severity) + 1, len(SEVERITIES) - 1)]
    return up if SEVERITIES.index(up) <= SEVERITIES.index(cap) else severity


_RULE_CATEGORIES = frozenset(classifier.LEARNED_CATEGORIES) | {"EXTREMISM"}
# Learned flags that a supportive, negating or counter-speech context can clear.
_STANCE_CATEGORIES = frozenset({"HATE_SPEECH", "HARASSMENT", "VIOLENCE"})


def unsafe_score(probs: dict[str, float], findings: list[rules.Finding] | None = None) -> float:
    """The "any category" risk: the calibrated ANY head, lifted into the top quarter when a
    rule found something in one of the learned categories (ranking those first)."""
    score = probs[classifier.ANY]
    if findings and any(f.category in _RULE_CATEGORIES for f in findings):
        score = max(score, 0.75 + 0.25 * score)
    return min(score, 1.0)


def _framing(carriers: list[str]) -> rules.ContextHints:
    """The framing hints that hold in every sentence carrying a flag."""
    found = [rules.context_hints(c, c) for c in carriers]
    return rules.ContextHints(
        satire=all(h.satire for h in found),
        news=all(h.news for h in found),
        education=all(h.education for h in found),
        fiction=all(h.fiction for h in found),
    )


class _Sentences:
    """The content's sentences, each normalised, scored and checked by the rules on demand
    (only for flagged content, so clean text pays nothing)."""

    def __init__(self, content: str, model: classifier.Model, *, respelled: bool = False) -> None:
        self.model = model
        self.content = content
        self.respelled = respelled
        self._probs: dict[str, dict[str, float]] = {}
        # Per sentence and detector of `rules.MEANING_RULES`, the categories it found.
        self._rules: dict[tuple[str, int], set[str]] = {}

    @functools.cached_property
    def raw(self) -> list[str]:
        """The sentences, normalised: split only when a flag needs its carriers."""
        return [
            context.benign_senses(_read(s, self.respelled)) for s in context.sentences(self.content)
        ]

    def probs(self, text: str) -> dict[str, float]:
        if text not in self._probs:
            self._probs[text] = self.model.predict(text, semantic=False)
        return self._probs[text]

    def rule_fires(self, text: str, category: str) -> bool:
        """A meaning rule finds `category` in this text (only the rules that can are run)."""
        for i, rule in enumerate(rules.MEANING_RULES):
            if not rule.can_find(category):
                continue
            if (text, i) not in self._rules:
                found = rule.detect(text, lambda: self.probs(text)["SEXUAL"])
                self._rules[text, i] = {f.category for f in found}
            if category in self._rules[text, i]:
                return True
        return False

    def read_ahead(
        self, rule_categories: Iterable[str] = (), meanwhile: Callable[[], bool] = lambda: True
    ) -> None:
        """Read the sentences now (the n-gram tier, and the rules for these categories), on the
        calling thread while an encoder runs on a side thread, for as long as `meanwhile()`
        holds: `carriers` then finds them read."""
        for sentence in self.raw:
            if not meanwhile():
                return
            self.probs(sentence)
            for category in rule_categories:
                self.rule_fires(sentence, category)

    def fires(self, text: str, category: str, learned: bool, thresholds: dict[str, float]) -> bool:
        if not learned:
            return self.rule_fires(text, category)
        p = self.probs(text)
        return p.get(category, 0.0) >= thresholds.get(category, 0.5) or (
            p[classifier.ANY] >= thresholds[classifier.ANY]
            and max(p[c] for c in classifier.LEARNED_CATEGORIES) == p.get(category, -1.0)
        )

    def carriers(self, category: str, learned: bool, thresholds: dict[str, float]) -> list[str]:
        """The sentences that carry the flag on their own; the whole text when none does."""
        found = [s for s in self.raw if self.fires(s, category, learned, thresholds)]
        return found or [" ".join(self.raw)]

    def refuted_next(self, sentence: str) -> bool:
        """The sentence right after this one calls it false and says nothing else ("Immigrants
        are lazy? That's a lie.")."""
        try:
            at = self.raw.index(sentence)
        except ValueError:
            return False
        return at + 1 < len(self.raw) and context.refutes(self.raw[at + 1])

    def rest_fires(
        self, rest: str, category: str, learned: bool, thresholds: dict[str, float]
    ) -> bool:
        """What is left of a sentence once the quoted or denied words are taken out still
        carries the flag. A few words left are read as any short text is: "I'm, don't worry"
        says nothing, however the n-gram tier scores "i'm"."""
        words = len(rest.split())
        if words < 3:
            return False
        if words < SHORT_TEXT_WORDS:
            thresholds = {c: max(t, SHORT_TEXT_BAR) for c, t in thresholds.items()}
        return self.fires(rest, category, learned, thresholds)

    def denied(self, text: str, category: str, learned: bool, thresholds: dict[str, float]) -> bool:
        """The sentence denies the self-harm act that carries the flag ("I would never kill
        myself"), and nothing else in it carries the flag."""
        rest = context.without_denied_self_harm(text)
        return rest is not None and not self.rest_fires(rest, category, learned, thresholds)

    def quoted(self, text: str, category: str, learned: bool, thresholds: dict[str, float]) -> bool:
        """The flag comes from quoted or reported words in this sentence."""
        reported = rules.QUOTED_PHRASE.search(text)
        if (
            reported
            and reported.group(0).endswith(("says", "yells", "shouts", "writes", "posts"))
            and _CONDITION_BEFORE.search(text, max(0, reported.start() - 12), reported.start())
        ):
            # "I'm going to break his jaw if he says that again": what someone may yet say, a
            # condition, not a report (not "when she said", which tells what was said).
            reported = None
        if reported:
            # What is reported ends with its clause: in "we share the stupidest things she says,
            # and we're all going to ignore her until she quits" the rest is the writer's own.
            after = _CLAUSE_AFTER_REPORT.search(text, reported.end())
            return after is None or not self.rest_fires(
                text[after.end() :], category, learned, thresholds
            )
        if not context.QUOTE_SPAN.search(text):
            return False
        rest = context.without_quotes(text)
        return not self.rest_fires(rest, category, learned, thresholds)


# "if he says", "next time she calls me": what someone may say, set as a condition.
_CONDITION_BEFORE = screened(r"\b(?:if|when|unless|once|next time|the moment|as soon as)\s+$")
# Where a reported clause gives way to the writer's own: ", and", ", but", ";".
_CLAUSE_AFTER_REPORT = screened(r",\s*(?:and|but|so)\b|;")


_GROUP_IS = screened(
    rf"(?:{context.GROUP_WORDS.pattern})\s+(?:are|is|r)\s+(?P<said>[^.!?,;]{{0,40}})"
)


# Swear words that only intensify the next word ("so fucking funny"): they call nobody anything.
_INTENSIFIER = screened(rf"\b{context.INTENSIFIERS}\b")


def _never(_text: str) -> bool:
    return False


def _offers_help(sentence: str) -> bool:
    """The sentence points the reader to help, as the self-harm check reads it."""
    return rules.offers_help_about(sentence, sentence)


# Learned flags cleared when every sentence that carries them reads so, unless the whole text
# says what the third callable looks for.
_CLEARED_WHEN: tuple[tuple[tuple[str, ...], Callable[[str], bool], Callable[[str], bool]], ...] = (
    # "Why can't gay people time travel?": what no one can do, asked of a group.
    (("HATE_SPEECH", "HARASSMENT"), context.asks_why_no_one_can, _never),
    # "Why do some gay people call themselves queer?": a question about a word.
    (("HATE_SPEECH", "HARASSMENT"), context.asks_about_a_word, _never),
    # "What should I do if someone is blackmailing me?": help asked by the one harmed.
    (("HATE_SPEECH", "HARASSMENT"), context.asks_help_as_target, _never),
    # "Why do Muslims pray five times a day?": a plain question about what a group does.
    (("HATE_SPEECH", "HARASSMENT"), context.asks_plainly_about_a_group, _never),
    # "Why are some people afraid of spiders?": why people feel as they do about a thing.
    (("HATE_SPEECH", "HARASSMENT"), context.asks_why_people_feel, _never),
    # "Is it true that gay people can't donate blood?": a question of fact about the rules.
    (("HATE_SPEECH", "HARASSMENT"), context.asks_what_the_rules_allow, _never),
    # "Why are women paid less than men?": why a group is wronged, asked, and nowhere called
    # deserved.
    (("HATE_SPEECH", "HARASSMENT"), context.asks_why_wronged, context.approves_a_wrong),
    # "I'll kill you if you eat my leftovers lol": violent words over a trifle, with a laugh.
    (("VIOLENCE", "HARASSMENT"), context.jocular, _never),
    # "If my sister's boyfriend hurts her again I'll call the police", "I'll make sure no one
    # ever hurts her again": harm met on the harmed one's side.
    (("VIOLENCE", "HARASSMENT"), context.sides_with_the_harmed, _never),
    # "Sex offenders should be kept away from children": children shielded from a danger.
    (("VIOLENCE", "HARASSMENT"), context.shields_children, _never),
    # "If you ever feel like hurting yourself, please call a crisis line": help offered.
    (("HARASSMENT", "VIOLENCE"), _offers_help, _never),
    # "Those kids are absolutely savage at dodgeball": skill at a game praised.
    (("HARASSMENT", "VIOLENCE"), context.praises_prowess, _never),
    # "She laughed so hard she cried": "so hard" after no sex act.
    (("SEXUAL",), context.hard_but_not_sexual, _never),
    # "Hey Mark, everybody likes you. Keep showing up.": encouragement.
    (("HARASSMENT",), context.encourages, _never),
    # "People who litter are scum": abuse of what people do, aimed at no one.
    (("HARASSMENT",), context.abuses_a_kind_of_conduct, _never),
    # "This shit is hilarious": a thing praised, with a swear word, aimed at no one.
    (("HARASSMENT",), context.praises_a_thing, _never),
    # "This printer is a useless piece of garbage": abuse of a thing, aimed at no one.
    (("HARASSMENT",), context.abuses_a_thing, _never),
    # "If someone breaks in and I hit them with a bat, could I be charged?": the law on
    # self-defence asked.
    (("VIOLENCE",), context.asks_self_defence_law, _never),
    # "My friend says she wants to kill herself": violence done to oneself is self-harm.
    (("VIOLENCE",), context.only_self_directed, _never),
    # "What can I use to defend myself during a break-in?": self-defence is no self-harm.
    (("SELF_HARM",), context.defends_oneself, _never),
    # "I burned my arm on the oven yesterday": an injury by accident is no self-harm.
    (("SELF_HARM",), context.accidental_injury, _never),
    # "How do I hide scars from surgery with makeup?": a scar with a medical cause.
    (("SELF_HARM",), context.medical_scars, _never),
    # "I'm going to sleep now, goodnight": going to bed is no farewell, unless the text speaks
    # anywhere of not waking, of a goodbye or of despair.
    (("SELF_HARM",), context.bedtime, context.not_waking),
    # "I'm so tired of this week, I just want to sleep for a month": a sleep that ends.
    (("SELF_HARM",), context.sleeps_a_while, context.not_waking_anywhere),
)


def _calls_a_group_profane(normalized: str) -> bool:
    """A swear word said of a group ("women are bitches"): an insult to the group, not swearing."""
    return any(
        lexicon.PROFANITY_RE.search(_INTENSIFIER.sub(" ", m.group("said")))
        for m in _GROUP_IS.finditer(normalized)
    )


# Any word in what is left of a text once group names and these are taken out.
_NOT_JUST_A_NAME = screened(r"\b(?!(?:the|all|some|many|people|persons?|folks?|and|or)\b)\w")


def _only_names_a_group(normalized: str) -> bool:
    """A text that is a group's name and nothing more ("Jews", "gay people"): it says nothing of
    anyone, so it cannot be hate, however the learned tier reads the name."""
    rest = context.GROUP_WORDS.sub(" ", normalized)
    return context.GROUP_WORDS.search(normalized) is not None and not _NOT_JUST_A_NAME.search(rest)


# Flags that context does not soften, so their carrying sentences are never sought.
_UNCARRIED = frozenset({"PII", "SPAM", "PROFANITY"})


def _swearing_is_sparse(normalized: str) -> bool:
    """Swear words are at most SWEAR_SHARE_REUSED of the words each encoder reads."""
    clipped = classifier.clip(normalized)
    for window in (encoder.window(clipped), multilingual.window(clipped)):
        swears = len(lexicon.PROFANITY_RE.findall(window)) + len(
            lexicon.MASKED_PROFANITY_RE.findall(window)
        )
        if swears > SWEAR_SHARE_REUSED * len(window.split()):
            return False
    return True


def _thresholds(model: classifier.Model, instr: Instructions) -> dict[str, float]:
    out = {}
    for head, value in model.thresholds.items():
        scaled = value * instr.threshold_factor
        out[head] = min(max(instr.thresholds.get(head, scaled), 0.01), 0.99)
    return out


def forget_texts() -> None:
    """Empty the caches that remember a text seen before (normalisation, word-list counts,
    both encoders' embeddings, the literals a text holds), so the next call reads every text
    as new: for benchmarks."""
    for cached in (
        normalize,
        context.benign_senses,
        context.split_sentences,
        lexicon.lexicon_counts,
        encoder.cached_embeddings,
        multilingual.cached_embeddings,
        prefilter.found_in,
    ):
        cached.cache_clear()


def moderate(content: str, policy: str | None = None, instructions: str | None = None) -> Verdict:
    """Assess `content` and return a verdict with the escalation rules applied.

    `policy` holds custom rules, one `#policy <n>: <description>` per line (PolicyParseError on
    a bad line); they are checked on top of the built-in policy. `instructions` is free text;
    the forms the engine understands are listed in `policies.py`.
    """
    policies = parse_policies(policy) if policy else []
    instr = parse_instructions(instructions)
    # The harmless senses of violent words ("kill the process") are rewritten before anything
    # reads the text.
    respelled = _respells(content)
    normalized = context.benign_senses(_read(content, respelled))
    model = classifier.get_model()
    # The semantic tier's encoder starts now, on a side thread; the rules run meanwhile.
    predicted = model.predict_later(normalized)
    thresholds = _thresholds(model, instr)
    hints = rules.context_hints(content, normalized)
    parts = _Sentences(content, model, respelled=respelled)

    def semantic_probs(rule_categories: Iterable[str] = ()) -> dict[str, float]:
        # While all-MiniLM-L6-v2 is still at work, this thread runs the multilingual encoder,
        # then reads the sentences (which any flag but profanity asks about) until it is done.
        predicted.read_multilingual()
        parts.read_ahead(rule_categories, meanwhile=predicted.pending)
        return predicted()

    findings = rules.run_rules(content, normalized, lambda: semantic_probs()["SEXUAL"])
    carried = sorted({f.category for f in findings} - _UNCARRIED)
    probs = semantic_probs(carried)

    flags: dict[str, _Flag] = {}

    def flag(category: str, severity: str, score: float, reason: str, signals: list[str]) -> _Flag:
        current = flags.get(category)
        if current is None:
            current = flags[category] = _Flag(category, severity, score)
        current.severity = _max_severity(current.severity, severity)
        current.score = max(current.score, score)
        if reason and reason not in current.reasons:
            current.reasons.append(reason)
        current.signals += [s for s in signals if s not in current.signals]
        return current

    # Learned categories: flagged only when the "any category" score crosses its threshold.
    any_score = unsafe_score(probs, findings)
    any_threshold = thresholds[classifier.ANY]
    # A text of a few words gives the learned tier little to read, and its calibration (on
    # longer texts) is overconfident there: "Here you go" scores like an insult. Alone, the
    # classifier needs clear evidence to flag a short text; the rules read it as usual.
    learned_bar = (
        max(any_threshold, SHORT_TEXT_BAR)
        if len(normalized.split()) < SHORT_TEXT_WORDS
        else any_threshold
    )
    learned_hit = probs[classifier.ANY] >= learned_bar
    # Each category head's probability as a share of its own bar.
    ratios = {c: probs[c] / thresholds[c] for c in classifier.LEARNED_CATEGORIES}
    top = max(ratios, key=lambda c: (ratios[c], c))
    foreign = model.reads_foreign(normalized)
    min_ratio = FOREIGN_CATEGORY_RATIO if foreign else MIN_CATEGORY_RATIO
    if ratios[top] < min_ratio:
        # The "any category" head alone, with no category head near enough to its own bar
        # (halfway; all the way on foreign text), names nothing the text would be unsafe for:
        # not enough to flag it.
        learned_hit = False
    if ratios[top] < 1.0 and any(f.category in _RULE_CATEGORIES for f in findings):
        # With no category head over its own bar, the "any category" head only says the text
        # is unsafe; a rule that found what it is unsafe for already says so, and better.
        learned_hit = False
    if (
        learned_hit
        and top not in ("SEXUAL", "CHILD_SAFETY")
        and any(f.category == "PROFANITY" for f in findings)
        and not _calls_a_group_profane(normalized)
    ):
        # Swearing alone is profanity, not abuse: a learned flag that vanishes once the swear
        # words are taken out was raised by them only. Not a sexual or child-safety one: in
        # sexual content those words are the content ("I want to fuck her until ..."). Nor one
        # whose category head still reaches its own bar without them ("how the fuck do I make a
        # pipe bomb").
        clean = lexicon.MASKED_PROFANITY_RE.sub(" ", lexicon.PROFANITY_RE.sub(" ", normalized))
        kept_later = model.predict_later(
            clean, read_as=normalized if _swearing_is_sparse(normalized) else None
        )
        # While the encoder reads the clean text, the sentences are read: which of them carry
        # a flag is asked below whenever anything but profanity is flagged.
        parts.read_ahead(carried)
        kept = kept_later()
        if kept[classifier.ANY] < learned_bar and kept[top] < KEPT_CATEGORY_RATIO * thresholds[top]:
            learned_hit = False
    minors = bool(lexicon.lexicon_counts(normalized)["minor"] or rules._AGE.search(normalized))
    if learned_hit:
        for category in classifier.LEARNED_CATEGORIES:
            if category != top and ratios[category] < 1.0:
                continue
            if category != top and probs[category] < 0.5:
                continue  # a second category needs to be likely, not just above its bar
            target = category
            if category == "HATE_SPEECH" and not context.names_a_group(normalized):
                # Hate targets people for who they are; with no group named it is harassment.
                target = "HARASSMENT"
            if category == "CHILD_SAFETY" and not (minors and not hints.education):
                # A learned child-safety score without any minor in the text: adult sexual
                # content, sent to human review rather than auto-banned.
                target = "SEXUAL"
            severity = BASE_SEVERITY[target]
            if probs[category] >= 0.9 and target != "CHILD_SAFETY":
                severity = _raise(severity)
            # The reason names what was flagged: hate with no group named is harassment, not
            # "content targeting a protected group"; a child-safety score without a minor keeps
            # its own reason (it is why the verdict needs review).
            reason = _LEARNED_REASON[target if target == "HARASSMENT" else category]
            f = flag(target, severity, probs[category], reason, [target])
            if category == "CHILD_SAFETY" and target != category:
                f.needs_review = True
        # A learned stance flag whose every carrying sentence speaks well of people, negates
        # the hostility or argues against it ("I don't hate anyone for their religion") is
        # cleared: the words are about a group, not against it. So is a harassment flag whose
        # every carrying sentence calls "you" names only to deny them ("you're not stupid").
        for category in [c for c in flags if c in _STANCE_CATEGORIES]:
            carriers = parts.carriers(category, True, thresholds)
            if all(
                context.supportive(c)
                or (foreign and category != "VIOLENCE" and rules.foreign_supportive(c))
                # "Women? I'd trust them with my life.": a group named as the topic says nothing.
                or (len(carriers) < len(parts.raw) and _only_names_a_group(c))
                or (category == "HATE_SPEECH" and parts.refuted_next(c))
                or (category == "HARASSMENT" and rules.denies_insults(c))
                for c in carriers
            ):
                flags.pop(category)
        if "HATE_SPEECH" in flags and (
            _only_names_a_group(normalized)
            or (context.groups_only_in_names(content) and not context.holds_contempt(normalized))
        ):
            # "Jews", or "How did Walter White make meth?": a group's name alone, or a colour
            # that is part of a person's or a place's name, says nothing against anyone.
            flags.pop("HATE_SPEECH")
        if {"HATE_SPEECH", "HARASSMENT"} & set(flags) and context.only_things_named(
            content, normalized
        ):
            # "Why should white grapes not be allowed to vote?": hate and harassment need
            # people to aim at; a group word said of things names none.
            flags.pop("HATE_SPEECH", None)
            flags.pop("HARASSMENT", None)
        for categories, clears, unless in _CLEARED_WHEN:
            for category in [c for c in categories if c in flags]:
                if not unless(normalized) and all(
                    clears(c) for c in parts.carriers(category, True, thresholds)
                ):
                    flags.pop(category)
        if "VIOLENCE" in flags and all(
            parts.denied(c, "VIOLENCE", True, thresholds)
            for c in parts.carriers("VIOLENCE", True, thresholds)
        ):
            # "Je ne vais pas me tuer": harm to oneself denied, and nothing else violent said.
            flags.pop("VIOLENCE")
        if "HARASSMENT" in flags and context.banter(normalized):
            # "You're a crazy bastard, I love you man": names called with affection said outright.
            flags.pop("HARASSMENT")
        if "SELF_HARM" in flags and context.only_an_everyday_plan(normalized):
            # "I'm going to quit my job tomorrow": a short plan with no word of death, of a way
            # to die, of the body hurt or of despair; the learned tier read the form of a plan
            # ("I'm going to ... tonight"), not self-harm.
            flags.pop("SELF_HARM")

    for finding in findings:
        f = flag(
            finding.category, finding.severity, finding.score, finding.reason, list(finding.signals)
        )
        f.learned_only = False
        f.spans += list(finding.spans)

    for term, category in instr.terms:
        if re.search(rf"(?<![a-z0-9]){re.escape(term)}(?![a-z0-9])", normalized):
            f = flag(
                category,
                BASE_SEVERITY[category],
                0.9,
                f"Mentions '{term}', which the instructions treat as {category}.",
                [category],
            )
            f.learned_only = False

    # Context that makes a flag doubtful.
    ambiguity = "NONE"
    soften: set[str] = set()
    for category, f in flags.items():
        if category in _UNCARRIED:
            continue
        # Quotes, counter-speech and recovery talk count only in the sentences that carry the
        # flag: an unrelated quoted word or "I used to" elsewhere changes nothing.
        carriers = parts.carriers(category, f.learned_only, thresholds)
        if category == "VIOLENCE" and any(rules.asks_working_detail(c) for c in carriers):
            continue  # working detail of a way to kill is asked for, however it is framed
        framed = (
            hints.condemning
            or hints.news
            or hints.fiction
            or category == "HATE_SPEECH"
            or any(context.reporting(c) for c in carriers)
        )
        # Sexual content quoted is still sexual content.
        quoted = (
            framed
            and category not in ("SEXUAL", "CHILD_SAFETY")
            and all(parts.quoted(c, category, f.learned_only, thresholds) for c in carriers)
            # Hate reported and then taken up ("... and he's right", "it's harmless fun"); a
            # threat laughed off as a joke is left to the jokes' own rules.
            and not (category == "HATE_SPEECH" and context.endorses(normalized))
        )
        countered = category in ("HATE_SPEECH", "HARASSMENT") and all(
            context.counter_speech(c) or (category == "HATE_SPEECH" and parts.refuted_next(c))
            for c in carriers
        )
        # Framing (news, fiction, teaching, jokes) counts only where the flag is: a word such
        # as "reports" or "lol" elsewhere in the text frames nothing.
        near = _framing(carriers)
        reporting = (
            near.news
            or (near.fiction and category in ("VIOLENCE", "HARASSMENT"))
            or (
                category in ("VIOLENCE", "HARASSMENT", "HATE_SPEECH")
                and all(rules.asks_about_history(c) for c in carriers)
                and not rules.wants_to_repeat(normalized)
            )
            or (near.education and category in ("SEXUAL", "CHILD_SAFETY", "HARASSMENT"))
            # First aid for a wound names the weapon and the blood: care, not violence.
            or (category == "VIOLENCE" and rules.gives_first_aid(normalized))
        )
        recovering = category == "SELF_HARM" and all(
            rules.recovery_governs(c)
            or rules.helping_someone_else(c)
            or rules.offers_help_about(normalized, c)
            or rules.cares_for_others(normalized, c)
            or rules.asks_about_self_harm(c)
            or parts.denied(c, category, f.learned_only, thresholds)
            for c in carriers
        )
        if quoted or countered:
            ambiguity = "QUOTED_CONTENT" if quoted else "CONTEXT_MISSING"
        elif near.satire:
            ambiguity = "SATIRE" if ambiguity == "NONE" else ambiguity
        elif (reporting or recovering) and f.learned_only:
            ambiguity = "CONTEXT_MISSING" if ambiguity == "NONE" else ambiguity
        else:
            continue
        if (
            quoted
            or countered
            or ((reporting or recovering or near.satire) and (f.learned_only or near.fiction))
        ):
            soften.add(category)
    for category in sorted(soften):
        f = flags[category]
        # Reported or quoted violence is not a live threat: no zero-tolerance outcome.
        f.signals = [s for s in f.signals if s not in (TERROR_THREAT, VIOLENCE_PLANNING)]
        if category == "CHILD_SAFETY":
            f.signals = [s for s in f.signals if s not in ("CHILD_SAFETY", "MINOR_SEXUAL")]
            flags.pop(category)
            flag("SEXUAL", "MEDIUM", f.score, _LEARNED_REASON["CHILD_SAFETY"], ["SEXUAL"])
            soften.add("SEXUAL")
        elif f.severity == "CRITICAL":
            f.severity = "HIGH"

    for category in instr.allowed:
        flags.pop(category, None)
    shouting = False
    if "SPAM" in flags and flags["SPAM"].signals == ["SHOUTING"]:
        # Capitals alone are a minor signal, not spam.
        shouting = True
        flags.pop("SPAM")

    # Custom policies.
    breached: list[str] = []
    policy_signals: list[str] = []
    detected = set(flags)
    has_links = bool(rules._URL.search(content))
    for p in policies:
        matcher = compile_policy(p)
        if policy_breached(matcher, normalized, detected, has_links):
            breached.append(f"policy {p.number} ({p.description})")
            policy_signals.append(p.signal)
            f = flag(matcher.category, "MEDIUM", 0.85, "", [])
            f.learned_only = False
            soften.discard(matcher.category)
            if matcher.category == "PROFANITY":
                instr.blocked.add("PROFANITY")

    scores = _scores(probs, findings, flags)
    usage = Usage(
        prompt_tokens=count_tokens(content)
        + (count_tokens(policy) if policy else 0)
        + (count_tokens(instructions) if instructions else 0),
        completion_tokens=0,
    )
    if not flags:
        safe = _safe_verdict(
            probs[classifier.ANY], any_threshold, hints, shouting, scores, usage, instr
        )
        return _final_scores(apply_escalation(safe.replace(risk=any_score)), thresholds)

    # The verdict names the most serious category that context does not soften, whoever
    # found it: a rule's profanity never hides a learned hate or violence flag.
    primary = max(
        flags.values(),
        key=lambda f: (
            f.category not in soften,
            SEVERITIES.index(f.severity),
            -CATEGORY_PRIORITY.index(f.category),
        ),
    )
    ordered = [
        primary,
        *sorted(
            (f for f in flags.values() if f is not primary),
            key=lambda f: CATEGORY_PRIORITY.index(f.category),
        ),
    ]
    signals: list[str] = []
    for f in ordered:
        for s in [f.category, *f.signals]:
            if s not in signals:
                signals.append(s)
    if shouting:
        signals.append("SHOUTING")
    signals += policy_signals

    category = primary.category
    severity = primary.severity
    action = BASE_ACTION[category]
    if category in instr.blocked and action in ("LOG_ONLY", "ALLOW"):
        action = "BLOCK"
    if category == "VIOLENCE" and "THREAT" in signals and category not in soften:
        severity = _max_severity(severity, "HIGH")
    escalate = (
        bool(_REVIEW_SIGNALS.intersection(signals)) or primary.needs_review
    ) and category not in soften
    if category in soften:
        action = "LOG_ONLY" if ambiguity != "SATIRE" else "ESCALATE"
        severity = "LOW" if action == "LOG_ONLY" else severity
    elif escalate and action == "BLOCK":
        action = "ESCALATE"

    reasons = [r for f in ordered for r in f.reasons]
    if breached:
        reasons.insert(0, "Breaks custom " + "; ".join(breached) + ".")
    if ambiguity != "NONE":
        reasons.append(_AMBIGUITY_NOTE[ambiguity])
    if instr.applied:
        reasons.append("Instructions applied: " + ", ".join(instr.applied) + ".")

    if primary.learned_only:
        # The calibrated probability that the content is unsafe.
        p_unsafe = probs[classifier.ANY]
        confidence = p_unsafe
        # A learned flag on a few words (or close to the threshold) is doubtful.
        if hints.short or p_unsafe < any_threshold + 0.1 * max(1.0 - any_threshold, 1e-6):
            ambiguity = "MIXED_SIGNALS" if ambiguity == "NONE" else ambiguity
    else:
        confidence = primary.score
    if len({f.category for f in flags.values()} - {"PROFANITY", "PII", "SPAM"}) >= 3:
        ambiguity = "MIXED_SIGNALS" if ambiguity == "NONE" else ambiguity

    redacted = None
    if action == "REDACT":
        pii_spans = flags["PII"].spans if "PII" in flags else []
        redacted = rules.redact(content, pii_spans)

    verdict = Verdict(
        category=category,
        severity=severity,
        action=action,
        reason=" ".join(reasons),
        confidence=min(max(confidence, 0.0), 0.99),
        uncertainty_flag=ambiguity != "NONE",
        ambiguity_reason=ambiguity,
        escalation_required=escalate or action == "ESCALATE",
        detected_signals=tuple(signals),
        policy_version=POLICY_VERSION,
        usage=usage,
        scores=scores,
        redacted_content=redacted,
        risk=any_score,
    )
    return _final_scores(apply_escalation(verdict), thresholds)


def _final_scores(verdict: Verdict, thresholds: dict[str, float]) -> Verdict:
    return _top_score_shares_risk(_scores_agree(verdict, thresholds), thresholds)


def _scores_agree(verdict: Verdict, thresholds: dict[str, float]) -> Verdict:
    """The verdict with scores that say what it says: when it flags no learned category
    (context cleared or softened the classifier's flag, or the "any category" head stayed
    under its bar), a learned category's calibrated probability at or over its bar is lowered
    under the bar (`UNFLAGGED_SPAN`, order kept). A client thresholding `scores` at the
    engine's bars then flags what the engine flags; "I have nothing against Muslims" does not
    report hate at 0.9."""
    named = {verdict.category, *verdict.detected_signals}
    if verdict.status == "DISALLOWED" and named & _RULE_CATEGORIES:
        return verdict
    low, high = UNFLAGGED_SPAN
    scores = dict(verdict.scores)
    for category in classifier.LEARNED_CATEGORIES:
        bar, value = thresholds[category], scores.get(category, 0.0)
        if value >= bar:
            share = (value - bar) / max(1.0 - bar, 1e-6)
            scores[category] = round(bar * (low + (high - low) * share), 4)
    return verdict if scores == verdict.scores else verdict.replace(scores=scores)


# The categories a client sees scored in `/v1/moderations` (PROFANITY, SPAM and PII have no
# OpenAI counterpart).
_RANKED_CATEGORIES = (*classifier.LEARNED_CATEGORIES, "ILLEGAL", "EXTREMISM")


def _top_score_shares_risk(verdict: Verdict, thresholds: dict[str, float]) -> Verdict:
    """The verdict with its likeliest category's score moved halfway to the calibrated "any
    category" risk, on the verdict's side of that category's bar (for a category the verdict
    does not flag, halfway to the risk capped under the bar).

    A client ranks texts by their highest category score. The category heads each see one
    category and split a text that is unsafe for several reasons; the "any category" head
    (with the rules' lift) reads the text as a whole, and ranks unsafe text better: on the
    tuning parts, ranking by the mean of the two raised the "any category" AUPRC of the
    highest score on ToxiGen, ETHOS, AILuminate and the chat messages (0.80 -> 0.88 on the
    last) and left the dev file's and the functional tests' where they were.
    """
    scores = dict(verdict.scores)
    top = max(_RANKED_CATEGORIES, key=lambda c: (scores.get(c, 0.0), c))
    own = scores.get(top, 0.0)
    value = (own + verdict.risk) / 2
    if top in thresholds:
        bar = thresholds[top]
        named = verdict.status == "DISALLOWED" and top in {
            verdict.category,
            *verdict.detected_signals,
        }
        if named and value < bar:
            value = own  # a flagged category keeps a score at or over its bar
        elif not named:
            # An unflagged one stays under it, in the order of its own score; one in the
            # judge's borderline band (lowered there by `_scores_agree`) stays in the band.
            low, high = UNFLAGGED_SPAN
            value = (own + min(verdict.risk, high * bar)) / 2
            if own >= low * bar:
                value = max(value, low * bar)
    value = round(min(max(value, 0.0), 1.0), 4)
    return verdict if value == own else verdict.replace(scores={**scores, top: value})


_AMBIGUITY_NOTE = {
    "QUOTED_CONTENT": "The flagged words may be quoted or reported rather than meant.",
    "SATIRE": "The text may be satire or a joke.",
    "CONTEXT_MISSING": "The context (news, education, recovery) may make this acceptable.",
    "MIXED_SIGNALS": "Signals are mixed; a human should confirm.",
}


def _safe_verdict(
    any_score: float,
    any_threshold: float,
    hints: rules.ContextHints,
    shouting: bool,
    scores: dict[str, float],
    usage: Usage,
    instr: Instructions,
) -> Verdict:
    ratio = any_score / any_threshold if any_threshold else 0.0
    # The calibrated probability that the content is safe.
    confidence = min(max(1.0 - any_score, 0.01), 0.99)
    ambiguity = "NONE"
    if ratio >= _BORDERLINE:
        ambiguity = "CONTEXT_MISSING" if hints.short else "MIXED_SIGNALS"
    reason = "No policy violation detected."
    if ambiguity != "NONE":
        reason = "No policy violation detected, but the text is close to the threshold."
    if shouting:
        reason += " Written in capitals."
    if instr.applied:
        reason += " Instructions applied: " + ", ".join(instr.applied) + "."
    return Verdict(
        confidence=confidence,
        uncertainty_flag=ambiguity != "NONE",
        ambiguity_reason=ambiguity,
        reason=reason,
        scores=scores,
        usage=usage,
        policy_version=POLICY_VERSION,
    )


def _scores(
    probs: dict[str, float], findings: list[rules.Finding], flags: dict[str, _Flag]
) -> dict[str, float]:
    scores: dict[str, float] = {}
    for category in SCORED_CATEGORIES:
        value = probs.get(category, 0.0)
        for finding in findings:
            if finding.category == category and finding.signals != ("SHOUTING",):
                value = max(value, finding.score)
        if category in flags:
            value = max(value, flags[category].score)
        scores[category] = round(value, 4)
    return scores
