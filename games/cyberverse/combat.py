"""Combat on a district board: the Brawl card, Combat tokens, activation, attacks and damage.

rule: cyberverse/combat - a Brawl card is drawn and its Henchmen placed zone 1, zone 2, ...
(board limits in ``board.py``); green: the Henchmen neither attack nor can be attacked; red: they
attack the Organization with the most Resources and play last. Each Organization draws 2 Combat
tokens per Agent on the board and keeps 1; Henchmen receive 1. Agents act in Initiative order
(lowest first): they move, then attack; then Henchmen. Afterwards every miniature but the Agents
and every Combat token leaves the board, and the Combat Missions of the district are validated.
rule: cyberverse/combat-tokens - Attack = Combat + token bonus (+ Weapon bonus); Defense = token
Defense (+ Equipment) for Agents, Defense feature + token Defense for Henchmen.
rule: cyberverse/damage-table - the difference Attack - Defense read on the Damage table.
rule: cyberverse/status-tokens - Status tokens (never two of a type; none on Henchmen) and the
attack and defense effects of Combat tokens.
rule: cyberverse/tactical-positions - advantageous +2 Attack, covered +2 Defense.
rule: cyberverse/henchmen - Henchman cards: Defense, Attack, Movement, Health, attack type.
rule: cyberverse/supply-weapons - close combat (own zone) or ranged (own or adjacent zone), EXPERT,
grill, fragile, extra Combat Action, +1 against a target in another zone.

rule: cyberverse/support-cards - before the Combat, Agents in Initiative order may discard one of
their Organization's Support cards (one per Organization and board, only with Henchmen on the
board) to change Henchmen into Teammates, no more than the card says nor the Agent's Reputation;
Teammates act after the Agents.

Simplified (docs/cyberverse.md, "Simplified"): one round of Combat, each character acts once (an
"extra Combat Action" Weapon gives a second attack). The Organization playing the Henchmen
(:func:`henchman_controller`) chooses a Henchman's target among the richest Organization's
characters, its moves up to its Movement (any adjacent zone with room, its zone's free tactical
position but not the Hacking one, or stopping; variant ``henchmen_moves="shortest"``: toward the
target by a shortest way, choosing only between two such ways and, in range, the position), which
Cyber-Implant its grill effect grills, where its Projection throws the target, its Multiple shot's
second target (one of the same Organization, a reading) and where its Adrenalin moves it.

Readings: a Combat is engaged on a board when the Brawl card is red and Henchmen stand there, or
when Agents of two Organizations stand there; otherwise the Henchmen leave the board at once.
The attacker chooses which Cyber-Implant of its target a grill Weapon grills, or none (step "grill
a cyber-implant"). A Stealth token stops its holder attacking, never moving.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from games.cyberverse import flow
from games.cyberverse.agents import (
    FEATURE_MAX,
    attack_bonus,
    defense_bonus,
    feature,
    heal,
    lose_health,
    movement_points,
    spend_xp,
    usable_weapons,
    xp_available,
)
from games.cyberverse.board import ZONE_LIMIT, board_of, henchman_zone
from games.cyberverse.content import (
    COMBAT,
    IMPLANT,
    REPUTATION,
    TOKEN_EFFECTS,
    WEAPON_EFFECTS,
    Board,
    Content,
    HenchmanCard,
)
from games.cyberverse.hidden import UNKNOWN
from games.cyberverse.state import (
    AGENT,
    BLEEDING,
    C_BRAWL,
    C_FIGHTER_TOKEN,
    C_TOKEN,
    D_ADRENALIN,
    D_ATTACK,
    D_CONVERT,
    D_DODGE,
    D_FIGHT_MOVE,
    D_GRILL,
    D_HENCHMAN_TARGET,
    D_KEEP_TOKEN,
    D_PROJECT,
    D_SECOND,
    D_SUPPORT,
    E_ADRENALIN,
    E_DODGE,
    E_GRILL,
    E_PROJECT,
    E_SECOND,
    HENCHMAN,
    SUPPRESSION,
    TEAMMATE,
    WOUND,
    Action,
    Fight,
    Fighter,
    State,
    act,
    make_fighter,
)
from games.cyberverse.work import Work, insert_sorted, remove_one

__all__ = [
    "ADVANTAGE",
    "COVER",
    "Blow",
    "attack",
    "damage",
    "grill_choices",
    "legal",
    "on_brawl",
    "on_fighter_token",
    "on_token",
    "start",
]

ADVANTAGE = 2
"""rule: cyberverse/tactical-positions - the Advantageous position adds 2 to Attack."""
COVER = 2
"""rule: cyberverse/tactical-positions - the Covered position adds 2 to Defense."""
FRENZY_BONUS = 5
"""rule: cyberverse/status-tokens - Frenzy: +5 Combat bonus on Attack, 1 Health point lost."""
PIERCER_BONUS = 3
"""rule: cyberverse/status-tokens - Armor piercer: +3 with a ranged Weapon."""
SHIELD_BONUS = 3
"""rule: cyberverse/status-tokens - Energy shield: +3 Defense, then the token is discarded."""
REACH_BONUS = 1
"""rule: cyberverse/supply-weapons - +1 Combat bonus against a target in another zone."""

(
    GRAPPLE,
    FRENZY,
    DISARM,
    ARMOR_PIERCER,
    POISONED_BLADE,
    MULTIPLE_SHOT,
    ADRENALIN_ATTACK,
    PROJECTION,
    ENERGY_SHIELD,
    ANTI_VIRUS,
    BANDAGE,
    MEDKIT,
    SMOKE_BOMB,
    ADRENALIN_DEFENSE,
    STEALTH,
) = range(len(TOKEN_EFFECTS))
W_GRILL, W_FRAGILE, W_TWIN, W_EXTRA, W_REACH = (1 << i for i in range(len(WEAPON_EFFECTS)))


def damage(diff: int) -> tuple[int, int]:
    """rule: cyberverse/damage-table - (Health points lost, Status token bit) for Attack - Defense.

    0 or lower: nothing; +1 to +2: Suppression; +3 to +4: -1 Health and Wound; +5 to +7: -1 Health
    and Bleeding; +8 and up: -2 Health and Bleeding.
    """
    if diff <= 0:
        return 0, 0
    if diff <= 2:
        return 0, SUPPRESSION
    if diff <= 4:
        return 1, WOUND
    if diff <= 7:
        return 1, BLEEDING
    return 2, BLEEDING


@dataclass(frozen=True, slots=True)
class Blow:
    """The numbers of one attack (for the engine, the solver and explanations).

    Attributes:
        attack: the Attack value.
        defense: the Defense value.
        health: Health points the target loses.
        status: the Status token bit it receives (0 none; never for Henchmen).
        cancelled: a Smoke bomb cancelled the attack.
        frenzy: the attacker loses 1 Health point (Frenzy).
    """

    attack: int
    defense: int
    health: int
    status: int
    cancelled: bool
    frenzy: bool


def _token_effect(c: Content, token: int) -> int:
    return c.combat_tokens[token].effect if token >= 0 else -1


def _spot_kind(board: Board, spot: int) -> int:
    return board.positions[spot][1] if spot >= 0 else -1


def attack(
    *,
    combat: int,
    token_attack: int,
    weapon_bonus: int,
    ranged_weapon: bool,
    attacker_effect: int,
    advantage: bool,
    other_zone_reach: bool,
    defense: int,
    token_defense: int,
    defender_effect: int,
    cover: bool,
    target_is_agent: bool,
) -> Blow:
    """One attack read on the Damage table (rule: cyberverse/combat-tokens, damage-table,
    status-tokens, tactical-positions). Pure: the engine and the solver share it."""
    if defender_effect in (SMOKE_BOMB, STEALTH):  # a Stealth token revealed by the attack cancels it
        return Blow(0, 0, 0, 0, True, False)
    value = combat + token_attack + weapon_bonus
    frenzy = attacker_effect == FRENZY
    if frenzy:
        value += FRENZY_BONUS
    if attacker_effect == ARMOR_PIERCER and ranged_weapon:
        value += PIERCER_BONUS
    if advantage:
        value += ADVANTAGE
    if other_zone_reach:
        value += REACH_BONUS
    guard = defense + token_defense + (COVER if cover else 0)
    if defender_effect == ENERGY_SHIELD:
        guard += SHIELD_BONUS
    health, status = damage(value - guard)
    if attacker_effect == POISONED_BLADE:
        status |= BLEEDING if target_is_agent else 0
    if not target_is_agent:
        status = 0
    return Blow(value, guard, health, status, False, frenzy)


# ------------------------------------------------------------------ start of a Combat
def start(w: Work, c: Content, d: int) -> bool:
    """rule: cyberverse/combat - a Brawl card is drawn on a board where Agents stand. Returns True
    when a draw or a decision is pending."""
    if not any(a.district == d for a in w.agents):
        _clear_henchmen(w, d)
        return False
    if not w.decks.brawl:
        w.set_decks(brawl=w.decks.brawl_discard, brawl_discard=())
    if not w.decks.brawl:  # a pack without Brawl cards: no Combat
        _clear_henchmen(w, d)
        return False
    w.fight = Fight(d, -1, False, (), (), -1, 0, 0, -1, -1, 0, (), (), (), 0, 0, False, 0)
    flow.chance(w, C_BRAWL)
    return True


def on_brawl(w: Work, c: Content, card: int) -> None:
    """The Brawl card's Henchmen are placed miniature by miniature from zone 1 (rule: cyberverse/combat)."""
    w.set_decks(
        brawl=remove_one(w.decks.brawl, card), brawl_discard=insert_sorted(w.decks.brawl_discard, card)
    )
    brawl = c.brawl[card]
    w.set_fight(brawl=card, red=brawl.red)
    d = w.ctx.district
    board = board_of(w, c, d)
    zones = [0] * board.zones
    total = 0
    for a in w.agents:
        if a.district == d:
            zones[a.zone] += 1
            total += 1
    hench = 0
    fighters: list[Fighter] = []
    for card_id, zone in w.city.henchmen[d]:
        h = c.henchmen[card_id]
        fighters.append(
            make_fighter(
                HENCHMAN, h.kind, card_id, -1, zone, -1, h.health, -1, False, False, False, False, False, -1
            )
        )
        zones[zone] += 1
        total += 1
        hench += 1
    for k, kind in enumerate(brawl.henchmen):
        zone = henchman_zone(board, zones, total, hench, k)
        if zone < 0:
            break
        h = c.henchmen[c.henchman_type_card[kind]]
        fighters.append(
            make_fighter(
                HENCHMAN, kind, -1, -1, zone, -1, h.health, -1, False, False, False, False, False, -1
            )
        )
        zones[zone] += 1
        total += 1
        hench += 1
    w.set_fight(fighters=tuple(fighters))
    _engage(w, c)


