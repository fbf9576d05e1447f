"""The CyberVerse reference content pack: the card and token data the rulebook does not print.

The rulebook (``cyberverse-new-eden.md``) prints the rules, the component counts and a few names
and numbers in its examples (Q-Bert Cav-X, Alena Sigurov's Combat 4, Initiative 5/8/22, the
Marauder and the Killer, El Duque, the Super Vagabond at 800 D, Corpo Fashion Clothes at 500 D,
Independence Plaza, Fargo Junction), but not the agent sheets, support cards, events, story and
investigation cards, supply tokens, henchmen, ambush, brawl and combat-token data, nor the district
boards' zones. The reference pack in ``games/cyberverse/content/`` authors them (every item
``"authored": true``); a user's pack with the same files replaces it (``content_path``). Every file
is validated on load: a bad pack raises :class:`~games.errors.ContentError` naming the file and the
field. The component counts the rulebook prints (rule: cyberverse/components) are enforced. The
records a pack is loaded into, and the closed vocabularies, are in ``components.py``.

Effects are data from closed vocabularies (``SKILLS``, ``GEAR_KINDS``, ``SUPPORT_EFFECTS``,
``EVENT_EFFECTS``, ``EVENT_REWARDS``, ``AMBUSH_EFFECTS``, ``WEAPON_EFFECTS``, ``TOKEN_EFFECTS``):
the rules code implements each word once; a pack chooses which card carries which."""

from __future__ import annotations

from collections import deque
from pathlib import Path

from games.core.content import Node, load_json, load_manifest, resolve_pack_dir
from games.cyberverse.components import (
    AMBUSH_EFFECTS,
    ANALYSIS,
    CATEGORIES,
    COLOURS,
    COMBAT,
    EVENT_EFFECTS,
    EVENT_REWARDS,
    FEATURES,
    GEAR,
    GEAR_KINDS,
    HACKING,
    IMPLANT,
    MISSION_KINDS,
    MOVEMENT,
    POSITION_KINDS,
    PRINTED_COUNTS,
    REPUTATION,
    SKILLS,
    STATUSES,
    SUPPORT_EFFECTS,
    TOKEN_EFFECTS,
    VEHICLE,
    WEAPON,
    WEAPON_EFFECTS,
    AgentFace,
    AmbushCard,
    Board,
    BrawlCard,
    CombatToken,
    Content,
    EventCard,
    HenchmanCard,
    InvestigationCard,
    Mission,
    Organisation,
    StoryCard,
    SupplyToken,
    SupportCard,
)
from games.errors import ContentError

__all__ = [
    "AMBUSH_EFFECTS",
    "ANALYSIS",
    "CATEGORIES",
    "COLOURS",
    "COMBAT",
    "EVENT_EFFECTS",
    "EVENT_REWARDS",
    "FEATURES",
    "GEAR",
    "GEAR_KINDS",
    "HACKING",
    "IMPLANT",
    "MISSION_KINDS",
    "MOVEMENT",
    "POSITION_KINDS",
    "PRINTED_COUNTS",
    "REPUTATION",
    "SKILLS",
    "STATUSES",
    "SUPPORT_EFFECTS",
    "TOKEN_EFFECTS",
    "VEHICLE",
    "WEAPON",
    "WEAPON_EFFECTS",
    "AgentFace",
    "AmbushCard",
    "Board",
    "BrawlCard",
    "CombatToken",
    "Content",
    "EventCard",
    "HenchmanCard",
    "InvestigationCard",
    "Mission",
    "Organisation",
    "StoryCard",
    "SupplyToken",
    "SupportCard",
    "load_content",
]


def _unique_ids(nodes: list[Node], what: str, prefix: str = "") -> list[str]:
    ids: list[str] = []
    for n in nodes:
        i = n.str("id")
        if prefix and not i.startswith(prefix):
            raise n.fail(f"an id starting with {prefix!r}", key="id", got=i)
        if i in ids:
            raise n.fail(f"a unique {what} id", key="id", got=i)
        ids.append(i)
    return ids


def _count(nodes: list[Node], parent: Node, key: str, what: str) -> None:
    want = PRINTED_COUNTS[what]
    if len(nodes) != want:
        raise parent.fail(f"{want} {what} (rule: cyberverse/components)", key=key, got=f"{len(nodes)}")


