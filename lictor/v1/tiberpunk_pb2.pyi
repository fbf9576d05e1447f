from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TiberpunkActionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TIBERPUNK_ACTION_KIND_UNSPECIFIED: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_DICE: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_ABILITY: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_PLACE: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_FAVOR: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_RECHARGE: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_SKILL: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_BOOST: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_TAKE_SHIP: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_LICTOR: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_ESCAPE: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_END: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_REBOOT: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_STOP: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_PURSUE: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_GADGET: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_MOVE: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_UNSHACKLE: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_TOKEN: _ClassVar[TiberpunkActionKind]
    TIBERPUNK_ACTION_KIND_SHIP: _ClassVar[TiberpunkActionKind]
TIBERPUNK_ACTION_KIND_UNSPECIFIED: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_DICE: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_ABILITY: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_PLACE: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_FAVOR: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_RECHARGE: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_SKILL: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_BOOST: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_TAKE_SHIP: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_LICTOR: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_ESCAPE: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_END: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_REBOOT: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_STOP: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_PURSUE: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_GADGET: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_MOVE: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_UNSHACKLE: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_TOKEN: TiberpunkActionKind
TIBERPUNK_ACTION_KIND_SHIP: TiberpunkActionKind

class TiberpunkInts(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, values: _Optional[_Iterable[int]] = ...) -> None: ...

class TiberpunkConfig(_message.Message):
    __slots__ = ("abilities", "max_rounds", "side", "tiles", "bank")
    ABILITIES_FIELD_NUMBER: _ClassVar[int]
    MAX_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    BANK_FIELD_NUMBER: _ClassVar[int]
    abilities: bool
    max_rounds: int
    side: _containers.RepeatedScalarFieldContainer[int]
    tiles: _containers.RepeatedScalarFieldContainer[int]
    bank: int
    def __init__(self, abilities: bool = ..., max_rounds: _Optional[int] = ..., side: _Optional[_Iterable[int]] = ..., tiles: _Optional[_Iterable[int]] = ..., bank: _Optional[int] = ...) -> None: ...

class TiberpunkTurn(_message.Message):
    __slots__ = ("token", "favor", "moves", "ship", "gained", "lictor_due", "juno", "used", "recharged")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    FAVOR_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    GAINED_FIELD_NUMBER: _ClassVar[int]
    LICTOR_DUE_FIELD_NUMBER: _ClassVar[int]
    JUNO_FIELD_NUMBER: _ClassVar[int]
    USED_FIELD_NUMBER: _ClassVar[int]
    RECHARGED_FIELD_NUMBER: _ClassVar[int]
    token: bool
    favor: bool
    moves: int
    ship: bool
    gained: _containers.RepeatedScalarFieldContainer[int]
    lictor_due: bool
    juno: bool
    used: _containers.RepeatedScalarFieldContainer[int]
    recharged: bool
    def __init__(self, token: bool = ..., favor: bool = ..., moves: _Optional[int] = ..., ship: bool = ..., gained: _Optional[_Iterable[int]] = ..., lictor_due: bool = ..., juno: bool = ..., used: _Optional[_Iterable[int]] = ..., recharged: bool = ...) -> None: ...

