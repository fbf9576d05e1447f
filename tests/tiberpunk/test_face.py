"""The face of Tiberpunk (issue 18): the catalogue, describe, render, log lines and explain.

The face functions are called through ``games.tiberpunk.face`` with the game, so these tests do not
depend on how ``game.py`` wires them.
"""

from __future__ import annotations

import functools
import json
import random
import re
import xml.etree.ElementTree as ET

import pytest
import resvg_py
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import CHANCE, TERMINAL
from games.core.face import REFEREE, SPECTATOR, Description, as_facts
from games.core.records import replace
from games.tiberpunk import describe, face, snapshot
from games.tiberpunk.dice import p_attacker_wins, p_contains
from games.tiberpunk.state import PH_CGADGET, PH_MAIN, PH_PURSUE, PH_QGADGET, State
from tests.tiberpunk.helpers import GAME, C, d, do, lictors, placed, purposeful, put, roll

REROLL, ADD, ROT1, ROT2, FLIP = range(5)


@functools.cache
def playout_states() -> tuple[State, ...]:
    """Positions of three biased playouts (the game's prior: quests, combats and structures first)."""
    out: list[State] = []
    for seed, n in ((1, 2), (2, 3), (3, 4)):
        rng = random.Random(seed)
        s = GAME.new_state(_config(n), seed)
        for _ in range(260):
            player = GAME.current_player(s)
            if player == TERMINAL:
                break
            out.append(s)
            a = GAME.sample_chance(s, rng) if player == CHANCE else purposeful(s, rng)
            s = GAME.apply(s, a)
        out.append(s)
    return tuple(out)


def _config(n: int):  # type: ignore[no-untyped-def]
    from games.core import GameConfig

    return GameConfig(players=n, options={"max_rounds": 12})


def quest_state(hand: tuple[int, ...] = (), card: int = 5) -> State:
    """Seat 0's drone in IX on Stage I hacking card #1; challenge card ``card`` on top (needs a 6)."""
    s = placed(2, where=("IX", "V"))
    s = replace(s, quests=((0, 1), (6, 7), (12, 13)), c1deck=(card, *(i for i in range(14) if i != card)))
    return put(s, 0, hand=hand)


def _gadget_row(desc: Description, seat: int) -> str:
    sec = next(s for s in desc.sections if s.seat == seat)
    return next(r.value for r in sec.rows if r.label.startswith("Gadgets"))


# ---------------------------------------------------------------------------- catalogue
def test_catalogue_names_every_component() -> None:
    """rule: tiberpunk/general-setup — every component a person sees, named, with its rules text;
    authored content (map, cards) marked authored, rulebook items (gadgets, gods) not."""
    cat = face.catalogue(GAME)
    districts = [i for i in cat.items if i.kind == "district"]
    assert [i.id for i in districts] == list(C.district_ids)
    assert districts[7].name == "Forum Romanum" and all(i.authored for i in districts)
    assert "Borders" in districts[0].text
    counts = {k: sum(1 for i in cat.items if i.kind == k) for k in cat.kinds()}
    assert (
        counts["Stage I quest card"] == counts["Stage II quest card"] == counts["Stage III quest card"] == 18
    )
    assert counts["Stage I challenge card"] == counts["Stage III challenge card"] == 14
    assert counts["god"] == 4 and counts["ability tile"] == 8 and counts["gadget card"] == 5
    flip = cat.by_id("gadget card", "flip")
    assert flip is not None and "opposite face" in flip.text and not flip.authored
    assert flip.values["copies"] == 4
    juno = cat.by_id("god", "juno")
    assert juno is not None and "1 coin fewer" in juno.text and juno.values["temple"] == ["II", "III"]
    side = cat.by_id("side objective card", "1A")
    assert side is not None and "Bribe a senator" in side.text and side.authored
    assert json.loads(json.dumps(cat.to_dict()))["version"] == C.version
    assert cat.notes


def test_gadget_texts_are_the_rulebooks() -> None:
    """rule: tiberpunk/gadget-cards — the five gadget texts as the rulebook prints them."""
    cat = face.catalogue(GAME)
    texts = {i.id: i.text for i in cat.items if i.kind == "gadget card"}
    assert texts["reroll"] == "Reroll 1 die." and texts["add-die"] == "Roll 1 additional die."
    assert "exactly +1 or -1" in texts["rotate1"] and "exactly +2 or -2" in texts["rotate2"]


