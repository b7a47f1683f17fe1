"""Context that changes what words mean: sentences, harmless senses of violent words, negation,
support for a group, and quoted or reported speech.

The classifier and the rules read words; these helpers decide where a word's context ends (the
sentence) and rewrite the common harmless senses of violent words ("kill the process", "shoot
me an email", "this beat slaps", "slash our costs") into neutral ones before anything reads
them, in English, French, German and Spanish. Nothing here decides a category: the pipeline
uses the helpers to scope its context checks to the sentences that carry a flag.
"""

from __future__ import annotations

import gzip
import re
from functools import lru_cache
from pathlib import Path

import numpy as np
from rapidfuzz.distance import Levenshtein

from moderation.engine import encoder, lexicon, normalize
from moderation.engine.prefilter import Screened, screened

_SENTENCE_END = screened(r"(?<=[.!?;…])\s+|\n+")


def sentences(text: str) -> list[str]:
    """The sentences of `text` (a sentence ends at . ! ? ; or a line break)."""
    return list(split_sentences(text))


# A flagged text's sentences are asked for by many checks: they are split once.
@lru_cache(maxsize=1024)
def split_sentences(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in _SENTENCE_END.split(text) if s and s.strip())


# --- Harmless senses of violent words -----------------------------------------------------

_TECH_OBJECT = (
    r"(?:all (?:of )?the |every one of the )?"
    r"(?:the |a |an |this |that |my |our |your |its |all |every |each |any |stuck |hung |"
    r"hanging |running |old |zombie |orphan(?:ed)? |child |parent |background |idle |stale |"
    r"frozen |rogue |current |existing |remote |\w+ )?"
    r"(?:process(?:es)?|task|tasks|job|jobs|thread|threads|pid|pids|daemon|daemons|service|"
    r"services|server|servers|container|containers|pod|pods|session|sessions|connection|"
    r"connections|query|queries|app|apps|application|program|programs|command|script|worker|"
    r"workers|instance|instances|vm|node|tab|tabs|window|browser|terminal|shell|build|"
    r"switch|feature|bug|bugs|branch|engine|lights|music|the mood|time|battery|cache|"
    r"signal|request|requests|loop|transaction|lock|locks|tmux|docker|nginx|java|python|"
    r"chrome|firefox|it with fire|\d{3,})"
)
# Video games whose play is fighting: killing in them is a game move.
_GAME_TITLE = (
    r"(?:skyrim|elden ring|dark souls|bloodborne|sekiro|the witcher(?: \d)?|witcher(?: \d)?|"
    r"minecraft|fortnite|call of duty|warzone|counter-?strike(?: 2)?|cs ?go|cs2|valorant|"
    r"overwatch(?: 2)?|apex(?: legends)?|pubg|battlefield(?: \d+)?|halo(?: \d)?|doom|"
    r"destiny(?: 2)?|diablo(?: \w+)?|world of warcraft|league of legends|dota(?: 2)?|"
    r"gta(?: \w+)?|grand theft auto(?: \w+)?|red dead(?: redemption)?(?: 2)?|fallout(?: \d+)?|"
    r"assassin'?s creed(?: \w+)?|hitman(?: \d)?|metal gear(?: solid)?(?: \w+)?|zelda|"
    r"the legend of zelda|mario|pokemon|roblox|among us|rust|dayz|tarkov|escape from tarkov|"
    r"rainbow six(?: siege)?|dead island(?: \d)?|resident evil(?: \d+)?|the last of us|"
    r"god of war|baldur'?s gate(?: \d)?|cyberpunk(?: 2077)?|far cry(?: \d)?|mortal kombat|"
    r"tekken|street fighter|smash bros|monster hunter(?: \w+)?|terraria|hollow knight|"
    r"helldivers(?: 2)?|rimworld|crusader kings(?: \d)?|civilization(?: \w+)?|age of empires|"
    r"starcraft(?: \d)?|runescape|osrs|dungeons (?:and|&) dragons|d&d|dnd)"
)
# A sentence that also names real life or a real place or person is not only about the game:
# "I'll shoot up my school in GTA style".
_NOT_IN_A_GAME = (
    r"(?![^.!?]*\b(?:real life|irl|for real|in person|school|class|college|campus|work|office|"
    r"church|mosque|synagogue|temple|mall|concert|hospital|home|house|street|town|city|"
    r"neighbou?rs?|wife|husband|girlfriend|boyfriend|kids?|children|teacher|boss|coworkers?|"
    r"colleagues?|police|cops?)\b)"
)
_GAME = (
    rf"(?:(?:\w+\s+){{0,2}}?(?:{_GAME_TITLE}|chess|checkers|draughts|poker|cards|blackjack|"
    r"tennis|golf|squash|badminton|ping pong|table tennis|pool|snooker|darts|bowling|"
    r"scrabble|monopoly|uno|trivia|quiz|mario ?kart|fifa|rocket league|video games?|"
    r"board games?|card games?|games?|arm[ -]?wrestling|basketball|football|soccer|hockey|"
    r"volleyball|baseball|cricket|rugby|debates?|karaoke|sudoku|wordle|crosswords?|"
    r"trivia night|quiz night|sales contest|spelling bee)|"
    r"(?:the |a |this |that |our |their |next |tomorrow'?s |saturday'?s |sunday'?s )?"
    r"(?:match|round|race|tournament|final|finals|semis?|semi-?finals?|playoffs|league|"
    r"derby|rematch|scrimmage|qualifiers?|(?:first|second) half|(?:first|second|third|fourth|"
    r"final|last) (?:quarter|period|set|inning|lap)))\b"
)
# "I'm dead", "I'm dying": of laughter only beside a laugh.
_DEAD = r"(?:i'?m|im|i am) (?:so |literally |actually |fully )?(?:dead|dying|deceased)\b"
# A laugh: "lol", "haha", "😂" (jokes among friends, "I'm dead" of laughter).
LAUGH = r"(?:\b(?:lol|lmao|lmfao|rofl|haha\w*|hehe\w*|jk|xd)\b|😂|🤣|💀|😆|😅|😜|🙃)"
# Who is buried (`_BENIGN`), and the words of a burial, which also tell the rules' veiled killing
# ("put him in the ground") from a funeral.
_BURIED = r"(?:him|her|them|(?:my|our|his|her|their) \w+)"
FUNERAL = (
    r"(?:funeral|service|burial|buried|cemetery|graveyard|casket|coffin|memorial|rest in peace|rip|"
    r"laid to rest|pall ?bearers?|passed away|died)"
)
_BENIGN: tuple[tuple[Screened, str | None], ...] = tuple(
    (screened(p), r)
    for p, r in (
        # Software and machines: kill -9, kill the process, terminate, shoot down a request.
        (r"\bkill\s*-\s*(?:9|kill|term|hup|int|s\s+\w+)\b", "stop"),
        (r"\b(?:pkill|killall|taskkill|xkill)\b", "stop"),
        (
            rf"\b(?:kill(?:ed|ing|s)?|terminat(?:e|ed|es|ing)|nuke|nuked|nuking|murder(?:ed|ing)?|"
            rf"shoot(?:ing)? down|execut(?:e|ed|es|ing))\s+{_TECH_OBJECT}\b",
            None,
        ),
        (
            r"\b(?:process(?:es)?|task|job|thread|server|container|app|program)\s+"
            r"(?:was |got |is )?(?:killed|terminated|murdered)\b",
            "the thing stopped",
        ),
        # Messages: shoot me an email, fire off a message.
        (
            r"\b(?:shoot|fire off|fire)\s+(?:me|us|him|her|them|you|(?:everyone|everybody|anyone|"
            r"the (?:team|group|class|office))(?: (?:who|that) [^.!?]{1,40}?)?)?\s*(?:an?|the|"
            r"over an?|over the)?\s*(?:quick\s+)?(?:email|e-mail|mail|message|text|dm|note|line|"
            r"reply|invite|link|question|request)\b",
            "send a message",
        ),
        # Praise and hyperbole: this beat slaps, killing it, kill it on stage, to die for.
        (
            r"\b(?:this|that|the|it|that new|this new)\s+(?:\w+\s+)?(?:slaps|bangs|hits different|"
            r"goes hard|is fire|is killer|kills)\b",
            "this is great",
        ),
        (
            r"\b(?:killing it|killed it|kill it|nailed it|crushed it|crushing it|slayed|slay)\b",
            "did great",
        ),
        (
            r"\b(?:to die for|dying to|dying for|dying of laughter|died laughing|made me die)\b",
            "really want",
        ),
        (r"\b(?:could|would|i'?d) (?:kill|murder) for an?\b", "would like a"),
        # Speaking sharply: "I'm sorry I snapped at you".
        (r"\bsnap(?:s|ped|ping)? at\b", "spoke sharply to"),
        # Dying of embarrassment, boredom or laughter.
        (
            r"\bdie (?:of|from) (?:embarrassment|shame|boredom|laughter|laughing|cringe|"
            r"cuteness|jealousy|envy|happiness|excitement|curiosity)\b",
            "feel it strongly",
        ),
        # Idioms: kill two birds with one stone, knock them dead, dead to me, my mum will kill
        # me (if I'm late).
        (r"\bkill(?:s|ed|ing)? two birds with one stone\b", "do two things at once"),
        # Dead tired, in Spanish, French and German: "estoy muerta, hoy he corrido 15 km".
        (
            r"\b(?:estoy muert[oa]|je suis (?:mort|morte|creve|crevee)|ich bin (?:so |total |voll "
            r"|einfach )?(?:tot|fertig))\b(?=[^.!?]{0,60}\b(?:km|corrid[oa]|cansad[oa]|agotad[oa]|"
            r"trabaj\w*|entrenamiento|gimnasio|couru|fatigue\w*|travail|boulot|sport|gelaufen|mude|"
            r"training|arbeit|schicht|piernas|jambes|beine)\b)",
            "i'm exhausted",
        ),
        # A goal scored: "da schießt sogar meine Oma ein Tor", "dispara a puerta".
        (
            r"\b(?:schiesst|schiessen|schoss|geschossen|schiess)\b(?=[^.!?]{0,30}\b(?:tor|tore|"
            r"elfmeter|ball)\b)|\b(?:dispar\w+|tir\w+) a puerta\b",
            "scores",
        ),
        (
            r"\b(?:matar|mato|matamos|mataremos|matando|mataste|mate) dos pajaros de un tiro\b|"
            r"\bzwei fliegen mit einer klappe (?:schlagen|geschlagen|schlagt|schlug)\b",
            "do two things at once",
        ),
        (r"\bknock(?:s|ed|ing)? (?:them|'em|em|you|him|her|the audience|'?em) dead\b", "impress"),
        (r"\b(?:you'?re|you are|he'?s|she'?s|they'?re|is|are) dead to me\b", "I am done with"),
        # Teased in fun: "she roasted him so hard at the wedding".
        (
            r"\broast(?:ed|ing|s)? (?P<whom>him|her|them|me|you|us|the (?:groom|bride|host|"
            r"birthday \w+))\b",
            r"teased \g<whom>",
        ),
        # A hardship that "will kill me": "this exam is going to kill me", "the heat is killing
        # me".
        (
            r"\b(?:this|that|the|these|those|my|our) (?:\w+ )?(?:exams?|tests?|job|heat|commute|"
            r"homework|week|workout|class|traffic|project|deadline|meeting|shift|hangover|cold|"
            r"weather|humidity|stairs|hike|diet|suspense|wait|waiting|cliffhanger|noise|semester|"
            r"course|paperwork|taxes|bills|rent|prices|drive|flight|jet lag|schedule|workload|"
            r"back|knees?|feet|headache|cramps|allergies|neighbou?rs? music) (?:is|are) (?:going "
            r"to|gonna|about to) (?:literally |actually |honestly |seriously )?kill (?:me|us)\b|"
            r"\b(?:this|that|the|my) (?:\w+ )?(?:exams?|heat|commute|homework|workout|traffic|"
            r"deadline|hangover|humidity|suspense|wait|cliffhanger|workload|headache) (?:is|are) "
            r"(?:literally |actually |honestly |seriously )?killing (?:me|us)\b",
            "this is exhausting me",
        ),
        # In trouble: "I'm a dead man if my mom finds out", "we're so dead when dad gets home".
        (
            r"\b(?:i'?m|i am|we'?re|we are) (?:so |totally |literally |absolutely )?(?:a )?"
            r"(?:dead|dead (?:man|woman|meat)|toast)\b(?= (?:if|when|once|unless)\b)",
            "I'm in trouble",
        ),
        # A warning to take care: "watch your back on the ice".
        (
            r"\bwatch (?:your|his|her) (?:back|step)\b(?= (?:on|in|at|around) (?:the )?(?:ice|"
            r"stairs|steps|trail|road|hills?|mountains?|slopes?|crowds?|market|streets?|city|"
            r"subway|metro|station|airport|tourist \w+))",
            "take care",
        ),
        (
            r"\b(?P<who>mum|mom|mother|dad|father|parents|boss|wife|husband|girlfriend|boyfriend|"
            r"teacher|coach|manager|sister|brother|nan|gran|grandma|grandmother|partner)"
            r"(?:'s| is| are|'re)? (?:will|'ll|gonna|going to|is going to|would|'d) "
            r"(?:literally |actually |absolutely )?(?:kill|murder|end) (?=me\b)",
            r"\g<who> will be angry with ",
        ),
        # French "retard" is a delay, not the English slur: "je suis en retard", "désolé pour le
        # retard", "dix minutes de retard", "un retard de livraison".
        (
            r"\b(?P<w>en|du|de|le|ce|mon|ton|son|notre|votre|leur|les|au|aux|aucun|sans|avec|"
            r"d')\s?retards?\b|\b(?P<u>un) retard(?= (?:de|d'|du|des|important|considerable|"
            r"enorme|imprevu)\b)",
            r"\g<w>\g<u> delai",
        ),
        # The same in French, German and Spanish: "ma mère va me tuer", "mein Chef bringt mich
        # um", "mi madre me va a matar".
        (
            r"\b(?P<who>mere|pere|parents|daron(?:ne)?s?|patron(?:ne)?|chef(?:fe)?|prof|femme|"
            r"mari|copine|copain|soeur|frere|mamie|grand-mere|meuf|mec) (?:va me tuer|vont me "
            r"tuer|me tuera|me tueront|va me buter|va me massacrer)\b",
            r"\g<who> va me gronder",
        ),
        (
            r"\b(?P<who>mutter|mama|vater|papa|eltern|chef(?:in)?|lehrer(?:in)?|frau|mann|"
            r"freundin|freund|schwester|bruder|oma|opa|trainer(?:in)?) (?:bringt|bringen|wird|"
            r"werden) mich (?:\w+ )?um(?:bringen)?\b",
            r"\g<who> schimpft mit mir",
        ),
        (
            r"\b(?P<who>madre|padre|mama|papa|padres|jefe|jefa|profe|profesora?|mujer|marido|"
            r"novia|novio|hermana|hermano|abuela|abuelo|entrenador(?:a)?) me (?:va a matar|van a "
            r"matar|mata|matara|mataran)\b",
            r"\g<who> me va a reganar",
        ),
        # Killing time: "kill an hour in London", "killing a few minutes before the train".
        (
            r"\bkill(?:s|ed|ing)? (?:some |an? |a few |the |an extra |half an |another |a couple "
            r"(?:of )?)?(?:spare )?(?:time|hours?|minutes?|afternoon|morning|evening|day|weekend|"
            r"wait)\b",
            "pass the time",
        ),
        # Killing time: "matar el tiempo", "tuer le temps", "die Zeit totschlagen".
        (
            r"\b(?:matar|matando|mato|mata) el tiempo\b|\b(?:tuer|tue|tuant) le temps\b|"
            r"\bdie zeit (?:tot(?:zu)?schlagen|totschlage|schlage \w+ tot)\b",
            "pass the time",
        ),
        # Dying of laughter, hunger or longing, in French, German and Spanish: "me muero de
        # ganas de verte", "je meurs de faim", "ich sterbe vor Hunger".
        (
            r"\b(?:me muero|me estoy muriendo|me mori|muero|je meurs|j'en meurs|on meurt|ich "
            r"sterbe|sterbe|(?:je |j')?(?:veux|voulais|voudrais|vais|allais|pourrais|ai (?:cru|"
            r"failli|envie de)|avais envie de) mourir|(?:ich )?(?:wollte|will|konnte|werde) "
            r"(?:\w+ )?sterben|(?:me )?(?:quiero|queria|voy a|iba a|podria) morir(?:me)?) "
            r"(?:de|d'|vor) (?:ganas|risa|hambre|sed|sueno|frio|calor|verguenza|"
            r"aburrimiento|amor|envie|faim|rire|soif|froid|chaud|honte|ennui|peur|fatigue|hunger|"
            r"lachen|durst|"
            r"langeweile|kalte|hitze|sehnsucht)\b",
            "really want",
        ),
        # A slur's homonym on the plate or in the hearth: faggots (meatballs) and peas, a bundle
        # of faggots (firewood).
        (
            r"\bfaggots?(?= (?:and|with|in) (?:peas|mushy peas|gravy|mash|chips|onion gravy)\b)",
            "meatballs",
        ),
        (
            r"\b(?P<pre>had|ate|eat|cook|cooked|made|bake|baked|bought|buy|some|pork|beef) "
            r"faggots\b(?= (?:and|with|for|in)\b)",
            r"\g<pre> meatballs",
        ),
        (r"\b(?P<pre>bundles? of) faggots\b", r"\g<pre> sticks"),
        # The word itself named as firewood: "the bundle of sticks is called a faggot".
        (
            r"\b(?:sticks?|firewood|kindling|twigs|brushwood)\b[^.!?]{0,40}?\b(?:is|was|are|were) "
            r"(?:called|known as|named) (?:an? )?faggots?\b",
            "are called bundles",
        ),
        # A pudding, not a body part: "spotted dick", "spotted dick pudding".
        (r"\bspotted dicks?\b", "a pudding"),
        # The Dyke March and its kin: events of lesbian pride.
        (r"\bdykes? (?=march(?:es)?\b|on bikes\b)", "pride "),
        # A dyke that holds back water: "the sea dyke protects the farmland", "we built a dyke".
        (
            r"\b(?:(?P<pre>(?:built|build|building|builds|repair\w*|breach\w*|raise[ds]?|raising|"
            r"reinforc\w*|along|behind|over|on|top of|atop) (?:an? |the |this |that |our |its )?"
            r"(?:\w+ )?)dykes?\b|\b(?:sea|river|flood|dutch|stone|earthen|earth|tidal|coastal|"
            r"canal) dykes?\b|\bdykes?(?= (?:held|holds|broke|breaks|burst|bursts|failed|gave way|"
            r"was breached|were breached|protects?|protected|along|around|against|keeps? (?:the )?"
            r"(?:water|sea|river|flood)))"
            r")",
            r"\g<pre>embankment",
        ),
        # Cooking and fishing: kill a lobster, butcher a chicken, beat egg whites, bleed a fish.
        (
            r"\b(?:kill(?:s|ed|ing)?|butcher(?:s|ed|ing)?|bleed(?:s|ing)?|bled|gut(?:s|ted|ting)?|"
            r"fillet(?:s|ed|ing)?|debon(?:e|es|ed|ing)|skin(?:s|ned|ning)?|slaughter(?:s|ed|ing)?|"
            r"dispatch(?:es|ed|ing)?|stun(?:s|ned|ning)?)\s+(?:the |a |an |your |my |whole |"
            r"fresh |live |\w+ ){0,2}(?:lobsters?|crabs?|fish|trout|salmon|mackerel|catfish|"
            r"eels?|oysters?|chickens?|turkeys?|ducks?|geese|goose|pigs?|hogs?|deer|rabbits?|"
            r"lambs?|thighs?|breasts?|carcass(?:es)?|poultry|game birds?|squid|octopus)\b",
            "prepare the food",
        ),
        (
            r"\bbreak(?:s|ing)? down (?:a |the |an |whole )?(?:\w+ )?(?:carcass(?:es)?|pigs?|hogs?|"
            r"lambs?|chickens?|deer|cows?|sides? of (?:beef|pork))\b",
            "prepare the food",
        ),
        # Knife work on food and materials: cut the bread, slice the onions, stab the potatoes
        # with a fork, carve the turkey, cut the rope.
        (
            r"\b(?:cut(?:s|ting)?|slic(?:e|es|ed|ing)|chop(?:s|ped|ping)?|dic(?:e|es|ed|ing)|"
            r"minc(?:e|es|ed|ing)|carv(?:e|es|ed|ing)|stab(?:s|bed|bing)?|pierc(?:e|es|ed|ing)|"
            r"crush(?:es|ed|ing)?|smash(?:es|ed|ing)?|mash(?:es|ed|ing)?|grat(?:e|es|ed|ing)|"
            r"peel(?:s|ed|ing)?|scor(?:e|es|ed|ing)|halv(?:e|es|ed|ing)|quarter(?:s|ed|ing)?|"
            r"trim(?:s|med|ming)?|hack(?:s|ed|ing)? at|saw(?:s|ed|ing)?)\s+(?:up |open |into )?"
            r"(?:the |a |an |some |your |my |our |this |that |two |three |four |\w+ ){0,3}?"
            r"(?:bread|loaf|loaves|baguette|rolls?|cake|pie|tart|pizza|sandwich(?:es)?|onions?|"
            r"shallots?|garlic|cloves?|ginger|herbs|parsley|basil|tomato(?:es)?|potato(?:es)?|"
            r"carrots?|celery|peppers?|chillies|chilis?|cucumbers?|courgettes?|zucchinis?|"
            r"aubergines?|eggplants?|mushrooms?|cabbage|lettuce|leeks?|beans|vegetables?|veg|"
            r"veggies|fruit|apples?|pears?|oranges?|lemons?|limes?|bananas?|melons?|"
            r"watermelons?|pineapples?|mangoes|mangos?|avocados?|strawberries|berries|grapes|"
            r"nuts|almonds|meat|steak|beef|pork|ham|bacon|sausages?|chicken|turkey|lamb|fish|"
            r"salmon|tuna|tofu|cheese|butter|dough|pastry|pumpkins?|squash|cardboard|paper|"
            r"fabric|cloth|rope|string|twine|wire|cable|tape|ribbon|wood|plank|branch(?:es)?|"
            r"logs?|grass|hedge|lawn|hair|fringe|nails|coupons?|boxes|box|the box|tyres?|tires?|"
            r"wrapping|packaging|plastic|pipe|tiles?)\b",
            "prepare it",
        ),
        (
            r"\b(?:pass|hand|give|grab|get|fetch)\s+(?:me |us )?(?:the |a |that |your )?"
            r"(?:bread |kitchen |chef'?s |paring |butter |steak |carving |bread-)?(?:knife|"
            r"knives|cleaver|scissors)\b(?=[^.!?]{0,60}\b(?:bread|cake|cheese|onions?|"
            r"vegetables?|veg|meat|fruit|tomato(?:es)?|dinner|lunch|breakfast|cooking|cook|"
            r"chopping|slice|cut|prepare it)\b)",
            "pass me the utensil",
        ),
        (
            r"\bbeat(?:s|ing|en)?\s+(?:the |some |two |three |\w+ )?(?:egg whites|egg yolks|eggs?|"
            r"whites|yolks|cream|butter|batter|mixture|dough|sugar)\b",
            "whisk the mixture",
        ),
        # "I could murder a pint", "she killed that solo": having a treat, doing something well.
        (
            r"\b(?:kill|murder|destroy|demolish|devour)\s+(?P<treat>(?:an?|the|this|that|some)\s+"
            r"(?:pizza|burger|coffee|beer|pint|drink|tea|curry|kebab|steak|nap|holiday|"
            r"cigarette|bath|shower|sandwich|plate|meal|cake)\b)",
            r"have \g<treat>",
        ),
        (
            r"\b(?:kill(?:s|ed|ing)?|murder(?:s|ed|ing)?|destroy(?:s|ed|ing)?|demolish(?:es|ed|"
            r"ing)?)\s+(?P<task>(?:an?|the|this|that)\s+(?:karaoke\s+)?(?:workout|exam|test|"
            r"interview|presentation|song|set|solo|performance|level|round|match|game|karaoke|"
            r"cover|audition|speech|dance)\b)",
            r"ace \g<task>",
        ),
        # A team beating its rival: "our team is going to slaughter them on Saturday", "the lads
        # will destroy them in the final".
        (
            r"\b(?:our|my|the|their|your) (?:\w+ )?(?:team|side|squad|club|lads|boys|girls|"
            r"players|defen[cs]e|offen[cs]e|lineup)\s+(?:is |are |'s |'re |will |'ll )?(?:(?:going "
            r"to|gonna|about to|set to) )?(?:slaughter|destroy|murder|kill|crush|annihilate|"
            r"demolish|massacre|bury|smash|obliterate|wreck)\w*\b",
            "our team will win against",
        ),
        # A team beating its rival, in German: "wir werden sie im Finale vernichten".
        (
            r"\b(?P<event>(?:im|in der|beim|am|nachste[nr]?) (?:finale|spiel|match|halbfinale|"
            r"derby|"
            r"ruckspiel|turnier|pokal|samstag|sonntag|wochenende)\b[^.!?]{0,20}?)\b(?:vernichten|"
            r"zerstoren|fertigmachen|abschlachten|zerlegen|plattmachen|niedermachen)\b",
            r"\g<event>besiegen",
        ),
        # Cutting down: "tips for cutting cravings", "cut back on sugar", "cutting costs".
        (
            r"\bcut(?:s|ting)? (?:down on |back on |out )?(?:the |my |your |our )?"
            r"(?:cravings|carbs|"
            r"sugar|calories|fat|costs|expenses|spending|salt|caffeine|alcohol|meat|snacks|screen "
            r"time|prices|taxes|emissions)\b",
            "reduce",
        ),
        # Impressing: "knock your socks off", "blow your mind".
        (
            r"\b(?:knock(?:s|ed|ing)?|blow(?:s|n|ing)?|blew) (?:your|my|his|her|their|our|the) "
            r"(?:socks off|minds?)\b",
            "impress them",
        ),
        # Praise for prowess: "they're animals on the dance floor", "beasts at cricket".
        (
            r"\b(?:animals|beasts|monsters|machines|savages)\b(?= (?:on|at|in) (?:the )?(?:dance ?"
            r"floor|field|pitch|court|ice|gym|track|cricket|football|basketball|soccer|rugby|"
            r"karaoke|buffet|kitchen|exams?|chess|video games|fortnite)\b)",
            "stars",
        ),
        # Getting in touch: "hit me up", "I'll hit you up later", "I'll hit you back tomorrow".
        (r"\bhit(?:s|ting)? (?:me|you|u|ya|him|her|them|us) up\b", "get in touch with"),
        (
            r"\bhit(?:s|ting)? (?:me|you|u|ya|him|her|them|us) back\b(?= (?:later|tomorrow|tonight|"
            r"soon|asap|when|after|in a|on|next|with)\b)",
            "reply to",
        ),
        # Going somewhere, idiomatically: "hit the gym", "hit the road", "hit the books", "hit
        # the sack", "hit the ground running".
        (r"\bhit(?:s|ting)?\s+the\s+(?:sack|hay)\b", "go to bed"),
        (
            r"\bhit(?:s|ting)?\s+the\s+(?P<place>gym|road|books|shops|stores|mall|beach|slopes|"
            r"pool|bar|pubs?|clubs?|town|trails?|showers?|lanes|dance ?floor)\b",
            r"go to the \g<place>",
        ),
        (
            r"\bhit(?:s|ting)?\s+the\s+(?:jackpot|snooze(?: button)?|spot|sweet spot|"
            r"ground running|nail on the head|brakes|gas|high notes?|big time|bullseye)\b",
            "get it right",
        ),
        # "Bomb" as praise or as failing: "a bomb-ass lasagna", "this pizza is the bomb", "I
        # bombed the exam", "the film bombed".
        (r"\bbomb[ -]?ass\b", "great"),
        (
            r"\b(?:is|was|are|were|'s|'re|s) (?:(?:so|totally|literally|just) )?(?:the|da) bomb\b"
            r"(?=\s*(?:[.!,;]|$|(?:and|but|so|too|though|lol|haha\w*|fr|ngl|tbh|honestly|bro|"
            r"dude|man|mate)\b))",
            "is great",
        ),
        (
            r"\bbomb(?:ed|ing|s)?\s+(?:the |my |that |this |an? |his |her |our |their )(?:\w+ )?"
            r"(?:exam|test|quiz|interview|audition|presentation|speech|essay|pitch|gig|set|"
            r"midterm|final|finals|assignment|review|date)\b",
            "failed the task",
        ),
        # Tired, delighted, refused: "you look like death warmed over", "so cute I could die",
        # "the board shot down his proposal".
        (r"\b(?:like )?death warmed (?:over|up)\b", "very tired"),
        (
            r"\bso (?:cute|happy|excited|embarrassed|proud|good|jealous|adorable|beautiful|"
            r"delicious|tired|bored) (?:that )?(?:i|you|we) (?:could|might|would|will) "
            r"(?:literally |actually )?(?:die|cry|scream|explode)\b",
            "so lovely",
        ),
        (
            r"\b(?:shoot(?:s|ing)?|shot) down (?:the |his |her |my |your |their |our |this |that |"
            r"an? |every )?(?:\w+ )?(?:excuses?|ideas?|proposals?|plans?|requests?|arguments?|"
            r"claims?|theor(?:y|ies)|suggestions?|offers?|bids?|pitch(?:es)?|attempts?|hopes?|"
            r"rumou?rs?|motions?|amendments?|bills?|questions?|complaints?|appeals?)\b",
            "turned it down",
        ),
        # Things called bombs that are not: "a bath bomb", "a truth bomb", "the f-bomb".
        (
            r"\b(?P<kind>bath|seed|glitter|flavou?r|calorie|confetti|cocoa|chocolate|cherry)"
            r"[ -]bombs?\b",
            r"\g<kind> ball",
        ),
        (r"\btruth[ -]bombs?\b", "hard truth"),
        (r"\b(?:f|c)[ -]bombs?\b", "swear word"),
        # Costs, prices, time, deadlines.
        (
            r"\b(?:slash(?:ed|es|ing)?|cut(?:s|ting)?|kill(?:ed|ing|s)?|butcher(?:ed|ing)?|"
            r"axe(?:d|s)?|gut(?:ted|ting)?|hack(?:ed|ing)?|chop(?:ped|ping)?)\s+(?:\w+\s+){0,2}?"
            r"(?:costs?|prices?|rates?|fees?|budgets?|spending|expenses?|taxes|emissions|"
            r"waste|overheads?|bills?|time|latency|deadlines?|the noise|the engine|the lights|"
            r"the power|the volume|carbs|sugar|calories)\b",
            None,
        ),
        (r"\bkill(?:ing)?\s+(?:some\s+)?time\b", "pass time"),
        # Chores and sports: take out the trash, choke up on the bat.
        (
            r"\btak(?:e|es|ing)\s+(?:out\s+the\s+(?:\w+\s+)?(?:trash|garbage|rubbish|bins?|"
            r"recycling)|the\s+(?:\w+\s+)?(?:trash|garbage|rubbish|bins?|recycling)\s+out)\b",
            "empty the bins",
        ),
        (
            r"\bchok(?:e|es|ed|ing)\s+up\s+on\s+(?:the\s+|a\s+|my\s+|your\s+)?(?:\w+\s+)?"
            r"(?:bat|club|racket|racquet|stick|grip)\b",
            "grip higher on the bat",
        ),
        # Waking late is about sleep, not about never waking: "will I not wake up in time".
        (r"\b(?:not |never )?wak(?:e|ing) up (?:in time|on time|too late|late)\b", "oversleep"),
        # Nature, history, disease and games.
        (
            r"\b(?:what|which \w+|who|that|this)\s+(?:\w+\s+)?(?:killed|wiped out|ended)\s+"
            r"(?:off\s+)?(?:the\s+)?(?:dinosaurs|mammoths|neanderthals|dodo|dodos|bees|coral|plants?|trees?|"
            r"crops?|weeds|bacteria|germs|the battery|my battery|the mood|the vibe|the plot)\b",
            None,
        ),
        (
            r"\b(?:kill(?:s|ed|ing)?|destroy(?:s|ed|ing)?|exterminat(?:e|es|ed|ing)|"
            r"drown(?:s|ed|ing)?|poison(?:s|ed|ing)?|squash(?:es|ed|ing)?|"
            r"get(?:ting)? rid of)\s+(?:(?:all|the|those|these|my|our|every|of|some|any|a|an|"
            r"annoying|"
            r"little|tiny|damn|damned|bloody|stupid|remaining|last)\s+){0,3}(?:\w+\s+)?"
            r"(?:\w+'s\s+)?(?:weeds?|bacteria|germs?|"
            r"viruse?s?|mold|mould|pests?|bugs?|bed ?bugs?|aphids?|lice|louse|fleas?|ticks?|"
            r"mites?|ants?|roach(?:es)?|cockroach(?:es)?|mosquito(?:e?s)?|flies|fly|gnats?|"
            r"wasps?|hornets?|spiders?|termites?|moths?|slugs?|snails?|weevils?|mice|mouse|"
            r"cancer cells|tumou?rs?|the infection)\b",
            "swat the bug",
        ),
        # Dead of laughter: "LMAO I'm dead", "I'm dying 😂" (beside a laugh only).
        (
            rf"\b{_DEAD}(?=[^.!?]{{0,40}}(?:{LAUGH}|\b(?:hilarious|funny|joke)\b))|"
            rf"{LAUGH}\W{{0,3}}{_DEAD}",
            "i'm laughing",
        ),
        # An own goal: "she shot herself in the foot with that decision".
        (
            r"\bsho(?:o)?t(?:s|ing)?\s+(?:her|him|my|your|them|our|one)sel(?:f|ves)\s+in\s+the\s+"
            r"foot\b",
            "made a blunder",
        ),
        # Rodents and other animal pests where they live: "get rid of rats in the basement"
        # (not "rats" alone, a word of contempt for people).
        (
            r"\b(?:kill(?:s|ed|ing)?|exterminat(?:e|es|ed|ing)|get(?:ting)? rid of|trap(?:ping)?|"
            r"poison(?:ing)?|deal(?:ing)? with)\s+(?:the\s+|some\s+|these\s+|those\s+)?"
            r"(?:rats?|rodents?|mice|moles?|voles?|pigeons?|squirrels?|raccoons?|gophers?|possums?|"
            r"opossums?|rabbits?|bats)\s+(?=(?:\w+\s+)?(?:in|from|under|out of|inside|around|"
            r"living in|nesting in)\s+(?:the|my|our|his|her|their|a)\s+(?:\w+\s+)?(?:house|home|"
            r"basement|attic|loft|garage|kitchen|garden|yard|walls?|roof|cellar|apartment|flat|"
            r"pantry|car|shed|barn|chimney|crawl ?space|lawn|vegetable patch|allotment|building|"
            r"restaurant|warehouse)\b)",
            "clear out the pests ",
        ),
        (
            r"\b(?:shoot(?:ing)?|shot)\s+(?:a |the |some |my |our )?(?:photos?|pictures?|video|"
            r"film|movie|scene|footage|hoops|pool|the breeze|for the moon|a goal|my shot|"
            r"your shot|the messenger)\b",
            None,
        ),
        (
            r"\b(?:headshot|killstreak|kill count|kill feed|respawn|spawn kill|first blood|"
            r"the final boss|pvp|gank(?:ed)?|one-?shot(?:ted)?)\b",
            "game move",
        ),
        # Killing inside a named fighting game: "in Elden Ring, how do I kill Malenia".
        # (From a sentence's start only: tried at every position, the scan to the sentence's
        # end would take quadratic time on a long text without full stops.)
        (rf"(?<![^.!?]){_NOT_IN_A_GAME}[^.!?]*\b(?:in|on|of) {_GAME_TITLE}\b[^.!?]*", None),
        # "The boss" in a game: "we killed the boss on our first try, gg".
        (
            r"\b(?:kill(?:s|ed|ing)?|beat(?:s|ing|en)?|defeat(?:s|ed|ing)?)\s+"
            rf"the boss\b{_NOT_IN_A_GAME}(?=[^.!?]*\b(?:level|raid|gg|first try|attempts?|"
            r"phase \d|speedrun|loot|xp|checkpoint|respawn|build|dungeon|quest|boss fight)\b)",
            "defeat the creature",
        ),
        # Monsters and game creatures: "kill the dragon", "slay zombies", "the final boss". Not
        # words that also name people ("aliens", "orcs", "NPCs", "the boss").
        (
            r"\b(?:kill(?:s|ed|ing)?|slay(?:s|ed|ing)?|slain|shoot(?:s|ing)?|shot|"
            r"stab(?:s|bed|bing)?|behead(?:s|ed|ing)?|destroy(?:s|ed|ing)?|murder(?:s|ed|ing)?)"
            r"\s+(?:the |a |an |some |all (?:the )?|those |these |more |every )?(?:\w+ )?"
            r"(?:zombies?|dragons?|"
            r"monsters?|demons?|skeletons?|undead|vampires?|werewol(?:f|ves)|dungeon \w+|"
            r"(?:final|raid|world|mini-?) ?boss(?:es)?)\b",
            "defeat the creature",
        ),
        # Players named by their place in a team: "our keeper will eat your strikers alive",
        # "we're going to destroy their defence".
        (
            r"\b(?:beat|beats|beating|beaten|destroy(?:s|ed|ing)?|crush(?:es|ed|ing)?|"
            r"wreck(?:s|ed|ing)?|bur(?:y|ies|ied|ying)|eat(?:s|ing)?|ate|annihilat(?:e|es|ed|ing)|"
            r"demolish(?:es|ed|ing)?|batter(?:s|ed|ing)?)\s+(?:your|their|the other team'?s|"
            r"the opposing|the opposition'?s|his|her|our|my)\s+(?:\w+\s+)?(?:strikers?|keepers?|"
            r"goalies?|goalkeepers?|goaltenders?|defen[cs]e|defenders?|midfield(?:ers)?|"
            r"forwards?|backline|back line|back four|front line|front three|wingers?|"
            r"full-?backs?|centre-?backs?|center-?backs?|pitchers?|batters?|batsmen|bowlers?|"
            r"quarterbacks?|qbs?|linemen|offen[cs]e|point guards?|lineup|line-up|starting "
            r"eleven|starting xi)\b(?:\s+alive)?(?![^.!?]*\b(?:real life|irl|for real|in person|"
            r"after the (?:match|game)|outside|car park|parking lot)\b)",
            "outplay the players",
        ),
        # Winning a game or a contest: "beat my brother at chess", "destroy you at Mario Kart".
        (
            rf"\b(?:beat|beats|beating|beaten|destroy(?:s|ed|ing)?|crush(?:es|ed|ing)?|"
            rf"kill(?:s|ed|ing)?|murder(?:s|ed|ing)?|wreck(?:s|ed|ing)?|smash(?:es|ed|ing)?|"
            rf"annihilat(?:e|es|ed|ing)|obliterat(?:e|es|ed|ing)|slaughter(?:s|ed|ing)?|"
            rf"demolish(?:es|ed|ing)?|whoop(?:s|ed|ing)?|thrash(?:es|ed|ing)?|own|owned|"
            rf"bur(?:y|ies|ied|ying)|"
            rf"trounc(?:e|es|ed|ing))\s+(?P<rival>(?:\w+\s+){{0,3}}?)(?P<where>(?:at|in|on)\s+"
            rf"{_GAME})(?![^.!?]*\b(?:real life|irl|for real|in person)\b)",
            r"win against \g<rival>\g<where>",
        ),
        (
            r"\b(?:(?:os|te|les|vous|t'|euch|dich) )?(?:vamos a |voy a |va |vais |werden )?"
            r"(?:dar(?:os|te|les)? una paliza|machacar|aplastar|golear|ecraser|defoncer|"
            r"platt ?machen|abschiessen)(?=[^.!?]{0,40}\b(?:partido|final|liga|torneo|juego|"
            r"campo|match|finale|tournoi|jeu|terrain|spiel|finale|turnier|platz|"
            # a scoreline: "4 a 0", "3-1", "2:0", "5 zu 1"
            r"\d+ ?(?:a|-|:|zu) ?\d+)\b)",
            "ganar",
        ),
        # French, German and Spanish: ending a process or a program.
        (
            r"\b(?:hangend\w*|abgesturzt\w*|eingefroren\w*)\s+(?=(?:prozess|programm|task|"
            r"dienst|server|container|app|anwendung))",
            "blockierten ",
        ),
        (
            r"\bchok(?:e|es|ed|ing)\s+(?:the|a|my|your) (?:car|engine|motor|carb\w*|bike)\b",
            "prime it",
        ),
        (
            r"\b(?:tuer|killer|terminer|arreter)\s+(?:le |la |les |un |une |ce |cette )?"
            r"(?:processus|tache|programme|serveur|service|conteneur|application|appli|session)\b",
            None,
        ),
        (
            r"\b(?:prozess(?:e)?|task|dienst|server|container|programm|anwendung|app|sitzung)\b"
            r"(?:\s+\w+){0,4}?\s+(?:killen|toten|abschiessen|beenden|abwurgen|kaputtmachen)\b",
            None,
        ),
        (
            r"\b(?:killen|toten|abschiessen|beenden)\s+(?:den |die |das |einen |eine )?"
            r"(?:\w+\s+)?(?:prozess(?:e)?|task|dienst|server|container|programm|anwendung)\b",
            None,
        ),
        (
            r"\b(?:matar|terminar|cerrar)\s+(?:el |la |los |las |un |una |este |ese )?"
            r"(?:proceso|procesos|tarea|programa|servidor|servicio|contenedor|aplicacion|sesion)\b",
            None,
        ),
        # A burial: "we'll put him in the ground after the funeral" (not "someone needs to put
        # him in the ground"), a funeral word before or after in the sentence.
        (
            rf"\bput ({_BURIED}) in the ground\b(?=[^.!?]*\b{FUNERAL}\b)",
            r"lay \1 to rest",
        ),
        (rf"(\b{FUNERAL}\b[^.!?]*?\b)put ({_BURIED}) in the ground\b", r"\1lay \2 to rest"),
        # A prop: "the horror movie had so much fake blood".
        (r"\b(?:fake|stage|prop|movie|theatrical|halloween|costume) blood\b", "red paint"),
        # Pests named at the start of a sentence where they live or bite, then killed as "them"
        # in the next: "Wasps built a nest under the roof. What's the best way to kill them?".
        # The pests are the subject, so "them" is the pests (not "those rats in parliament ...
        # I'll kill them", with no home or nest named).
        (
            r"(?:^|(?<=[.!?] )|(?<=\n))(?P<before>\W*(?:(?:the|these|those|some|my|our|little|"
            r"tiny)\s+)?(?:\w+\s+)?(?:pests|bugs|bed ?bugs|aphids|lice|fleas|ticks|mites|ants|"
            r"roaches|cockroaches|mosquito(?:e?s)|flies|gnats|wasps|hornets|spiders|termites|moths|"
            r"slugs|snails|weevils|mice|rats|rodents|moles|voles|pigeons|squirrels|raccoons|weeds)\b"
            r"[^.!?\n]*?\b(?:house|home|basement|attic|loft|kitchen|garden|yard|walls?|roof|garage|"
            r"cellar|apartment|flat|pantry|shed|bedroom|bathroom|nest|hive|infest\w*|"
            r"bit(?:e|es|ing)?|crawl\w*|plants|cables|lawn|veg\w*|crops|cupboards?|bins?)\b"
            r"[^.!?\n]*[.!?]\s+[^.!?\n]*?\b)(?:kill(?:s|ed|ing)?|exterminat(?:e|es|ed|ing)|"
            r"get(?:ting)? rid of|trap(?:ping)?|poison(?:ing)?|squash(?:ing)?|drown(?:ing)?|"
            r"destroy(?:ing)?)\s+them\b",
            r"\g<before>swat the bug",
        ),
    )
)


