"""Tiberpunk's facts for hints (``explain``, ``outcome_facts``): what a move gains and costs now (odds,
coins, distances, tokens), the same labels on every candidate.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.core.face import (
    REFEREE,
    Fact,
)
from games.tiberpunk import actions as act
from games.tiberpunk.content import (
    GADGETS,
    GODS,
    ITYPES,
    SKILLS,
    Content,
)
from games.tiberpunk.dice import contains, decode_pool, outcomes, p_attacker_wins, p_contains, score
from games.tiberpunk.log import applied
from games.tiberpunk.snapshot import (
    Act,
    Pos,
    Roll,
    Seat,
    decode,
    dice_text,
    pack_of,
    plural,
    read_position,
    rules_of,
    tile_name,
)
from games.tiberpunk.state import (
    CHAR,
    DRONE,
    LICTOR,
    PH_CGADGET,
    PH_QGADGET,
    State,
)

if TYPE_CHECKING:
    from games.tiberpunk.game import TiberpunkGame

__all__ = ["PairFact", "explain", "outcome_facts"]


# ---------------------------------------------------------------------------- explain
@dataclass(frozen=True, slots=True, kw_only=True)
class PairFact(Fact):
    """A :class:`~games.core.face.Fact` that also unpacks as the older ``(label, value)`` pair, so
    ``dict(game.explain(...))`` keeps working for callers of the pair form."""

    def __iter__(self) -> Iterator[Any]:
        return iter((self.label, self.value))


def _nearest_lictor(game: TiberpunkGame, lictors: Sequence[int], d: int) -> int:
    if d < 0 or not lictors:
        return rules_of(game).board.diameter + 1
    return min(rules_of(game).board.dist[x][d] for x in lictors)


def _quest_odds(
    game: TiberpunkGame, state: State, pos: Pos, stage: int, *, skill: int, mini: int
) -> tuple[float, int, int, int]:
    """(odds, dice, rolls before the lictor arrives, nearest lictor) of a quest attempted now, no
    gadgets: each failed roll brings the nearest lictor one district closer
    (rulebook: tiberpunk/stage-1-quests).

    The challenge card is one of those not in the discard pile, each equally likely (the deck's
    order is hidden)."""
    c = pack_of(game)
    p = pos.players[pos.seat]
    k = rules_of(game).dice_count(state, pos.seat, mini, skill)
    where = p.char if mini == CHAR else p.drone
    dist = _nearest_lictor(game, pos.lictors, where)
    cards = c.challenges1 if stage == 1 else c.challenges3
    disc = pos.challenge_discards[0 if stage == 1 else 1]
    left = [i for i in range(len(cards)) if i not in disc] or list(range(len(cards)))
    rolls = max(dist, 1)
    odds = sum(1 - (1 - p_contains(k, cards[i])) ** rolls for i in left) / len(left)
    return odds, k, rolls, dist


def _roll_odds_after(pool_a: tuple[int, ...], pool_d: tuple[int, ...], ra: int, rd: int, judge: Any) -> float:
    """Odds that ``judge(a, d)`` holds once ``ra`` and ``rd`` more dice join the pools."""
    total = 0.0
    for extra_a, pa in outcomes(ra) if ra else (((), 1.0),):
        for extra_d, pd in outcomes(rd) if rd else (((), 1.0),):
            if judge(tuple(sorted(pool_a + extra_a)), tuple(sorted(pool_d + extra_d))):
                total += pa * pd
    return total


def _pools_after(
    roll: Roll, a: Act, decider_is_active: bool
) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """The two pools and the dice still to roll after gadget ``a`` (rulebook: tiberpunk/gadget-cards)."""
    pools = [list(roll.a), list(roll.d)]
    pend = [roll.to_roll[0], roll.to_roll[1]]
    name = GADGETS[a.value]
    if name == "add-die":
        pend[0 if decider_is_active else 1] += a.p[0]
    else:
        rest = a.p[1:]
        for i in range(0, len(rest), 3):
            side, val, delta = rest[i : i + 3]
            if val in pools[side]:
                pools[side].remove(val)
            if name == "reroll":
                pend[side] += 1
            elif name == "flip":
                pools[side].append(7 - val)
            else:
                pools[side].append(val + delta)
    return tuple(sorted(pools[0])), tuple(sorted(pools[1])), pend[0], pend[1]


def _gadget_facts(pos: Pos, a: Act) -> list[PairFact]:
    """The odds on this roll after a gadget (or after stopping), for the deciding player.

    rulebook: tiberpunk/gadget-cards, tiberpunk/combat-tiles
    """
    roll = pos.roll
    assert roll is not None
    decider_is_active = roll.deciding == pos.seat
    if a.kind == "stop":
        pa, pd, ra, rd = roll.a, roll.d, 0, 0
    else:
        pa, pd, ra, rd = _pools_after(roll, a, decider_is_active)
    if roll.combat:
        tile = roll.tile

        def attacker_wins(x: tuple[int, ...], y: tuple[int, ...]) -> bool:
            return score(tile, x) > score(tile, y)

        p_att = _roll_odds_after(pa, pd, ra, rd, attacker_wins)
        odds = p_att if decider_is_active else 1 - p_att
        label = "combat win odds on this roll"
    else:
        need = roll.need
        odds = _roll_odds_after(pa, (), ra, 0, lambda x, _y: contains(x, need))
        label = "quest success odds on this roll"
    hand = len(pos.players[roll.deciding].hand)
    spent = 0 if a.kind == "stop" else 1
    return [
        PairFact(label=label, value=float(odds), unit="probability", better=1),
        PairFact(label="gadget cards left", value=float(hand - spent), unit="cards", better=1),
    ]


def explain(game: TiberpunkGame, state: State, action: int) -> list[PairFact]:
    """Facts about ``action`` for the deciding seat, the same labels on every candidate of a kind.

    Every decision gets facts: the turn's moves (triumph tokens and coins gained now, the nearest
    lictor to your miniatures after the move, quest and combat odds, what the move gives up),
    gadget choices (odds on this roll), the pursuit (where the lictor ends up), rewards.
    rulebook: tiberpunk/stage-1-quests (odds and pursuit), tiberpunk/combat-tiles, tiberpunk/movement
    """
    pos = read_position(game, state, REFEREE)
    decider = pos.decider
    if decider < 0:
        return _chance_facts(pos, action)
    a = decode(action)
    if pos.phase in (PH_QGADGET, PH_CGADGET) and pos.roll is not None:
        return _gadget_facts(pos, a)
    after = applied(game, state, action)
    me = pos.players[decider]
    facts: list[PairFact] = []  # what this kind of move decides first, then what it changes now
    if a.kind == "interact":
        facts += _interact_facts(game, state, pos, a)
    elif a.kind == "move":
        if a.via:
            facts.append(PairFact(label="spaceship cards spent", value=1.0, unit="cards", better=-1))
        if a.p[0] == LICTOR:
            facts += _lictor_facts(game, pos, a.p[2], own=False)
    elif a.kind == "end":
        allowed = 2 if me.favor == GODS.index("mercury") and me.favor in me.blessings else 1
        unused = max(0, allowed - pos.moves)
        facts.append(PairFact(label="movement actions left unused", value=float(unused), better=-1))
    elif a.kind == "favor":
        facts += _favor_facts(me, a.value)
    elif a.kind in ("pursue", "lictor", "escape"):
        facts += _lictor_facts(game, pos, a.p[1] if a.kind == "pursue" else a.value, own=True)
    elif a.kind == "place":
        c = pack_of(game)
        markers = [c.stage1[card].district for card, _n in pos.quests if card >= 0]
        if markers:
            facts.append(
                PairFact(
                    label="districts to the nearest quest marker",
                    value=float(min(rules_of(game).board.dist[a.value][d] for d in markers)),
                    unit="districts",
                    better=-1,
                )
            )
    else:
        facts += _choice_facts(game, state, pos, a, after)
    return facts + (_gain_facts(game, me, after) if after is not None else [])


def _chance_facts(pos: Pos, action: int) -> list[PairFact]:
    """What a roll means (a chance outcome; rulebook: tiberpunk/stage-1-quests, tiberpunk/combat-tiles):
    whether a quest roll meets the challenge card and how many of its values it shows; for a combat,
    the attacker's dice matching the tile, and once both sides have rolled, who is ahead."""
    roll = pos.roll
    if roll is None or action & 31 != act.OP_DICE:
        return []
    dice = decode_pool(action >> 5)
    side_a = roll.to_roll[0] > 0
    pool_a = tuple(sorted(roll.a + dice)) if side_a else roll.a
    pool_d = roll.d if side_a else tuple(sorted(roll.d + dice))
    if not roll.combat:
        need = roll.need
        rest, matched = list(pool_a), 0
        for v in need:
            if v in rest:
                rest.remove(v)
                matched += 1
        meets = contains(pool_a, need)
        return [
            PairFact(
                label="the roll meets the challenge",
                value=1.0 if meets else 0.0,
                text=f"the roll {dice_text(pool_a)} meets the challenge {list(need)}"
                if meets
                else f"the roll {dice_text(pool_a)} misses the challenge {list(need)}: gadgets or another "
                "roll may still make it",
            ),
            PairFact(
                label="challenge values shown",
                value=float(matched),
                text=f"{matched} of {len(need)} values shown",
            ),
        ]
    tile = roll.tile
    if side_a and roll.to_roll[1] > 0:  # the attacker rolls first; the defender has yet to
        n = score(tile, pool_a)
        return [
            PairFact(
                label="attacker's dice matching the tile",
                value=float(n),
                text=f"the attacker's {dice_text(pool_a)}: {n} matching '{tile_name(tile)}'",
            )
        ]
    ahead = score(tile, pool_a) > score(tile, pool_d)
    return [
        PairFact(
            label="the attacker is ahead after this roll",
            value=1.0 if ahead else 0.0,
            text=f"the attacker is {'ahead' if ahead else 'not ahead'} ({score(tile, pool_a)} against "
            f"{score(tile, pool_d)} matching '{tile_name(tile)}'); gadgets may still change it",
        )
    ]


