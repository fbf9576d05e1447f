from lictor.v1 import position_pb2 as _position_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ViewerRole(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VIEWER_ROLE_UNSPECIFIED: _ClassVar[ViewerRole]
    VIEWER_ROLE_SEAT: _ClassVar[ViewerRole]
    VIEWER_ROLE_SPECTATOR: _ClassVar[ViewerRole]
    VIEWER_ROLE_REFEREE: _ClassVar[ViewerRole]

class RenderFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RENDER_FORMAT_UNSPECIFIED: _ClassVar[RenderFormat]
    RENDER_FORMAT_SVG: _ClassVar[RenderFormat]
    RENDER_FORMAT_PNG: _ClassVar[RenderFormat]
VIEWER_ROLE_UNSPECIFIED: ViewerRole
VIEWER_ROLE_SEAT: ViewerRole
VIEWER_ROLE_SPECTATOR: ViewerRole
VIEWER_ROLE_REFEREE: ViewerRole
RENDER_FORMAT_UNSPECIFIED: RenderFormat
RENDER_FORMAT_SVG: RenderFormat
RENDER_FORMAT_PNG: RenderFormat

class Variant(_message.Message):
    __slots__ = ("name", "description", "default_value", "choices")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    default_value: _position_pb2.OptionValue
    choices: _containers.RepeatedCompositeFieldContainer[_position_pb2.OptionValue]
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., default_value: _Optional[_Union[_position_pb2.OptionValue, _Mapping]] = ..., choices: _Optional[_Iterable[_Union[_position_pb2.OptionValue, _Mapping]]] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("name", "title", "min_players", "max_players", "variants", "content_version", "hidden_information", "stochastic", "has_scorer", "puzzle_kinds", "engines")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    CONTENT_VERSION_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_INFORMATION_FIELD_NUMBER: _ClassVar[int]
    STOCHASTIC_FIELD_NUMBER: _ClassVar[int]
    HAS_SCORER_FIELD_NUMBER: _ClassVar[int]
    PUZZLE_KINDS_FIELD_NUMBER: _ClassVar[int]
    ENGINES_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    min_players: int
    max_players: int
    variants: _containers.RepeatedCompositeFieldContainer[Variant]
    content_version: str
    hidden_information: bool
    stochastic: bool
    has_scorer: bool
    puzzle_kinds: _containers.RepeatedScalarFieldContainer[str]
    engines: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., variants: _Optional[_Iterable[_Union[Variant, _Mapping]]] = ..., content_version: _Optional[str] = ..., hidden_information: bool = ..., stochastic: bool = ..., has_scorer: bool = ..., puzzle_kinds: _Optional[_Iterable[str]] = ..., engines: _Optional[_Iterable[str]] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    def __init__(self, games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ...) -> None: ...

class NewGameRequest(_message.Message):
    __slots__ = ("game", "setup", "content_pack")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    CONTENT_PACK_FIELD_NUMBER: _ClassVar[int]
    game: str
    setup: _position_pb2.GameSetup
    content_pack: str
    def __init__(self, game: _Optional[str] = ..., setup: _Optional[_Union[_position_pb2.GameSetup, _Mapping]] = ..., content_pack: _Optional[str] = ...) -> None: ...

class NewGameResponse(_message.Message):
    __slots__ = ("position", "summary")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    position: _position_pb2.Position
    summary: _position_pb2.PositionSummary
    def __init__(self, position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., summary: _Optional[_Union[_position_pb2.PositionSummary, _Mapping]] = ...) -> None: ...

class GetLegalActionsRequest(_message.Message):
    __slots__ = ("position",)
    POSITION_FIELD_NUMBER: _ClassVar[int]
    position: _position_pb2.Position
    def __init__(self, position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ...) -> None: ...

class LegalAction(_message.Message):
    __slots__ = ("text", "probability", "action")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    text: str
    probability: float
    action: _position_pb2.Action
    def __init__(self, text: _Optional[str] = ..., probability: _Optional[float] = ..., action: _Optional[_Union[_position_pb2.Action, _Mapping]] = ...) -> None: ...

class GetLegalActionsResponse(_message.Message):
    __slots__ = ("actions", "summary")
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    actions: _containers.RepeatedCompositeFieldContainer[LegalAction]
    summary: _position_pb2.PositionSummary
    def __init__(self, actions: _Optional[_Iterable[_Union[LegalAction, _Mapping]]] = ..., summary: _Optional[_Union[_position_pb2.PositionSummary, _Mapping]] = ...) -> None: ...

class ApplyActionRequest(_message.Message):
    __slots__ = ("position", "action", "resolve_chance", "chance_seed")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    RESOLVE_CHANCE_FIELD_NUMBER: _ClassVar[int]
    CHANCE_SEED_FIELD_NUMBER: _ClassVar[int]
    position: _position_pb2.Position
    action: _position_pb2.Action
    resolve_chance: bool
    chance_seed: int
    def __init__(self, position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., action: _Optional[_Union[_position_pb2.Action, _Mapping]] = ..., resolve_chance: bool = ..., chance_seed: _Optional[int] = ...) -> None: ...

class ApplyActionResponse(_message.Message):
    __slots__ = ("position", "events", "summary")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    position: _position_pb2.Position
    events: _containers.RepeatedCompositeFieldContainer[_position_pb2.Event]
    summary: _position_pb2.PositionSummary
    def __init__(self, position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_position_pb2.Event, _Mapping]]] = ..., summary: _Optional[_Union[_position_pb2.PositionSummary, _Mapping]] = ...) -> None: ...

