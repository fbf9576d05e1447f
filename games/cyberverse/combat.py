"""Combat on a district board: the Brawl card, Support cards, Combat tokens, activation and attacks.

rule: cyberverse/combat - a Brawl card is drawn and its Henchmen placed zone 1, zone 2, ...
(board limits in ``board.py``); green: the Henchmen neither attack nor can be attacked; red: they
attack the Organization with the most Resources and play last. Each Organization draws 2 Combat
tokens per Agent on the board and keeps 1; Henchmen receive 1. Agents act in Initiative order
(lowest first): they move, then attack; then Henchmen. Afterwards every miniature but the Agents
and every Combat token leaves the board, and the Combat Missions of the district are validated.
The numbers of one attack and what a hit does are in ``damage.py`` (cyberverse/combat-tokens,
damage-table, status-tokens, supply-weapons), where miniatures stand and move in ``positions.py``
(cyberverse/tactical-positions), the Henchmen's targets, masters and moves in ``henchmen.py``
(cyberverse/henchmen); this module drives the Combat's steps with them.

rule: cyberverse/support-cards - before the Combat, Agents in Initiative order may discard one of
their Organization's Support cards (one per Organization and board, only with Henchmen on the
board) to change Henchmen into Teammates, no more than the card says nor the Agent's Reputation;
Teammates act after the Agents.

Simplified (docs/cyberverse.md, "Simplified"): one round of Combat, each character acts once (an
"extra Combat Action" Weapon gives a second attack). The Organization playing the Henchmen
(``henchmen.henchman_controller``) chooses a Henchman's target among the richest Organization's
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

from games.cyberverse import flow
from games.cyberverse.agents import (
    FEATURE_MAX,
    feature,
    movement_points,
    spend_xp,
    usable_weapons,
    xp_available,
)
from games.cyberverse.board import board_of, henchman_zone
from games.cyberverse.content import COMBAT, REPUTATION, Content
from games.cyberverse.damage import (
    MULTIPLE_SHOT,
    STEALTH,
    W_EXTRA,
    W_TWIN,
    effect_of,
    enemy,
    grill_choices,
    henchman_card,
    hit,
)
from games.cyberverse.henchmen import henchman_controller, henchman_moves, henchman_targets
from games.cyberverse.positions import adjacent_room, fight_moves, in_range, place, where
from games.cyberverse.state import (
    AGENT,
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
    TEAMMATE,
    Action,
    Fight,
    Fighter,
    State,
    act,
)
from games.cyberverse.work import Work, insert_sorted, remove_one, with_member

__all__ = [
    "legal",
    "new_fighter",
    "on_brawl",
    "on_fighter_token",
    "on_token",
    "perform",
    "start",
]


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
    w.fight = Fight(d, -1, False, (), (), -1, 0, 0, -1, -1, 0, (), (), (), (), (), False, 0)
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
        fighters.append(new_fighter(HENCHMAN, h.kind, card=card_id, zone=zone, health=h.health))
        zones[zone] += 1
        total += 1
        hench += 1
    for k, kind in enumerate(brawl.henchmen):
        zone = henchman_zone(board, zones, total, hench, k)
        if zone < 0:
            break
        h = c.henchmen[c.henchman_type_card[kind]]
        fighters.append(new_fighter(HENCHMAN, kind, zone=zone, health=h.health))
        zones[zone] += 1
        total += 1
        hench += 1
    w.set_fight(fighters=tuple(fighters))
    _engage(w, c)


def new_fighter(
    kind: int, ref: int, *, card: int = -1, org: int = -1, zone: int = -1, health: int = 0
) -> Fighter:
    """A miniature entering a Combat: not activated, no Combat token yet, no tactical position."""
    return Fighter(
        kind=kind,
        ref=ref,
        card=card,
        org=org,
        zone=zone,
        spot=-1,
        health=health,
        token=-1,
        shown=False,
        done=False,
        grappled=False,
        disarmed=False,
        gone=False,
        leader=-1,
    )


def _engage(w: Work, c: Content) -> None:
    """Agents join the fight; the Combat is engaged or the Henchmen leave (reading, module doc)."""
    fight = w.fight
    assert fight is not None
    d = fight.district
    agents = tuple(new_fighter(AGENT, a.sheet, org=a.org) for a in w.agents if a.district == d)
    orgs = {f.org for f in agents}
    henchmen = [f for f in fight.fighters if f.kind == HENCHMAN]
    engaged = (fight.red and bool(henchmen)) or len(orgs) > 1
    fighters = agents + tuple(henchmen)
    w.set_fight(fighters=fighters, engaged=engaged, took_part=tuple(sorted(orgs)))
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
    if f.gone or f.org in fight.supported or not w.orgs[f.org].support or not _free_henchmen(fight):
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
        supported=with_member(fight.supported, f.org), convert=min(c.support[card].teammates, reputation)
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
            extra = any(W_EXTRA in c.tokens[t].effects for t in _weapons(w, c, f))
        else:
            mp, extra = henchman_card(c, f).movement, False
        w.set_fight(mp=0 if f.grappled else mp, attacks=2 if extra else 1, targets=0, target=-1, weapon=-1)
        if fight_moves(w, c, i):
            flow.decide(w, D_FIGHT_MOVE, f.org)
            return
        w.set_fight(mp=0)
        if _targets(w, c, i):
            flow.decide(w, D_ATTACK, f.org)
            return
        fight = w.set_fight(queue=fight.queue[1:])
    _end(w, c)


def _weapons(s: Work | State, c: Content, f: Fighter) -> list[int]:
    if f.disarmed or f.kind != AGENT:
        return []
    return usable_weapons(c, next(a for a in s.agents if a.sheet == f.ref))


def _attacks_on(s: Work | State, c: Content, i: int, j: int) -> list[Action]:
    """Attacks of fighter ``i`` on ``j``: bare-handed (own zone) or with each usable Weapon in range;
    an Agent may add XP tokens to its Combat for the action (cyberverse/increasing-features,
    never above 5)."""
    fight = s.fight
    assert fight is not None
    f, g = fight.fighters[i], fight.fighters[j]
    if j == i or not enemy(s, c, f, g):
        return []
    out: list[Action] = []
    if f.kind == AGENT:
        agent = next(a for a in s.agents if a.sheet == f.ref)
        top = max(0, min(xp_available(s, agent), FEATURE_MAX - feature(c, agent, COMBAT)))
        weapons = [-1] if in_range(s, c, f, g, False) else []
        weapons += [t for t in _weapons(s, c, f) if in_range(s, c, f, g, c.tokens[t].ranged)]
        out.extend(act("attack", j, t, x) for t in weapons for x in range(top + 1))
    elif in_range(s, c, f, g, henchman_card(c, f).ranged):
        out.append(act("attack", j, -1))
    return out


def _targets(s: Work | State, c: Content, i: int) -> list[Action]:
    """The attacks fighter ``i`` may make now. cyberverse/status-tokens - Stealth: "Cannot
    attack or be attacked" (it still moves: the token says nothing of moving)."""
    fight = s.fight
    assert fight is not None
    if fight.attacks <= 0 or effect_of(c, fight.fighters[i]) == STEALTH:
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
    zone, _ = where(s, fight.fighters[first])
    henchman = fight.fighters[i].kind == HENCHMAN
    out: list[Action] = []
    for j, g in enumerate(fight.fighters):
        if j == first or (fight.targets == 1 and where(s, g)[0] != zone):
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
        return [act("hold"), *fight_moves(s, c, i)]
    if step == D_ATTACK:
        return [act("hold"), *_targets(s, c, i)]
    if step == D_SECOND:
        return [act("hold"), *_second_targets(s, c)]
    if step == D_GRILL:
        return [act("no-grill"), *(act("grill", t) for t in grill_choices(s, c))]
    if step == D_PROJECT:
        zone, _ = where(s, fight.fighters[fight.target])
        return [act("project", z) for z in adjacent_room(s, c, zone)]
    if step == D_DODGE:
        zone, _ = where(s, fight.fighters[fight.target])
        return [act("stand"), *(act("dodge", z) for z in adjacent_room(s, c, zone))]
    if step == D_ADRENALIN:
        zone, _ = where(s, fight.fighters[i])
        return [act("hold"), *(act("step", z) for z in adjacent_room(s, c, zone))]
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
        zone, _ = where(w, f)
        if a.kind == "step":
            place(w, i, a.a)
        else:
            place(w, i, zone, a.a)
        fight = w.set_fight(mp=fight.mp - 1)
        if fight_moves(w, c, i):
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
    effects = c.tokens[weapon].effects if weapon >= 0 else ()
    if xp:
        spend_xp(w, f.ref, xp)
    w.set_fight(xp=xp)
    pending = hit(w, c, i, j, weapon, xp=xp)
    fight = w.fight
    assert fight is not None
    if fight.fighters[i].gone:
        pending = ()
    elif effect_of(c, f) == MULTIPLE_SHOT:
        pending = (*pending, E_SECOND)
        w.set_fight(targets=1)
    elif W_TWIN in effects:
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
        if e == E_PROJECT and not g.gone and adjacent_room(w, c, where(w, g)[0]):
            flow.decide(w, D_PROJECT, effect_chooser(w, f))
            return
        if e == E_DODGE and not g.gone and g.kind != HENCHMAN and adjacent_room(w, c, where(w, g)[0]):
            flow.decide(w, D_DODGE, g.org)
            return
        if e == E_SECOND and not f.gone and _second_targets(w, c):
            flow.decide(w, D_SECOND, effect_chooser(w, f))
            return
        if e == E_ADRENALIN and not f.gone and adjacent_room(w, c, where(w, f)[0]):
            flow.decide(w, D_ADRENALIN, effect_chooser(w, f))
            return
        fight = w.set_fight(pending=fight.pending[1:])
    _after_attack(w, c)