def outcome_facts(game: TiberpunkGame, state: State, seat: int) -> list[PairFact]:
    """Where ``seat`` stands, for hints (rulebook: tiberpunk/end-of-game: triumph tokens, then coins):
    its triumph tokens and its lead in them, coins, gadget cards, skill dice, storyline stages,
    structures with its influence, spaceship cards, shackled miniatures and the nearest lictor."""
    pos = read_position(game, state, REFEREE)
    if not 0 <= seat < pos.n:
        return []
    c = pack_of(game)
    me = pos.players[seat]
    others = [p.total for p in pos.players if p.seat != seat]
    lead = me.total - max(others) if others else 0
    minis = [d for d in (me.char, me.drone) if d >= 0]
    near = min((_nearest_lictor(game, pos.lictors, d) for d in minis), default=-1)
    shackled = sum(me.shackled)
    facts = [
        PairFact(
            label="triumph tokens",
            value=float(me.total),
            unit="tokens",
            better=1,
            text=f"{plural(me.total, 'triumph token')} on objective cards",
        ),
        PairFact(
            label="lead in triumph tokens over the best other seat",
            value=float(lead),
            unit="tokens",
            better=1,
            text=(f"leads by {plural(lead, 'triumph token')}" if lead > 0 else "")
            or (f"trails by {plural(-lead, 'triumph token')}" if lead < 0 else "level on triumph tokens"),
        ),
        *_holding_facts(c, me),
        PairFact(
            label="shackled miniatures",
            value=float(shackled),
            better=-1,
            text=f"{plural(shackled, 'miniature')} shackled" if shackled else "no miniature shackled",
        ),
    ]
    if near >= 0:
        facts.append(
            PairFact(
                label="nearest lictor to your miniatures",
                value=float(near),
                unit="districts",
                better=1,
                text=f"the nearest lictor {plural(near, 'district')} from your miniatures"
                if near
                else "a lictor on a district of your miniatures",
            )
        )
    return facts


