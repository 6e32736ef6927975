"""An engine shadowed by the reference, so that its replies are compared, not schema-checked.

Validating a reply in full against the protocol schema costs milliseconds and grows with the
board, so a hand of state requests costs O(n²); comparing the reply with the reference's own
answer to the same request costs a JSON dump. A case that drives an engine without expected
answers of its own (golden replay, invariants, rejections) wraps it in ``Shadowed``: every
verb is also asked of an in-process reference, whose answer is passed as ``expect``.

The shadow never changes a verdict: a reply equal to the reference's answer is valid because
the reference's answers are (tests/conformance/test_reply_shortcuts.py), and any other reply is
checked in
full as before. So the shadow need not stay in step with the engine: once the two part ways
(the engine refused what the reference played, say) the answers differ and every reply is
checked in full again; a refusal of the shadow only means there is nothing to compare with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dominokit.conformance.kit.driver import Engine, Hello
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.conformance.wire.protocol import JsonObject
from dominokit.reference import HandState


@dataclass(frozen=True)
class LegalDifference:
    """A position (the reference's hand) and the two legal lists given there."""

    hand: HandState
    expected: tuple[str, ...]
    got: tuple[str, ...]


class Shadowed:
    """``engine`` with every verb also asked of a private reference (see the module)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._shadow = ReferenceEngine()
        self.first_legal_difference: LegalDifference | None = None
        """The first position whose legal list the engine gave differently (None: none yet):
        where a perft count that differs went wrong, so the count names the rule."""

    def __repr__(self) -> str:
        return f"Shadowed({self.engine!r})"

    def _expect(self, verb: str, *args: Any) -> Any:
        try:
            return getattr(self._shadow, verb)(*args)
        except EngineRejected:
            return None
        except Exception:  # noqa: BLE001 - a shadow that breaks only loses its shortcut
            self._shadow = ReferenceEngine()
            return None

    def hello(self) -> Hello:
        return self.engine.hello()

    def new_hand(self, variant: str, options: dict[str, Any], deal: dict[str, Any], *,
                 expect: JsonObject | None = None) -> JsonObject:
        shadow = self._expect("new_hand", variant, options, deal)
        return self.engine.new_hand(variant, options, deal, expect=_either(expect, shadow))

    def legal(self) -> list[str]:
        # nothing to pass: a legal reply is checked cheaply anyway
        want = self._expect("legal")
        got = self.engine.legal()
        hand = self._shadow.current_hand()
        if self.first_legal_difference is None and isinstance(want, list) and hand is not None \
                and set(want) != set(got):
            self.first_legal_difference = LegalDifference(hand, tuple(want), tuple(got))
        return got

    def apply(self, action: str, *, expect: list[JsonObject] | None = None
              ) -> list[JsonObject]:
        shadow = self._expect("apply", action)
        return self.engine.apply(action, expect=_either(expect, shadow))

    def state(self, *, expect: JsonObject | None = None) -> JsonObject:
        return self.engine.state(expect=_either(expect, self._expect("state")))

    def new_match(self, variant: str, options: dict[str, Any], first_starter: int, *,
                  expect: JsonObject | None = None) -> JsonObject:
        shadow = self._expect("new_match", variant, options, first_starter)
        return self.engine.new_match(variant, options, first_starter,
                                     expect=_either(expect, shadow))

    def next_hand(self, deal: dict[str, Any], *, expect: JsonObject | None = None
                  ) -> JsonObject:
        shadow = self._expect("next_hand", deal)
        return self.engine.next_hand(deal, expect=_either(expect, shadow))

    def match_state(self, *, expect: JsonObject | None = None) -> JsonObject:
        return self.engine.match_state(expect=_either(expect, self._expect("match_state")))

    def undo(self, *, expect: JsonObject | None = None) -> JsonObject:
        return self.engine.undo(expect=_either(expect, self._expect("undo")))

    def restart(self) -> None:
        self.engine.restart()
        self._shadow = ReferenceEngine()

    def close(self) -> None:
        self.engine.close()


def _either(given: Any, shadow: Any) -> Any:
    """The case's own expected answer when it has one, else the shadow's."""
    return shadow if given is None else given
