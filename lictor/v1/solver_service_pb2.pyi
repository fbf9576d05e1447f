from lictor.v1 import position_pb2 as _position_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SolveStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SOLVE_STATUS_UNSPECIFIED: _ClassVar[SolveStatus]
    SOLVE_STATUS_OPTIMAL: _ClassVar[SolveStatus]
    SOLVE_STATUS_FEASIBLE: _ClassVar[SolveStatus]
    SOLVE_STATUS_INFEASIBLE: _ClassVar[SolveStatus]
    SOLVE_STATUS_UNKNOWN: _ClassVar[SolveStatus]
SOLVE_STATUS_UNSPECIFIED: SolveStatus
SOLVE_STATUS_OPTIMAL: SolveStatus
SOLVE_STATUS_FEASIBLE: SolveStatus
SOLVE_STATUS_INFEASIBLE: SolveStatus
SOLVE_STATUS_UNKNOWN: SolveStatus

class ScoreRequest(_message.Message):
    __slots__ = ("position",)
    POSITION_FIELD_NUMBER: _ClassVar[int]
    position: _position_pb2.Position
    def __init__(self, position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ...) -> None: ...

class ScoreLine(_message.Message):
    __slots__ = ("category", "points", "detail")
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    category: str
    points: float
    detail: str
    def __init__(self, category: _Optional[str] = ..., points: _Optional[float] = ..., detail: _Optional[str] = ...) -> None: ...

class SeatScore(_message.Message):
    __slots__ = ("seat", "total", "rank", "breakdown", "tiebreak")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_FIELD_NUMBER: _ClassVar[int]
    TIEBREAK_FIELD_NUMBER: _ClassVar[int]
    seat: int
    total: float
    rank: int
    breakdown: _containers.RepeatedCompositeFieldContainer[ScoreLine]
    tiebreak: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., total: _Optional[float] = ..., rank: _Optional[int] = ..., breakdown: _Optional[_Iterable[_Union[ScoreLine, _Mapping]]] = ..., tiebreak: _Optional[_Iterable[str]] = ...) -> None: ...

class ScoreResponse(_message.Message):
    __slots__ = ("game", "final", "seats", "ended_by")
    GAME_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    ENDED_BY_FIELD_NUMBER: _ClassVar[int]
    game: str
    final: bool
    seats: _containers.RepeatedCompositeFieldContainer[SeatScore]
    ended_by: str
    def __init__(self, game: _Optional[str] = ..., final: bool = ..., seats: _Optional[_Iterable[_Union[SeatScore, _Mapping]]] = ..., ended_by: _Optional[str] = ...) -> None: ...

class SolveLimits(_message.Message):
    __slots__ = ("time_limit_s", "workers")
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    time_limit_s: float
    workers: int
    def __init__(self, time_limit_s: _Optional[float] = ..., workers: _Optional[int] = ...) -> None: ...

class GenericPuzzle(_message.Message):
    __slots__ = ("kind", "params_json")
    KIND_FIELD_NUMBER: _ClassVar[int]
    PARAMS_JSON_FIELD_NUMBER: _ClassVar[int]
    kind: str
    params_json: str
    def __init__(self, kind: _Optional[str] = ..., params_json: _Optional[str] = ...) -> None: ...

class TiberiusBestBidPuzzle(_message.Message):
    __slots__ = ("others",)
    class OthersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: int
        value: str
        def __init__(self, key: _Optional[int] = ..., value: _Optional[str] = ...) -> None: ...
    OTHERS_FIELD_NUMBER: _ClassVar[int]
    others: _containers.ScalarMap[int, str]
    def __init__(self, others: _Optional[_Mapping[int, str]] = ...) -> None: ...

