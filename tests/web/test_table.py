"""The web table in a real browser (headless Chromium): each of the five games is created against an
AI seat in the lobby, played to the end by clicking (moves on the picture where it labels them, the
move list otherwise), with a hint, the live analysis, component tooltips, the AI's replies in the
log, the review's win-rate graph, and a second match resumed from the lobby and resigned. A seat's
page shows nothing its view hides. A screenshot per game is kept in build/screenshots/.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from typing import Any

import pytest

from games.core import REFEREE
from games.core.views import seen_state
from tests.web.conftest import SHOTS

# Short games (the rulebooks' games are long): each game's own opt-in caps, and fast AI seats.
GAMES: dict[str, dict[str, Any]] = {
    "tiberpunk": {"players": 2, "options": {"max_rounds": "1"}},
    "tiberius": {"players": 2, "options": {"turns": "7"}},
    "cytress": {"players": 2, "options": {"round_limit": "1"}},
    "ti4": {"players": 3, "options": {}},
    "cyberverse": {"players": 2, "options": {"max_turns": "1"}},
}
MAX_MOVES = 120
"""A game that needs more of the human's moves than this is a failure (the caps above end them sooner)."""

READY = """() => {
  const moves = document.querySelector('#moves');
  const over = document.querySelector('.turn.over');
  return !!over || (moves && moves.dataset.ready === 'true');
}"""


def _create(page: Any, base: str, game: str, spec: dict[str, Any], seats: list[str]) -> str:
    page.goto(base + "#/")
    page.wait_for_selector("#new-match")
    page.select_option("#game", game)
    page.fill("#players", str(spec["players"]))
    page.dispatch_event("#players", "change")
    for i, value in enumerate(seats):
        page.select_option(f"#seat-{i}", value)
    if spec["options"]:
        page.click("#new-match summary")
        for name, value in spec["options"].items():
            field = page.locator(f"#opt-{name}")
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
    page.click("#create")
    page.wait_for_url(re.compile(r".*#/match/"))
    match_id = re.search(r"#/match/([^?]+)", page.url).group(1)  # type: ignore[union-attr]
    page.wait_for_function(READY)
    return match_id


def _my_turn(page: Any) -> bool:
    page.wait_for_function(READY)
    return bool(page.locator(".turn.over").count() == 0)


def _move_number(page: Any) -> int:
    return int(page.locator("#moves").get_attribute("data-move-number") or 0)


def _await_move(page: Any, before: int) -> None:
    page.wait_for_function(
        f"""() => !!document.querySelector('.turn.over') ||
            (document.querySelector('#moves').dataset.ready === 'true' &&
             Number(document.querySelector('#moves').dataset.moveNumber) > {before})"""
    )


def _play_one(page: Any, rng: random.Random, *, on_board: bool) -> str:
    """Play one move by clicking: a label of the picture when asked and there is one, else a button."""
    before = _move_number(page)
    labels = page.locator("#board text.playable")
    if on_board and labels.count():
        label = labels.nth(rng.randrange(labels.count()))
        how = f"board label {label.text_content()!r}"
        label.click()
        if page.locator("#moves").get_attribute("data-ready") == "true" and _move_number(page) == before:
            # The label names several moves: the list now shows just those.
            assert page.locator(".filter-note").is_visible()
            page.locator("#moves button.move").first.click()
    else:
        buttons = page.locator("#moves button.move")
        button = buttons.nth(rng.randrange(buttons.count()))
        how = f"move {button.get_attribute('data-move')!r}"
        button.click()
    _await_move(page, before)
    return how


def _hidden_words(server: Any, match_id: str, seat: int) -> tuple[set[str], set[str]]:
    """Components the referee sees in the match now and ``seat``'s view does not: (those its
    description and picture leave out, those its observation leaves out)."""
    live = server.store.get(match_id)
    with live.lock:
        game, state = live.game, live.state
    mine = seen_state(game, state, seat)
    shown = (game.describe(state, REFEREE).to_text(200) + game.render(state, REFEREE), "")
    seen = (game.describe(mine, seat).to_text(200) + game.render(mine, seat), "")
    wire = (json.dumps(game.to_dict(state)), json.dumps(game.to_dict(game.observation(state, seat))))
    drawn, sent = set(), set()
    for item in game.content().items:
        for word in (item.id, item.name):
            if len(word) < 3 or not re.search(r"[A-Za-z]", word):
                continue
            if _has(shown[0], word) and not _has(seen[0], word):
                drawn.add(word)
            if _has(wire[0], word) and not _has(wire[1], word):
                sent.add(word)
    return drawn, sent


def _check_hidden(page: Any, server: Any, match_id: str, bodies: list[str]) -> int:
    """Assert seat 0's page shows nothing its view hides: no component the referee sees and the
    seat's description and picture leave out is on the page; none its observation leaves out is on
    the page or in any answer it received (but GetContent's catalogue, public by nature). Returns
    how many words were checked."""
    drawn, sent = _hidden_words(server, match_id, 0)
    text = _page_text(page)
    leaked = sorted(w for w in drawn | sent if _has(text, w))
    assert not leaked, f"seat 0's page shows what its view hides: {leaked}"
    wire = " ".join(bodies)
    leaked = sorted(w for w in sent if _has(wire, w))
    assert not leaked, f"seat 0's page received what its view hides: {leaked}"
    return len(drawn | sent)


