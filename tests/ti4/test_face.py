"""The face of the TI4 setup as a person reads it: systems in words (planets with resources and
influence, anomalies, wormholes), homes named by where they are, factions by their printed names,
the galaxy drawn as a map, hands hidden from the other seats, and placement hints with reasons."""

from __future__ import annotations

import re

from games.core import SPECTATOR
from games.core.face import as_facts
from games.ti4.face import faction_name, galaxy_map, short_faction, tile_words, where
from games.ti4.state import FACTION, OVER, PLACE
from tests.ti4.helpers import GAME, new, play_out, play_until

PACK = GAME.pack


def test_dealt_tiles_are_counted_in_words() -> None:
    """rule: ti4/deal-system-tiles - three players are dealt six blue-backed and two red-backed
    systems; the seats read it in words, with each home placed on the galaxy ("ring 3, ...")."""
    s = new(3, 3)
    assert s.phase == FACTION
    text = GAME.describe(s, 0).to_text(80)
    assert "to be dealt: 6 blue-backed and 2 red-backed systems" in text
    assert "6B" not in text and "H0" not in text
    for home in s.homes:
        assert where(PACK, home) in re.sub(r"\s+", " ", text)
    assert where(PACK, 22).startswith("ring 3, ") and "(position 22)" in where(PACK, 22)


def test_factions_by_their_printed_names() -> None:
    """rule: ti4/factions - the hint for a faction names it and its home system in words."""
    s = new(3, 3)
    a = next(a for a in GAME.legal_actions(s) if a.name == "arborec")
    sentences = [f.sentence() for f in as_facts(GAME.explain(s, a))]
    assert any(
        x.startswith("The Arborec: home system tile 5 (Nestphar: 3 resources, 2 influence") for x in sentences
    )
    s = play_until(s, PLACE, 1)
    text = re.sub(r"\s+", " ", GAME.describe(s, SPECTATOR).to_text(100))
    for f in s.factions:
        assert faction_name(GAME, f) in text


def test_hand_in_words_and_hidden_from_other_seats() -> None:
    """rule: ti4/deal-system-tiles - the tiles are dealt face down: a seat reads its own systems
    (planets, resources, influence) and only the backs of the others'."""
    s = play_until(new(4, 2), PLACE, 2)
    mine = GAME.describe(s, s.actor).to_text(120)
    for t in s.hands[s.actor]:
        assert f"tile {t} " in mine
        assert tile_words(PACK, t).split(";")[0][:30] in re.sub(r"\s+", " ", mine)
    other = (s.actor + 1) % 4
    theirs = GAME.describe(s, other).to_text(120)
    for t in s.hands[s.actor]:
        assert f"tile {t} " not in theirs and f"tile {t}\n" not in theirs


def test_galaxy_map_shows_open_positions_of_the_ring() -> None:
    """rule: ti4/place-system-tiles - each ring is filled before the next: the map marks the
    positions open now with the notation's word ("at 7"), homes with the faction."""
    s = play_until(new(3, 3), PLACE, 1)
    lines = galaxy_map(GAME, s)
    assert len(lines) <= 13 and max(len(x) for x in lines) <= 78
    text = "\n".join(lines)
    assert "Mecatol" in text
    legal = {a.pos for a in GAME.legal_actions(s) if a.kind == "place"}
    shown = {int(x) for x in re.findall(r"at (\d+)", text)}
    assert legal <= shown
    assert short_faction(s.factions[0]) in text


def test_placement_hints_give_reasons_per_candidate() -> None:
    """rule: ti4/place-system-tiles - each candidate placement reads its tile in words, its
    distance to the homes and what it changes in the home values; no two read the same."""
    s = play_until(new(3, 3), PLACE, 1)
    for _ in range(4):
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    rows = [tuple(f.sentence() for f in as_facts(GAME.explain(s, a))) for a in GAME.legal_actions(s)]
    assert len(set(rows)) == len(rows)
    assert all(any("optimal resources within 2 jumps of your home" in x for x in r) for r in rows)
    assert all(any("hexes from your home" in x for x in r) for r in rows)
    a = GAME.legal_actions(s)[0]
    line = GAME.log_line(s, a, SPECTATOR)
    assert f"tile {a.tile} (" in line and where(PACK, a.pos) in line


def test_picture_reads_without_abbreviations() -> None:
    """rule: ti4/place-system-tiles - the finished galaxy's picture names each seat's faction in
    full and its balance in words."""
    s = play_out(new(4, 5))
    assert s.phase == OVER
    svg = GAME.render(s, 0)
    assert "resources " in svg and "influence " in svg and "anomalies on the lane" in svg
    assert " worm " not in svg and " leg " not in svg and "Mecatol " in svg
    for f in s.factions:
        name = faction_name(GAME, f).removeprefix("The ")
        assert name.split()[0] in svg


