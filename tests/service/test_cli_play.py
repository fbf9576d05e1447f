"""``lictor play``, ``lictor games`` and ``lictor render`` used the way a person uses them: the table
runs in tmux at 80x24 (and wider), keys are sent, the screen is read back (issue 18)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.core import game_names, register_game, unregister_game
from games.core.registry import BUILTIN_GAMES
from tests.service.helpers import players_for

REPO = Path(__file__).resolve().parents[2]
TMUX = shutil.which("tmux")


@pytest.fixture(scope="module", autouse=True)
def facepig() -> Iterator[None]:
    """The fixture game with a face (tests/service/test_face.py), served by the test server."""
    added = "facepig" not in game_names()
    if added:
        register_game("facepig", "tests.service.test_face:FacePig")
    yield
    if added:
        unregister_game("facepig")


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "service.cli", *args]


def _env(columns: int | None = 80) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["PYTHONPATH"] = str(REPO)
    if columns is not None:  # else the terminal (tmux) tells its size
        env["COLUMNS"], env["LINES"] = str(columns), "24"
    return env


class Terminal:
    """A tmux session on its own socket: type keys, read the screen."""

    def __init__(self, command: list[str], width: int, height: int) -> None:
        self.socket = f"lictor-test-{uuid.uuid4().hex[:8]}"
        self.width, self.height = width, height
        self.home = tempfile.mkdtemp(prefix="lictor-play-")  # where a game left without --save is saved
        shell = " ".join(f"'{c}'" for c in command) + "; sleep 60"
        self._tmux(
            "new-session", "-d", "-s", "t", "-c", self.home, "-x", str(width), "-y", str(height), shell
        )

    def _tmux(self, *args: str) -> str:
        out = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            env=_env(None),
            cwd=REPO,
            timeout=30,
            check=False,
        )
        return out.stdout

    def screen(self) -> str:
        """The visible screen."""
        return self._tmux("capture-pane", "-p", "-t", "t")

    def send(self, keys: str) -> None:
        """Type ``keys`` and Enter."""
        self._tmux("send-keys", "-t", "t", "-l", keys)
        self._tmux("send-keys", "-t", "t", "Enter")

    def wait_for(self, text: str, timeout: float = 60.0) -> str:
        """The screen once it shows ``text`` (fails after ``timeout`` seconds with the screen)."""
        end = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < end:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never showed; the screen:\n{screen}")

    def close(self) -> None:
        """End the session (its own tmux server) and remove its directory."""
        self._tmux("kill-server")
        shutil.rmtree(self.home, ignore_errors=True)


@pytest.fixture
def terminal() -> Iterator[list[Terminal]]:
    if TMUX is None:
        pytest.skip("tmux is not installed (apt-get install tmux): the terminal table is tested through it")
    opened: list[Terminal] = []
    yield opened
    for t in opened:
        t.close()


def _play(server, *extra: str, game: str = "facepig") -> list[str]:
    return _cli(
        "play",
        game,
        "--seats",
        "human,ai:1",
        "--seed",
        "5",
        "--think",
        "0.3",
        "--server",
        f"127.0.0.1:{server[1]}",
        *extra,
    )


def _lines(screen: str) -> list[str]:
    return screen.rstrip("\n").split("\n")


def test_play_at_80x24_as_a_person_does(server, terminal):
    """Board from describe at the top, the log with every die and AI move, numbered moves, hints with
    a reason, the analysis bar, take-back, and a resignation that asks first."""
    t = Terminal(_play(server), 80, 24)
    terminal.append(t)
    screen = t.wait_for("seat 0>")
    lines = _lines(screen)
    assert (
        lines[0] == "Hidden Pig to 12: turn total 0" and lines[1] == "seat 0 to move"
    )  # nothing scrolled off
    assert "[1] roll  [2] hold" in screen and "Your moves (seat 0):" in screen
    assert "  Seat 0  0 banked, bonus card 2" in screen  # the seat's own secret card
    t.send("?")
    assert "u            take back your last move" in t.wait_for("At the table:")
    t.send("")
    t.wait_for("seat 0>")
    t.send("1")
    screen = t.wait_for("Seat 0 rolls a 6.")  # the die, in the log
    assert _lines(screen)[0] == "Hidden Pig to 12: turn total 6"
    t.send("h")
    screen = t.wait_for("(Enter to go back")
    assert "#1 " in screen and "#2 " in screen and "win chance" in screen
    assert "the search chose it in" not in screen  # visit counts are never the reason
    assert "Why #1: " in screen and "points banked now" in screen and "target" not in screen
    t.send("")
    t.send("a")
    screen = t.wait_for("Analysis:")
    assert "100%" in screen and "simulations" in screen
    t.send("")
    t.send("2")  # hold; the AI seat moves and rolls
    screen = t.wait_for("Seat 1 rolls a")
    assert "Seat 0 holds." in screen and "Seat 1 rolls the die." in screen
    t.wait_for("seat 0>")
    t.send("u")
    screen = t.wait_for("takes back")
    assert _lines(screen)[0] == "Hidden Pig to 12: turn total 6" and "Seat 0 holds." not in screen
    t.send("q")
    t.wait_for("Leave: s save and quit (resume later), r resign, Enter play on?")
    t.send("")
    t.wait_for("You play on.")
    t.send("q")
    t.wait_for("Leave: s save and quit")
    t.send("r")
    t.wait_for("Resign the game? [y/N]")
    t.send("y")
    screen = t.wait_for("The game record is in")
    assert "Final score:" in screen and "seat 0 resigned; the game goes to seat 1" in screen


def test_play_uses_a_wider_terminal_and_ends_with_the_score(server, terminal):
    """At 130 columns the board and the log stand side by side; a game played to its end shows
    the score breakdown (the fixture's scorer)."""
    t = Terminal(
        _cli(
            "play",
            "pig",
            "--seats",
            "human,ai:1",
            "--seed",
            "5",
            "--option",
            "target=3",
            "--server",
            f"127.0.0.1:{server[1]}",
        ),
        130,
        30,
    )
    terminal.append(t)
    screen = t.wait_for("seat 0>")
    assert "│ Game log:" in screen and "│ Your moves (seat 0):" in screen
    t.send("1")
    t.wait_for("seat 0>")
    t.send("2")
    screen = t.wait_for("Final score:")
    assert "seat 0: rank 1, 8 points" in screen and "banked: 6" in screen and "bonus: 2" in screen


def test_games_are_listed_in_full_at_80_columns(server):
    out = subprocess.run(
        _cli("games", "--server", f"127.0.0.1:{server[1]}"),
        capture_output=True,
        text=True,
        env=_env(80),
        cwd=REPO,
        timeout=60,
        check=True,
    ).stdout
    assert all(len(line) <= 80 for line in out.splitlines()), out
    assert "facepig: Hidden Pig with a face (test fixture)" in out and "…" not in out
    assert "variants: target=12" in out


def test_render_writes_svg_and_png(server, tmp_path):
    position = tmp_path / "pig.json"
    position.write_text('{"game": "facepig", "record": {"players": 2, "seed": 5, "actions": ["roll", "d6"]}}')
    for name, magic in (("board.svg", b"<svg"), ("board.png", b"\x89PNG")):
        out = tmp_path / name
        subprocess.run(
            _cli(
                "render", str(position), "-o", str(out), "--viewer", "0", "--server", f"127.0.0.1:{server[1]}"
            ),
            capture_output=True,
            env=_env(),
            cwd=REPO,
            timeout=60,
            check=True,
        )
        assert out.read_bytes().startswith(magic)
    from typer.testing import CliRunner

    from service.cli import app

    bad = CliRunner().invoke(app, ["render", str(position), "-o", str(tmp_path / "board.gif")])
    assert bad.exit_code != 0 and ".svg or .png" in bad.output


def _first_screen(server, terminal, name: str, width: int, height: int) -> str:
    """``lictor play NAME`` (seat 0 human, the others AI level 1) in a ``width`` x ``height``
    terminal: the screen of seat 0's first decision."""
    seats = ",".join(["human"] + ["ai:1"] * (players_for(name) - 1))
    t = Terminal(
        _cli("play", name, "--seats", seats, "--seed", "2", "--server", f"127.0.0.1:{server[1]}"),
        width,
        height,
    )
    terminal.append(t)
    return t.wait_for("seat 0>", timeout=90)


@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))
def test_every_builtin_game_opens_at_80x24(server, terminal, name):
    """The first screen of each shipped game fits 80x24: the headline on top, the moves, the prompt."""
    screen = _first_screen(server, terminal, name, 80, 24)
    lines = _lines(screen)
    assert len(lines) <= 24 and lines[0].strip() and not lines[0].startswith(("Traceback", "INTERNAL"))
    assert "Your moves (seat 0):" in screen and "[1] " in screen


