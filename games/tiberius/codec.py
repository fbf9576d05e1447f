"""Reading a Tiberius Who? state from plain JSON data, validating every field.

Bad data raises ``InvalidStateError`` naming the field (``state.cubes[1]``) and, where a rule is
broken, the rule; a typed-in position is checked against the invariants of the rules (40 cubes,
each card once, bids in the Bid box, a seat that really decides in this phase).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.errors import InvalidStateError
from games.tiberius.model import (
    ADOPT,
    BD,
    BOX_CODES,
    CARD,
    CUBE,
    CUBES_PER_PLAYER,
    EMPTY,
    HIDDEN,
    NOTHING,
    OVER,
    PCIM_CARD,
    PHASE_NAMES,
    PICK,
    TURNS,
    Content,
    TiberiusState,
)

__all__ = ["state_from_dict"]

VARIANT_CHOICES = {
    "influence_table": ("setup", "mat"),
    "pcim_rule": ("once", "influence"),
    "marriage_vp": ("schedule", "aid"),
    "imperator_solo": ("both", "most"),
    "imperator_empty": ("tiebreak", "least", "none"),
    "turns": (TURNS, 7),
}


def _bad(field: str, why: str, rule: str = "") -> InvalidStateError:
    return InvalidStateError(f"invalid tiberius state: {why}", field=f"state.{field}", rule=rule)


class _Reader:
    """Typed access to the fields of one state dict."""

    def __init__(self, content: Content, data: Mapping[str, Any]) -> None:
        self.content = content
        self.data = data
        self.by_code = {c.code: c.id for c in content.cards}
        self.adopt_by_code = {a.code: a.id for a in content.adoptions}
        self.n = 0

    def get(self, key: str) -> Any:
        if key not in self.data:
            raise _bad(key, "missing")
        return self.data[key]

    def integer(self, key: str, value: Any, lo: int, hi: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise _bad(key, f"expected an integer {lo}..{hi}, got {value!r}")
        return value

    def boolean(self, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise _bad(key, f"expected true or false, got {value!r}")
        return value

    def items(self, key: str, value: Any, length: int | None = None) -> list[Any]:
        if not isinstance(value, list):
            raise _bad(key, f"expected a list, got {value!r}")
        if length is not None and len(value) != length:
            raise _bad(key, f"expected {length} entries, got {len(value)}")
        return value

    def seats(self, key: str) -> list[Any]:
        return self.items(key, self.get(key), self.n)

    def card(self, key: str, code: Any) -> int:
        if not isinstance(code, str) or code.upper() not in self.by_code:
            raise _bad(key, f"unknown career card {code!r}")
        return self.by_code[code.upper()]

    def adoption(self, key: str, code: Any) -> int:
        if not isinstance(code, str) or code.upper() not in self.adopt_by_code:
            raise _bad(key, f"unknown adoption card {code!r}")
        return self.adopt_by_code[code.upper()]


def state_from_dict(content: Content, data: Mapping[str, Any]) -> TiberiusState:
    """The state ``TiberiusGame.to_dict`` wrote, validated (``InvalidStateError`` naming the field)."""
    if not isinstance(data, Mapping):
        raise _bad("", f"expected an object, got {type(data).__name__}")
    r = _Reader(content, data)
    raw_cubes = r.items("cubes", r.get("cubes"))
    n = r.n = len(raw_cubes)
    if not 1 <= n <= 6:
        raise _bad("cubes", f"1 to 6 seats, got {n}", "tiberius/setup")
    cubes = []
    for s, c in enumerate(raw_cubes):
        if not isinstance(c, dict) or set(c) - set(BOX_CODES):
            raise _bad(f"cubes[{s}]", f"expected an object with keys among {list(BOX_CODES)}, got {c!r}")
        row = tuple(r.integer(f"cubes[{s}].{b}", c.get(b, 0), 0, CUBES_PER_PLAYER) for b in BOX_CODES)
        if sum(row) > CUBES_PER_PLAYER:
            raise _bad(f"cubes[{s}]", f"{sum(row)} cubes placed; 40 is an absolute limit", "tiberius/setup")
        cubes.append(row)
    phase_name = r.get("phase")
    if phase_name not in PHASE_NAMES:
        raise _bad("phase", f"expected one of {list(PHASE_NAMES)}, got {phase_name!r}")
    phase = PHASE_NAMES.index(phase_name)
    variants = r.get("variants")
    if not isinstance(variants, dict):
        raise _bad("variants", f"expected an object, got {variants!r}")
    chosen: dict[str, object] = {}
    for key, choices in VARIANT_CHOICES.items():
        value = variants.get(key, choices[0])
        if isinstance(value, bool) or value not in choices:
            raise _bad(f"variants.{key}", f"expected one of {list(choices)}, got {value!r}")
        chosen[key] = value
    turns = chosen["turns"] if isinstance(chosen["turns"], int) else TURNS
    turn = r.integer("turn", r.get("turn"), 1, turns + 1)
    if (phase == OVER) != (turn == turns + 1):
        raise _bad("turn", f"turn {turn} does not fit phase {phase_name!r}", "tiberius/end-of-game")
    actor = r.integer("actor", r.get("actor"), -1 if phase == OVER else 0, -1 if phase == OVER else n - 1)
    ndecks = len(content.decks)
    decks = tuple(
        tuple(r.card(f"decks[{i}]", c) for c in r.items(f"decks[{i}]", d))
        for i, d in enumerate(r.items("decks", r.get("decks"), ndecks))
    )
    for i, d in enumerate(decks):
        if any(content.cards[c].region != i for c in d):
            raise _bad(f"decks[{i}]", "a card is in another region's deck")
    face_up = tuple(
        EMPTY if c is None else r.card(f"face_up[{i}]", c)
        for i, c in enumerate(r.items("face_up", r.get("face_up"), ndecks))
    )
    if any(c != EMPTY and content.cards[c].region != i for i, c in enumerate(face_up)):
        raise _bad("face_up", "a face-up card lies on another region's deck")
    careers = tuple(
        tuple(r.card(f"careers[{s}]", c) for c in r.items(f"careers[{s}]", cs))
        for s, cs in enumerate(r.seats("careers"))
    )
    played = tuple(
        PCIM_CARD if c == "PCIM" else (NOTHING if c is None else r.card(f"played[{s}]", c))
        for s, c in enumerate(r.seats("played"))
    )
    for s, c in enumerate(played):
        if c >= 0 and c not in careers[s]:
            raise _bad(f"played[{s}]", "this turn's card must be among the seat's career cards")
    discarded = tuple(r.card("discarded", c) for c in r.items("discarded", r.get("discarded")))
    seen = [c for d in decks for c in d] + [c for c in face_up if c >= 0]
    seen += [c for cs in careers for c in cs] + list(discarded)
    if len(seen) != len(set(seen)):
        raise _bad("decks", "a career card appears twice")
    bids = tuple(r.integer(f"bids[{s}]", b, 0, CUBES_PER_PLAYER) for s, b in enumerate(r.seats("bids")))
    if any(b != cubes[s][BD] for s, b in enumerate(bids)):
        raise _bad("bids", "each bid must equal the cubes in that seat's Bid box", "tiberius/card-phase")
    live = [b for b in bids if b > 0]
    if len(live) != len(set(live)):
        raise _bad("bids", "bids must be unique", "tiberius/card-phase")
    pcim_used = tuple(r.boolean(f"pcim_used[{s}]", x) for s, x in enumerate(r.seats("pcim_used")))
    secret = tuple(
        HIDDEN if a is None else r.adoption(f"secret[{s}]", a) for s, a in enumerate(r.seats("secret"))
    )
    adopt_face_up = tuple(
        r.adoption("adopt_face_up", a) for a in r.items("adopt_face_up", r.get("adopt_face_up"))
    )
    adopt_unused = tuple(
        r.adoption("adopt_unused", a) for a in r.items("adopt_unused", r.get("adopt_unused"))
    )
    adopted = tuple(
        -1 if a is None else r.adoption(f"adopted[{s}]", a) for s, a in enumerate(r.seats("adopted"))
    )
    known = [a for a in secret if a != HIDDEN] + list(adopt_face_up) + list(adopt_unused)
    if len(known) != len(set(known)):
        raise _bad("secret", "an adoption card appears twice")
    claimed = [a for s, a in enumerate(adopted) if a >= 0 and a != secret[s]]
    if len(claimed) != len(set(claimed)) or set(claimed) & set(known):
        raise _bad("adopted", "a claimed adoption card is also elsewhere", "tiberius/adoption-phase")
    age = r.seats("age")
    if sorted(a for a in age if isinstance(a, int) and not isinstance(a, bool)) != list(range(n)):
        raise _bad("age", f"expected a permutation of the seats 0..{n - 1}, got {age!r}")
    state = TiberiusState(
        turn=turn,
        phase=phase,
        actor=actor,
        start_priority=r.integer("start_priority", r.get("start_priority"), 0, n - 1),
        priority=r.integer("priority", r.get("priority"), 0, n - 1),
        cubes=tuple(cubes),
        decks=decks,
        face_up=face_up,
        careers=careers,
        played=played,
        bids=bids,
        pcim_used=pcim_used,
        secret=secret,
        adopt_face_up=adopt_face_up,
        adopt_unused=adopt_unused,
        adopted=adopted,
        discarded=discarded,
        black=r.integer("black", r.get("black"), 0, 12),
        row_open=r.boolean("row_open", r.get("row_open")),
        family=r.boolean("family", r.get("family")),
        moved=r.integer("moved", r.get("moved"), 0, CUBES_PER_PLAYER),
        age=tuple(age),
        influence_table=str(chosen["influence_table"]),
        pcim_rule=str(chosen["pcim_rule"]),
        marriage_vp=str(chosen["marriage_vp"]),
        imperator_solo=str(chosen["imperator_solo"]),
        imperator_empty=str(chosen["imperator_empty"]),
        turns=turns,
    )
    _check_actor(state)
    return state


def _check_actor(s: TiberiusState) -> None:
    """The seat to act must really have a decision of this phase."""
    a = s.actor
    if s.phase == PICK and s.bids[a] <= 0:
        raise _bad("actor", f"seat {a} made no bid, so it does not pick", "tiberius/card-phase")
    if s.phase == CUBE and s.played[a] == NOTHING:
        raise _bad(
            "actor", f"seat {a} has no card this turn, so it has no cube action", "tiberius/cube-phase"
        )
    if s.phase == ADOPT and s.adopted[a] >= 0:
        raise _bad("actor", f"seat {a} is already adopted", "tiberius/adoption-phase")
    if s.phase == CARD and (s.bids[a] > 0 or s.played[a] != NOTHING):
        raise _bad("actor", f"seat {a} already acted in this card phase", "tiberius/card-phase")
