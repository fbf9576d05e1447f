"""Validation of a whole Tiberpunk position before any rule code sees it.

``check_state`` runs on a state built from outside (``from_dict``, ``parse_state``): every field in
range, every component id in the content pack, the components the rules conserve neither created
nor lost (coins, gadgets, challenge and quest cards, spaceship cards, blessing tiles, influence
markers, triumph tokens), and the fields coherent with each other (the phase and its pending
decision, the quest roll or combat in progress, the first-turn placement, the ability draft). The
first problem raises :class:`~games.errors.InvalidStateError` naming the field and the rule.

A state may be an observation (``TiberpunkGame.observation``): face-down cards are ``-1`` (another
player's unknown gadgets, the deck orders, the Stage I cards under each face-up one) and count as
unknown cards of the right kind.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NoReturn

from games.errors import InvalidStateError
from games.tiberpunk.dice import contains
from games.tiberpunk.state import (
    CHAR,
    COMBAT,
    DRONE,
    LICTOR,
    PH_CGADGET,
    PH_DRAFT,
    PH_LPLACE,
    PH_MAIN,
    PH_OVER,
    PH_PLACE,
    PH_PURSUE,
    PH_QGADGET,
    PH_REWARD,
    PH_ROLL,
    PHASES,
    QUEST,
    STAGE2_OBJ,
    Ctx,
    Player,
    State,
    Turn,
)

if TYPE_CHECKING:
    from games.tiberpunk.rules import Rules

__all__ = ["MAX_COINS", "MAX_DICE", "MAX_ROUNDS", "check_state", "show"]

MAX_ROUNDS = 1_000_000
"""The largest round number (and ``max_rounds`` cap) a position may have."""
MAX_COINS = 1_000_000
"""The most coins a player may hold in a position (the rulebook limits no coins; the ``coin_bank``
variant limits them to the bank's)."""
MAX_DICE = 15
"""The most dice one side of a roll may hold (rolled plus still to roll)."""
MAX_SEED = 1 << 63
MAX_REWARDS = 16
"""The most rewards a position may have pending (a combat or a storyline stage queues two or three)."""
_CTX_PHASES = frozenset((PH_ROLL, PH_QGADGET, PH_PURSUE, PH_CGADGET))
_FRESH = Turn()
# side task kinds (content.TASKS order)
_T_DEF, _T_NETWORK, _T_SUPPLY, _T_DEVOTION, _T_MASTERY = (0, 1, 2), 3, 4, 5, 8
_R_SKILL, _R_COINS, _R_SHIP, _R_GADGET, _R_BOOST, _R_ESCAPE = range(6)
_TPL_DEFEAT = 7
_AB_TOKEN, _AB_REBOOTER = 1, 4


def show(value: object, limit: int = 60) -> str:
    """A short, safe ``repr`` of untrusted input (no deep recursion, at most ``limit`` characters)."""
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} item(s)"
    if isinstance(value, dict):
        keys = ", ".join(repr(k)[:20] for k in list(value)[:4])
        return f"an object with keys {keys}{', ...' if len(value) > 4 else ''}"
    if isinstance(value, (str, int, float, bool)) or value is None:
        text = repr(value)
        return text if len(text) <= limit else text[: limit - 3] + "..."
    return f"a {type(value).__name__}"


def _fail(message: str, field: str, rule: str = "tiberpunk/general-setup") -> NoReturn:
    raise InvalidStateError(message, field=field, rule=rule)


def _range(value: int, lo: int, hi: int, field: str, rule: str = "tiberpunk/general-setup") -> None:
    if not lo <= value <= hi:
        _fail(f"{field} is {show(value)}; it must be from {lo} to {hi}", field, rule)


def _bits(mask: int, width: int, field: str, rule: str) -> None:
    if not 0 <= mask < 1 << width:
        _fail(f"{field} is {show(mask)}; it must be a bit mask of {width} bit(s)", field, rule)


def check_state(r: Rules, s: State) -> None:
    """Raise ``InvalidStateError`` at the first field of ``s`` that breaks the rules' invariants."""
    _check_lengths(s)
    _check_setup(r, s)
    _check_globals(r, s)
    for i, p in enumerate(s.players):
        _check_player(r, s, i, p)
    _check_conservation(r, s)
    _check_objectives(r, s)
    _check_draft(r, s)
    _check_placement(s)
    _check_turn(r, s)
    if s.ctx is not None:
        if s.phase not in _CTX_PHASES:
            _fail(f"a quest roll or combat (ctx) is set in the {PHASES[s.phase]} phase", "ctx", _rule(s))
        _check_ctx(r, s, s.ctx)
    elif s.phase in _CTX_PHASES:
        _fail(f"the {PHASES[s.phase]} phase needs a quest roll or combat (ctx)", "ctx", _rule(s))
    _check_rewards(r, s)
    _check_phase(r, s)


