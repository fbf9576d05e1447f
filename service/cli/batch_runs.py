"""The batch runs on this machine (or Ray), no server: ``lictor tournament`` (a round robin of AI
configurations) and ``lictor train`` (self-play, then fitting a game's win model)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from service.cli.root import console

SeedOpt = Annotated[int, typer.Option(help="the seed every deal and player derives from")]
JobsOpt = Annotated[int, typer.Option(help="local worker processes")]
RayOpt = Annotated[str | None, typer.Option("--ray", help="play on Ray: 'local', or a cluster's address")]


def tournament(
    *,
    game: Annotated[str, typer.Argument(help="the game (lictor games lists them)")],
    entrants: Annotated[
        str,
        typer.Option(help="comma-separated: random, greedy, engine:NAME, level:1..10, sims:N, openspiel:N"),
    ] = "random,greedy,level:1,level:3,level:5",
    games_per_pair: Annotated[int, typer.Option("--games", help="games per pair of entrants")] = 20,
    players: Annotated[int, typer.Option(help="seats at the table (entrants alternate)")] = 2,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    ray: RayOpt = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="write the results as JSON")] = None,
    plot: Annotated[Path | None, typer.Option(help="write a PNG of strength vs thinking time")] = None,
) -> None:
    """A round robin between AI configurations, with Bradley–Terry ratings (docs/search.md)."""
    import json as json_module

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from batch.report import pair_table, ratings_table
    from batch.tournament import run
    from games.errors import LictorError

    names = [e.strip() for e in entrants.split(",") if e.strip()]
    with Progress("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as bar:
        task = bar.add_task(f"{game}: {len(names)} entrants", total=None)
        try:
            result = run(
                game,
                names,
                games=games_per_pair,
                players=players,
                seed=seed,
                jobs=jobs,
                ray_address=ray,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
        except LictorError as exc:
            console.print(f"[red]{exc.message}[/red]")
            raise typer.Exit(2) from None
    console.print(ratings_table(result))
    console.print(pair_table(result))
    if json_out is not None:
        json_out.write_text(json_module.dumps(result.to_json(), indent=1) + "\n")
        console.print(f"wrote {json_out}")
    if plot is not None:
        from batch.plots import strength_plot

        console.print(f"wrote {strength_plot(result, plot)}")


def train(
    *,
    game: Annotated[str, typer.Argument(help="the game (one that ships a 'fitted' evaluator)")],
    games_count: Annotated[int, typer.Option("--games", help="self-play games")] = 120,
    players: Annotated[int, typer.Option(help="seats at the table")] = 2,
    simulations: Annotated[int, typer.Option(help="simulations per move of every seat")] = 32,
    evaluator: Annotated[
        str, typer.Option(help="the evaluator the seats search with ('' = the hand-written one)")
    ] = "",
    option: Annotated[
        list[str] | None, typer.Option("--option", help="a game option NAME=VALUE (repeatable)")
    ] = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    ray: RayOpt = None,
    out: Annotated[Path | None, typer.Option(help="write the fitted model here (JSON)")] = None,
    save_games: Annotated[
        Path | None, typer.Option("--save-games", help="write the self-play games here (JSON lines)")
    ] = None,
    from_games: Annotated[
        Path | None, typer.Option("--from-games", help="fit games saved before instead of playing")
    ] = None,
    prior_out: Annotated[
        Path | None, typer.Option("--prior-out", help="also fit the move prior to the visits, written here")
    ] = None,
    prior_sample: Annotated[float, typer.Option(help="share of the decisions recorded for the prior")] = 0.5,
    prior_simulations: Annotated[int, typer.Option(help="label them by a search this long (0: seat's)")] = 0,
) -> None:
    """Self-play, then fit the game's win model and, with --prior-out, its move prior
    (batch/selfplay.py, batch/priorfit.py; docs/search.md)."""
    import shlex

    from batch.selfplay import PriorLabels, load_games

    command = "lictor train " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    model = _run_training(
        game,
        games=games_count,
        players=players,
        seed=seed,
        simulations=simulations,
        evaluator=evaluator,
        options=_train_options(option or []),
        jobs=jobs,
        ray_address=ray,
        command=command,
        save=None if save_games is None else str(save_games),
        played=None if from_games is None else load_games(str(from_games)),
        prior=PriorLabels(prior_sample, prior_simulations) if prior_out is not None else None,
    )
    prior = model.pop("prior", None)
    _print_model(model, players, out)
    if prior_out is not None:
        _print_prior(prior, prior_out)


def _run_training(game: str, *, games: int, **kwargs: Any) -> dict[str, Any]:
    """``batch.selfplay.train`` under a progress bar; a LictorError is printed and exits 2."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from batch.selfplay import train as run_training
    from games.errors import LictorError

    with Progress("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as bar:
        task = bar.add_task(f"{game}: self-play", total=games)
        try:
            return run_training(
                game,
                games=games,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                **kwargs,
            )
        except LictorError as exc:
            console.print(f"[red]{exc.message}[/red]")
            raise typer.Exit(2) from None


def _train_options(items: list[str]) -> dict[str, Any]:
    """``--option NAME=VALUE`` items as game options (a whole number as an int)."""
    options: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise typer.BadParameter(f"{item!r}: NAME=VALUE", param_hint="--option")
        options[name] = int(value) if value.lstrip("-").isdigit() else value
    return options


def _print_prior(prior: dict[str, Any] | None, out: Path) -> None:
    """The fitted move prior: its held-out scores and a weight per move feature (written to ``out``)."""
    import json as json_module

    if prior is None:
        console.print("[red]no decision was recorded for the prior: the game gives no move features[/red]")
        raise typer.Exit(2)
    console.print(f"prior, held out: {prior['training']['held_out']}")
    for name, weight in zip(prior["features"], prior["weights"]["*"], strict=True):
        console.print(f"  {weight:+.4f}  {name}")
    out.write_text(json_module.dumps(prior, indent=1) + "\n")
    console.print(f"wrote {out}")


def _print_model(model: dict[str, Any], players: int, out: Path | None) -> None:
    """The fitted model: its held-out log-loss and a weight per feature (written to ``out`` too)."""
    import json as json_module

    held = model["training"]["held_out"]
    console.print(f"held-out log-loss: {held}")
    for name, weight in zip(model["features"], model["weights"][str(players)], strict=True):
        console.print(f"  {weight:+.4f}  {name}")
    if out is not None:
        out.write_text(json_module.dumps(model, indent=1) + "\n")
        console.print(f"wrote {out}")
