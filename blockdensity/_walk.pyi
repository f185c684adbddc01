# The compiled walk of blockdensity.segment (_walk.pyx).

from selectolax.lexbor import LexborNode

LAYOUT_VERSION: str

def configure(
    text_id: int,
    img_id: int,
    declaring: tuple[int, ...],
    bits: dict[str, int],
    marks: dict[str, str],
) -> None: ...
def attribute_ids(element: LexborNode) -> list[int]: ...
def walk(
    body: LexborNode,
    packed: bytes,
    custom: int,
    names: dict[int, str],
    title: str | None,
    hidden_id: int,
    role_id: int,
    roles: frozenset[str],
    region_id: int,
    scopes: dict[str, str],
    itemprop_id: int,
    pubdate_id: int,
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