class TiberiusBestPlacementPuzzle(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TiberiusEliminationPuzzle(_message.Message):
    __slots__ = ("seat", "max_nodes")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MAX_NODES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    max_nodes: int
    def __init__(self, seat: _Optional[int] = ..., max_nodes: _Optional[int] = ...) -> None: ...

class TiberpunkQuestOddsPuzzle(_message.Message):
    __slots__ = ("skill", "stage", "mini", "dice", "need", "gadgets", "rolls", "per_roll", "dice_per_gadget")
    SKILL_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    MINI_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    NEED_FIELD_NUMBER: _ClassVar[int]
    GADGETS_FIELD_NUMBER: _ClassVar[int]
    ROLLS_FIELD_NUMBER: _ClassVar[int]
    PER_ROLL_FIELD_NUMBER: _ClassVar[int]
    DICE_PER_GADGET_FIELD_NUMBER: _ClassVar[int]
    skill: str
    stage: int
    mini: str
    dice: int
    need: _containers.RepeatedScalarFieldContainer[int]
    gadgets: _containers.RepeatedScalarFieldContainer[int]
    rolls: int
    per_roll: int
    dice_per_gadget: int
    def __init__(self, skill: _Optional[str] = ..., stage: _Optional[int] = ..., mini: _Optional[str] = ..., dice: _Optional[int] = ..., need: _Optional[_Iterable[int]] = ..., gadgets: _Optional[_Iterable[int]] = ..., rolls: _Optional[int] = ..., per_roll: _Optional[int] = ..., dice_per_gadget: _Optional[int] = ...) -> None: ...

class TiberpunkRoutePlanPuzzle(_message.Message):
    __slots__ = ("mini", "to", "coins")
    MINI_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    mini: str
    to: str
    coins: int
    def __init__(self, mini: _Optional[str] = ..., to: _Optional[str] = ..., coins: _Optional[int] = ...) -> None: ...

class SolveRequest(_message.Message):
    __slots__ = ("position", "limits", "generic", "tiberius_best_bid", "tiberius_best_placement", "tiberius_elimination", "tiberpunk_quest_odds", "tiberpunk_route_plan")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    GENERIC_FIELD_NUMBER: _ClassVar[int]
    TIBERIUS_BEST_BID_FIELD_NUMBER: _ClassVar[int]
    TIBERIUS_BEST_PLACEMENT_FIELD_NUMBER: _ClassVar[int]
    TIBERIUS_ELIMINATION_FIELD_NUMBER: _ClassVar[int]
    TIBERPUNK_QUEST_ODDS_FIELD_NUMBER: _ClassVar[int]
    TIBERPUNK_ROUTE_PLAN_FIELD_NUMBER: _ClassVar[int]
    position: _position_pb2.Position
    limits: SolveLimits
    generic: GenericPuzzle
    tiberius_best_bid: TiberiusBestBidPuzzle
    tiberius_best_placement: TiberiusBestPlacementPuzzle
    tiberius_elimination: TiberiusEliminationPuzzle
    tiberpunk_quest_odds: TiberpunkQuestOddsPuzzle
    tiberpunk_route_plan: TiberpunkRoutePlanPuzzle
    def __init__(self, position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., limits: _Optional[_Union[SolveLimits, _Mapping]] = ..., generic: _Optional[_Union[GenericPuzzle, _Mapping]] = ..., tiberius_best_bid: _Optional[_Union[TiberiusBestBidPuzzle, _Mapping]] = ..., tiberius_best_placement: _Optional[_Union[TiberiusBestPlacementPuzzle, _Mapping]] = ..., tiberius_elimination: _Optional[_Union[TiberiusEliminationPuzzle, _Mapping]] = ..., tiberpunk_quest_odds: _Optional[_Union[TiberpunkQuestOddsPuzzle, _Mapping]] = ..., tiberpunk_route_plan: _Optional[_Union[TiberpunkRoutePlanPuzzle, _Mapping]] = ...) -> None: ...

class SolveResponse(_message.Message):
    __slots__ = ("kind", "status", "objective", "bound", "answer_json", "explanation", "method", "wall_s")
    KIND_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    BOUND_FIELD_NUMBER: _ClassVar[int]
    ANSWER_JSON_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    WALL_S_FIELD_NUMBER: _ClassVar[int]
    kind: str
    status: SolveStatus
    objective: float
    bound: float
    answer_json: str
    explanation: str
    method: str
    wall_s: float
    def __init__(self, kind: _Optional[str] = ..., status: _Optional[_Union[SolveStatus, str]] = ..., objective: _Optional[float] = ..., bound: _Optional[float] = ..., answer_json: _Optional[str] = ..., explanation: _Optional[str] = ..., method: _Optional[str] = ..., wall_s: _Optional[float] = ...) -> None: ...
