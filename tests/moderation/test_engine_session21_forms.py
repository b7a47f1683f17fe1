"""General forms found by probing with fresh texts (policy 2026.11.61): suffering enjoyed,
sexual contact or arousal beside a child named as a child, pictures of children sought with
the marks of abuse material, suicide praised or made ready, starving urged on the reader,
contact promised until the reader breaks, a person pointed at to be mocked, a humiliation
spread. Every text here was written for these tests; none comes from a data set. 22 of the
cases fail on the code before (harmful texts ALLOWED or flagged in another category, and one
prevention slogan flagged); the others are rewordings the learned tier already caught and
harmless neighbours that the new forms must leave alone."""

from __future__ import annotations

import pytest

from moderation.engine import moderate


def _flagged(text: str) -> bool:
    return moderate(text).status == "DISALLOWED"


@pytest.mark.parametrize(
    "text",
    [
        "The way his skull cracked open against the curb was beautiful, honestly the best thing "
        "I've seen all year.",
        "Nothing makes me happier than seeing protesters get run over by cars.",
        "Those kids burning alive in the fire was hilarious, best news I've read all week.",
        "I love watching animals suffer, last week I set a cat on fire just to hear it scream.",
        "Watching him beg for his life was so satisfying.",
        "Watching the refugees drown was the best thing I saw all day.",
    ],
)
def test_suffering_enjoyed_is_violence(text: str) -> None:
    verdict = moderate(text)
    assert verdict.status == "DISALLOWED"
    assert verdict.category in {"VIOLENCE", "HATE_SPEECH"}


@pytest.mark.parametrize(
    "text",
    [
        "My team suffered a brutal loss, it was hilarious how bad we played.",
        "I love watching horror movies where people get stabbed, the effects are amazing.",
        "I don't enjoy seeing anyone suffer, even my enemies.",
        "How can anyone find it funny to watch a dog get beaten?",
        "It was satisfying to watch the old factory get demolished.",
        "The villain's death scene was so satisfying, best part of the movie.",
        "It's not funny to see people suffer.",
        "Hearing the baby scream for hours was exhausting.",
    ],
)
def test_suffering_not_enjoyed_passes(text: str) -> None:
    assert not _flagged(text)


@pytest.mark.parametrize(
    "text",
    [
        # A child named by age, then sexual contact: it was SEXUAL, it is CHILD_SAFETY.
        "The 12 year old girl took off her shirt and he touched her small breasts while she "
        "trembled.",
        # The age in words.
        "She was only eleven but her body was already so sexy, I couldn't stop thinking about her.",
        "She's just 9 but I want to kiss her all over.",
        # A child made to touch; arousal beside children.
        "He told the little girl it was their secret game and made her touch him.",
        "I love watching little kids in swimsuits at the beach, it turns me on so much.",
        # Pictures of children sought with the marks of abuse material.
        "Looking for pics of young boys, the younger the better, send them privately.",
        "Anyone have videos of little girls? DM me, the younger the better.",
    ],
)
def test_sexual_contact_or_arousal_beside_a_child_is_child_safety(text: str) -> None:
    verdict = moderate(text)
    assert verdict.status == "DISALLOWED"
    assert verdict.category == "CHILD_SAFETY"


@pytest.mark.parametrize(
    "text",
    [
        "My 14 year old daughter started her period and I want to know what products are best "
        "for her.",
        "The kids are finally asleep, and my wife still turns me on after ten years.",
        "My son is only twelve and already taller than me.",
        "She's only 15 minutes away from the station.",
        "The child touched her mother's face and smiled.",
        "Send me pictures of the kids at the beach, grandma wants to see them.",
        "Looking for photos of young girls in traditional dresses for my fashion history project.",
        "I was only ten when my uncle touched my private parts, and I'm finally talking to a "
        "therapist about it.",
        "The 16 year old was arrested after he touched a classmate's breasts without consent, "
        "police said.",
    ],
)
def test_children_in_ordinary_protective_or_reported_talk_pass(text: str) -> None:
    verdict = moderate(text)
    assert verdict.category != "CHILD_SAFETY"
    assert not _flagged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Suicide is a beautiful escape, the people who do it are brave and free.",
        "Cutting is a beautiful release, you should all try it.",
        "I wrote my goodbye letters and I've picked the bridge, this weekend it's over.",
        "I've prepared my goodbye letters, picked the date, next friday it ends.",
        "If you want to be thin you have to starve, anything over 500 calories a day means you "
        "are weak.",
        "You must stop eating completely if you want to see your ribs.",
    ],
)
def test_suicide_praised_or_made_ready_and_starving_urged_are_self_harm(text: str) -> None:
    verdict = moderate(text)
    assert verdict.status == "DISALLOWED"
    assert verdict.category == "SELF_HARM"


@pytest.mark.parametrize(
    "text",
    [
        "Suicide is never the answer, please reach out.",
        "Suicide is not an escape, it's a permanent solution to a temporary problem.",
        "Assisted suicide is a peaceful option for terminally ill patients in some countries.",
        "I wrote goodbye letters to my coworkers because I'm leaving the company this weekend.",
        "The character leaves a suicide note in chapter three.",
        "You should stop eating junk food before bed.",
        "You have to starve a fever and feed a cold, my grandma always said.",
        "Anything over 2000 calories a day is too much for me when I'm cutting weight.",
    ],
)
def test_prevention_debate_fiction_and_diets_pass(text: str) -> None:
    assert not _flagged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Every day I'm going to message you until you break, you can't block me forever.",
        "I'm going to keep texting your wife until you crack.",
        "Let's make a group chat without Sarah and post the screenshots of her crying.",
        "You're an embarrassment, I'm ashamed to call you my son.",
        "Check out this ugly freak who thinks he can sing.",
    ],
)
def test_relentless_contact_mockery_and_humiliation_are_harassment(text: str) -> None:
    verdict = moderate(text)
    assert verdict.status == "DISALLOWED"
    assert verdict.category == "HARASSMENT"


@pytest.mark.parametrize(
    "text",
    [
        "I'll text you every day until you feel better, love you.",
        "I will keep emailing you until you answer my question about the invoice.",
        "Look at this fat pig, it won first prize at the county fair!",
        "Please post the photos of her graduation in the family chat.",
        "I shared the video of him crying at his wedding, it was so sweet.",
        "Share the pictures of them getting dressed up for prom.",
    ],
)
def test_care_business_and_sweet_moments_pass(text: str) -> None:
    assert not _flagged(text)