def _has(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def _page_text(page: Any) -> str:
    return str(page.evaluate(PAGE_TEXT))


PAGE_TEXT = """() => document.body.innerText + ' ' +
  [...document.querySelectorAll('svg text, [aria-label], input')]
    .map(e => [e.textContent, e.getAttribute('aria-label'), e.value].filter(Boolean).join(' '))
    .join(' ')"""


def _hint_and_analysis(page: Any, players: int) -> None:
    """Ask a hint (its reasons shown) and play it; then watch the live analysis and stop it."""
    assert _my_turn(page)
    page.click("#hint")
    page.wait_for_selector("#hints .hint .reasons li")
    assert page.locator("#hints .hint").count() >= 1
    before = _move_number(page)
    page.locator("#hints .play-hint").first.click()
    _await_move(page, before)
    if _my_turn(page):  # a bar per seat, and the top moves with their visits
        page.click("#analyze")
        page.wait_for_selector("#analysis .bar-row")
        page.wait_for_function("() => document.querySelectorAll('#analysis .top-moves tr').length > 1")
        assert page.locator("#analysis .bar-row").count() == players
        page.click("#analyze")  # stop


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_against_an_ai_seat(page, table_server, game):
    server, base = table_server
    spec = GAMES[game]
    rng = random.Random(7)
    bodies: list[str] = []

    def keep(request: Any) -> None:
        # Every answer but the public catalogue, the stream (its events are on the page) and the
        # searches' (their lines run through states sampled from the view: guesses, not secrets).
        skip = ("GetContent", "WatchMatch", "AdvisorService")
        if "/lictor.v1." in request.url and not any(name in request.url for name in skip):
            with contextlib.suppress(Exception):  # a call the page cancelled has no body
                bodies.append(request.response().text())

    page.on("requestfinished", keep)
    t0 = time.monotonic()
    seats = ["human"] + ["ai:1"] * (spec["players"] - 1)
    match_id = _create(page, base, game, spec, seats)
    assert page.locator("#board svg").count() == 1, "the board is drawn"

    # A component's name and rules on hover (the picture or the texts around it name some).
    term = page.locator("[data-terms]").first
    term.scroll_into_view_if_needed()
    term.hover()
    page.wait_for_selector("#tooltip:not([hidden])")
    assert page.locator("#tooltip strong").first.text_content()

    # Nothing the seat's view hides, now and a few moves on (while the match runs).
    checked = _check_hidden(page, server, match_id, bodies)
    _hint_and_analysis(page, spec["players"])
    if _my_turn(page):
        checked += _check_hidden(page, server, match_id, bodies)

    moves = 1
    on_board = 0
    replies = 0  # my moves the AI answered in the log before my next turn
    ai_events = 'li[data-seat]:not([data-seat="0"]):not([data-seat=""])'
    while _my_turn(page):
        seen = page.locator(f"#log {ai_events}").count()
        how = _play_one(page, rng, on_board=moves % 2 == 1)
        replies += page.locator(f"#log {ai_events}").count() > seen
        on_board += how.startswith("board")
        moves += 1
        assert moves <= MAX_MOVES, f"{game}: no end after {MAX_MOVES} moves"
        if moves == 3:
            page.mouse.move(0, 0)
            page.screenshot(path=str(SHOTS / f"{game}-playing.png"), full_page=False)
    assert page.locator(".turn.over").is_visible()
    assert page.locator("#log li.game_over").count() == 1
    assert replies, "the AI's replies reach the log"
    if game in ("tiberpunk", "cytress", "tiberius", "ti4"):
        assert on_board, f"{game}: no move was played on the picture"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.mouse.move(0, 0)
    page.screenshot(path=str(SHOTS / f"{game}-end.png"), full_page=True)

    # The review: the win-rate graph and the moves where a player lost most.
    page.click("#review-link")
    page.wait_for_selector("#graph svg polyline")
    assert page.locator("#graph polyline").count() == spec["players"]
    page.wait_for_selector("#losses li")
    page.screenshot(path=str(SHOTS / f"{game}-review.png"), full_page=True)
    print(
        f"{game}: {moves} moves by clicking ({on_board} on the board), {checked} hidden components "
        f"checked absent, in {time.monotonic() - t0:.1f} s"
    )


def test_resume_then_resign_from_the_lobby(page, table_server):
    _, base = table_server
    spec = GAMES["tiberius"]
    match_id = _create(page, base, "tiberius", spec, ["human", "ai:1"])
    _play_one(page, random.Random(1), on_board=False)
    page.click("text=Lobby")
    entry = page.locator(f'#my-matches li[data-match="{match_id}"]')
    entry.locator("a.resume").click()
    page.wait_for_function(READY)
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_selector(".turn.over")
    assert "Seat 1" in page.locator(".turn.over").text_content()
    assert page.locator("#log li.resign").count() == 1


def test_the_table_fits_a_phone_and_is_labelled(page, table_server):
    _, base = table_server
    page.set_viewport_size({"width": 360, "height": 740})
    _create(page, base, "tiberpunk", GAMES["tiberpunk"], ["human", "ai:1"])
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide at 360 px"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "table-360.png"), full_page=True)
    # Keyboard: a move is reachable with Tab and played with Enter.
    before = _move_number(page)
    page.locator("#moves button.move").first.focus()
    page.keyboard.press("Enter")
    _await_move(page, before)
    # Labelled for screen readers: the board, the live log, every form field.
    assert page.locator("#board svg[role=img][aria-label]").count() == 1
    assert page.locator("#log[aria-live=polite]").count() == 1
    page.goto(base + "#/")
    unlabelled = page.evaluate(
        """() => [...document.querySelectorAll('input, select')]
            .filter(e => !e.labels.length && !e.getAttribute('aria-label')).map(e => e.id)"""
    )
    assert not unlabelled
    page.screenshot(path=str(SHOTS / "lobby-360.png"), full_page=True)