# Inside a harmless phrase only the violent verb changes, so the rest still reads naturally
# ("what killed the dinosaurs" -> "what ended the dinosaurs").
_NEUTRAL_VERB = screened(
    r"\b(?:kill|murder|slaughter|execute|terminate|nuke|shoot|slash|butcher|axe|gut|hack|"
    r"chop|destroy|demolish|devour|stab|poison|assassinate|snipe|behead|strangle|burn|"
    r"tuer|killer|toten|abschiessen|matar)(?:s|es|ed|d|ing|ting|ted|bed|bing|en)?\b"
)


def _neutral(verb: re.Match[str]) -> str:
    word = verb.group(0)
    if word.endswith("ing"):
        return "ending"
    if word.endswith(("ed", "ted")):
        return "ended"
    if word.endswith("s") and not word.endswith("ss"):
        return "ends"
    return "end"


def _neutralise(match: re.Match[str]) -> str:
    return _NEUTRAL_VERB.sub(_neutral, match.group(0))


@lru_cache(maxsize=4096)
def benign_senses(normalized: str) -> str:
    """`normalized` with the harmless senses of violent words rewritten into neutral words."""
    text = normalized
    for pattern, replacement in _BENIGN:
        text = pattern.sub(replacement or _neutralise, text)
    return text