def _length(seq: Sequence[object], n: int, field: str) -> None:
    if len(seq) != n:
        _fail(f"{field} lists {n} entries, not {len(seq)}", field)


def _check_lengths(s: State) -> None:
    """Fixed-length lists: per skill (3), per god (4), per spaceship stack (3), per token (4)."""
    _length(s.quests, 3, "quests")
    _length(s.ships, 3, "ships")
    _length(s.bless, 4, "bless")
    _length(s.turn.gained, 3, "turn.gained")
    for i, p in enumerate(s.players):
        for name, n in (("skills", 3), ("ships", 3), ("tokens", 4), ("story", 3), ("cards", 3)):
            _length(getattr(p, name), n, f"players[{i}].{name}")


def _rule(s: State) -> str:
    ctx = s.ctx
    if ctx is not None and ctx.kind == COMBAT:
        return "tiberpunk/combat"
    return {
        PH_DRAFT: "tiberpunk/personal-abilities",
        PH_PLACE: "tiberpunk/game-overview",
        PH_MAIN: "tiberpunk/game-overview",
        PH_ROLL: "tiberpunk/stage-1-quests",
        PH_QGADGET: "tiberpunk/gadget-cards",
        PH_PURSUE: "tiberpunk/stage-1-quests",
        PH_CGADGET: "tiberpunk/combat-vs-miniature",
        PH_REWARD: "tiberpunk/objective-rewards",
        PH_LPLACE: "tiberpunk/spaceship-cards",
        PH_OVER: "tiberpunk/end-of-game",
    }.get(s.phase, "tiberpunk/game-overview")


def _check_setup(r: Rules, s: State) -> None:
    """The player count, the side objective cards and the combat tiles (rule: general-setup)."""
    c = r.c
    _range(s.n, 2, 4, "n")
    if len(s.players) != s.n:
        _fail(f"players lists {len(s.players)} player(s) for n={s.n}", "players")
    cfg = s.cfg
    _range(cfg.max_rounds, 0, MAX_ROUNDS, "cfg.max_rounds", "tiberpunk/end-of-game")
    _range(cfg.bank, 0, MAX_COINS, "cfg.bank", "tiberpunk/collect-income")
    group, want = ("2", 1) if s.n == 2 else ("3-4", 2)
    rule = "tiberpunk/side-objective-combinations"
    if len(cfg.side) != want:
        _fail(f"{s.n} players use {want} side objective card(s), not {len(cfg.side)}", "cfg.side", rule)
    for i, card in enumerate(cfg.side):
        _range(card, 0, len(c.side_cards) - 1, f"cfg.side[{i}]", rule)
        if c.side_cards[card].players != group:
            _fail(
                f"side card {c.side_cards[card].id!r} is for {c.side_cards[card].players} players, not {s.n}",
                f"cfg.side[{i}]",
                rule,
            )
    if len(set(cfg.side)) != len(cfg.side):
        _fail("the side objective cards must differ", "cfg.side", rule)
    for i, cond in enumerate(cfg.tiles):
        if cond not in c.combat_tiles[i]:
            _fail(
                f"combat tile {i + 1} shows {show(cond)}; its sides are {list(c.combat_tiles[i])}",
                f"cfg.tiles[{i}]",
                "tiberpunk/combat-tiles",
            )


