"""One attack in a Combat: its numbers, the Damage table, and what a hit does.

rule: cyberverse/combat-tokens - Attack = Combat + token bonus (+ Weapon bonus); Defense = token
Defense (+ Equipment) for Agents, Defense feature + token Defense for Henchmen.
rule: cyberverse/damage-table - the difference Attack - Defense read on the Damage table.
rule: cyberverse/status-tokens - Status tokens (never two of a type; none on Henchmen) and the
attack and defense effects of Combat tokens (revealed when their miniature attacks or is attacked).
rule: cyberverse/supply-weapons - close combat (own zone) or ranged (own or adjacent zone), grill,
fragile, +1 against a target in another zone (EXPERT and the extra Combat Action: ``agents.py``,
``combat.py``).

:func:`attack` and :func:`strike` are pure: the engine, the solver's exact odds and the explanations
share them; :func:`hit` applies one to the Combat under way.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from games.cyberverse.agents import FEATURE_MAX, attack_bonus, defense_bonus, feature, heal, lose_health
from games.cyberverse.board import board_of
from games.cyberverse.content import COMBAT, IMPLANT, TOKEN_EFFECTS, WEAPON_EFFECTS, Content, HenchmanCard
from games.cyberverse.hidden import UNKNOWN
from games.cyberverse.positions import ADVANTAGE, COVER, spot_kind, where
from games.cyberverse.state import (
    AGENT,
    BLEEDING,
    E_ADRENALIN,
    E_DODGE,
    E_GRILL,
    E_PROJECT,
    HENCHMAN,
    SUPPRESSION,
    WOUND,
    Fighter,
    State,
)
from games.cyberverse.work import Work, insert_sorted, with_member

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
"""The Combat token effects (``TOKEN_EFFECTS``), in printed order."""
W_GRILL, W_FRAGILE, W_TWIN, W_EXTRA, W_REACH = range(len(WEAPON_EFFECTS))
"""The Weapon effects (``WEAPON_EFFECTS``), as held in a token's ``effects``."""


def damage(diff: int) -> tuple[int, tuple[int, ...]]:
    """rule: cyberverse/damage-table - (Health points lost, Status tokens) for Attack - Defense.

    0 or lower: nothing; +1 to +2: Suppression; +3 to +4: -1 Health and Wound; +5 to +7: -1 Health
    and Bleeding; +8 and up: -2 Health and Bleeding.
    """
    if diff <= 0:
        return 0, ()
    if diff <= 2:
        return 0, (SUPPRESSION,)
    if diff <= 4:
        return 1, (WOUND,)
    if diff <= 7:
        return 1, (BLEEDING,)
    return 2, (BLEEDING,)


@dataclass(frozen=True, slots=True)
class Blow:
    """The numbers of one attack (for the engine, the solver and explanations).

    Attributes:
        attack: the Attack value.
        defense: the Defense value.
        health: Health points the target loses.
        status: the Status tokens it receives (sorted; none for Henchmen).
        cancelled: a Smoke bomb cancelled the attack.
        frenzy: the attacker loses 1 Health point (Frenzy).
    """

    attack: int
    defense: int
    health: int
    status: tuple[int, ...]
    cancelled: bool
    frenzy: bool


def token_effect(c: Content, token: int) -> int:
    return c.combat_tokens[token].effect if token >= 0 else -1


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
        return Blow(0, 0, 0, (), True, False)
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
    if not target_is_agent:
        status = ()
    elif attacker_effect == POISONED_BLADE:
        status = with_member(status, BLEEDING)
    return Blow(value, guard, health, status, False, frenzy)


def henchman_card(c: Content, f: Fighter) -> HenchmanCard:
    """The Henchman card of a Henchman or a Teammate."""
    return c.henchmen[f.card if f.card >= 0 else c.henchman_type_card[f.ref]]


def effect_of(c: Content, f: Fighter) -> int:
    return token_effect(c, f.token)


def side_of(f: Fighter) -> int:
    return -1 if f.kind == HENCHMAN else f.org


def enemy(s: Work | State, c: Content, f: Fighter, g: Fighter) -> bool:
    """Whether ``f`` may attack ``g``: another side, not hidden by Stealth; a Henchman on a green
    Brawl card neither attacks nor can be attacked (cyberverse/combat)."""
    fight = s.fight
    assert fight is not None
    if g.gone or (g.shown and effect_of(c, g) == STEALTH) or side_of(f) == side_of(g):
        return False
    return fight.red or HENCHMAN not in (f.kind, g.kind)


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


def reveal(w: Work, c: Content, j: int) -> None:
    """A Combat token is revealed when its miniature attacks or is attacked: Bandage and Medkit heal."""
    fight = w.fight
    assert fight is not None
    g = fight.fighters[j]
    if g.shown or g.token < 0:
        return
    w.set_fighter(j, shown=True)
    eff = effect_of(c, g)
    points = 1 if eff == BANDAGE else 2 if eff == MEDKIT else 0
    if not points:
        return
    if g.kind == AGENT:
        agent = w.agent(g.ref)
        health, status = heal(c, agent, points)
        w.set_agent(g.ref, health=health, status=status)
    else:
        w.set_fighter(j, health=min(henchman_card(c, g).health, g.health + points))


