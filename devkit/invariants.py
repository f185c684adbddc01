"""What SPEC promises of every page, whatever the input, as a list of the promises broken.

No NUL and no marker character (a lone surrogate) in the text; on fallback
the text is exactly html_to_text's (section 1's identity); otherwise every
line of the kept text is a line of html_to_text's (only dropped blocks' text
goes). bench.robustness checks each hostile page with it, devkit.fuzzing
each fuzzed input.
"""

from __future__ import annotations

from collections import Counter

from blockdensity import Fit

__all__ = ["broken_invariants"]


def broken_invariants(fit: Fit, text: str) -> list[str]:
    """The promises `fit` breaks (none: []); `text` is html_to_text of the same input."""
    problems = []
    for name, value in (("fit text", fit.text), ("html_to_text", text)):
        if "\x00" in value:
            problems.append(f"NUL in {name}")
        if any("\ud800" <= char <= "\udfff" for char in value):
            problems.append(f"a marker (lone surrogate) leaked into {name}")
    if fit.fallback and fit.text != text:
        problems.append("fallback text differs from html_to_text")
    if not fit.fallback and Counter(fit.text.split("\n")) - Counter(text.split("\n")):
        problems.append("a kept line is not a line of html_to_text")
    return problems