# ---------------------------------------------------------------------------- describe
def test_describe_hides_other_hands_for_every_viewer() -> None:
    """rule: tiberpunk/player-setup — a gadget card is face down: only its holder (and the referee)
    sees it; a seat's view depends on its observation only; the spectator sees no hand."""
    rng = random.Random(5)
    checked = 0
    for s in playout_states()[::7]:
        for viewer in range(s.n):
            desc = face.describe(GAME, s, viewer)
            sample = GAME.sample_state(GAME.observation(s, viewer), viewer, rng)
            assert face.describe(GAME, sample, viewer) == desc
            own = s.players[viewer].hand
            assert _gadget_row(desc, viewer) == describe.hand_text(own)
            for q in range(s.n):
                if q == viewer:
                    continue
                p = s.players[q]
                shown = (*p.known, *(None,) * (len(p.hand) - len(p.known)))
                assert _gadget_row(desc, q) == describe.hand_text(shown)
        spectator = face.describe(GAME, s, SPECTATOR)
        for q, p in enumerate(s.players):
            assert _gadget_row(spectator, q) == describe.hand_text(
                (*p.known, *(None,) * (len(p.hand) - len(p.known)))
            )
            assert _gadget_row(face.describe(GAME, s, REFEREE), q) == describe.hand_text(p.hand)
        checked += 1
    assert checked >= 20


def test_describe_reads_as_the_rulebook() -> None:
    """rule: tiberpunk/game-overview — whose turn and which step, districts by id and name, no indices."""
    s = quest_state(hand=(ROT1,))
    desc = face.describe(GAME, s, 0)
    assert desc.headline.startswith("Tiberpunk, round 1: Seat 0 (Red) to decide")
    assert "interaction token" in desc.step
    text = desc.to_text(80)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "IX (Circus Flaminius)" in text and "Rotate +/-1" in text
    assert not re.search(r"\b(otoks|ctx|c1deck|None|-1)\b", text)
    assert desc.sections[0].title == "Rome"
    assert next(s.title for s in desc.sections if s.seat is not None).endswith("— you")


def test_dice_on_the_table_are_public() -> None:
    """rule: tiberpunk/stage-1-quests — the quest roll and its challenge card are seen by everyone."""
    s = roll(do(quest_state(hand=(ROT1,)), "token drone quest1:hack"), 5, 5)
    assert s.phase == PH_QGADGET
    for viewer in (SPECTATOR, 0, 1, REFEREE):
        desc = face.describe(GAME, s, viewer)
        dice = next(sec for sec in desc.sections if sec.title == "Dice (public)")
        rows = {r.label: r.value for r in dice.rows}
        assert "needs 6" in rows["Quest roll"] and rows["Dice"] == "5, 5"
    assert "play a gadget card or stop" in face.describe(GAME, s, 1).step


def test_game_over_names_the_winner() -> None:
    """rule: tiberpunk/end-of-game — most triumph tokens wins, then most coins."""
    s = placed(2)
    s = put(put(s, 0, otoks=(3, 2, 1, 2), coins=4), 1, otoks=(3, 2, 1, 2), coins=6)
    s = replace(s, phase=9)
    step = face.describe(GAME, s, SPECTATOR).step
    assert step == "game over: Seat 1 (Blue) wins with 8 triumph tokens and 6 coins (the tie-break)"
    s = put(s, 0, otoks=(3, 2, 1, 3))
    assert face.describe(GAME, s, 1).step == "game over: Seat 0 (Red) wins with 9 triumph tokens"
    s = put(s, 1, otoks=(3, 2, 1, 3), coins=4)
    assert face.describe(GAME, s, 1).step.endswith("share the victory with 9 triumph tokens")


# ---------------------------------------------------------------------------- render
def test_render_is_svg_and_converts_to_png() -> None:
    """rule: tiberpunk/movement — the district graph with every miniature; a seat's picture depends on
    its observation only."""
    rng = random.Random(7)
    states = playout_states()
    for s in (states[40], states[300], quest_state(hand=(FLIP,))):
        for viewer in (REFEREE, SPECTATOR, 0, 1):
            svg = face.render(GAME, s, viewer)
            root = ET.fromstring(svg)
            assert root.tag.endswith("svg")
            assert all(did in svg for did in C.district_ids) and "Legend" in svg
            if viewer >= 0:
                sample = GAME.sample_state(GAME.observation(s, viewer), viewer, rng)
                assert face.render(GAME, sample, viewer) == svg
    png = bytes(resvg_py.svg_to_bytes(svg_string=face.render(GAME, states[300], 0)))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------------------- log lines