def discard_token(w: Work, j: int) -> None:
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
) -> tuple[Blow, tuple[int, ...]]:
    """cyberverse/combat - the numbers of fighter ``i``'s attack on ``j`` with Weapon token
    ``weapon`` (-1 bare-handed) and ``xp`` XP tokens, when their Combat tokens are ``tokens``
    (attacker's, target's; -1 none): the Blow read on the Damage table and the Weapon's effects.
    Pure: the engine's attack and the exact odds in its explanations share it."""
    fight = s.fight
    assert fight is not None
    f, g = fight.fighters[i], fight.fighters[j]
    board = board_of(s, c, fight.district)
    zf, sf = where(s, f)
    zg, sg = where(s, g)
    if f.kind == AGENT:
        agent = next(a for a in s.agents if a.sheet == f.ref)
        combat = min(FEATURE_MAX, feature(c, agent, COMBAT) + xp) + attack_bonus(c, agent)
        tok = c.tokens[weapon] if weapon >= 0 else None
        bonus = tok.bonus if tok else 0
        ranged = bool(tok and tok.ranged)
        effects = tok.effects if tok else ()
    else:
        h = henchman_card(c, f)
        combat, bonus, ranged, effects = h.attack, 0, h.ranged, h.effects
    if g.kind == AGENT:
        defense = defense_bonus(c, s, next(a for a in s.agents if a.sheet == g.ref))
    else:
        defense = henchman_card(c, g).defense
    blow = attack(
        combat=combat,
        token_attack=c.combat_tokens[tokens[0]].attack if tokens[0] >= 0 else 0,
        weapon_bonus=bonus,
        ranged_weapon=ranged,
        attacker_effect=token_effect(c, tokens[0]),
        advantage=spot_kind(board, sf) == 0,
        other_zone_reach=W_REACH in effects and zf != zg,
        defense=defense,
        token_defense=c.combat_tokens[tokens[1]].defense if tokens[1] >= 0 else 0,
        defender_effect=token_effect(c, tokens[1]),
        cover=spot_kind(board, sg) == 1,
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


def token_draws(
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
) -> dict[tuple[int, tuple[int, ...]], float]:
    """rule: cyberverse/combat-tokens, rule: cyberverse/damage-table - the exact distribution of
    (Health points lost, Status tokens) of fighter ``i``'s attack on ``j`` as the seat of ``obs`` (an
    observation) sees the Combat: a token it cannot see is one drawn from the tokens it has not
    seen, without replacement (an Agent's the better of 2 for its role). A Smoke bomb or Stealth
    counts as no damage."""
    fight = obs.fight
    assert fight is not None
    f, g = fight.fighters[i], fight.fighters[j]
    pool = list(obs.decks.tokens)
    out: dict[tuple[int, tuple[int, ...]], float] = {}
    for ta, pa, used in token_draws(c, f, pool, "attack"):
        rest = [t for k, t in enumerate(pool) if k not in used]
        for td, pd, _ in token_draws(c, g, rest, "defense"):
            blow, _effects = strike(obs, c, i, j, weapon, xp=xp, tokens=(ta, td))
            key = (blow.health, blow.status)
            out[key] = out.get(key, 0.0) + pa * pd
    return out


def hit(w: Work, c: Content, i: int, j: int, weapon: int, *, xp: int = 0) -> tuple[int, ...]:
    """Fighter ``i`` attacks fighter ``j`` (with Weapon token ``weapon`` or -1); returns the effects
    left to resolve (grill, Projection, Adrenalin after being attacked, after attacking)."""
    reveal(w, c, i)
    reveal(w, c, j)
    fight = w.fight
    assert fight is not None
    f, g = fight.fighters[i], fight.fighters[j]
    a_eff, d_eff = effect_of(c, f), effect_of(c, g)
    blow, effects = strike(w, c, i, j, weapon, xp=xp, tokens=(f.token, g.token))
    pending: list[int] = []
    if d_eff in (ENERGY_SHIELD, SMOKE_BOMB, ADRENALIN_DEFENSE):  # the token is discarded after use
        discard_token(w, j)
        if d_eff == ADRENALIN_DEFENSE:
            pending.append(E_DODGE)
    if not blow.cancelled:
        apply_blow(w, c, i, j, blow, weapon=weapon, effects=effects, a_eff=a_eff)
        if blow.health and W_GRILL in effects and d_eff != ANTI_VIRUS and g.kind == AGENT:
            pending.append(E_GRILL)
        if a_eff == PROJECTION:
            pending.append(E_PROJECT)
    if a_eff == ADRENALIN_ATTACK:
        pending.append(E_ADRENALIN)
    return tuple(pending)


def apply_blow(
    w: Work, c: Content, i: int, j: int, blow: Blow, *, weapon: int, effects: tuple[int, ...], a_eff: int
) -> None:
    fight = w.fight
    assert fight is not None
    f, g = fight.fighters[i], fight.fighters[j]
    if weapon >= 0 and W_FRAGILE in effects and blow.health == 0 and not blow.status:
        agent = w.agent(f.ref)  # rule: cyberverse/supply-weapons - a failed attack breaks the Weapon
        w.set_agent(f.ref, broken=insert_sorted(agent.broken, weapon))
    if a_eff == GRAPPLE:
        w.set_fighter(j, grappled=True)
    elif a_eff == DISARM and g.kind == AGENT:
        w.set_fighter(j, disarmed=True)
    if g.kind == AGENT:
        agent = w.agent(g.ref)
        if blow.status:
            agent = w.set_agent(g.ref, status=tuple(sorted({*agent.status, *blow.status})))
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
