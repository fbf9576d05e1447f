"""Solo mode against the automa: setup, gameplay, the AI actions and their checklists, game end."""

from __future__ import annotations

from games.core.records import replace
from games.cytress.automa import (
    ai_movable,
    bounty_ascend_level,
    choose_intel,
    crew_candidates,
    tube_candidates,
    tube_height,
)
from games.cytress.scoring import card_facts
from games.cytress.state import AUTOMA, NOBODY, OVER, PAD, SCOUT, TRAVEL, CytressState
from games.cytress.work import Work
from tests.cytress.helpers import GAME, PACK, do, first, play_until, res, set_rebels, set_res, start, texts


def _solo(seed: int = 0, **opts: object) -> CytressState:
    return start(1, seed, **opts)


def _board(s: CytressState, crews: dict[int, int], tubes: dict[int, int] | None = None) -> CytressState:
    crew = [NOBODY] * len(s.crew)
    tube = [0] * len(s.tube)
    for h, o in crews.items():
        crew[h] = o
    for h, t in (tubes or {}).items():
        tube[h] = t
    placed = [sum(1 for o in crew if o == k) for k in range(2)]
    up = [sum(s.rebels[k].stratos) for k in range(2)]
    s = replace(s, crew=tuple(crew), tube=tuple(tube))
    return set_rebels(s, unused=tuple(12 - placed[k] - up[k] for k in range(2)))


def test_solo_setup() -> None:
    """rule: cytress/solo-setup - 3 map tiles, 14 tube sections, the automa with 12 crews and no
    transports, 12 AI action cards in groups of 3 on the tracker and 4 in the deck; the 4+ side
    by default (easier), the 1-3 side as a variant."""
    s = _solo()
    assert len(s.tiles) == 3 and s.tubes_left == 14
    a = s.automa
    assert a is not None
    assert [len(t) for t in a.tracker] == [3, 3, 3, 3] or len(a.drawn) > 0
    assert len(a.deck) + len(a.drawn) + sum(len(t) for t in a.tracker) == 16
    assert [r.unused for r in s.rebels] == [12, 12] and s.players[0].transports == 3
    assert s.board_side == 1
    assert _solo(solo_board_side="1-3").board_side == 0


def test_solo_scouting_ai_blocks_and_gains_nothing() -> None:
    """rule: cytress/solo-gameplay - the AI scouts first (its card's faction), blocking that
    district; it gains no resources; only the largest spot is open; both scout twice."""
    s = _solo()
    assert s.phase == SCOUT and s.actor == 0
    ai_spot = s.rebels[AUTOMA].leader
    assert ai_spot >= 0 and ai_spot % 2 == 0
    options = [a.arg for a in GAME.legal_actions(s)]
    assert all(o % 2 == 0 and o != ai_spot for o in options)
    s = GAME.apply(s, GAME.legal_actions(s)[0])
    second = s.rebels[AUTOMA].leader
    assert second // 2 not in {ai_spot // 2, s.rebels[0].leader // 2}
    s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert s.phase == TRAVEL


def test_solo_travel_ai_first_and_no_marker() -> None:
    """rule: cytress/solo-gameplay - the AI always goes first; the Fixer does not give the marker."""
    s = play_until(_solo(), lambda x: x.phase == TRAVEL and x.step == PAD)
    a = s.automa
    assert a is not None and sum(len(t) for t in a.tracker) == 11  # the AI's first turn removed one card
    s = do(s, "meet the fixer")
    s = play_until(s, lambda x: x.step == PAD or x.round == 2, seed=1)
    assert s.first == 0


def test_solo_ai_intel_priority() -> None:
    """rule: cytress/solo-ai-actions - the topmost card that helps complete a set of the 4 targets."""
    s = _solo()
    w = Work.of(s)
    row = [c for c in s.intel_row[0] if c != NOBODY]
    assert choose_intel(PACK, w, 0) == row[0]  # no intel yet: every target helps, the topmost
    a = s.automa
    assert a is not None
    t0 = PACK.intel[row[0]].target
    same = [i for i, c in enumerate(PACK.intel) if c.target == t0][:1]
    w = Work.of(replace(s, automa=replace(a, intel=tuple(same))))
    pick = choose_intel(PACK, w, 0)
    helpful = [c for c in row if PACK.intel[c].target != t0]
    assert pick == (helpful[0] if helpful else row[0])


def test_solo_crew_checklist_tiers() -> None:
    """rule: cytress/solo-ai-actions - the crew placement checklist: with tubes, a hex that gains
    the automa control of a tube; without, a matching hex next to an even number of rival and AI
    crews, else next to AI crews, else next to rival crews (fewest first)."""
    s = _solo()
    adj = s.map.layout.adjacent
    t = next(h for h in range(len(adj)) if len(adj[h]) == 6)
    n = adj[t]
    b = _board(s, {n[0]: 0}, {t: 2})
    got = crew_candidates(b, 0)
    assert got and all(h in n for h in got)  # ties the tube? no: gains control needs 2 -> tier 3/2
    b2 = _board(s, {n[0]: 0, n[1]: AUTOMA}, {t: 2})
    gains = crew_candidates(b2, 0)
    assert gains and all(h in n for h in gains)
    after = list(b2.crew)
    after[gains[0]] = AUTOMA
    from games.cytress.board import controller

    assert controller(n, after, 2) == AUTOMA
    # no tubes: even numbers first
    faction = s.map.faction
    colour = faction[0]
    b3 = _board(s, {})
    assert sorted(crew_candidates(b3, colour)) == sorted(h for h in range(len(adj)) if faction[h] == colour)