def _pending_choice(w: Work, c: Content, a: Action) -> None:
    fight = w.fight
    assert fight is not None
    step = w.step
    if step == D_GRILL and a.kind == "grill":
        target = fight.fighters[fight.target].ref
        w.set_agent(target, broken=insert_sorted(w.agent(target).broken, a.a))
    elif step == D_PROJECT or (step == D_DODGE and a.kind == "dodge"):
        place(w, fight.target, a.a)
    elif step == D_ADRENALIN and a.kind == "step":
        place(w, fight.queue[0], a.a)
    fight = w.set_fight(pending=fight.pending[1:])
    if step == D_SECOND and a.kind == "attack":
        i = fight.queue[0]
        more = hit(w, c, i, a.a, a.b, xp=fight.xp)
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
    w.set_fight(mp=0 if f.grappled else henchman_card(c, f).movement, target=j)
    _henchman_walk(w, c)


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
        place(w, i, moves[0].a)  # the one way one zone nearer (variant "shortest")
        fight = w.set_fight(mp=fight.mp - 1)
    fight = w.set_fight(mp=0)
    f = fight.fighters[i]
    if effect_of(c, f) != STEALTH and in_range(w, c, f, fight.fighters[j], henchman_card(c, f).ranged):
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
            place(w, i, a.a)
        else:
            place(w, i, f.zone, a.a)
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
            if seat in took and any(a.org == seat and a.district == d for a in w.agents):
                investigation.validate_kind(w, c, seat, investigation.COMBAT_MISSION, d)
    investigation.next_stage(w, c)
