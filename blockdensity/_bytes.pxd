# cython: language_level=3
"""What the compiled scans share of reading HTML's bytes in C: inline functions only.

The bound on nesting (_nesting.pyx) and the article profile's regions
(_regions.pyx) read the same page in one pass and must name its elements
alike: both hash an element name as this file does. Cython inlines these
into each module that cimports them (there is no module to import at run
time), so a call costs what the code written in place would.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport realloc

# An element name's hash: 64-bit FNV-1a of its lowercase bytes (ASCII letters
# only, as bytes.lower()), never 0 (the stack's and the formatting list's
# marker). In three steps, for a loop that reads the name as it hashes it.


cdef inline uint64_t name_hash_start() noexcept nogil:
    return 14695981039346656037ULL


cdef inline uint64_t name_hash_step(uint64_t h, unsigned char lower) noexcept nogil:
    """The hash so far, with the next (lowercased) byte."""
    return (h ^ lower) * 1099511628211ULL


cdef inline uint64_t name_hash_end(uint64_t h) noexcept nogil:
    return h | 1  # never 0, the marker


cdef inline unsigned char ascii_lower(unsigned char c) noexcept nogil:
    """`c` lowercased as bytes.lower() does: ASCII letters only."""
    return c | 32 if 65 <= c <= 90 else c


cdef inline uint64_t name_hash(const unsigned char* s, Py_ssize_t n) noexcept nogil:
    """The hash of the element name of `n` bytes at `s`, in any case."""
    cdef uint64_t h = name_hash_start()
    cdef Py_ssize_t i
    for i in range(n):
        h = name_hash_step(h, ascii_lower(s[i]))
    return name_hash_end(h)


cdef inline bint is_ascii_space(unsigned char c) noexcept nogil:
    """bytes.split()'s and bytes.strip()'s whitespace."""
    return c == 32 or c == 9 or c == 10 or c == 11 or c == 12 or c == 13


cdef inline void* resized(void* data, Py_ssize_t count, size_t item) except NULL:
    """`data` reallocated to hold `count` items of `item` bytes; MemoryError if it cannot be."""
    cdef void* grown = realloc(data, count * item)
    if grown == NULL:
        raise MemoryError()
    return grown