def _opt_index(node: Node, key: str, choices: tuple[str, ...]) -> int:
    return choices.index(node.str(key, choices=choices)) if node.has(key) else -1


def _organisations(directory: Path) -> list[Node]:
    root = load_json(directory / "organisations.json")
    nodes = root.list("organisations")
    _count(nodes, root, "organisations", "organisations")
    _unique_ids(nodes, "organisation")
    return nodes


def _faces(directory: Path) -> tuple[tuple[AgentFace, ...], tuple[str, ...]]:
    root = load_json(directory / "agents.json")
    sheets = root.list("sheets")
    _count(sheets, root, "sheets", "agent sheets")
    ids = _unique_ids(sheets, "agent sheet")
    faces: list[AgentFace] = []
    names: set[str] = set()
    initiatives: set[int] = set()
    for k, sheet in enumerate(sheets):
        for side, f in enumerate(sheet.list("faces", min_len=2, max_len=2)):
            name = f.str("name")
            if name.lower() in names:
                raise f.fail("a unique Agent name", key="name", got=name)
            names.add(name.lower())
            ini = f.int("initiative", min=0, max=99)
            if ini in initiatives:
                raise f.fail("an Initiative no other Agent has", key="initiative", got=ini)
            initiatives.add(ini)
            skill = SKILLS.index(f.str("skill", choices=SKILLS))
            feature = _opt_index(f, "skill_feature", FEATURES)
            if (skill == SKILLS.index("test_bonus")) != (feature >= 0):
                raise f.fail("a skill_feature exactly for a test_bonus skill", key="skill_feature")
            feats = (
                f.int("movement", min=0, max=5),
                f.int("analysis", min=0, max=5),
                f.int("hacking", min=0, max=5),
                f.int("reputation", min=0, max=3),
                f.int("combat", min=0, max=5),
            )
            faces.append(
                AgentFace(
                    id=f"{ids[k]}{'AB'[side]}",
                    sheet=k,
                    side=side,
                    name=name,
                    features=feats,
                    initiative=ini,
                    salary=f.int("salary", min=0, max=5000),
                    health=f.int("health", min=1, max=9),
                    skill=skill,
                    skill_feature=feature,
                    skill_text=f.str("skill_text"),
                    authored=sheet.bool("authored"),
                )
            )
    return tuple(faces), tuple(ids)


def _board(node: Node, seen: set[str]) -> Board:
    bid = node.str("id")
    if len(bid) != 2 or bid[0] not in "AB" or bid[1] not in "12345" or bid in seen:
        raise node.fail("a unique board id A1..B5", key="id", got=bid)
    seen.add(bid)
    district = node.int("district", min=1, max=5)
    if int(bid[1]) != district:
        raise node.fail(f"district {bid[1]} for board {bid}", key="district", got=district)
    zones = node.list("zones", min_len=2, max_len=9)
    numbers = [z.int("number", min=1, max=len(zones)) for z in zones]
    if sorted(numbers) != list(range(1, len(zones) + 1)):
        raise node.fail("zones numbered 1..n", key="zones", got=numbers)
    coords = [(0, 0)] * len(zones)
    for z, n in zip(zones, numbers, strict=True):
        coords[n - 1] = (z.int("x", min=0, max=9), z.int("y", min=0, max=9))
    adj, walls = _board_links(node, len(zones))
    entry = node.int("entry", min=1, max=len(zones)) - 1
    positions, position_at = _board_positions(node, len(zones))
    hacking = [i for i, (_, k) in enumerate(positions) if k == 2]
    if len(hacking) != 1:
        raise node.fail("exactly one Hacking position (rule: cyberverse/hacking)", key="positions")
    return Board(
        id=bid,
        district=district - 1,
        coords=tuple(coords),
        adjacent=tuple(tuple(sorted(a)) for a in adj),
        walls=tuple(walls),
        entry=entry,
        positions=tuple(positions),
        position_at=tuple(position_at),
        hacking=hacking[0],
        distance=_board_distances(node, adj),
        authored=node.bool("authored"),
    )


