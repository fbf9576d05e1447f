from lictor.v1 import tiberius_pb2 as _tiberius_pb2
from lictor.v1 import tiberpunk_pb2 as _tiberpunk_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class EventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_KIND_UNSPECIFIED: _ClassVar[EventKind]
    EVENT_KIND_ACTION: _ClassVar[EventKind]
    EVENT_KIND_CHANCE: _ClassVar[EventKind]
    EVENT_KIND_RESIGN: _ClassVar[EventKind]
    EVENT_KIND_GAME_OVER: _ClassVar[EventKind]
    EVENT_KIND_CREATED: _ClassVar[EventKind]
EVENT_KIND_UNSPECIFIED: EventKind
EVENT_KIND_ACTION: EventKind
EVENT_KIND_CHANCE: EventKind
EVENT_KIND_RESIGN: EventKind
EVENT_KIND_GAME_OVER: EventKind
EVENT_KIND_CREATED: EventKind

class OptionValue(_message.Message):
    __slots__ = ("text", "integer", "real", "flag")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    INTEGER_FIELD_NUMBER: _ClassVar[int]
    REAL_FIELD_NUMBER: _ClassVar[int]
    FLAG_FIELD_NUMBER: _ClassVar[int]
    text: str
    integer: int
    real: float
    flag: bool
    def __init__(self, text: _Optional[str] = ..., integer: _Optional[int] = ..., real: _Optional[float] = ..., flag: bool = ...) -> None: ...

class GameSetup(_message.Message):
    __slots__ = ("players", "options", "seed")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: OptionValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[OptionValue, _Mapping]] = ...) -> None: ...
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    players: int
    options: _containers.MessageMap[str, OptionValue]
    seed: int
    def __init__(self, players: _Optional[int] = ..., options: _Optional[_Mapping[str, OptionValue]] = ..., seed: _Optional[int] = ...) -> None: ...

class GameRecord(_message.Message):
    __slots__ = ("setup", "actions")
    SETUP_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    setup: GameSetup
    actions: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, setup: _Optional[_Union[GameSetup, _Mapping]] = ..., actions: _Optional[_Iterable[str]] = ...) -> None: ...

class Position(_message.Message):
    __slots__ = ("game", "content_pack", "record", "state_json", "state_text", "tiberpunk", "tiberius", "score_sheet_json")
    GAME_FIELD_NUMBER: _ClassVar[int]
    CONTENT_PACK_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    STATE_TEXT_FIELD_NUMBER: _ClassVar[int]
    TIBERPUNK_FIELD_NUMBER: _ClassVar[int]
    TIBERIUS_FIELD_NUMBER: _ClassVar[int]
    SCORE_SHEET_JSON_FIELD_NUMBER: _ClassVar[int]
    game: str
    content_pack: str
    record: GameRecord
    state_json: str
    state_text: str
    tiberpunk: _tiberpunk_pb2.TiberpunkState
    tiberius: _tiberius_pb2.TiberiusState
    score_sheet_json: str
    def __init__(self, game: _Optional[str] = ..., content_pack: _Optional[str] = ..., record: _Optional[_Union[GameRecord, _Mapping]] = ..., state_json: _Optional[str] = ..., state_text: _Optional[str] = ..., tiberpunk: _Optional[_Union[_tiberpunk_pb2.TiberpunkState, _Mapping]] = ..., tiberius: _Optional[_Union[_tiberius_pb2.TiberiusState, _Mapping]] = ..., score_sheet_json: _Optional[str] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("text", "tiberius", "tiberpunk")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TIBERIUS_FIELD_NUMBER: _ClassVar[int]
    TIBERPUNK_FIELD_NUMBER: _ClassVar[int]
    text: str
    tiberius: _tiberius_pb2.TiberiusAction
    tiberpunk: _tiberpunk_pb2.TiberpunkAction
    def __init__(self, text: _Optional[str] = ..., tiberius: _Optional[_Union[_tiberius_pb2.TiberiusAction, _Mapping]] = ..., tiberpunk: _Optional[_Union[_tiberpunk_pb2.TiberpunkAction, _Mapping]] = ...) -> None: ...

class PositionSummary(_message.Message):
    __slots__ = ("game", "players", "current_player", "chance", "terminal", "returns", "state_json", "state_text", "move_number")
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PLAYER_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    TERMINAL_FIELD_NUMBER: _ClassVar[int]
    RETURNS_FIELD_NUMBER: _ClassVar[int]
    STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    STATE_TEXT_FIELD_NUMBER: _ClassVar[int]
    MOVE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    game: str
    players: int
    current_player: int
    chance: bool
    terminal: bool
    returns: _containers.RepeatedScalarFieldContainer[float]
    state_json: str
    state_text: str
    move_number: int
    def __init__(self, game: _Optional[str] = ..., players: _Optional[int] = ..., current_player: _Optional[int] = ..., chance: bool = ..., terminal: bool = ..., returns: _Optional[_Iterable[float]] = ..., state_json: _Optional[str] = ..., state_text: _Optional[str] = ..., move_number: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("kind", "move_number", "seat", "action", "description", "returns")
    KIND_FIELD_NUMBER: _ClassVar[int]
    MOVE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    RETURNS_FIELD_NUMBER: _ClassVar[int]
    kind: EventKind
    move_number: int
    seat: int
    action: str
    description: str
    returns: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, kind: _Optional[_Union[EventKind, str]] = ..., move_number: _Optional[int] = ..., seat: _Optional[int] = ..., action: _Optional[str] = ..., description: _Optional[str] = ..., returns: _Optional[_Iterable[float]] = ...) -> None: ...
