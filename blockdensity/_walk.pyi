# The compiled walk of blockdensity.segment (_walk.pyx).

from selectolax.lexbor import LexborNode

LAYOUT_VERSION: str

def configure(
    text_id: int,
    img_id: int,
    code_id: int,
    declaring: tuple[int, ...],
    bits: dict[str, int],
    marks: dict[str, str],
) -> None: ...
def attribute_ids(element: LexborNode) -> list[int]: ...

class Elements:
    def __init__(self, names: dict[int, str]) -> None: ...
    def __len__(self) -> int: ...
    def rows(self) -> list[tuple[str, int, int]]: ...
    def columns(self) -> tuple[list[str], list[int]]: ...
    def signatures_list(self) -> list[int]: ...
    def blocks(self) -> list[int]: ...
    def blocks_within(self, names: frozenset[str]) -> list[int]: ...
    def pres(self) -> dict[int, tuple[str, str | None]]: ...

class Settings:
    def __init__(
        self,
        packed: bytes,
        custom: int,
        names: dict[int, str],
        roles: frozenset[str],
        scopes: dict[str, str],
        *,
        hidden_id: int,
        role_id: int,
        region_id: int,
        class_id: int,
        itemprop_id: int,
        pubdate_id: int,
        popover_id: int = 0,
        open_id: int = 0,
        dialog_id: int = 0,
        tab_panels: bool = False,
        show_hidden: bool = False,
        href_id: int = 0,
    ) -> None: ...

def walk(
    body: LexborNode,
    settings: Settings,
    title: str | None,
    trace: list[tuple[int, LexborNode]] | None = None,
) -> tuple[
    list[tuple[str, bool, int]],
    str,
    str,
    str | None,
    list[str],
    list[int],
    list[LexborNode],
    list[LexborNode],
    bool,
    Elements,
    list[int],
]: ...

DECLARED_ATTRIBUTES: tuple[str, ...]
META: int
LINK: int
BASE: int
JSONLD: int

def declared(
    head: LexborNode | None, body: list[LexborNode], names: tuple[int, ...]
) -> list[tuple[int, str | None, str | None, str | None, str | None, str | None]]: ...
def has_microdata(root: LexborNode, names: tuple[int, ...], deep: bool = True) -> bool: ...
