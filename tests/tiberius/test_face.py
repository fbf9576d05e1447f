"""The face of Tiberius Who? (``games/tiberius/face.py``): catalogue, description, picture, log
lines and facts, in the rulebook's words, showing a seat only what its observation holds."""

from __future__ import annotations

from games.core import GameConfig
from games.core.face import REFEREE, SPECTATOR
from tests.tiberius.helpers import at_card_phase, game, run

FACE = ["HIS02", "GAL08", "BAL05", "AFR05", "ROM07", "SYR12"]


def test_content_catalogue_names_every_component():
    """rule: tiberius/setup - 64 career cards in 6 regional decks, 9 adoption cards, the boxes."""
    cat = game().content()
    assert cat.kinds() == ["career card", "adoption card", "card", "box"]
    cards = [i for i in cat.items if i.kind == "career card"]
    assert len(cards) == 64 and all(c.authored and c.name and c.text for c in cards)
    tarraconensis = cat.by_id("career card", "HIS06")
    assert tarraconensis is not None and tarraconensis.name == "Governor of Tarraconensis"
    assert tarraconensis.values["region"] == "Hispania" and "top row" in tarraconensis.text
    a04 = cat.by_id("adoption card", "A04")
    assert a04 is not None and not a04.authored and "3 Imperator" in a04.text
    imperator = cat.by_id("box", "imperator")
    assert imperator is not None and "Least cubes: -3 VP".lower() in imperator.text.lower()
    assert "authored" in cat.notes


def test_describe_shows_own_secret_card_only_to_its_seat():
    """rule: tiberius/setup - each player's adoption card is secret: its own seat (and the referee)
    see it, nobody else does."""
    g = game()
    s = g.new_state(GameConfig(players=3), 5)
    own = g.pack.adoptions[s.players[1].secret].code
    seat1 = g.describe(s, 1).to_text(200)
    assert f"adoption card {own}:" in seat1
    for viewer in (0, 2, SPECTATOR):
        assert f"adoption card {own}:" not in g.describe(s, viewer).to_text(200)
    referee = g.describe(s, REFEREE).to_text(200)
    assert all(f"adoption card {g.pack.adoptions[c].code}:" in referee for c in (p.secret for p in s.players))


def test_describe_reads_like_the_rulebook_and_fits_a_terminal():
    g = game()
    s = run(at_card_phase(3, FACE), "bid 3", "take 2 influence", "bid 1")
    d = g.describe(s, 0)
    assert d.headline == "Tiberius Who? - turn 1 of 8: seat 0 to move"
    assert "takes a face-up career card" in d.step
    text = d.to_text(80)
    assert "Hispania" in text and "HIS02" in text and "Imperial Marriages" not in d.step
    assert max(len(line) for line in text.splitlines()) <= 80
    assert len(text.splitlines()) <= 40


def test_log_lines_in_words():
    """rule: tiberius/card-phase, rule: tiberius/cube-phase - each action as a table's log writes it."""
    g = game()
    s = at_card_phase(2, FACE)
    assert (
        g.log_line(s, g.parse_action(s, "bid 4"))
        == "Seat 0 bids 4 Influence for the order of picking career cards."
    )
    s = run(s, "bid 4", "take 2 influence")
    line = g.log_line(s, g.parse_action(s, "pick GAL08"))
    assert line.startswith("Seat 0 (bid 4) takes GAL08 ") and line.endswith(".")
    s2 = run(at_card_phase(2, FACE), "imperium maius", "take 2 influence")
    assert "Pro-Consular Imperium Maius" in g.log_line(
        at_card_phase(2, FACE), g.parse_action(s, "imperium maius")
    )
    assert g.log_line(s2, g.parse_action(s2, "move influence")) == (
        "Seat 0 moves a cube from Influence to Pro-Consular Imperium Maius (gray)."
    )


def test_explain_facts_differ_between_candidates():
    """The same labels on every candidate, with numbers that tell them apart."""
    g = game()
    s = run(at_card_phase(2, FACE), "buy HIS02", "take 2 influence")
    by_action = {
        g.action_to_text(s, a): {f.label: f.value for f in g.explain(s, a)} for a in g.legal_actions(s)
    }
    assert by_action["black conquests"]["majority margin in Conquests"] >= 1.0
    labels = [set(f) for f in by_action.values()]
    common = set.intersection(*labels)
    assert {"VP if the game ended now", "Influence spent", "cubes placed in scoring boxes"} <= common
    assert len({f["VP if the game ended now"] for f in by_action.values()}) > 1
    bid = at_card_phase(3, FACE)
    facts = {f.label: f for f in g.explain(bid, g.parse_action(bid, "bid 5"))}
    assert facts["Influence spent"].value == 5 and facts["picking order among the bids so far"].value == 1


def test_render_is_an_svg_of_the_boxes_and_cards():
    g = game()
    s = run(at_card_phase(3, FACE), "bid 3", "take 2 influence", "bid 1", "pick GAL08")
    svg = g.render(s, 0)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    for word in ("Conquests", "Imperator", "Hispania", "Seat 2", "HIS02"):
        assert word in svg
    other = g.pack.adoptions[s.players[1].secret].code
    assert f"secret card {other}" not in svg and f"secret card {other}" in g.render(s, REFEREE)


def test_card_phase_actions_without_a_card_are_written_in_the_rulebooks_words():
    """rule: tiberius/card-phase - options 3 and 4 ("Play your Pro-Consular Imperium Maius card",
    "Take 2 cubes ... Influence") are written as the rulebook says them; the older codes are still
    read, so records written before replay."""
    g = game()
    s = at_card_phase(2, FACE)
    texts = {g.action_to_text(s, a) for a in g.legal_actions(s)}
    assert {"imperium maius", "take 2 influence"} <= texts
    assert not texts & {"pcim", "take2"}
    for old, new in (
        ("pcim", "imperium maius"),
        ("take2", "take 2 influence"),
        ("PLAY Imperium  Maius", "imperium maius"),
    ):
        assert g.action_to_text(s, g.parse_action(s, old)) == new
