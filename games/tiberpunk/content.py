"""The Tiberpunk content pack: the authored data the rulebook does not print, loaded and validated.

The rulebook gives component counts but no map and no card texts. The reference pack in
``games/tiberpunk/content/`` authors them (see docs/tiberpunk.md); a user's pack with the same files
replaces it via ``content_path``. Every file is validated on load: a bad pack raises
:class:`~games.errors.ContentError` naming the file and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from games.core.content import Node, load_json, load_manifest, resolve_pack_dir
from games.errors import ContentError

__all__ = [
    "ABILITY_KINDS",
    "CONDITIONS",
    "GADGETS",
    "GODS",
    "ITYPES",
    "REWARDS",
    "SKILLS",
    "TASKS",
    "TEMPLATES",
    "Ability",
    "Content",
    "SideCard",
    "SideTask",
    "Stage1Card",
    "Stage2Card",
    "Stage3Card",
    "load_content",
]

SKILLS = ("hacking", "guile", "offense")
GODS = ("mercury", "stellar-ark", "juno", "emperors-genius")
GADGETS = ("reroll", "add-die", "rotate1", "rotate2", "flip")
ITYPES = ("spaceship", "character", "structure", "drone")
CONDITIONS = ("odd", "even", "identical", "consecutive")
TASKS = (
    "defeat-character",
    "defeat-drone",
    "defeat-lictor",
    "network",
    "supply",
    "devotion",
    "priests",
    "senator",
    "mastery",
    "merchants",
)
SITE_TASKS = ("priests", "senator", "mastery", "merchants")
REWARDS = ("skill", "coins", "spaceship", "gadget", "boost")
TEMPLATES = ("deliver", "relay", "infiltrate", "shadow", "gadgets", "spaceship", "blessings", "defeat")
TARGETS = ("character", "drone", "lictor", "any")
ABILITY_KINDS = ("recharge", "token", "mirror-code", "street-support", "rebooter")
FILES = (
    "board.json",
    "player_board.json",
    "quests.json",
    "challenges.json",
    "components.json",
    "objectives.json",
    "abilities.json",
)


@dataclass(frozen=True, slots=True)
class Stage1Card:
    """A Stage I quest card (face up, shared).

    Attributes:
        id: the printed number; Stage II and III cards with the same number continue it.
        skill: the storyline skill (index into SKILLS).
        district: where its quest marker stands.
        reward: bit mask of the skills the reward may upgrade.
    """

    id: int
    skill: int
    district: int
    reward: int


@dataclass(frozen=True, slots=True)
class Stage2Card:
    """A Stage II quest card, as a data-driven template.

    Attributes:
        id: the printed number (matches its Stage I card).
        skill: the storyline skill.
        template: index into TEMPLATES.
        district: the district it needs (-1: any).
        count: the template's number (gadgets or spaceship cards to discard, blessings to hold,
            minimum drone-character distance).
        target: for ``defeat``, index into TARGETS (3 = any); else -1.
        reward: bit mask of the skills the reward may upgrade.
    """

    id: int
    skill: int
    template: int
    district: int
    count: int
    target: int
    reward: int


@dataclass(frozen=True, slots=True)
class Stage3Card:
    """A Stage III quest card.

    Attributes:
        id: the printed number.
        skill: the storyline skill.
        district: where the required miniature must be.
        reward: bit mask of the skills the reward may upgrade.
    """

    id: int
    skill: int
    district: int
    reward: int


@dataclass(frozen=True, slots=True)
class SideTask:
    """One of the three tasks of a side objective card.

    Attributes:
        kind: index into TASKS.
        reward: index into REWARDS.
        skills: for a skill reward, the mask of indicated skills (else 0).
    """

    kind: int
    reward: int
    skills: int


@dataclass(frozen=True, slots=True)
class SideCard:
    """A side objective card.

    Attributes:
        id: its printed id ("1".."6" for 2 players, "1A".."3B" for 3-4 players).
        players: "2" or "3-4".
        tasks: its three tasks.
    """

    id: str
    players: str
    tasks: tuple[SideTask, ...]


@dataclass(frozen=True, slots=True)
class Ability:
    """A Personal Abilities module tile.

    Attributes:
        id: short id used in notation.
        name: printed name.
        level: "easy" or "medium".
        kind: index into ABILITY_KINDS.
        replace: for token abilities, the interaction type whose token is replaced (else -1).
        mask: for token abilities, the interaction types (bit mask) of the new token.
        costs: for the rebooter, the coin cost of each use.
    """

    id: str
    name: str
    level: str
    kind: int
    replace: int
    mask: int
    costs: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Content:
    """A validated content pack.

    Attributes:
        name: pack name.
        version: pack version.
        authored: True when authored by Lictor (not printed in the rulebook).
        district_ids: district ids ("I".."XII"), by index.
        district_names: their names.
        edges: adjacency as index pairs.
        lictors_total: lictor miniatures in the game.
        lictor_start: districts of the lictors placed at setup.
        temples: per god (GODS order), the two districts the temple borders.
        hubs: upgrade hub districts.
        sites: per SITE_TASKS entry, its district.
        favor_track: god indices around the favor track (adjacent entries are adjacent segments,
            cyclically).
        combat_tiles: two tiles, each with its two sides (CONDITIONS indices).
        levels: per skill, the dice of each track slot.
        costs: per skill, the coin cost of moving into each slot.
        start_slot: per skill, the starting slot.
        income: coins of each income track space (index = influence markers placed).
        influence_markers: influence markers per player.
        start_coins: coins each player starts with.
        start_gadgets: gadgets each player draws at setup.
        end_tokens: triumph tokens on a player board (placing the last triggers the end).
        temple_cost: coins of a temple offering.
        gadget_cost: coins of a gadget in an upgrade hub.
        bank: total coin value in the box.
        gadget_deck: the gadget cards (GADGETS indices), one entry per card.
        ship_types: per spaceship card type, the interaction it shows (ITYPES index).
        ships_per_type: spaceship cards of each type.
        blessings_per_god: blessing tiles of each god.
        stage1: Stage I cards by index (card numbers in ``id``).
        stage2: Stage II cards, same index as their Stage I card.
        stage3: Stage III cards, same index.
        challenges1: Stage I challenge cards (required dice values, sorted).
        challenges3: Stage III challenge cards.
        side_cards: side objective cards.
        scenarios: per player group ("2", "3-4"), scenario name -> side card indices.
        abilities: ability tiles.
    """

    name: str
    version: str
    authored: bool
    district_ids: tuple[str, ...]
    district_names: tuple[str, ...]
    edges: tuple[tuple[int, int], ...]
    lictors_total: int
    lictor_start: tuple[int, ...]
    temples: tuple[tuple[int, int], ...]
    hubs: tuple[int, ...]
    sites: tuple[int, ...]
    favor_track: tuple[int, ...]
    combat_tiles: tuple[tuple[int, int], ...]
    levels: tuple[tuple[int, ...], ...]
    costs: tuple[tuple[int, ...], ...]
    start_slot: tuple[int, ...]
    income: tuple[int, ...]
    influence_markers: int
    start_coins: int
    start_gadgets: int
    end_tokens: int
    temple_cost: int
    gadget_cost: int
    bank: int
    gadget_deck: tuple[int, ...]
    ship_types: tuple[int, ...]
    ships_per_type: int
    blessings_per_god: int
    stage1: tuple[Stage1Card, ...]
    stage2: tuple[Stage2Card, ...]
    stage3: tuple[Stage3Card, ...]
    challenges1: tuple[tuple[int, ...], ...]
    challenges3: tuple[tuple[int, ...], ...]
    side_cards: tuple[SideCard, ...]
    scenarios: dict[str, dict[str, tuple[int, ...]]]
    abilities: tuple[Ability, ...]


def _mask(names: list[str]) -> int:
    m = 0
    for s in names:
        m |= 1 << SKILLS.index(s)
    return m


def _district(node: Node, key: str | int | None, ids: tuple[str, ...]) -> int:
    d = node.str(choices=ids) if key is None else node[key].str(choices=ids)
    return ids.index(d)


def _check_connected(node: Node, edges: list[tuple[int, int]], size: int) -> None:
    """Every district reachable from the first over ``edges`` (ContentError naming ``edges`` if not)."""
    seen, todo = {0}, [0]
    while todo:
        x = todo.pop()
        for a, b in edges:
            for u, v in ((a, b), (b, a)):
                if u == x and v not in seen:
                    seen.add(v)
                    todo.append(v)
    if len(seen) != size:
        raise node.fail("a connected map (every district reachable)", key="edges")


def _board(node: Node) -> dict[str, object]:
    dnodes = node.list("districts", min_len=2, max_len=15)
    ids = tuple(d.str("id") for d in dnodes)
    if len(set(ids)) != len(ids):
        raise node.fail("unique district ids", key="districts", got=list(ids))
    names = tuple(d.str("name") for d in dnodes)
    edges = []
    for e in node.list("edges", min_len=1):
        pair = e.list(min_len=2, max_len=2)
        a, b = _district(pair[0], None, ids), _district(pair[1], None, ids)
        if a == b:
            raise e.fail("an edge between two different districts", got=e.value)
        edges.append((min(a, b), max(a, b)))
    adj = {frozenset(x) for x in edges}
    _check_connected(node, edges, len(ids))
    lic = node["lictors"]
    total = lic.int("total", min=1, max=10)
    start = tuple(_district(n, None, ids) for n in lic.list("start", min_len=1, max_len=total))
    temples: list[tuple[int, int] | None] = [None] * len(GODS)
    for t in node.list("temples", min_len=len(GODS), max_len=len(GODS)):
        g = GODS.index(t.str("god", choices=GODS))
        pair = t.list("districts", min_len=2, max_len=2)
        a, b = _district(pair[0], None, ids), _district(pair[1], None, ids)
        if frozenset((a, b)) not in adj:
            raise t.fail("a temple on the border of two adjacent districts", key="districts", got=t.value)
        if temples[g] is not None:
            raise t.fail("one temple per god", key="god", got=t["god"].value)
        temples[g] = (a, b)
    hubs = tuple(_district(h, None, ids) for h in node.list("hubs", min_len=3))
    if len(set(hubs)) != len(hubs):
        raise node.fail("distinct hub districts", key="hubs", got=node["hubs"].value)
    sites_node = node["sites"]
    sites = tuple(_district(sites_node, s, ids) for s in SITE_TASKS)
    track = tuple(GODS.index(g) for g in node.str_list("favor_track", choices=GODS))
    if sorted(track) != list(range(len(GODS))):
        raise node.fail("each god once on the favor track", key="favor_track", got=node["favor_track"].value)
    tiles = []
    for t in node.list("combat_tiles", min_len=2, max_len=2):
        sides = t.str_list(choices=CONDITIONS)
        if len(sides) != 2:
            raise t.fail("two sides", got=t.value)
        tiles.append((CONDITIONS.index(sides[0]), CONDITIONS.index(sides[1])))
    return {
        "district_ids": ids,
        "district_names": names,
        "edges": tuple(sorted(set(edges))),
        "lictors_total": total,
        "lictor_start": start,
        "temples": tuple(t for t in temples if t is not None),
        "hubs": hubs,
        "sites": sites,
        "favor_track": track,
        "combat_tiles": tuple(tiles),
    }


def _player_board(node: Node) -> dict[str, object]:
    tracks = node["skill_tracks"]
    levels, costs, starts = [], [], []
    for s in SKILLS:
        t = tracks[s]
        lv = t.int_list("levels", min=0, max=8)
        cs = t.int_list("costs", min=0, max=20)
        if len(lv) < 2 or len(cs) != len(lv):
            raise t.fail("levels and costs of equal length >= 2", got=t.value)
        levels.append(tuple(lv))
        costs.append(tuple(cs))
        starts.append(t.int("start", min=0, max=len(lv) - 1))
    markers = node.int("influence_markers", min=1, max=10)
    income = tuple(node.int_list("income_track", min=0, max=20))
    if len(income) != markers + 1:
        raise node.fail(
            f"{markers + 1} income spaces (one per influence marker, plus one)", key="income_track"
        )
    return {
        "levels": tuple(levels),
        "costs": tuple(costs),
        "start_slot": tuple(starts),
        "income": income,
        "influence_markers": markers,
        "start_coins": node.int("start_coins", min=0, max=50),
        "start_gadgets": node.int("start_gadgets", min=0, max=3),
        "end_tokens": node.int("triumph_tokens", min=1, max=20),
        "temple_cost": node.int("temple_cost", min=0, max=20),
        "gadget_cost": node.int("gadget_cost", min=0, max=20),
        "bank": node.int("bank_coins", min=10, max=1000),
    }


def _stage1(node: Node, s1n: list[Node], ids: tuple[str, ...]) -> list[Stage1Card]:
    """The Stage I quest cards: 18 distinct numbers, 6 per skill, each with a reward."""
    stage1 = []
    for q in s1n:
        stage1.append(
            Stage1Card(
                id=q.int("id", min=1),
                skill=SKILLS.index(q.str("skill", choices=SKILLS)),
                district=_district(q, "district", ids),
                reward=_mask(q.str_list("reward", choices=SKILLS)),
            )
        )
        if not stage1[-1].reward:
            raise q.fail("at least one reward skill", key="reward")
    numbers = [c.id for c in stage1]
    if len(set(numbers)) != 18:
        raise node.fail("18 distinct Stage I card numbers", key="stage1", got=numbers)
    for s in range(3):
        if sum(c.skill == s for c in stage1) != 6:
            raise node.fail(f"6 Stage I cards of {SKILLS[s]}", key="stage1")
    return stage1


def _quests(node: Node, ids: tuple[str, ...]) -> dict[str, object]:
    s1n = node.list("stage1", min_len=18, max_len=18)
    s2n = node.list("stage2", min_len=18, max_len=18)
    s3n = node.list("stage3", min_len=18, max_len=18)
    stage1 = _stage1(node, s1n, ids)
    stage2, stage3 = [], []
    by_id2 = {}
    for q in s2n:
        num = q.int("id", min=1)
        skill = SKILLS.index(q.str("skill", choices=SKILLS))
        tmpl = TEMPLATES.index(q.str("template", choices=TEMPLATES))
        allowed = {0: (0, 1, 2, 3), 1: (4, 5, 6), 2: (7,)}[skill]
        if tmpl not in allowed:
            raise q.fail(
                f"a {SKILLS[skill]} template: {[TEMPLATES[t] for t in allowed]}",
                key="template",
                got=TEMPLATES[tmpl],
            )
        district = _district(q, "district", ids) if q.has("district") else -1
        if tmpl in (0, 4, 5, 6) and district < 0:
            raise q.fail("a district for this template", key="district")
        count = q.int("count", min=1, max=6) if q.has("count") else 1
        target = TARGETS.index(q.str("target", choices=TARGETS)) if tmpl == 7 else -1
        by_id2[num] = (q, skill, tmpl, district, count, target, _mask(q.str_list("reward", choices=SKILLS)))
    by_id3 = {}
    for q in s3n:
        num = q.int("id", min=1)
        by_id3[num] = (
            SKILLS.index(q.str("skill", choices=SKILLS)),
            _district(q, "district", ids),
            _mask(q.str_list("reward", choices=SKILLS)),
        )
    for c, q in zip(stage1, s1n, strict=True):
        if c.id not in by_id2:
            raise ContentError(f"expected a stage II card numbered {c.id}", file=q.file, field="stage2")
        q2, skill, tmpl, district, count, target, reward = by_id2[c.id]
        if skill != c.skill:
            raise q2.fail(f"the skill of Stage I card {c.id} ({SKILLS[c.skill]})", key="skill")
        stage2.append(Stage2Card(c.id, skill, tmpl, district, count, target, reward))
        if c.id not in by_id3:
            raise ContentError(f"expected a stage III card numbered {c.id}", file=q.file, field="stage3")
        sk3, d3, r3 = by_id3[c.id]
        if sk3 != c.skill:
            raise ContentError(
                f"expected stage III card {c.id} of skill {SKILLS[c.skill]}", file=q.file, field="stage3"
            )
        stage3.append(Stage3Card(c.id, sk3, d3, r3))
    return {"stage1": tuple(stage1), "stage2": tuple(stage2), "stage3": tuple(stage3)}


def _challenges(node: Node) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, lo, hi in (("stage1", 1, 2), ("stage3", 3, 6)):
        cards = []
        for c in node.list(key, min_len=14, max_len=14):
            vals = c.int_list(min=1, max=6)
            if not lo <= len(vals) <= hi:
                raise c.fail(f"{lo} to {hi} required dice values", got=c.value)
            cards.append(tuple(sorted(vals)))
        out["challenges1" if key == "stage1" else "challenges3"] = tuple(cards)
    return out


def _components(node: Node) -> dict[str, object]:
    g = node["gadgets"]
    deck: list[int] = []
    for i, name in enumerate(GADGETS):
        deck += [i] * g.int(name, min=0, max=25)
    if len(deck) != 25:
        raise node.fail("25 gadget cards", key="gadgets", got=len(deck))
    s = node["spaceship_cards"]
    types = []
    per = -1
    for key, _ in s.items():
        if key not in ITYPES:
            raise s.fail(f"an interaction type, one of {list(ITYPES)}", key=key, got=key)
        types.append(ITYPES.index(key))
        count = s.int(key, min=1, max=18)
        if per not in (-1, count):
            raise s.fail("the same number of cards of each type", key=key, got=count)
        per = count
    if len(types) != 3 or per * 3 != 18:
        raise node.fail("18 spaceship cards, 6 of each of 3 types", key="spaceship_cards")
    return {
        "gadget_deck": tuple(deck),
        "ship_types": tuple(types),
        "ships_per_type": per,
        "blessings_per_god": node.int("blessings_per_god", min=4, max=4),
    }


def _objectives(node: Node) -> dict[str, object]:
    story = node.str_list("storyline", choices=SKILLS)
    if story != list(SKILLS):
        raise node.fail(f"the storyline cards {list(SKILLS)}", key="storyline", got=story)
    cards = []
    for c in node.list("side", min_len=1):
        tasks = []
        for t in c.list("tasks", min_len=3, max_len=3):
            reward = REWARDS.index(t.str("reward", choices=REWARDS))
            skills = _mask(t.str_list("skills", choices=SKILLS)) if reward == 0 else 0
            if reward == 0 and not skills:
                raise t.fail("indicated skills for a skill reward", key="skills")
            tasks.append(SideTask(TASKS.index(t.str("task", choices=TASKS)), reward, skills))
        cards.append(SideCard(c.str("id"), c.str("players", choices=("2", "3-4")), tuple(tasks)))
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise node.fail("unique side card ids", key="side", got=ids)
    scenarios: dict[str, dict[str, tuple[int, ...]]] = {}
    sc = node["scenarios"]
    for group in ("2", "3-4"):
        want = 1 if group == "2" else 2
        scenarios[group] = {}
        for name, lst in sc[group].items():
            chosen = lst.str_list(choices=[c.id for c in cards if c.players == group])
            if len(chosen) != want or len(set(chosen)) != want:
                raise lst.fail(f"{want} distinct side card(s) for {group} players", got=chosen)
            scenarios[group][name] = tuple(ids.index(x) for x in chosen)
        if "basic" not in scenarios[group]:
            raise sc[group].fail("a 'basic' scenario", key="basic")
    return {"side_cards": tuple(cards), "scenarios": scenarios}


def _abilities(node: Node) -> dict[str, object]:
    tiles = []
    for t in node.list("tiles", min_len=8, max_len=8):
        kind = ABILITY_KINDS.index(t.str("kind", choices=ABILITY_KINDS))
        replace, mask = -1, 0
        costs: tuple[int, ...] = ()
        if kind == 1:
            replace = ITYPES.index(t.str("replace", choices=ITYPES))
            for it in t.str_list("with", choices=ITYPES):
                mask |= 1 << ITYPES.index(it)
            if not (mask >> replace) & 1 or bin(mask).count("1") != 2:
                raise t.fail("two interaction types including the replaced one", key="with")
        if kind == 4:
            costs = tuple(t.int_list("costs", min=0, max=20))
            if not costs:
                raise t.fail("at least one cost", key="costs")
        tiles.append(
            Ability(
                id=t.str("id"),
                name=t.str("name"),
                level=t.str("level", choices=("easy", "medium")),
                kind=kind,
                replace=replace,
                mask=mask,
                costs=costs,
            )
        )
    return {"abilities": tuple(tiles)}


def load_content(content_path: str = "") -> Content:
    """Load and validate a pack (the reference pack when ``content_path`` is empty)."""
    directory: Path = resolve_pack_dir("games.tiberpunk", content_path)
    manifest = load_manifest(directory)
    parts: dict[str, object] = {}
    board = _board(load_json(directory / "board.json"))
    parts.update(board)
    ids = board["district_ids"]
    assert isinstance(ids, tuple)
    parts.update(_player_board(load_json(directory / "player_board.json")))
    parts.update(_quests(load_json(directory / "quests.json"), ids))
    parts.update(_challenges(load_json(directory / "challenges.json")))
    parts.update(_components(load_json(directory / "components.json")))
    parts.update(_objectives(load_json(directory / "objectives.json")))
    parts.update(_abilities(load_json(directory / "abilities.json")))
    return Content(name=manifest.name, version=manifest.version, authored=manifest.authored, **parts)  # type: ignore[arg-type]
