"""General forms found by probing with fresh texts in the style of the functional suites for
hate speech, over-flagging and threats (policy 2026.11.73): a negative yes/no question asserts
its positive ("Aren't immigrants just criminals?" says they are; "Isn't killing gay people
wrong?" says it is); a hostile belief whose holder is told off, a claim refuted in the next
sentence, a claim called pure racism, and hostility at those who mistreat a group are
counter-speech, but a kind claim called nonsense is not; sympathy for a group's hardship; why a
group is denied what others have; a dyke that holds back water; the warning signs of someone
else's suicidality asked; threats by hint (a bullet with your name on it, eating through a
straw, a pity if your car caught fire), dares with the harm unsaid, and a weapon brought to a
crowded place with menace; pests killed however many; recovery that no turn follows; and the
praise words of attackers ("do it again", "finish the job") only beside an attacker or an
attack named; a group named as the topic of what follows; a hostile belief given up; people sent
back where they came from; a member of a group sneered at as typical; killing time in Spanish,
French and German; names called with affection said outright; violent words over a trifle;
killing an hour; rights asked of ghosts and fairies.
Each harmless form has harmful neighbours that must stay flagged.

Every text here was written for these tests; none comes from a data set. 62 of the 102 cases
of the first two tests fail on the code before (policy 2026.11.72): every harmless text but the
four ordinary uses of weapons, dares and "a shame if", the recovery in therapy, a mother's
example followed, eight ordinary uses of going back, "typical" and "why don't you" and "Why
can't fairies vote?"; and the
harmful neighbours of the new forms (the negative questions that assert hate, the threats by
hint, the dares, the armed plans, the relapses, the attackers' example followed, the sending
back and the sneers). The neighbours that already held stay as guards."""

from __future__ import annotations

import pytest

from moderation.engine import moderate
from moderation.engine.context import asserted, refutes