class ValidateStateRequest(_message.Message):
    __slots__ = ("position",)
    POSITION_FIELD_NUMBER: _ClassVar[int]
    position: _position_pb2.Position
    def __init__(self, position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ...) -> None: ...

class Problem(_message.Message):
    __slots__ = ("field", "rule", "message")
    FIELD_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    field: str
    rule: str
    message: str
    def __init__(self, field: _Optional[str] = ..., rule: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class ValidateStateResponse(_message.Message):
    __slots__ = ("valid", "problems", "summary")
    VALID_FIELD_NUMBER: _ClassVar[int]
    PROBLEMS_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    valid: bool
    problems: _containers.RepeatedCompositeFieldContainer[Problem]
    summary: _position_pb2.PositionSummary
    def __init__(self, valid: bool = ..., problems: _Optional[_Iterable[_Union[Problem, _Mapping]]] = ..., summary: _Optional[_Union[_position_pb2.PositionSummary, _Mapping]] = ...) -> None: ...

class GetContentRequest(_message.Message):
    __slots__ = ("game", "content_pack", "if_none_match")
    GAME_FIELD_NUMBER: _ClassVar[int]
    CONTENT_PACK_FIELD_NUMBER: _ClassVar[int]
    IF_NONE_MATCH_FIELD_NUMBER: _ClassVar[int]
    game: str
    content_pack: str
    if_none_match: str
    def __init__(self, game: _Optional[str] = ..., content_pack: _Optional[str] = ..., if_none_match: _Optional[str] = ...) -> None: ...

class ContentItem(_message.Message):
    __slots__ = ("id", "kind", "name", "text", "values_json", "authored")
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    VALUES_JSON_FIELD_NUMBER: _ClassVar[int]
    AUTHORED_FIELD_NUMBER: _ClassVar[int]
    id: str
    kind: str
    name: str
    text: str
    values_json: str
    authored: bool
    def __init__(self, id: _Optional[str] = ..., kind: _Optional[str] = ..., name: _Optional[str] = ..., text: _Optional[str] = ..., values_json: _Optional[str] = ..., authored: bool = ...) -> None: ...

class GetContentResponse(_message.Message):
    __slots__ = ("game", "version", "digest", "items", "kinds", "notes", "not_modified")
    GAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    NOT_MODIFIED_FIELD_NUMBER: _ClassVar[int]
    game: str
    version: str
    digest: str
    items: _containers.RepeatedCompositeFieldContainer[ContentItem]
    kinds: _containers.RepeatedScalarFieldContainer[str]
    notes: str
    not_modified: bool
    def __init__(self, game: _Optional[str] = ..., version: _Optional[str] = ..., digest: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ContentItem, _Mapping]]] = ..., kinds: _Optional[_Iterable[str]] = ..., notes: _Optional[str] = ..., not_modified: bool = ...) -> None: ...

class Viewer(_message.Message):
    __slots__ = ("role", "seat")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    role: ViewerRole
    seat: int
    def __init__(self, role: _Optional[_Union[ViewerRole, str]] = ..., seat: _Optional[int] = ...) -> None: ...