def _board_links(node: Node, zones: int) -> tuple[list[set[int]], list[tuple[int, int]]]:
    """A board's adjacency (its links) and its walls (rule: cyberverse/new-eden-board - walls are
    not adjacency)."""
    adj: list[set[int]] = [set() for _ in range(zones)]
    for link in node.list("links"):
        link.list(min_len=2, max_len=2)
        a, b = link.int_list(min=1, max=zones)
        if a == b:
            raise link.fail("two different zones", got=link.value)
        adj[a - 1].add(b - 1)
        adj[b - 1].add(a - 1)
    walls = []
    for w in node.list("walls"):
        w.list(min_len=2, max_len=2)
        a, b = w.int_list(min=1, max=zones)
        if b - 1 in adj[a - 1]:
            raise w.fail("a wall between zones that are not linked (walls are not adjacency)", got=w.value)
        walls.append((a - 1, b - 1))
    return adj, walls


def _board_positions(node: Node, zones: int) -> tuple[list[tuple[int, int]], list[int]]:
    """A board's tactical positions as (zone, kind), and the position of each zone (-1 none)."""
    positions: list[tuple[int, int]] = []
    position_at = [-1] * zones
    for p in node.list("positions", min_len=1):
        pz = p.int("zone", min=1, max=zones) - 1
        kind = POSITION_KINDS.index(p.str("kind", choices=POSITION_KINDS))
        if position_at[pz] >= 0:
            raise p.fail("at most one tactical position per zone", key="zone", got=pz + 1)
        position_at[pz] = len(positions)
        positions.append((pz, kind))
    return positions, position_at


def _board_distances(node: Node, adj: list[set[int]]) -> tuple[tuple[int, ...], ...]:
    """Zone-to-zone distances along the links (every zone must be reachable)."""
    distance = []
    for start in range(len(adj)):
        dist = [-1] * len(adj)
        dist[start] = 0
        todo = deque([start])
        while todo:
            cur = todo.popleft()
            for n in adj[cur]:
                if dist[n] < 0:
                    dist[n] = dist[cur] + 1
                    todo.append(n)
        if min(dist) < 0:
            raise node.fail("zones all connected through links", key="links")
        distance.append(tuple(dist))
    return tuple(distance)


def _tokens(directory: Path) -> tuple[tuple[SupplyToken, ...], tuple[tuple[int, int, bool], ...]]:
    root = load_json(directory / "supply.json")
    nodes = root.list("tokens")
    _unique_ids(nodes, "supply token")
    out: list[SupplyToken] = []
    backs: list[tuple[int, int, bool]] = []
    for n in nodes:
        cat = CATEGORIES.index(n.str("category", choices=CATEGORIES))
        expert = n.bool("expert") if cat == WEAPON else False
        price = n.int("price", min=100, max=10_000)
        if price % 100:
            raise n.fail("a price in hundreds of D", key="price", got=price)
        back = (cat, price, expert)
        if back not in backs:
            backs.append(back)
        effects: tuple[int, ...] = ()
        kind = -1
        feature = -1
        if cat == WEAPON:
            effects = tuple(
                sorted({WEAPON_EFFECTS.index(e) for e in n.str_list("effects", choices=WEAPON_EFFECTS)})
            )
        elif cat == IMPLANT:
            feature = FEATURES.index(n.str("feature", choices=("analysis", "hacking", "combat")))
        elif cat == GEAR:
            kind = GEAR_KINDS.index(n.str("kind", choices=GEAR_KINDS))
            feature = _opt_index(n, "feature", FEATURES)
            if (kind == GEAR_KINDS.index("test_bonus")) != (feature >= 0):
                raise n.fail("a feature exactly for a test_bonus gear", key="feature")
        out.append(
            SupplyToken(
                id=n.str("id"),
                category=cat,
                name=n.str("name"),
                price=price,
                expert=expert,
                back=backs.index(back),
                bonus=n.int("bonus", min=0, max=9) if cat == WEAPON else 0,
                ranged=n.str("attack", choices=("close", "ranged")) == "ranged" if cat == WEAPON else False,
                effects=effects,
                feature=feature,
                kind=kind,
                value=n.int("value", min=0, max=9) if cat == GEAR else 0,
                movement=n.int("movement", min=0, max=5) if cat == VEHICLE else 0,
                free_travel=n.bool("free_travel") if cat == VEHICLE else False,
                ambush_guard=n.bool("ambush_guard")
                if cat == VEHICLE
                else kind == GEAR_KINDS.index("ambush_guard"),
                authored=n.bool("authored"),
            )
        )
    for cat, what in enumerate(("weapon tokens", "cyber-implant tokens", "gear tokens", "vehicle tokens")):
        got = [t for t in out if t.category == cat]
        if len(got) != PRINTED_COUNTS[what]:
            raise root.fail(
                f"{PRINTED_COUNTS[what]} {what} (rule: cyberverse/components)", key="tokens", got=len(got)
            )
    return tuple(out), tuple(backs)


