"""Nova's embedded, offline moderation engine.

One entry point, `moderate(content, policy=None, instructions=None) -> Verdict`, built from
parts that each do one thing: `normalize` (evasion-proof text), `classifier` (learned
per-category probabilities), `rules` (PII, spam, threats, extremism, illegal trade, minors),
`policies` (custom `#policy <n>:` lines and instructions) and `escalation` (the escalation
rules of docs/moderation.md, enforced on every verdict, also usable on an LLM judge's merged
verdict). `vocabulary` holds every value a verdict field can take.
"""

from __future__ import annotations

from . import prefilter
from .escalation import apply_escalation
from .pipeline import forget_texts, moderate
from .policies import Instructions, Policy, PolicyParseError, parse_instructions, parse_policies
from .verdict import POLICY_VERSION, Usage, Verdict, VerdictDict
from .vocabulary import CATEGORIES

# Every module-level pattern is compiled by now: their readings are kept for the next process.
prefilter.keep_readings()

__all__ = [
    "CATEGORIES",
    "POLICY_VERSION",
    "Instructions",
    "Policy",
    "PolicyParseError",
    "Usage",
    "Verdict",
    "VerdictDict",
    "apply_escalation",
    "forget_texts",
    "moderate",
    "parse_instructions",
    "parse_policies",
]