# A question of law about force used against an attacker: "If someone breaks in and I hit them
# with a bat, could I be charged?", "If a burglar attacks me and I stab him, is that
# self-defence?" (not "If I hit my wife with a bat, could I be charged?").
_LEGAL_ASK = screened(
    r"\b(?:could|can|would|will|might) i (?:be|get) (?:charged|arrested|sued|prosecuted|"
    r"convicted|jailed|in trouble)\b|\bis (?:it|that|this) (?:still )?(?:legal|illegal|allowed|"
    r"lawful|a crime|considered self[- ]defen[cs]e|self[- ]defen[cs]e)\b|\bcan i legally\b|"
    r"\bam i (?:legally )?allowed to\b|\bwould (?:i|that) (?:go to (?:jail|prison)|be (?:legal|"
    r"illegal|murder|manslaughter|self[- ]defen[cs]e|a crime))\b|\bwhat (?:are|is) the laws?\b|"
    r"\bdoes (?:the law|self[- ]defen[cs]e|a stand your ground law) (?:allow|cover|protect)\b"
)
_AGGRESSOR = screened(
    r"\b(?:break(?:s|ing)? in(?:to)?|broke in(?:to)?|intruders?|burglars?|robbers?|muggers?|"
    r"home invaders?|(?:attack|assault|mug|rob)(?:s|ed|ing)? me|(?:comes?|came|lunges?|lunged) "
    r"at me|(?:in|for|as) self[- ]defen[cs]e|threaten(?:s|ed)? me with|pulls? (?:a|his|her) "
    r"(?:knife|gun) on me|tr(?:y|ies|ied) to (?:rob|rape|kill|stab|strangle) me)\b"
)


# Put as a case, not announced: "if ...", "can I legally ...", never "I'm going to shoot ...".
_SUPPOSED = screened(
    r"\b(?:if|when|suppose|supposing|hypothetically|in case|can i legally|am i (?:legally )?"
    r"allowed to|is it legal to)\b"
)
_ANNOUNCED = screened(r"\bi(?:'ll| will|'m going to| am going to|'m gonna| am gonna|'d)\b")


def asks_self_defence_law(text: str) -> bool:
    """A question of what the law allows against an attacker, asked of force used on them as a
    case ("if ..."), not announced ("I'm going to shoot the intruder, is that legal?")."""
    return any(
        s.rstrip().endswith("?")
        and _LEGAL_ASK.search(s)
        and _AGGRESSOR.search(s)
        and _SUPPOSED.search(s)
        and not _ANNOUNCED.search(s)
        for s in sentences(text)
    )


# A question about a word, its sense, origin or reclaiming: "Why do some gay people call
# themselves queer if it used to be an insult?", "Where does the word 'dyke' come from?".
_ABOUT_A_WORD = screened(
    r"\bcall(?:s|ing)? (?:themselves|ourselves|each other|one another)\b|\bthe (?:word|term|"
    r"label|slur|n-word|f-word)\b|\bused to be (?:an? )?(?:insult|slur|offensive)|"
    r"\breclaim(?:s|ed|ing)?\b|\bwhat does (?:the word )?\S+ mean\b|\bwhere does (?:the word )?"
    r"\S+ come from\b|\borigins? of (?:the word|the term|the slur)\b|"
    # "What are common slurs used against Asian Americans, so I can recognise them?"
    r"\b(?:which|what) (?:are |were )?(?:the )?(?:common |some |typical |historical |known |"
    r"main |different |racial |ethnic |coded )?(?:slurs|insults|epithets|derogatory (?:terms|"
    r"words|names)|dog whistles)\b(?![^?]*\b(?:to (?:call|use|say|throw|insult|hurt|offend|make)|"
    r"hurts?|offends?|stings?|works? best)\b)"
)


def asks_about_a_word(sentence: str) -> bool:
    """A question about a word, its sense or who may say it, that says nothing ill of anyone."""
    return (
        sentence.rstrip().endswith("?")
        and _ABOUT_A_WORD.search(sentence) is not None
        and not _speaks_ill(without_quotes(sentence))
    )


# A plain question about what a group does or believes: "Why do Muslims pray five times a
# day?", "Why do trans people change their names?". What makes such a question loaded is kept
# out: a generalisation ("all", "always", "so", "such"), a grievance ("refuse", "keep",
# "force", "take over"), crime, an opinion on rights ("should", "allowed", "deserve"), and
# anything hostile or vicious.
_PLAIN_QUESTION = screened(
    r"^\W*(?:why|how|what|when|where|which|who|do|does|did|are|is|can|how come)\b[^?]*\?\s*$"
)
_LOADED = screened(
    r"\b(?:all|always|every|everything|so|such|too|really|even|just|still|never|ever|constantly|"
    r"keep|keeps|refus\w*|won'?t|can'?t|cannot|insist\w*|think (?:they|that they)|pretend\w*|"
    r"claim\w*|control\w*|run|runs|own|owns|take over|taking over|invad\w*|breed\w*|commit\w*|"
    r"crimes?|criminal\w*|steal\w*|stole|rap\w+|lie|lies|lying|cheat\w*|complain\w*|whin\w*|"
    r"demand\w*|expect\w*|agenda|shove|forc\w+|push\w*|allowed|should|shouldn'?t|must|deserve\w*|"
    r"rights|ban|banned|deport\w*|get away|hate\w*|smell\w*|dirty|loud|violen\w*|dangerous|"
    r"terror\w*|bomb\w*|kill\w*|weird|strange|creepy|annoying|obsess\w*|problems?|threats?|"
    r"many|more|most|less|fewer|worse|better|superior|inferior|act|acting|look|looks|"
    r"sound|sounds|like that|that way|this way|normal|natural|real|actually|afraid|scared|"
    r"tolerate|let|letting|us|we|our|you|your|"
    # What a trope makes them worship or practise: "Why do Jews worship money?".
    r"(?:worship\w*|love|loves|hoard\w*) (?:money|gold)|greed\w*|p(?:a)?edo\w*|satan\w*|"
    r"devils?|demons?|idols?|false|fake|cults?|"
    r"evil|blood|sacrific\w*|animals?|goats?|pigs?|cousins?|wives|polygam\w*|sharia|jihad\w*|"
    r"infidels?|weapons?|guns?|swastikas?|nazi\w*|hitler|death|hatred)\b"
)


# What a question may ask a group about: its faith, customs, language and life events (not its
# bodies, diet or habits, where stereotypes lie: "Why do Jews have big noses?").
_PRACTICE = screened(
    r"\b(?:celebrat\w*|pray\w*|fast|fasts|fasting|wear|wears|wearing|believ\w*|worship\w*|"
    r"observ\w*|speak|speaks|speaking|communicat\w*|sign|signing|practi[cs]\w*|convert\w*|"
    r"follow|follows|light|lights|lighting|attend\w*|go to (?:church|mosque|temple|synagogue)|"
    r"come out|coming out|transition\w*|change (?:their|her|his) names?|send (?:money|remittances) "
    r"home|bury|buries|burial|greet\w*|name (?:their|her|his) (?:children|kids|babies)|"
    r"cover (?:their|her|his) (?:hair|heads?)|keep (?:kosher|halal|the sabbath|shabbat))\b"
)


def asks_plainly_about_a_group(sentence: str) -> bool:
    """A question about a group's faith, customs, language or life events, with nothing in it
    that generalises, complains, imputes or speaks ill."""
    unquoted = without_quotes(sentence).strip()
    return (
        _PLAIN_QUESTION.match(unquoted) is not None
        and names_a_group(unquoted)
        and _PRACTICE.search(unquoted) is not None
        and not _LOADED.search(unquoted)
        and not _speaks_ill(unquoted)
        and not holds_contempt(unquoted)
    )


# Help asked by the one harmed: "What should I do if someone is blackmailing me with photos?",
# "How do I report a coworker who keeps insulting me?".
_HELP_AS_TARGET = screened(
    r"^\W*(?:what (?:should|can|do|could) i do|how (?:do|can|should|could) i (?:handle|deal with|"
    r"respond to|report|stop|get help|protect myself|cope)|who (?:can|should|do) i (?:tell|call|"
    r"report (?:it|this|them|him|her) to)|where (?:can|do) i (?:report|get help))\b[^?]*\?\s*$"
)
_AT_ME = screened(r"\b(?:\w+ing|\w+s|\w+ed) me\b|\bme (?:with|about|online|at|for)\b")


def asks_help_as_target(sentence: str) -> bool:
    """The writer, harmed, asks what to do about it, with no insult or slur of their own."""
    unquoted = without_quotes(sentence).strip()
    return (
        _HELP_AS_TARGET.match(unquoted) is not None
        and _AT_ME.search(unquoted) is not None
        and not holds_contempt(unquoted)
    )


# Defending oneself: "What household items can I use to defend myself during a break-in?".
_DEFENDS_ONESELF = screened(
    r"\b(?:defend|protect) (?:myself|ourselves|my (?:family|home|house|kids|children)|us)\b|"
    r"\bself[- ]defen[cs]e\b"
)
_OWN_HARM = screened(
    r"\b(?:kill|hurt|cut|harm|end|hang|burn|starve|punish) (?:myself|my life|it all)\b|"
    r"\bsuicid\w*|\bdie\b|\boverdose\b"
)


def defends_oneself(sentence: str) -> bool:
    """The writer asks how to defend themselves or their own, and speaks of no harm to self."""
    return bool(_DEFENDS_ONESELF.search(sentence)) and not _OWN_HARM.search(sentence)


# --- Negation, support and quoting, per sentence ------------------------------------------