def test_log_lines_for_every_action_kind_of_a_playout() -> None:
    """Every action of three playouts reads as one sentence, for the spectator and the referee."""
    seen: dict[str, str] = {}
    states = playout_states()
    for s in states[::2]:
        if GAME.current_player(s) == TERMINAL:
            continue
        for a in list(GAME.legal_actions(s))[:12]:
            for viewer in (SPECTATOR, REFEREE):
                line = face.log_line(GAME, s, a, viewer)
                assert line and line.endswith(".") and "\n" not in line, line
                assert not re.search(r"\?\d|\bNone\b|(?<![/\w])-1\b", line), line
            seen.setdefault(snapshot.decode(a).kind, face.log_line(GAME, s, a, SPECTATOR))
    assert {"place", "favor", "move", "interact", "end", "dice", "stop", "gadget"} <= set(seen), seen


def test_log_lines_read_like_a_table() -> None:
    """rule: tiberpunk/stage-1-quests — the roll, the pursuit and the lictor move, in the table's words."""
    s = do(quest_state(), "token drone quest1:hack")
    line = face.log_line(GAME, s, GAME.parse_action(s, "dice 2,5"), SPECTATOR)
    assert line.startswith("Seat 0's quest roll: 2, 5 — needs 6: misses; the pursuit: Seat 1 (on the left) ")
    s = roll(s, 1, 2)
    assert s.phase == PH_PURSUE
    line = face.log_line(GAME, s, GAME.parse_action(s, "pursue X-XI"), SPECTATOR)
    assert line.startswith(
        "Seat 1 pursues Seat 0's miniature after the missed roll: moves the nearest lictor from X to XI"
    )
    m = placed(2, where=("IX", "V"))
    line = face.log_line(GAME, m, GAME.parse_action(m, "move lictor X-VIII"), SPECTATOR)
    assert line == "Seat 0 moves a lictor from X to VIII."


def test_log_lines_never_show_the_top_of_a_deck() -> None:
    """rule: tiberpunk/spaceship-interaction — the gadget drawn is face down (only the referee's log
    names it: a line read before the move must not preview the deck); the spaceship card is public.
    rule: tiberpunk/stage-1-quests — the challenge card is named by the roll, not before."""
    s = placed(2, where=("IX", "V"))
    a = GAME.parse_action(s, "token spaceship take:drone")
    public = face.log_line(GAME, s, a, SPECTATOR)
    assert public == "Seat 0 plays the spaceship token: takes a drone spaceship card and draws a gadget card."
    assert face.log_line(GAME, s, a, 1) == public == face.log_line(GAME, s, a, 0)
    referee = face.log_line(GAME, s, a, REFEREE)
    assert referee.startswith(public[:-1] + " (") and referee != public
    q = quest_state()
    line = face.log_line(GAME, q, GAME.parse_action(q, "token drone quest1:hack"), 0)
    assert line.endswith("reveals a Stage I challenge card.") and "needs" not in line


# ---------------------------------------------------------------------------- explain
def _facts(s: State, a: int) -> dict[str, float]:
    return {f.label: f.value for f in as_facts(face.explain(GAME, s, a))}


def test_explain_facts_differ_between_candidates() -> None:
    """On typical positions (every decision of the playouts with two or more options) at least two
    candidates get different facts, so a hint can say why #1 beats #2."""
    tried = differ = 0
    for s in playout_states()[::3]:
        player = GAME.current_player(s)
        legal = list(GAME.legal_actions(s))
        if player < 0 or len(legal) < 2:
            continue
        facts = [_facts(s, a) for a in legal[:40]]
        assert all(all(isinstance(v, float) for v in f.values()) for f in facts)
        tried += 1
        differ += any(f != facts[0] for f in facts[1:])
    assert tried >= 30 and differ >= 0.9 * tried, (differ, tried)


def test_quest_odds_fact() -> None:
    """rule: tiberpunk/stage-1-quests — odds of seeing the challenge before the nearest lictor arrives,
    each failed roll bringing it one district closer (no gadgets; the deck's order is hidden)."""
    s = quest_state()
    f = _facts(s, GAME.parse_action(s, "token drone quest1:hack"))
    rolls = 2  # IX is 2 districts from the lictors in IV and X
    want = sum(1 - (1 - p_contains(2, need)) ** rolls for need in C.challenges1) / len(C.challenges1)
    assert f["quest success odds (no gadgets)"] == pytest.approx(want)
    assert f["dice rolled"] == 2 and f["nearest lictor, districts away"] == 2
    income = _facts(s, GAME.parse_action(s, "token drone income"))
    assert "quest success odds (no gadgets)" not in income and income["coins gained now"] == 2