def _check_globals(r: Rules, s: State) -> None:
    """Seat, phase, round, lictors, stacks and counters in range."""
    c = r.c
    _range(s.seed, 0, MAX_SEED - 1, "seed")
    _range(s.seat, 0, s.n - 1, "seat", "tiberpunk/game-overview")
    _range(s.phase, 0, len(PHASES) - 1, "phase", "tiberpunk/game-overview")
    _range(s.rnd, 1, s.cfg.max_rounds or MAX_ROUNDS, "rnd", "tiberpunk/end-of-game")
    _range(s.shuffles, 0, MAX_ROUNDS, "shuffles")
    rule = "tiberpunk/movement"
    if not 1 <= len(s.lictors) <= c.lictors_total:
        _fail(f"{len(s.lictors)} lictor(s) on the board; 1 to {c.lictors_total} may be", "lictors", rule)
    for i, d in enumerate(s.lictors):
        _range(d, 0, r.nd - 1, f"lictors[{i}]", rule)
    if list(s.lictors) != sorted(s.lictors):
        _fail("lictors must be listed in district order", "lictors", rule)
    for k in range(3):
        _range(s.ships[k], 0, c.ships_per_type, f"ships[{k}]", "tiberpunk/spaceship-interaction")
    _range(s.lock, -1, 2, "lock", "tiberpunk/spaceship-interaction")
    for g in range(4):
        _range(s.bless[g], 0, s.n, f"bless[{g}]", "tiberpunk/structure-interaction")
    _bits(s.speed, 3 + len(s.cfg.side), "speed", "tiberpunk/game-overview")
    for name, deck, disc, total in (
        ("c1", s.c1deck, s.c1disc, len(c.challenges1)),
        ("c3", s.c3deck, s.c3disc, len(c.challenges3)),
    ):
        _cards(deck, total, f"{name}deck", "tiberpunk/stage-1-quests", hidden=True)
        _cards(disc, total, f"{name}disc", "tiberpunk/stage-1-quests", hidden=False)
    n_gadgets = len(c.gadget_deck)
    _cards(s.gdeck, 5, "gdeck", "tiberpunk/gadget-cards", hidden=True, size=n_gadgets)
    _cards(s.gdisc, 5, "gdisc", "tiberpunk/gadget-cards", hidden=False, size=n_gadgets)
    for k, stack in enumerate(s.quests):
        _cards(stack, len(c.stage1), f"quests[{k}]", "tiberpunk/stage-1-quests", hidden=True)
        if stack and stack[0] < 0:
            _fail("the top Stage I card of a stack is face up", f"quests[{k}][0]", "tiberpunk/stage-1-quests")
        for j, card in enumerate(stack):
            if card >= 0 and c.stage1[card].skill != k:
                _fail(
                    f"Stage I card #{c.stage1[card].id} is not a {_SKILLS[k]} card",
                    f"quests[{k}][{j}]",
                    "tiberpunk/general-setup",
                )


_SKILLS = ("hacking", "guile", "offense")


def _cards(
    cards: Sequence[int], kinds: int, field: str, rule: str, *, hidden: bool, size: int | None = None
) -> None:
    """A list of card ids (``-1`` face down where ``hidden``) in ``range(kinds)``, at most ``size``."""
    if len(cards) > (size if size is not None else kinds):
        _fail(f"{field} holds {len(cards)} cards; there are only {size or kinds}", field, rule)
    for j, card in enumerate(cards):
        if not (-1 if hidden else 0) <= card < kinds:
            legal = f"0 to {kinds - 1}" + (" (-1: face down)" if hidden else "")
            _fail(f"{field}[{j}] is {show(card)}; a card is {legal}", f"{field}[{j}]", rule)


def _check_player(r: Rules, s: State, i: int, p: Player) -> None:
    """One player's components in range (rule: player-setup and the sections of each component)."""
    c = r.c
    f = f"players[{i}]"
    _range(p.coins, 0, s.cfg.bank or MAX_COINS, f"{f}.coins", "tiberpunk/collect-income")
    _range(p.ability, -1, len(c.abilities) - 1, f"{f}.ability", "tiberpunk/personal-abilities")
    costs = len(c.abilities[p.ability].costs) if p.ability >= 0 else 0
    _range(p.reboots, 0, costs, f"{f}.reboots", "tiberpunk/personal-abilities")
    for k in range(3):
        _range(p.skills[k], 0, r.max_slot[k], f"{f}.skills[{k}]", "tiberpunk/structure-interaction")
    _range(p.char, -1, r.nd - 1, f"{f}.char", "tiberpunk/movement")
    _range(p.drone, -1, r.nd - 1, f"{f}.drone", "tiberpunk/movement")
    if (p.char < 0) != (p.drone < 0):
        _fail("the character and the drone are placed together", f"{f}.drone", "tiberpunk/game-overview")
    _bits(p.shackles, 2, f"{f}.shackles", "tiberpunk/shackles")
    _bits(p.boosts, 2, f"{f}.boosts", "tiberpunk/objective-rewards")
    _range(p.favor, -1, 3, f"{f}.favor", "tiberpunk/divine-favor")
    _bits(p.blessings, 4, f"{f}.blessings", "tiberpunk/structure-interaction")
    _bits(p.temples, 4, f"{f}.temples", "tiberpunk/structure-interaction")
    _bits(p.hubs, len(c.hubs), f"{f}.hubs", "tiberpunk/structure-interaction")
    if p.blessings != p.temples:
        _fail(
            "each blessing tile comes with an influence marker on its temple: blessings must equal temples",
            f"{f}.blessings",
            "tiberpunk/structure-interaction",
        )
    if p.temples.bit_count() + p.hubs.bit_count() > c.influence_markers:
        _fail(
            f"more than {c.influence_markers} influence markers placed",
            f"{f}.hubs",
            "tiberpunk/structure-interaction",
        )
    _check_hand(s, f, p)
    for k in range(3):
        _range(p.ships[k], 0, c.ships_per_type, f"{f}.ships[{k}]", "tiberpunk/spaceship-cards")
    _check_tokens(r, f, p)
    _check_player_objectives(r, s, f, p)