def _long_description():
    from lictor.v1 import game_service_pb2 as game_pb

    d = game_pb.Description(headline="Round 1: seat 0 to decide", step="place a worker " * 12)
    board = d.sections.add(title="Board")
    for i in range(30):
        board.rows.add(label=f"District {i}", value="a long value that wraps " * 3)
    mine = d.sections.add(title="Seat 0 (you)", seat=0)
    for label in ("Coins", "Influence", "Cards", "Favor", "Gadgets (your hand)"):
        mine.rows.add(label=label, value="3")
    other = d.sections.add(title="Seat 1", seat=1)
    other.rows.add(label="Coins", value="4")
    return d


def test_board_lines_fit_and_keep_the_hand():
    from service.cli import board_lines

    for width, height in ((80, 12), (60, 8), (40, 6)):
        lines = board_lines(_long_description(), width, height, 0)
        assert len(lines) <= height and all(len(line) <= width for line in lines)
        assert lines[0] == "Round 1: seat 0 to decide"
        assert lines[-1].startswith("… more")
    lines = board_lines(_long_description(), 80, 14, 0)
    assert "  Gadgets (your hand)  3" in lines and "Seat 0 (you)" in lines and "Board" in lines


def test_a_wrapped_hand_row_is_never_cut():
    """A hand long enough to wrap over several lines (a TI4 hand of system tiles) keeps every one of
    its lines on a short screen: the board gives up the room."""
    from lictor.v1 import game_service_pb2 as game_pb
    from service.cli import board_lines

    d = game_pb.Description(headline="Placement: seat 0 to place", step="place a system tile")
    board = d.sections.add(title="Galaxy")
    for i in range(20):
        board.rows.add(label=f"Ring {i}", value="a long value that wraps " * 3)
    mine = d.sections.add(title="Seat 0 (you)", seat=0)
    hand = ", ".join(f"system {n} (2 planets, 3 resources)" for n in range(20, 32))
    mine.rows.add(label="Systems in your hand", value=hand)
    mine.rows.add(label="Speaker", value="no")
    for height in (13, 16):  # the headline, the step, the title, the hand's 9 lines and "… more": 13
        lines = board_lines(d, 80, height, 0)
        start = next(i for i, line in enumerate(lines) if "Systems in your hand" in line)
        assert "system 31 (2 planets, 3 resources)" in " ".join(" ".join(lines[start:]).split()), height
        assert len(lines) <= height