def _support(directory: Path) -> tuple[SupportCard, ...]:
    root = load_json(directory / "support.json")
    nodes = root.list("cards")
    _count(nodes, root, "cards", "support cards")
    _unique_ids(nodes, "support card")
    out = []
    for n in nodes:
        effect = SUPPORT_EFFECTS.index(n.str("effect", choices=SUPPORT_EFFECTS))
        feature = _opt_index(n, "feature", FEATURES)
        category = _opt_index(n, "category", CATEGORIES)
        if (effect == SUPPORT_EFFECTS.index("test_bonus")) != (feature >= 0):
            raise n.fail("a feature exactly for a test_bonus card", key="feature")
        if (effect == SUPPORT_EFFECTS.index("discount")) != (category >= 0):
            raise n.fail("a category exactly for a discount card", key="category")
        out.append(
            SupportCard(
                id=n.str("id"),
                name=n.str("name"),
                teammates=n.int("teammates", min=0, max=3),
                effect=effect,
                value=n.int("value", min=0, max=1000),
                feature=feature,
                category=category,
                authored=n.bool("authored"),
            )
        )
    return tuple(out)


def _henchmen(directory: Path) -> tuple[tuple[HenchmanCard, ...], tuple[str, ...], tuple[int, ...]]:
    root = load_json(directory / "henchmen.json")
    nodes = root.list("cards", min_len=3)
    _unique_ids(nodes, "henchman card")
    types: list[str] = []
    first: list[int] = []
    out: list[HenchmanCard] = []
    for i, n in enumerate(nodes):
        name = n.str("name")
        if name not in types:
            types.append(name)
            first.append(i)
        effects: tuple[int, ...] = ()
        if n.has("effect"):
            effects = (WEAPON_EFFECTS.index(n.str("effect", choices=WEAPON_EFFECTS)),)
        card = HenchmanCard(
            id=n.str("id"),
            name=name,
            kind=types.index(name),
            defense=n.int("defense", min=0, max=9),
            attack=n.int("attack", min=0, max=9),
            movement=n.int("movement", min=0, max=5),
            health=n.int("health", min=1, max=9),
            ranged=n.str("attack_type", choices=("close", "ranged")) == "ranged",
            effects=effects,
            authored=n.bool("authored"),
        )
        ref = out[first[card.kind]] if first[card.kind] < len(out) else card
        if (ref.defense, ref.attack, ref.movement, ref.health, ref.ranged, ref.effects) != (
            card.defense,
            card.attack,
            card.movement,
            card.health,
            card.ranged,
            card.effects,
        ):
            raise n.fail(f"the same features as every other {name!r} card", got=n.value)
        out.append(card)
    return tuple(out), tuple(types), tuple(first)


def _brawl(directory: Path, types: tuple[str, ...]) -> tuple[BrawlCard, ...]:
    root = load_json(directory / "brawl.json")
    nodes = root.list("cards", min_len=1)
    _unique_ids(nodes, "brawl card")
    out = []
    for n in nodes:
        hs = n.str_list("henchmen", choices=types)
        if len(hs) > 3:
            raise n.fail("at most 3 Henchmen (rule: cyberverse/combat)", key="henchmen", got=len(hs))
        out.append(
            BrawlCard(
                id=n.str("id"),
                red=n.str("colour", choices=("green", "red")) == "red",
                henchmen=tuple(types.index(h) for h in hs),
                authored=n.bool("authored"),
            )
        )
    return tuple(out)


def _combat_tokens(directory: Path) -> tuple[CombatToken, ...]:
    root = load_json(directory / "combat_tokens.json")
    nodes = root.list("tokens", min_len=20)
    _unique_ids(nodes, "combat token")
    return tuple(
        CombatToken(
            id=n.str("id"),
            attack=n.int("attack", min=0, max=9),
            defense=n.int("defense", min=0, max=9),
            effect=_opt_index(n, "effect", TOKEN_EFFECTS),
            authored=n.bool("authored"),
        )
        for n in nodes
    )


