"""The set-up of Tiberius Who? (rule: tiberius/setup): cubes, the Priority marker, the adoption cards,
the shuffled regional decks and the turn track, then the first turn's face-up cards.

``Setup`` keeps what every deal of one content pack shares (the start cubes by number of players,
the age orders), so a deal builds the state once, directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from games.core.protocol import OptionValue, Seat
from games.core.rng import make_rng
from games.tiberius.model import BOX_CODES, CARD, IN, Content, Player, TiberiusState

__all__ = [
    "MAT_INFLUENCE_FIRST",
    "SETUP_INFLUENCE",
    "Setup",
    "below",
    "face_up_adoptions",
    "influence_cubes",
    "shuffled",
    "shuffled_each",
]

SETUP_INFLUENCE = {1: 12, 2: 24, 3: 26, 4: 28, 5: 30, 6: 32}
"""Influence cubes each, by number of players (the set-up list)."""
MAT_INFLUENCE_FIRST = 26
"""Player-mat variant: 1st in priority order 26, then +2 per seat (26/28/30/32; 34/36 extrapolated)."""


def _steps(size: int) -> tuple[tuple[int, int], ...]:
    """The Fisher-Yates steps of a list of ``size``, from the end: (index, bits drawn for a swap index)."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


_STEPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_steps(size) for size in range(65))
"""``_steps(size)`` for the sizes of the decks (a whole pack's 64 cards at most)."""


def shuffled(getrandbits: Callable[[int], int], items: Iterable[int]) -> list[int]:
    """``items`` shuffled exactly as ``random.Random.shuffle`` shuffles them, given its ``getrandbits``.

    The same algorithm as the standard library's (Fisher-Yates from the end; each swap index drawn
    as ``_randbelow`` draws it: as many bits as the bound needs, drawn again while too large), so a
    seed deals the same decks, without a Python call per card for ``_randbelow``
    (``tests/tiberius/test_fast_paths.py`` checks it against ``random.Random.shuffle``).
    """
    out = list(items)
    size = len(out)
    for i, k in _STEPS[size] if size < len(_STEPS) else _steps(size):
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        out[i], out[j] = out[j], out[i]
    return out


def shuffled_each(getrandbits: Callable[[int], int], groups: Iterable[Iterable[int]]) -> list[list[int]]:
    """Each of ``groups`` shuffled in turn by :func:`shuffled` (the same draws, in the same order)."""
    return [shuffled(getrandbits, items) for items in groups]


def below(getrandbits: Callable[[int], int], n: int) -> int:
    """An int in [0, n) (n >= 1) drawn exactly as ``random.Random.randrange(n)`` draws it, given its
    ``getrandbits`` (``_randbelow``: the bits ``n`` needs, drawn again while too large;
    ``tests/tiberius/test_fast_paths.py`` checks it against ``randrange``)."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def face_up_adoptions(players: int) -> int:
    """Adoption cards dealt face up: two, only 1 with less than 4 players."""
    return 2 if players >= 4 else 1


def influence_cubes(influence: int) -> tuple[int, ...]:
    """A seat's cubes at setup: ``influence`` cubes in the Influence box, none elsewhere."""
    return tuple(influence if b == IN else 0 for b in range(len(BOX_CODES)))


class Setup:
    """The set-up of one content pack.

    Args:
        pack: the content pack.
    """

    def __init__(self, pack: Content) -> None:
        # A seat's cubes at setup by number of players, for the 'setup' influence table.
        self.start_cubes = {n: influence_cubes(v) for n, v in SETUP_INFLUENCE.items()}
        # What setup shuffles, in order: each regional deck, then the adoption cards (by index).
        self.shuffled = (*pack.decks, tuple(range(len(pack.adoptions))))
        # The ``age`` tuple by (oldest seat, number of seats): seats from the oldest on, clockwise.
        self.ages = {
            (oldest, n): tuple([(oldest + k) % n for k in range(n)])
            for n in SETUP_INFLUENCE
            for oldest in range(n)
        }

    def cubes(self, players: int, table: str, priority: Seat) -> tuple[tuple[int, ...], ...]:
        """Every seat's cubes at setup: Influence by the set-up list, or by the player mat's priority
        position (the ``influence_table`` variant)."""
        if table == "setup":
            return (self.start_cubes[players],) * players
        return tuple(
            [influence_cubes(MAT_INFLUENCE_FIRST + 2 * ((s - priority) % players)) for s in range(players)]
        )

    def deal(self, players: int, seed: int, options: Mapping[str, OptionValue]) -> TiberiusState:
        """rule: tiberius/setup - cubes, priority marker, adoption cards, shuffled decks, turn 1.

        Then the first turn starts as every turn does (``rules.start_turn``): the top card of each
        deck is turned face up. The state is built once, directly (``tests/tiberius/test_fast_paths.py``
        checks it equals the step-by-step setup through ``rules.start_turn``); the draws are
        ``random.Random.randrange``'s and ``random.Random.shuffle``'s, bit for bit
        (:func:`below`, :func:`shuffled`).

        Args:
            players: the number of seats.
            seed: the seed of the draws.
            options: every variant's value (``oldest_seat`` a seat already checked).
        """
        n = players
        getrandbits = make_rng(seed).getrandbits
        priority = below(getrandbits, n)
        # The regional decks, then the adoption cards (shuffled for each, in this order).
        dealt = shuffled_each(getrandbits, self.shuffled)
        adoption = dealt.pop()
        face_up = [cards.pop(0) for cards in dealt]  # the top card of each deck face up
        face = face_up_adoptions(n)
        table = str(options["influence_table"])
        # every seat: its cubes and its secret adoption card; no career card, card, bid or adoption yet
        seats = tuple(
            [
                Player(cubes=cubes, secret=secret)
                for cubes, secret in zip(
                    self.cubes(n, table, priority), adoption[face : face + n], strict=True
                )
            ]
        )
        return TiberiusState(
            turn=1,
            phase=CARD,
            actor=priority,
            start_priority=priority,
            priority=priority,
            players=seats,
            decks=tuple([tuple(cards) for cards in dealt]),
            face_up=tuple(face_up),
            adopt_face_up=tuple(sorted(adoption[:face])),
            adopt_unused=tuple(sorted(adoption[face + n :])),
            discarded=(),
            black=0,
            row_open=False,
            family=False,
            moved=0,
            age=self.ages[int(options["oldest_seat"]), n],
            influence_table=table,
            pcim_rule=str(options["pcim_rule"]),
            marriage_vp=str(options["marriage_vp"]),
            imperator_solo=str(options["imperator_solo"]),
            imperator_empty=str(options["imperator_empty"]),
            turns=int(options["turns"]),
        )
