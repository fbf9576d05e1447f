from lictor.v1 import position_pb2 as _position_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SearchBudget(_message.Message):
    __slots__ = ("simulations", "time_s")
    SIMULATIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_S_FIELD_NUMBER: _ClassVar[int]
    simulations: int
    time_s: float
    def __init__(self, simulations: _Optional[int] = ..., time_s: _Optional[float] = ...) -> None: ...

class Candidate(_message.Message):
    __slots__ = ("action", "visits", "value", "prior", "lcb", "pv", "proven", "proven_value")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    PRIOR_FIELD_NUMBER: _ClassVar[int]
    LCB_FIELD_NUMBER: _ClassVar[int]
    PV_FIELD_NUMBER: _ClassVar[int]
    PROVEN_FIELD_NUMBER: _ClassVar[int]
    PROVEN_VALUE_FIELD_NUMBER: _ClassVar[int]
    action: str
    visits: int
    value: _containers.RepeatedScalarFieldContainer[float]
    prior: float
    lcb: float
    pv: _containers.RepeatedScalarFieldContainer[str]
    proven: bool
    proven_value: float
    def __init__(self, action: _Optional[str] = ..., visits: _Optional[int] = ..., value: _Optional[_Iterable[float]] = ..., prior: _Optional[float] = ..., lcb: _Optional[float] = ..., pv: _Optional[_Iterable[str]] = ..., proven: bool = ..., proven_value: _Optional[float] = ...) -> None: ...

class Analysis(_message.Message):
    __slots__ = ("seat", "candidates", "root_value", "simulations", "elapsed_s", "seed", "final", "stopped_by")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    ROOT_VALUE_FIELD_NUMBER: _ClassVar[int]
    SIMULATIONS_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_S_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    STOPPED_BY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    candidates: _containers.RepeatedCompositeFieldContainer[Candidate]
    root_value: _containers.RepeatedScalarFieldContainer[float]
    simulations: int
    elapsed_s: float
    seed: int
    final: bool
    stopped_by: str
    def __init__(self, seat: _Optional[int] = ..., candidates: _Optional[_Iterable[_Union[Candidate, _Mapping]]] = ..., root_value: _Optional[_Iterable[float]] = ..., simulations: _Optional[int] = ..., elapsed_s: _Optional[float] = ..., seed: _Optional[int] = ..., final: bool = ..., stopped_by: _Optional[str] = ...) -> None: ...

class SuggestActionRequest(_message.Message):
    __slots__ = ("position", "level", "budget", "seed")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    position: _position_pb2.Position
    level: int
    budget: SearchBudget
    seed: int
    def __init__(self, position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., level: _Optional[int] = ..., budget: _Optional[_Union[SearchBudget, _Mapping]] = ..., seed: _Optional[int] = ...) -> None: ...

