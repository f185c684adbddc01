"""The decide stage: what happens to each block (blockdensity.decide.stage says how).

tree.py       the published decision tree (docs/spec.md section 4)
semantic.py   the semantic drop (docs/spec.md section 5)
article.py    the article profile's rules
outcome.py    the outcomes, and how each is reported
board.py      the page's columns the passes read
stage.py      decide(): the passes in order, the published verdict, the fallback
"""

from __future__ import annotations

from blockdensity.decide.outcome import KEPT_OUTCOMES, Outcome
from blockdensity.decide.stage import Verdict, decide

__all__ = ["KEPT_OUTCOMES", "Outcome", "Verdict", "decide"]
