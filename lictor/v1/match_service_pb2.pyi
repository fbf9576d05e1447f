from lictor.v1 import position_pb2 as _position_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SeatKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_KIND_UNSPECIFIED: _ClassVar[SeatKind]
    SEAT_KIND_HUMAN: _ClassVar[SeatKind]
    SEAT_KIND_AI: _ClassVar[SeatKind]

class MatchStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_STATUS_UNSPECIFIED: _ClassVar[MatchStatus]
    MATCH_STATUS_ACTIVE: _ClassVar[MatchStatus]
    MATCH_STATUS_FINISHED: _ClassVar[MatchStatus]
    MATCH_STATUS_DAMAGED: _ClassVar[MatchStatus]

class MatchView(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_VIEW_UNSPECIFIED: _ClassVar[MatchView]
    MATCH_VIEW_FULL: _ClassVar[MatchView]
    MATCH_VIEW_SEAT: _ClassVar[MatchView]
    MATCH_VIEW_PUBLIC: _ClassVar[MatchView]
SEAT_KIND_UNSPECIFIED: SeatKind
SEAT_KIND_HUMAN: SeatKind
SEAT_KIND_AI: SeatKind
MATCH_STATUS_UNSPECIFIED: MatchStatus
MATCH_STATUS_ACTIVE: MatchStatus
MATCH_STATUS_FINISHED: MatchStatus
MATCH_STATUS_DAMAGED: MatchStatus
MATCH_VIEW_UNSPECIFIED: MatchView
MATCH_VIEW_FULL: MatchView
MATCH_VIEW_SEAT: MatchView
MATCH_VIEW_PUBLIC: MatchView

class Seat(_message.Message):
    __slots__ = ("kind", "level", "name", "engine")
    KIND_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ENGINE_FIELD_NUMBER: _ClassVar[int]
    kind: SeatKind
    level: int
    name: str
    engine: str
    def __init__(self, kind: _Optional[_Union[SeatKind, str]] = ..., level: _Optional[int] = ..., name: _Optional[str] = ..., engine: _Optional[str] = ...) -> None: ...

class Match(_message.Message):
    __slots__ = ("match_id", "game", "seats", "setup", "status", "move_number", "position", "summary", "returns", "resigned_seat", "created_at", "view", "seat_secrets", "seed_commitment", "damage", "seed_revealed")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    MOVE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    RETURNS_FIELD_NUMBER: _ClassVar[int]
    RESIGNED_SEAT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    SEAT_SECRETS_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    DAMAGE_FIELD_NUMBER: _ClassVar[int]
    SEED_REVEALED_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    setup: _position_pb2.GameSetup
    status: MatchStatus
    move_number: int
    position: _position_pb2.Position
    summary: _position_pb2.PositionSummary
    returns: _containers.RepeatedScalarFieldContainer[float]
    resigned_seat: int
    created_at: float
    view: MatchView
    seat_secrets: bool
    seed_commitment: str
    damage: str
    seed_revealed: bool
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., setup: _Optional[_Union[_position_pb2.GameSetup, _Mapping]] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., move_number: _Optional[int] = ..., position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., summary: _Optional[_Union[_position_pb2.PositionSummary, _Mapping]] = ..., returns: _Optional[_Iterable[float]] = ..., resigned_seat: _Optional[int] = ..., created_at: _Optional[float] = ..., view: _Optional[_Union[MatchView, str]] = ..., seat_secrets: bool = ..., seed_commitment: _Optional[str] = ..., damage: _Optional[str] = ..., seed_revealed: bool = ...) -> None: ...

class SeatSecret(_message.Message):
    __slots__ = ("seat", "secret")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    seat: int
    secret: str
    def __init__(self, seat: _Optional[int] = ..., secret: _Optional[str] = ...) -> None: ...

class CreateMatchRequest(_message.Message):
    __slots__ = ("game", "seats", "options", "seed", "issue_seat_secrets")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _position_pb2.OptionValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_position_pb2.OptionValue, _Mapping]] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    ISSUE_SEAT_SECRETS_FIELD_NUMBER: _ClassVar[int]
    game: str
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    options: _containers.MessageMap[str, _position_pb2.OptionValue]
    seed: int
    issue_seat_secrets: bool
    def __init__(self, game: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., options: _Optional[_Mapping[str, _position_pb2.OptionValue]] = ..., seed: _Optional[int] = ..., issue_seat_secrets: bool = ...) -> None: ...

class CreateMatchResponse(_message.Message):
    __slots__ = ("match", "seat_secrets")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    SEAT_SECRETS_FIELD_NUMBER: _ClassVar[int]
    match: Match
    seat_secrets: _containers.RepeatedCompositeFieldContainer[SeatSecret]
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ..., seat_secrets: _Optional[_Iterable[_Union[SeatSecret, _Mapping]]] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("match_id", "viewer_seat", "reveal_all", "seat_secret")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    VIEWER_SEAT_FIELD_NUMBER: _ClassVar[int]
    REVEAL_ALL_FIELD_NUMBER: _ClassVar[int]
    SEAT_SECRET_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    viewer_seat: int
    reveal_all: bool
    seat_secret: str
    def __init__(self, match_id: _Optional[str] = ..., viewer_seat: _Optional[int] = ..., reveal_all: bool = ..., seat_secret: _Optional[str] = ...) -> None: ...

class GetMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: Match
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "game", "reveal_all")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    REVEAL_ALL_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    game: str
    reveal_all: bool
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., game: _Optional[str] = ..., reveal_all: bool = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches", "next_page_token")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[Match]
    next_page_token: str
    def __init__(self, matches: _Optional[_Iterable[_Union[Match, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class SubmitActionRequest(_message.Message):
    __slots__ = ("match_id", "seat", "expected_move_number", "action", "seat_secret")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_MOVE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SEAT_SECRET_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    expected_move_number: int
    action: _position_pb2.Action
    seat_secret: str
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., expected_move_number: _Optional[int] = ..., action: _Optional[_Union[_position_pb2.Action, _Mapping]] = ..., seat_secret: _Optional[str] = ...) -> None: ...

class SubmitActionResponse(_message.Message):
    __slots__ = ("match", "events")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    match: Match
    events: _containers.RepeatedCompositeFieldContainer[_position_pb2.Event]
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_position_pb2.Event, _Mapping]]] = ...) -> None: ...

class WatchMatchRequest(_message.Message):
    __slots__ = ("match_id", "from_move_number", "viewer_seat", "reveal_all", "seat_secret")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_MOVE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    VIEWER_SEAT_FIELD_NUMBER: _ClassVar[int]
    REVEAL_ALL_FIELD_NUMBER: _ClassVar[int]
    SEAT_SECRET_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    from_move_number: int
    viewer_seat: int
    reveal_all: bool
    seat_secret: str
    def __init__(self, match_id: _Optional[str] = ..., from_move_number: _Optional[int] = ..., viewer_seat: _Optional[int] = ..., reveal_all: bool = ..., seat_secret: _Optional[str] = ...) -> None: ...

class WatchMatchResponse(_message.Message):
    __slots__ = ("event", "match")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    event: _position_pb2.Event
    match: Match
    def __init__(self, event: _Optional[_Union[_position_pb2.Event, _Mapping]] = ..., match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class ResignMatchRequest(_message.Message):
    __slots__ = ("match_id", "seat", "seat_secret")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_SECRET_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    seat_secret: str
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., seat_secret: _Optional[str] = ...) -> None: ...

class ResignMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: Match
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...
