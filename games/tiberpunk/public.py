"""Tiberpunk's public state form: the position in the rulebook's words (version 2).

The engine keeps a fast internal state (:mod:`games.tiberpunk.state`: small tuples of ints, bit masks
and content-pack indices). What a client reads and writes is this separate, documented mapping:

- component ids instead of indices: districts (``"IV"``), gadgets (``"flip"``), gods
  (``"juno"``), quest cards by their printed number, challenge cards by their number in their deck
  (1 = the first card of ``challenges.json``; authored), side objective cards and ability tiles by id;
- booleans and lists instead of bit masks (``shackled: {"character": true, "drone": false}``);
- words instead of magic numbers (``phase: "main"``, ``reward: "skill"``, ``kind: "combat"``);
- a face-down card another player cannot see is ``null``.

The form is declared once in :mod:`games.tiberpunk.schema` (its JSON Schema, the check of every field
on its own, the names written here). :func:`to_public` builds the values from the records and writes
them by that declaration; :func:`from_public` reads by it, then checks what depends on other fields
(seats below the player count, the side objective cards in play, a quest's fields or a combat's)
before the rules' own invariants (``validate.check_state``) run, naming the bad field by its public
path (``state.players[0].coins``). :func:`public_field` turns an internal field path into the public
one; the form as text lines is ``notation.state_lines``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from games.tiberpunk.content import GODS, ITYPES, SKILLS, TASKS, Content
from games.tiberpunk.schema import FORM_VERSION, FORMS, IDS, MINIATURES, REWARD_WORDS, Ids
from games.tiberpunk.state import COMBAT, LICTOR, QUEST, STAGE2_OBJ, Cfg, Ctx, Player, State, Turn

__all__ = ["FORM_VERSION", "from_public", "public_field", "public_message", "to_public"]

_R_SKILL, _R_ESCAPE = 0, 5
_QUEST_ONLY = ("stage", "storyline", "challenge_card")
_COMBAT_ONLY = ("target", "target_seat", "combat_tile", "objective")
_COMBAT_NEEDS = ("target", "combat_tile", "objective")
"""A combat's own fields (``target_seat`` is null against a lictor), and those it must give."""