def test_solo_tube_checklist_and_height() -> None:
    """rule: cytress/solo-ai-actions - a tube on an AI crew's hex that keeps its existing tubes and
    leaves it at least neutral, most adjacent AI crews first; its height: the first level where the
    AI establishes a majority, else 3."""
    s = _solo()
    adj = s.map.layout.adjacent
    h = next(x for x in range(len(adj)) if len(adj[x]) == 6)
    n = adj[h]
    b = _board(s, {h: AUTOMA, n[0]: AUTOMA, n[1]: 0})
    assert h in tube_candidates(b)
    b2 = _board(s, {h: AUTOMA, n[0]: 0})
    assert tube_candidates(b2) == []  # 0 AI vs 1 rival around: not neutral
    assert tube_height(set_rebels(s, stratos=((0, 0, 0), (0, 0, 0)))) == 1
    assert tube_height(set_rebels(s, stratos=((0, 1, 0), (1, 1, 0)))) == 2
    assert tube_height(set_rebels(s, stratos=((0, 0, 0), (2, 2, 2)))) == 3


def test_solo_bounty_ascend_rule() -> None:
    """rule: cytress/solo-ai-actions - complete bounty: move 1 AI crew up from the lowest level
    where doing so neither gives up nor cedes the majority to the solo player."""
    s = _solo()
    # stratos: the solo player's levels 1-3, and the automa's
    assert bounty_ascend_level(set_rebels(s, stratos=((1, 0, 0), (3, 0, 0)))) == 1
    assert bounty_ascend_level(set_rebels(s, stratos=((1, 0, 0), (2, 0, 0)))) == 0  # would give up level 1
    assert bounty_ascend_level(set_rebels(s, stratos=((2, 0, 0), (2, 0, 0)))) == 0  # would cede level 1
    assert bounty_ascend_level(set_rebels(s, stratos=((2, 0, 0), (2, 2, 0)))) == 2
    assert bounty_ascend_level(set_rebels(s, stratos=((0, 0, 0), (0, 1, 0)))) == 0  # its only level 2 crew
    assert bounty_ascend_level(set_rebels(s, stratos=((0, 0, 0), (0, 0, 0)))) == 0


def test_solo_ai_movable_when_all_placed() -> None:
    """rule: cytress/solo-ai-actions - with all 12 placed, a crew not vying for a tube (or losing
    one) moves."""
    s = _solo()
    adj = s.map.layout.adjacent
    t = next(x for x in range(len(adj)) if len(adj[x]) == 6)
    n = adj[t]
    far = next(x for x in range(len(adj)) if x != t and x not in n)
    b = _board(s, {n[0]: AUTOMA, far: AUTOMA}, {t: 1})
    assert ai_movable(b) == [far]


def test_solo_game_end_after_round_5_and_level_2() -> None:
    """rule: cytress/solo-game-end - the game ends after round 5; for level 2 the AI scores 3 per
    card of the faction it collected most cards from."""
    end = play_until(_solo(seed=2), lambda x: x.phase == OVER)
    assert end.round == 5
    a = end.automa
    assert a is not None
    per = [0, 0, 0, 0]
    for c in a.intel:
        per[PACK.intel[c].faction] += 1
    assert card_facts(PACK, end)[AUTOMA].longest == max(per)
    assert len(GAME.returns(end)) == 1


def test_solo_automa_opponent_engine_any_player_count() -> None:
    """rule: cytress/solo-ai-actions - the automa's checklists drive an "automa" policy any seat
    can use, in any player count."""
    import random

    pol = GAME.policies()
    assert "automa" in pol
    for players in (2, 4):
        s = start(players, seed=1)
        rng = random.Random(0)
        for _ in range(200):
            if s.phase == OVER:
                break
            s = GAME.apply(s, pol["automa"](s, rng))
    assert res(start(2), 0)["creds"] >= 2 and texts(start(2))
    assert first(start(2), "scout")


def test_solo_tubes_only_from_the_14_near_stratos() -> None:
    """rule: cytress/solo-setup - "Place 14 tube sections near Stratos. Keep the others in the box."
    (the box gives the automa's record pieces: "a single tube piece from the box (not the 14 tubes
    in supply)", rule: cytress/solo-ai-actions). Once the 14 are built, no tube can be, neither by
    the solo player nor by the automa; a 3-high tube needs 3 of them. The ``solo_tubes`` variant
    ``box`` builds on from the box (the reading before issue 28)."""
    for variant, box in (("supply", False), ("box", True)):
        s = play_until(_solo(solo_tubes=variant), lambda x: x.phase == TRAVEL and x.step == PAD)
        h = next(x for x in range(len(s.crew)) if s.crew[x] == NOBODY and not s.tube[x])
        far = next(x for x in range(len(s.crew)) if s.crew[x] == NOBODY and not s.tube[x] and x != h)
        s = _board(s, {**{x: o for x, o in enumerate(s.crew) if o != NOBODY}, h: 0, far: AUTOMA})
        s = replace(set_res(s, 0, 20, 20, 20, 20), tubes_left=0, tubes_box=s.tubes_box + s.tubes_left)
        assert s.box_tubes is box
        assert ("meet the renegade" in texts(s)) is box
        assert bool(tube_candidates(s)) is box  # the automa's tube checklist
        one = replace(s, tubes_left=1, tubes_box=s.tubes_box - 1)
        one = do(one, "meet the renegade", "pay the renegade in creds")
        assert [a.arg for a in GAME.legal_actions(one)] == ([1, 2, 3] if box else [1])
