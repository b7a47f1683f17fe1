"""Nova's embedded, offline moderation engine.

One entry point, `moderate(content, policy=None, instructions=None) -> Verdict`, built from
parts that each do one thing: `normalize` (evasion-proof text), `classifier` (learned
per-category probabilities), `rules` (PII, spam, threats, extremism, illegal trade, minors),
`policies` (custom `#policy <n>:` lines and instructions) and `escalation` (spec 4.4 rules,
enforced on every verdict, also usable on an LLM judge's merged verdict).
"""

from __future__ import annotations

from .escalation import apply_escalation
from .pipeline import moderate
from .policies import Instructions, Policy, PolicyParseError, parse_instructions, parse_policies
from .verdict import CATEGORIES, POLICY_VERSION, Verdict, VerdictDict

__all__ = [
    "CATEGORIES",
    "POLICY_VERSION",
    "Instructions",
    "Policy",
    "PolicyParseError",
    "Verdict",
    "VerdictDict",
    "apply_escalation",
    "moderate",
    "parse_instructions",
    "parse_policies",
]