def _check_player_objectives(r: Rules, s: State, f: str, p: Player) -> None:
    """A player's storylines, side tasks and triumph tokens per objective card (rule: storyline-objectives,
    side-objectives)."""
    c = r.c
    for k in range(3):
        _range(p.story[k], 0, 3, f"{f}.story[{k}]", "tiberpunk/storyline-objectives")
        card = p.cards[k]
        if p.story[k] == 0:
            if card != -1:
                _fail(
                    "no storyline card before the Stage I quest (-1)",
                    f"{f}.cards[{k}]",
                    "tiberpunk/stage-1-quests",
                )
        elif not 0 <= card < len(c.stage1) or c.stage1[card].skill != k:
            _fail(
                f"{show(card)} is not a {_SKILLS[k]} Stage I card",
                f"{f}.cards[{k}]",
                "tiberpunk/stage-2-quests",
            )
    if len(p.side) != len(s.cfg.side):
        _fail(
            f"one entry per side card in play ({len(s.cfg.side)})", f"{f}.side", "tiberpunk/side-objectives"
        )
    for j, mask in enumerate(p.side):
        _bits(mask, 3, f"{f}.side[{j}]", "tiberpunk/side-objectives")
    if len(p.otoks) != 3 + len(s.cfg.side):
        _fail(
            f"one entry per objective card ({3 + len(s.cfg.side)})", f"{f}.otoks", "tiberpunk/game-overview"
        )


def _check_hand(s: State, f: str, p: Player) -> None:
    rule = "tiberpunk/gadget-cards"
    _cards(p.hand, 5, f"{f}.hand", rule, hidden=True, size=25)
    if list(p.hand) != sorted(p.hand):
        _fail("the gadget cards are listed sorted (face-down first)", f"{f}.hand", rule)
    _cards(p.known, 5, f"{f}.known", rule, hidden=False, size=25)
    if list(p.known) != sorted(p.known):
        _fail("the known gadget cards are listed sorted", f"{f}.known", rule)
    if Counter(p.known) - Counter(x for x in p.hand if x >= 0):
        _fail("the known gadget cards must be face-up cards of the hand", f"{f}.known", rule)
    if len(p.wheel) > 2 or len(set(p.wheel)) != len(p.wheel) or any(not 0 <= x <= 3 for x in p.wheel):
        _fail(
            f"the wheel holds at most 2 different tokens (0-3), not {list(p.wheel)!r}"[:120],
            f"{f}.wheel",
            "tiberpunk/interaction-wheel",
        )


def _check_tokens(r: Rules, f: str, p: Player) -> None:
    """The interaction tokens are the four basic ones, one replaced by a token ability."""
    tokens = [1, 2, 4, 8]
    if p.ability >= 0:
        ab = r.c.abilities[p.ability]
        if ab.kind == _AB_TOKEN:
            tokens[ab.replace] = ab.mask
    if list(p.tokens) != tokens:
        _fail(
            f"the interaction tokens are {tokens} with this ability, not {list(p.tokens)!r}"[:120],
            f"{f}.tokens",
            "tiberpunk/interaction-wheel",
        )