class SuggestActionResponse(_message.Message):
    __slots__ = ("action", "analysis")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    action: str
    analysis: Analysis
    def __init__(self, action: _Optional[str] = ..., analysis: _Optional[_Union[Analysis, _Mapping]] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("position", "budget", "seed", "report_every_ms", "max_candidates")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    REPORT_EVERY_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    position: _position_pb2.Position
    budget: SearchBudget
    seed: int
    report_every_ms: int
    max_candidates: int
    def __init__(self, position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., budget: _Optional[_Union[SearchBudget, _Mapping]] = ..., seed: _Optional[int] = ..., report_every_ms: _Optional[int] = ..., max_candidates: _Optional[int] = ...) -> None: ...

class AnalyzeResponse(_message.Message):
    __slots__ = ("analysis",)
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    analysis: Analysis
    def __init__(self, analysis: _Optional[_Union[Analysis, _Mapping]] = ...) -> None: ...

class HintRequest(_message.Message):
    __slots__ = ("position", "top_k", "budget", "seed", "seat")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    position: _position_pb2.Position
    top_k: int
    budget: SearchBudget
    seed: int
    seat: int
    def __init__(self, position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., top_k: _Optional[int] = ..., budget: _Optional[_Union[SearchBudget, _Mapping]] = ..., seed: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class Reason(_message.Message):
    __slots__ = ("text", "value", "unit", "sentence")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    UNIT_FIELD_NUMBER: _ClassVar[int]
    SENTENCE_FIELD_NUMBER: _ClassVar[int]
    text: str
    value: float
    unit: str
    sentence: str
    def __init__(self, text: _Optional[str] = ..., value: _Optional[float] = ..., unit: _Optional[str] = ..., sentence: _Optional[str] = ...) -> None: ...

class MoveHint(_message.Message):
    __slots__ = ("rank", "action", "reasons", "candidate")
    RANK_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_FIELD_NUMBER: _ClassVar[int]
    rank: int
    action: str
    reasons: _containers.RepeatedCompositeFieldContainer[Reason]
    candidate: Candidate
    def __init__(self, rank: _Optional[int] = ..., action: _Optional[str] = ..., reasons: _Optional[_Iterable[_Union[Reason, _Mapping]]] = ..., candidate: _Optional[_Union[Candidate, _Mapping]] = ...) -> None: ...

class HintResponse(_message.Message):
    __slots__ = ("seat", "hints", "analysis", "why", "ranked_by", "chance", "separated", "exact")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HINTS_FIELD_NUMBER: _ClassVar[int]
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    WHY_FIELD_NUMBER: _ClassVar[int]
    RANKED_BY_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    SEPARATED_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hints: _containers.RepeatedCompositeFieldContainer[MoveHint]
    analysis: Analysis
    why: str
    ranked_by: str
    chance: bool
    separated: bool
    exact: str
    def __init__(self, seat: _Optional[int] = ..., hints: _Optional[_Iterable[_Union[MoveHint, _Mapping]]] = ..., analysis: _Optional[_Union[Analysis, _Mapping]] = ..., why: _Optional[str] = ..., ranked_by: _Optional[str] = ..., chance: bool = ..., separated: bool = ..., exact: _Optional[str] = ...) -> None: ...

class ReviewRequest(_message.Message):
    __slots__ = ("position", "budget", "seed", "worst")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    WORST_FIELD_NUMBER: _ClassVar[int]
    position: _position_pb2.Position
    budget: SearchBudget
    seed: int
    worst: int
    def __init__(self, position: _Optional[_Union[_position_pb2.Position, _Mapping]] = ..., budget: _Optional[_Union[SearchBudget, _Mapping]] = ..., seed: _Optional[int] = ..., worst: _Optional[int] = ...) -> None: ...

class ReviewedMove(_message.Message):
    __slots__ = ("number", "seat", "action", "log_line", "values", "best_action", "best_value", "played_value", "loss")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    LOG_LINE_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    BEST_ACTION_FIELD_NUMBER: _ClassVar[int]
    BEST_VALUE_FIELD_NUMBER: _ClassVar[int]
    PLAYED_VALUE_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    number: int
    seat: int
    action: str
    log_line: str
    values: _containers.RepeatedScalarFieldContainer[float]
    best_action: str
    best_value: float
    played_value: float
    loss: float
    def __init__(self, number: _Optional[int] = ..., seat: _Optional[int] = ..., action: _Optional[str] = ..., log_line: _Optional[str] = ..., values: _Optional[_Iterable[float]] = ..., best_action: _Optional[str] = ..., best_value: _Optional[float] = ..., played_value: _Optional[float] = ..., loss: _Optional[float] = ...) -> None: ...

class ReviewMistake(_message.Message):
    __slots__ = ("number", "seat", "played", "best_action", "loss", "why", "reasons")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    BEST_ACTION_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    WHY_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    number: int
    seat: int
    played: str
    best_action: str
    loss: float
    why: str
    reasons: _containers.RepeatedCompositeFieldContainer[Reason]
    def __init__(self, number: _Optional[int] = ..., seat: _Optional[int] = ..., played: _Optional[str] = ..., best_action: _Optional[str] = ..., loss: _Optional[float] = ..., why: _Optional[str] = ..., reasons: _Optional[_Iterable[_Union[Reason, _Mapping]]] = ...) -> None: ...

class ReviewResponse(_message.Message):
    __slots__ = ("move", "final", "moves", "start_values", "mistakes", "stopped_by")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    START_VALUES_FIELD_NUMBER: _ClassVar[int]
    MISTAKES_FIELD_NUMBER: _ClassVar[int]
    STOPPED_BY_FIELD_NUMBER: _ClassVar[int]
    move: ReviewedMove
    final: bool
    moves: int
    start_values: _containers.RepeatedScalarFieldContainer[float]
    mistakes: _containers.RepeatedCompositeFieldContainer[ReviewMistake]
    stopped_by: str
    def __init__(self, move: _Optional[_Union[ReviewedMove, _Mapping]] = ..., final: bool = ..., moves: _Optional[int] = ..., start_values: _Optional[_Iterable[float]] = ..., mistakes: _Optional[_Iterable[_Union[ReviewMistake, _Mapping]]] = ..., stopped_by: _Optional[str] = ...) -> None: ...