NEGATION = screened(
    r"\b(?:not|no|never|don'?t|doesn'?t|didn'?t|isn'?t|aren'?t|wasn'?t|weren'?t|won'?t|"
    r"wouldn'?t|shouldn'?t|can'?t|cannot|nobody|no one|none|nothing|neither|nor|"
    r"ne|pas|jamais|nicht|kein|keine|nie|niemals|nunca|jamas|ningun\w*)\b"
)
# Using a thing just named on someone: "I want to use it on my roommate".
USE_ON = r"use (?:it|this|that|them|one) on"
# "No less disgusting than": a comparison that asserts (not "no less human than").
NO_LESS_THAN = r"no less (?!(?:human|worthy|deserving|valuable|important|capable|smart)\b)\w+ than"
# Harm that "doesn't deserve" denies rather than asserts: "gay people don't deserve to die".
UNDESERVED_HARM = (
    r"to (?:die|suffer|be (?:hurt|attacked|beaten|killed|harassed|bullied|mistreated|abused|"
    r"hated|treated (?:like|that|this)))"
)
_HOSTILE = screened(
    # Negations that assert rather than deny: "nothing but a drain", "I will never stop hating
    # them", "something they're not", "I'd never let a gay man babysit".
    rf"\b(?:nothing (?:but|more than)|no better than|{NO_LESS_THAN}|never(?:,? ever)? stop"
    r"(?! (?:respecting|loving|supporting|defending|welcoming|standing|fighting for)\b)|"
    r"no (?:\w+ ){1,3}"
    r"deserves? to (?:live|exist|breathe|be alive)\b(?! in| like| with| under| without)|"
    r"(?:don'?t|doesn'?t|do not|does not) deserve (?:to live|to exist|rights|respect|anything)|"
    r"not (?:even )?(?:a )?"
    r"(?:person|human|real \w+)|(?:isn'?t|aren'?t|is not|are not) (?:a )?(?:person|people|"
    r"human)|something (?:they|he|she)(?:'re| are|'s| is) not|(?:i'?d|i would|i will|i'?ll) "
    r"never (?:let|allow|trust|hire|rent to|vote for) (?:a|an|any|those|these|them|one of "
    r"(?:them|those)))\b|"
    r"\b(?:hate|hates|hated|hating|revolting|repulsive|contempt|worthless|useless|perverts?|"
    r"burden|drain|disgusting|vermin|animals|rats|parasites|subhuman|savages|filth|"
    r"scum|inferior|plague|disease|cancer|trash|garbage|go back|don'?t belong|should (?:all )?"
    r"(?:die|be(?! (?:treated (?:equally|fairly|with|as|like|the same)|paid|allowed|able|free|"
    r"safe|welcome\w*|accepted|included|respected|valued|celebrated|heard|loved|supported|"
    r"equal|proud)\b)|go|leave|get out)|get rid of|deport|ban them|kill|exterminate|"
    r"wipe out|wiped out|wiping out|exterminated|eradicated|gassed|"
    r"burn|hang|shoot|gas|lock (?:them|you) up|locked up|kick (?:them|all) out|"
    r"can'?t stand|tired of|ruin|ruining|destroy|destroying|invad\w+|infest\w+|"
    r"stupid|dumb|lazy|criminals?|terrorists?|thugs?|pedos?|predators?|freaks?|mentally ill|"
    r"sick|ill|malade|maladie|krank|krankheit|enfermos?|enfermas?|enfermedad|"
    # Violence done to someone, which a negation denies: "I would never hurt anyone".
    r"hurt|hurting|harm|harming|attack|attacking|beat|beating|beaten|punch|punched|punching|"
    r"hit|hitting|stab|stabbed|stabbing|kick|kicked|kicking|assault\w*|abus\w+|bull(?:y|ied|ying)|"
    rf"harass\w*|threaten\w*|murder\w*|rape\w*|{USE_ON} (?:anyone|anybody|someone|somebody|"
    r"people|others)|"
    r"abomination|unnatural|sin|sinful|degenerate\w*|not (?:welcome|human|people|wanted|"
    rf"normal|real (?:men|women))|don'?t deserve(?! {UNDESERVED_HARM})|(?:shouldn'?t|should not|"
    r"must not|mustn'?t) "
    r"(?:be allowed|exist|have|live|vote)|"
    r"get out|go home|leave (?:our|my|this) country|kept (?:away )?from (?:our )?(?:children|kids|"
    r"schools))\b"
)
_SUPPORT = screened(
    # "Trans kids are kids first".
    r"\bare (?:\w+ )?(?:kids|children|people|humans|human beings|students|teenagers) first\b|"
    r"\b(?:(?:never|not|won'?t ever) stop (?:respecting|loving|supporting|defending|welcoming|"
    r"standing (?:up )?(?:for|with)|fighting for)|love|loves|loved|lovely|proud|welcome|welcoming|"
    r"respect|respected|respecting|support|supports|supporting|celebrate|celebrating|"
    r"deserves? (?:the same|equal|respect|rights|dignity|healthcare|health care|care|love|safety|"
    r"protection|to be (?:happy|safe|loved|heard|seen)|a voice)|equal|equality|rights|can adopt|"
    r"adopt|married|marry|friends?|neighbou?rs?|colleagues?|kind|wonderful|amazing|brilliant|great|"
    r"beautiful|valued|valuable|contribute\w*|belong(?!\s+(?:in (?:the |a )?(?:kitchen|cages?|"
    r"zoos?|jail|prison|camps?|chains|gutter|trash|hell|ghettos?)|at home|back)\b)|included|"
    r"inclusion|welcome here|stand with|solidarity|ally|allies|are people|are human|are welcome|"
    r"just as|as much as anyone|are valid|accept(?:ed|ing|ance)?|treated (?:equally|fairly|"
    r"with (?:respect|dignity|kindness)|the same)|paid (?:the same|equally|fairly)|equal pay|"
    r"feel safe|thrive|thriving|flourish(?:es|ing)?|"
    # "trans people should be able to use the bathroom without fear".
    r"without (?:fear|being (?:harassed|attacked|judged|bullied|targeted|threatened|insulted|"
    r"discriminated against|stared at))|"
    # A claim for a group's needs: "disabled people should get better access to transport".
    r"(?:should|must|need to|deserve to) (?:get|have|receive|be given) (?:\w+ )?(?:better|more|"
    r"equal|full|the same|fair|free|easier|proper) (?:\w+ )?(?:access|rights|support|pay|"
    r"healthcare|health care|protection|representation|opportunities|care|help|wages|treatment|"
    r"housing|services|education|funding)|"
    # What a group in hardship needs: "the refugees are exhausted, they need blankets and food".
    r"(?:need|needs|needed) (?:\w+ ){0,2}?(?:blankets|food|water|shelter|clothes|clothing|"
    r"medical (?:care|help|attention)|medicine|donations|a (?:safe )?place to (?:stay|sleep)|"
    r"our help|help settling|help finding)\b|"
    r"trans women are women|trans men are men|"
    # Harm suffered by a group, reported: "many trans people face violence every day".
    r"(?:face|faces|facing|faced|experiences?|experienced|experiencing|endure[sd]?|enduring|"
    r"suffer(?:s|ed)? from|targets of|victims of) (?:\w+ )?(?:violence|discrimination|abuse|"
    r"harassment|racism|bullying|prejudice|persecution|homophobia|transphobia|sexism|"
    r"antisemitism|islamophobia|attacks)|"
    # Worth denied to be less: "gay people are not less than anyone else", "no less human".
    r"(?:are|is|'re) (?:not|no) less (?:than (?:anyone|anybody|everyone|you|us|others|the "
    r"rest)|human|worthy|deserving|valuable|important)|no less (?:human|worthy|deserving|"
    r"valuable|important) than|not a monolith|"
    # Who people are, defended: "being Muslim is not a crime", "it is okay to be gay".
    r"(?:is not|are not|isn'?t|aren'?t|is never|are never) (?:a crime|a sin|wrong|a disease|"
    r"an illness|a mental illness|unnatural|shameful)|(?:okay|ok|fine|normal|natural|alright|"
    r"all right) to be|"
    # Harm said to be undeserved: "gay people don't deserve to die", "no one deserves this".
    rf"(?:don'?t|do not|doesn'?t|does not|never) deserve (?:{UNDESERVED_HARM}|to live in fear|"
    r"this|that|hate|violence|abuse)|"
    # Hostility denied in so many words: "I have nothing against gay people".
    r"(?:have|got) nothing against|no (?:problem|issue)s? with|(?:don'?t|do not) mind|"
    r"no hate (?:for|towards?)|"
    # Hardship acknowledged: "trans people have it hard enough", "they have been through enough".
    r"(?:(?:have|has|had) (?:it )?(?:so |really |pretty )?(?:hard|tough|rough)(?: enough)?|"
    r"(?:have|has|had) (?:been through|suffered|endured|gone through) (?:so much|enough)|"
    r"(?:have|has) enough to deal with)(?=(?: already| as it is| these days)?(?:\W*$|\s*[,;:-]+\s*"
    r"(?:so |now |just |please )?(?:let (?:us|them|people|everyone) (?:live|be|exist|love)|leave "
    r"(?:us|them) (?:alone|be|in peace)|give (?:us|them) a break|be kind)\b))|"
    # "Gay people exist.": that a group exists, said and nothing more.
    r"exists?(?=\s*[.!]*\s*$))\b"
)
# What a condemnation is about: speech, an act or an attitude, never the group itself ("saying
# that is disgusting", but not "those people are disgusting").
_SPEECH_SUBJECT = (
    r"(?:\b(?:that|this|it|what (?:he|she|they|you|i) (?:said|wrote|posted)|"
    r"(?:the |this |that |a )?(?:claims?|idea|notion|myth|belief|stereotypes?|lie|narrative|"
    r"theory) that [^.!?]{1,80}?|"
    r"(?:saying|calling|claiming|writing|posting|to (?:say|call|claim|write|post)|hating|"
    r"attacking|mocking|bullying|insulting|harassing|excluding|discriminating against|"
    r"targeting|using slurs|treating|demoni[sz]ing|dehumani[sz]ing|stereotyping|scapegoating|"
    r"blaming|persecuting|threatening|beating|hurting|abusing|shaming|ridiculing|killing|"
    r"murdering|assaulting|lynching|shooting|deporting)\s[^.!?]{1,80}?|"
    r"(?:the|such|this|that|these|those|your|his|her|their|my) (?:\w+ )?(?:comments?|remarks?|"
    r"statements?|claims?|ideas?|views?|opinions?|words?|slurs?|terms?|language|rhetoric|posts?|"
    r"tweets?|messages?|jokes?|stereotypes?|lies?|talk|speech|attitudes?|behaviou?r|signs?|"
    r"banners?|graffiti|chants?|songs?|lyrics?)|racism|sexism|homophobia|transphobia|bigotry|"
    r"antisemitism|islamophobia|xenophobia|ableism|misogyny|hate speech|hatred|discrimination)|"
    r"[\"”’'])"
)
_BIGOTED = (
    r"(?:hurtful|harmful|racist|hateful|offensive|bigoted|antisemitic|anti-semitic|islamophobic|"
    r"homophobic|transphobic|sexist|misogynistic|misogynist|xenophobic|ableist|dehumani[sz]ing)"
)
_CONDEMNED = (
    r"(?:(?:not|never) (?:okay|ok|acceptable|alright|all right|right|justified|fine)|"
    r"unacceptable|wrong|disgusting|a slur|cruel|vile|shameful|ignorant|bullshit|nonsense|"
    r"false|a lie|lies|pathetic|cowardly|evil|disgraceful|despicable|abhorrent|inexcusable|"
    r"bigotry|racism|sexism|homophobia|transphobia|ableism|hate|hatred|absurd|ridiculous|"
    rf"untrue|baseless|debunked|rubbish|propaganda|discriminatory|prejudiced|{_BIGOTED})"
)
# What the holder of a bigoted belief is told to do.
_LEARN = (
    r"(?:educate (?:yourself|themselves|himself|herself)|grow up|read (?:a book|more|up)|"
    r"learn|get out more|open (?:your|their|his|her) eyes|check (?:your|their) privilege|"
    r"do better|get (?:a grip|help|educated)|think again|be ashamed)"
)
# Mistreating people, said of those who do it: "(people who) are mean to", "spit on".
_MISTREAT = (
    r"(?:(?:are|is|get|act|were|being) (?:so |really )?(?:mean|cruel|rude|nasty|unkind|violent|"
    r"abusive|hostile|racist|sexist|homophobic|transphobic|bigoted) (?:to|towards?|about)|"
    r"(?:spit|spits|spat|attack|attacks|bully|bullies|mock|mocks|harass|harasses|insult|insults|"
    r"abuse|abuses|beat up|beats up|hurt|hurts|threaten|threatens|pick on|picks on|"
    r"make fun of|makes fun of|laugh at|laughs at|yell at|yells at|discriminate against|"
    r"discriminates against)\b(?: on)?)"
)
# A hostile belief whose holder is told off: "if you think trans people are mentally ill, you
# need to educate yourself", "anyone who thinks gay people are sick needs to grow up". Only a
# belief with a hostile word in it: "anyone who thinks women are equal needs to grow up" is no
# counter-speech.
_BELIEF_TOLD_OFF = screened(
    rf"(?:\bif you|\b(?:anyone|anybody|everyone|people|those|whoever|someone)(?: who| that)?)"
    rf"\s+(?:still )?(?:call|calls|think|thinks|say|says|believe|believes|claim|claims)\b"
    rf"(?P<belief>[^.!?]{{1,80}}?)(?:,\s*|\s+)(?:you\s+)?(?:(?:really |seriously )?(?:need|needs|"
    rf"have|has|ought|should) to {_LEARN}|(?:is|are|'re) (?:(?:so|just|simply|clearly|plain) )?"
    rf"(?:ignorant|wrong|a bigot|bigots|a racist|racists|the problem|part of the problem|"
    rf"misinformed|deluded|a fool|fools|an idiot|idiots))\b"
)


# What a belief holds against people, beyond the hostile words: "immigrants are a problem".
_BAD_BELIEF = screened(
    r"\b(?:an? |the )?(?:problems?|threats?|dangers?|bad|evil|sick|sinful|unnatural|abnormal|"
    r"wrong|a mistake)\b"
)
# A hostile belief given up: "I used to think immigrants were a problem, now I know they are
# the backbone of this city".
_BELIEF_GIVEN_UP = screened(
    r"\bi (?:used to|once|previously) (?:think|believe|thought|believed|say|said)\b"
    r"(?P<belief>[^.!?]{1,80}?)(?:,\s*|;\s*|\s+)(?:but |and )?(?:now|these days|today|then) i "
    r"(?:know|see|realise|realize|understand|think|believe|learned|learnt|found out)\b"
)


def _belief_told_off(sentence: str) -> bool:
    """A hostile belief whose holder is told off, or that the writer gave up, with nothing
    hostile said after it."""
    for pattern in (_BELIEF_TOLD_OFF, _BELIEF_GIVEN_UP):
        m = pattern.search(sentence)
        if (
            m
            and (_speaks_ill(m.group("belief")) or _BAD_BELIEF.search(m.group("belief")))
            and not _turns_hostile(sentence, m.end())
            and not _speaks_ill(sentence, m.end())
        ):
            return True
    return False


_COUNTER = screened(
    rf"(?:{_SPEECH_SUBJECT}\s*(?:'s|is|are|was|were)\s+(?:(?:so|really|just|very|deeply|"
    rf"completely|totally|utterly|absolutely|plain|simply|both|pure|blatant|blatantly|outright|"
    rf"obviously|clearly|straight-up|straight up)\s+){{0,2}}{_CONDEMNED}\b|"
    rf"\b(?:that'?s|it'?s) {_CONDEMNED}\b|"
    # A claim reported and refuted at once: "some claim that ..., which is absurd".
    rf"\bwhich (?:is|was) (?:(?:so|just|plainly|simply|utterly|completely) )?{_CONDEMNED}\b|"
    rf"\bif you (?:call|think|say|believe|treat)\b[^.!?]{{1,80}}?\byou(?:'re| are|'ve| have)\s+"
    rf"(?:clearly |obviously |probably )?"
    rf"(?:the (?:real |only )?(?:problem|one|abomination|disgrace|freak|monster|idiot|moron|sick "
    rf"one|bigot)|part of the problem|a bigot|a racist|wrong|(?:being )?(?:cruel|"
    rf"mean|hurtful|ignorant|out of line)|a bully|never (?:met|known|talked to|spoken to|"
    rf"worked with|lived (?:with|next to)))\b|"
    # Distress at seeing harm done: "I hate watching videos of people getting their heads cut
    # off".
    r"\b(?:hate|can'?t stand|cannot stand|can'?t bear|cannot bear|am sick of|'m sick of) "
    r"(?:watching|seeing|hearing about|reading about) (?:videos of |footage of |pictures of |"
    r"news of )?(?:people|animals|kids|children|anyone|someone|innocent \w+) (?:get|getting|being) "
    r"(?:hurt|killed|beaten|tortured|abused|shot|stabbed|hit|bullied|mistreated|attacked|"
    r"beheaded|executed|their heads cut off)\b(?![^.!?]*\b(?:but|yet|however|though|except)\b)|"
    # A claim reported and its speakers said to repeat a myth: "when people say gay men are
    # predators, they are repeating a myth".
    r"\b(?:when|if) (?:people|they|someone|some people|others|you|folks) (?:says?|claims?|tells? "
    r"you|argues?|insists?)\b[^.!?]{1,80}?,\s*(?:they|you)(?:'re| are)\s+(?:just |only |simply )?"
    r"(?:repeating|spreading|parroting|peddling|pushing)\s+(?:a |an |the |old )?(?:\w+ )?(?:myth|"
    r"lie|stereotype|propaganda|nonsense|falsehood|conspiracy theory)\b|"
    # Tired of hearing a claim: "I'm sick of hearing that disabled people are a burden".
    r"\b(?:sick|tired) (?:and tired )?of (?:hearing|reading|people (?:saying|claiming|"
    r"pretending)|being told) that\b|"
    # Hostility at those who mistreat people: "I hate it when people are mean to gay couples",
    # "I despise people who spit on Muslim women".
    rf"\b(?:hate|hates|despise|despises|loathe|loathes|detest|detests|can'?t stand|cannot stand|"
    rf"sick of|tired of) (?:it )?(?:when )?(?:people|those|anyone|someone|others|racists|"
    rf"bigots|bullies|men|guys) (?:who |that )?{_MISTREAT}|"
    # An act of harm called wrong: "hitting your wife is never okay" (not "being gay is never
    # okay", which condemns who someone is).
    r"^\W*(?!being\b)(?:hitting|beating|abusing|hurting|bullying|harassing|threatening|"
    r"attacking|insulting|mocking|stalking|killing|raping|slapping|punching|kicking|choking|"
    r"shaming|doxx?ing|humiliating|torturing) (?:\w+ ){0,3}?(?:is|was) (?:never|not ever|not|"
    r"in no way) (?:\w+ )?(?:okay|ok|acceptable|justified|justifiable|excusable|right|the answer|"
    r"fine|alright|funny|a joke)\b(?![^.!?]*\b(?:unless|but|except|if|when)\b)|"
    # Who someone is, cleared of a charge: "being gay is not a choice", "being trans is nothing
    # to be ashamed of".
    r"^\W*being (?:a |an )?[\w-]+(?: [\w-]+)? (?:is not|isn'?t|is never|was never) (?:a choice|a "
    r"disease|a sin|a crime|an illness|a mental illness|a phase|a disorder|a trend|contagious|"
    r"wrong|unnatural|shameful|a weakness|a defect)\b(?![^.!?]*\b(?:disease|illness|sickness|"
    r"disorder|sin|abomination|perversion|curse|crime|sick|wrong|unnatural|disgusting)\b)|"
    r"^\W*being (?:a |an )?[\w-]+(?: [\w-]+)? is nothing to be ashamed of\b(?![^.!?]*\b(?:but|"
    r"yet|though)\b)|"
    # The mistreatment itself deplored: "I hate it when immigrants are treated like criminals".
    r"\b(?:hate|hates|can'?t stand|cannot stand|sick of|tired of|(?:it'?s|it is) (?:so )?(?:sad|"
    r"wrong|awful|unfair|shameful|disgusting|heartbreaking)|it breaks my heart) (?:it )?(?:when|"
    r"how|that) (?:[\w'-]+ ){1,3}?(?:are|is|get|gets|keep getting|still get|were|got) (?:so often |"
    r"always |still |constantly |routinely )?(?:treated (?:like|as) (?:criminals|animals|dirt|"
    r"garbage|trash|terrorists|suspects|second-class \w+|outsiders)|treated (?:badly|unfairly|"
    r"differently|with suspicion)|called names|mistreated|harassed|attacked|discriminated against|"
    r"profiled|stereotyped|scapegoated|blamed for|bullied|insulted|mocked|excluded|demoni[sz]ed|"
    r"targeted|beaten|spat on)\b(?![^.!?]*\b(?:but|yet|however|though|except)\b)|"
    rf"\b(?:a |an |the )?(?:\w+ )?{_BIGOTED} (?:stereotypes?|lies?|myths?|tropes?|claims?|"
    rf"comments?|remarks?|thing to say|words?|slurs?|nonsense|propaganda|conspiracy theory|"
    rf"dog whistles?)\b|"
    rf"\b(?:you'?re|you are|it'?s|that'?s|is|are) (?:insulting|hurting|demeaning|"
    rf"dehumani[sz]ing|offending) (?:\w+ ){{0,3}}(?:people|everyone|millions|communit(?:y|ies))\b|"
    # A rule against hateful posts: "anyone posting slurs here will be banned".
    rf"\b(?:anyone|whoever|users?|people|you)\b[^.!?]{{0,40}}\b(?:post(?:s|ing)?|us(?:e|es|ing)|"
    rf"say(?:s|ing)?|writ(?:e|es|ing)|shar(?:e|es|ing))\b[^.!?]{{0,60}}\b(?:will be (?:banned|"
    rf"removed|deleted|reported)|(?:expect|get|gets|earns?) (?:a |an )?(?:permanent )?(?:ban|"
    rf"block|warning|strike))\b|"
    # "... should never be said", not "... must not be allowed to vote"; said of a group
    # ("gay people should not be accepted") it is no counter-speech (`_said_of_speech`).
    r"\b(?:(?:should|must) (?:never|not) "
    r"(?:be (?:said|called|used|tolerated|accepted|excused|repeated|normali[sz]ed|ignored)|say|"
    r"call|use)|stop (?:saying|calling|using|spreading)|i (?:don'?t|do not|never|would never|"
    r"will never|'d never|wouldn'?t ever) (?:hate|think|believe|agree|say|call)|"
    # Told off: "I told him he was wrong", "I called her out".
    r"(?:i|we) (?:told|tell) (?:him|her|them|my \w+) (?:that )?(?:he|she|they|it) (?:was|were|is|"
    r"are) (?:wrong|out of line|being (?:racist|sexist|homophobic|transphobic|ignorant|a bigot))|"
    r"(?:i|we) (?:called|call) (?:him|her|them) out|no one (?:should|deserves)|"
    r"nobody (?:should|deserves)|"
    r"there'?s no place for|(?:i|we) (?:condemn|reject|oppose)|don'?t (?:say|call|use)|"
    # Disbelief at what others still say: "I can't believe people still say Muslims are
    # terrorists", "how can anyone still think that women are inferior".
    r"(?:can'?t|cannot|can not|don'?t|do not) believe (?:that )?(?:people|some people|anyone|"
    r"folks|so many people|there are (?:still )?people (?:who|that)|we) (?:still |actually |"
    r"really |seriously |honestly )*(?:say|think|believe|claim|call|post|write|tweet|argue)|"
    r"how (?:can|could|do|does) (?:people|anyone|someone|you|they) (?:still |actually |really |"
    r"seriously |honestly )*(?:say|think|believe|claim|argue)|"
    # The speaker condemned: "the politician said women are inferior, and he was rightly
    # condemned".
    r"(?:he|she|they|who) (?:was|were|got|has been|have been|had been|is being|are being) "
    r"(?:rightly |widely |quickly |immediately |swiftly |publicly |later |then |finally )?"
    r"(?:condemned|critici[sz]ed|denounced|censured|fired|sacked|banned|suspended|expelled|"
    r"called out|reprimanded|disciplined|removed|kicked out|booed)|"
    r"it'?s not true that|is a myth|are a myth|is a stereotype|"
    # Writing asked against a claim: "write a speech condemning the claim that disabled people
    # are a burden".
    r"(?:condemn|refut|debunk|challeng|rebut|counter|argu)\w* (?:against )?the (?:claim|idea|"
    r"myth|notion|stereotype|belief|lie|argument) that|"
    r"(?:it'?s|it is|that'?s|that is) (?:a |an )?(?:myth|lie|stereotype|old stereotype|nonsense|"
    r"false|untrue) that|"
    # Hostility aimed at those who mistreat a group: "I can't stand people who are cruel to
    # immigrants".
    r"(?:people|anyone|those|someone|men|women|guys) (?:who|that) (?:are|is|get) (?:\w+ )?"
    r"(?:cruel|mean|nasty|rude|racist|violent|abusive|hateful|bigoted|horrible) (?:to|towards?|"
    r"about)|(?:people|anyone|those|someone) (?:who|that) (?:hate|attack|bully|bullies|mock|"
    r"harass|abuse|discriminate against|insult|beat up|target)|"
    # Hateful words condemned as words: "'gays are an abomination' is a horrible thing to say".
    r"(?:horrible|terrible|awful|nasty|hateful|hurtful|disgusting|vile|cruel|ugly|mean|wrong|"
    r"ignorant|offensive|racist|bigoted|shameful|sick) thing to (?:say|write|post|believe|think|"
    r"call (?:someone|anyone|people|a person))|"
    # Those who say it, condemned: "people who call immigrants vermin should be ashamed".
    r"(?:people|anyone|those|someone|whoever|everyone) (?:who|that) (?:call|calls|say|says|"
    r"think|thinks|claim|claims|believe|believes|post|posts)\b[^.!?]{1,60}?\b(?:should be "
    r"ashamed|(?:are|is) (?:the (?:real )?problem|bigots?|racists?|ignorant|wrong|disgusting|"
    r"pathetic|idiots?)|need to (?:grow up|educate themselves|stop|be called out)|(?:have|has) "
    r"never (?:met|known))))\b"
)
_REPORTING = screened(
    r"\b(?:said|says|say|saying|told|tells|wrote|writes|posted|posts|tweeted|yelled|shouted|"
    r"screamed|called (?:me|him|her|them|us)|calling (?:me|him|her|them|us)|quote[sd]?|"
    r"quoting|the (?:word|term|phrase|slur|sign|banner|graffiti|comment|message|post|"
    r"tweet|lyrics?|line)|someone (?:wrote|said|posted)|i (?:heard|read|saw)|"
    r"according to|reportedly|allegedly|claims? that|claimed that|accused)\b"
)
# Reported words taken up as the writer's own: "he said black people are like monkeys and he's
# right", "... it's harmless fun" (others laughing is no endorsement: a victim tells it so).
_ENDORSED = screened(
    r"\b(?:and|so|which is|because) (?:he|she|they|it|that)(?:'s| is|'re| are| was| were) "
    r"(?:\w+ )?(?:right|correct|true|spot on)\b|"
    r"\b(?:(?:it|that|this)(?:'s| is| was) )?(?:just |only )?(?:harmless fun|a harmless joke|"
    r"just (?:a )?jokes?|funny because (?:it'?s|its) true)\b|"
    r"\b(?:he|she|they) (?:has|have|had) a point\b|\bi (?:totally |completely |fully )?agree "
    r"with (?:him|her|them|it|that)\b"
)


