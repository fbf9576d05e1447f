from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TiberiusActionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TIBERIUS_ACTION_KIND_UNSPECIFIED: _ClassVar[TiberiusActionKind]
    TIBERIUS_ACTION_KIND_BID: _ClassVar[TiberiusActionKind]
    TIBERIUS_ACTION_KIND_BUY: _ClassVar[TiberiusActionKind]
    TIBERIUS_ACTION_KIND_PCIM: _ClassVar[TiberiusActionKind]
    TIBERIUS_ACTION_KIND_TAKE2: _ClassVar[TiberiusActionKind]
    TIBERIUS_ACTION_KIND_PICK: _ClassVar[TiberiusActionKind]
    TIBERIUS_ACTION_KIND_BLACK: _ClassVar[TiberiusActionKind]
    TIBERIUS_ACTION_KIND_ROW: _ClassVar[TiberiusActionKind]
    TIBERIUS_ACTION_KIND_MOVE: _ClassVar[TiberiusActionKind]
    TIBERIUS_ACTION_KIND_DONE: _ClassVar[TiberiusActionKind]
    TIBERIUS_ACTION_KIND_ADOPT: _ClassVar[TiberiusActionKind]
    TIBERIUS_ACTION_KIND_PASS: _ClassVar[TiberiusActionKind]
TIBERIUS_ACTION_KIND_UNSPECIFIED: TiberiusActionKind
TIBERIUS_ACTION_KIND_BID: TiberiusActionKind
TIBERIUS_ACTION_KIND_BUY: TiberiusActionKind
TIBERIUS_ACTION_KIND_PCIM: TiberiusActionKind
TIBERIUS_ACTION_KIND_TAKE2: TiberiusActionKind
TIBERIUS_ACTION_KIND_PICK: TiberiusActionKind
TIBERIUS_ACTION_KIND_BLACK: TiberiusActionKind
TIBERIUS_ACTION_KIND_ROW: TiberiusActionKind
TIBERIUS_ACTION_KIND_MOVE: TiberiusActionKind
TIBERIUS_ACTION_KIND_DONE: TiberiusActionKind
TIBERIUS_ACTION_KIND_ADOPT: TiberiusActionKind
TIBERIUS_ACTION_KIND_PASS: TiberiusActionKind

class TiberiusCubes(_message.Message):
    __slots__ = ("conquests", "imperial_marriages", "pro_consular", "consul_censor", "governorships", "triumphs", "imperator", "priesthoods", "emperor", "influence", "bid")
    CONQUESTS_FIELD_NUMBER: _ClassVar[int]
    IMPERIAL_MARRIAGES_FIELD_NUMBER: _ClassVar[int]
    PRO_CONSULAR_FIELD_NUMBER: _ClassVar[int]
    CONSUL_CENSOR_FIELD_NUMBER: _ClassVar[int]
    GOVERNORSHIPS_FIELD_NUMBER: _ClassVar[int]
    TRIUMPHS_FIELD_NUMBER: _ClassVar[int]
    IMPERATOR_FIELD_NUMBER: _ClassVar[int]
    PRIESTHOODS_FIELD_NUMBER: _ClassVar[int]
    EMPEROR_FIELD_NUMBER: _ClassVar[int]
    INFLUENCE_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    conquests: int
    imperial_marriages: int
    pro_consular: int
    consul_censor: int
    governorships: int
    triumphs: int
    imperator: int
    priesthoods: int
    emperor: int
    influence: int
    bid: int
    def __init__(self, conquests: _Optional[int] = ..., imperial_marriages: _Optional[int] = ..., pro_consular: _Optional[int] = ..., consul_censor: _Optional[int] = ..., governorships: _Optional[int] = ..., triumphs: _Optional[int] = ..., imperator: _Optional[int] = ..., priesthoods: _Optional[int] = ..., emperor: _Optional[int] = ..., influence: _Optional[int] = ..., bid: _Optional[int] = ...) -> None: ...