def _holding_facts(c: Content, me: Seat) -> list[PairFact]:
    """A seat's holdings as outcome facts: coins, gadget cards, skill dice, storyline stages,
    structures with its influence and spaceship cards."""
    skills = ", ".join(f"{SKILLS[k]} {n}" for k, n in enumerate(me.dice))
    held = len(me.temples) + len(me.hubs)
    return [
        PairFact(label="coins", value=float(me.coins), unit="coins", better=1, text=plural(me.coins, "coin")),
        PairFact(
            label="gadget cards",
            value=float(len(me.hand)),
            unit="cards",
            better=1,
            text=plural(len(me.hand), "gadget card") + " in hand",
        ),
        PairFact(
            label="skill dice",
            value=float(sum(me.dice)),
            unit="dice",
            better=1,
            text=f"skill dice: {skills}",
        ),
        PairFact(
            label="storyline stages",
            value=float(sum(me.story)),
            better=1,
            text=f"{plural(sum(me.story), 'storyline stage')} reached",
        ),
        PairFact(
            label="structures with your influence",
            value=float(held),
            better=1,
            text=f"influence on {plural(held, 'structure')}",
        ),
        *(
            PairFact(
                label=f"{ITYPES[c.ship_types[k]]} spaceship cards",
                value=float(n),
                unit="cards",
                better=1,
                text=plural(n, f"{ITYPES[c.ship_types[k]]} spaceship card"),
            )
            for k, n in enumerate(me.ships)
        ),
    ]


