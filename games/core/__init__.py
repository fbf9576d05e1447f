"""The Game protocol, its registry, seeded RNG helpers, content packs and the conformance check."""

from games.core.check import CheckReport, GameCheckError, check_game, random_playout
from games.core.content import Node, PackManifest, load_json, load_manifest, resolve_pack_dir
from games.core.face import (
    REFEREE,
    SPECTATOR,
    Catalogue,
    ContentItem,
    Description,
    Fact,
    Row,
    Section,
    Viewer,
    as_facts,
)
from games.core.protocol import CHANCE, TERMINAL, Game, GameConfig, GameInfo, Seat, Variant
from games.core.registry import game_names, get_game, list_games, register_game, unregister_game
from games.core.rng import derive_seed, make_rng

__all__ = [
    "CHANCE",
    "REFEREE",
    "SPECTATOR",
    "TERMINAL",
    "Catalogue",
    "CheckReport",
    "ContentItem",
    "Description",
    "Fact",
    "Game",
    "GameCheckError",
    "GameConfig",
    "GameInfo",
    "Node",
    "PackManifest",
    "Row",
    "Seat",
    "Section",
    "Variant",
    "Viewer",
    "as_facts",
    "check_game",
    "derive_seed",
    "game_names",
    "get_game",
    "list_games",
    "load_json",
    "load_manifest",
    "make_rng",
    "random_playout",
    "register_game",
    "resolve_pack_dir",
    "unregister_game",
]