def _engage(w: Work, c: Content) -> None:
    """Agents join the fight; the Combat is engaged or the Henchmen leave (reading, module doc)."""
    fight = w.fight
    assert fight is not None
    d = fight.district
    agents = tuple(
        make_fighter(AGENT, a.sheet, -1, a.org, -1, -1, 0, -1, False, False, False, False, False, -1)
        for a in w.agents
        if a.district == d
    )
    orgs = {f.org for f in agents}
    henchmen = [f for f in fight.fighters if f.kind == HENCHMAN]
    engaged = (fight.red and bool(henchmen)) or len(orgs) > 1
    took = 0
    for o in orgs:
        took |= 1 << o
    fighters = agents + tuple(henchmen)
    w.set_fight(fighters=fighters, engaged=engaged, took_part=took)
    if not engaged:
        _end(w, c)
        return
    w.set_fight(queue=tuple(i for i, f in enumerate(fighters) if f.kind == AGENT))
    _next_support(w, c)


# ------------------------------------------------------------------ Support cards: Teammates
def _free_henchmen(fight: Fight) -> list[int]:
    return [j for j, g in enumerate(fight.fighters) if g.kind == HENCHMAN and not g.gone]


def _can_support(w: Work | State, c: Content, i: int) -> bool:
    """rule: cyberverse/support-cards - an Agent (Initiative order) may discard one of its
    Organization's Support cards, once per Organization and board, when Henchmen stand there."""
    fight = w.fight
    assert fight is not None
    f = fight.fighters[i]
    if f.gone or fight.supported >> f.org & 1 or not w.orgs[f.org].support or not _free_henchmen(fight):
        return False
    return feature(c, next(a for a in w.agents if a.sheet == f.ref), REPUTATION) > 0


def _next_support(w: Work, c: Content) -> None:
    fight = w.fight
    assert fight is not None
    while fight.queue:
        if _can_support(w, c, fight.queue[0]):
            flow.decide(w, D_SUPPORT, fight.fighters[fight.queue[0]].org)
            return
        fight = w.set_fight(queue=fight.queue[1:])
    _start_tokens(w, c)