def _ambush(directory: Path) -> tuple[AmbushCard, ...]:
    root = load_json(directory / "ambush.json")
    nodes = root.list("cards")
    _count(nodes, root, "cards", "ambush cards")
    _unique_ids(nodes, "ambush card")
    out = []
    for n in nodes:
        effect = AMBUSH_EFFECTS.index(n.str("effect", choices=AMBUSH_EFFECTS))
        status = STATUSES.index(n.str("status", choices=STATUSES)) if effect == 2 else -1
        value = n.int("value", min=1, max=5000) if effect in (1, 3, 4, 5) else 0
        out.append(
            AmbushCard(
                id=n.str("id"),
                name=n.str("name"),
                effect=effect,
                value=value,
                status=status,
                vehicles_protect=n.bool("vehicles_protect"),
                authored=n.bool("authored"),
            )
        )
    return tuple(out)


def _events(directory: Path, news_slots: int) -> tuple[EventCard, ...]:
    root = load_json(directory / "events.json")
    nodes = root.list("cards")
    _count(nodes, root, "cards", "event cards")
    _unique_ids(nodes, "event card")
    out = []
    for n in nodes:
        eff = n["effect"]
        effect = EVENT_EFFECTS.index(eff.str("kind", choices=EVENT_EFFECTS))
        district = eff.int("district", min=1, max=5) - 1 if effect in (1, 2, 3, 4) else -1
        category = CATEGORIES.index(eff.str("category", choices=CATEGORIES)) if effect == 5 else -1
        rew = n["reward"]
        reward = EVENT_REWARDS.index(rew.str("kind", choices=EVENT_REWARDS))
        hench = n.int_list("henchmen", min=0, max=3)
        if len(hench) != 5:
            raise n.fail("5 district icons (rule: cyberverse/event-phase)", key="henchmen", got=len(hench))
        out.append(
            EventCard(
                id=n.str("id"),
                name=n.str("name"),
                time=n.int("time", min=1, max=news_slots),
                effect=effect,
                district=district,
                category=category,
                reward=reward,
                reward_value=rew.int("value", min=0, max=5000) if reward == 0 else 0,
                reward_district=rew.int("district", min=1, max=5) - 1 if reward == 2 else -1,
                henchmen=tuple(hench),
                authored=n.bool("authored"),
            )
        )
    return tuple(out)


def _stories(directory: Path, orgs: list[Node]) -> tuple[StoryCard, ...]:
    root = load_json(directory / "stories.json")
    nodes = root.list("cards")
    _count(nodes, root, "cards", "story cards")
    ids = _unique_ids(nodes, "story card")
    org_ids = [o.str("id") for o in orgs]
    out = []
    for n in nodes:
        req = n.str_list("requires", choices=COLOURS)
        if not 1 <= len(req) <= 3 or len(set(req)) != len(req):
            raise n.fail("1 to 3 Investigation cards of different colours", key="requires", got=req)
        org = org_ids.index(n.str("organisation", choices=org_ids)) if n.has("organisation") else -1
        out.append(
            StoryCard(
                id=n.str("id"),
                name=n.str("name"),
                vp=n.int("vp", min=0, max=99),
                requires=tuple(sorted(COLOURS.index(c) for c in req)),
                organisation=org,
                authored=n.bool("authored"),
            )
        )
    starts = [s for s in out if s.organisation >= 0]
    if len({s.organisation for s in starts}) != len(orgs) or len(starts) != len(orgs):
        raise root.fail("one starting Story card per Organization", key="cards")
    if len({s.vp for s in starts}) != 1 or any(s.requires != (0, 1, 2) for s in starts):
        raise root.fail(
            "starting Story cards with the same Victory points and one card of each colour "
            "(rule: cyberverse/story-cards)",
            key="cards",
        )
    for o in orgs:
        sid = o.str("starting_story")
        if sid not in ids or out[ids.index(sid)].organisation != org_ids.index(o.str("id")):
            raise o.fail("its own starting Story card", key="starting_story", got=sid)
    return tuple(out)


