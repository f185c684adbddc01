# The article profile's regions, found by blockdensity.nesting's scan (_regions.pyx).

def configure(
    comment_tokens: tuple[bytes, ...],
    box_tokens: tuple[bytes, ...],
    consent_tokens: tuple[bytes, ...],
    article_types: tuple[bytes, ...],
    region_attribute: bytes,
    content_owners: tuple[bytes, ...],
    content_parts: tuple[bytes, ...],
) -> None: ...