def _support(w: Work, c: Content, card: int) -> None:
    """The Support card is discarded: as many Henchmen as it says, within the Agent's Reputation,
    become its Teammates (rule: cyberverse/support-cards, the El Duque example)."""
    fight = w.fight
    assert fight is not None
    f = fight.fighters[fight.queue[0]]
    org = w.orgs[f.org]
    w.set_org(f.org, support=tuple(u for u in org.support if u != card))
    w.set_market(support_discard=insert_sorted(w.market.support_discard, card))
    reputation = feature(c, w.agent(f.ref), REPUTATION)
    fight = w.set_fight(
        supported=fight.supported | 1 << f.org, convert=min(c.support[card].teammates, reputation)
    )
    _next_convert(w, c)


def _next_convert(w: Work, c: Content) -> None:
    fight = w.fight
    assert fight is not None
    free = _free_henchmen(fight)
    if fight.convert > 0 and free:
        if len(free) > fight.convert:
            flow.decide(w, D_CONVERT, fight.fighters[fight.queue[0]].org)
            return
        for j in free:
            _convert(w, j)
    fight = w.set_fight(convert=0)
    w.set_fight(queue=fight.queue[1:])
    _next_support(w, c)


def _convert(w: Work, j: int) -> None:
    fight = w.fight
    assert fight is not None
    leader = fight.queue[0]
    w.set_fighter(j, kind=TEAMMATE, org=fight.fighters[leader].org, leader=leader)
    fight = w.fight
    assert fight is not None
    w.set_fight(convert=fight.convert - 1)


# ------------------------------------------------------------------ Combat tokens
def _start_tokens(w: Work, c: Content) -> None:
    """rule: cyberverse/combat - 2 Combat tokens per Agent (1 kept), 1 per Henchman and Teammate."""
    fight = w.fight
    assert fight is not None
    fs = fight.fighters
    queue = tuple(i for i, f in enumerate(fs) if f.kind == AGENT)
    queue += tuple(i for i, f in enumerate(fs) if f.kind == TEAMMATE)
    if fight.red:
        queue += tuple(i for i, f in enumerate(fs) if f.kind == HENCHMAN)
    w.set_fight(queue=queue)
    _next_token(w, c)


def _next_token(w: Work, c: Content) -> None:
    fight = w.fight
    assert fight is not None
    while fight.queue:
        f = fight.fighters[fight.queue[0]]
        if f.kind == AGENT:
            if len(fight.pair) < 2 and w.decks.tokens:
                flow.chance(w, C_TOKEN)
                return
            if len(fight.pair) == 2:
                flow.decide(w, D_KEEP_TOKEN, f.org)
                return
            if len(fight.pair) == 1:
                keep(w, c, fight.pair[0])
                return
        elif w.decks.tokens:
            flow.chance(w, C_FIGHTER_TOKEN)
            return
        fight = w.set_fight(queue=fight.queue[1:])
    _begin_activation(w, c)


def on_token(w: Work, c: Content, token: int) -> None:
    """A Combat token drawn for an Agent (2 per Agent)."""
    w.set_decks(tokens=remove_one(w.decks.tokens, token))
    fight = w.fight
    assert fight is not None
    w.set_fight(pair=(*fight.pair, token))
    _next_token(w, c)


def keep(w: Work, c: Content, token: int) -> None:
    """The Organization keeps ``token`` around its Agent's base; the other is set aside."""
    fight = w.fight
    assert fight is not None
    i = fight.queue[0]
    w.set_fighter(i, token=token)
    fight = w.fight
    assert fight is not None
    aside = fight.aside + tuple(
        (fight.fighters[i].org, t) for t in remove_one(tuple(sorted(fight.pair)), token)
    )
    w.set_fight(pair=(), aside=aside, queue=fight.queue[1:])
    _next_token(w, c)


def on_fighter_token(w: Work, c: Content, token: int) -> None:
    """A Henchman or a Teammate receives its Combat token."""
    w.set_decks(tokens=remove_one(w.decks.tokens, token))
    fight = w.fight
    assert fight is not None
    w.set_fighter(fight.queue[0], token=token)
    fight = w.fight
    assert fight is not None
    w.set_fight(queue=fight.queue[1:])
    _next_token(w, c)


# ------------------------------------------------------------------ activation
def _begin_activation(w: Work, c: Content) -> None:
    """rule: cyberverse/combat - Agents in Initiative order, then Teammates, then Henchmen (red card)."""
    fight = w.fight
    assert fight is not None
    fs = fight.fighters
    queue = tuple(i for i, f in enumerate(fs) if f.kind == AGENT)
    queue += tuple(
        sorted((i for i, f in enumerate(fs) if f.kind == TEAMMATE), key=lambda i: (fs[i].leader, i))
    )
    if fight.red:
        queue += tuple(i for i, f in enumerate(fs) if f.kind == HENCHMAN)
    w.set_fight(queue=queue)
    _next_actor(w, c)


def _card(c: Content, f: Fighter) -> HenchmanCard:
    """The Henchman card of a Henchman or a Teammate."""
    return c.henchmen[f.card if f.card >= 0 else c.henchman_type_card[f.ref]]


def _next_actor(w: Work, c: Content) -> None:
    fight = w.fight
    assert fight is not None
    while fight.queue:
        i = fight.queue[0]
        f = fight.fighters[i]
        if f.gone:
            fight = w.set_fight(queue=fight.queue[1:])
            continue
        if f.kind == HENCHMAN:
            _henchman_turn(w, c, i)
            return
        if f.kind == AGENT:
            agent = w.agent(f.ref)
            mp = movement_points(c, agent)
            extra = any(c.tokens[t].effects & W_EXTRA for t in _weapons(w, c, f))
        else:
            mp, extra = _card(c, f).movement, False
        w.set_fight(mp=0 if f.grappled else mp, attacks=2 if extra else 1, targets=0, target=-1, weapon=-1)
        if _moves(w, c, i):
            flow.decide(w, D_FIGHT_MOVE, f.org)
            return
        w.set_fight(mp=0)
        if _targets(w, c, i):
            flow.decide(w, D_ATTACK, f.org)
            return
        fight = w.set_fight(queue=fight.queue[1:])
    _end(w, c)


def _effect(c: Content, f: Fighter) -> int:
    return _token_effect(c, f.token)


def _where(w: Work | State, f: Fighter) -> tuple[int, int]:
    """(zone, tactical position) of a fighter."""
    if f.kind == AGENT:
        for a in w.agents:
            if a.sheet == f.ref:
                return a.zone, a.spot
        return -1, -1
    return f.zone, f.spot


