"""Setup, turn structure, favor, movement, shackles, interaction wheel and income."""

from __future__ import annotations

import pytest

from games.core import GameConfig, get_game
from games.errors import ConfigError, IllegalActionError, NotationError
from games.tiberpunk.state import PH_DRAFT, PH_MAIN, PH_PLACE
from tests.tiberpunk.helpers import GAME, C, R, d, do, lictors, new, placed, put, texts


def test_registered() -> None:
    assert get_game("tiberpunk").info.title == "Tiberpunk: Streets of Rome"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_general_setup(n: int) -> None:
    """rule: tiberpunk/general-setup — stacks of n Stage I cards, markers, lictors, blessings, decks."""
    s = new(n)
    for skill in range(3):
        assert len(s.quests[skill]) == n
        assert all(C.stage1[i].skill == skill for i in s.quests[skill])
    assert sorted(R.quest_markers(s)) == sorted(C.stage1[q[0]].district for q in s.quests)
    assert s.lictors == (d("IV"), d("X"))  # 2 on the board, 3 in reserve
    assert C.lictors_total - len(s.lictors) == 3
    assert s.bless == (n,) * 4
    assert s.ships == (6, 6, 6) and s.lock == -1
    assert (
        len(s.gdeck) == 25 - n and sorted(s.c1deck) == list(range(14)) and sorted(s.c3deck) == list(range(14))
    )
    assert s.cfg.tiles[0] in C.combat_tiles[0] and s.cfg.tiles[1] in C.combat_tiles[1]
    assert len(s.cfg.side) == (1 if n == 2 else 2)
    assert s.phase == PH_PLACE and s.seat == 0


def test_one_player_is_refused() -> None:
    """rule: tiberpunk/general-setup — the rulebook prints no solo rules."""
    with pytest.raises(ConfigError, match="no solo rules") as err:
        GAME.new_state(GameConfig(players=1), 1)
    assert err.value.field == "config.players"
    with pytest.raises(ConfigError):
        GAME.new_state(GameConfig(players=5), 1)


def test_player_setup() -> None:
    """rule: tiberpunk/player-setup — 3 coins, 1 face-down gadget, skills at start, favor centre."""
    s = new(3)
    for p in s.players:
        assert p.coins == 3 and len(p.hand) == 1
        assert p.skills == C.start_slot and p.favor == -1
        assert p.tokens == (1, 2, 4, 8) and p.wheel == ()
        assert R.markers_placed(p) == 0 and sum(p.otoks) == 0
        assert p.char == -1 and p.drone == -1


def test_first_turn_placement() -> None:
    """rule: tiberpunk/game-overview — both miniatures together, not in a quest district, not a movement."""
    s = new(2)
    markers = set(R.quest_markers(s))
    places = texts(s)
    assert all(t.startswith("place ") for t in places)
    assert {d(t.split()[1]) for t in places} == set(range(12)) - markers
    free = next(t for t in places)
    s = do(s, free)
    p = s.players[0]
    assert p.char == p.drone == d(free.split()[1])
    assert s.phase == PH_MAIN and s.turn.moves == 0  # placement is no movement
    s = do(s, "token spaceship income")
    s = do(s, "end")
    assert s.seat == 1 and s.phase == PH_PLACE  # the next player places after the previous turn


def test_turn_needs_token_and_one_movement() -> None:
    """rule: tiberpunk/game-overview — the interaction token is mandatory; movement optional."""
    s = placed(2)
    assert "end" not in texts(s)
    s = do(s, "move char I-II")
    assert not any(t.startswith("move ") for t in texts(s))  # one movement action per turn
    s = do(s, "token drone income")
    assert "end" in texts(s)


def test_divine_favor_first_any_then_adjacent_once_per_turn() -> None:
    """rule: tiberpunk/divine-favor — anywhere the first time, then to an adjacent segment, once a turn."""
    s = placed(2)
    assert sorted(t for t in texts(s) if t.startswith("favor")) == [
        "favor emperors-genius",
        "favor juno",
        "favor mercury",
        "favor stellar-ark",
    ]
    s = do(s, "favor juno")
    assert not any(t.startswith("favor") for t in texts(s))
    s = do(do(s, "token drone income"), "end")
    s = do(do(s, "token drone income"), "end")
    # track: mercury, stellar-ark, juno, emperors-genius (cyclic)
    assert sorted(t for t in texts(s) if t.startswith("favor")) == [
        "favor emperors-genius",
        "favor stellar-ark",
    ]


def test_old_and_new_favor_apply_in_one_turn() -> None:
    """rule: tiberpunk/divine-favor — Mercury's range before switching, then the new favor."""
    s = put(placed(2), 0, favor=0, coins=0)  # Mercury
    assert "move char I-III" in texts(s)  # range 1 + 1
    s = do(s, "move char I-III")
    s = do(s, "favor stellar-ark")  # leaving Mercury: no more bonus
    s = put(s, 0, favor=1)
    assert "token spaceship take:character" in texts(s)


def test_mercury_blessed_second_movement_interleaved() -> None:
    """rule: tiberpunk/divine-favor, tiberpunk/movement — Mercury blessed gives a 2nd movement action."""
    s = put(placed(2), 0, favor=0, blessings=1, coins=0)
    s = do(s, "move char I-III")
    s = do(s, "token drone income")
    assert any(t.startswith("move drone") for t in texts(s))
    s = do(s, "move drone I-X")
    assert not any(t.startswith("move ") for t in texts(s))


