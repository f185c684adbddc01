# The scan of blockdensity.nesting (_nesting.pyx).

def configure(
    element_flags: dict[str, int],
    bits: dict[str, int],
    depth_limit: int,
    formatting_limit: int,
    search_limit: int,
    node_limit: int,
    attribute_limit: int,
) -> None: ...

BUDGET_CUT: bytes

def scan(data: bytes, regions: bool) -> list[tuple[int, int, bytes]]: ...
def declares_article(data: bytes) -> bool: ...
