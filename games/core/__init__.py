"""The Game protocol, its registry, seeded RNG helpers, content packs and the conformance check."""

from games.core.check import CheckReport, GameCheckError, check_game, random_playout
from games.core.content import Node, PackManifest, load_json, load_manifest, resolve_pack_dir
from games.core.protocol import CHANCE, TERMINAL, Game, GameConfig, GameInfo, Seat, Variant
from games.core.registry import game_names, get_game, list_games
from games.core.rng import derive_seed, make_rng

__all__ = [
    "CHANCE",
    "TERMINAL",
    "CheckReport",
    "Game",
    "GameCheckError",
    "GameConfig",
    "GameInfo",
    "Node",
    "PackManifest",
    "Seat",
    "Variant",
    "check_game",
    "derive_seed",
    "game_names",
    "get_game",
    "list_games",
    "load_json",
    "load_manifest",
    "make_rng",
    "random_playout",
    "resolve_pack_dir",
]