class DescriptionRow(_message.Message):
    __slots__ = ("label", "value", "seat")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    label: str
    value: str
    seat: int
    def __init__(self, label: _Optional[str] = ..., value: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class DescriptionSection(_message.Message):
    __slots__ = ("title", "rows", "lines", "seat")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    title: str
    rows: _containers.RepeatedCompositeFieldContainer[DescriptionRow]
    lines: _containers.RepeatedScalarFieldContainer[str]
    seat: int
    def __init__(self, title: _Optional[str] = ..., rows: _Optional[_Iterable[_Union[DescriptionRow, _Mapping]]] = ..., lines: _Optional[_Iterable[str]] = ..., seat: _Optional[int] = ...) -> None: ...

class Description(_message.Message):
    __slots__ = ("game", "viewer", "headline", "step", "sections", "text")
    GAME_FIELD_NUMBER: _ClassVar[int]
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    HEADLINE_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    SECTIONS_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    game: str
    viewer: Viewer
    headline: str
    step: str
    sections: _containers.RepeatedCompositeFieldContainer[DescriptionSection]
    text: str
    def __init__(self, game: _Optional[str] = ..., viewer: _Optional[_Union[Viewer, _Mapping]] = ..., headline: _Optional[str] = ..., step: _Optional[str] = ..., sections: _Optional[_Iterable[_Union[DescriptionSection, _Mapping]]] = ..., text: _Optional[str] = ...) -> None: ...

class DescribeRequest(_message.Message):
    __slots__ = ("position", "viewer", "width")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    position: _position_pb2.Position
    viewer: Viewer
    width: int
    def __init__(self, position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., viewer: _Optional[_Union[Viewer, _Mapping]] = ..., width: _Optional[int] = ...) -> None: ...

class DescribeResponse(_message.Message):
    __slots__ = ("description", "current_player")
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PLAYER_FIELD_NUMBER: _ClassVar[int]
    description: Description
    current_player: int
    def __init__(self, description: _Optional[_Union[Description, _Mapping]] = ..., current_player: _Optional[int] = ...) -> None: ...

class RenderRequest(_message.Message):
    __slots__ = ("position", "viewer", "format")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    position: _position_pb2.Position
    viewer: Viewer
    format: RenderFormat
    def __init__(self, position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., viewer: _Optional[_Union[Viewer, _Mapping]] = ..., format: _Optional[_Union[RenderFormat, str]] = ...) -> None: ...

class RenderResponse(_message.Message):
    __slots__ = ("image", "media_type")
    IMAGE_FIELD_NUMBER: _ClassVar[int]
    MEDIA_TYPE_FIELD_NUMBER: _ClassVar[int]
    image: bytes
    media_type: str
    def __init__(self, image: _Optional[bytes] = ..., media_type: _Optional[str] = ...) -> None: ...

class DescribeActionRequest(_message.Message):
    __slots__ = ("position", "action", "viewer")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    position: _position_pb2.Position
    action: _position_pb2.Action
    viewer: Viewer
    def __init__(self, position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., action: _Optional[_Union[_position_pb2.Action, _Mapping]] = ..., viewer: _Optional[_Union[Viewer, _Mapping]] = ...) -> None: ...

class DescribeActionResponse(_message.Message):
    __slots__ = ("log_line", "action", "seat")
    LOG_LINE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    log_line: str
    action: str
    seat: int
    def __init__(self, log_line: _Optional[str] = ..., action: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class GetSchemaRequest(_message.Message):
    __slots__ = ("game", "content_pack")
    GAME_FIELD_NUMBER: _ClassVar[int]
    CONTENT_PACK_FIELD_NUMBER: _ClassVar[int]
    game: str
    content_pack: str
    def __init__(self, game: _Optional[str] = ..., content_pack: _Optional[str] = ...) -> None: ...

class PuzzleSchema(_message.Message):
    __slots__ = ("kind", "summary", "params_schema_json")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    PARAMS_SCHEMA_JSON_FIELD_NUMBER: _ClassVar[int]
    kind: str
    summary: str
    params_schema_json: str
    def __init__(self, kind: _Optional[str] = ..., summary: _Optional[str] = ..., params_schema_json: _Optional[str] = ...) -> None: ...

class GetSchemaResponse(_message.Message):
    __slots__ = ("game", "state_schema_json", "score_sheet_schema_json", "puzzles")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATE_SCHEMA_JSON_FIELD_NUMBER: _ClassVar[int]
    SCORE_SHEET_SCHEMA_JSON_FIELD_NUMBER: _ClassVar[int]
    PUZZLES_FIELD_NUMBER: _ClassVar[int]
    game: str
    state_schema_json: str
    score_sheet_schema_json: str
    puzzles: _containers.RepeatedCompositeFieldContainer[PuzzleSchema]
    def __init__(self, game: _Optional[str] = ..., state_schema_json: _Optional[str] = ..., score_sheet_schema_json: _Optional[str] = ..., puzzles: _Optional[_Iterable[_Union[PuzzleSchema, _Mapping]]] = ...) -> None: ...