def _place(w: Work, i: int, zone: int, spot: int = -1) -> None:
    """Move fighter ``i`` to ``zone`` (and tactical position ``spot``)."""
    fight = w.fight
    assert fight is not None
    f = fight.fighters[i]
    if f.kind == AGENT:
        w.set_agent(f.ref, zone=zone, spot=spot)
    else:
        w.set_fighter(i, zone=zone, spot=spot)


def _zone_counts(w: Work | State, c: Content) -> tuple[list[int], list[int]]:
    fight = w.fight
    assert fight is not None
    board = board_of(w, c, fight.district)
    zones = [0] * board.zones
    spots = [0] * len(board.positions)
    for f in fight.fighters:
        if f.gone:
            continue
        z, s = _where(w, f)
        if z >= 0:
            zones[z] += 1
        if s >= 0:
            spots[s] = 1
    return zones, spots


def _adjacent_room(s: Work | State, c: Content, zone: int, zones: list[int] | None = None) -> list[int]:
    """Zones adjacent to ``zone`` (walls are not adjacency) with room for one more miniature
    (``zones``: the miniatures per zone, if already counted)."""
    fight = s.fight
    assert fight is not None
    if zones is None:
        zones, _ = _zone_counts(s, c)
    return [z for z in board_of(s, c, fight.district).adjacent[zone] if zones[z] < ZONE_LIMIT]


def _moves(s: Work | State, c: Content, i: int) -> list[Action]:
    """rule: cyberverse/combat - move first (1 point per adjacent zone; rule:
    cyberverse/tactical-positions - 1 point to occupy a free position; Henchmen and Teammates never
    take the Hacking position, rule: cyberverse/hacking)."""
    fight = s.fight
    assert fight is not None
    if fight.mp <= 0:
        return []
    f = fight.fighters[i]
    zone, spot = _where(s, f)
    board = board_of(s, c, fight.district)
    zones, spots = _zone_counts(s, c)
    out = [act("step", z) for z in _adjacent_room(s, c, zone, zones)]
    p = board.position_at[zone]
    if p >= 0 and spot != p and not spots[p] and (f.kind == AGENT or p != board.hacking):
        out.append(act("spot", p))
    return out


def _side(f: Fighter) -> int:
    return -1 if f.kind == HENCHMAN else f.org


def _enemy(s: Work | State, c: Content, f: Fighter, g: Fighter) -> bool:
    """Whether ``f`` may attack ``g``: another side, not hidden by Stealth; a Henchman on a green
    Brawl card neither attacks nor can be attacked (rule: cyberverse/combat)."""
    fight = s.fight
    assert fight is not None
    if g.gone or (g.shown and _effect(c, g) == STEALTH) or _side(f) == _side(g):
        return False
    return fight.red or HENCHMAN not in (f.kind, g.kind)


def _in_range(s: Work | State, c: Content, f: Fighter, g: Fighter, ranged: bool) -> bool:
    fight = s.fight
    assert fight is not None
    za, _ = _where(s, f)
    zb, _ = _where(s, g)
    if za < 0 or zb < 0:
        return False
    if za == zb:
        return True
    return ranged and zb in board_of(s, c, fight.district).adjacent[za]


def _weapons(s: Work | State, c: Content, f: Fighter) -> list[int]:
    if f.disarmed or f.kind != AGENT:
        return []
    return usable_weapons(c, next(a for a in s.agents if a.sheet == f.ref))


def _attacks_on(s: Work | State, c: Content, i: int, j: int) -> list[Action]:
    """Attacks of fighter ``i`` on ``j``: bare-handed (own zone) or with each usable Weapon in range;
    an Agent may add XP tokens to its Combat for the action (rule: cyberverse/increasing-features,
    never above 5)."""
    fight = s.fight
    assert fight is not None
    f, g = fight.fighters[i], fight.fighters[j]
    if j == i or not _enemy(s, c, f, g):
        return []
    out: list[Action] = []
    if f.kind == AGENT:
        agent = next(a for a in s.agents if a.sheet == f.ref)
        top = max(0, min(xp_available(s, agent), FEATURE_MAX - feature(c, agent, COMBAT)))
        weapons = [-1] if _in_range(s, c, f, g, False) else []
        weapons += [t for t in _weapons(s, c, f) if _in_range(s, c, f, g, c.tokens[t].ranged)]
        out.extend(act("attack", j, t, x) for t in weapons for x in range(top + 1))
    elif _in_range(s, c, f, g, _card(c, f).ranged):
        out.append(act("attack", j, -1))
    return out


def _targets(s: Work | State, c: Content, i: int) -> list[Action]:
    """The attacks fighter ``i`` may make now. rule: cyberverse/status-tokens - Stealth: "Cannot
    attack or be attacked" (it still moves: the token says nothing of moving)."""
    fight = s.fight
    assert fight is not None
    if fight.attacks <= 0 or _effect(c, fight.fighters[i]) == STEALTH:
        return []
    out: list[Action] = []
    for j in range(len(fight.fighters)):
        out.extend(_attacks_on(s, c, i, j))
    return out


def _second_targets(s: Work | State, c: Content) -> list[Action]:
    """Multiple shot: another character in the first target's zone; a Weapon aiming at two: any
    other valid target with the same Weapon. Reading: a Henchman's second target is one of the
    same Organization as its first ("Henchmen always attack the organization with the most
    resources", rule: cyberverse/combat)."""
    fight = s.fight
    assert fight is not None
    i, first = fight.queue[0], fight.target
    zone, _ = _where(s, fight.fighters[first])
    henchman = fight.fighters[i].kind == HENCHMAN
    out: list[Action] = []
    for j, g in enumerate(fight.fighters):
        if j == first or (fight.targets == 1 and _where(s, g)[0] != zone):
            continue
        if henchman and g.org != fight.fighters[first].org:
            continue
        out.extend(a for a in _attacks_on(s, c, i, j) if a.b == fight.weapon and a.c == 0)
    return out


