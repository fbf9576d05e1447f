"""The JSON Schema of CyberVerse's public form, made from the same field codecs that write and read
it (``form.py``), so a field is named once."""

from __future__ import annotations

import types
import typing
from typing import Any

import msgspec

from games.cyberverse import state as st
from games.cyberverse.content import AMBUSH_EFFECTS, CATEGORIES, COLOURS, Content
from games.cyberverse.form import (
    Encoder,
    Ids,
    codec_of,
    enc_number,
    enc_seat,
    enc_seats,
    public_key,
    type_hints,
)

__all__ = ["state_schema"]


def _ctx_schema() -> dict[str, Any]:
    number = {"type": "integer", "minimum": 1}
    seat = {"type": "integer", "minimum": 0, "maximum": 3}
    ident = {"type": ["string", "null"], "description": "a component id of the content pack"}
    props: dict[str, Any] = {
        "queue": {
            "type": "array",
            "items": {"type": ["string", "integer", "null"]},
            "description": "Agent sheet ids (Activation, Investigation), seats (Strategy, Payday) or "
            "district numbers (the Event's Henchmen) still to handle, the first now",
        },
        "agent": {**ident, "description": "the Agent sheet id of the Agent concerned"},
        "movement_points": {"type": "integer", "minimum": 0},
        "districts_visited": {"type": "array", "items": number},
        "started": {"type": "boolean"},
        "district": number,
        "stage": {"enum": list(st.STAGES)},
        "cards": {"type": "array", "items": ident},
        "store": {"enum": list(CATEGORIES)},
        "henchmen_left": {"type": "integer", "minimum": 0},
        "ambush_effect": {"enum": list(AMBUSH_EFFECTS)},
        "slot": number,
        "placement": number,
        "seat": seat,
        "colours": {"type": "array", "items": {"enum": list(COLOURS)}},
        "mission": {
            "type": "object",
            "properties": {"investigation": number, "card": ident, "mission": number},
            "required": ["investigation", "mission"],
            "additionalProperties": False,
        },
        "xp_spent": {"type": "integer", "minimum": 0},
        "missions_tested": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"investigation": number, "mission": number},
                "required": ["investigation", "mission"],
                "additionalProperties": False,
            },
            "description": "the Missions the Agent testing has already tested in this stage",
        },
    }
    return {
        "type": "object",
        "properties": props,
        "additionalProperties": False,
        "description": "the flow of the turn: only the fields in use",
    }


CTX_KEYS = tuple(_ctx_schema()["properties"])
"""The fields of the flow in the public form (the order of :func:`_ctx_schema`)."""


def _schema_of_encoder(enc: Encoder) -> dict[str, Any]:
    ids = getattr(enc, "__self__", None)
    if isinstance(ids, Ids):
        one: dict[str, Any] = {"enum": [*ids.names, None, "unknown"], "description": f"a {ids.what} id"}
        name = getattr(enc, "__name__", "")
        if name == "enc_list":
            return {"type": "array", "items": one}
        if name == "enc_lists":
            return {"type": "array", "items": {"type": "array", "items": one}}
        return one
    seat = {
        "type": ["integer", "null"],
        "minimum": 0,
        "maximum": 3,
        "description": "a seat (0-based) or null",
    }
    if enc is enc_seat:
        return seat
    if enc is enc_seats:
        return {"type": "array", "items": seat}
    if enc is enc_number:
        return {"type": ["integer", "null"], "minimum": 1, "description": "numbered from 1, or null"}
    return {"description": "see games/cyberverse/codec.py"}


def state_schema(c: Content) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``to_dict``."""
    codec = codec_of(c)

    def schema(tp: Any) -> dict[str, Any]:
        origin = typing.get_origin(tp)
        if tp is int:
            return {"type": "integer"}
        if tp is bool:
            return {"type": "boolean"}
        if tp is str:
            return {"type": "string"}
        if origin is tuple:
            args = typing.get_args(tp)
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": schema(args[0])}
            return {
                "type": "array",
                "prefixItems": [schema(a) for a in args],
                "minItems": len(args),
                "maxItems": len(args),
            }
        if origin in (types.UnionType, typing.Union):
            inner = next(a for a in typing.get_args(tp) if a is not type(None))
            return {"anyOf": [{"type": "null"}, schema(inner)]}
        hints = type_hints(tp)
        props = {}
        for f in msgspec.structs.fields(tp):
            key = (tp.__name__, f.name)
            props[public_key(tp, f.name)] = (
                _schema_of_encoder(codec.overrides[key][0])
                if key in codec.overrides
                else schema(hints[f.name])
            )
        return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}

    root = schema(st.State)
    root["properties"]["ctx"] = _ctx_schema()
    root["properties"]["phase"] = {"enum": list(st.PHASES)}
    root["properties"]["step"] = {"enum": list(st.STEPS)}
    root["properties"]["game"] = {"const": "cyberverse"}
    root["required"] = [*root["required"], "game"]
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "CyberVerse state", **root}