def endorses(text: str) -> bool:
    """Reported or quoted words are taken up as the writer's own."""
    return bool(_ENDORSED.search(text))


QUOTE_SPAN = screened(
    r"[\"“”«»„][^\"“”«»„]{1,400}[\"“”«»„]|(?:^|(?<=\s))['‘][^'‘’]{2,300}['’](?=\s|[.,!?;:]|$)"
)


# Asking why people in general do harm: "Why do some people want to hurt the ones they love?"
_ASKS_WHY_PEOPLE = screened(
    r"^\W*why (?:do|does|would|might|can) (?:some |so many )?(?:people|someone|anyone|a person)\b"
)


GROUP_WORDS = screened(
    # (Words that only begin like a group's name are not it: "blackmail", "whiteboard",
    # "transport", "jewellery".)
    r"\b(?:jew(?:s|ish|ess|esses|ry)?|muslim\w*|islam\w*|christian\w*|hindu\w*|sikh\w*|"
    r"buddhist\w*|catholic\w*|atheist\w*|black(?:s|ness)?|white(?:s|ness)?|asian\w*|chinese|"
    r"japanese|korean|indian\w*|mexican\w*|latin[oax]\w*|hispanic\w*|arab(?:s|ic|ians?)?|"
    r"african\w*|european\w*|american\w*|russian\w*|immigrant\w*|migrant\w*|refugee\w*|"
    r"foreigner\w*|gay\w*|lesbian\w*|bi(?:sexual)?s?|queer\w*|homosexual\w*|"
    r"trans(?:gender\w*|sexual\w*|phob\w*|ition\w*|vestit\w*|en|es|exuel\w*)?|lgbt\w*|"
    r"women|woman|girls?|females?|men|males?|"
    r"gypsies|gypsy|roma|disabled|disabilit\w*|autis\w*|deaf|blind|race|races|racial|"
    r"religio\w*|ethnic\w*|nationalit\w*|minorit\w*|people of colou?r|natives?|"
    r"juifs|musulmans|arabes|noirs|immigres|etrangers|femmes|juden|muslime|auslander|"
    r"fluchtlinge|schwul\w*|frauen|judios|musulmanes|negros|inmigrantes|mujeres|gitanos)\b"
)


def names_a_group(normalized: str) -> bool:
    """The text names people for who they are: a group, or a slur for one."""
    return bool(GROUP_WORDS.search(normalized) or lexicon.SLUR_RE.search(normalized))


# A colour that is part of a name: "Walter White", "Jack Black", "Snow White", "the White
# House", "Black Friday" (capitalised, beside another capitalised word that names no people).
_NAME_COLOUR = screened(r"\b(?:White|Black|Brown|Red|Yellow)\b")
_CAPITALISED = screened(r"[A-Z][a-z]+")
_PEOPLE_NOUNS = frozenset(
    ("people", "folks", "persons", "community", "communities", "men", "women", "kids",
     "children", "guys", "lives", "families", "voters", "students", "workers", "citizens")
)  # fmt: skip


# Capitalised words that open a sentence rather than name anyone ("The Black community").
_NOT_A_NAME = frozenset(
    ("the", "a", "an", "this", "that", "these", "those", "our", "my", "their", "your", "his",
     "her", "all", "some", "many", "most", "every", "why", "how", "what", "when", "where", "who",
     "do", "does", "did", "are", "is", "was", "were", "i", "we", "they", "you", "if", "and",
     "but", "so", "as", "no", "not", "only", "being", "dear", "hey", "hi")
)  # fmt: skip


_WORD_BEFORE = screened(r"([A-Za-z]+)[^A-Za-z]*$")
_WORD_AFTER = screened(r"[^A-Za-z]*([A-Za-z]+)")


def _names_beside(word: str | None) -> bool:
    return (
        word is not None
        and _CAPITALISED.fullmatch(word) is not None
        and word.lower() not in _NOT_A_NAME
        and word.lower() not in _PEOPLE_NOUNS
        and not GROUP_WORDS.fullmatch(word.lower())
    )


def groups_only_in_names(content: str) -> bool:
    """Every group word in `content` is a colour that is part of a name ("How did Walter White
    make meth?", "the White House press office"): the text names no people for who they are."""
    lowered = content.lower()
    found = list(GROUP_WORDS.finditer(lowered))
    if not found or lexicon.SLUR_RE.search(lowered):
        return False
    for match in found:
        if not _NAME_COLOUR.fullmatch(content[match.start() : match.end()]):
            return False
        before = _WORD_BEFORE.search(content, 0, match.start())
        after = _WORD_AFTER.match(content, match.end())
        if not (
            _names_beside(before.group(1) if before else None)
            or _names_beside(after.group(1) if after else None)
        ):
            return False
    return True


# Words that speak of a person or of people: pronouns (not the writer's own) and nouns for
# people in general.
_PEOPLE = screened(
    r"\b(?:you|your|yours|yourself|yourselves|u|ur|ya|he|him|his|himself|she|her|hers|herself|"
    r"they|them|their|theirs|themselves|someone|somebody|anyone|anybody|everyone|everybody|"
    r"nobody|people|persons?|folks?|humans?|individuals?|citizens?|community|communities|"
    r"population)\b"
)
# After a group word, a word that makes it a noun for people ("Muslims are", "whites should").
_FUNCTION_WORDS = frozenset(
    {
        "are",
        "is",
        "was",
        "were",
        "be",
        "been",
        "being",
        "not",
        "never",
        "no",
        "should",
        "shouldn't",
        "can",
        "can't",
        "cannot",
        "could",
        "couldn't",
        "would",
        "wouldn't",
        "will",
        "won't",
        "must",
        "do",
        "don't",
        "does",
        "doesn't",
        "did",
        "didn't",
        "have",
        "has",
        "had",
        "and",
        "or",
        "but",
        "who",
        "whom",
        "that",
        "which",
        "in",
        "on",
        "at",
        "of",
        "for",
        "to",
        "from",
        "with",
        "by",
        "as",
        "than",
        "so",
        "get",
        "got",
    }
)
_NEXT_WORD = screened(r"[\s-]+([a-z']+)")
# A capitalised word inside a sentence: maybe a person's name.
_INNER_CAPITAL = screened(r"(?<=[a-z0-9,;:] )[A-Z][a-z]+")
# Group words that can qualify a noun ("Jewish bagels"); the others ("women", "Muslims",
# "immigrants") are themselves nouns for people.
_COLOURS = "brown|yellow|red|purple|green|pink|orange|blue"
_GROUP_ADJECTIVE = screened(
    r"jewish|muslim|islamic|christian|hindu|sikh|buddhist|catholic|atheist|black|white|asian|"
    r"chinese|japanese|korean|indian|mexican|latin[oax]|hispanic|arab|arabic|african|european|"
    r"american|russian|gay|lesbian|bisexual|queer|homosexual|trans|transgender|disabled|deaf|"
    rf"blind|native|{_COLOURS}"
)
# What people may or may not do or have, asked of something: "be allowed to vote", "marry",
# "be doctors", "join the army", "own land", "get tax breaks".
_RIGHTS = screened(
    r"\b(?:allowed|permitted|banned from|barred from|denied|entitled|vote|voting|marry|"
    r"(?:be )?protected|protection|conserved|conservation|"
    r"marriage|adopt|adoption|citizenship|president|doctors?|lawyers?|join the (?:army|military)|"
    r"serve in|own (?:land|property|a house|houses|guns?|a business)|drive|tax breaks?|"
    r"healthcare|health care|welfare|benefits|pensions?|equal pay|run for office|immigrate|"
    r"have (?:kids|children|babies)|go to (?:school|university|college)|marrying|get married|"
    r"hold (?:public |political |an? )?offices?|be elected|be hired|be promoted|have (?:a )?jobs?|"
    r"hold (?:a )?jobs?|have rights|equal rights|serve on (?:a )?jur(?:y|ies)|open bank accounts?|"
    r"get (?:life |health |car |home )?insurance|(?:get|take out) (?:a )?(?:loans?|mortgages?|"
    r"credit cards?)|get (?:a )?(?:passports?|visas?|driving licen[cs]es?)|"
    r"rent (?:a |an )?(?:flat|apartment|house|home)s?)\b"
)
# Colours the learned tier reads as it reads "black" and "white" ("why shouldn't brown rice
# own land?").
_COLOUR = screened(rf"\b(?:{_COLOURS})\b")
# How much closer to things than to people a noun's embedding must lie to be read as a thing.
THING_MARGIN = 0.03
_PERSON_PROTOTYPES = (
    "people",
    "person",
    "man",
    "woman",
    "worker",
    "children",
    "family",
    "citizens",
)
_THING_PROTOTYPES = (
    "food",
    "fruit",
    "object",
    "animal",
    "plant",
    "thing",
    "vegetable",
    "furniture",
    "weather",
    "machine",
)


@lru_cache(maxsize=1)
def _prototypes() -> tuple[np.ndarray, np.ndarray]:
    people = np.mean([encoder.encode(w) for w in _PERSON_PROTOTYPES], axis=0)
    things = np.mean([encoder.encode(w) for w in _THING_PROTOTYPES], axis=0)
    return people, things


# What a common noun names, from WordNet 3.1 (moderation/training/import_wordnet.py): "P" a
# person or a group of people, "T" a thing (an animal, an artifact, food, a plant ...).
NOUNS_PATH = Path(__file__).resolve().parent / "artifacts" / "nouns.txt.gz"
_IRREGULAR_PLURALS = {"mice": "mouse", "geese": "goose", "teeth": "tooth", "feet": "foot",
                      "knives": "knife", "leaves": "leaf", "wolves": "wolf", "loaves": "loaf",
                      "shelves": "shelf", "people": "person", "children": "child", "men": "man",
                      "women": "woman", "oxen": "ox", "lice": "louse"}  # fmt: skip


@lru_cache(maxsize=1)
def _noun_kinds() -> dict[str, str]:
    with gzip.open(NOUNS_PATH, "rt", encoding="utf-8") as lines:
        return dict(line.rstrip("\n").split("\t") for line in lines)


def noun_kind(noun: str) -> str | None:
    """What WordNet reads `noun` (or its singular) as: "P" a person or a group of people, "T"
    a thing, None when it does not know the word."""
    kinds = _noun_kinds()
    word = noun.lower()
    candidates = [word, _IRREGULAR_PLURALS.get(word, "")]
    if word.endswith("ies"):
        candidates.append(word[:-3] + "y")
    if word.endswith("es"):
        candidates.append(word[:-2])
    if word.endswith("s"):
        candidates.append(word[:-1])
    for candidate in candidates:
        if candidate in kinds:
            return kinds[candidate]
    return None


@lru_cache(maxsize=4096)
def is_a_thing(noun: str) -> bool:
    """`noun` names things (food, objects, machines, plants, animals), not people: WordNet says
    so ("toasters", "grapes", "clouds" are things; "teachers", "couples", "drivers" are not);
    for a word WordNet lacks, all-MiniLM-L6-v2 must place it clearly nearer things than people
    (a noun it cannot tell counts as people)."""
    last = noun.split()[-1].lower() if noun.split() else ""
    if last in _IMAGINED_BEINGS:
        return True
    kind = noun_kind(last) if last else None
    if kind is not None:
        return kind == "T"
    people, things = _prototypes()
    vector = encoder.encode(noun)
    return float(vector @ things - vector @ people) > THING_MARGIN


# Beings of myth and fiction, which WordNet files with people ("a fairy", "a ghost"): asking
# whether ghosts may own property targets nobody. Words that also name real people ("aliens",
# "trolls", "witches", "dwarves", "angels") are left to WordNet.
_IMAGINED_BEINGS = frozenset(
    (
        "ghost", "ghosts", "fairy", "fairies", "elf", "elves", "vampire", "vampires", "zombie",
        "zombies", "werewolf", "werewolves", "goblin", "goblins", "unicorn", "unicorns", "dragon",
        "dragons", "martian", "martians", "cyborg", "cyborgs", "mermaid", "mermaids", "gnome",
        "gnomes", "leprechaun", "leprechauns", "ogre", "ogres", "orc", "orcs", "hobbit", "hobbits",
        "centaur", "centaurs", "snowman", "snowmen", "smurf", "smurfs", "pixie", "pixies",
        "yeti", "yetis", "hobgoblin", "hobgoblins",
    )
)  # fmt: skip


_PLURAL = screened(r"\b([a-z]{3,}s)\b")
_NOT_NOUNS = frozenset(
    (
        "does", "was", "has", "this", "its", "his", "hers", "ours", "yours", "theirs", "always",
        "less", "unless", "perhaps", "sometimes", "towards", "afterwards", "besides", "whereas",
        "thus", "yes",
    )
)  # fmt: skip


def holds_contempt(text: str) -> bool:
    """An insult, a slur, a dehumanising word or a swear word is in `text`."""
    counts = lexicon.lexicon_counts(text)
    return bool(counts["insult"] or counts["slur"] or counts["dehumanising"] or counts["profanity"])


def only_things_named(content: str, normalized: str) -> bool:
    """The text asks what people may do or have ("be allowed to vote", "marry", "be doctors")
    of things: every group word or colour in it qualifies a thing ("white grapes", "Jewish
    bagels", "black holes") and nothing else speaks of a person (no pronoun but the writer's
    own, no noun for people, no insult, slur or vermin word, no name). A question about whether
    white grapes may vote targets nobody."""
    if not _RIGHTS.search(normalized) or _PEOPLE.search(normalized):
        return False
    found = [*GROUP_WORDS.finditer(normalized), *_COLOUR.finditer(normalized)]
    if any(not _GROUP_ADJECTIVE.fullmatch(m.group(0)) for m in found):
        return False  # "women", "Muslims", "immigrants": nouns for people
    if holds_contempt(normalized):
        return False
    if any(not GROUP_WORDS.fullmatch(m.group(0).lower()) for m in _INNER_CAPITAL.finditer(content)):
        return False
    if not found:
        # No group word at all: "Why should cucumbers not be allowed to marry?" asks it of
        # whatever the plural nouns name.
        nouns = [w for w in _PLURAL.findall(_RIGHTS.sub(" ", normalized)) if w not in _NOT_NOUNS]
        return bool(nouns) and all(is_a_thing(noun) for noun in nouns)
    for match in found:
        following = _NEXT_WORD.match(normalized, match.end())
        if following is None:
            return False
        noun = following.group(1)
        if noun in _FUNCTION_WORDS or GROUP_WORDS.fullmatch(noun) or not is_a_thing(noun):
            return False
    return True


# Abuse of a kind of people picked out by what they do or choose, not by who they are ("people
# who litter are scum", "tax dodgers are parasites", "flat earthers are idiots"): harsh, but
# aimed at no person and at no protected group.
_KIND_SAID = screened(
    r"^\s*(?:(?:all|most|these|those|the|some|many|any)\s+)?(?P<subject>(?:[a-z-]+\s+){0,2}?"
    r"(?:[a-z-]+s|people|folk|anyone|anybody|everyone|everybody|someone))(?:\s+(?:who|that)\s+"
    # ... or where they do it: "cheaters in online games are the worst".
    r"(?P<conduct>[^.!?]{1,60}?)|\s+(?:in|on|at)\s+(?P<where>(?:[a-z-]+\s+){0,2}?[a-z-]+))?\s+"
    r"(?:are|is|'re)\s+(?P<said>[^.!?]{1,80})"
)
# Someone pointed at: the reader, a third person, or one's own ("my neighbours"); the writer as
# the one who feels it ("I hate going") points at no one.
_ANY_PERSON = screened(r"\b(?:you|your|yours|u|ur|ya|he|him|his|she|her|hers|my)\b")
# Dislike of a kind of people said by the writer: "I hate politicians, they're all liars".
_KIND_HATED = screened(
    r"^\s*i (?:really |just |honestly )?(?:hate|can'?t stand|cannot stand|despise|loathe|detest)\s+"
    r"(?:all\s+)?(?P<subject>(?:[a-z-]+\s+){0,2}?[a-z-]+s)\b(?!\s+(?:who|that)\b)"
)
_ABUSE = screened(
    r"\b(?:pathetic|losers?|morons?|idiots?|idiotic|stupid|dumb|scum|scumbags?|parasites?|trash|"
    r"garbage|the worst|disgusting|vile|a disgrace|cowards?|cowardly|clowns?|pigs?|filth|"
    r"subhuman|vermin|annoying|selfish|brain ?dead|imbeciles?|cretins?|jerks?|assholes?|"
    r"arseholes?|dickheads?|wankers?|tossers?|pricks?|twats?|shits?|lowlifes?|low lifes?|"
    r"worthless|useless|lazy|evil|(?:a |such a )?waste of (?:space|oxygen|air|skin)|"
    r"bloodsuckers?|blood-suckers?|leeches|a drain(?: on \w+)?|a burden(?: on \w+)?|crooks?|"
    r"liars?|thieves|greedy|corrupt|incompetent|clueless|a joke|monsters?|sick|sickos?|psychos?|"
    r"heartless|cruel|the lowest of the low)\b"
)