def test_moves_fit_their_budget_and_keep_their_numbers():
    from service.cli import fitted_moves, move_lines

    moves = (
        ["roll", "hold"] + [f"move char {i}-{i + 1}" for i in range(40)] + [f"buy card{i}" for i in range(9)]
    )
    assert move_lines(["roll", "hold"], 80) == ["[1] roll  [2] hold"]
    full = move_lines(moves, 80)
    assert all(len(line) <= 80 for line in full) and "[51] card8" in " ".join(full)
    for budget in (3, 4, 6):
        short = fitted_moves(moves, 80, budget)
        assert len(short) <= budget and short[-1] == "(m lists every move)"
        assert all(len(line) <= 80 for line in short)
    assert fitted_moves(moves, 80, 6)[1].startswith("move       [3] char 0-1")
    assert fitted_moves(moves, 80, 20) == full


def test_a_move_longer_than_its_column_wraps_under_its_words():
    """A move wider than the moves column (a long faction or token name) is wrapped, its words
    indented under the first, never cut."""
    from service.cli import move_lines

    moves = [
        "buy the weapon token in slot 1 for Molly Kuwata",
        "buy the cyber-implant token in slot 2 for Molly Kuwata of the Neon Syndicate",
        "done",
    ]
    lines = move_lines(moves, 50)
    assert all(len(line) <= 50 for line in lines)
    text = " ".join(" ".join(lines).split())
    assert "[2] the cyber-implant token in slot 2 for Molly Kuwata of the Neon Syndicate" in text
    second = next(i for i, line in enumerate(lines) if "[2]" in line)
    assert lines[second + 1].startswith(" " * 15) and lines[-1] == "[3] done"