def _gain_facts(game: TiberpunkGame, me: Seat, after: State) -> list[PairFact]:
    """What the move changes at once for the deciding seat: tokens, coins, cards, skills, and the
    nearest lictor to its miniatures afterwards (rulebook: tiberpunk/movement)."""
    later = read_position(game, after, REFEREE)
    new = later.players[me.seat]
    facts = [
        PairFact(
            label="triumph tokens gained now", value=float(new.total - me.total), unit="tokens", better=1
        ),
        PairFact(label="coins gained now", value=float(new.coins - me.coins), unit="coins", better=1),
    ]
    minis = [d for d in (new.char, new.drone) if d >= 0]
    if minis:
        near = min(_nearest_lictor(game, later.lictors, d) for d in minis)
        facts.append(
            PairFact(
                label="nearest lictor after the move, districts away",
                value=float(near),
                unit="districts",
                better=1,
            )
        )
    for label, diff, unit in (
        ("gadget cards gained", len(new.hand) - len(me.hand), "cards"),
        ("spaceship cards gained", sum(new.ships) - sum(me.ships), "cards"),
        ("skill levels gained", sum(new.dice) - sum(me.dice), "dice"),
    ):
        if diff:
            facts.append(PairFact(label=label, value=float(diff), unit=unit, better=1))
    return facts


def _lictor_facts(game: TiberpunkGame, pos: Pos, dst: int, *, own: bool) -> list[PairFact]:
    """Where a moved or placed lictor ends up: near the chooser's miniatures (bad for them) or the
    opponents' (rulebook: tiberpunk/stage-1-quests, tiberpunk/spaceship-cards)."""
    me = pos.players[pos.decider]
    dist = rules_of(game).board.dist
    mine = [d for d in (me.char, me.drone) if d >= 0]
    opp = [d for q in pos.players if q.seat != me.seat for d in (q.char, q.drone) if d >= 0]
    facts = []
    if own and mine:
        facts.append(
            PairFact(
                label="lictor to your nearest miniature",
                value=float(min(dist[dst][d] for d in mine)),
                unit="districts",
                better=1,
            )
        )
    if opp:
        facts.append(
            PairFact(
                label="lictor to the nearest opponent miniature",
                value=float(min(dist[dst][d] for d in opp)),
                unit="districts",
                better=-1,
            )
        )
    return facts


def _choice_facts(game: TiberpunkGame, state: State, pos: Pos, a: Act, after: State | None) -> list[PairFact]:
    """Rewards and the ability draft: what the chosen option gives (rulebook: tiberpunk/objective-rewards)."""
    c = pack_of(game)
    decider = pos.decider
    if a.kind == "skill":
        me = pos.players[decider]
        level = c.levels[a.value][min(me.skills[a.value] + 1, len(c.levels[a.value]) - 1)]
        return [
            PairFact(label="dice of the upgraded skill", value=float(level), unit="dice", better=1),
            PairFact(
                label="storyline stage of the upgraded skill (0 to 3)",
                value=float(me.story[a.value]),
                better=0,
            ),
        ]
    if a.kind == "boost" and after is not None:
        r = rules_of(game)
        return [
            PairFact(
                label="character dice for guile", value=float(r.dice_count(after, decider, CHAR, 1)), better=1
            ),
            PairFact(
                label="drone dice for hacking", value=float(r.dice_count(after, decider, DRONE, 0)), better=1
            ),
        ]
    if a.kind == "take":
        left = pos.ship_stacks[a.value] - 1
        return [
            PairFact(label="spaceship cards left in that stack", value=float(left), unit="cards", better=0)
        ]
    if a.kind == "draft":
        tile = 1.0 if c.abilities[a.value].level == "easy" else 2.0
        return [PairFact(label="ability tile level (1 easy, 2 medium)", value=tile, better=0)]
    return []