def test_milty_draft_reads_slices_and_factions() -> None:
    """rule: ti4/factions - in a Milty draft the factions on offer read by their printed names; each
    slice shows its optimal resources and influence, and its hint compares them."""
    s = new(4, 3, mode="milty")
    text = re.sub(r"\s+", " ", GAME.describe(s, s.actor).to_text(100))
    assert "Galaxy" not in text  # no galaxy before the seats are picked
    assert "optimal resources" in text
    for f in s.offered:
        assert faction_name(GAME, f) in text
    picks = [a for a in GAME.legal_actions(s) if a.kind == "slice"]
    rows = [tuple(f.sentence() for f in as_facts(GAME.explain(s, a))) for a in picks]
    assert all(any(x.startswith("optimal resources in the slice") for x in r) for r in rows)


def test_every_decision_explains_each_candidate_differently() -> None:
    """rule: ti4/color-and-planets, rule: ti4/objectives, rule: ti4/place-system-tiles - over a
    seeded setup (rulebook and Milty), no two candidates of a decision read the same reasons."""
    import random

    from games.core import TERMINAL

    for mode in ("rulebook", "milty"):
        s = new(4, 4, mode=mode)
        rng = random.Random(4)
        while GAME.current_player(s) != TERMINAL:
            legal = list(GAME.legal_actions(s))
            if len(legal) > 1:
                rows = [tuple(f.sentence() for f in as_facts(GAME.explain(s, a))) for a in legal[:8]]
                assert len(set(rows)) == len(rows), [GAME.action_to_text(s, a) for a in legal[:8]]
            s = GAME.apply(s, rng.choice(legal))


def test_hint_numbers_are_said_once_and_add_up() -> None:
    """rule: ti4/factions - a faction's home planets are totalled once (a one-planet home's totals
    are its own line) and the totals add up; a Milty slice's value reads as the sum of its terms."""
    s = new(4, 8)
    for a in [a for a in GAME.legal_actions(s) if a.kind == "faction"]:
        faction = PACK.faction(a.name)
        assert faction is not None
        home = PACK.tiles[faction.home]
        sentences = [f.sentence() for f in as_facts(GAME.explain(s, a))]
        if len(home.planets) == 1:
            assert len(set(sentences[:3])) == 1, sentences
        else:
            r, i = sum(p.resources for p in home.planets), sum(p.influence for p in home.planets)
            assert f"home planets in total: {r} resources, {i} influence" in sentences
    m = new(4, 8, mode="milty")
    for a in [a for a in GAME.legal_actions(m) if a.kind == "slice"]:
        said = as_facts(GAME.explain(m, a))[0]
        total, parts = said.sentence().removeprefix("slice value ").split(" points = ")
        assert sum(float(x.rsplit(" ", 1)[1]) for x in parts.split(" + ")) == float(total) == said.value


def test_wormhole_tokens_and_specialty_dots_stay_off_the_labels() -> None:
    """rule: ti4/place-system-tiles - on the finished galaxy's picture no wormhole token or
    technology-specialty dot covers a planet's label, and each sits inside its hex."""
    from tests.core.test_pictures import shapes

    for players in (3, 6):
        s = play_out(new(players, players, expansion="pok"), players)
        _, _, drawn = shapes(GAME.render(s, SPECTATOR))
        texts = [d for d in drawn if d.kind == "text"]
        marks = [d for d in drawn if d.kind == "circle" and d.box[2] < int(11.2 * 58)]
        hexes = [d for d in drawn if d.kind == "polygon"]
        assert marks
        for c in marks:
            assert any(all(_in_hex(h.box, x, y) for x, y in _rim(c.box)) for h in hexes), c.box
            for t in texts:
                if t.text in {"α", "β", "γ", "δ", "αβ"}:
                    continue
                overlap_x = min(c.box[2], t.box[2]) - max(c.box[0], t.box[0])
                overlap_y = min(c.box[3], t.box[3]) - max(c.box[1], t.box[1])
                assert overlap_x <= 1 or overlap_y <= 1, (t.text, c.box, t.box)


def _rim(box: tuple[float, float, float, float]) -> list[tuple[float, float]]:
    """The leftmost, rightmost, top and bottom points of a circle's box."""
    x0, y0, x1, y1 = box
    return [(x0, (y0 + y1) / 2), (x1, (y0 + y1) / 2), ((x0 + x1) / 2, y0), ((x0 + x1) / 2, y1)]


def _in_hex(box: tuple[float, float, float, float], x: float, y: float) -> bool:
    """Whether (x, y) lies inside the flat-topped hexagon drawn in ``box``."""
    cx, cy, radius = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, (box[2] - box[0]) / 2
    dy = abs(y - cy)
    return dy <= radius * 3**0.5 / 2 and abs(x - cx) <= radius - dy / 3**0.5