@pytest.mark.skipif(TMUX is None, reason="needs tmux")
@pytest.mark.parametrize("name", ["cytress", "ti4"])
def test_a_drawn_map_is_never_cut_in_two_columns(server, terminal, name):
    """At 120 columns the board column widens to the map drawn in text (never wrapped or cut), and
    the log beside it wraps its sentences instead of cutting them."""
    screen = _first_screen(server, terminal, name, 120, 40)
    lines = _lines(screen)
    assert all(len(line) <= 120 for line in lines)
    left = [line.split("│")[0].rstrip() for line in lines if "│" in line]  # a right side may be empty
    if name == "cytress":
        header = [line.split() for line in left if line.split()[:3] == ["A", "B", "C"]]
        assert header and all(len(w) == 1 for w in header[0]) and len(header[0]) >= 6, screen
    else:
        assert any("Mecatol" in line for line in left), screen
    assert not any(line.rstrip().endswith("…") for line in left if "tile" in line or " C." in line)


def test_drawn_lines_keep_their_spacing():
    from games.core.face import Description, Section, is_drawn

    grid = "   A   B   C"
    assert is_drawn(grid) and is_drawn("C.  P.  H.") and not is_drawn("a sentence.  Two spaces once")
    d = Description(
        game="g", viewer=0, headline="h", step="s", sections=(Section(title="Map", lines=(grid,)),)
    )
    assert d.drawn_width() == len(grid) + 2
    assert "  " + grid in d.to_text(80).splitlines()
    assert d.to_text(8).splitlines()[-1] == "     A …"  # too narrow: cut with a mark, never re-wrapped


def test_log_lines_wrap_the_newest_entries_into_their_room():
    from service.cli import log_lines

    log = [f"Seat {i % 2} plays a long move number {i} that needs more than one line here" for i in range(9)]
    out = log_lines(log, 40, 6)
    assert len(out) <= 6 and all(len(line) <= 40 for line in out)
    assert "number 8" in " ".join(out) and "number 0" not in " ".join(out)


def test_a_played_game_is_saved_and_resumed(server, terminal, tmp_path):
    """--save writes the record after every move; q s leaves without resigning; --resume goes on from
    the same position with the same log; the record reads back in lictor score and review."""
    saved = tmp_path / "game.json"
    t = Terminal(_play(server, "--save", str(saved)), 80, 24)
    terminal.append(t)
    t.wait_for("seat 0>")
    t.send("1")
    t.wait_for("Seat 0 rolls a 6.")
    assert json.loads(saved.read_text())["record"]["actions"] == ["roll", "d6"]
    t.send("q")
    t.wait_for("Leave: s save and quit")
    t.send("s")
    screen = t.wait_for("The game record is in")
    assert f"lictor play --resume {saved}" in screen.replace("\n", "") and "resigns" not in screen
    data = json.loads(saved.read_text())
    assert data["game"] == "facepig" and data["seats"] == "human,ai:1" and data["record"]["seed"] == 5
    again = Terminal(_cli("play", "--resume", str(saved), "--server", f"127.0.0.1:{server[1]}"), 80, 24)
    terminal.append(again)
    screen = again.wait_for("seat 0>")
    assert _lines(screen)[0] == "Hidden Pig to 12: turn total 6" and "Seat 0 rolls a 6." in screen
    again.send("2")  # hold: the game goes on where it was left
    again.wait_for("Seat 0 holds.")
    assert json.loads(saved.read_text())["record"]["actions"][:3] == ["roll", "d6", "hold"]