def legal(s: State, c: Content) -> list[Action]:
    """The deciding Organization's choices in a Combat."""
    fight = s.fight
    assert fight is not None
    step = s.step
    if step == D_KEEP_TOKEN:
        return [act("keep", t) for t in sorted(set(fight.pair))]
    if step == D_SUPPORT:
        org = s.orgs[fight.fighters[fight.queue[0]].org]
        return [act("no-support"), *(act("discard-support", u) for u in org.support)]
    if step == D_CONVERT:
        return [act("convert", j) for j in _free_henchmen(fight)]
    i = fight.queue[0]
    if step == D_FIGHT_MOVE:
        if fight.fighters[i].kind == HENCHMAN:
            return henchman_moves(s, c, i, fight.target)
        return [act("hold"), *_moves(s, c, i)]
    if step == D_ATTACK:
        return [act("hold"), *_targets(s, c, i)]
    if step == D_SECOND:
        return [act("hold"), *_second_targets(s, c)]
    if step == D_GRILL:
        return [act("no-grill"), *(act("grill", t) for t in grill_choices(s, c))]
    if step == D_PROJECT:
        zone, _ = _where(s, fight.fighters[fight.target])
        return [act("project", z) for z in _adjacent_room(s, c, zone)]
    if step == D_DODGE:
        zone, _ = _where(s, fight.fighters[fight.target])
        return [act("stand"), *(act("dodge", z) for z in _adjacent_room(s, c, zone))]
    if step == D_ADRENALIN:
        zone, _ = _where(s, fight.fighters[i])
        return [act("hold"), *(act("step", z) for z in _adjacent_room(s, c, zone))]
    if step == D_HENCHMAN_TARGET:
        return [act("send", j) for j in henchman_targets(s, c, i)]
    return []


def perform(w: Work, c: Content, a: Action) -> None:
    """Apply a Combat decision."""
    step = w.step
    if step == D_KEEP_TOKEN:
        keep(w, c, a.a)
    elif step == D_SUPPORT:
        if a.kind == "no-support":
            w.set_fight(queue=w.fight.queue[1:] if w.fight else ())
            _next_support(w, c)
        else:
            _support(w, c, a.a)
    elif step == D_CONVERT:
        _convert(w, a.a)
        _next_convert(w, c)
    elif step == D_FIGHT_MOVE:
        if w.fight is not None and w.fight.fighters[w.fight.queue[0]].kind == HENCHMAN:
            _henchman_move(w, c, a)
        else:
            _fight_move(w, c, a)
    elif step == D_ATTACK:
        if a.kind == "hold":
            _done(w, c)
        else:
            _begin_attack(w, c, a.a, a.b, xp=a.c)
    elif step == D_HENCHMAN_TARGET:
        _henchman_go(w, c, w.fight.queue[0] if w.fight else -1, a.a)
    else:
        _pending_choice(w, c, a)


def _fight_move(w: Work, c: Content, a: Action) -> None:
    fight = w.fight
    assert fight is not None
    i = fight.queue[0]
    f = fight.fighters[i]
    if a.kind == "hold":
        fight = w.set_fight(mp=0)
    else:
        zone, _ = _where(w, f)
        if a.kind == "step":
            _place(w, i, a.a)
        else:
            _place(w, i, zone, a.a)
        fight = w.set_fight(mp=fight.mp - 1)
        if _moves(w, c, i):
            return
    w.set_fight(mp=0)
    if _targets(w, c, i):
        flow.decide(w, D_ATTACK, f.org)
        return
    _done(w, c)


def _done(w: Work, c: Content) -> None:
    fight = w.fight
    assert fight is not None
    i = fight.queue[0]
    w.set_fighter(i, done=True)
    fight = w.fight
    assert fight is not None
    w.set_fight(queue=fight.queue[1:], mp=-1, attacks=0, targets=0, target=-1, weapon=-1, xp=0, pending=())
    _next_actor(w, c)


# ------------------------------------------------------------------ attacks and their effects
def _begin_attack(w: Work, c: Content, j: int, weapon: int, *, xp: int = 0) -> None:
    """The acting character attacks ``j`` (``xp`` XP tokens turned over for the action); the
    effects it triggers are resolved in order."""
    fight = w.fight
    assert fight is not None
    i = fight.queue[0]
    f = fight.fighters[i]
    effects = c.tokens[weapon].effects if weapon >= 0 else 0
    if xp:
        spend_xp(w, f.ref, xp)
    w.set_fight(xp=xp)
    pending = _strike(w, c, i, j, weapon, xp=xp)
    fight = w.fight
    assert fight is not None
    if fight.fighters[i].gone:
        pending = ()
    elif _effect(c, f) == MULTIPLE_SHOT:
        pending = (*pending, E_SECOND)
        w.set_fight(targets=1)
    elif effects & W_TWIN:
        pending = (*pending, E_SECOND)
        w.set_fight(targets=2)
    w.set_fight(target=j, weapon=weapon, pending=tuple(sorted(pending)))
    _resolve(w, c)


def effect_chooser(s: Work | State, f: Fighter) -> int:
    """Who decides the attack effects (grill, Projection, Multiple shot, Adrenalin) of the acting
    character ``f``: its Organization, or for a Henchman the Organization playing it against the
    Organization of its target (rule: cyberverse/combat, :func:`henchman_controller`)."""
    if f.kind != HENCHMAN:
        return f.org
    fight = s.fight
    assert fight is not None
    return henchman_controller(s, fight.fighters[fight.target].org)


def _resolve(w: Work, c: Content) -> None:
    """Resolve the pending effects of the attack just made (a decision each, a Henchman's by the
    Organization playing it), then the attacker goes on."""
    fight = w.fight
    assert fight is not None
    i = fight.queue[0]
    f = fight.fighters[i]
    while fight.pending:
        e = fight.pending[0]
        g = fight.fighters[fight.target]
        if e == E_GRILL and grill_choices(w, c):
            flow.decide(w, D_GRILL, effect_chooser(w, f))
            return
        if e == E_PROJECT and not g.gone and _adjacent_room(w, c, _where(w, g)[0]):
            flow.decide(w, D_PROJECT, effect_chooser(w, f))
            return
        if e == E_DODGE and not g.gone and g.kind != HENCHMAN and _adjacent_room(w, c, _where(w, g)[0]):
            flow.decide(w, D_DODGE, g.org)
            return
        if e == E_SECOND and not f.gone and _second_targets(w, c):
            flow.decide(w, D_SECOND, effect_chooser(w, f))
            return
        if e == E_ADRENALIN and not f.gone and _adjacent_room(w, c, _where(w, f)[0]):
            flow.decide(w, D_ADRENALIN, effect_chooser(w, f))
            return
        fight = w.set_fight(pending=fight.pending[1:])
    _after_attack(w, c)