def _check_conservation(r: Rules, s: State) -> None:
    """Components neither created nor lost (rule: general-setup and each component's section)."""
    c = r.c
    coins = sum(p.coins for p in s.players)
    if s.cfg.bank and coins > s.cfg.bank:
        _fail(
            f"the players hold {coins} coins; the bank (coin_bank variant) has {s.cfg.bank}",
            "players",
            "tiberpunk/collect-income",
        )
    # gadgets: deck + discard + hands = the gadget deck
    cards = [*s.gdeck, *s.gdisc, *(g for p in s.players for g in p.hand)]
    _conserved(cards, c.gadget_deck, "gdeck", "gadget cards", "tiberpunk/gadget-cards")
    # challenge cards: deck + discard + the card of the quest in progress
    ctx = s.ctx
    for stage, deck, disc, total in (
        (1, s.c1deck, s.c1disc, c.challenges1),
        (3, s.c3deck, s.c3disc, c.challenges3),
    ):
        held = [ctx.card] if ctx is not None and ctx.kind == QUEST and ctx.stage == stage else []
        _conserved(
            [*deck, *disc, *held],
            range(len(total)),
            f"c{stage}deck",
            f"stage {stage} challenge cards",
            "tiberpunk/stage-1-quests",
        )
    # quest cards: each stack keeps n cards, less those taken by a Stage I success
    for k, stack in enumerate(s.quests):
        held = [p.cards[k] for p in s.players if p.story[k] >= 1]
        if len(stack) + len(held) != s.n:
            _fail(
                f"the {_SKILLS[k]} stack and the cards taken from it hold {len(stack) + len(held)} cards; "
                f"setup keeps {s.n}",
                f"quests[{k}]",
                "tiberpunk/general-setup",
            )
        visible = [x for x in (*stack, *held) if x >= 0]
        if len(set(visible)) != len(visible):
            _fail(f"a {_SKILLS[k]} Stage I card is listed twice", f"quests[{k}]", "tiberpunk/general-setup")
    for k in range(3):
        ships = s.ships[k] + sum(p.ships[k] for p in s.players)
        if ships != c.ships_per_type:
            _fail(
                f"{ships} spaceship cards of stack {k} in play; there are {c.ships_per_type}",
                f"ships[{k}]",
                "tiberpunk/spaceship-interaction",
            )
    for g in range(4):
        tiles = s.bless[g] + sum((p.blessings >> g) & 1 for p in s.players)
        if tiles != s.n:
            _fail(
                f"{tiles} blessing tiles of god {g}; setup puts {s.n}",
                f"bless[{g}]",
                "tiberpunk/general-setup",
            )


def _conserved(cards: Iterable[int], box: Iterable[int], field: str, what: str, rule: str) -> None:
    """The visible ``cards`` are a sub-multiset of ``box`` and, with the face-down ones, as many."""
    have = list(cards)
    whole = Counter(box)
    extra = Counter(x for x in have if x >= 0) - whole
    if extra:
        card = next(iter(extra))
        _fail(f"{what}: card {card} appears more often than the box holds it", field, rule)
    if len(have) != sum(whole.values()):
        _fail(f"{len(have)} {what} in play; the box has {sum(whole.values())}", field, rule)


def _check_objectives(r: Rules, s: State) -> None:
    """Triumph tokens match the objectives completed; speed bonus and end trigger agree."""
    c = r.c
    bonus_holders = [0] * (3 + len(s.cfg.side))
    done_three = [False] * len(bonus_holders)
    for i, p in enumerate(s.players):
        for obj, tokens in enumerate(p.otoks):
            done = p.story[obj] if obj < 3 else p.side[obj - 3].bit_count()
            field = f"players[{i}].otoks[{obj}]"
            if tokens == done + 1 and done == 3:
                bonus_holders[obj] += 1
            elif tokens != done:
                _fail(
                    f"{show(tokens)} triumph tokens for {done} completed objective(s) on this card "
                    f"({done + 1} with the speed bonus at the third)",
                    field,
                    "tiberpunk/game-overview",
                )
            done_three[obj] |= done == 3
        _check_influence_tasks(r, s, i, p)
    for obj, holders in enumerate(bonus_holders):
        taken = bool((s.speed >> obj) & 1)
        if holders > 1 or taken != (holders == 1) or done_three[obj] != taken:
            _fail(
                "the speed bonus of an objective card goes to the first player to place a third token "
                "there, once",
                "speed",
                "tiberpunk/game-overview",
            )
    end = any(sum(p.otoks) >= c.end_tokens for p in s.players)
    if s.end != end:
        _fail(
            f"end must be {str(end).lower()}: a player's {c.end_tokens}th triumph token triggers the end",
            "end",
            "tiberpunk/end-of-game",
        )


def _check_influence_tasks(r: Rules, s: State, i: int, p: Player) -> None:
    """Side tasks completed automatically by influence markers are done exactly when reached."""
    c = r.c
    placed = p.temples.bit_count() + p.hubs.bit_count()
    reached = {
        _T_NETWORK: placed >= 4,
        _T_SUPPLY: p.hubs.bit_count() >= 3,
        _T_DEVOTION: p.temples.bit_count() >= 3,
    }
    for slot, card in enumerate(s.cfg.side):
        for ti, task in enumerate(c.side_cards[card].tasks):
            done = bool((p.side[slot] >> ti) & 1)
            if task.kind in reached and done != reached[task.kind]:
                _fail(
                    f"the {_TASK_WORDS.get(task.kind, 'task')} task is completed exactly when its influence "
                    "markers are placed",
                    f"players[{i}].side[{slot}]",
                    "tiberpunk/side-objectives",
                )
            if task.kind == _T_MASTERY and done and all(p.skills[k] < r.max_slot[k] for k in range(3)):
                _fail(
                    "mastery needs a skill at its maximum",
                    f"players[{i}].side[{slot}]",
                    "tiberpunk/side-objectives",
                )


