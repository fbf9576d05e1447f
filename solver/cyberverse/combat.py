"""``cyberverse.combat``: the exact distribution of one attack's result on the Damage table over the
Combat tokens still in the pool (the attacker draws 2 and keeps 1; the target receives 1, or
draws 2 and keeps 1 if it is an Agent), with the engine's own ``attack``."""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import Game
from games.cyberverse.agents import attack_bonus, defense_bonus, feature, usable_weapons
from games.cyberverse.content import COMBAT, STATUSES, Content
from games.cyberverse.damage import attack, keep_better
from games.cyberverse.state import State
from games.errors import ConfigError
from solver.core import SolveLimits, SolveResult, Status, check_param_keys, shown
from solver.cyberverse.params import game_of, state_of, str_param


# ============================================================================ combat
@dataclass(frozen=True, slots=True)
class Side:
    """A fighter's numbers for one attack (without its Combat token).

    Attributes:
        combat: Combat feature (Attack feature for a Henchman) plus skill.
        weapon_bonus: the Weapon's Combat bonus (0 bare-handed).
        ranged: the Weapon is ranged.
        defense: Defense bonus of Equipment (Agents) or the Defense feature (Henchmen).
        agent: it is an Agent (draws 2 Combat tokens and keeps 1; takes Status tokens).
        advantage: stands on an Advantageous position.
        cover: stands on a Covered position.
    """

    combat: int
    weapon_bonus: int
    ranged: bool
    defense: int
    agent: bool
    advantage: bool = False
    cover: bool = False


def combat_distribution(
    c: Content, pool: Sequence[int], attacker: Side, target: Side
) -> dict[tuple[int, tuple[int, ...]], float]:
    """rule: cyberverse/combat, combat-tokens, damage-table - P((Health lost, Status tokens)) of one
    attack over the Combat tokens drawn from ``pool``: an Agent draws 2 and keeps the better for its
    role (attack for the attacker, defense for the target), a Henchman receives 1; draws without
    replacement, the attacker first. A Smoke bomb counts as no damage."""
    pool = list(pool)
    out: dict[tuple[int, tuple[int, ...]], float] = {}

    def hits(ta: int, td: int, w: float) -> None:
        a, d = c.combat_tokens[ta], c.combat_tokens[td]
        blow = attack(
            combat=attacker.combat,
            token_attack=a.attack,
            weapon_bonus=attacker.weapon_bonus,
            ranged_weapon=attacker.ranged,
            attacker_effect=a.effect,
            advantage=attacker.advantage,
            other_zone_reach=False,
            defense=target.defense,
            token_defense=d.defense,
            defender_effect=d.effect,
            cover=target.cover,
            target_is_agent=target.agent,
        )
        key = (blow.health, blow.status)
        out[key] = out.get(key, 0.0) + w

    n = len(pool)
    draws_a: list[tuple[tuple[int, ...], tuple[int, ...]]]
    if attacker.agent:
        draws_a = [((pool[i], pool[j]), (i, j)) for i, j in itertools.combinations(range(n), 2)]
    else:
        draws_a = [((pool[i],), (i,)) for i in range(n)]
    wa = 1.0 / len(draws_a)
    for tokens, used in draws_a:
        ta = keep_better(c, (tokens[0], tokens[1]), "attack") if len(tokens) == 2 else tokens[0]
        rest = [pool[k] for k in range(n) if k not in used]
        if target.agent:
            pairs = list(itertools.combinations(rest, 2))
            for pair in pairs:
                hits(ta, keep_better(c, pair, "defense"), wa / len(pairs))
        else:
            for td in rest:
                hits(ta, td, wa / len(rest))
    return out


def _severity(row: tuple[tuple[int, tuple[int, ...]], float]) -> tuple[int, tuple[int, ...]]:
    """How bad an outcome (Health points lost, Status tokens) is: the Health points, then the worst
    Status token (Bleeding, Wound, Suppression), then the next."""
    (health, status), _ = row
    return health, status[::-1]


def _side_of_agent(s: State, c: Content, name: str, field: str) -> Side | None:
    for a in s.agents:
        if c.faces[2 * a.sheet + a.side].name == name:
            weapons = usable_weapons(c, a)
            best = max(weapons, key=lambda t: c.tokens[t].bonus, default=-1)
            kind = -1
            if a.district >= 0 and a.spot >= 0:  # rule: cyberverse/tactical-positions
                kind = c.boards[s.city.boards[a.district]].positions[a.spot][1]
            return Side(
                combat=feature(c, a, COMBAT) + attack_bonus(c, a),
                weapon_bonus=c.tokens[best].bonus if best >= 0 else 0,
                ranged=bool(best >= 0 and c.tokens[best].ranged),
                defense=defense_bonus(c, s, a),
                agent=True,
                advantage=kind == 0,
                cover=kind == 1,
            )
    return None


COMBAT_PARAMS: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "attacker": {"type": "string", "description": "The attacking Agent (its sheet's name)."},
        "target": {
            "type": "string",
            "description": "The target: an Agent's name or a Henchman type (e.g. 'Killer').",
        },
    },
}


def combat(game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits) -> SolveResult:
    """The exact distribution of one attack's result over the Combat tokens left in the pool."""
    t0 = time.perf_counter()
    g, s = game_of(game), state_of(state)
    c = g.content_pack
    params = check_param_keys(params, COMBAT_PARAMS)
    names = sorted(c.faces[2 * a.sheet + a.side].name for a in s.agents)
    att = _side_of_agent(s, c, str_param(params, "attacker", ""), "attacker")
    if att is None:
        raise ConfigError(
            f"attacker must be a recruited Agent {names}, got {shown(params.get('attacker'))}",
            field="params.attacker",
        )
    tname = str_param(params, "target", "")
    tgt = _side_of_agent(s, c, tname, "target")
    if tgt is None:
        if tname not in c.henchman_types:
            raise ConfigError(
                f"target must be an Agent {names} or a Henchman {list(c.henchman_types)}, got {shown(tname)}",
                field="params.target",
            )
        h = c.henchmen[c.henchman_type_card[c.henchman_types.index(tname)]]
        tgt = Side(combat=h.attack, weapon_bonus=0, ranged=h.ranged, defense=h.defense, agent=False)
    pool = s.decks.tokens
    if len(pool) < 4:
        raise ConfigError("fewer than 4 Combat tokens in the pool", field="state.decks.tokens")
    dist = combat_distribution(c, pool, att, tgt)
    rows = sorted(dist.items(), key=_severity, reverse=True)
    p_hurt = sum(p for (hp, _), p in dist.items() if hp > 0)
    expected = sum(hp * p for (hp, _), p in dist.items())
    answer = {
        "outcomes": [
            {"health lost": hp, "status": [STATUSES[i] for i in st], "probability": p} for (hp, st), p in rows
        ],
        "wound probability": p_hurt,
        "expected health lost": expected,
    }
    text = (
        f"{params['attacker']} takes at least 1 Health point from {tname} with probability {p_hurt:.3f} "
        f"(expected {expected:.2f})"
    )
    text += "; attack." if p_hurt >= 0.5 else "; find a tactical position or a better Weapon first."
    return SolveResult(
        kind="cyberverse.combat",
        status=Status.OPTIMAL,
        objective=expected,
        bound=expected,
        answer=answer,
        explanation=text,
        method="exact enumeration of the token draws",
        wall_s=time.perf_counter() - t0,
    )
