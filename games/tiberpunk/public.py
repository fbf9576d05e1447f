"""Tiberpunk's public state form: the position in the rulebook's words (version 2).

The engine keeps a fast internal state (:mod:`games.tiberpunk.state`: small tuples of ints, bit masks
and content-pack indices). What a client reads and writes is this separate, documented mapping:

- component ids instead of indices: districts (``"IV"``), gadgets (``"flip"``), gods
  (``"juno"``), quest cards by their printed number, challenge cards by their number in their deck
  (1 = the first card of ``challenges.json``; authored), side objective cards and ability tiles by id;
- booleans and lists instead of bit masks (``shackled: {"character": true, "drone": false}``);
- words instead of magic numbers (``phase: "main"``, ``reward: "skill"``, ``kind: "combat"``);
- a face-down card another player cannot see is ``null``.

:func:`to_public` and :func:`from_public` round-trip; ``from_public`` checks every field's type,
range and id before the rules' own invariants (``validate.check_state``) run, and names the bad
field by its public path (``state.players[0].coins``). ``schema.state_schema`` is the JSON Schema of the
form, :func:`public_field` turns an internal field path into the public one; the form as text lines is
``notation.state_lines``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from games.errors import InvalidStateError
from games.tiberpunk.content import CONDITIONS, GADGETS, GODS, ITYPES, REWARDS, SKILLS, TASKS, Content
from games.tiberpunk.state import COMBAT, PHASES, QUEST, STAGE2_OBJ, Cfg, Ctx, Player, State, Turn
from games.tiberpunk.validate import show

__all__ = [
    "FORM_VERSION",
    "PHASE_WORDS",
    "Ids",
    "from_public",
    "public_field",
    "public_message",
    "to_public",
]

FORM_VERSION = 2
"""The version of the public form (1 was the internal tuples' field names, until issue 17)."""

PHASE_WORDS = (
    "ability-draft",
    "first-placement",
    "main",
    "dice-roll",
    "quest-gadgets",
    "lictor-pursuit",
    "combat-gadgets",
    "rewards",
    "lictor-placement",
    "game-over",
)
"""The phase names, in the order of ``state.PHASES`` (the internal phase numbers)."""
assert len(PHASE_WORDS) == len(PHASES)

MINIATURES = ("character", "drone")
TARGETS = ("character", "drone", "lictor")
STORY = ("none", "stage-2", "stage-3", "complete")
REWARD_WORDS = (*REWARDS, "escape")
STAGE2_QUEST = "stage-2-quest"
MAX_LIST = 64
_R_SKILL, _R_ESCAPE = 0, 5


def _fail(message: str, field: str, rule: str = "tiberpunk/general-setup") -> NoReturn:
    raise InvalidStateError(message, field=field, rule=rule)


# --------------------------------------------------------------------------------------- ids


class Ids:
    """The content pack's component ids, both ways."""

    def __init__(self, c: Content) -> None:
        self.c = c
        self.districts = c.district_ids
        self.ship_words = tuple(ITYPES[t] for t in c.ship_types)
        self.hubs = tuple(c.district_ids[d] for d in c.hubs)
        self.quests = tuple(q.id for q in c.stage1)
        self.sides = tuple(sc.id for sc in c.side_cards)
        self.abilities = tuple(ab.id for ab in c.abilities)
        self.challenges = (len(c.challenges1), len(c.challenges3))

    def objective_keys(self, side: Sequence[int]) -> tuple[str, ...]:
        """The objective cards of a game: the three storyline skills, then ``side-<id>`` per side card."""
        return (*SKILLS, *(f"side-{self.sides[i]}" for i in side))


def _index(
    words: Sequence[Any], value: Any, field: str, what: str, rule: str = "tiberpunk/general-setup"
) -> int:
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        for i, w in enumerate(words):
            if w == value and type(w) is type(value):
                return i
    allowed = ", ".join(str(w) for w in list(words)[:20])
    _fail(f"{field} must be {what} ({allowed}), not {show(value)}", field, rule)


def _card(words: Sequence[Any], value: Any, field: str, what: str) -> int:
    """A card id or ``null`` (face down: -1)."""
    return -1 if value is None else _index(words, value, field, what)


def _or_none(words: Sequence[Any], i: int) -> Any:
    return None if i < 0 else words[i]


# --------------------------------------------------------------------------------------- to_public


def to_public(c: Content, s: State) -> dict[str, Any]:
    """The public form of ``s`` (plain JSON types)."""
    ids = Ids(c)
    keys = ids.objective_keys(s.cfg.side)
    return {
        "form": FORM_VERSION,
        "setup": {
            "personal_abilities": s.cfg.abilities,
            "max_rounds": s.cfg.max_rounds,
            "coin_bank": s.cfg.bank,
            "side_objectives": [ids.sides[i] for i in s.cfg.side],
            "combat_tiles": [CONDITIONS[t] for t in s.cfg.tiles],
        },
        "seed": s.seed,
        "active_seat": s.seat,
        "phase": PHASE_WORDS[s.phase],
        "round": s.rnd,
        "turn": _turn_public(ids, s.turn),
        "players": [_player_public(ids, s, p) for p in s.players],
        "lictors": [ids.districts[d] for d in s.lictors],
        "quest_stacks": {SKILLS[k]: [_or_none(ids.quests, i) for i in q] for k, q in enumerate(s.quests)},
        "spaceship_stacks": dict(zip(ids.ship_words, s.ships, strict=True)),
        "spaceship_lock": _or_none(ids.ship_words, s.lock),
        "blessing_tiles_left": dict(zip(GODS, s.bless, strict=True)),
        "gadget_deck": [_or_none(GADGETS, g) for g in s.gdeck],
        "gadget_discard": [GADGETS[g] for g in s.gdisc],
        "stage1_challenge_deck": [None if i < 0 else i + 1 for i in s.c1deck],
        "stage1_challenge_discard": [i + 1 for i in s.c1disc],
        "stage3_challenge_deck": [None if i < 0 else i + 1 for i in s.c3deck],
        "stage3_challenge_discard": [i + 1 for i in s.c3disc],
        "reshuffles": s.shuffles,
        "speed_bonuses_taken": [k for j, k in enumerate(keys) if s.speed >> j & 1],
        "end_triggered": s.end,
        "abilities_to_draft": [ids.abilities[i] for i in s.draft],
        "contest": None if s.ctx is None else _ctx_public(ids, s, s.ctx),
        "rewards_pending": [_reward_public(ids, r) for r in s.rewards],
    }


def _turn_public(ids: Ids, t: Turn) -> dict[str, Any]:
    return {
        "token_played": t.token,
        "favor_moved": t.favor,
        "movement_actions": t.moves,
        "spaceship_played": t.ship,
        "spaceship_cards_gained": dict(zip(ids.ship_words, t.gained, strict=True)),
        "lictor_placement_due": t.lictor_due,
        "juno_discount_used": t.juno,
        "gadgets_used": [GADGETS[g] for g in t.used],
        "recharged": t.recharged,
    }


def _player_public(ids: Ids, s: State, p: Player) -> dict[str, Any]:
    keys = ids.objective_keys(s.cfg.side)
    return {
        "coins": p.coins,
        "skills": {SKILLS[k]: v + 1 for k, v in enumerate(p.skills)},
        "character": _or_none(ids.districts, p.char),
        "drone": _or_none(ids.districts, p.drone),
        "shackled": {m: bool(p.shackles >> i & 1) for i, m in enumerate(MINIATURES)},
        "boosted": {m: bool(p.boosts >> i & 1) for i, m in enumerate(MINIATURES)},
        "favor": "centre" if p.favor < 0 else GODS[p.favor],
        "blessing_tiles": [g for i, g in enumerate(GODS) if p.blessings >> i & 1],
        "temple_influence": [g for i, g in enumerate(GODS) if p.temples >> i & 1],
        "hub_influence": [h for i, h in enumerate(ids.hubs) if p.hubs >> i & 1],
        "gadgets": [_or_none(GADGETS, g) for g in p.hand],
        "gadgets_known": [GADGETS[g] for g in p.known],
        "spaceship_cards": dict(zip(ids.ship_words, p.ships, strict=True)),
        "interaction_tokens": {
            ITYPES[i]: [w for j, w in enumerate(ITYPES) if mask >> j & 1] for i, mask in enumerate(p.tokens)
        },
        "tokens_on_wheel": [ITYPES[i] for i in p.wheel],
        "storylines": {
            SKILLS[k]: {"progress": STORY[st], "card": _or_none(ids.quests, p.cards[k])}
            for k, st in enumerate(p.story)
        },
        "side_tasks_done": {
            ids.sides[card]: [
                TASKS[t.kind] for j, t in enumerate(ids.c.side_cards[card].tasks) if p.side[slot] >> j & 1
            ]
            for slot, card in enumerate(s.cfg.side)
        },
        "triumph_tokens": dict(zip(keys, p.otoks, strict=True)),
        "ability": _or_none(ids.abilities, p.ability),
        "rebooter_uses": p.reboots,
    }


def _objective_public(ids: Ids, s: State, obj: int) -> Any:
    if obj == STAGE2_OBJ:
        return STAGE2_QUEST
    card = ids.c.side_cards[s.cfg.side[obj // 3]]
    return {"side_objective": card.id, "task": TASKS[card.tasks[obj % 3].kind]}


def _ctx_public(ids: Ids, s: State, x: Ctx) -> dict[str, Any]:
    quest = x.kind == QUEST
    return {
        "kind": "quest" if quest else "combat",
        "stage": x.stage if quest else None,
        "storyline": SKILLS[x.skill] if quest else None,
        "miniature": MINIATURES[x.mini],
        "district": ids.districts[x.where],
        "challenge_card": x.card + 1 if quest else None,
        "dice": list(x.a),
        "dice_to_roll": x.ra,
        "gadgets_played": x.ua,
        "defender_dice": list(x.d),
        "defender_dice_to_roll": x.rd,
        "defender_gadgets_played": x.ud,
        "target": None if quest else TARGETS[x.tkind],
        "target_seat": None if quest or x.tkind == 2 else x.tseat,
        "combat_tile": None if quest else CONDITIONS[x.tile],
        "objective": None if quest else _objective_public(ids, s, x.obj),
        "deciding_seat": None if x.who < 0 else x.who,
    }


def _reward_public(ids: Ids, r: tuple[int, int, int]) -> dict[str, Any]:
    seat, kind, param = r
    out: dict[str, Any] = {"seat": seat, "reward": REWARD_WORDS[kind] if 0 <= kind < 6 else kind}
    if kind == _R_SKILL:
        out["skills"] = [SKILLS[k] for k in range(3) if param >> k & 1]
    elif kind == _R_ESCAPE:
        out["from"] = ids.districts[param]
    return out


# --------------------------------------------------------------------------------------- from_public


class _Reader:
    """Typed reads of untrusted JSON at a field path; each failure names the path."""

    def __init__(self, data: Any, path: str) -> None:
        self.data = data
        self.path = path

    def obj(self, keys: Sequence[str]) -> _Reader:
        """This value as an object with exactly ``keys``."""
        d = self.data
        if not isinstance(d, Mapping):
            _fail(f"{self.path} must be an object, not {show(d)}", self.path)
        for k in keys:
            if k not in d:
                _fail(f"{self.path}.{k} is missing", f"{self.path}.{k}")
        for k in d:
            if k not in keys:
                _fail(f"unknown field {show(k)} in {self.path}; known: {', '.join(keys)}", self.path)
        return self

    def at(self, key: str | int) -> _Reader:
        if isinstance(key, int):
            return _Reader(self.data[key], f"{self.path}[{key}]")
        return _Reader(self.data[key], f"{self.path}.{key}")

    def integer(self, lo: int = 0, hi: int = 1 << 63) -> int:
        v = self.data
        if type(v) is not int:
            _fail(f"{self.path} must be an integer, not {show(v)}", self.path)
        if not lo <= v <= hi:
            _fail(f"{self.path} is {show(v)}; it must be from {lo} to {hi}", self.path)
        return v

    def boolean(self) -> bool:
        if type(self.data) is not bool:
            _fail(f"{self.path} must be true or false, not {show(self.data)}", self.path)
        return bool(self.data)

    def items(self, most: int = MAX_LIST) -> list[_Reader]:
        v = self.data
        if not isinstance(v, list):
            _fail(f"{self.path} must be a list, not {show(v)}", self.path)
        if len(v) > most:
            _fail(f"{self.path} lists at most {most} items, not {len(v)}", self.path)
        return [_Reader(x, f"{self.path}[{i}]") for i, x in enumerate(v)]

    def word(self, words: Sequence[Any], what: str, rule: str = "tiberpunk/general-setup") -> int:
        return _index(words, self.data, self.path, what, rule)

    def words(self, words: Sequence[Any], what: str, most: int = MAX_LIST) -> list[int]:
        return [r.word(words, what) for r in self.items(most)]

    def cards(self, words: Sequence[Any], what: str) -> tuple[int, ...]:
        return tuple(_card(words, r.data, r.path, what) for r in self.items())

    def counts(self, keys: Sequence[str], hi: int) -> tuple[int, ...]:
        """An object of counts, one per key."""
        self.obj(keys)
        return tuple(self.at(k).integer(0, hi) for k in keys)

    def mask(self, words: Sequence[str], what: str) -> int:
        """A list of distinct words as a bit mask."""
        out = 0
        for r in self.items(len(words)):
            i = r.word(words, what)
            if out >> i & 1:
                _fail(f"{r.path} repeats {show(r.data)}", r.path)
            out |= 1 << i
        return out


_TOP = (
    "form",
    "setup",
    "seed",
    "active_seat",
    "phase",
    "round",
    "turn",
    "players",
    "lictors",
    "quest_stacks",
    "spaceship_stacks",
    "spaceship_lock",
    "blessing_tiles_left",
    "gadget_deck",
    "gadget_discard",
    "stage1_challenge_deck",
    "stage1_challenge_discard",
    "stage3_challenge_deck",
    "stage3_challenge_discard",
    "reshuffles",
    "speed_bonuses_taken",
    "end_triggered",
    "abilities_to_draft",
    "contest",
    "rewards_pending",
)
_PLAYER = (
    "coins",
    "skills",
    "character",
    "drone",
    "shackled",
    "boosted",
    "favor",
    "blessing_tiles",
    "temple_influence",
    "hub_influence",
    "gadgets",
    "gadgets_known",
    "spaceship_cards",
    "interaction_tokens",
    "tokens_on_wheel",
    "storylines",
    "side_tasks_done",
    "triumph_tokens",
    "ability",
    "rebooter_uses",
)
_TURN = (
    "token_played",
    "favor_moved",
    "movement_actions",
    "spaceship_played",
    "spaceship_cards_gained",
    "lictor_placement_due",
    "juno_discount_used",
    "gadgets_used",
    "recharged",
)
_CTX = (
    "kind",
    "stage",
    "storyline",
    "miniature",
    "district",
    "challenge_card",
    "dice",
    "dice_to_roll",
    "gadgets_played",
    "defender_dice",
    "defender_dice_to_roll",
    "defender_gadgets_played",
    "target",
    "target_seat",
    "combat_tile",
    "objective",
    "deciding_seat",
)
_BIG = 1 << 62


def from_public(c: Content, data: Any, path: str = "state") -> State:
    """The internal state of a public form; ``InvalidStateError`` names the first bad field.

    Only the form is checked here (types, ranges, ids); ``validate.check_state`` checks the rules'
    invariants on the result.
    """
    ids = Ids(c)
    top = _Reader(data, path).obj(_TOP)
    if top.at("form").data != FORM_VERSION:
        _fail(f"{path}.form must be {FORM_VERSION} (this form's version)", f"{path}.form")
    cfg = _setup(ids, top.at("setup"))
    players = top.at("players").items(4)
    if not 2 <= len(players) <= 4:
        _fail(f"{path}.players lists 2 to 4 players, not {len(players)}", f"{path}.players")
    n = len(players)
    lock = top.at("spaceship_lock")
    return State(
        n=n,
        cfg=cfg,
        seed=top.at("seed").integer(0, (1 << 64) - 1),
        seat=top.at("active_seat").integer(0, n - 1),
        phase=top.at("phase").word(PHASE_WORDS, "a phase"),
        rnd=top.at("round").integer(0, _BIG),
        turn=_turn(ids, top.at("turn")),
        players=tuple(_player(ids, cfg, r) for r in players),
        lictors=tuple(sorted(top.at("lictors").words(ids.districts, "a district", 16))),
        quests=_quest_stacks(ids, top.at("quest_stacks")),
        ships=top.at("spaceship_stacks").counts(ids.ship_words, _BIG),
        lock=-1 if lock.data is None else lock.word(ids.ship_words, "a spaceship card type"),
        bless=top.at("blessing_tiles_left").counts(GODS, _BIG),
        gdeck=top.at("gadget_deck").cards(GADGETS, "a gadget"),
        gdisc=tuple(top.at("gadget_discard").words(GADGETS, "a gadget")),
        c1deck=_challenges(top.at("stage1_challenge_deck"), ids.challenges[0], hidden=True),
        c1disc=_challenges(top.at("stage1_challenge_discard"), ids.challenges[0], hidden=False),
        c3deck=_challenges(top.at("stage3_challenge_deck"), ids.challenges[1], hidden=True),
        c3disc=_challenges(top.at("stage3_challenge_discard"), ids.challenges[1], hidden=False),
        shuffles=top.at("reshuffles").integer(0, _BIG),
        speed=top.at("speed_bonuses_taken").mask(ids.objective_keys(cfg.side), "an objective card"),
        end=top.at("end_triggered").boolean(),
        draft=tuple(top.at("abilities_to_draft").words(ids.abilities, "an ability tile")),
        ctx=None if top.at("contest").data is None else _ctx(ids, cfg, n, top.at("contest")),
        rewards=tuple(_reward(ids, n, r) for r in top.at("rewards_pending").items(16)),
    )


def _setup(ids: Ids, r: _Reader) -> Cfg:
    keys = ("personal_abilities", "max_rounds", "side_objectives", "combat_tiles")
    older = isinstance(r.data, Mapping) and "coin_bank" not in r.data  # written before the variant
    r.obj(keys if older else (*keys, "coin_bank"))
    side = r.at("side_objectives").words(ids.sides, "a side objective card", 4)
    tiles = r.at("combat_tiles").items(2)
    if len(tiles) != 2:
        _fail(f"{r.path}.combat_tiles lists the 2 combat tiles' face-up sides", f"{r.path}.combat_tiles")
    return Cfg(
        abilities=r.at("personal_abilities").boolean(),
        max_rounds=r.at("max_rounds").integer(0, 1_000_000),
        # a form written before the coin_bank variant played with the box's coins
        bank=ids.c.bank if older else r.at("coin_bank").integer(0, 1_000_000),
        side=tuple(side),
        tiles=(
            tiles[0].word(CONDITIONS, "a combat tile side"),
            tiles[1].word(CONDITIONS, "a combat tile side"),
        ),
    )


def _turn(ids: Ids, r: _Reader) -> Turn:
    r.obj(_TURN)
    return Turn(
        token=r.at("token_played").boolean(),
        favor=r.at("favor_moved").boolean(),
        moves=r.at("movement_actions").integer(0, 2),
        ship=r.at("spaceship_played").boolean(),
        gained=r.at("spaceship_cards_gained").counts(ids.ship_words, 99),
        lictor_due=r.at("lictor_placement_due").boolean(),
        juno=r.at("juno_discount_used").boolean(),
        used=tuple(r.at("gadgets_used").words(GADGETS, "a gadget", 16)),
        recharged=r.at("recharged").boolean(),
    )


def _player(ids: Ids, cfg: Cfg, r: _Reader) -> Player:
    r.obj(_PLAYER)
    keys = ids.objective_keys(cfg.side)
    skills = r.at("skills")
    skills.obj(SKILLS)
    story, cards = _storylines(ids, r.at("storylines"))
    return Player(
        coins=r.at("coins").integer(0, _BIG),
        skills=tuple(skills.at(k).integer(1, 99) - 1 for k in SKILLS),
        char=_place(ids, r.at("character")),
        drone=_place(ids, r.at("drone")),
        shackles=_flags(r.at("shackled")),
        boosts=_flags(r.at("boosted")),
        favor=-1 if r.at("favor").data == "centre" else r.at("favor").word(GODS, "a god or 'centre'"),
        blessings=r.at("blessing_tiles").mask(GODS, "a god"),
        temples=r.at("temple_influence").mask(GODS, "a god"),
        hubs=r.at("hub_influence").mask(ids.hubs, "an upgrade hub's district"),
        hand=tuple(sorted(r.at("gadgets").cards(GADGETS, "a gadget"))),
        known=tuple(sorted(r.at("gadgets_known").words(GADGETS, "a gadget"))),
        ships=r.at("spaceship_cards").counts(ids.ship_words, 99),
        wheel=tuple(r.at("tokens_on_wheel").words(ITYPES, "an interaction token", 4)),
        tokens=_tokens(r.at("interaction_tokens")),
        story=story,
        cards=cards,
        side=_side_tasks(ids, cfg, r.at("side_tasks_done")),
        otoks=r.at("triumph_tokens").counts(keys, 99),
        ability=-1
        if r.at("ability").data is None
        else r.at("ability").word(ids.abilities, "an ability tile"),
        reboots=r.at("rebooter_uses").integer(0, 99),
    )


def _place(ids: Ids, r: _Reader) -> int:
    return -1 if r.data is None else r.word(ids.districts, "a district or null (not placed yet)")


def _flags(r: _Reader) -> int:
    r.obj(MINIATURES)
    return sum(1 << i for i, m in enumerate(MINIATURES) if r.at(m).boolean())


def _tokens(r: _Reader) -> tuple[int, ...]:
    r.obj(ITYPES)
    return tuple(r.at(t).mask(ITYPES, "an interaction type") for t in ITYPES)


def _storylines(ids: Ids, r: _Reader) -> tuple[tuple[int, ...], tuple[int, ...]]:
    r.obj(SKILLS)
    story, cards = [], []
    for k in SKILLS:
        line = r.at(k).obj(("progress", "card"))
        story.append(line.at("progress").word(STORY, "a storyline's progress", "tiberpunk/quest-storyline"))
        card = line.at("card")
        cards.append(-1 if card.data is None else card.word(ids.quests, "a quest card number"))
    return tuple(story), tuple(cards)


def _side_tasks(ids: Ids, cfg: Cfg, r: _Reader) -> tuple[int, ...]:
    cards = [ids.sides[i] for i in cfg.side]
    r.obj(cards)
    out = []
    for slot, i in enumerate(cfg.side):
        words = [TASKS[t.kind] for t in ids.c.side_cards[i].tasks]
        out.append(r.at(cards[slot]).mask(words, f"a task of side objective card {cards[slot]}"))
    return tuple(out)


def _quest_stacks(ids: Ids, r: _Reader) -> tuple[tuple[int, ...], ...]:
    r.obj(SKILLS)
    return tuple(r.at(k).cards(ids.quests, "a Stage I quest card number") for k in SKILLS)


def _challenges(r: _Reader, total: int, *, hidden: bool) -> tuple[int, ...]:
    out = []
    for x in r.items():
        if hidden and x.data is None:
            out.append(-1)
        else:
            out.append(x.integer(1, total) - 1)
    return tuple(out)


def _ctx(ids: Ids, cfg: Cfg, n: int, r: _Reader) -> Ctx:
    r.obj(_CTX)
    quest = r.at("kind").word(("quest", "combat"), "quest or combat") == QUEST
    dice = {k: tuple(x.integer(1, 6) for x in r.at(k).items(15)) for k in ("dice", "defender_dice")}
    common: dict[str, Any] = {
        "mini": r.at("miniature").word(MINIATURES, "a miniature"),
        "where": r.at("district").word(ids.districts, "a district"),
        "a": dice["dice"],
        "d": dice["defender_dice"],
        "ra": r.at("dice_to_roll").integer(0, 15),
        "rd": r.at("defender_dice_to_roll").integer(0, 15),
        "ua": r.at("gadgets_played").integer(0, 3),
        "ud": r.at("defender_gadgets_played").integer(0, 3),
        "who": -1 if r.at("deciding_seat").data is None else r.at("deciding_seat").integer(0, n - 1),
    }
    if quest:
        for k in ("target", "target_seat", "combat_tile", "objective"):
            if r.at(k).data is not None:
                _fail(f"a quest roll has no {k} (null)", f"{r.path}.{k}", "tiberpunk/stage-1-quests")
        stage = r.at("stage").integer(1, 3)
        total = ids.challenges[0 if stage == 1 else 1]
        return Ctx(
            kind=QUEST,
            stage=stage,
            skill=r.at("storyline").word(SKILLS, "a storyline skill"),
            card=r.at("challenge_card").integer(1, total) - 1,
            tkind=0,
            tseat=0,
            tile=0,
            obj=0,
            **common,
        )
    for k in ("stage", "storyline", "challenge_card"):
        if r.at(k).data is not None:
            _fail(f"a combat has no {k} (null)", f"{r.path}.{k}", "tiberpunk/combat")
    tkind = r.at("target").word(TARGETS, "a combat target")
    seat = r.at("target_seat")
    if tkind == 2 and seat.data is not None:
        _fail("a lictor has no seat (null)", seat.path, "tiberpunk/combat-vs-lictor")
    return Ctx(
        kind=COMBAT,
        stage=0,
        skill=2,
        card=-1,
        tkind=tkind,
        tseat=0 if tkind == 2 else seat.integer(0, n - 1),
        tile=r.at("combat_tile").word(CONDITIONS, "a combat tile side", "tiberpunk/combat-tiles"),
        obj=_objective(ids, cfg, r.at("objective")),
        **common,
    )


def _objective(ids: Ids, cfg: Cfg, r: _Reader) -> int:
    if r.data == STAGE2_QUEST:
        return STAGE2_OBJ
    r.obj(("side_objective", "task"))
    cards = [ids.sides[i] for i in cfg.side]
    slot = r.at("side_objective").word(cards, "a side objective card in play", "tiberpunk/side-objectives")
    words = [TASKS[t.kind] for t in ids.c.side_cards[cfg.side[slot]].tasks]
    return slot * 3 + r.at("task").word(words, "a task of that card", "tiberpunk/side-objectives")


def _reward(ids: Ids, n: int, r: _Reader) -> tuple[int, int, int]:
    rule = "tiberpunk/objective-rewards"
    word = r.data.get("reward") if isinstance(r.data, Mapping) else None
    kind = _index(REWARD_WORDS, word, f"{r.path}.reward", "a reward", rule)
    extra = {_R_SKILL: ("skills",), _R_ESCAPE: ("from",)}.get(kind, ())
    r.obj(("seat", "reward", *extra))
    seat = r.at("seat").integer(0, n - 1)
    if kind == _R_SKILL:
        param = r.at("skills").mask(SKILLS, "a skill")
    elif kind == _R_ESCAPE:
        param = r.at("from").word(ids.districts, "a district")
    else:
        param = 2
    return (seat, kind, param)


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