_TASK_WORDS = {_T_NETWORK: "network", _T_SUPPLY: "supply line", _T_DEVOTION: "devotion"}


def _check_draft(r: Rules, s: State) -> None:
    """Ability tiles: drafted from the last player counter-clockwise (rule: personal-abilities)."""
    c = r.c
    rule = "tiberpunk/personal-abilities"
    chosen = [p.ability for p in s.players]
    if not s.cfg.abilities:
        if s.draft or any(a >= 0 for a in chosen):
            _fail("no ability tiles without the personal abilities module", "draft", rule)
        if s.phase == PH_DRAFT:
            _fail("the draft phase needs the personal abilities module", "phase", rule)
        return
    drafting = s.phase == PH_DRAFT
    for i, a in enumerate(chosen):
        if (a >= 0) != (not drafting or i > s.seat):
            want = "chosen" if not drafting or i > s.seat else "not chosen yet"
            _fail(f"player {i + 1}'s ability tile must be {want}", f"players[{i}].ability", rule)
    taken = [a for a in chosen if a >= 0]
    if len(set(taken)) != len(taken):
        _fail("two players hold the same ability tile", "players", rule)
    rest = [a for a in range(len(c.abilities)) if a not in taken]
    if list(s.draft) != rest:
        _fail(f"the tiles left to draft are {rest}, in order", "draft", rule)


def _check_placement(s: State) -> None:
    """Miniatures are placed on each player's first turn, in seat order (rule: game-overview)."""
    for i, p in enumerate(s.players):
        placed = s.rnd > 1 or i < s.seat or (i == s.seat and s.phase not in (PH_DRAFT, PH_PLACE))
        if s.phase == PH_DRAFT:
            placed = False
        if (p.char >= 0) != placed:
            want = "placed" if placed else "not placed yet"
            _fail(
                f"player {i + 1}'s character and drone must be {want} (round {s.rnd}, seat {s.seat + 1} "
                f"in the {PHASES[s.phase]} phase)",
                f"players[{i}].char",
                "tiberpunk/game-overview",
            )
    if s.phase in (PH_DRAFT, PH_PLACE) and s.rnd != 1:
        _fail("the draft and the first placement happen in round 1", "rnd", "tiberpunk/game-overview")


def _check_turn(r: Rules, s: State) -> None:
    """The turn flags (rule: game-overview, movement, spaceship-cards, divine-favor)."""
    t = s.turn
    if s.phase in (PH_DRAFT, PH_PLACE, PH_OVER) and t != _FRESH:
        _fail(f"no turn actions yet in the {PHASES[s.phase]} phase", "turn", "tiberpunk/game-overview")
    _range(t.moves, 0, 2, "turn.moves", "tiberpunk/movement")
    for k in range(3):
        _range(t.gained[k], 0, r.c.ships_per_type, f"turn.gained[{k}]", "tiberpunk/spaceship-cards")
    if t.lictor_due and not t.ship:
        _fail(
            "a lictor placement is owed only after a spaceship card is played",
            "turn.lictor_due",
            "tiberpunk/spaceship-cards",
        )
    if t.lictor_due and s.phase in (PH_DRAFT, PH_PLACE, PH_MAIN, PH_LPLACE, PH_OVER):
        _fail(
            f"an owed lictor placement is made before the {PHASES[s.phase]} phase",
            "turn.lictor_due",
            "tiberpunk/spaceship-cards",
        )
    _cards(t.used, 5, "turn.used", "tiberpunk/gadget-cards", hidden=False, size=len(r.c.gadget_deck))


def _check_ctx(r: Rules, s: State, ctx: Ctx) -> None:
    """The quest roll or combat in progress (rule: stage-1-quests, combat)."""
    _range(ctx.kind, 0, 1, "ctx.kind", "tiberpunk/character-drone-interactions")
    _range(ctx.mini, 0, 1, "ctx.mini", "tiberpunk/character-drone-interactions")
    _range(ctx.where, 0, r.nd - 1, "ctx.where", "tiberpunk/character-drone-interactions")
    for name, pool, pending in (("a", ctx.a, ctx.ra), ("d", ctx.d, ctx.rd)):
        if any(not 1 <= v <= 6 for v in pool) or list(pool) != sorted(pool):
            _fail(f"ctx.{name} lists dice (1 to 6) in order", f"ctx.{name}", "tiberpunk/stage-1-quests")
        _range(pending, 0, MAX_DICE - len(pool), f"ctx.r{name}", "tiberpunk/stage-1-quests")
    _range(ctx.ua, 0, 3, "ctx.ua", "tiberpunk/gadget-cards")
    _range(ctx.ud, 0, 3, "ctx.ud", "tiberpunk/gadget-cards")
    if ctx.kind == QUEST:
        _check_quest(r, s, ctx)
    else:
        _check_combat(r, s, ctx)


