"""The reference, served over the protocol, whose sixth hand of a session lists one legal
action too few: an engine whose failure shows in whichever hand happens to be sixth, so that
two runs report the same failure only if they play the same hands.

    python sixth_hand.py
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.serve.server import run_engine_server


class SixthHand(ReferenceEngine):
    hands = 0

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> dict[str, Any]:
        self.hands += 1
        return super().new_hand(variant, options, deal)

    def legal(self) -> list[str]:
        actions = super().legal()
        return actions[:-1] if self.hands == 6 and len(actions) > 1 else actions


if __name__ == "__main__":
    sys.exit(run_engine_server(SixthHand()))