def test_combat_odds_fact() -> None:
    """rule: tiberpunk/combat-vs-lictor — the lictor rolls one die more; ties go to the lictor."""
    s = put(placed(2, where=("IV", "V")), 0, story=(0, 0, 1), cards=(-1, -1, 12), hand=())
    s = replace(s, cfg=replace(s.cfg, tiles=(0, 2)))
    f = _facts(s, GAME.parse_action(s, "token drone attack lictor tile:odd for:quest2"))
    assert f["combat win odds (no gadgets)"] == pytest.approx(p_attacker_wins(0, 2, 3))
    assert f["attacker dice"] == 2 and f["defender dice"] == 3


def test_gadget_choices_get_odds() -> None:
    """rule: tiberpunk/gadget-cards — a gadget that makes the 6 wins the roll; stopping fails it."""
    s = roll(do(quest_state(hand=(ROT1, REROLL)), "token drone quest1:hack"), 5, 5)
    assert s.phase == PH_QGADGET
    odds = {GAME.action_to_text(s, a): _facts(s, a) for a in GAME.legal_actions(s)}
    label = "quest success odds on this roll"
    assert odds["gadget rotate1 A5+1"][label] == 1.0 and odds["stop"][label] == 0.0
    assert odds["gadget rotate1 A5-1"][label] == 0.0
    assert odds["gadget reroll A5"][label] == pytest.approx(1 / 6)
    assert odds["stop"]["gadget cards left"] == 2 and odds["gadget reroll A5"]["gadget cards left"] == 1


def test_combat_gadget_choices_get_odds() -> None:
    """rule: tiberpunk/combat-vs-miniature — the losing side may play a gadget; the fact is its odds."""
    for s in playout_states():
        if s.phase == PH_CGADGET:
            facts = [_facts(s, a) for a in GAME.legal_actions(s)]
            assert all(0 <= f["combat win odds on this roll"] <= 1 for f in facts)
            break


def test_pursuit_and_favor_facts() -> None:
    """rule: tiberpunk/divine-favor — each favor's gain this turn; rule: tiberpunk/stage-1-quests — where
    the pursuing lictor ends up relative to the chooser's and the quester's miniatures."""
    s = roll(do(quest_state(), "token drone quest1:hack"), 1, 2)
    a, b = (GAME.parse_action(s, t) for t in ("pursue X-XI", "pursue IV-VIII"))
    fa, fb = _facts(s, a), _facts(s, b)
    assert fa != fb and "lictor to your nearest miniature" in fa
    m = placed(2, where=("IX", "V"))
    favors = {
        g: _facts(m, GAME.parse_action(m, f"favor {g}")) for g in ("mercury", "juno", "emperors-genius")
    }
    assert favors["mercury"]["drone movement range"] == 3 and favors["juno"]["drone movement range"] == 2
    assert favors["emperors-genius"]["gadget cards per roll"] == 3
    assert favors["juno"]["coins saved at a structure"] == 1


def test_explain_pairs_still_unpack() -> None:
    """Older callers read ``dict(game.explain(...))``: the facts unpack as (label, value) pairs."""
    s = lictors(placed(2, where=("IX", "V")), "IV", "X")
    a = GAME.parse_action(s, "move drone IX-VII")
    pairs: dict[str, float] = dict(face.explain(GAME, s, a))  # type: ignore[arg-type]
    assert pairs["nearest lictor after the move, districts away"] == 2
    assert d("VII") == 6 and s.phase == PH_MAIN


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 120), n=st.integers(2, 4))
def test_a_seat_sees_only_its_observation(seed: int, steps: int, n: int) -> None:
    """Property: for every seat, describe and render of a position equal those of any full state
    sampled from that seat's observation (hidden information stays hidden); every legal action
    has a log line."""
    rng = random.Random(seed)
    s = GAME.new_state(_config(n), seed)
    for _ in range(steps):
        player = GAME.current_player(s)
        if player == TERMINAL:
            break
        s = GAME.apply(s, GAME.sample_chance(s, rng) if player == CHANCE else purposeful(s, rng))
    for seat in range(n):
        sample = GAME.sample_state(GAME.observation(s, seat), seat, rng)
        assert face.describe(GAME, sample, seat) == face.describe(GAME, s, seat)
        assert face.render(GAME, sample, seat) == face.render(GAME, s, seat)
    for a in list(GAME.legal_actions(s))[:10]:
        assert face.log_line(GAME, s, a, SPECTATOR).endswith(".")