def _check_quest(r: Rules, s: State, ctx: Ctx) -> None:
    rule = "tiberpunk/stage-1-quests"
    c = r.c
    p = s.players[s.seat]
    if ctx.stage not in (1, 3):
        _fail(f"a quest roll is for stage 1 or 3, not {show(ctx.stage)}", "ctx.stage", rule)
    _range(ctx.skill, 0, 2, "ctx.skill", rule)
    if ctx.mini not in ((DRONE,), (CHAR,), (CHAR, DRONE))[ctx.skill]:
        _fail(
            "hacking quests are the drone's, guile quests the character's",
            "ctx.mini",
            "tiberpunk/character-drone-interactions",
        )
    cards = c.challenges1 if ctx.stage == 1 else c.challenges3
    _range(ctx.card, 0, len(cards) - 1, "ctx.card", rule)
    if ctx.d or ctx.rd or ctx.ud or ctx.tkind or ctx.tseat or ctx.tile or ctx.obj or ctx.who != s.seat:
        _fail("a quest roll has no defender (d, rd, ud, tkind, tseat, tile, obj 0; who = seat)", "ctx", rule)
    if r.pos(p, ctx.mini) != ctx.where:
        _fail("the quest is attempted where the acting miniature stands", "ctx.where", rule)
    if ctx.where in s.lictors:
        _fail("a lictor in the district ends the quest attempt", "ctx.where", rule)
    story = p.story[ctx.skill]
    if ctx.stage == 1:
        stack = s.quests[ctx.skill]
        if story != 0 or not stack or c.stage1[stack[0]].district != ctx.where:
            _fail(
                "a Stage I quest is the face-up card's, at its quest marker, before any storyline card",
                "ctx.stage",
                rule,
            )
    elif story != 2 or c.stage3[p.cards[ctx.skill]].district != ctx.where:
        _fail(
            "a Stage III quest needs its Stage III card and its district",
            "ctx.stage",
            "tiberpunk/stage-3-quests",
        )


def _check_combat(r: Rules, s: State, ctx: Ctx) -> None:
    rule = "tiberpunk/combat"
    p = s.players[s.seat]
    if ctx.stage or ctx.skill != 2 or ctx.card != -1:
        _fail("a combat has stage 0, skill 2 (offense) and card -1", "ctx", rule)
    _range(ctx.tkind, 0, 2, "ctx.tkind", rule)
    if ctx.tile not in s.cfg.tiles:
        _fail(
            f"the combat tile must be one of the face-up sides {list(s.cfg.tiles)}",
            "ctx.tile",
            "tiberpunk/combat-tiles",
        )
    if r.pos(p, ctx.mini) != ctx.where:
        _fail("the combat is where the attacking miniature stands", "ctx.where", rule)
    if ctx.tkind == LICTOR:
        if ctx.tseat != 0 or ctx.where not in s.lictors:
            _fail(
                "a combat against a lictor needs a lictor in the district (tseat 0)",
                "ctx.where",
                "tiberpunk/combat-vs-lictor",
            )
        if ctx.ud:
            _fail("a lictor plays no gadgets", "ctx.ud", "tiberpunk/combat-vs-lictor")
    else:
        _range(ctx.tseat, 0, s.n - 1, "ctx.tseat", rule)
        target = s.players[ctx.tseat]
        if ctx.tseat == s.seat or r.pos(target, ctx.tkind) != ctx.where or ctx.where in s.lictors:
            _fail(
                "the defender is another player's miniature in the district, with no lictor",
                "ctx.tseat",
                "tiberpunk/combat-vs-miniature",
            )
    if ctx.who not in (-1, s.seat, ctx.tseat if ctx.tkind != LICTOR else s.seat):
        _fail("the seat deciding on gadgets is the attacker or the defender (-1: none yet)", "ctx.who", rule)
    _check_combat_objective(r, s, ctx, p)


