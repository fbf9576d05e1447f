"""The catalogue of a CyberVerse content pack: every Agent sheet, Supply token, Support card,
Henchman, Event, Story and Investigation card in words (games/core/face.py, ``Catalogue``)."""

from __future__ import annotations

from games.core.face import Catalogue, ContentItem
from games.cyberverse.content import (
    CATEGORIES,
    COLOURS,
    EVENT_EFFECTS,
    EVENT_REWARDS,
    FEATURES,
    GEAR,
    GEAR_KINDS,
    IMPLANT,
    MISSION_KINDS,
    SUPPORT_EFFECTS,
    TOKEN_EFFECTS,
    WEAPON,
    WEAPON_EFFECTS,
    AgentFace,
    Content,
    EventCard,
    Mission,
    SupplyToken,
    SupportCard,
)

__all__ = ["catalogue", "event_text", "mission_text", "support_text", "token_text"]


def _agent_and_supply_items(c: Content) -> list[ContentItem]:
    """Agent sheets, Supply tokens, Support cards and Henchman cards."""
    items: list[ContentItem] = []
    for f in c.faces:
        values = {n: f.features[i] for i, n in enumerate(FEATURES)}
        values |= {"initiative": f.initiative, "salary": f.salary, "health": f.health}
        items.append(
            ContentItem(
                id=f.id,
                kind="agent sheet",
                name=f.name,
                text=f.skill_text,
                values=values,
                authored=f.authored,
            )
        )
    for t in c.tokens:
        items.append(
            ContentItem(
                id=t.id,
                kind=f"{CATEGORIES[t.category]} token",
                name=t.name,
                values={"price": t.price},
                authored=t.authored,
            )
        )
    for u in c.support:
        items.append(
            ContentItem(
                id=u.id,
                kind="support card",
                name=u.name,
                values={"teammates": u.teammates},
                authored=u.authored,
            )
        )
    for h in c.henchmen:
        values = {
            "defense": h.defense,
            "attack": h.attack,
            "movement": h.movement,
            "health": h.health,
            "ranged": h.ranged,
        }
        items.append(
            ContentItem(id=h.id, kind="henchman card", name=h.name, values=values, authored=h.authored)
        )
    return items


def _card_items(c: Content) -> list[ContentItem]:
    """Brawl, Combat tokens, Ambush, Event, Story and Investigation cards, District boards."""
    return _combat_items(c) + _story_items(c)


def _combat_items(c: Content) -> list[ContentItem]:
    """Brawl cards, Combat tokens and Ambush cards."""
    items: list[ContentItem] = []
    for b in c.brawl:
        items.append(
            ContentItem(
                id=b.id,
                kind="brawl card",
                name=b.id,
                values={"red": b.red, "henchmen": [c.henchman_types[k] for k in b.henchmen]},
                authored=b.authored,
            )
        )
    for ct in c.combat_tokens:
        eff = TOKEN_EFFECTS[ct.effect] if ct.effect >= 0 else ""
        items.append(
            ContentItem(
                id=ct.id,
                kind="combat token",
                name=ct.id,
                text=eff,
                values={"attack": ct.attack, "defense": ct.defense},
                authored=ct.authored,
            )
        )
    for a in c.ambush:
        items.append(ContentItem(id=a.id, kind="ambush card", name=a.name, authored=a.authored))
    return items


def _story_items(c: Content) -> list[ContentItem]:
    """Event, Story and Investigation cards and District boards."""
    items: list[ContentItem] = []
    for e in c.events:
        items.append(
            ContentItem(
                id=e.id,
                kind="event card",
                name=e.name,
                values={"time": e.time, "henchmen": list(e.henchmen)},
                authored=e.authored,
            )
        )
    for s in c.stories:
        items.append(
            ContentItem(
                id=s.id,
                kind="story card",
                name=s.name,
                values={"victory points": s.vp, "investigations": [COLOURS[k] for k in s.requires]},
                authored=s.authored,
            )
        )
    for i in c.investigations:
        missions = [f"{FEATURES[m.feature]} > {m.threshold} in district {m.district + 1}" for m in i.missions]
        items.append(
            ContentItem(
                id=i.id,
                kind=f"{COLOURS[i.colour]} investigation card",
                name=i.name,
                text="; ".join(missions),
                authored=i.authored,
            )
        )
    for bd in c.boards:
        items.append(
            ContentItem(
                id=bd.id,
                kind="district board",
                name=f"{c.district_names[bd.district]} {bd.id}",
                values={"zones": bd.zones, "entry zone": bd.entry + 1},
                authored=bd.authored,
            )
        )
    return items


