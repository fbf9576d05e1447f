"""Pictures of a tournament (matplotlib, an optional dependency: ``pip install 'lictor[plots]'``)."""

from __future__ import annotations

from pathlib import Path

from batch.tournament import TournamentResult, budget_of
from games.errors import ConfigError

__all__ = ["strength_plot"]


def strength_plot(result: TournamentResult, path: Path) -> Path:
    """A PNG of strength (Elo, 95% interval) against thinking time (simulations a move, log scale)
    for the search entrants; the others (random, greedy, engines) as labelled horizontal lines."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ConfigError("plots need matplotlib: pip install 'lictor[plots]'", field="plot") from None
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=120)
    searched = [(budget_of(r.name), r) for r in result.ratings if budget_of(r.name) is not None]
    searched.sort(key=lambda x: x[0] or 0)
    if searched:
        xs = [float(b or 1) for b, _ in searched]
        ys = [r.elo for _, r in searched]
        err = [[r.elo - r.low for _, r in searched], [r.high - r.elo for _, r in searched]]
        ax.errorbar(xs, ys, yerr=err, fmt="o-", color="#1f5fa8", capsize=4, label="search")
        for x, (_, r) in zip(xs, searched, strict=True):
            ax.annotate(r.name, (x, r.elo), textcoords="offset points", xytext=(6, -12), fontsize=8)
        ax.set_xscale("log")
        ax.set_xticks(xs, [f"{x:g}" for x in xs])
        ax.minorticks_off()
        ax.set_xlim(min(xs) / 1.6, max(xs) * 1.6)
    colours = ["#b33a3a", "#3a8f3a", "#8a5a00", "#6a3d9a"]
    others = [r for r in result.ratings if budget_of(r.name) is None]
    for k, r in enumerate(others):
        ax.axhline(r.elo, color=colours[k % len(colours)], linestyle="--", linewidth=1)
        ax.axhspan(r.low, r.high, color=colours[k % len(colours)], alpha=0.08)
        ax.text(
            1.0,
            r.elo,
            f" {r.name}",
            color=colours[k % len(colours)],
            fontsize=8,
            transform=ax.get_yaxis_transform(),
            va="bottom",
            ha="right",
        )
    ax.set_xlabel("simulations a move (log scale)")
    ax.set_ylabel("strength (Elo, Bradley–Terry; 95% bootstrap interval)")
    games = len(result.results)
    ax.set_title(f"{result.game}: strength vs thinking time ({games} games)")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path)
    plt.close(fig)
    return path