class TiberiusCards(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class TiberiusVariants(_message.Message):
    __slots__ = ("influence_table", "pcim_rule", "marriage_vp", "imperator_solo", "imperator_empty", "turns")
    INFLUENCE_TABLE_FIELD_NUMBER: _ClassVar[int]
    PCIM_RULE_FIELD_NUMBER: _ClassVar[int]
    MARRIAGE_VP_FIELD_NUMBER: _ClassVar[int]
    IMPERATOR_SOLO_FIELD_NUMBER: _ClassVar[int]
    IMPERATOR_EMPTY_FIELD_NUMBER: _ClassVar[int]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    influence_table: str
    pcim_rule: str
    marriage_vp: str
    imperator_solo: str
    imperator_empty: str
    turns: int
    def __init__(self, influence_table: _Optional[str] = ..., pcim_rule: _Optional[str] = ..., marriage_vp: _Optional[str] = ..., imperator_solo: _Optional[str] = ..., imperator_empty: _Optional[str] = ..., turns: _Optional[int] = ...) -> None: ...

class TiberiusState(_message.Message):
    __slots__ = ("turn", "phase", "actor", "start_priority", "priority", "cubes", "decks", "face_up", "careers", "played", "bids", "pcim_used", "secret", "adopt_face_up", "adopt_unused", "adopted", "discarded", "black", "row_open", "family", "moved", "age", "variants")
    TURN_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    START_PRIORITY_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    CUBES_FIELD_NUMBER: _ClassVar[int]
    DECKS_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    CAREERS_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    BIDS_FIELD_NUMBER: _ClassVar[int]
    PCIM_USED_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    ADOPT_FACE_UP_FIELD_NUMBER: _ClassVar[int]
    ADOPT_UNUSED_FIELD_NUMBER: _ClassVar[int]
    ADOPTED_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    BLACK_FIELD_NUMBER: _ClassVar[int]
    ROW_OPEN_FIELD_NUMBER: _ClassVar[int]
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    MOVED_FIELD_NUMBER: _ClassVar[int]
    AGE_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    turn: int
    phase: str
    actor: int
    start_priority: int
    priority: int
    cubes: _containers.RepeatedCompositeFieldContainer[TiberiusCubes]
    decks: _containers.RepeatedCompositeFieldContainer[TiberiusCards]
    face_up: _containers.RepeatedScalarFieldContainer[str]
    careers: _containers.RepeatedCompositeFieldContainer[TiberiusCards]
    played: _containers.RepeatedScalarFieldContainer[str]
    bids: _containers.RepeatedScalarFieldContainer[int]
    pcim_used: _containers.RepeatedScalarFieldContainer[bool]
    secret: _containers.RepeatedScalarFieldContainer[str]
    adopt_face_up: _containers.RepeatedScalarFieldContainer[str]
    adopt_unused: _containers.RepeatedScalarFieldContainer[str]
    adopted: _containers.RepeatedScalarFieldContainer[str]
    discarded: _containers.RepeatedScalarFieldContainer[str]
    black: int
    row_open: bool
    family: bool
    moved: int
    age: _containers.RepeatedScalarFieldContainer[int]
    variants: TiberiusVariants
    def __init__(self, turn: _Optional[int] = ..., phase: _Optional[str] = ..., actor: _Optional[int] = ..., start_priority: _Optional[int] = ..., priority: _Optional[int] = ..., cubes: _Optional[_Iterable[_Union[TiberiusCubes, _Mapping]]] = ..., decks: _Optional[_Iterable[_Union[TiberiusCards, _Mapping]]] = ..., face_up: _Optional[_Iterable[str]] = ..., careers: _Optional[_Iterable[_Union[TiberiusCards, _Mapping]]] = ..., played: _Optional[_Iterable[str]] = ..., bids: _Optional[_Iterable[int]] = ..., pcim_used: _Optional[_Iterable[bool]] = ..., secret: _Optional[_Iterable[str]] = ..., adopt_face_up: _Optional[_Iterable[str]] = ..., adopt_unused: _Optional[_Iterable[str]] = ..., adopted: _Optional[_Iterable[str]] = ..., discarded: _Optional[_Iterable[str]] = ..., black: _Optional[int] = ..., row_open: bool = ..., family: bool = ..., moved: _Optional[int] = ..., age: _Optional[_Iterable[int]] = ..., variants: _Optional[_Union[TiberiusVariants, _Mapping]] = ...) -> None: ...

class TiberiusAction(_message.Message):
    __slots__ = ("kind", "amount", "card", "box", "row")
    KIND_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    BOX_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    kind: TiberiusActionKind
    amount: int
    card: str
    box: str
    row: int
    def __init__(self, kind: _Optional[_Union[TiberiusActionKind, str]] = ..., amount: _Optional[int] = ..., card: _Optional[str] = ..., box: _Optional[str] = ..., row: _Optional[int] = ...) -> None: ...
