# The text passes of blockdensity.words and blockdensity.render (_text.pyx).

from collections.abc import Callable

def configure(
    char_class: Callable[[str], str],
    letter: str,
    joiner: str,
    separator: str,
    cjk_word: str,
    glue: str,
    dense_letter: str,
    dense_mark: str,
    count_runs: Callable[[str, list[int]], list[int]],
) -> None: ...
def count_ended(texts: str) -> list[int]: ...
def collapse(texts: list[str]) -> str: ...
def date_stretches(text: str, shortest: int) -> list[int]: ...