def test_movement_ranges_and_paying() -> None:
    """rule: tiberpunk/movement — character 1, drone and lictor 2, +1 district per coin."""
    s = put(placed(2, where=("I", "V")), 0, coins=0)
    moves = [t for t in texts(s) if t.startswith("move ")]
    assert {t for t in moves if t.startswith("move char")} == {
        "move char I-II",
        "move char I-X",
        "move char I-XII",
    }
    assert "move drone I-III" in moves and "move drone I-V" not in moves
    assert "move lictor X-VIII" in moves and "move lictor IV-VII" in moves
    s = put(s, 0, coins=2)
    assert "move char I-III pay1" in texts(s) and "move drone I-V pay1" in texts(s)
    s = do(s, "move drone I-V pay1")
    assert s.players[0].drone == d("V") and s.players[0].coins == 1
    assert GAME.rules.board.reach(d("I"), 2, 1) == {
        x: max(0, R.board.dist[d("I")][x] - 2) for x in range(12) if 0 < R.board.dist[d("I")][x] <= 3
    }


def test_moving_a_lictor() -> None:
    """rule: tiberpunk/movement — any lictor may be moved with the movement action."""
    s = do(placed(2), "move lictor X-VIII")
    assert s.lictors == (d("IV"), d("VIII"))


def test_shackles_cost_a_die_and_movement_removes_them() -> None:
    """rule: tiberpunk/shackles — one die fewer; spend the movement to remove them from one miniature."""
    s = placed(2)
    base = R.dice_count(s, 0, 1, 0)
    s = put(s, 0, shackles=3)
    assert R.dice_count(s, 0, 1, 0) == base - 1
    assert {"unshackle char", "unshackle drone"} <= set(texts(s))
    s = do(s, "unshackle drone")
    assert s.players[0].shackles == 1 and s.turn.moves == 1
    assert not any(t.startswith(("move", "unshackle")) for t in texts(s))


def test_interaction_wheel_4_3_2_and_earliest_returns() -> None:
    """rule: tiberpunk/interaction-wheel — choose from 4, 3, then 2; the third token returns the earliest."""
    s = placed(2)

    def tokens_free(state):
        return sorted({t.split()[1] for t in texts(state) if t.startswith("token")})

    assert tokens_free(s) == ["character", "drone", "spaceship", "structure"]
    s = do(do(s, "token spaceship income"), "end")
    s = do(do(s, "token spaceship income"), "end")
    assert tokens_free(s) == ["character", "drone", "structure"]
    s = do(do(s, "token drone income"), "end")
    s = do(do(s, "token drone income"), "end")
    assert tokens_free(s) == ["character", "structure"]
    s = do(s, "token character income")
    assert s.players[0].wheel == (3, 1)  # spaceship went back to the supply
    s = do(do(s, "end"), "token character income")
    s = do(s, "end")
    assert tokens_free(s) == ["spaceship", "structure"]


def test_collect_income_with_any_token() -> None:
    """rule: tiberpunk/collect-income — the rightmost uncovered income space; any token."""
    s = placed(2)
    assert sum(t.endswith(" income") for t in texts(s)) == 4
    s2 = do(s, "token structure income")
    assert s2.players[0].coins == 3 + C.income[0]
    s = put(s, 0, temples=0b11, hubs=0b1)  # three influence markers placed
    s = do(s, "token character income")
    assert s.players[0].coins == 3 + C.income[3]


def test_illegal_action_names_the_rule() -> None:
    """rule: tiberpunk/movement — an illegal move raises with the section id."""
    s = placed(2)
    from games.tiberpunk import actions as act

    with pytest.raises(IllegalActionError) as err:
        GAME.apply(s, act.move(0, 0, d("I"), d("IX"), 0))
    assert err.value.rule == "tiberpunk/movement"
    with pytest.raises(NotationError):
        GAME.parse_action(s, "fly char I-IX")


def test_lictor_blocks_structures() -> None:
    """rule: tiberpunk/structure-interaction — no structure with a lictor in the district."""
    s = put(placed(2, where=("I", "V")), 0, coins=9)
    assert any(t.startswith("token structure hub:I") for t in texts(s))
    s = lictors(s, "I", "X")
    assert not any("hub:I" in t for t in texts(s))


def test_draft_order_is_counter_clockwise_from_last() -> None:
    """rule: tiberpunk/personal-abilities — the last player chooses first, then counter-clockwise."""
    s = new(3, abilities=True)
    assert s.phase == PH_DRAFT and GAME.current_player(s) == 2
    assert len(texts(s)) == 8
    s = do(s, "ability recharge")
    assert GAME.current_player(s) == 1 and "ability recharge" not in texts(s)
    s = do(s, "ability cerberus")
    s = do(s, "ability stalker")
    assert s.phase == PH_PLACE and s.seat == 0
    assert s.players[1].tokens == (1, 2, 4, 8 | 2)  # drone token became drone/character
    assert s.players[0].tokens == (1, 2, 4 | 1, 8)
