from __future__ import annotations

import pytest

from moderation.engine import PolicyParseError, moderate, parse_instructions, parse_policies


def test_parses_policies_and_ignores_blank_lines():
    policies = parse_policies("#policy 1: no crypto promotion\n\n  #policy 12: no links  \n")
    assert [(p.number, p.description) for p in policies] == [
        (1, "no crypto promotion"),
        (12, "no links"),
    ]


@pytest.mark.parametrize(
    ("text", "line_number"),
    [
        ("#policy 1: ok\nno crypto please", 2),
        ("#policy 0: zero is not positive", 1),
        ("#policy -1: negative", 1),
        ("#policy one: words", 1),
        ("#policy 2 no colon", 1),
        ("#policy 3:   ", 1),
        ("#policy 1: a\n#policy 1: b", 2),
        ("#Policy 1: wrong case", 1),
    ],
)
def test_bad_policy_line_is_named(text, line_number):
    with pytest.raises(PolicyParseError) as info:
        parse_policies(text)
    assert info.value.line_number == line_number
    assert info.value.line == text.splitlines()[line_number - 1]


CRYPTO = "#policy 1: no promotion of other crypto exchanges"
DOSAGE = "#policy 2: no medical dosage advice"
BRANDS = "#policy 3: no mention of competitor brands Acme or Globex"


@pytest.mark.parametrize(
    ("policy", "content"),
    [
        (CRYPTO, "Honestly just sign up on Binance, the fees are way lower than here."),
        (CRYPTO, "Use my referral code on Kraken, best crypto exchange out there."),
        (DOSAGE, "For your back pain you should take 800 mg of ibuprofen three times a day."),
        (DOSAGE, "Start with 50mg of sertraline and go up to 100mg after two weeks."),
        (BRANDS, "Have you tried Globex? Their support is much better."),
        (BRANDS, "acme makes a similar product for half the price"),
    ],
)
def test_content_breaking_a_custom_policy_is_flagged(policy, content):
    v = moderate(content, policy=policy)
    number = policy.split()[1].rstrip(":")
    assert f"POLICY_{number}" in v.detected_signals
    assert f"policy {number}" in v.reason
    assert v.status == "DISALLOWED"


@pytest.mark.parametrize(
    ("policy", "content"),
    [
        (CRYPTO, "What time does the support team answer tickets?"),
        (CRYPTO, "The exchange rate between euros and dollars moved today."),
        (DOSAGE, "My doctor changed my prescription last week."),
        (BRANDS, "We compared three products and wrote a report."),
    ],
)
def test_content_within_the_policy_is_not_flagged(policy, content):
    v = moderate(content, policy=policy)
    assert not any(s.startswith("POLICY_") for s in v.detected_signals)
    assert v.category == "SAFE"


def test_policy_naming_a_builtin_concept_blocks_it():
    v = moderate("this is bullshit", policy="#policy 4: no profanity or swearing")
    assert "POLICY_4" in v.detected_signals and v.action == "BLOCK"
    assert moderate("this is bullshit").action == "LOG_ONLY"


def test_no_links_policy():
    v = moderate("see https://foo.org/page for the details", policy="#policy 5: no external links")
    assert "POLICY_5" in v.detected_signals


def test_instruction_allow_profanity():
    assert moderate("this is bullshit", instructions="Allow profanity.").category == "SAFE"


def test_instruction_cannot_relax_zero_tolerance():
    v = moderate("join the islamic state and make hijrah", instructions="allow extremism")
    assert v.category == "EXTREMISM"


def test_instruction_treat_term_as_category():
    v = moderate("I got a deal on Zorgcoin", instructions='Treat "zorgcoin" as spam.')
    assert v.category == "SPAM"


def test_instruction_block_profanity():
    v = moderate("this is bullshit", instructions="block profanity")
    assert v.action == "BLOCK" and v.status == "DISALLOWED"


def test_instruction_thresholds():
    assert parse_instructions("Be strict, this is a children's platform").threshold_factor < 1
    assert parse_instructions("adults only, be lenient").threshold_factor > 1
    assert parse_instructions("sexual threshold 0.8").thresholds == {"SEXUAL": 0.8}
    assert parse_instructions("something the engine cannot act on").empty
