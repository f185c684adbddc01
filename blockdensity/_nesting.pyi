# The scan of blockdensity.nesting (_nesting.pyx).

def configure(
    element_flags: dict[str, int],
    bits: dict[str, int],
    depth_limit: int,
    formatting_limit: int,
    search_limit: int,
    comment_tokens: tuple[bytes, ...],
    box_tokens: tuple[bytes, ...],
    article_types: tuple[bytes, ...],
    region_attribute: bytes,
    node_limit: int,
    attribute_limit: int,
    content_owners: tuple[bytes, ...],
    content_parts: tuple[bytes, ...],
) -> None: ...
def scan(data: bytes, regions: bool) -> list[tuple[int, int, bytes]]: ...
def declares_article(data: bytes) -> bool: ...
def has_growing_reference(data: bytes) -> bool: ...