def _investigations(directory: Path) -> tuple[InvestigationCard, ...]:
    root = load_json(directory / "investigations.json")
    nodes = root.list("cards")
    _count(nodes, root, "cards", "investigation cards")
    _unique_ids(nodes, "investigation card")
    out = []
    want = {0: (0, 1), 1: (2,), 2: (3,)}  # yellow: tests and combats; blue: hacking; red: influence
    for n in nodes:
        colour = COLOURS.index(n.str("colour", choices=COLOURS))
        missions = []
        for m in n.list("missions", min_len=1, max_len=6):
            kind = MISSION_KINDS.index(m.str("kind", choices=MISSION_KINDS))
            if kind not in want[colour]:
                raise m.fail(f"a mission kind of a {COLOURS[colour]} card", key="kind", got=m.value)
            feature = -1
            threshold = -1
            if kind == 0:
                feature = FEATURES.index(
                    m.str("feature", choices=("movement", "analysis", "hacking", "combat"))
                )
            if kind == 2:
                feature = HACKING
            if kind in (0, 2):
                threshold = m.int("threshold", min=0, max=12)
            missions.append(
                Mission(
                    kind=kind,
                    district=m.int("district", min=1, max=5) - 1,
                    feature=feature,
                    threshold=threshold,
                    reward=m.int("reward", min=0, max=5000),
                )
            )
        out.append(
            InvestigationCard(
                id=n.str("id"),
                colour=colour,
                name=n.str("name"),
                missions=tuple(missions),
                authored=n.bool("authored"),
            )
        )
    for c in range(3):
        if not any(card.colour == c for card in out):
            raise root.fail(f"{COLOURS[c]} Investigation cards", key="cards")
    return tuple(out)


def _new_eden(directory: Path) -> tuple[Node, list[Node], list[tuple[int, ...]]]:
    """``new_eden.json``: the file, its 5 districts in order and the symmetric movement costs."""
    eden = load_json(directory / "new_eden.json")
    dnodes = eden.list("districts")
    _count(dnodes, eden, "districts", "districts")
    if [d.int("number", min=1, max=5) for d in dnodes] != [1, 2, 3, 4, 5]:
        raise eden.fail("districts numbered 1 to 5 in order", key="districts")
    rows = eden.list("distance", min_len=5, max_len=5)
    travel = []
    for i, r in enumerate(rows):
        row = r.int_list(min=0, max=5)
        if len(row) != 5 or row[i] != 0 or any(row[j] == 0 for j in range(5) if j != i):
            raise r.fail("5 costs, 0 only to itself", got=row)
        travel.append(tuple(row))
    if any(travel[i][j] != travel[j][i] for i in range(5) for j in range(5)):
        raise eden.fail("symmetric movement costs", key="distance")
    return eden, dnodes, travel


def load_content(content_path: str = "") -> Content:
    """Load and validate the pack (the reference pack when ``content_path`` is "").

    Raises ``ContentError`` naming the file and the field.
    """
    directory = resolve_pack_dir("games.cyberverse", content_path)
    manifest = load_manifest(directory)
    orgs = _organisations(directory)
    faces, sheet_ids = _faces(directory)
    eden, dnodes, travel = _new_eden(directory)
    news_slots = eden.int("news_track_slots", min=1, max=9)
    seen: set[str] = set()
    boards = tuple(_board(b, seen) for b in load_json(directory / "boards.json").list("boards", min_len=5))
    for d in range(5):
        if not any(b.district == d and b.id[0] == "A" for b in boards):
            raise ContentError(f"no board A{d + 1}", file="boards.json", field="boards")
    tokens, backs = _tokens(directory)
    henchmen, types, type_card = _henchmen(directory)
    stories = _stories(directory, orgs)
    investigations = _investigations(directory)
    return Content(
        name=manifest.name,
        version=manifest.version,
        authored=manifest.authored,
        organisations=tuple(
            Organisation(
                id=o.str("id"),
                name=o.str("name"),
                colour=o.str("colour"),
                starting_story=[s.id for s in stories].index(o.str("starting_story")),
                authored=o.bool("authored"),
            )
            for o in orgs
        ),
        faces=faces,
        sheet_ids=sheet_ids,
        district_names=tuple(d.str("name") for d in dnodes),
        travel=tuple(travel),
        news_slots=news_slots,
        equipment_slots=eden.int("equipment_slots", min=1, max=9),
        boards=boards,
        tokens=tokens,
        backs=backs,
        support=_support(directory),
        henchmen=henchmen,
        henchman_types=types,
        henchman_type_card=type_card,
        brawl=_brawl(directory, types),
        combat_tokens=_combat_tokens(directory),
        ambush=_ambush(directory),
        events=_events(directory, news_slots),
        stories=stories,
        investigations=investigations,
        investigation_decks=tuple(
            tuple(i for i, c in enumerate(investigations) if c.colour == colour) for colour in range(3)
        ),
    )
