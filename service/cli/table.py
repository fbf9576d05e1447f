"""A game at the terminal (:class:`GameTable`): the record kept here, each move refereed by the
server, the AI seats played by its AdvisorService, dice drawn from the table's seed."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from games.core.text import is_digits
from service.cli.root import stop_with

HUMAN = "human"
AI = "ai"


CHANCE_SEAT = -1
TERMINAL_SEAT = -2


GLOSSED_KINDS = ("card", "tile")
"""Components named in a move whose text is shown under the move list: kinds holding these words."""


def glossary(content: Any) -> dict[str, tuple[str, str, str]]:
    """The components a move may name, by id: (kind, name, rules text), from a GetContent answer:
    the cards and tiles with an id of their own (not a bare number, not shared with another
    component)."""
    count: dict[str, int] = {}
    for item in content.items:
        count[item.id] = count.get(item.id, 0) + 1
    return {
        item.id: (item.kind, item.name, item.text)
        for item in content.items
        if count[item.id] == 1
        and not is_digits(item.id)
        and any(word in item.kind for word in GLOSSED_KINDS)
        and (item.text or item.name != item.id)
    }


@dataclass
class GameTable:
    """A game at the terminal: the record kept here, each move refereed by the server
    (GameService), the AI seats played by its AdvisorService, dice drawn from the table's seed.

    Attributes:
        stubs: the server's stubs.
        game: the game name.
        seats: (HUMAN or AI, level) per seat.
        seed: the setup and dice seed.
        options: variant options by name.
        think: seconds of search for a hint or an analysis.
        positions: the position after each action played (a record), the start first.
        movers: the seat to decide in each of ``positions`` (CHANCE, TERMINAL).
        log: the game log as the log viewer reads it.
        log_at: the length of the log when each of ``positions`` was reached.
        message: a line shown once at the next screen (an error, a note).
        resigned: the seat that resigned, else None.
        result: the final summary once the game is over.
        has_scorer: whether the game has an exact scorer (the end shows its sheet).
        save_path: where the record is saved after every move (None: only when leaving, to
            ``lictor-GAME-SEED.json``).
        dice: ``"roll"`` (the table draws every chance outcome) or ``"ask"`` (a person rolls or
            types the real outcome).
        left: True once the player saved and left the table (the game goes on later).
        glossary: the components a move may name, by id: (kind, name, rules text).
    """

    stubs: Any
    game: str
    seats: list[tuple[str, int]]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    think: float = 2.0
    positions: list[Any] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    log_at: list[int] = field(default_factory=list)
    message: str = ""
    resigned: int | None = None
    result: Any = None
    has_scorer: bool = False
    save_path: Path | None = None
    dice: str = "roll"
    left: bool = False
    glossary: dict[str, tuple[str, str, str]] = field(default_factory=dict)

    @property
    def humans(self) -> list[int]:
        """The human seats."""
        return [i for i, (kind, _) in enumerate(self.seats) if kind == HUMAN]

    @property
    def log_viewer(self) -> Any:
        """Who reads the log: the one human seat, a spectator when several share the screen, the
        referee when only AI seats play."""
        from lictor.v1 import game_service_pb2 as game_pb

        humans = self.humans
        if len(humans) == 1:
            return game_pb.Viewer(role=game_pb.VIEWER_ROLE_SEAT, seat=humans[0])
        return game_pb.Viewer(role=game_pb.VIEWER_ROLE_SPECTATOR if humans else game_pb.VIEWER_ROLE_REFEREE)

    def start(self) -> Any:
        """Set the game up; returns its summary."""
        from lictor.v1 import game_service_pb2 as game_pb
        from lictor.v1 import position_pb2 as pos_pb
        from service.convert import option_value_to_pb

        request = game_pb.NewGameRequest(
            game=self.game, setup=pos_pb.GameSetup(players=len(self.seats), seed=self.seed)
        )
        for name, value in self.options.items():
            request.setup.options[name].CopyFrom(option_value_to_pb(value))
        reply = self.stubs.games.NewGame(request, timeout=60)
        self.positions = [reply.position]
        self.movers = [reply.summary.current_player]
        self.log_at = [0]
        infos = self.stubs.games.ListGames(game_pb.ListGamesRequest(), timeout=30).games
        self.has_scorer = any(g.name == self.game and g.has_scorer for g in infos)
        self.glossary = glossary(
            self.stubs.games.GetContent(game_pb.GetContentRequest(game=self.game), timeout=30)
        )
        return reply.summary

    @property
    def record_path(self) -> Path:
        """Where the record is saved: ``--save``, else ``lictor-GAME-SEED.json`` here."""
        return self.save_path or Path(f"lictor-{self.game}-{self.seed}.json")

    def record_dict(self) -> dict[str, Any]:
        """The game so far as a position file (``lictor play --resume``, ``lictor review``, ``score``,
        ``hint``, ``render`` read it) with the table's seats."""
        seats = ",".join(HUMAN if kind == HUMAN else f"{AI}:{level}" for kind, level in self.seats)
        return {
            "game": self.game,
            "record": {
                "players": len(self.seats),
                "options": dict(self.options),
                "seed": self.seed,
                "actions": list(self.position.record.actions),
            },
            "seats": seats,
        }

    def save(self, path: Path | None = None) -> Path:
        """Write the record (whole, then renamed: a crash never leaves half a file); returns where."""
        import json

        target = path or self.record_path
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(json.dumps(self.record_dict(), indent=1) + "\n", encoding="utf-8")
        tmp.replace(target)
        return target

    def resume(self, actions: list[str]) -> None:
        """Set the game up and play ``actions`` again (a saved record), as the log reads them."""
        self.start()
        for number, text in enumerate(actions, 1):
            try:
                self.play(text, save=False)
            except grpc.RpcError as exc:
                raise stop_with(f"move {number} of the saved game ({text!r}): {exc.details()}") from None

    @property
    def position(self) -> Any:
        """The current position."""
        return self.positions[-1]

    @property
    def mover(self) -> int:
        """The seat to decide now (CHANCE, TERMINAL)."""
        return int(self.movers[-1])

    def play(self, text: str, *, save: bool = True) -> Any:
        """Referee ``text`` in the current position, log it, and move on (saved to ``save_path``
        when one is given); returns the summary."""
        from lictor.v1 import game_service_pb2 as game_pb
        from lictor.v1 import position_pb2 as pos_pb

        action = pos_pb.Action(text=text)
        line = self.stubs.games.DescribeAction(
            game_pb.DescribeActionRequest(position=self.position, action=action, viewer=self.log_viewer),
            timeout=30,
        ).log_line
        reply = self.stubs.games.ApplyAction(
            game_pb.ApplyActionRequest(position=self.position, action=action), timeout=60
        )
        self.log.append(line)
        self.log += [e.description for e in reply.events if e.kind == pos_pb.EVENT_KIND_GAME_OVER]
        self.positions.append(reply.position)
        self.movers.append(reply.summary.current_player)
        self.log_at.append(len(self.log))
        if reply.summary.terminal:
            self.result = reply.summary
        if save and self.save_path is not None:
            self.save()
        return reply.summary

    def roll(self) -> Any:
        """Draw the chance outcome (a die, a card) from the table's seed and play it."""
        outcomes = self.outcomes()
        rng = random.Random(f"{self.seed}:{len(self.positions)}")
        pick = rng.choices(outcomes, weights=[max(0.0, o.probability) for o in outcomes])[0]
        return self.play(pick.text)

    def outcomes(self) -> list[Any]:
        """The chance outcomes of the current position (each with its probability)."""
        from lictor.v1 import game_service_pb2 as game_pb

        return list(
            self.stubs.games.GetLegalActions(
                game_pb.GetLegalActionsRequest(position=self.position), timeout=30
            ).actions
        )

    def ai_move(self) -> Any:
        """The AI seat's move, from the server's search."""
        from lictor.v1 import advisor_service_pb2 as advisor_pb

        _, level = self.seats[self.mover]
        request = advisor_pb.SuggestActionRequest(
            position=self.position, level=level, seed=self.seed + len(self.positions)
        )
        reply = self.stubs.advisor.SuggestAction(request, timeout=300)
        return self.play(reply.action)

    def take_back(self, seat: int) -> bool:
        """Undo back to ``seat``'s previous decision (its last move and everything after it)."""
        for i in range(len(self.positions) - 2, -1, -1):
            if self.movers[i] == seat:
                dropped = len(self.positions) - 1 - i
                del self.positions[i + 1 :]
                del self.movers[i + 1 :]
                del self.log[self.log_at[i] :]
                del self.log_at[i + 1 :]
                self.log.append(f"Seat {seat} takes back {dropped} action{'s' if dropped != 1 else ''}.")
                self.result = None
                if self.save_path is not None:
                    self.save()
                return True
        return False

    def advance(self, out: Any) -> None:
        """Play dice and AI seats until a human seat decides or the game ends."""
        while self.mover != TERMINAL_SEAT and self.resigned is None:
            mover = self.mover
            if mover == CHANCE_SEAT and self.dice == "ask":
                return
            if mover == CHANCE_SEAT:
                self.roll()
            elif self.seats[mover][0] == AI:
                out.write(f"\rseat {mover} (AI) is thinking…".ljust(40))
                out.flush()
                self.ai_move()
            else:
                return

    def legal(self) -> list[str]:
        """The legal moves of the seat to decide, in notation."""
        from lictor.v1 import game_service_pb2 as game_pb

        return [
            a.text
            for a in self.stubs.games.GetLegalActions(
                game_pb.GetLegalActionsRequest(position=self.position), timeout=30
            ).actions
        ]

    def describe(self, viewer: Any, width: int) -> Any:
        """The current position as ``viewer`` sees it."""
        from lictor.v1 import game_service_pb2 as game_pb

        return self.stubs.games.Describe(
            game_pb.DescribeRequest(position=self.position, viewer=viewer, width=width), timeout=30
        ).description