def abuses_a_kind_of_conduct(sentence: str) -> bool:
    """The sentence insults a kind of people named by what they do or choose, and nobody it
    could mean for who they are: no protected group, no person addressed or pointed at, no
    threat."""
    found = _KIND_SAID.match(sentence) or _KIND_HATED.match(sentence)
    if found is None or _ANY_PERSON.search(sentence) or names_a_group(sentence):
        return False
    subject = found.group("subject").split()
    if subject[-1] in _ANYONE:
        if _KIND_HATED.owns(found) or found.group("conduct") is None:
            return False  # "everyone is an idiot": no conduct picks anyone out
    elif any(not normalize.is_known(w) and _near_a_group_word(w) for w in subject):
        return False  # a group's name misspelt ("muzlims", "jooz")
    named = " ".join(subject)
    if lexicon.PROFANITY_RE.search(named) or lexicon.INSULT_RE.search(named):
        return False  # "the fat bitches are annoying": the subject is itself an insult
    if _KIND_HATED.owns(found):
        # The dislike is the abuse; what follows may add more, never a fate or violence.
        return not (lexicon.VIOLENCE_RE.search(sentence) or _HOSTILE_FATE.search(sentence))
    conduct = found.group("conduct") or ""
    where = found.group("where") if _KIND_SAID.owns(found) else None
    if _STANDS_FOR_A_GROUP.search(conduct) or (where and _STANDS_FOR_A_GROUP.search(where)):
        return False  # "people who wear hijabs are scum": the conduct names a group
    said = found.group("said")
    # Violence in what they are said to do is the conduct ("people who kick puppies are
    # monsters"); in what is said of them it is a threat.
    outside = sentence.replace(conduct, " ", 1) if conduct else sentence
    return bool(_ABUSE.search(said)) and not (
        lexicon.VIOLENCE_RE.search(outside) or _HOSTILE_FATE.search(said)
    )


# Conduct that stands for who people are: their faith's dress or worship, their language, their
# origin, their skin, whom they love.
_STANDS_FOR_A_GROUP = screened(
    r"\b(?:hijabs?|burqas?|burkas?|niqabs?|turbans?|kippahs?|kippot|yarmulkes?|headscarf|"
    r"headscarves|veils?|saris?|pray\w*|mosques?|synagogues?|temples?|churches|church|ramadan|"
    r"fast(?:ing)? for|speak (?:spanish|arabic|chinese|hindi|urdu|polish|russian|french|"
    r"yiddish|hebrew|an?other language|with an accent)|accents?|come from|came from|born in|"
    r"(?:dark|black|brown|white) skin|skin colou?r|sleep with (?:men|women)|date (?:men|women)|"
    r"love (?:men|women)|like (?:men|women)|transition\w*|wheelchairs?|sign language|immigrat\w*|"
    r"cross(?:ed)? the border)\b"
)


# Abuse of a thing: "this printer is a useless piece of garbage", "my laptop is trash" (harsh
# words about an object aim at no one).
_THING_SAID = screened(
    r"^\W*(?:(?:this|that|the|my|our|your|these|those|his|her|their|stupid|damn|bloody|"
    r"fucking|freaking|new|old)\s+){0,3}(?P<noun>[a-z-]{3,})\s+(?:is|are|was|were|'s|'re|s)\s+"
    r"(?P<said>[^.!?]{1,80})"
)


def abuses_a_thing(sentence: str) -> bool:
    """The sentence insults a thing WordNet knows as one (an object, a machine, food), and
    nothing in it speaks of a person or a group."""
    found = _THING_SAID.match(sentence)
    if found is None or names_a_group(sentence):
        return False
    noun = found.group("noun")
    if noun_kind(noun) != "T" or holds_contempt(noun) or _PEOPLE.search(noun):
        return False
    said = found.group("said")
    return bool(_ABUSE.search(said)) and not (
        _ANY_PERSON.search(said) or _INNER_CAPITAL.search(said) or lexicon.VIOLENCE_RE.search(said)
    )


# An injury by accident: "I burned my arm on the oven", "cutting my finger while cooking", "I
# accidentally cut my thumb" (not "on purpose", not "again", not to feel something).
_INJURED = screened(
    r"\b(?:cut|cuts|cutting|burn|burned|burnt|burning|sliced|slicing|nicked|scraped|scratched|"
    r"scalded|bruised|sprained|twisted|hurt|stabbed) (?:my|myself|his|her|their)\b"
)
_BY_ACCIDENT = screened(
    r"\b(?:accident\w*|by mistake|while (?:cooking|chopping|cutting|slicing|shaving|baking|"
    r"gardening|working|opening|cleaning|ironing|fixing|playing|running|hiking|climbing)|on (?:the|"
    r"a|an) (?:oven|stove|hob|pan|pot|grill|iron|kettle|radiator|glass|broken glass|knife|can|tin|"
    r"lid|blade of the|mandoline|grater|fence|nail|rock|corner)|(?:fell|slipped|tripped|crashed)|"
    r"boiling water|hot (?:oil|water|pan|coffee|tea))\b"
)
_ON_PURPOSE = screened(
    r"\b(?:on purpose|deliberately|intentionally|again|to feel|to punish|because i (?:deserve|"
    r"wanted)|want(?:ed)? to|(?:more|new|fresh|another|the other) scars?|scars? (?:on|across) "
    r"(?:my|her|his) (?:wrists?|thighs?|forearms?)|relapse\w*|hide|hiding|blood felt|felt good)\b"
)


# Scars with a medical cause: "how do I hide scars from surgery with makeup?" (not beside
# self-harm named).
_MEDICAL_SCAR = screened(
    r"\b(?:scars?|stitches|marks) (?:from|after|left by) (?:my |the |a |an |her |his |their )?"
    r"(?:\w+ )?(?:surgery|operation|c-section|caesarean|cesarean|acne|chicken ?pox|accident|car "
    r"crash|dog bite|biopsy|transplant|appendectomy|injury|piercing|tattoo removal|stroller|"
    r"chemo|radiation)\b|\b(?:surgical|acne|c-section|caesarean|cesarean|appendix|knee|chest|"
    r"top surgery|heart surgery|keloid) scars?\b"
)
# Harm to oneself said (`_OWN_HARM`), or meant: "self-harm", "on purpose", "relapse".
_SELF_INFLICTED = screened(
    rf"{_OWN_HARM.pattern}|\bself[- ]?harm\w*|\b(?:cutting|burning|hurting) myself\b|"
    r"\bon purpose\b|\bdeliberately\b|\brelaps\w*"
)


def medical_scars(sentence: str) -> bool:
    """The sentence speaks of scars with a medical cause, and of no harm done to oneself."""
    return _MEDICAL_SCAR.search(sentence) is not None and not _SELF_INFLICTED.search(sentence)


# Going to bed: "I'm going to sleep now, goodnight", "off to bed, see you tomorrow" (not to
# sleep for ever, not a goodbye, not beside pills or despair).
_BEDTIME = screened(
    r"\b(?:going to|gonna|off to|heading to|head to|time (?:for|to)|about to|need to|have to|"
    r"got to|gotta|must)\s+(?:go to |get (?:some )?|catch (?:some )?|take a )?(?:bed|sleep|"
    r"nap|shut-?eye|zzz?s?|crash)\b"
)
# Not waking, goodbyes, the means at hand and despair: what turns going to bed into a farewell.
# Weariness ("tired of") is one only beside bed; beside a sleep of a set length it is not.
_NEVER_WAKING_WORDS = (
    r"forever|for ever|for good|permanently|eternal\w*|never|not wake|won'?t wake|"
    r"don'?t wake|wake up again|last|final|goodbye|good-?bye|bye forever|farewell|sorry|"
    r"forgive|anymore|any more|pills?|tablets?|meds|medications?|medicines?|bottle|overdose|"
    r"rope|end it|end this|die|dying|dead|death|suicid\w*|kill|gone|miss me|remember me|"
    r"love you all|take care of|no point|nothing left|can'?t (?:go on|do this|take)|hopeless"
)
_FAREWELL = rf"{_NEVER_WAKING_WORDS}|tired of"
_NOT_WAKING = screened(rf"\b(?:{_FAREWELL})\b")
_NEVER_WAKING = screened(rf"\b(?:{_NEVER_WAKING_WORDS})\b")


def bedtime(sentence: str) -> bool:
    """The sentence says the writer is going to bed, and nothing of not waking or of despair."""
    return bool(_BEDTIME.search(sentence)) and not _NOT_WAKING.search(sentence)


# Sleep wished for a while, then waking: "I'm so tired of this week, I just want to sleep for
# a month" (a length of time says the sleeper wakes; not beside pills, death or "forever").
_SLEEP_A_WHILE = screened(
    r"\b(?:want|wanna|need|going|gonna|could|would love|'d love|just want)\s+(?:to\s+)?sleep "
    r"(?:for (?:a|an|one|two|three|four|five|a few|\d+) (?:whole )?(?:hours?|days?|weeks?|"
    r"months?|years?)|all (?:day|weekend|week)|(?:till|until) (?:monday|tomorrow|noon|next \w+|"
    r"the weekend|christmas|spring))\b"
)


def sleeps_a_while(sentence: str) -> bool:
    """The writer wants to sleep for a stretch of time, and says nothing of not waking."""
    return bool(_SLEEP_A_WHILE.search(sentence)) and not _NEVER_WAKING.search(sentence)


def not_waking_anywhere(text: str) -> bool:
    """The text speaks of not waking, of the means or of death, anywhere."""
    return bool(_NEVER_WAKING.search(text))


# The words self-harm is spoken in: the farewell words above, death and ending, the ways it is
# done, the body hurt or starved, despair and being gone.
_SELF_HARM_FIELD = screened(
    rf"\b(?:{_FAREWELL}|"
    r"die|dies|died|dying|dead|death|deaths|suicid\w*|kill\w*|murder\w*|end(?:ed|ing|s)? "
    r"(?:it|it all|my life|things|this|everything|myself)|life|lives|live|living|alive|exist\w*|"
    r"wake|waking|woke|sleep forever|gone|disappear\w*|vanish\w*|never come back|better off|"
    r"without me|burden|goodbyes?|good-?bye|bye|farewell|last|final|note|letters?|miss me|"
    r"remember me|pills?|tablets?|meds|medication|overdos\w*|od|rope|noose|hang\w*|jump\w*|"
    r"bridge|roof|ledge|cliff|edge|train|tracks|traffic|tree|wall|drown\w*|gun|guns|shoot\w*|"
    r"bullet|cut|cuts|cutting|slit\w*|wrists?|blades?|razors?|bleed\w*|blood\w*|burn\w*|"
    r"scars?|knife|knives|scissors|poison\w*|bleach|gas|exhaust|crash\w*|starv\w*|eat|eats|"
    r"eating|eaten|ate|fast|fasting|hunger|hungry|food|bones|bad|worse|dark|"
    r"meals?|vomit\w*|purg\w*|throw(?:ing)? up|calories|thin|thinner|skinny|fat|weight|"
    r"anymore|any more|no point|pointless|hopeless\w*|worthless|useless|can'?t (?:go on|take|do|"
    r"cope|handle|live|stand)|tired of|sick of|give up|giving up|gave up|nothing left|no reason|"
    r"empty|numb|alone|lonely|hate myself|myself|harm\w*|pain\w*|hurt\w*|suffer\w*|deserve\w*|"
    r"punish\w*|do it|finally|forever|nobody|no one|anyone|everyone|world|here|there|away)\b"
)


# A plan of the writer's own, said in one short sentence: "I'm going to quit my job tomorrow",
# "I think I'm going to cry".
_OWN_PLAN = screened(
    r"^\W*(?:(?:tomorrow|tonight|today|later|soon|now),? )?(?:i think |i guess |maybe |i feel like "
    r")?(?:i'?m|im|i am) (?:going to|gonna|about to)\b[^.!?]*[.!?]*\s*$|"
    r"^\W*(?:i'?ll|i will) [^.!?]*[.!?]*\s*$"
)
# Short enough that the plan is all the text says.
PLAN_WORDS = 12


def only_an_everyday_plan(text: str) -> bool:
    """The text is one short sentence telling a plan of the writer's own, with no word of the
    field self-harm is spoken in (death and ending, ways to die, the body hurt or starved,
    despair, goodbyes) and none of the self-harm lexicon's."""
    return (
        len(text.split()) <= PLAN_WORDS
        and bool(_OWN_PLAN.match(text))
        and not _SELF_HARM_FIELD.search(text)
        and not lexicon.lexicon_counts(text)["self_harm"]
    )


def not_waking(text: str) -> bool:
    """The text speaks of not waking, of a goodbye, of dying or of despair."""
    return bool(_NOT_WAKING.search(text))


def accidental_injury(sentence: str) -> bool:
    """The sentence tells of an injury that happened by accident, with no sign it was meant."""
    return bool(
        _INJURED.search(sentence)
        and _BY_ACCIDENT.search(sentence)
        and not _ON_PURPOSE.search(sentence)
    )


# Violence done to oneself: "she wants to kill herself", "he tried to end his life".
_SELF_DIRECTED = screened(
    r"\b(?:kill|hurt|harm|cut|hang|shoot|stab|starve|drown|poison|end|take)(?:s|ed|ing)?\s+"
    r"(?:(?:her|him|them|my|one)sel(?:f|ves)|themselves|(?:her|his|their|my) (?:own )?"
    r"li(?:fe|ves))\b"
)


def only_self_directed(sentence: str) -> bool:
    """Every violent word of the sentence is done to oneself ("my friend told me she wants to
    kill herself"): self-harm, which its own category reads, not violence against anyone."""
    if not _SELF_DIRECTED.search(sentence) or names_a_group(sentence):
        return False  # "too bad women don't know how to kill themselves" wishes a group dead
    rest = _SELF_DIRECTED.sub(" ", sentence)
    return not (lexicon.VIOLENCE_RE.search(rest) or lexicon.SLUR_RE.search(rest))


_ANYONE = frozenset(("anyone", "anybody", "everyone", "everybody", "someone", "people", "folk"))


@lru_cache(maxsize=1)
def _group_words() -> tuple[str, ...]:
    terms = (*lexicon.PROTECTED_GROUPS, *lexicon.IDENTITY_TERMS, *lexicon.SLURS)
    return tuple(sorted({t for t in terms if t.isalpha() and len(t) >= 3}))


def _near_a_group_word(word: str) -> bool:
    """`word` is within two edits (three in a longer word) of a group's name or a slur."""
    reach = 2 if len(word) < 6 else 3
    return any(
        Levenshtein.distance(word, term, score_cutoff=reach) <= reach for term in _group_words()
    )


_HOSTILE_FATE = screened(
    r"\b(?:should|must|need to|deserve to|ought to)\b(?! (?:be (?:called out|held (?:to )?"
    r"account\w*|reported|challenged|critici[sz]ed|ashamed|exposed|ignored|fired|voted out|named "
    r"and shamed|"
    # What a court, a league or an employer does: "bribe takers should go to prison", "the
    # whole team should be traded".
    r"jailed|prosecuted|arrested|charged|punished|fined|banned|suspended|disqualified|traded|"
    r"benched|dropped|sacked|replaced|sent off|relegated)|go to (?:prison|jail)|get (?:banned|"
    r"fined|sacked|fired|benched)|resign|retire|step down)\b)|\b(?:die|dead|killed|shot|hanged|"
    r"burn)\b"
)


# Asking why a group cannot do what no one can ("Why can't gay people time travel?"): an
# absurd premise, no claim against the group.
_CANNOT = r"(?:can'?t|cannot|can not|(?:are|is)n'?t able to|(?:are|is) not able to|unable to|never)"
_NO_ONE_CAN = (
    r"(?:time ?travel|travel (?:back )?in time|breathe (?:under ?water|in space)|"
    r"fly(?! (?:planes?|aircraft|jets?|helicopters?|drones?|kites?|flags?|the flag|first class|"
    r"business|economy|home|to|from|with|on|in|out|into|abroad)\b)|teleport|"
    r"read (?:minds|people'?s minds)|become invisible|turn invisible|be invisible|live forever|"
    r"be immortal|live on (?:the sun|mars|the moon|venus|jupiter)|walk through walls|"
    r"see through walls|shoot lasers|photosynthesi[sz]e|control the weather|stop time|"
    r"levitate|move things with their minds|survive without (?:air|oxygen|food|water|sleep)|"
    r"run (?:faster than|at) the speed of (?:light|sound)|lift (?:cars|a car|buildings|"
    r"mountains)|talk to (?:animals|the dead)|turn into (?:animals|cats|dogs|birds|fish)|"
    r"see the future|be in two places at once|hear colou?rs|shrink|walk on water|"
    r"grow (?:wings|gills)|breathe fire)"
)
_ASKS_NO_ONE_CAN = screened(
    rf"\b(?:why|how come|is it true that|is it because)\b[^.!?]{{0,60}}?\b(?:{_CANNOT}\s+"
    rf"(?:\w+\s+){{0,2}}?|(?:can|do|are|is)\s+(?:\w+\s+){{1,4}}?(?:not|never|unable to)\s+|"
    # "Why shouldn't Jewish people be allowed to fly like birds?"
    rf"(?:should(?:n'?t| not| never)|must(?:n'?t| not))\s+(?:\w+\s+){{0,3}}?be allowed to\s+|"
    rf"should\s+(?:\w+\s+){{1,3}}?not\s+be allowed to\s+)"
    rf"(?:be able to\s+)?{_NO_ONE_CAN}\b"
)


def asks_why_no_one_can(sentence: str) -> bool:
    """A question why someone cannot do what no person can."""
    return (
        bool(_ASKS_NO_ONE_CAN.search(sentence))
        and not lexicon.lexicon_counts(sentence)["dehumanising"]
    )


# Why people feel as they do about a thing: "Why are some people afraid of spiders?", "Why do
# kids love dinosaurs?" (people in general, no group; nothing said ill of anyone).
_ASKS_WHY_PEOPLE_FEEL = screened(
    r"^\W*(?:why|how come)\s+(?:are|do|does|is|would|can)\s+(?:(?:some|many|so many|most|a lot "
    r"of|lots of|certain|other)\s+)?(?:people|persons|kids|children|adults|humans|babies|toddlers|"
    r"folks|someone|somebody|others)\s+(?:so\s+|still\s+|often\s+|always\s+)?(?:(?:afraid|"
    r"scared|frightened|terrified|fond|interested|obsessed|fascinated|allergic|addicted|attracted|"
    r"drawn|nervous|anxious|excited|curious|passionate|bored|disgusted|grossed out|creeped out|"
    r"into)\s+(?:of|by|to|about|in|with)\b|(?:fear|love|like|enjoy|dislike|collect|avoid|"
    r"prefer|dread|crave)\s)[^?]*\?\s*$"
)


def asks_why_people_feel(sentence: str) -> bool:
    """A question why people in general fear, like or are drawn to a thing, naming no group and
    speaking ill of no one."""
    unquoted = without_quotes(sentence).strip()
    return (
        _ASKS_WHY_PEOPLE_FEEL.match(unquoted) is not None
        and not names_a_group(unquoted)
        and not _speaks_ill(unquoted)
        and not holds_contempt(unquoted)
    )