def _favor_facts(me: Seat, god: int) -> list[PairFact]:
    """What each favor gives this turn (rulebook: tiberpunk/divine-favor)."""
    blessed = god in me.blessings
    name = GODS[god]
    return [
        PairFact(
            label="drone movement range", value=3.0 if name == "mercury" else 2.0, unit="districts", better=1
        ),
        PairFact(
            label="movement actions this turn", value=2.0 if name == "mercury" and blessed else 1.0, better=1
        ),
        PairFact(label="gadget cards per roll", value=3.0 if name == "emperors-genius" else 1.0, better=1),
        PairFact(
            label="coins saved at a structure", value=1.0 if name == "juno" else 0.0, unit="coins", better=1
        ),
        PairFact(
            label="may take the locked spaceship card", value=1.0 if name == "stellar-ark" else 0.0, better=1
        ),
    ]


def _next_tokens_fact(p: Seat, via: int) -> PairFact:
    """What a token play gives up: the interactions left to choose from next turn (the third token
    on the wheel returns the earliest; rulebook: tiberpunk/interaction-wheel)."""
    wheel = (*p.wheel_slots, via)
    if len(wheel) == 3:
        wheel = wheel[1:]
    kinds = sorted(
        {i for t, mask in enumerate(p.token_slots) if t not in wheel for i in range(4) if (mask >> i) & 1}
    )
    names = ", ".join(ITYPES[i] for i in kinds) or "none"
    return PairFact(
        label="interactions to choose from next turn",
        value=float(len(kinds)),
        better=1,
        text=f"interactions to choose from next turn: {names}",
    )


def _interact_facts(game: TiberpunkGame, state: State, pos: Pos, a: Act) -> list[PairFact]:
    c = pack_of(game)
    facts: list[PairFact] = []
    p1, p2, p3, _p4, _p5 = a.p
    if a.via >= act.VIA_SHIP:
        gives_up = PairFact(label="spaceship cards spent", value=1.0, unit="cards", better=-1)
    else:
        gives_up = _next_tokens_fact(pos.players[pos.seat], a.via)
    if a.it == act.IT_INCOME:
        facts.append(
            PairFact(
                label="interaction given up for income",
                value=1.0,
                better=-1,
                text="gives up the interaction to collect income",
            )
        )
    elif a.it in (act.IT_CHARACTER, act.IT_DRONE) and a.sub in (act.SUB_Q1, act.SUB_Q3):
        mini = CHAR if a.it == act.IT_CHARACTER else DRONE
        stage = 1 if a.sub == act.SUB_Q1 else 3
        odds, k, rolls, dist = _quest_odds(game, state, pos, stage, skill=p1, mini=mini)
        facts += [
            PairFact(
                label="quest success odds (no gadgets)", value=float(odds), unit="probability", better=1
            ),
            PairFact(label="dice rolled", value=float(k), unit="dice", better=1),
            PairFact(label="nearest lictor, districts away", value=float(dist), unit="districts", better=1),
            PairFact(label="rolls before the lictor arrives", value=float(rolls), better=1),
        ]
    elif a.it in (act.IT_CHARACTER, act.IT_DRONE) and a.sub == act.SUB_FIGHT:
        mini = CHAR if a.it == act.IT_CHARACTER else DRONE
        r = rules_of(game)
        ka = r.dice_count(state, pos.seat, mini, 2)
        kd = ka + 1 if p1 == LICTOR else r.dice_count(state, p2, p1, 1 if p1 == CHAR else 0)
        facts += [
            PairFact(
                label="combat win odds (no gadgets)",
                value=float(p_attacker_wins(pos.tiles[p3], min(ka, 8), min(kd, 8))),
                unit="probability",
                better=1,
            ),
            PairFact(label="attacker dice", value=float(ka), unit="dice", better=1),
            PairFact(label="defender dice", value=float(kd), unit="dice", better=-1),
        ]
    del c
    facts.append(gives_up)
    return facts
