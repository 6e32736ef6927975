"""The quickstart's Szczerbak engine as a ``python:`` engine: the same rules, no pipes.

``dominokit conform --engine python:MODULE:FACTORY`` calls ``FACTORY()`` once and drives the
object it returns: one method per protocol command, taking the request's fields as positional
arguments and returning the value of the result's single field (``hello`` returns the whole
result). ``dominokit.EngineObject`` is that shape as a ``typing.Protocol``, so a type checker
can hold your engine to it. This file adapts ``szczerbak_engine.Engine``, whose methods take
whole requests and return whole results (what the pipes carry), to that shape::

    PYTHONPATH=docs/examples dominokit conform --engine python:szczerbak_python:SzczerbakEngine

or, from Python, ``dominokit.conform(SzczerbakEngine(), variant="szczerbak")``.

A refusal is the example's ``Refusal``: any exception with string attributes ``code``,
``message`` and ``rule`` is read as an error reply.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from szczerbak_engine import PROTOCOL, Engine

Json = dict[str, Any]


class SzczerbakEngine:
    """The example engine behind the methods ``python:`` engines have."""

    def __init__(self) -> None:
        self._engine = Engine()

    def hello(self) -> Json:
        result: Json = self._engine.hello({"protocol": PROTOCOL})
        return result

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> Json:
        return self._field("new_hand", "state", variant=variant, options=dict(options),
                           deal=dict(deal))

    def legal(self) -> list[str]:
        actions: list[str] = self._engine.legal({})["actions"]
        return actions

    def apply(self, action: str) -> list[Json]:
        events: list[Json] = self._engine.apply({"action": action})["events"]
        return events

    def state(self) -> Json:
        return self._field("state", "state")

    def new_match(self, variant: str, options: Mapping[str, Any], first_starter: int) -> Json:
        return self._field("new_match", "match", variant=variant, options=dict(options),
                           first_starter=first_starter)

    def next_hand(self, deal: Mapping[str, Any]) -> Json:
        return self._field("next_hand", "state", deal=dict(deal))

    def match_state(self) -> Json:
        return self._field("match_state", "match")

    def _field(self, command: str, key: str, **request: Any) -> Json:
        value: Json = getattr(self._engine, command)(request)[key]
        return value