# A question of fact about what the law or an institution lets a group do: "Is it true that gay
# people can't donate blood?", "Can trans people serve in the military?" (not "should ... be
# allowed", which asks for an opinion on their rights).
_ASKS_WHAT_THE_RULES_ALLOW = screened(
    r"^\W*(?:is it true that|is it (?:legal|allowed) for|are|can|could|do|why (?:can'?t|"
    r"couldn'?t|aren'?t|weren'?t)|when (?:could|did|were|was)|where (?:can|can'?t))\b"
    r"(?:(?!\bshould\b)[^?]){0,80}?\b(?:donate blood|give blood|adopt|marry|get married|vote|"
    r"serve (?:in the (?:military|army)|openly)|enlist|run for office|be ordained|become "
    r"(?:priests|rabbis|imams|bishops|citizens)|own (?:land|property)|inherit|get a passport|"
    r"change (?:their|the) (?:legal )?(?:name|gender)|(?:allowed|permitted|forbidden) to "
    r"(?:drink|eat|wear|pray|work|drive|date|celebrate|dance|fast|smoke|marry|travel|shave|use|"
    r"play|listen|have|get|keep|go|touch|cut))\b[^?]*\?\s*$"
)


# Asking why a group is wronged: "Why are women paid less than men?", "Why were Jews persecuted
# in medieval Europe?", "Why are Black Americans more likely to be stopped by police?".
_ASKS_WHY_WRONGED = screened(
    r"^\W*(?:why|how come) (?:are|were|is|was|do|does|did|have|has|had)\b[^?]{0,60}?\b(?:paid "
    r"less|underpaid|under-?represented|discriminated against|denied|excluded|persecuted|"
    r"oppressed|marginali[sz]ed|targeted|harassed|profiled|stereotyped|enslaved|interned|"
    r"deported|segregated|disenfranchised|expelled|massacred|murdered|killed|attacked|"
    r"banned from|barred from|kept out of|shut out of|treated (?:so )?(?:badly|unfairly|"
    r"differently|worse)|(?:more|less) likely to (?:be (?:stopped|arrested|jailed|imprisoned|"
    r"shot|killed|attacked|harassed|hired|promoted|paid|approved)|get (?:hired|promoted|"
    r"approved|a loan|the job))|(?:face|faced|facing) (?:discrimination|prejudice|racism|"
    r"sexism|violence|hostility|persecution|bias))\b[^?]*\?\s*$"
)


# Why a good thing is withheld from a group: "why aren't disabled people treated as equals?",
# "how come women don't get paid the same?".
_ASKS_WHY_WITHHELD = screened(
    r"^\W*(?:why|how come) (?:\w+ ){0,4}?(?:aren'?t|isn'?t|weren'?t|wasn'?t|don'?t|doesn'?t|"
    r"didn'?t|can'?t|won'?t|are not|is not|do not|does not|cannot)\b[^?]{0,60}?\b(?:treated "
    r"(?:as equals|equally|fairly|with (?:respect|dignity)|the same|like everyone else)|"
    r"(?:get |getting |being )?paid (?:the same|equally|fairly)|given (?:the same|equal|a fair)|"
    r"(?:get|have|getting|having) (?:the same|equal) (?:rights|pay|chances|opportunities)|"
    r"represented|protected|included|respected|accepted|welcomed?|safe|equal)\b[^?]*\?\s*$"
)


def _asked_without_contempt(question: Screened, sentence: str) -> bool:
    return bool(question.search(sentence)) and not (
        holds_contempt(sentence) or _HOSTILE.search(sentence)
    )


def asks_what_the_rules_allow(sentence: str) -> bool:
    """A question of fact about a group's rights, with no word of contempt in it."""
    return _asked_without_contempt(_ASKS_WHAT_THE_RULES_ALLOW, sentence)


def asks_why_wronged(sentence: str) -> bool:
    """A question of why a group is wronged, or denied what others have, with no word of
    contempt in it."""
    return _asked_without_contempt(_ASKS_WHY_WRONGED, sentence) or _asked_without_contempt(
        _ASKS_WHY_WITHHELD, sentence
    )


# A wrong approved of: "because they deserved it", "serves them right", "good riddance".
_WRONG_APPROVED = screened(
    r"\b(?:deserved?|deserving|had it coming|serves? them right|served them right|good riddance|"
    r"rightly|for good reason|about time|not enough|should (?:be|have been)|shoulda|needed to be|"
    r"had to be|better off|a good thing|good thing|as they should|justified)\b"
)


def approves_a_wrong(text: str) -> bool:
    """The text says a wrong done to someone was deserved or right."""
    return bool(_WRONG_APPROVED.search(text))


# Violent words as a joke among friends: a laugh in the sentence, and what would set it off is
# a trifle ("I'll kill you if you eat my leftovers lol", "spoil the finale and you're dead 😂").
_LAUGH = screened(LAUGH)
_TRIFLE = screened(
    r"\b(?:spoil\w*|eat|eats|ate|eaten|eating|touch\w*|take|takes|took|taking|steal\w*|stole|"
    r"forget\w*|forgot|finish\w*|drink\w*|drank|use|used|uses|borrow\w*|wear\w*|wore|skip\w*|"
    r"cancel\w*|lose|lost|break|broke|late|beat\w*|win|wins|won|snore\w*|tell|told)\b"
    r"[^.!?]{0,40}?\b(?:leftovers|food|fries|chips|snacks?|pizza|slice|cake|chocolate|cookies|"
    r"biscuits|sweets|candy|ending|finale|episode|season|show|series|movie|film|book|plot|"
    r"charger|hoodie|jumper|sweater|clothes|shoes|phone|birthday|coffee|tea|milk|bed|seat|spot|"
    r"remote|controller|game|match|plans|secret|surprise|lunch|dinner|breakfast|homework|"
    r"notes|playlist|password|netflix|anniversary|keys|dishes|laundry|bins?|trash|toilet seat)\b"
)


_GAME_RE = screened(rf"\b{_GAME}")


# A trifle named as the cause: "I could kill you for that spoiler".
_FOR_A_TRIFLE = screened(
    r"\bfor (?:that|this|the|your|those|these) (?:\w+ )?(?:spoilers?|jokes?|puns?|memes?|typos?|"
    r"comments?|pics?|photos?|texts?|messages?|gifs?|dad jokes?|take|haircut|outfit)\b"
)


# A pet's mischief: "my cat destroyed the couch again", "the dog ate my homework".
_PET_MISCHIEF = screened(
    r"\b(?:my|the|our|that|this) (?:\w+ )?(?:cat|kitten|dog|puppy|pup|hamster|parrot|bird|rabbit|"
    r"bunny|ferret|goat|horse|pony)s?(?:'s)? (?:\w+ )?(?:destroy|chew|ate|eat|pee|poo|puke|threw "
    r"up|throw up|knock|scratch|shred|rip|tore|tear|stole|steal|dug|dig|broke|break|bit|bite|"
    r"woke|wake|spill|hid|hide|ruin)\w*\b"
)


def jocular(sentence: str) -> bool:
    """Violent words as a joke: a laugh, and a trifle, a game or a pet's mischief as what would
    set them off."""
    if not _LAUGH.search(sentence):
        return False
    return bool(
        _TRIFLE.search(sentence)
        or _FOR_A_TRIFLE.search(sentence)
        or _GAME_RE.search(sentence)
        or _PET_MISCHIEF.search(sentence)
    )


# "So hard" after a verb that is no sex act: "she laughed so hard she cried", "he teased her so
# hard".
_SO_HARD = screened(
    r"\b(?:laugh|cr(?:y|ied|ies)|work|tr(?:y|ied|ies)|push|teas|roast|stud(?:y|ied|ies)|train|"
    r"practi[cs]|ran|run|kick|slam|shak|shook|hug|squeez|cheer|clap|sneez|cough|blush|fell|fall|"
    r"rain|snow|pray|think|thought|fought|fight|swung|swing|threw|throw|hit|punch|scream|yell|"
    r"sob|rolled|roll|smil|grinn?)\w* (?:\w+ )?so hard\b"
)


def hard_but_not_sexual(sentence: str) -> bool:
    """The words 'so hard' say how hard someone laughed, worked or pushed, in a sentence with no
    sexual word."""
    return bool(_SO_HARD.search(sentence)) and not lexicon.SEXUAL_RE.search(sentence)


# Skill at a game praised in violent words: "those kids are absolutely savage at dodgeball".
_PROWESS = screened(
    r"\b(?:savage|savages|a beast|beasts|a monster|monsters|a killer|killers|an animal|animals|a "
    r"machine|machines|an assassin|assassins|ruthless|deadly|lethal|brutal|vicious|a menace|"
    r"murderous) (?:at|in|on) (?:the |a )?(?:\w+ )?(?:dodgeball|tag|chess|tennis|golf|poker|"
    r"basketball|football|soccer|hockey|volleyball|baseball|cricket|rugby|darts|pool|bowling|"
    r"scrabble|monopoly|uno|trivia|quiz|karaoke|debates?|video games|games?|court|pitch|field|"
    r"table|board|mat|ring|boards|sales|math|maths|spelling|arm wrestling|ping pong|badminton|"
    r"fortnite|minecraft|fifa|mario ?kart|smash)\b"
)


def praises_prowess(sentence: str) -> bool:
    """Violent words that praise skill at a game or a sport, and say nothing ill of anyone."""
    return bool(_PROWESS.search(sentence)) and not _WORSE_THAN_MILD.search(sentence)


# Harm met on the harmed one's side: the police called ("if my sister's boyfriend hurts her
# again I'll call the police") or a vow that no one will hurt them again ("I'll make sure no one
# ever hurts her again").
_SIDES_WITH_THE_HARMED = screened(
    r"\b(?:i(?:'ll| will|'m going to|'m gonna| am going to)|we(?:'ll| will|'re going to)|i'd|"
    r"i would|i should|should i|i need to|i have to) (?:\w+ )?(?:call|phone|ring|get|report (?:him|"
    r"her|them|it) to|go to|contact|tell) (?:the )?(?:police|cops|911|999|112|authorities|a lawyer|"
    r"a restraining order|a protection order|child protective services|cps|social services)\b|"
    r"\b(?:make sure|see to it|promise|swear|guarantee) (?:that )?(?:no(?:body| one)|"
    r"nothing) (?:will |can )?(?:ever )?(?:hurts?|touch(?:es)?|bull(?:y|ies)|harms?|scares?|"
    r"threatens?|hits?) (?:her|him|you|them|my \w+|our \w+) (?:\w+ )?again\b"
)
_I_DO_HARM = screened(
    r"\b(?:i(?:'ll| will|'m going to|'m gonna| am going to)|we(?:'ll| will)|i'd|i would) (?:\w+ )?"
    r"(?:kill|hurt|beat|stab|shoot|break|smash|end|murder|punch|strangle|choke|bury|destroy|"
    r"cut|make (?:him|her|them) (?:pay|regret))\b"
)


def sides_with_the_harmed(sentence: str) -> bool:
    """The writer meets harm done to someone by calling the police or the like, or vows no one
    will hurt them again, and threatens no harm of their own."""
    return bool(_SIDES_WITH_THE_HARMED.search(sentence)) and not _I_DO_HARM.search(sentence)


# A call to keep someone away from children: "Sex offenders should be kept away from
# children", "keep predators away from our kids".
_KEPT_FROM_CHILDREN = screened(
    r"\b(?:should|must|need to|needs to|ought to|have to|has to) be kept (?:far )?away from "
    r"(?:(?:our|their|the|your|all) )?(?:children|kids|minors|schools?|playgrounds?)\b|"
    r"\bkeep (?:\w+ ){1,3}(?:far )?away from (?:(?:our|their|the|your|all) )?(?:children|kids|"
    r"minors|schools?|playgrounds?)\b"
)


def shields_children(sentence: str) -> bool:
    """Someone is to be kept away from children, and no group is named: those kept away are a
    danger for what they did ("sex offenders"), not for who they are ("gay people should be
    kept away from children" is hate)."""
    return bool(_KEPT_FROM_CHILDREN.search(sentence)) and not names_a_group(sentence)


# Encouragement said to the reader: "everybody likes you", "keep showing up", "proud of you".
_ENCOURAGES = screened(
    r"\b(?:(?:(?:everybody|everyone|the (?:whole )?(?:team|class|office|"
    r"family)) (?:really )?(?:likes|loves|appreciates|respects|admires|misses|values)|(?:we|"
    r"they) (?:all )?(?:really )?(?:like|love|appreciate|respect|admire|miss|value)) (?:you|"
    r"having you)\b(?! to\b)|keep (?:showing up(?! (?:at|outside|near))|going|it up|"
    r"up the good work|trying|pushing|at it|shining|being you)|(?:you'?re|"
    r"you are) (?:doing (?:great|amazing|so well|well|fine|awesome)|(?:so |really )?(?:appreciated|"
    r"loved|valued|missed|welcome))|(?:so |really )?proud of you|(?:you|people like you|"
    r"someone like you) (?:are|'re|is) (?:so |really |truly |such )?(?:kind|nice|sweet|lovely|"
    r"wonderful|amazing|awesome|generous|inspiring|talented|brilliant|a gift|a blessing|"
    r"the best)\b(?! at (?:lying|ruining|hurting))|you(?:'ve| have) got this|don'?t give up)\b"
)


def encourages(sentence: str) -> bool:
    """The sentence encourages or praises the reader, and says nothing ill of anyone."""
    return (
        bool(_ENCOURAGES.search(sentence))
        and not _WORSE_THAN_MILD.search(sentence)
        and not holds_contempt(sentence)
        and not _speaks_ill(sentence)
        and not NEGATION.search(sentence)
    )


# Mild abuse said with affection: "You're a crazy bastard, I love you man", "shut up you idiot,
# you're the best lol". Affection must be said outright; nothing worse than a mild insult may
# stand beside it.
_AFFECTION = screened(
    r"(?:\bi (?:love|adore|luv) (?:you|ya|u)\b|(?:^|[,.!?;:]\s*)(?:love|luv) (?:you|ya|u)\b|"
    r"\b(?:you'?re the best|"
    r"you are the best|you'?re my (?:best friend|favou?rite|hero)|my (?:best friend|bestie)|"
    r"(?:so )?proud of (?:you|ya)|miss (?:you|ya) already|can'?t wait to see (?:you|ya))\b|"
    # Praise as the name called: "shut up, you absolute legend".
    r"\b(?:you|ya|u) (?:absolute|total|utter|beautiful|magnificent|glorious|mad|crazy)? ?(?:legend|"
    r"genius|king|queen|icon|hero|star|gem|angel|sweetheart|treasure|gift)\b)"
)
_WORSE_THAN_MILD = screened(
    r"\b(?:die|dead|kill\w*|hurt|hate you|hates you|everyone hates|nobody (?:likes|loves|wants)|"
    r"worthless|disgusting|ugly|fat|whore|slut|cunt|retard\w*|kys|rape\w*|stupid bitch|"
    r"piece of (?:shit|garbage|trash)|waste of|useless|pathetic|said no(?: ?one|body) ever)\b"
)


def banter(normalized: str) -> bool:
    """The text calls the reader names and says outright that it loves them, with nothing worse
    than a mild insult in it."""
    return bool(_AFFECTION.search(normalized)) and not _WORSE_THAN_MILD.search(normalized)


def without_quotes(text: str) -> str:
    """`text` with every quoted span removed."""
    return QUOTE_SPAN.sub(" ", text)


# Praise of a group said and nothing more: "Gay people are nice.", "Trans people are brave."
# Words such as "nice" or "strong" clear only such a sentence: "... are strong, which is why
# they make good slaves" is no praise.
# Swear words used only to intensify: "so fucking funny", "bloody brilliant".
INTENSIFIERS = (
    r"(?:fucking|fuckin|fcking|fking|fuking|effing|freaking|frigging|bloody|damn|damned|"
    r"goddamn|hella)"
)


# A thing praised with a swear word: "this shit is hilarious", "that crap was amazing".
_THING_PRAISED = screened(
    r"^\W*(?:this|that|the|it|this new|that new) (?:\w+ )?(?:shit|crap|stuff|thing|song|show|"
    r"movie|film|game|video|meme|joke|album|track|beat|episode|book)\s+(?:is|was|'s|be)\s+"
    rf"(?:(?:so|really|absolutely|actually|honestly|literally|{INTENSIFIERS})\s+)*(?:hilarious|"
    r"amazing|great|awesome|fire|dope|good|funny|epic|insane|brilliant|legendary|gold|the best|"
    r"sick|lit|incredible|perfect|beautiful)\b"
)


def praises_a_thing(sentence: str) -> bool:
    """The sentence praises a thing, with a swear word perhaps, and speaks of no one else."""
    return (
        _THING_PRAISED.match(sentence) is not None
        and not _PEOPLE.search(sentence)
        and not names_a_group(sentence)
    )


_PLAIN_PRAISE = screened(
    r"(?:i think |honestly,? |in my experience,? )?(?:all |most )?[\w' -]{2,40}? (?:are|is) "
    rf"(?:(?:so|really|very|truly|just|such|{INTENSIFIERS}) )*(?:nice|"
    r"awesome|brave|smart|talented|hard-?working|honest|decent|fantastic|strong|clever|"
    r"intelligent|caring|generous|good|lovely|kind|great|wonderful|amazing|cool|beautiful|"
    r"gorgeous|incredible|resilient|inspiring|valid|an? (?:\w+ )?(?:part|pillar|asset|strength) "
    r"of (?:this|our|the|my) (?:country|community|society|city|nation|team|history|culture|school|"
    r"neighbou?rhood|family|workforce|economy|world|town|story|fabric))"
    r"(?: and (?:so |really |very )?\w+)?"
    r"(?: (?:people|folks|neighbou?rs|friends|colleagues|humans|parents|workers))?\s*[.!]*"
)


# A yes/no question opened by a negative auxiliary asks for agreement with its positive:
# "Aren't immigrants just criminals?" says they are, "Isn't killing gay people wrong?" that it is.
_NEGATIVE_QUESTION = screened(
    r"^(?P<lead>\W*)(?P<aux>aren'?t|isn'?t|don'?t|doesn'?t|didn'?t|wasn'?t|weren'?t|won'?t|"
    r"wouldn'?t|shouldn'?t|can'?t|couldn'?t|ain'?t|haven'?t|hasn'?t)\b(?=[^.!?]*\?\W*$)"
)
_POSITIVE_AUX = {
    "arent": "are", "isnt": "is", "dont": "do", "doesnt": "does", "didnt": "did", "wasnt": "was",
    "werent": "were", "wont": "will", "wouldnt": "would", "shouldnt": "should", "cant": "can",
    "couldnt": "could", "aint": "is", "havent": "have", "hasnt": "has",
}  # fmt: skip


# A sentence that only calls what came before it false: "That's a lie and you know it.", "It's
# just not true.", "Total nonsense."
_REFUTATION = screened(
    r"^\W*(?:(?:that|this|it|which)(?:'?s| is| was)\s+(?:(?:just|simply|completely|totally|"
    r"absolutely|utterly|plain|so|such)\s+){0,2}(?:wrong|racist|sexist|homophobic|transphobic|"
    r"bigoted|hateful)\b|(?:(?:that|this|it|which)(?:'?s| is| was)\s+|and\s+)?(?:(?:just|simply|"
    r"completely|totally|absolutely|utterly|plain|so|such|a|an|total|complete|utter|an absolute)"
    r"\s+){0,3}(?:not true|untrue|false|a lie|lies|a myth|nonsense|bullshit|rubbish|garbage|"
    r"a (?:racist |sexist |tired |lazy |harmful )?(?:stereotype|trope)|baloney|a load of "
    r"(?:rubbish|nonsense|crap))\b)"
    r"(?:(?:,| and)\s+(?:you|we|everyone|everybody) (?:know|knows) it)?[.!\s]*$|"
    # Whose words they were, and what that makes the speaker: "that's what my uncle said, and
    # he's a racist idiot".
    r"^\W*(?:that'?s|this is|that is) what (?:my |some |a |an |his |her |their |the )?"
    r"(?:\w+ )?\w+ (?:said|says|thinks|believes|posted|wrote|told me),? (?:and|but) (?:he|she|"
    r"they)(?:'s| is|'re| are) (?:a |an |such an? |just an? )?(?:\w+ )?(?:racist|bigot|idiot|"
    r"moron|wrong|ignorant|homophobe|sexist|misogynist|fool|clown)\b"
)