def grill_choices(s: Work | State, c: Content) -> list[int]:
    """The intact Cyber-Implants of the target just hit that the attacker may grill (none once the
    target is out of the game). rule: cyberverse/supply-weapons - "If the Attack succeeds in
    inflicting at least 1 Damage, the Attacker may choose to grill a Cyber-Implant of his target";
    rule: cyberverse/status-tokens - Anti-virus: the Agent's Cyber-Implants cannot be grilled."""
    fight = s.fight
    assert fight is not None
    g = fight.fighters[fight.target]
    if g.gone or g.kind != AGENT:
        return []
    agent = next((a for a in s.agents if a.sheet == g.ref), None)
    if agent is None:
        return []
    return sorted({t for t in agent.kit if t not in agent.broken and c.tokens[t].category == IMPLANT})


def _pending_choice(w: Work, c: Content, a: Action) -> None:
    fight = w.fight
    assert fight is not None
    step = w.step
    if step == D_GRILL and a.kind == "grill":
        target = fight.fighters[fight.target].ref
        w.set_agent(target, broken=insert_sorted(w.agent(target).broken, a.a))
    elif step == D_PROJECT or (step == D_DODGE and a.kind == "dodge"):
        _place(w, fight.target, a.a)
    elif step == D_ADRENALIN and a.kind == "step":
        _place(w, fight.queue[0], a.a)
    fight = w.set_fight(pending=fight.pending[1:])
    if step == D_SECOND and a.kind == "attack":
        i = fight.queue[0]
        more = _strike(w, c, i, a.a, a.b, xp=fight.xp)
        fight = w.fight
        assert fight is not None
        if not fight.fighters[i].gone:
            w.set_fight(target=a.a, pending=tuple(sorted((*more, *fight.pending))))
    _resolve(w, c)


def _after_attack(w: Work, c: Content) -> None:
    fight = w.fight
    assert fight is not None
    i = fight.queue[0]
    f = fight.fighters[i]
    if f.kind == HENCHMAN or f.gone:
        _done(w, c)
        return
    fight = w.set_fight(attacks=fight.attacks - 1, targets=0, target=-1, weapon=-1, xp=0)
    if _targets(w, c, i):
        flow.decide(w, D_ATTACK, f.org)
        return
    _done(w, c)


def _reveal(w: Work, c: Content, j: int) -> None:
    """A Combat token is revealed when its miniature attacks or is attacked: Bandage and Medkit heal."""
    fight = w.fight
    assert fight is not None
    g = fight.fighters[j]
    if g.shown or g.token < 0:
        return
    w.set_fighter(j, shown=True)
    eff = _effect(c, g)
    points = 1 if eff == BANDAGE else 2 if eff == MEDKIT else 0
    if not points:
        return
    if g.kind == AGENT:
        agent = w.agent(g.ref)
        health, status = heal(c, agent, points)
        w.set_agent(g.ref, health=health, status=status)
    else:
        w.set_fighter(j, health=min(_card(c, g).health, g.health + points))


def _discard_token(w: Work, j: int) -> None:
    """The fighter's Combat token, revealed, is discarded (set aside face up: owner -1)."""
    fight = w.fight
    assert fight is not None
    g = fight.fighters[j]
    w.set_fighter(j, token=-1)
    fight = w.fight
    assert fight is not None
    w.set_fight(aside=(*fight.aside, (-1, g.token)))


def strike(
    s: Work | State, c: Content, i: int, j: int, weapon: int, *, xp: int, tokens: tuple[int, int]
) -> tuple[Blow, int]:
    """rule: cyberverse/combat - the numbers of fighter ``i``'s attack on ``j`` with Weapon token
    ``weapon`` (-1 bare-handed) and ``xp`` XP tokens, when their Combat tokens are ``tokens``
    (attacker's, target's; -1 none): the Blow read on the Damage table and the Weapon's effects.
    Pure: the engine's attack and the exact odds in its explanations share it."""
    fight = s.fight
    assert fight is not None
    f, g = fight.fighters[i], fight.fighters[j]
    board = board_of(s, c, fight.district)
    zf, sf = _where(s, f)
    zg, sg = _where(s, g)
    if f.kind == AGENT:
        agent = next(a for a in s.agents if a.sheet == f.ref)
        combat = min(FEATURE_MAX, feature(c, agent, COMBAT) + xp) + attack_bonus(c, agent)
        tok = c.tokens[weapon] if weapon >= 0 else None
        bonus = tok.bonus if tok else 0
        ranged = bool(tok and tok.ranged)
        effects = tok.effects if tok else 0
    else:
        h = _card(c, f)
        combat, bonus, ranged, effects = h.attack, 0, h.ranged, h.effects
    if g.kind == AGENT:
        defense = defense_bonus(c, s, next(a for a in s.agents if a.sheet == g.ref))
    else:
        defense = _card(c, g).defense
    blow = attack(
        combat=combat,
        token_attack=c.combat_tokens[tokens[0]].attack if tokens[0] >= 0 else 0,
        weapon_bonus=bonus,
        ranged_weapon=ranged,
        attacker_effect=_token_effect(c, tokens[0]),
        advantage=_spot_kind(board, sf) == 0,
        other_zone_reach=bool(effects & W_REACH) and zf != zg,
        defense=defense,
        token_defense=c.combat_tokens[tokens[1]].defense if tokens[1] >= 0 else 0,
        defender_effect=_token_effect(c, tokens[1]),
        cover=_spot_kind(board, sg) == 1,
        target_is_agent=g.kind == AGENT,
    )
    return blow, effects


def keep_better(c: Content, pair: Sequence[int], role: str) -> int:
    """The token of ``pair`` a fighter keeps for ``role`` (``attack``: the higher Attack, then
    Defense; ``defense``: the other way round): our reading of a choice nobody else sees."""
    a, b = (c.combat_tokens[t] for t in pair)
    ka = (a.attack, a.defense) if role == "attack" else (a.defense, a.attack)
    kb = (b.attack, b.defense) if role == "attack" else (b.defense, b.attack)
    return pair[0] if ka >= kb else pair[1]


def _token_draws(
    c: Content, f: Fighter, pool: list[int], role: str
) -> list[tuple[int, float, tuple[int, ...]]]:
    """(token, probability, pool indices used) for fighter ``f``'s Combat token as seen: the token
    itself when known (-1 none); else an Agent's better of 2 drawn, a Henchman's one draw."""
    if f.token != UNKNOWN:
        return [(f.token, 1.0, ())]
    n = len(pool)
    if f.kind == AGENT and n >= 2:
        pairs = list(itertools.combinations(range(n), 2))
        return [(keep_better(c, (pool[x], pool[y]), role), 1 / len(pairs), (x, y)) for x, y in pairs]
    return [(pool[x], 1 / n, (x,)) for x in range(n)] if n else [(-1, 1.0, ())]