def _check_combat_objective(r: Rules, s: State, ctx: Ctx, p: Player) -> None:
    """The declared objective is available and fits the target (rule: combat)."""
    c = r.c
    rule = "tiberpunk/combat"
    if ctx.obj == STAGE2_OBJ:
        card = c.stage2[p.cards[2]] if p.story[2] == 1 else None
        if card is None or card.template != _TPL_DEFEAT or card.target not in (ctx.tkind, 3):
            _fail(
                "the Stage II offense quest declared is not the attacker's, or not against this target",
                "ctx.obj",
                rule,
            )
        if card.district not in (-1, ctx.where):
            _fail("the Stage II offense quest is fought in its district", "ctx.obj", rule)
        return
    slot, ti = divmod(ctx.obj, 3)
    if not 0 <= slot < len(s.cfg.side):
        _fail(
            f"ctx.obj is {show(ctx.obj)}: a side card slot * 3 + task, or {STAGE2_OBJ} (Stage II)",
            "ctx.obj",
            rule,
        )
    task = c.side_cards[s.cfg.side[slot]].tasks[ti]
    if task.kind != _T_DEF[ctx.tkind] or (p.side[slot] >> ti) & 1:
        _fail("the declared side task is not an available combat task against this target", "ctx.obj", rule)


def _check_rewards(r: Rules, s: State) -> None:
    """Pending rewards (rule: objective-rewards)."""
    rule = "tiberpunk/objective-rewards"
    if len(s.rewards) > MAX_REWARDS:
        _fail(f"at most {MAX_REWARDS} rewards may be pending", "rewards", rule)
    for j, (seat, kind, param) in enumerate(s.rewards):
        f = f"rewards[{j}]"
        _range(seat, 0, s.n - 1, f"{f}[0]", rule)
        _range(kind, 0, _R_ESCAPE, f"{f}[1]", rule)
        if kind == _R_SKILL:
            _range(param, 1, 7, f"{f}[2]", rule)
        elif kind == _R_ESCAPE:
            if param not in s.lictors or len(s.lictors) != 1:
                _fail(
                    "the last lictor escapes from its own district", f"{f}[2]", "tiberpunk/combat-vs-lictor"
                )
        elif param != 2:
            _fail("a coins, spaceship, gadget or boost reward has parameter 2", f"{f}[2]", rule)
    if bool(s.rewards) != (s.phase == PH_REWARD):
        _fail("rewards are pending exactly in the reward phase", "rewards", rule)


def _check_phase(r: Rules, s: State) -> None:
    """The pending decision of the phase is coherent (someone can decide it)."""
    ph = s.phase
    ctx = s.ctx
    if ph == PH_ROLL:
        assert ctx is not None
        if not (ctx.ra or ctx.rd):
            _fail("the roll phase needs dice to roll (ra or rd)", "ctx.ra", "tiberpunk/stage-1-quests")
    elif ph in (PH_QGADGET, PH_PURSUE):
        assert ctx is not None
        if ctx.kind != QUEST or ctx.ra or contains(ctx.a, r.challenge(ctx)):
            _fail(f"the {PHASES[ph]} phase follows a failed quest roll", "ctx", _rule(s))
        if ph == PH_QGADGET and not (s.players[s.seat].hand and ctx.ua < r.gadget_limit(s, s.seat)):
            _fail(
                "a gadget decision needs gadget cards and a gadget left to play",
                "ctx.ua",
                "tiberpunk/gadget-cards",
            )
    elif ph == PH_CGADGET:
        assert ctx is not None
        if ctx.kind != COMBAT or ctx.ra or ctx.rd:
            _fail("the combat-gadget phase follows a combat roll", "ctx", "tiberpunk/combat")
        wins = r.attacker_wins(ctx)
        loser = ctx.tseat if wins else s.seat
        used = ctx.ud if wins else ctx.ua
        if (wins and ctx.tkind == LICTOR) or ctx.who != loser:
            _fail("the side losing the combat decides on gadgets", "ctx.who", "tiberpunk/combat-vs-miniature")
        if not (s.players[loser].hand and used < r.gadget_limit(s, loser)):
            _fail(
                "a gadget decision needs gadget cards and a gadget left to play",
                "ctx.who",
                "tiberpunk/gadget-cards",
            )
    elif ph == PH_REWARD:
        seat, kind, param = s.rewards[0]
        if not r._reward_options(s, seat, kind, param):
            _fail("the first pending reward has no option left", "rewards[0]", "tiberpunk/objective-rewards")
    elif ph == PH_LPLACE:
        if len(s.lictors) >= r.c.lictors_total or not s.turn.ship:
            _fail(
                "a lictor is placed from the reserve after a spaceship card",
                "lictors",
                "tiberpunk/spaceship-cards",
            )
    elif ph == PH_OVER:
        capped = s.cfg.max_rounds and s.rnd >= s.cfg.max_rounds
        if s.seat != s.n - 1 or not (s.end or capped):
            _fail(
                "the game ends after the last player's turn, once triggered", "phase", "tiberpunk/end-of-game"
            )