def catalogue(c: Content) -> Catalogue:
    """Every component of the pack with its numbers (all authored but the rulebook's)."""
    items = _agent_and_supply_items(c) + _card_items(c)
    return Catalogue(
        game="cyberverse",
        version=c.version,
        items=tuple(items),
        notes="The rulebook prints the rules but not the card and token data: the reference pack authors them "  # noqa: E501
        "(each item marked authored); a user's pack with the same files replaces it (content_path).",
    )


STORE_NAMES = ("weapons", "cyber-implants", "gear", "vehicles")
"""The four stores (cyberverse/strategy-phase; "Equipment" is the Gear store)."""


def plus(n: int) -> str:
    return f"{n:+d}"


def token_text(c: Content, t: SupplyToken) -> str:
    """What a Supply token does, in words (``"Combat +1, ranged"``)."""
    if t.category == WEAPON:
        kind = "ranged" if t.ranged else "close combat"
        effects = [WEAPON_EFFECTS[i] for i in t.effects]
        text = f"Combat {plus(t.bonus)}, {kind}"
        if effects:
            text += ", " + " and ".join(effects)
        return text + (", expert (needs Combat 3)" if t.expert else "")
    if t.category == IMPLANT:
        return f"{FEATURES[t.feature].capitalize()} +1"
    if t.category == GEAR:
        kind = GEAR_KINDS[t.kind]
        if kind == "defense":
            return f"Defense {plus(t.value)} in combat"
        if kind == "reputation":
            return f"Reputation {plus(t.value)}"
        if kind == "test_bonus":
            return f"{plus(t.value)} to {FEATURES[t.feature].capitalize()} tests"
        if kind == "ambush_guard":
            return "protects from ambush cards"
        return f"heals {t.value} at the start of each activation phase"
    parts = [f"Movement {plus(t.movement)}"] if t.movement else []
    if t.free_travel:
        parts.append("moving between districts costs no movement points")
    if t.ambush_guard:
        parts.append("protects from ambush cards")
    return ", ".join(parts) or "no effect"


def support_text(c: Content, u: SupportCard) -> str:
    """What a Support card does while held, and the Henchmen it turns into Teammates."""
    effect = SUPPORT_EFFECTS[u.effect]
    if effect == "armor":
        text = f"Defense {plus(u.value)} for your agents"
    elif effect == "test_bonus":
        text = f"{plus(u.value)} to {FEATURES[u.feature].capitalize()} tests"
    elif effect == "discount":
        text = f"{u.value} D off {STORE_NAMES[u.category]}"
    elif effect == "hack_bonus":
        text = f"+{u.value} D per hacking"
    else:
        text = "protects your agents from ambush cards"
    if u.teammates == 1:
        return f"{text}; 1 henchman becomes a teammate in a combat"
    return f"{text}; {u.teammates} henchmen become teammates in a combat"


def event_text(c: Content, e: EventCard) -> str:
    """An Event card's negative effect while in play (cyberverse/event-phase)."""
    effect = EVENT_EFFECTS[e.effect]
    where = c.district_names[e.district] if e.district >= 0 else "every district"
    if effect == "toll":
        return f"+1 movement point to enter {where}"
    if effect == "blackout":
        return f"no hacking in {where}"
    if effect == "lockdown":
        return f"no influence token placed in {where}"
    if effect == "scrutiny":
        return f"-1 to feature tests in {where}"
    if effect == "inflation":
        return f"+100 D on {STORE_NAMES[e.category]}"
    if effect == "strike":
        return "no support card taken in the strategy phase"
    return "no lasting effect"


def reward_text(c: Content, e: EventCard) -> str:
    reward = EVENT_REWARDS[e.reward]
    if reward == "money":
        return f"earns {e.reward_value} D"
    if reward == "heal":
        return "heals each of your agents by 1"
    return f"an influence token in {c.district_names[e.reward_district]}"


def mission_text(c: Content, m: Mission) -> str:
    """A Mission of an Investigation card (``"Analysis test above 2 in Neon Gardens, 100 D"``)."""
    where = c.district_names[m.district]
    kind = MISSION_KINDS[m.kind]
    if kind == "test":
        what = f"{FEATURES[m.feature].capitalize()} test above {m.threshold} in {where}"
    elif kind == "hack":
        what = f"Hacking test above {m.threshold} in {where} (hacking position)"
    elif kind == "combat":
        what = f"take part in a combat in {where}"
    else:
        what = f"gain influence in {where}"
    return f"{what}, {m.reward} D"


TABLE_HEAD = "Agent             Movement Analysis Hacking Reputation Combat Health Salary"


def table_row(f: AgentFace) -> str:
    m, a, h, r, k = f.features
    return f"{f.name:<17} {m:>5}    {a:>5}    {h:>4}    {r:>6}     {k:>4}   {f.health:>3}  {f.salary:>4} D"