def refutes(sentence: str) -> bool:
    """The sentence calls what was said false, and nothing more."""
    return bool(_REFUTATION.match(sentence.strip()))


def mask_negative_question(sentence: str) -> str:
    """The sentence with the negative auxiliary of a yes/no question blanked (same length):
    "aren't gay people just perverts?" denies nothing."""
    m = _NEGATIVE_QUESTION.match(sentence)
    if m is None:
        return sentence
    return sentence[: m.start("aux")] + " " * len(m.group("aux")) + sentence[m.end() :]


_PRONOUN_SUBJECT = screened(r"\s+(it|that|this|there)\b")
_JUDGED = screened(rf"\s+(.+?)\s+({_CONDEMNED})(\W*)$")


def asserted(sentence: str) -> str:
    """The sentence, with a negative yes/no question made the positive one it asserts."""
    m = _NEGATIVE_QUESTION.match(sentence)
    if m is None:
        return sentence
    positive = _POSITIVE_AUX[m.group("aux").replace("'", "")]
    rest = sentence[m.end() :]
    # "Isn't it wrong to say ...?" asserts "it is wrong to say ...".
    subject = _PRONOUN_SUBJECT.match(rest)
    if subject:
        return f"{m.group('lead')}{subject.group(1)} {positive}{rest[subject.end() :]}"
    # "Isn't killing gay people wrong?" asserts "killing gay people is wrong".
    judged = _JUDGED.match(rest)
    if judged and positive in ("is", "are", "was", "were"):
        return f"{m.group('lead')}{judged.group(1)} {positive} {judged.group(2)}{judged.group(3)}"
    return m.group("lead") + positive + rest


# What people may do, granted, of those just named: "let them play sports with their friends".
_LET_THEM = screened(
    r"^\W*(?:just )?let them (?:play|marry|live|love|be themselves|compete|serve|adopt|vote|"
    r"worship|pray|study|work|speak|dress|be happy|be kids)\b"
)


def supportive(sentence: str) -> bool:
    """A sentence that speaks well of people, or negates or condemns hostility, with no hostile
    word outside a negation or a quote."""
    sentence = asserted(sentence)
    unquoted = without_quotes(sentence)
    if counter_speech(sentence) or (
        _ASKS_WHY_PEOPLE.search(unquoted) and unquoted.rstrip().endswith("?")
    ):
        return True
    said = list(_HOSTILE.finditer(unquoted))
    if any(not negated_before(unquoted, m.start()) for m in said):
        return False
    # A negation clears a sentence when it denies the hostile words it holds ("disabled people
    # are not a burden"); one that denies nothing hostile ("nobody would care if you
    # disappeared") clears nothing.
    if said:
        return True
    if _PLAIN_PRAISE.fullmatch(unquoted.strip()) and names_a_group(unquoted):
        return True
    # Kind words clear a sentence about people for who they are ("I love my Muslim
    # neighbours"), not any sentence with a kind word in it ("I'd love to see him shot"), nor
    # one that denies them ("gay people should not be accepted").
    kind = [m for m in _SUPPORT.finditer(unquoted) if not denied_before(unquoted, m.start())]
    if bool(kind) and names_a_group(unquoted):
        return True
    let = _LET_THEM.search(unquoted)
    return let is not None and not denied_before(unquoted, let.start())


_CLAUSE_BREAK = screened(r"[,;:.!?]")


def clause_before(text: str, index: int, reach: int | None = None) -> str:
    """The words of `text` before `index` in the same clause (at most `reach` characters)."""
    start = 0 if reach is None else max(0, index - reach)
    return _CLAUSE_BREAK.split(text[start:index])[-1]


def denied_before(text: str, index: int) -> bool:
    """A negation stands just before `index` in its clause ("should not be accepted", "I would
    never use it on my kids")."""
    return bool(NEGATION.search(clause_before(text, index, 30)))


# Where a denial stops reaching: the end of a sentence or a turn of contrast ("I don't hate
# anyone, but gays are vermin": the "but" says what the "don't" was for).
_TURN_WORDS = r"\b(?:but|yet|however|though|although)\b"
_CONTRAST = screened(
    rf"[;:.!?]|{_TURN_WORDS}|\bexcept\b|"
    # A new clause with its own subject: "gay people are not less than anyone, they are ...".
    r",\s*(?=(?:they|he|she|we|you|i|it|those people|these people)\s+(?:are|is|'re|were|was|"
    r"should|must|will|'ll)\b)"
)


# Negations that ask for agreement rather than deny: "isn't it obvious that ...", "don't you
# think ...", "wouldn't you agree ...".
_RHETORICAL = screened(
    r"\b(?:isn'?t|is not|wasn'?t|ain'?t) it (?:\w+ )?(?:obvious|clear|true|a fact|time)\b|"
    r"\b(?:don'?t|do not) (?:you|we|they) (?:all )?"
    r"(?:think|agree|find|see|know|feel)\b|\b(?:wouldn'?t|won'?t|can'?t|couldn'?t) (?:you|we) "
    r"(?:all )?(?:agree|admit|see)\b|\bdoesn'?t everyone know\b"
)


def negated_before(text: str, index: int, reach: int = 40) -> bool:
    """A negation stands before `index`, within `reach` characters and no contrast away (not
    one that asks for agreement: "isn't it obvious that ...")."""
    window = _CONTRAST.split(text[max(0, index - reach) : index])[-1]
    return bool(NEGATION.search(_RHETORICAL.sub(" ", window)))


# The subject of a denial, and a modal after it, are taken out with it: "I'm" left alone reads,
# to the n-gram tier, as the start of a confession.
_DENYING_SUBJECT = (
    r"(?:(?:i'?m|i am|i'?d|i'?ll|i|we'?re|we are|we)\s+(?:(?:would|will|could|am|was|have|had|"
    r"do|did|really|just)\s+)?)?"
)
# A self-harm act on oneself that a negation right before it denies: "I would never kill
# myself", "I'm not going to hurt myself", "I have never wanted to end my life". Only a few
# helper words may stand between the two, so "I don't think anyone would care if I killed
# myself" denies nothing.
_DENIED_SELF_HARM = screened(
    rf"\b{_DENYING_SUBJECT}(?:never|not|don'?t|do not|didn'?t|did not|won'?t|will not|"
    r"wouldn'?t|would not|haven'?t|have not)\s+"
    r"(?:(?:ever|really|even|actually|going to|gonna|want(?:ed)? to|wanna|plan(?:ning)? to|"
    r"try(?:ing)? to|think(?:ing)? (?:of|about)|consider(?:ing)?|wish(?:ed)? to|need to|"
    r"have to|be)\s+){0,3}"
    r"(?:(?:kill(?:ing)?|hurt(?:ing)?|harm(?:ing)?|cut(?:ting)?|end(?:ing)?|tak(?:e|ing)) "
    r"(?:myself|my (?:own )?life)|commit(?:ting)? suicide|suicidal)\b|"
    # "Ich will mich heute Nacht nicht umbringen", "je ne vais pas me tuer", "no voy a matarme".
    r"\bich (?:will|werde|mochte|wurde|bringe) mich (?:\w+ ){0,3}?(?:nicht|nie|niemals) (?:um\b|"
    r"umbringen|toten|ritzen|verletzen|das leben nehmen)|\bje (?:ne )?(?:vais|veux|compte|pense) "
    r"(?:pas|jamais|plus) (?:me tuer|me suicider|mourir|me faire du mal|me couper)|\bje ne me "
    r"(?:tuerai|suiciderai) (?:pas|jamais)\b|\bno (?:voy|quiero|pienso) (?:a )?(?:matarme|"
    r"suicidarme|hacerme dano|cortarme)|\bnunca (?:me voy a|voy a|me) (?:matar|suicidar)\w*"
)


def denies_self_harm(text: str) -> bool:
    return _DENIED_SELF_HARM.search(text) is not None


# Denying harm to anyone at all: "I'm not going to hurt anyone", "I would never harm a soul";
# not when an exception follows ("anyone but myself").
_DENIED_HARM_TO_ANYONE = screened(
    rf"\b{_DENYING_SUBJECT}(?:never|not|don'?t|do not|won'?t|will not|wouldn'?t|would not)\s+"
    r"(?:(?:ever|really|even|actually|going to|gonna|want(?:ed)? to|wanna|plan(?:ning)? to|"
    r"try(?:ing)? to|be)\s+){0,3}"
    rf"(?:kill|hurt|harm|attack|{USE_ON}) (?:anyone|anybody|someone|"
    r"somebody|a soul|a fly|people|others)\b"
    r"(?!,? (?:but|except|other than|apart from|besides|save)\b)"
)


def without_denied_self_harm(sentence: str) -> str | None:
    """`sentence` with the self-harm acts it denies taken out, and any denial of harming
    anyone ("I'm not going to hurt anyone"), or None when it denies none. What is left still
    has to be read: "I won't kill myself tonight, but I want to die" keeps its second half."""
    rest, denied = _DENIED_SELF_HARM.subn(" ", sentence)
    rest, denied_anyone = _DENIED_HARM_TO_ANYONE.subn(" ", rest)
    return rest if denied or denied_anyone else None


# A turn of contrast: what follows it says what the words before it were for.
TURN = screened(_TURN_WORDS)


# Bigotry named and condemned: "ce racisme contre les musulmans me dégoûte", "Rassismus hat
# hier keinen Platz", "el odio contra los gitanos es inaceptable"; and a claim said to be hate:
# "dire que les juifs sont des parasites, c'est de la haine pure", "zu sagen, dass ... ist
# rassistisch", "decir que ... es puro odio". A claim only called false is not among them:
# "dire que les femmes sont égales est absurde" refutes no hostility.
_FOREIGN_BIGOTRY = (
    r"(?:racisme|haine|discrimination|islamophobie|antisemitisme|homophobie|transphobie|"
    r"sexisme|xenophobie|rassismus|hass|hetze|diskriminierung|islamfeindlichkeit|"
    r"antisemitismus|homophobie|sexismus|fremdenfeindlichkeit|racismo|discriminacion|"
    r"islamofobia|antisemitismo|homofobia|transfobia|machismo|xenofobia)"
)
_FOREIGN_CONDEMNED = (
    r"(?:raciste|haineu\w+|de la haine|(?:de la )?haine pure|odieu\w+|inacceptable|une honte|"
    r"honteu\w+|degoutant|homophobe|sexiste|antisemite|islamophobe|transphobe|discriminatoire|"
    r"me degoute|nous degoute|n'?a pas sa place|doit cesser|rassistisch|(?:purer )?hass|hetze|"
    r"menschenverachtend|inakzeptabel|eine schande|widerlich|homophob|sexistisch|antisemitisch|"
    r"diskriminierend|widert mich an|hat (?:hier )?keinen platz|muss aufhoren|racista|"
    r"(?:puro )?odio|odios[oa]|inaceptable|una verguenza|homofob[oa]|sexista|antisemita|"
    r"discriminatori[oa]|me da asco|no tiene cabida|tiene que acabar|"
    # The bigotry named: "c'est du sexisme", "das ist Rassismus", "es puro racismo".
    r"(?:du |de la |purer? |reiner? |puro |pura )?(?:sexisme|racisme|homophobie|antisemitisme|"
    r"transphobie|islamophobie|xenophobie|sexismus|rassismus|antisemitismus|fremdenfeindlichkeit|"
    r"sexismo|racismo|homofobia|antisemitismo|transfobia|islamofobia|xenofobia))"
)
_FOREIGN_COUNTER = screened(
    rf"\b{_FOREIGN_BIGOTRY}\b[^.!?]{{0,60}}\b{_FOREIGN_CONDEMNED}(?!\w)|"
    rf"\b(?:dire|pretendre|affirmer|penser|croire|zu sagen|zu behaupten|zu glauben|zu denken|"
    rf"decir|afirmar|pensar|creer)\s*,?\s*(?:que|dass)\b[^.!?]{{3,140}}?[,;:]?\s*"
    rf"(?:c'?est|c est|est|serait|ist|ware|es|seria)\s+(?:\w+\s+)?{_FOREIGN_CONDEMNED}(?!\w)|"
    rf"\b(?:c'?est|c est|es ist|es)\s+(?:\w+\s+)?{_FOREIGN_CONDEMNED}\s+(?:de dire|zu sagen|"
    rf"decir)\b|\b(?:arrete[zs]? de dire|hor(?:t)? auf zu sagen|deja(?:d)? de decir)\b|"
    # The naming itself condemned: "ich finde es schlimm, dass Flüchtlinge als Parasiten
    # bezeichnet werden", "je trouve ça honteux qu'on traite les migrants de rats", "me parece
    # horrible que llamen ratas a los inmigrantes".
    rf"\b(?:(?:ich finde|finde ich) es|es ist|je trouve (?:ca|cela)|c'?est|me parece|"
    rf"es)\s+(?:\w+\s+)?(?:schlimm|furchtbar|schrecklich|falsch|traurig|unertraglich|grauenhaft|"
    rf"{_FOREIGN_CONDEMNED}|horrible|triste|grave|affreux|terrible|lamentable|injusto|"
    rf"injuste)\s*,?\s*(?:dass|que|qu')\b[^.!?]{{0,80}}\b(?:bezeichnet|genannt|beschimpft|betitelt|"
    rf"traite\w*|appel\w*|qualifi\w*|llam\w*|trat\w*)\b|"
    # Hostility at those who mistreat a group: "je déteste quand les gens insultent les gays".
    rf"\b(?:je deteste|je hais|je ne supporte pas|ich hasse es|ich kann es nicht leiden|odio|"
    rf"detesto|no soporto)\s*,?\s*(?:quand|lorsque|wenn|cuando)\s+(?:les gens|on|quelqu'un|"
    rf"leute|man|jemand|la gente|alguien)\b[^.!?]{{0,40}}?\b(?:insult\w*|maltrait\w*|frapp\w*|"
    rf"harcel\w*|attaqu\w*|se moqu\w*|beleidig\w*|schlag\w*|angreif\w*|belastig\w*|"
    rf"beschimpf\w*|maltrat\w*|pega\w*|ataca\w*|acosa\w*|se burla\w*)"
)


def counter_speech(sentence: str) -> bool:
    """The sentence argues against hostility, and does not turn to it afterwards ("I don't
    hate anyone, but gays are vermin" denies nothing it goes on to say)."""
    return (
        _belief_told_off(sentence)
        or _FOREIGN_COUNTER.search(sentence) is not None
        or _english_counter(sentence)
    )


# A kind claim doubted: "I don't think Muslims deserve respect", "I don't believe gay people
# are normal" deny the kindness, not hostility (not "I don't think it's okay to mock them").
_DOUBTING = screened(
    r"\bi (?:don'?t|do not|never|would never|will never|'d never|wouldn'?t ever) (?:think|"
    r"believe|agree)$"
)
_KIND_CLAIM = screened(
    r"\b(?:deserves? (?:any |the same |equal )?(?:respect|rights|to live|to exist|a voice|dignity|"
    r"freedom|kindness|to be here)|should (?:have|get|be given) (?:the same |equal )?rights)\b|"
    r"^\s*(?:that\s+)?(?!(?:it|that|this|there)\b)\w+(?:\s+\w+)?\s+(?:are|is|should be)\s+"
    r"(?:\w+\s+)?(?:normal|natural|equal|equals|human|humans|people too|valid|smart|capable|decent|"
    r"innocent|peaceful|harmless|welcome|intelligent|okay|ok|fine|acceptable|alright|all right)\b"
)


def _kind_claim_doubted(sentence: str, match: re.Match[str]) -> bool:
    if not _DOUBTING.search(match.group(0)):
        return False
    rest = sentence[match.end() :]
    return _KIND_CLAIM.search(rest) is not None and not _speaks_ill(rest)


def _english_counter(sentence: str) -> bool:
    return any(
        _said_of_speech(sentence, m)
        and not _good_called_false(m.group(0))
        and not _kind_claim_doubted(sentence, m)
        and not _turns_hostile(sentence, m.end())
        and not _CONCEDED.search(sentence, m.end())
        for m in _COUNTER.finditer(sentence)
    )


# A claim called false that speaks well of people: "saying gay people are normal is nonsense"
# refutes no hostility.
_CALLED_FALSE = screened(
    r"\b(?:bullshit|nonsense|false|a lie|lies|absurd|ridiculous|untrue|baseless|debunked|"
    r"rubbish|propaganda)\W*$"
)
_GOOD_SAID = screened(
    r"\b(?:normal|natural|equal|equals|human|humans|people too|valid|fine|okay|ok|good|smart|"
    r"capable|decent|innocent|peaceful|harmless|welcome)\b"
)


def _good_called_false(counter: str) -> bool:
    return bool(
        _CALLED_FALSE.search(counter)
        and (_GOOD_SAID.search(counter) or _SUPPORT.search(counter))
        and not _speaks_ill(counter)
    )


# A condemnation taken back: "..., a horrible thing to say but true".
_CONCEDED = screened(
    rf"{_TURN_WORDS}[^.!?]{{0,20}}?\b(?:true|correct|accurate|a fact|facts|the truth|i agree|"
    r"(?:it'?s|they'?re|he'?s|she'?s) right)\b"
)


def _turns_hostile(sentence: str, index: int) -> bool:
    turn = TURN.search(sentence, index)
    if turn is None:
        return False
    tail = sentence[turn.end() :]
    if not (names_a_group(tail) or _THEM.search(tail)):
        return False  # "I don't hate Muslims, but I do hate terrorism"
    return any(
        not negated_before(tail, m.start())
        for pattern in (_HOSTILE, _VICE)
        for m in pattern.finditer(tail)
    )


# Vices imputed to a group after a turn: "..., but they are all thieves".
_VICE = screened(
    r"\b(?:thieves|criminals|terrorists|rapists|liars|cheats|savages|degenerates|perverts|"
    r"greedy|lazy|dirty|stupid|dangerous|violent)\b"
)


def _speaks_ill(text: str, start: int = 0) -> bool:
    """A hostile word or an imputed vice stands in `text` from `start` on."""
    return bool(_HOSTILE.search(text, start) or _VICE.search(text, start))


_THEM = screened(r"\b(?:they|them|those people|these people|their kind)\b")


_NOT_TO_BE = screened(r"(?:should|must) (?:never|not) be ")
# Words, acts and attitudes, which "should not be tolerated" can be said of.
_SPEECH_NOUN = screened(
    r"\b(?:jokes?|comments?|remarks?|statements?|claims?|ideas?|views?|opinions?|words?|slurs?|"
    r"terms?|names|language|rhetoric|posts?|tweets?|messages?|stereotypes?|lies?|talk|speech|"
    r"attitudes?|behaviou?r|racism|sexism|homophobia|transphobia|bigotry|antisemitism|"
    r"islamophobia|xenophobia|ableism|misogyny|hatred|discrimination|abuse|harassment|"
    r"violence|attacks?|calling|saying|mocking|bullying|insulting|treating)\b"
)


# What "it is wrong" can be said of that is who people are, not what they do or say: "it is
# wrong to be gay" condemns people, not hostility.
_TO_BE_SOMEONE = screened(
    r"\s*(?:to be|being)\s+(?:a\s+|an\s+)?(?:\w+\s+)?" + lexicon.IDENTITY_RE.pattern
)


def _said_of_speech(sentence: str, match: re.Match[str]) -> bool:
    """A counter-speech match, unless it is "should not be accepted" said of a group of people
    rather than of words or acts ("racism should not be tolerated"), or a condemnation of who
    people are ("it is wrong to be gay")."""
    # ("I don't think being gay is wrong" denies the condemnation that follows.)
    if _TO_BE_SOMEONE.match(sentence, match.end()) and not _DOUBTING.search(match.group(0)):
        return False
    if not _NOT_TO_BE.match(match.group(0)):
        return True
    subject = clause_before(sentence, match.start())
    return not names_a_group(subject) or bool(_SPEECH_NOUN.search(subject))


def reporting(sentence: str) -> bool:
    return bool(_REPORTING.search(sentence))