def test_the_dice_can_be_rolled_or_entered_at_the_table(server, terminal):
    """--dice ask: at a chance moment the player types the real outcome (or Enter rolls), and h tells
    what each outcome means."""
    t = Terminal(_play(server, "--dice", "ask"), 80, 24)
    terminal.append(t)
    t.wait_for("seat 0>")
    t.send("1")  # roll: the dice are the player's
    screen = t.wait_for("dice>")
    assert "Chance: the dice (or the deck) decide." in screen and "possible outcomes" in screen
    t.send("h")
    screen = t.wait_for("(Enter to go back")
    assert "chance decides" in screen and "probability" in screen
    t.send("")
    t.wait_for("dice>")
    t.send("d44")
    screen = t.wait_for("not an outcome of this roll")
    assert "did you mean" in screen
    t.send("d4")
    screen = t.wait_for("Seat 0 rolls a 4.")


def test_file_problems_are_one_line(server, tmp_path):
    """Every command that reads a position file says what is wrong in one line, never a traceback."""
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{not json")
    not_object = tmp_path / "list.json"
    not_object.write_text("[1, 2]")
    no_game = tmp_path / "nogame.json"
    no_game.write_text('{"record": {"players": 2}}')
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"game": "nosuchgame", "record": {"players": 2, "actions": []}}')
    cases = [
        (["score", str(tmp_path / "missing.json")], "no such file"),
        (["hint", str(bad_json)], "not JSON"),
        (["render", str(not_object), "-o", str(tmp_path / "x.svg")], "holds a JSON object"),
        (["review", str(no_game)], "names no game"),
        (["play", "--resume", str(tmp_path / "missing.json")], "no such file"),
        (["score", str(wrong)], "nosuchgame"),
    ]
    for args, says in cases:
        out = subprocess.run(
            _cli(*args, "--server", f"127.0.0.1:{server[1]}"),
            capture_output=True,
            text=True,
            env=_env(),
            cwd=REPO,
            timeout=60,
            check=False,
        )
        shown = (out.stdout + out.stderr).strip()
        assert out.returncode != 0 and "Traceback" not in shown, (args, shown)
        assert says in shown and len(shown.splitlines()) == 1, (args, shown)


def test_score_prints_every_part_with_its_detail(server, tmp_path):
    position = tmp_path / "pig.json"
    position.write_text(
        '{"game": "pig", "record": {"players": 2, "seed": 5, "options": {"target": 3}, '
        '"actions": ["roll", "d6", "hold"]}}'
    )
    out = subprocess.run(
        _cli("score", str(position), "--server", f"127.0.0.1:{server[1]}"),
        capture_output=True,
        text=True,
        env=_env(),
        cwd=REPO,
        timeout=60,
        check=True,
    ).stdout
    assert "seat 0: rank 1" in out and "banked: 6" in out and "bonus: " in out
    assert all(len(line) <= 80 for line in out.splitlines())


def test_a_review_writes_the_graph(server, tmp_path):
    """lictor review RECORD: a PNG of each seat's win chance after every move and the worst moves."""
    record = tmp_path / "game.json"
    record.write_text(
        '{"game": "pig", "record": {"players": 2, "seed": 3, '
        '"actions": ["roll", "d6", "roll", "d2", "hold", "roll", "d1", "roll", "d5", "hold"]}}'
    )
    out = subprocess.run(
        _cli("review", str(record), "--simulations", "30", "--server", f"127.0.0.1:{server[1]}"),
        capture_output=True,
        text=True,
        env=_env(),
        cwd=REPO,
        timeout=120,
        check=True,
    ).stdout
    graph = tmp_path / "game.png"
    assert graph.read_bytes().startswith(b"\x89PNG") and f"wrote {graph}" in out