def _bits(mask: int, width: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    return [i for i in range(width) if mask >> i & 1]


# --------------------------------------------------------------------------------------- to_public


def to_public(c: Content, s: State) -> dict[str, Any]:
    """The public form of ``s`` (plain JSON types)."""
    ids = IDS(c)
    keys = ids.objective_keys(s.cfg.side)
    t = s.turn
    values = {
        "form": FORM_VERSION,
        "setup": {
            "personal_abilities": s.cfg.abilities,
            "max_rounds": s.cfg.max_rounds,
            "coin_bank": s.cfg.bank,
            "side_objectives": s.cfg.side,
            "combat_tiles": s.cfg.tiles,
        },
        "seed": s.seed,
        "active_seat": s.seat,
        "phase": s.phase,
        "round": s.rnd,
        "turn": {
            "token_played": t.token,
            "favor_moved": t.favor,
            "movement_actions": t.moves,
            "spaceship_played": t.ship,
            "spaceship_cards_gained": dict(zip(ids.ship_words, t.gained, strict=True)),
            "lictor_placement_due": t.lictor_due,
            "juno_discount_used": t.juno,
            "gadgets_used": t.used,
            "recharged": t.recharged,
        },
        "players": [_player_public(ids, s, p, keys) for p in s.players],
        "lictors": s.lictors,
        "quest_stacks": dict(zip(SKILLS, s.quests, strict=True)),
        "spaceship_stacks": dict(zip(ids.ship_words, s.ships, strict=True)),
        "spaceship_lock": s.lock,
        "blessing_tiles_left": dict(zip(GODS, s.bless, strict=True)),
        "gadget_deck": s.gdeck,
        "gadget_discard": s.gdisc,
        "stage1_challenge_deck": [i + 1 for i in s.c1deck],
        "stage1_challenge_discard": [i + 1 for i in s.c1disc],
        "stage3_challenge_deck": [i + 1 for i in s.c3deck],
        "stage3_challenge_discard": [i + 1 for i in s.c3disc],
        "reshuffles": s.shuffles,
        "speed_bonuses_taken": [keys[j] for j in _bits(s.speed, len(keys))],
        "end_triggered": s.end,
        "abilities_to_draft": s.draft,
        "contest": None if s.ctx is None else _ctx_public(ids, s, s.ctx),
        "rewards_pending": [_reward_public(r) for r in s.rewards],
    }
    return FORMS(c).write(values)


def _player_public(ids: Ids, s: State, p: Player, keys: Sequence[str]) -> dict[str, Any]:
    return {
        "coins": p.coins,
        "skills": {k: v + 1 for k, v in zip(SKILLS, p.skills, strict=True)},
        "character": p.char,
        "drone": p.drone,
        "shackled": {m: bool(p.shackles >> i & 1) for i, m in enumerate(MINIATURES)},
        "boosted": {m: bool(p.boosts >> i & 1) for i, m in enumerate(MINIATURES)},
        "favor": p.favor,
        "blessing_tiles": _bits(p.blessings, len(GODS)),
        "temple_influence": _bits(p.temples, len(GODS)),
        "hub_influence": _bits(p.hubs, len(ids.hubs)),
        "gadgets": p.hand,
        "gadgets_known": p.known,
        "spaceship_cards": dict(zip(ids.ship_words, p.ships, strict=True)),
        "interaction_tokens": {ITYPES[i]: _bits(mask, len(ITYPES)) for i, mask in enumerate(p.tokens)},
        "tokens_on_wheel": p.wheel,
        "storylines": {
            k: {"progress": story, "card": card}
            for k, story, card in zip(SKILLS, p.story, p.cards, strict=True)
        },
        "side_tasks_done": {
            card: [ids.c.side_cards[card].tasks[j].kind for j in _bits(p.side[slot], 3)]
            for slot, card in enumerate(s.cfg.side)
        },
        "triumph_tokens": dict(zip(keys, p.otoks, strict=True)),
        "ability": p.ability,
        "rebooter_uses": p.reboots,
    }


def _ctx_public(ids: Ids, s: State, x: Ctx) -> dict[str, Any]:
    quest = x.kind == QUEST
    objective: Any = None
    if not quest:
        objective = STAGE2_OBJ
        if x.obj != STAGE2_OBJ:
            card = s.cfg.side[x.obj // 3]
            objective = {"side_objective": card, "task": ids.c.side_cards[card].tasks[x.obj % 3].kind}
    return {
        "kind": x.kind,
        "stage": x.stage if quest else None,
        "storyline": x.skill if quest else None,
        "miniature": x.mini,
        "district": x.where,
        "challenge_card": x.card + 1 if quest else None,
        "dice": x.a,
        "dice_to_roll": x.ra,
        "gadgets_played": x.ua,
        "defender_dice": x.d,
        "defender_dice_to_roll": x.rd,
        "defender_gadgets_played": x.ud,
        "target": None if quest else x.tkind,
        "target_seat": None if quest or x.tkind == LICTOR else x.tseat,
        "combat_tile": None if quest else x.tile,
        "objective": objective,
        "deciding_seat": x.who,
    }


def _reward_public(r: tuple[int, int, int]) -> dict[str, Any]:
    seat, kind, param = r
    out: dict[str, Any] = {"seat": seat, "reward": kind}
    if kind == _R_SKILL:
        out["skills"] = _bits(param, len(SKILLS))
    elif kind == _R_ESCAPE:
        out["from"] = param
    return out


# --------------------------------------------------------------------------------------- from_public


class _Reader:
    """The cross-field checks of a form read by the declaration: the pack's ids, the setup, the player
    count, and the form (for its errors)."""

    def __init__(self, c: Content, cfg: Cfg, n: int) -> None:
        self.ids = IDS(c)
        self.form = FORMS(c)
        self.cfg = cfg
        self.n = n

    def fail(self, at: str, why: str, rule: str = "tiberpunk/general-setup") -> NoReturn:
        raise self.form.bad(at, why, rule)

    def seat(self, at: str, seat: int) -> int:
        """A seat of one of the ``n`` players."""
        if seat >= self.n:
            self.fail(at, f"expected a seat 0..{self.n - 1} with {self.n} players, got {seat}")
        return seat

    def mask(self, at: str, items: Sequence[int], words: Sequence[Any]) -> int:
        """Distinct positions of ``words`` as a bit mask."""
        out = 0
        for j, i in enumerate(items):
            if out >> i & 1:
                self.fail(f"{at}[{j}]", f"{words[i]!r} is listed twice")
            out |= 1 << i
        return out

    def keyed(
        self,
        at: str,
        got: Mapping[Any, Any],
        keys: Sequence[Any],
        what: str,
        *,
        rule: str,
        names: Sequence[str] = (),
    ) -> list[Any]:
        """The values of ``got`` in the order of ``keys``, which must be exactly its keys (``names``: how
        an index key is printed)."""
        if set(got) != set(keys):
            shown = [names[k] for k in keys] if names else list(keys)
            given = [names[k] for k in got] if names else list(got)
            self.fail(at, f"expected one entry per {what}: {shown}, got {given}", rule)
        return [got[k] for k in keys]


def _setup(c: Content, d: Mapping[str, Any]) -> Cfg:
    setup = d["setup"]
    return Cfg(
        abilities=setup["personal_abilities"],
        max_rounds=setup["max_rounds"],
        side=setup["side_objectives"],
        tiles=setup["combat_tiles"],
        # a form written before the coin_bank variant played with the box's coins
        bank=setup.get("coin_bank", c.bank),
    )


def from_public(c: Content, data: Any) -> State:
    """The internal state of a public form; ``InvalidStateError`` names the first bad field.

    Each field is checked by the declaration (types, ranges, ids), then against the others here;
    ``validate.check_state`` checks the rules' invariants on the result.
    """
    d = FORMS(c).read(data)
    cfg = _setup(c, d)
    r = _Reader(c, cfg, len(d["players"]))
    ids = r.ids
    keys = ids.objective_keys(cfg.side)
    speed = d["speed_bonuses_taken"]
    for j, key in enumerate(speed):
        if key not in keys:
            r.fail(
                f"speed_bonuses_taken[{j}]", f"expected an objective card in play {list(keys)}, got {key!r}"
            )
    t = d["turn"]
    return State(
        n=r.n,
        cfg=cfg,
        seed=d["seed"],
        seat=r.seat("active_seat", d["active_seat"]),
        phase=d["phase"],
        rnd=d["round"],
        turn=Turn(
            token=t["token_played"],
            favor=t["favor_moved"],
            moves=t["movement_actions"],
            ship=t["spaceship_played"],
            gained=tuple(t["spaceship_cards_gained"].values()),
            lictor_due=t["lictor_placement_due"],
            juno=t["juno_discount_used"],
            used=t["gadgets_used"],
            recharged=t["recharged"],
        ),
        players=tuple(_player(r, f"players[{i}]", p) for i, p in enumerate(d["players"])),
        lictors=tuple(sorted(d["lictors"])),
        quests=tuple(d["quest_stacks"].values()),
        ships=tuple(d["spaceship_stacks"].values()),
        lock=d["spaceship_lock"],
        bless=tuple(d["blessing_tiles_left"].values()),
        gdeck=d["gadget_deck"],
        gdisc=d["gadget_discard"],
        c1deck=tuple(x - 1 for x in d["stage1_challenge_deck"]),
        c1disc=tuple(x - 1 for x in d["stage1_challenge_discard"]),
        c3deck=tuple(x - 1 for x in d["stage3_challenge_deck"]),
        c3disc=tuple(x - 1 for x in d["stage3_challenge_discard"]),
        shuffles=d["reshuffles"],
        speed=r.mask("speed_bonuses_taken", [keys.index(k) for k in speed], keys),
        end=d["end_triggered"],
        draft=d["abilities_to_draft"],
        ctx=None if d["contest"] is None else _ctx(r, d["contest"]),
        rewards=tuple(_reward(r, f"rewards_pending[{j}]", x) for j, x in enumerate(d["rewards_pending"])),
    )


def _player(r: _Reader, at: str, p: Mapping[str, Any]) -> Player:
    ids = r.ids
    lines = p["storylines"].values()
    return Player(
        coins=p["coins"],
        skills=tuple(v - 1 for v in p["skills"].values()),
        char=p["character"],
        drone=p["drone"],
        shackles=sum(1 << i for i, on in enumerate(p["shackled"].values()) if on),
        boosts=sum(1 << i for i, on in enumerate(p["boosted"].values()) if on),
        favor=p["favor"],
        blessings=r.mask(f"{at}.blessing_tiles", p["blessing_tiles"], GODS),
        temples=r.mask(f"{at}.temple_influence", p["temple_influence"], GODS),
        hubs=r.mask(f"{at}.hub_influence", p["hub_influence"], ids.hubs),
        hand=tuple(sorted(p["gadgets"])),
        known=tuple(sorted(p["gadgets_known"])),
        ships=tuple(p["spaceship_cards"].values()),
        wheel=p["tokens_on_wheel"],
        tokens=tuple(
            r.mask(f"{at}.interaction_tokens.{t}", allowed, ITYPES)
            for t, allowed in p["interaction_tokens"].items()
        ),
        story=tuple(line["progress"] for line in lines),
        cards=tuple(line["card"] for line in lines),
        side=_side_tasks(r, f"{at}.side_tasks_done", p["side_tasks_done"]),
        otoks=tuple(
            r.keyed(
                f"{at}.triumph_tokens",
                p["triumph_tokens"],
                ids.objective_keys(r.cfg.side),
                "objective card (the skills, then side-<id>)",
                rule="tiberpunk/game-overview",
            )
        ),
        ability=p["ability"],
        reboots=p["rebooter_uses"],
    )


def _side_tasks(r: _Reader, at: str, done: Mapping[int, Sequence[int]]) -> tuple[int, ...]:
    """Per side objective card in play, the mask of its tasks done (rule: side-objectives)."""
    sides = r.ids.sides
    rule = "tiberpunk/side-objectives"
    tasks = r.keyed(at, done, r.cfg.side, "side objective card in play", rule=rule, names=sides)
    out = []
    for card, kinds in zip(r.cfg.side, tasks, strict=True):
        printed = [t.kind for t in r.ids.c.side_cards[card].tasks]
        for j, kind in enumerate(kinds):
            if kind not in printed:
                words = [TASKS[k] for k in printed]
                r.fail(
                    f"{at}.{sides[card]}[{j}]",
                    f"expected a task of card {sides[card]} {words}, got {TASKS[kind]!r}",
                    rule,
                )
        out.append(
            r.mask(f"{at}.{sides[card]}", [printed.index(k) for k in kinds], [TASKS[k] for k in printed])
        )
    return tuple(out)


def _ctx(r: _Reader, x: Mapping[str, Any]) -> Ctx:
    """The quest roll or combat in progress: a quest's fields null in a combat, and the other way."""
    quest = x["kind"] == QUEST
    rule = _check_kind(r, x, quest=quest)
    who = x["deciding_seat"]
    common: dict[str, Any] = {
        "mini": x["miniature"],
        "where": x["district"],
        "a": x["dice"],
        "d": x["defender_dice"],
        "ra": x["dice_to_roll"],
        "rd": x["defender_dice_to_roll"],
        "ua": x["gadgets_played"],
        "ud": x["defender_gadgets_played"],
        "who": who if who < 0 else r.seat("contest.deciding_seat", who),
    }
    if quest:
        stage, card = x["stage"], x["challenge_card"]
        total = r.ids.challenges[0 if stage == 1 else 1]
        if card > total:
            r.fail(
                "contest.challenge_card",
                f"expected 1..{total} (the stage {stage} challenge cards), got {card}",
                rule,
            )
        return Ctx(
            kind=QUEST,
            stage=stage,
            skill=x["storyline"],
            card=card - 1,
            tkind=0,
            tseat=0,
            tile=0,
            obj=0,
            **common,
        )
    target, seat = x["target"], x["target_seat"]
    if target == LICTOR and seat is not None:
        r.fail("contest.target_seat", "a lictor has no seat (null)", "tiberpunk/combat-vs-lictor")
    if target != LICTOR and seat is None:
        r.fail("contest.target_seat", "missing; a combat against a miniature has the defending seat", rule)
    return Ctx(
        kind=COMBAT,
        stage=0,
        skill=2,
        card=-1,
        tkind=target,
        tseat=0 if target == LICTOR else r.seat("contest.target_seat", seat),
        tile=x["combat_tile"],
        obj=_objective(r, x["objective"]),
        **common,
    )


def _check_kind(r: _Reader, x: Mapping[str, Any], *, quest: bool) -> str:
    """A quest roll's own fields are null in a combat, and the other way round; the rule cited."""
    nulls, givens = (_COMBAT_ONLY, _QUEST_ONLY) if quest else (_QUEST_ONLY, _COMBAT_NEEDS)
    kind, rule = ("a quest roll", "tiberpunk/stage-1-quests") if quest else ("a combat", "tiberpunk/combat")
    for key in nulls:
        if x[key] is not None:
            r.fail(f"contest.{key}", f"{kind} has no {key} (null)", rule)
    for key in givens:
        if x[key] is None:
            r.fail(f"contest.{key}", f"missing; {kind} has a {key}", rule)
    return rule


def _objective(r: _Reader, objective: Any) -> int:
    """The objective a combat is declared for: the Stage II offense quest, or a side task of a card in
    play (its slot * 3 + the task's place on the card)."""
    if not isinstance(objective, Mapping):
        return STAGE2_OBJ
    rule = "tiberpunk/side-objectives"
    card, kind = objective["side_objective"], objective["task"]
    sides = r.ids.sides
    if card not in r.cfg.side:
        in_play = [sides[i] for i in r.cfg.side]
        r.fail(
            "contest.objective.side_objective",
            f"expected a side objective card in play {in_play}, got {sides[card]!r}",
            rule,
        )
    printed = [t.kind for t in r.ids.c.side_cards[card].tasks]
    if kind not in printed:
        words = [TASKS[k] for k in printed]
        r.fail(
            "contest.objective.task",
            f"expected a task of card {sides[card]} {words}, got {TASKS[kind]!r}",
            rule,
        )
    return r.cfg.side.index(card) * 3 + printed.index(kind)


def _reward(r: _Reader, at: str, x: Mapping[str, Any]) -> tuple[int, int, int]:
    """A pending reward: a skill reward lists the skills, an escape the district (rule: objective-rewards)."""
    kind = x["reward"]
    for key, owner in (("skills", _R_SKILL), ("from", _R_ESCAPE)):
        if (key in x) != (kind == owner):
            why = (
                f"missing; a reward of {REWARD_WORDS[owner]!r} names its {key}"
                if kind == owner
                else f"only a reward of {REWARD_WORDS[owner]!r} has {key}"
            )
            r.fail(f"{at}.{key}", why, "tiberpunk/objective-rewards")
    if kind == _R_SKILL:
        param = r.mask(f"{at}.skills", x["skills"], SKILLS)
    elif kind == _R_ESCAPE:
        param = x["from"]
    else:
        param = 2
    return (r.seat(f"{at}.seat", x["seat"]), kind, param)


# --------------------------------------------------------------------------------------- field paths

_RENAMES: dict[str, str] = {
    "n": "players",
    "cfg": "setup",
    "seat": "active_seat",
    "rnd": "round",
    "quests": "quest_stacks",
    "ships": "spaceship_stacks",
    "lock": "spaceship_lock",
    "bless": "blessing_tiles_left",
    "gdeck": "gadget_deck",
    "gdisc": "gadget_discard",
    "c1deck": "stage1_challenge_deck",
    "c1disc": "stage1_challenge_discard",
    "c3deck": "stage3_challenge_deck",
    "c3disc": "stage3_challenge_discard",
    "shuffles": "reshuffles",
    "speed": "speed_bonuses_taken",
    "end": "end_triggered",
    "draft": "abilities_to_draft",
    "ctx": "contest",
    "rewards": "rewards_pending",
    "cfg.abilities": "setup.personal_abilities",
    "cfg.side": "setup.side_objectives",
    "cfg.tiles": "setup.combat_tiles",
    "turn.token": "turn.token_played",
    "turn.favor": "turn.favor_moved",
    "turn.moves": "turn.movement_actions",
    "turn.ship": "turn.spaceship_played",
    "turn.gained": "turn.spaceship_cards_gained",
    "turn.lictor_due": "turn.lictor_placement_due",
    "turn.juno": "turn.juno_discount_used",
    "turn.used": "turn.gadgets_used",
    "p.char": "character",
    "p.shackles": "shackled",
    "p.boosts": "boosted",
    "p.blessings": "blessing_tiles",
    "p.temples": "temple_influence",
    "p.hubs": "hub_influence",
    "p.hand": "gadgets",
    "p.known": "gadgets_known",
    "p.ships": "spaceship_cards",
    "p.wheel": "tokens_on_wheel",
    "p.tokens": "interaction_tokens",
    "p.story": "storylines",
    "p.cards": "storylines",
    "p.side": "side_tasks_done",
    "p.otoks": "triumph_tokens",
    "p.reboots": "rebooter_uses",
    "ctx.kind": "contest.kind",
    "ctx.skill": "contest.storyline",
    "ctx.mini": "contest.miniature",
    "ctx.card": "contest.challenge_card",
    "ctx.a": "contest.dice",
    "ctx.d": "contest.defender_dice",
    "ctx.ra": "contest.dice_to_roll",
    "ctx.rd": "contest.defender_dice_to_roll",
    "ctx.ua": "contest.gadgets_played",
    "ctx.ud": "contest.defender_gadgets_played",
    "ctx.tkind": "contest.target",
    "ctx.tseat": "contest.target_seat",
    "ctx.tile": "contest.combat_tile",
    "ctx.obj": "contest.objective",
    "ctx.where": "contest.district",
    "ctx.who": "contest.deciding_seat",
}
_KEYED: dict[str, tuple[str, ...]] = {
    "quest_stacks": SKILLS,
    "blessing_tiles_left": GODS,
    "skills": SKILLS,
    "storylines": SKILLS,
    "triumph_tokens": SKILLS,
}
_PART = re.compile(r"([A-Za-z_0-9]+)((?:\[\d+\])*)")


def public_field(internal: str) -> str:
    """The public path of an internal field path (``players[1].otoks[0]`` ->
    ``players[1].triumph_tokens.hacking``; ``quests[0][2]`` -> ``quest_stacks.hacking[2]``)."""
    parts = internal.split(".")
    head, idx = _split(parts[0])
    if head == "players" and idx and len(parts) > 1:
        name, sub = _split(parts[1])
        name = _RENAMES.get(f"p.{name}", name)
        return f"players{idx}.{_keyed(name, sub)}" + "".join("." + p for p in parts[2:])
    if len(parts) > 1:
        name, sub = _split(parts[1])
        pair = f"{head}.{name}"
        if pair in _RENAMES:
            return _RENAMES[pair] + sub + "".join("." + p for p in parts[2:])
    return _keyed(_RENAMES.get(head, head), idx) + "".join("." + p for p in parts[1:])


_INTERNAL_PATH = re.compile(
    r"\b(?:players\[\d+\]\.[a-z_]+(?:\[\d+\])*|(?:ctx|cfg|turn)\.[a-z_]+(?:\[\d+\])*"
    r"|(?:c1deck|c1disc|c3deck|c3disc|gdeck|gdisc|quests|bless|rnd|shuffles)(?:\[\d+\])*)(?![\w.])"
)


def public_message(message: str) -> str:
    """``message`` with the internal field paths it quotes (``ctx.ua``, ``players[0].otoks``) written
    as their public paths."""
    return _INTERNAL_PATH.sub(lambda m: public_field(m.group(0)), message)


def _split(part: str) -> tuple[str, str]:
    m = _PART.fullmatch(part)
    return (part, "") if m is None else (m.group(1), m.group(2))


def _keyed(name: str, idx: str) -> str:
    keys = _KEYED.get(name)
    if not idx or keys is None:
        return name + idx
    first = int(idx[1 : idx.index("]")])
    rest = idx[idx.index("]") + 1 :]
    return f"{name}.{keys[first]}{rest}" if first < len(keys) else name + idx