class TiberpunkPlayer(_message.Message):
    __slots__ = ("coins", "skills", "char", "drone", "shackles", "boosts", "favor", "blessings", "temples", "hubs", "hand", "known", "ships", "wheel", "tokens", "story", "cards", "side", "otoks", "ability", "reboots")
    COINS_FIELD_NUMBER: _ClassVar[int]
    SKILLS_FIELD_NUMBER: _ClassVar[int]
    CHAR_FIELD_NUMBER: _ClassVar[int]
    DRONE_FIELD_NUMBER: _ClassVar[int]
    SHACKLES_FIELD_NUMBER: _ClassVar[int]
    BOOSTS_FIELD_NUMBER: _ClassVar[int]
    FAVOR_FIELD_NUMBER: _ClassVar[int]
    BLESSINGS_FIELD_NUMBER: _ClassVar[int]
    TEMPLES_FIELD_NUMBER: _ClassVar[int]
    HUBS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    KNOWN_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    WHEEL_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    STORY_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    OTOKS_FIELD_NUMBER: _ClassVar[int]
    ABILITY_FIELD_NUMBER: _ClassVar[int]
    REBOOTS_FIELD_NUMBER: _ClassVar[int]
    coins: int
    skills: _containers.RepeatedScalarFieldContainer[int]
    char: int
    drone: int
    shackles: int
    boosts: int
    favor: int
    blessings: int
    temples: int
    hubs: int
    hand: _containers.RepeatedScalarFieldContainer[int]
    known: _containers.RepeatedScalarFieldContainer[int]
    ships: _containers.RepeatedScalarFieldContainer[int]
    wheel: _containers.RepeatedScalarFieldContainer[int]
    tokens: _containers.RepeatedScalarFieldContainer[int]
    story: _containers.RepeatedScalarFieldContainer[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    side: _containers.RepeatedScalarFieldContainer[int]
    otoks: _containers.RepeatedScalarFieldContainer[int]
    ability: int
    reboots: int
    def __init__(self, coins: _Optional[int] = ..., skills: _Optional[_Iterable[int]] = ..., char: _Optional[int] = ..., drone: _Optional[int] = ..., shackles: _Optional[int] = ..., boosts: _Optional[int] = ..., favor: _Optional[int] = ..., blessings: _Optional[int] = ..., temples: _Optional[int] = ..., hubs: _Optional[int] = ..., hand: _Optional[_Iterable[int]] = ..., known: _Optional[_Iterable[int]] = ..., ships: _Optional[_Iterable[int]] = ..., wheel: _Optional[_Iterable[int]] = ..., tokens: _Optional[_Iterable[int]] = ..., story: _Optional[_Iterable[int]] = ..., cards: _Optional[_Iterable[int]] = ..., side: _Optional[_Iterable[int]] = ..., otoks: _Optional[_Iterable[int]] = ..., ability: _Optional[int] = ..., reboots: _Optional[int] = ...) -> None: ...

class TiberpunkContext(_message.Message):
    __slots__ = ("kind", "stage", "skill", "mini", "card", "a", "d", "ra", "rd", "ua", "ud", "tkind", "tseat", "tile", "obj", "where", "who")
    KIND_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    SKILL_FIELD_NUMBER: _ClassVar[int]
    MINI_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    A_FIELD_NUMBER: _ClassVar[int]
    D_FIELD_NUMBER: _ClassVar[int]
    RA_FIELD_NUMBER: _ClassVar[int]
    RD_FIELD_NUMBER: _ClassVar[int]
    UA_FIELD_NUMBER: _ClassVar[int]
    UD_FIELD_NUMBER: _ClassVar[int]
    TKIND_FIELD_NUMBER: _ClassVar[int]
    TSEAT_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    OBJ_FIELD_NUMBER: _ClassVar[int]
    WHERE_FIELD_NUMBER: _ClassVar[int]
    WHO_FIELD_NUMBER: _ClassVar[int]
    kind: int
    stage: int
    skill: int
    mini: int
    card: int
    a: _containers.RepeatedScalarFieldContainer[int]
    d: _containers.RepeatedScalarFieldContainer[int]
    ra: int
    rd: int
    ua: int
    ud: int
    tkind: int
    tseat: int
    tile: int
    obj: int
    where: int
    who: int
    def __init__(self, kind: _Optional[int] = ..., stage: _Optional[int] = ..., skill: _Optional[int] = ..., mini: _Optional[int] = ..., card: _Optional[int] = ..., a: _Optional[_Iterable[int]] = ..., d: _Optional[_Iterable[int]] = ..., ra: _Optional[int] = ..., rd: _Optional[int] = ..., ua: _Optional[int] = ..., ud: _Optional[int] = ..., tkind: _Optional[int] = ..., tseat: _Optional[int] = ..., tile: _Optional[int] = ..., obj: _Optional[int] = ..., where: _Optional[int] = ..., who: _Optional[int] = ...) -> None: ...

class TiberpunkState(_message.Message):
    __slots__ = ("n", "cfg", "seed", "seat", "phase", "rnd", "turn", "players", "lictors", "quests", "ships", "lock", "bless", "gdeck", "gdisc", "c1deck", "c1disc", "c3deck", "c3disc", "shuffles", "speed", "end", "draft", "ctx", "rewards")
    N_FIELD_NUMBER: _ClassVar[int]
    CFG_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    RND_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    LICTORS_FIELD_NUMBER: _ClassVar[int]
    QUESTS_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    BLESS_FIELD_NUMBER: _ClassVar[int]
    GDECK_FIELD_NUMBER: _ClassVar[int]
    GDISC_FIELD_NUMBER: _ClassVar[int]
    C1DECK_FIELD_NUMBER: _ClassVar[int]
    C1DISC_FIELD_NUMBER: _ClassVar[int]
    C3DECK_FIELD_NUMBER: _ClassVar[int]
    C3DISC_FIELD_NUMBER: _ClassVar[int]
    SHUFFLES_FIELD_NUMBER: _ClassVar[int]
    SPEED_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    DRAFT_FIELD_NUMBER: _ClassVar[int]
    CTX_FIELD_NUMBER: _ClassVar[int]
    REWARDS_FIELD_NUMBER: _ClassVar[int]
    n: int
    cfg: TiberpunkConfig
    seed: int
    seat: int
    phase: int
    rnd: int
    turn: TiberpunkTurn
    players: _containers.RepeatedCompositeFieldContainer[TiberpunkPlayer]
    lictors: _containers.RepeatedScalarFieldContainer[int]
    quests: _containers.RepeatedCompositeFieldContainer[TiberpunkInts]
    ships: _containers.RepeatedScalarFieldContainer[int]
    lock: int
    bless: _containers.RepeatedScalarFieldContainer[int]
    gdeck: _containers.RepeatedScalarFieldContainer[int]
    gdisc: _containers.RepeatedScalarFieldContainer[int]
    c1deck: _containers.RepeatedScalarFieldContainer[int]
    c1disc: _containers.RepeatedScalarFieldContainer[int]
    c3deck: _containers.RepeatedScalarFieldContainer[int]
    c3disc: _containers.RepeatedScalarFieldContainer[int]
    shuffles: int
    speed: int
    end: bool
    draft: _containers.RepeatedScalarFieldContainer[int]
    ctx: TiberpunkContext
    rewards: _containers.RepeatedCompositeFieldContainer[TiberpunkInts]
    def __init__(self, n: _Optional[int] = ..., cfg: _Optional[_Union[TiberpunkConfig, _Mapping]] = ..., seed: _Optional[int] = ..., seat: _Optional[int] = ..., phase: _Optional[int] = ..., rnd: _Optional[int] = ..., turn: _Optional[_Union[TiberpunkTurn, _Mapping]] = ..., players: _Optional[_Iterable[_Union[TiberpunkPlayer, _Mapping]]] = ..., lictors: _Optional[_Iterable[int]] = ..., quests: _Optional[_Iterable[_Union[TiberpunkInts, _Mapping]]] = ..., ships: _Optional[_Iterable[int]] = ..., lock: _Optional[int] = ..., bless: _Optional[_Iterable[int]] = ..., gdeck: _Optional[_Iterable[int]] = ..., gdisc: _Optional[_Iterable[int]] = ..., c1deck: _Optional[_Iterable[int]] = ..., c1disc: _Optional[_Iterable[int]] = ..., c3deck: _Optional[_Iterable[int]] = ..., c3disc: _Optional[_Iterable[int]] = ..., shuffles: _Optional[int] = ..., speed: _Optional[int] = ..., end: bool = ..., draft: _Optional[_Iterable[int]] = ..., ctx: _Optional[_Union[TiberpunkContext, _Mapping]] = ..., rewards: _Optional[_Iterable[_Union[TiberpunkInts, _Mapping]]] = ...) -> None: ...

class TiberpunkDieTarget(_message.Message):
    __slots__ = ("pool", "value", "delta")
    POOL_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    DELTA_FIELD_NUMBER: _ClassVar[int]
    pool: str
    value: int
    delta: int
    def __init__(self, pool: _Optional[str] = ..., value: _Optional[int] = ..., delta: _Optional[int] = ...) -> None: ...

class TiberpunkInteraction(_message.Message):
    __slots__ = ("kind", "target", "up", "gadget", "by", "ship", "gadgets", "tile", "objective")
    KIND_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    UP_FIELD_NUMBER: _ClassVar[int]
    GADGET_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    GADGETS_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    kind: str
    target: str
    up: _containers.RepeatedScalarFieldContainer[str]
    gadget: bool
    by: str
    ship: str
    gadgets: _containers.RepeatedScalarFieldContainer[str]
    tile: str
    objective: str
    def __init__(self, kind: _Optional[str] = ..., target: _Optional[str] = ..., up: _Optional[_Iterable[str]] = ..., gadget: bool = ..., by: _Optional[str] = ..., ship: _Optional[str] = ..., gadgets: _Optional[_Iterable[str]] = ..., tile: _Optional[str] = ..., objective: _Optional[str] = ...) -> None: ...

class TiberpunkAction(_message.Message):
    __slots__ = ("kind", "name", "dice", "ship", "mini", "from_district", "to_district", "pay", "targets", "count", "token", "as_type", "interaction")
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    MINI_FIELD_NUMBER: _ClassVar[int]
    FROM_DISTRICT_FIELD_NUMBER: _ClassVar[int]
    TO_DISTRICT_FIELD_NUMBER: _ClassVar[int]
    PAY_FIELD_NUMBER: _ClassVar[int]
    TARGETS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    AS_TYPE_FIELD_NUMBER: _ClassVar[int]
    INTERACTION_FIELD_NUMBER: _ClassVar[int]
    kind: TiberpunkActionKind
    name: str
    dice: _containers.RepeatedScalarFieldContainer[int]
    ship: str
    mini: str
    from_district: str
    to_district: str
    pay: int
    targets: _containers.RepeatedCompositeFieldContainer[TiberpunkDieTarget]
    count: int
    token: str
    as_type: str
    interaction: TiberpunkInteraction
    def __init__(self, kind: _Optional[_Union[TiberpunkActionKind, str]] = ..., name: _Optional[str] = ..., dice: _Optional[_Iterable[int]] = ..., ship: _Optional[str] = ..., mini: _Optional[str] = ..., from_district: _Optional[str] = ..., to_district: _Optional[str] = ..., pay: _Optional[int] = ..., targets: _Optional[_Iterable[_Union[TiberpunkDieTarget, _Mapping]]] = ..., count: _Optional[int] = ..., token: _Optional[str] = ..., as_type: _Optional[str] = ..., interaction: _Optional[_Union[TiberpunkInteraction, _Mapping]] = ...) -> None: ...