def attack_outcomes(
    obs: State, c: Content, i: int, j: int, *, weapon: int, xp: int
) -> dict[tuple[int, int], float]:
    """rule: cyberverse/combat-tokens, rule: cyberverse/damage-table - the exact distribution of
    (Health points lost, Status bit) of fighter ``i``'s attack on ``j`` as the seat of ``obs`` (an
    observation) sees the Combat: a token it cannot see is one drawn from the tokens it has not
    seen, without replacement (an Agent's the better of 2 for its role). A Smoke bomb or Stealth
    counts as no damage."""
    fight = obs.fight
    assert fight is not None
    f, g = fight.fighters[i], fight.fighters[j]
    pool = list(obs.decks.tokens)
    out: dict[tuple[int, int], float] = {}
    for ta, pa, used in _token_draws(c, f, pool, "attack"):
        rest = [t for k, t in enumerate(pool) if k not in used]
        for td, pd, _ in _token_draws(c, g, rest, "defense"):
            blow, _effects = strike(obs, c, i, j, weapon, xp=xp, tokens=(ta, td))
            key = (blow.health, blow.status)
            out[key] = out.get(key, 0.0) + pa * pd
    return out


def _strike(w: Work, c: Content, i: int, j: int, weapon: int, *, xp: int = 0) -> tuple[int, ...]:
    """Fighter ``i`` attacks fighter ``j`` (with Weapon token ``weapon`` or -1); returns the effects
    left to resolve (grill, Projection, Adrenalin after being attacked, after attacking)."""
    _reveal(w, c, i)
    _reveal(w, c, j)
    fight = w.fight
    assert fight is not None
    f, g = fight.fighters[i], fight.fighters[j]
    a_eff, d_eff = _effect(c, f), _effect(c, g)
    blow, effects = strike(w, c, i, j, weapon, xp=xp, tokens=(f.token, g.token))
    pending: list[int] = []
    if d_eff in (ENERGY_SHIELD, SMOKE_BOMB, ADRENALIN_DEFENSE):  # the token is discarded after use
        _discard_token(w, j)
        if d_eff == ADRENALIN_DEFENSE:
            pending.append(E_DODGE)
    if not blow.cancelled:
        _apply_blow(w, c, i, j, blow, weapon=weapon, effects=effects, a_eff=a_eff)
        if blow.health and effects & W_GRILL and d_eff != ANTI_VIRUS and g.kind == AGENT:
            pending.append(E_GRILL)
        if a_eff == PROJECTION:
            pending.append(E_PROJECT)
    if a_eff == ADRENALIN_ATTACK:
        pending.append(E_ADRENALIN)
    return tuple(pending)


def _apply_blow(
    w: Work, c: Content, i: int, j: int, blow: Blow, *, weapon: int, effects: int, a_eff: int
) -> None:
    fight = w.fight
    assert fight is not None
    f, g = fight.fighters[i], fight.fighters[j]
    if weapon >= 0 and effects & W_FRAGILE and blow.health == 0 and blow.status == 0:
        agent = w.agent(f.ref)  # rule: cyberverse/supply-weapons - a failed attack breaks the Weapon
        w.set_agent(f.ref, broken=insert_sorted(agent.broken, weapon))
    if a_eff == GRAPPLE:
        w.set_fighter(j, grappled=True)
    elif a_eff == DISARM and g.kind == AGENT:
        w.set_fighter(j, disarmed=True)
    if g.kind == AGENT:
        agent = w.agent(g.ref)
        if blow.status:
            agent = w.set_agent(g.ref, status=agent.status | blow.status)
        if blow.health:
            lose_health(w, c, g.ref, blow.health)
    elif blow.health:
        health = g.health - blow.health
        w.set_fighter(j, health=health, gone=health <= 0)
    if blow.frenzy:
        fight = w.fight
        assert fight is not None
        f = fight.fighters[i]
        if f.kind == AGENT and w.agent_at(f.ref) >= 0:
            lose_health(w, c, f.ref, 1)
        elif f.kind != AGENT:
            w.set_fighter(i, health=f.health - 1, gone=f.health <= 1)


# ------------------------------------------------------------------ Henchmen
def henchman_target(s: Work | State, c: Content, i: int) -> int:
    """The printed targeting rule alone (no choice): the Organization with the most Resources;
    among its Agents the nearest, then the lowest Initiative (agents are kept in Initiative order).
    rule: cyberverse/combat"""
    fight = s.fight
    assert fight is not None
    f = fight.fighters[i]
    board = board_of(s, c, fight.district)
    best, key = -1, (0, 0, 0)
    for j, g in enumerate(fight.fighters):
        if g.kind != AGENT or not _enemy(s, c, f, g):
            continue
        zg, _ = _where(s, g)
        k = (-s.orgs[g.org].money, board.distance[f.zone][zg], j)
        if best < 0 or k < key:
            best, key = j, k
    return best


def henchman_targets(s: Work | State, c: Content, i: int) -> list[int]:
    """The characters Henchman ``i`` may be sent against (rule: cyberverse/combat): "Henchmen always
    attack the organization with the most resources", so the enemy characters (its Agents and its
    Teammates, "an enemy character") of the richest Organization with any on the board; "in the
    event of a tie on resources, Henchmen attack the nearest Agent (... the lowest Initiative)", so
    a tie leaves no choice (:func:`henchman_target`)."""
    fight = s.fight
    assert fight is not None
    f = fight.fighters[i]
    enemies = [j for j, g in enumerate(fight.fighters) if g.kind != HENCHMAN and _enemy(s, c, f, g)]
    if not enemies:
        return []
    money = {fight.fighters[j].org: s.orgs[fight.fighters[j].org].money for j in enemies}
    top = max(money.values())
    richest = [org for org, m in money.items() if m == top]
    if len(richest) > 1:
        j = henchman_target(s, c, i)
        return [j] if j >= 0 else []
    return [j for j in enemies if fight.fighters[j].org == richest[0]]


def henchman_controller(s: Work | State, target_org: int) -> int:
    """The Organization that plays the Henchmen against ``target_org`` (rule: cyberverse/combat):
    in a 2-player game its opponent ("each player controls the Henchmen who are confronting
    opposing Agents"); otherwise an Organization with no Agent on the District board, "or, failing
    that, which has the fewest Resources" (reading: among several, the fewest Resources, then the
    order of play)."""
    if s.players == 2:
        return 1 - target_org
    fight = s.fight
    assert fight is not None
    present = {a.org for a in s.agents if a.district == fight.district}
    absent = [seat for seat in s.order if seat not in present]
    pool = absent or [seat for seat in s.order if seat != target_org] or list(s.order)
    return min(pool, key=lambda seat: (s.orgs[seat].money, s.order.index(seat)))


