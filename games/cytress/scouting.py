"""Phase 2: scout districts (rule: cytress/phase-2-scout)."""

from __future__ import annotations

from collections.abc import Sequence

from games.core.cache import PerContent
from games.core.records import replace
from games.cytress.content import Content
from games.cytress.economy import gain
from games.cytress.state import NOBODY, PRIVATEER, Rebel
from games.cytress.work import Work, set_rebel

__all__ = ["open_spots", "scout", "scout_options", "scouts_per_round", "spot_value"]


def scouts_per_round(players: int) -> int:
    """rule: cytress/phase-2-scout - with 2-3 players each rebel leader scouts twice (solo too:
    cytress/solo-gameplay), with 4-5 once."""
    return 2 if players <= 3 else 1


def open_spots(content: Content, board_side: int, players: int) -> tuple[int, ...]:
    """rule: cytress/phase-2-scout - the scouting spots in play (``faction * 2 + spot``): a spot
    marked for more players is closed (in a 2-player game only the 3-resource spot of each
    district); solo (cytress/solo-gameplay): only the largest spot of each district."""
    return _SPOTS(content)[board_side][players]


def _spots_in_play(content: Content) -> tuple[dict[int, tuple[int, ...]], ...]:
    """``open_spots`` of every board side and player count (1-5) of ``content``."""
    out = []
    for side in content.board_sides:
        by_players = {}
        for players in range(1, 6):
            spots = [
                2 * f + k
                for f in range(4)
                for k, (_, min_players) in enumerate(side.spots)
                if (k == 0 if players == 1 else players >= min_players)
            ]
            by_players[players] = tuple(spots)
        out.append(by_players)
    return tuple(out)


_SPOTS: PerContent[Content, tuple[dict[int, tuple[int, ...]], ...]] = PerContent(_spots_in_play)
"""``open_spots``' table, built once per content pack."""


def spot_value(content: Content, board_side: int, spot: int) -> int:
    """The resources a scouting spot shows."""
    return content.board_sides[board_side].spots[spot % 2][0]


def scout_options(
    content: Content, board_side: int, players: int, rebels: Sequence[Rebel], owner: int
) -> list[int]:
    """rule: cytress/phase-2-scout - where ``owner``'s leader may scout: an open spot with no other
    rebel leader on it; a second scout goes to a spot in a different district from the first."""
    leader = [r.leader for r in rebels]
    here = leader[owner]
    if here == NOBODY:
        return [s for s in open_spots(content, board_side, players) if s not in leader]
    district = here // 2
    return [s for s in open_spots(content, board_side, players) if s not in leader and s // 2 != district]


def scout(content: Content, w: Work, owner: int, spot: int) -> None:
    """rule: cytress/phase-2-scout - the leader moves to ``spot``; a seat gains the spot's
    resources of that faction's type +1 per crew it has on Stratos; every *other* seat gains that
    resource per matching icon on its Privateer lifepath (also when the automa scouts: rule:
    cytress/solo-gameplay; the automa itself gains nothing)."""
    rebel = w.rebels[owner]
    set_rebel(w, owner, replace(rebel, leader=spot))
    faction = spot // 2
    resource = content.faction_resource[faction]
    n = len(w.players)
    if owner < n:
        on_stratos = sum(rebel.stratos)
        gain(w, owner, resource, spot_value(content, w.board_side, spot) + on_stratos)
    for seat in range(n):
        if seat != owner:
            k = w.players[seat].icons[PRIVATEER][resource]  # ``privateer_gain``, inlined
            if k:
                gain(w, seat, resource, k)
