"""The catalogue of Tiberpunk's components: districts, structures, gadgets, abilities, quest,
challenge and side objective cards, with names, rules texts and whether each is authored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.core.face import (
    Catalogue,
    ContentItem,
)
from games.tiberpunk.content import (
    ABILITY_KINDS,
    CONDITIONS,
    GADGETS,
    GODS,
    ITYPES,
    REWARDS,
    SITE_TASKS,
    SKILLS,
    TARGETS,
    TASKS,
    TEMPLATES,
    Content,
)
from games.tiberpunk.snapshot import (
    MINI_WORDS,
    and_words,
    dice_text,
    face_texts,
    gadget_name,
    god_name,
    pack_of,
    plural,
    rules_of,
    task_name,
)
from games.tiberpunk.state import (
    CHAR,
    LICTOR,
)

if TYPE_CHECKING:
    from games.tiberpunk.game import TiberpunkGame

__all__ = ["catalogue", "reward_text", "stage2_text"]


# ---------------------------------------------------------------------------- the catalogue
def reward_text(kind: int, skills_mask: int) -> str:
    t = face_texts()["rewards"][REWARDS[kind]]
    return str(t).format(skills=and_words([SKILLS[k] for k in range(3) if (skills_mask >> k) & 1], "or"))


def stage2_text(c: Content, i: int) -> str:
    card = c.stage2[i]
    tpl = TEMPLATES[card.template]
    where = f" in district {c.district_ids[card.district]}" if card.district >= 0 else ""
    target = {
        "character": "a character",
        "drone": "a drone",
        "lictor": "a lictor",
        "any": "a character, a drone or a lictor",
    }
    text = str(face_texts()["stage2_templates"][tpl]).format(
        district=c.district_ids[card.district] if card.district >= 0 else "",
        count=card.count,
        gadgets=plural(card.count, "gadget card"),
        blessings=plural(card.count, "blessing tile"),
        target=target[TARGETS[card.target]] if card.target >= 0 else "",
        where=where,
    )
    return text


def _district_items(game: TiberpunkGame) -> list[ContentItem]:
    """The districts of the map with their borders and structures (authored map)."""
    c = pack_of(game)
    ids = c.district_ids
    items: list[ContentItem] = []
    for d, did in enumerate(ids):
        nbrs = [ids[x] for x in rules_of(game).board.neighbors[d]]
        extras = []
        if d in c.hubs:
            extras.append("an upgrade hub")
        for g, pair in enumerate(c.temples):
            if d in pair:
                other = ids[pair[1] if pair[0] == d else pair[0]]
                extras.append(f"the Temple of {god_name(g)} (on the border with {other})")
        for k, site in enumerate(c.sites):
            if site == d:
                extras.append(f"the site of '{task_name(TASKS.index(SITE_TASKS[k]))}'")
        text = f"Borders {and_words(nbrs)}." + (f" Holds {and_words(extras)}." if extras else "")
        items.append(
            ContentItem(
                id=did,
                kind="district",
                name=c.district_names[d],
                text=text,
                values={
                    "neighbours": nbrs,
                    "upgrade hub": d in c.hubs,
                    "lictor at setup": d in c.lictor_start,
                },
                authored=c.authored,
            )
        )
    return items


def _component_items(c: Content) -> list[ContentItem]:
    """Miniatures, gods, gadgets, spaceship cards, interactions, combat tiles and ability tiles."""
    return [*_piece_items(c), *_rule_items(c)]


def _piece_items(c: Content) -> list[ContentItem]:
    """Miniatures, gods and gadget cards."""
    tx = face_texts()
    ids = c.district_ids
    items: list[ContentItem] = []
    for m, word in enumerate(MINI_WORDS):
        rng = "1 district" if m == CHAR else "up to 2 districts"
        items.append(
            ContentItem(
                id=word,
                kind="miniature",
                name=word.capitalize(),
                text=f"Movement range: {rng}; +1 district per coin paid (rule: movement).",
                values={"range": 1 if m == CHAR else 2, "in the box": c.lictors_total if m == LICTOR else 4},
            )
        )
    for g, god in enumerate(GODS):
        t = tx["gods"][god]
        pair = c.temples[g]
        items.append(
            ContentItem(
                id=god,
                kind="god",
                name=str(t["name"]),
                text=f"Basic favor: {t['basic']} Blessed favor: {t['blessed']}",
                values={"temple": [ids[pair[0]], ids[pair[1]]], "blessing tiles": c.blessings_per_god},
            )
        )
    for g, name in enumerate(GADGETS):
        items.append(
            ContentItem(
                id=name,
                kind="gadget card",
                name=gadget_name(g),
                text=str(tx["gadgets"][name]["text"]),
                values={"copies": c.gadget_deck.count(g)},
            )
        )
    return items


def _rule_items(c: Content) -> list[ContentItem]:
    """Spaceship cards, interactions, combat tiles and ability tiles."""
    tx = face_texts()
    items: list[ContentItem] = []
    for it in c.ship_types:
        items.append(
            ContentItem(
                id=ITYPES[it],
                kind="spaceship card",
                name=f"Spaceship card: {ITYPES[it]}",
                text=f"Discard it to perform a movement or the {ITYPES[it]} interaction; then place a "
                "lictor from the reserve. One per turn, not on the turn you take it.",
                values={"copies": c.ships_per_type},
            )
        )
    for word in ITYPES:
        items.append(
            ContentItem(
                id=word,
                kind="interaction",
                name=f"{word.capitalize()} interaction",
                text=str(tx["interactions"][word]["text"]),
            )
        )
    for cond in CONDITIONS:
        items.append(
            ContentItem(
                id=cond,
                kind="combat tile side",
                name=str(tx["combat_tiles"][cond]["name"]),
                text="Both sides roll; the side with more dice matching this condition wins the "
                "combat; on a tie the defender (or the lictor) wins.",
            )
        )
    for ab in c.abilities:
        items.append(
            ContentItem(
                id=ab.id,
                kind="ability tile",
                name=ab.name,
                text=str(tx["abilities"].get(ab.id, ABILITY_KINDS[ab.kind])),
                values={"level": ab.level},
            )
        )
    return items


def _card_items(c: Content) -> list[ContentItem]:
    """Quest cards (stages I-III), challenge cards and side objective cards (authored texts)."""
    return [*_quest_items(c), *_challenge_and_side_items(c)]


def _quest_items(c: Content) -> list[ContentItem]:
    """The quest cards of stages I, II and III, by Stage I card (authored texts)."""
    tx = face_texts()
    ids = c.district_ids
    items: list[ContentItem] = []
    for i, q in enumerate(c.stage1):
        who = str(tx["skills"][SKILLS[q.skill]]["miniatures"])
        items.append(
            ContentItem(
                id=str(q.id),
                kind="Stage I quest card",
                name=f"{SKILLS[q.skill].capitalize()} quest {q.id}",
                text=f"Quest marker in district {ids[q.district]}; your {who} there reveals a Stage I "
                f"challenge card and rolls {SKILLS[q.skill]} dice. Reward: 2 coins and "
                f"{reward_text(0, q.reward)}.",
                values={"skill": SKILLS[q.skill], "district": ids[q.district]},
                authored=c.authored,
            )
        )
        items.append(
            ContentItem(
                id=str(q.id),
                kind="Stage II quest card",
                name=f"{SKILLS[q.skill].capitalize()} quest {q.id}, Stage II",
                text=f"{stage2_text(c, i)} Reward: 2 coins and {reward_text(0, c.stage2[i].reward)}.",
                values={"skill": SKILLS[q.skill], "template": TEMPLATES[c.stage2[i].template]},
                authored=c.authored,
            )
        )
        q3 = c.stage3[i]
        items.append(
            ContentItem(
                id=str(q.id),
                kind="Stage III quest card",
                name=f"{SKILLS[q.skill].capitalize()} quest {q.id}, Stage III",
                text=f"Your {who} in district {ids[q3.district]} reveals a Stage III challenge card. "
                f"Reward: 2 coins and {reward_text(0, q3.reward)}.",
                values={"skill": SKILLS[q.skill], "district": ids[q3.district]},
                authored=c.authored,
            )
        )
    return items


def _challenge_and_side_items(c: Content) -> list[ContentItem]:
    """Challenge cards (stages I and III) and side objective cards (authored texts)."""
    items: list[ContentItem] = []
    for stage, cards in ((1, c.challenges1), (3, c.challenges3)):
        for i, need in enumerate(cards):
            items.append(
                ContentItem(
                    id=str(i + 1),
                    kind=f"Stage {'I' if stage == 1 else 'III'} challenge card",
                    name=f"Roll {dice_text(need)}",
                    text=f"The rolled dice must show {dice_text(need)}.",
                    values={"values": list(need)},
                    authored=c.authored,
                )
            )
    for sc in c.side_cards:
        tasks = [
            f"{task_name(t.kind)} ({_task_text(c, t.kind)}) — reward: {reward_text(t.reward, t.skills)}"
            for t in sc.tasks
        ]
        items.append(
            ContentItem(
                id=sc.id,
                kind="side objective card",
                name=f"Side objective {sc.id}",
                text="; ".join(tasks) + ".",
                values={"players": sc.players, "tasks": [TASKS[t.kind] for t in sc.tasks]},
                authored=c.authored,
            )
        )
    return items


def catalogue(game: TiberpunkGame) -> Catalogue:
    """Every component a person sees, with names and rules texts; authored items marked.

    rulebook: tiberpunk/general-setup (the components), tiberpunk/gadget-cards, tiberpunk/divine-favor
    """
    c = pack_of(game)
    items = [*_district_items(game), *_component_items(c), *_card_items(c)]
    return Catalogue(
        game="tiberpunk",
        version=c.version,
        items=tuple(items),
        notes="The rulebook prints no map and no card texts: the districts, quest cards, challenge "
        "cards, side objective cards and the map drawing are authored in games/tiberpunk/content/ "
        "(see docs/tiberpunk.md); gadget, favor, task and ability texts are the rulebook's.",
    )


def _task_text(c: Content, kind: int) -> str:
    name = TASKS[kind]
    district = c.district_ids[c.sites[SITE_TASKS.index(name)]] if name in SITE_TASKS else ""
    return str(face_texts()["tasks"][name]["text"]).format(district=district).rstrip(".")