def _henchman_turn(w: Work, c: Content, i: int) -> None:
    """A Henchman's target is chosen by the Organization playing it when the rulebook leaves a
    choice; then it moves toward the target and attacks."""
    targets = henchman_targets(w, c, i)
    if not targets:
        _done(w, c)
        return
    if len(targets) == 1:
        _henchman_go(w, c, i, targets[0])
        return
    fight = w.fight
    assert fight is not None
    flow.decide(w, D_HENCHMAN_TARGET, henchman_controller(w, fight.fighters[targets[0]].org))


def _henchman_go(w: Work, c: Content, i: int, j: int) -> None:
    """Henchman ``i`` sets off toward character ``j`` with its Movement (none when grappled)."""
    fight = w.fight
    assert fight is not None
    f = fight.fighters[i]
    w.set_fight(mp=0 if f.grappled else _card(c, f).movement, target=j)
    _henchman_walk(w, c)


def henchman_ways(s: Work | State, c: Content, i: int, j: int) -> list[int]:
    """The zones Henchman ``i``'s next step toward character ``j`` may enter: adjacent (walls are
    not adjacency), with room for one more miniature, and one zone nearer to ``j`` (a shortest
    way). rule: cyberverse/henchmen - Movement, "the maximum number of adjacent zones he can move"."""
    fight = s.fight
    assert fight is not None
    board = board_of(s, c, fight.district)
    zf = fight.fighters[i].zone
    zg, _ = _where(s, fight.fighters[j])
    zones, _ = _zone_counts(s, c)
    here = board.distance[zf][zg]
    return [z for z in board.adjacent[zf] if board.distance[z][zg] < here and zones[z] < ZONE_LIMIT]


def henchman_moves(s: Work | State, c: Content, i: int, j: int) -> list[Action]:
    """The moves Henchman ``i`` (sent against character ``j``) may make with the Movement left.

    Variant ``henchmen_moves="free"`` (the default): stop (``hold``), a step to any adjacent zone
    with room, or the free tactical position of its zone. rule: cyberverse/henchmen - Movement is
    "the maximum number of adjacent zones he can move", and the Organization playing it moves it
    (rule: cyberverse/combat). ``"shortest"``: out of range, a step by a shortest way toward ``j``
    (:func:`henchman_ways`); in range, hold or take the position.

    Either way the position costs 1 Movement point and is never the Hacking position. rule:
    cyberverse/tactical-positions - "A character must spend 1 Movement point to occupy a Tactical
    Position"; rule: cyberverse/hacking - "Henchmen cannot be placed in tactical Hacking positions"."""
    fight = s.fight
    assert fight is not None
    f = fight.fighters[i]
    if fight.mp <= 0:
        return []
    free = s.options.henchmen_moves == "free"
    if not free and not _in_range(s, c, f, fight.fighters[j], _card(c, f).ranged):
        return [act("step", z) for z in henchman_ways(s, c, i, j)]
    board = board_of(s, c, fight.district)
    zones, spots = _zone_counts(s, c)
    out = [act("step", z) for z in _adjacent_room(s, c, f.zone, zones)] if free else []
    p = board.position_at[f.zone]
    if p >= 0 and p not in (board.hacking, f.spot) and not spots[p]:
        out.append(act("spot", p))
    return [act("hold"), *out] if out else []


def _henchman_walk(w: Work, c: Content) -> None:
    """The acting Henchman moves while it has Movement left (:func:`henchman_moves`); where there is
    a choice the Organization playing it decides (step "move in combat"). Then it attacks its
    target (``fight.target``) when in range: rule: cyberverse/combat - "If the Brawl card turns out
    to be red, Henchmen attack the Agents on the board"."""
    fight = w.fight
    assert fight is not None
    i, j = fight.queue[0], fight.target
    while True:
        moves = henchman_moves(w, c, i, j)
        if len(moves) > 1:
            flow.decide(w, D_FIGHT_MOVE, henchman_controller(w, fight.fighters[j].org))
            return
        if not moves:
            break
        _place(w, i, moves[0].a)  # the one way one zone nearer (variant "shortest")
        fight = w.set_fight(mp=fight.mp - 1)
    fight = w.set_fight(mp=0)
    f = fight.fighters[i]
    if _effect(c, f) != STEALTH and _in_range(w, c, f, fight.fighters[j], _card(c, f).ranged):
        _begin_attack(w, c, j, -1)
    else:
        _done(w, c)


def _henchman_move(w: Work, c: Content, a: Action) -> None:
    """The Organization playing the Henchman chose its move: hold (it attacks), a step to a zone,
    or its zone's tactical position."""
    fight = w.fight
    assert fight is not None
    i = fight.queue[0]
    if a.kind == "hold":
        w.set_fight(mp=0)
    else:
        f = fight.fighters[i]
        if a.kind == "step":
            _place(w, i, a.a)
        else:
            _place(w, i, f.zone, a.a)
        w.set_fight(mp=fight.mp - 1)
    _henchman_walk(w, c)


# ------------------------------------------------------------------ end of the Combat
def _clear_henchmen(w: Work, d: int) -> None:
    cards = [card for card, _ in w.city.henchmen[d]]
    if cards:
        w.set_decks(henchmen_discard=tuple(sorted(w.decks.henchmen_discard + tuple(cards))))
        hs = list(w.city.henchmen)
        hs[d] = ()
        w.set_city(henchmen=tuple(hs))


def _end(w: Work, c: Content) -> None:
    """rule: cyberverse/combat - Henchmen and Combat tokens leave; Combat Missions are validated."""
    from games.cyberverse import investigation

    fight = w.fight
    assert fight is not None
    d = fight.district
    tokens = [f.token for f in fight.fighters if f.token >= 0]
    tokens += [t for _, t in fight.aside]
    tokens += list(fight.pair)
    if tokens:
        w.set_decks(tokens=tuple(sorted(w.decks.tokens + tuple(tokens))))
    _clear_henchmen(w, d)
    engaged, took = fight.engaged, fight.took_part
    w.fight = None
    if engaged:
        for seat in range(w.players):
            if took >> seat & 1 and any(a.org == seat and a.district == d for a in w.agents):
                investigation.validate_kind(w, c, seat, investigation.COMBAT_MISSION, d)
    investigation.next_stage(w, c)