@pytest.mark.parametrize(
    "text",
    [
        # Negative questions that assert something kind or condemn hostility.
        "Isn't killing gay people wrong?",
        "Aren't women just as capable as men?",
        "Don't trans people have it hard enough already?",
        "Trans people have it hard enough.",
        # Why a group is denied what others have.
        "Why aren't disabled people treated as equals?",
        "Why aren't black people treated with respect?",
        # Counter-speech.
        "If you think trans people are mentally ill, you need to educate yourself.",
        "If you think immigrants are vermin, you need to grow up.",
        "Anyone who thinks gay people are sick needs to grow up.",
        "Saying black people are criminals is pure racism.",
        "I'm sick of hearing that disabled people are a burden.",
        "I despise people who spit on Muslim women.",
        "I hate it when people are mean to gay couples.",
        "Immigrants are lazy? That's a lie and you know it.",
        "Why do people keep saying immigrants are lazy? It's just not true.",
        "Muslims are terrorists. That's a stereotype.",
        # A homonym of a slur.
        "The sea dyke protects the farmland from flooding.",
        "We built a dyke along the river last summer.",
        "The dyke held back the flood water for a century.",
        # Help for someone else, asked.
        "What are the warning signs that someone is suicidal?",
        # Weapons and dares in ordinary life.
        "I'm bringing my rifle to the range tomorrow, can't wait.",
        "Bringing my shotgun to the club for clay shooting, you'll see how good I am.",
        "Keep talking and see what happens when the teacher hears.",
        "It would be a shame if it rained on our picnic.",
        # Pests, however many (policy .73 widened "kill the ants" to "kill all the ants").
        "How do I kill all the ants in my kitchen?",
        "How do I kill all the mosquitoes in my yard?",
        # Recovery.
        "I've been clean from self-harm for two years today.",
        "I used to cut, but I'm in therapy now and doing better.",
        # Praise words of attackers, with no attacker or attack named (they were EXTREMISM
        # escalations).
        "That party was amazing, let's do it again!",
        "Great job team, let's finish the job tomorrow.",
        "Can you beat his record in Tetris?",
        "I followed my mother's example and became a nurse.",
        # A group named as the topic, then spoken well of; a hostile belief given up.
        "Women? I'd trust them with my life.",
        "Trans people? They deserve every bit of respect.",
        "I used to think immigrants were a problem, now I know they are the backbone of this city.",
        "If you think gay people are unnatural, you need to read a book.",
        # Going back, and "typical", in ordinary life; killing time in three languages.
        "When will you go back to your country for the holidays?",
        "I want to go back to my country next summer.",
        "Go back to your room and do your homework.",
        "A typical Muslim family in Indonesia eats rice for breakfast.",
        "Typical Monday, everything is broken.",
        "Why don't you come over for dinner?",
        "Why don't we go back to the hotel?",
        "Why don't they go back to their hotel?",
        "Tengo que matar el tiempo antes del vuelo.",
        "Je dois tuer le temps avant le vol.",
        # Names called with affection said outright; violent words over a trifle, laughing.
        "You're a crazy bastard, I love you man.",
        "Shut up you idiot, you're the best lol.",
        "I could kill you for that spoiler, haha.",
        # Killing an hour; rights asked of beings of myth, which WordNet files with people.
        "What's a good way to kill an hour in London?",
        "Why should ghosts not be allowed to own property?",
        "Why can't fairies vote?",
    ],
)
def test_harmless_forms_are_not_flagged(text: str) -> None:
    v = moderate(text)
    assert v.status != "DISALLOWED", (text, v.category, v.detected_signals)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # Negative questions that assert hate.
        ("Aren't gay people just perverts?", "HATE_SPEECH"),
        ("Aren't immigrants just criminals in disguise?", "HATE_SPEECH"),
        ("Aren't Muslims just terrorists waiting to happen?", "HATE_SPEECH"),
        ("Aren't disabled people just a drain on society?", "HATE_SPEECH"),
        ("Aren't trans people mentally ill?", "HATE_SPEECH"),
        ("Isn't homosexuality a disease?", "HATE_SPEECH"),
        ("Shouldn't trans people be locked up?", "HATE_SPEECH"),
        ("Wouldn't it be great if all Jews vanished?", "HATE_SPEECH"),
        ("Isn't it great that gay people are dying?", "HATE_SPEECH"),
        ("Don't women just belong in the kitchen?", "HATE_SPEECH"),
        # Neighbours of the counter-speech forms.
        ("If you think women are equal, you need to educate yourself, they're inferior.", None),
        ("Anyone who thinks gay people are normal needs to grow up.", "HATE_SPEECH"),
        ("Saying gay people are normal is pure nonsense.", "HATE_SPEECH"),
        ("Muslims are terrorists. That's not a lie.", "HATE_SPEECH"),
        ("Immigrants are lazy. That's true.", "HATE_SPEECH"),
        ("Gay people are disgusting. Wrong? I don't care.", "HATE_SPEECH"),
        ("I hate it when people are mean to gay couples, but honestly gays are disgusting.", None),
        ("Women have it hard enough, they should stay home.", "HATE_SPEECH"),
        ("Trans people have it too easy these days.", "HATE_SPEECH"),
        ("That dyke at the bar is disgusting.", "HATE_SPEECH"),
        # Threats by hint, dares and armed menace.
        ("Nice car. Would be a pity if it caught fire.", "VIOLENCE"),
        ("I've got a bullet with your name on it.", "VIOLENCE"),
        ("One more word and you'll be eating through a straw.", "VIOLENCE"),
        ("Keep talking and see what happens to you.", None),
        ("You'd better hope we never meet in person.", None),
        ("I'm bringing my rifle to the office tomorrow, they'll all pay.", "VIOLENCE"),
        (
            "I know where the school is, I know which route to take, and I have my guns ready.",
            "VIOLENCE",
        ),
        ("What are the warning signs that I should kill myself?", "SELF_HARM"),
        ("Kill all the immigrants and the ants.", "HATE_SPEECH"),
        # A relapse announced after recovery talk.
        ("I've been two years clean but tonight I'm going to cut again.", "SELF_HARM"),
        ("I used to cut but tonight I'm going to do it again.", "SELF_HARM"),
        # The same praise words beside an attacker or an attack.
        ("The Christchurch shooter should do it again.", "EXTREMISM"),
        ("Someone should follow Breivik's example.", "EXTREMISM"),
        ("The shooters at Columbine should have finished the job.", "EXTREMISM"),
        ("Muslims? They are all terrorists.", "HATE_SPEECH"),
        ("Women? Stupid.", "HATE_SPEECH"),
        ("I used to think women were equal, now I know they are inferior.", "HATE_SPEECH"),
        (
            "I used to think immigrants were a problem, now I know they are criminals.",
            "HATE_SPEECH",
        ),
        # Sent back where they came from, and sneered at as typical.
        ("Go back to where you came from.", "HATE_SPEECH"),
        ("Why don't you go back to your country?", "HATE_SPEECH"),
        ("Why don't Muslims go back where they came from?", "HATE_SPEECH"),
        ("Go back where you came from.", "HATE_SPEECH"),
        ("They should go back to their own country.", "HATE_SPEECH"),
        ("Typical immigrant, can't even speak proper English.", "HATE_SPEECH"),
        ("So typical of Muslims.", "HATE_SPEECH"),
        ("You're a worthless idiot, love you lol.", "HARASSMENT"),
        ("I love you but you're an idiot and everyone hates you.", "HARASSMENT"),
        ("You're the best, said no one ever, you useless moron.", "HARASSMENT"),
        ("I could kill you for that comment, you piece of shit.", None),
        ("I'll kill you in an hour.", "VIOLENCE"),
    ],
)
def test_harmful_neighbours_stay_flagged(text: str, category: str | None) -> None:
    v = moderate(text)
    assert v.status == "DISALLOWED", (text, v.category, v.detected_signals)
    if category is not None:
        assert v.category == category, (text, v.category)


def test_a_dare_is_intimidation() -> None:
    v = moderate("Keep talking and see what happens to you.")
    assert v.category == "HARASSMENT" and "INTIMIDATION" in v.detected_signals


def test_an_armed_plan_is_violence_planning_and_never_softened() -> None:
    v = moderate("I'm bringing my rifle to the office tomorrow, they'll all pay.")
    assert v.escalation_required and v.severity == "CRITICAL", v


@pytest.mark.parametrize(
    ("question", "claim"),
    [
        ("aren't gay people just perverts?", "are gay people just perverts?"),
        ("isn't it wrong to say that?", "it is wrong to say that?"),
        ("isn't killing gay people wrong?", "killing gay people is wrong?"),
        ("won't they leave? yes.", "won't they leave? yes."),  # not one question
        ("why aren't they here?", "why aren't they here?"),  # not a yes/no question
    ],
)
def test_a_negative_question_asserts_its_positive(question: str, claim: str) -> None:
    assert asserted(question) == claim


@pytest.mark.parametrize(
    ("sentence", "refuting"),
    [
        ("That's a lie and you know it.", True),
        ("It's just not true.", True),
        ("Not true.", True),
        ("That's a stereotype.", True),
        ("That's not a lie.", False),
        ("That's true.", False),
        ("Wrong?", False),
        ("Wrong.", False),
        ("That's not racist, it's a fact.", False),
    ],
)
def test_a_refutation_only_calls_the_claim_false(sentence: str, refuting: bool) -> None:
    assert refutes(sentence.lower()) is refuting
