"""Hosted matches: the model (views, secrets), the SQLite store, the AI seats' scheduler, the servicer."""

from service.matches.model import FULL_VIEW, PUBLIC_VIEW, LiveMatch, SeatSpec, View, commitment, hash_secret
from service.matches.seats import AiSeats
from service.matches.servicer import MatchServicer, StreamGate
from service.matches.store import MatchStore, StoreError

__all__ = [
    "FULL_VIEW",
    "PUBLIC_VIEW",
    "AiSeats",
    "LiveMatch",
    "MatchServicer",
    "MatchStore",
    "SeatSpec",
    "StoreError",
    "StreamGate",
    "View",
    "commitment",
    "hash_secret",
]
