# cython: language_level=3
"""The article profile's regions, as the nesting scan reads the page (_regions.pyx).

The scan (_nesting.pyx) reads each byte of the page once; where it reads
something a region is named by, it hands it here: an attribute of a start
tag (keep_attribute), an element it opens (labels, then open), a meta tag's
end (end_of_start_tag), a raw-text element's content (read_raw_text). The
calls made for most tags and attributes are inline methods below: Cython
compiles them into the scan's own loop, where they read only this object's
fields (the names they compare with are copied here when it is made). The
rest are the module's: keep_attribute, for one, is called for every
attribute (inlined, it would slow the scan's loop without regions too).
"""

cimport cython
from libc.stdint cimport uint64_t

# A region's label bits (nesting's MAIN_LABEL, COMMENTS_LABEL, BOXES_LABEL, CONTENT_LABEL,
# CONSENT_LABEL).
cdef enum:
    MAIN_BIT = 1
    COMMENTS_BIT = 2
    BOXES_BIT = 4
    CONTENT_BIT = 8
    CONSENT_BIT = 16

# The attributes a region is recognised by, in this order (_REGION_ATTRIBUTES).
cdef enum:
    A_CLASS = 0
    A_ID = 1
    A_ROLE = 2
    A_ITEMPROP = 3
    A_PROPERTY = 4
    A_CONTENT = 5
    A_TYPE = 6
    ATTRIBUTE_COUNT = 7
    # those that can give a start tag labels (bits of attributes_found)
    LABEL_ATTRIBUTES = 15  # class, id, role, itemprop


@cython.final
cdef class Regions:
    """The regions of one page: its marks, whether it declares an article, and the
    region attributes of the start tag being read."""

    cdef const unsigned char* data
    cdef Py_ssize_t size
    cdef bint structure  # the page declares an article
    # The marks (where, label bits, the mark of the nearest marked element
    # around, -1 for none: C arrays, read at the end).
    cdef Py_ssize_t* mark_where
    cdef int* mark_labels
    cdef Py_ssize_t* mark_outer
    cdef Py_ssize_t mark_count, mark_capacity
    # The region attributes of the start tag being read: start and end of
    # each value; bit n of attributes_found: the attribute in slot n is set.
    cdef Py_ssize_t attribute_start[ATTRIBUTE_COUNT]
    cdef Py_ssize_t attribute_end[ATTRIBUTE_COUNT]
    cdef int attributes_found
    # The element names the inline methods compare with (the module's, copied when made).
    cdef uint64_t h1_name, main_name, article_name, meta_name

    cdef void keep_attribute(self, Py_ssize_t name_start, Py_ssize_t name_end,
                             Py_ssize_t value_start, Py_ssize_t value_end) noexcept
    cdef int read_labels(self, uint64_t name, bint inline) noexcept
    cdef Py_ssize_t add_mark(self, Py_ssize_t where, int labels, const Py_ssize_t* mark_of,
                             Py_ssize_t length) except -2
    cdef void unmark(self, const Py_ssize_t* mark_of, Py_ssize_t length) noexcept
    cdef void read_meta(self) noexcept
    cdef void read_raw_text(self, uint64_t name, Py_ssize_t at, Py_ssize_t end) noexcept
    cdef list marked(self, list cuts)
    # (their helpers)
    cdef int read_words(self, int slot, bint content) noexcept
    cdef bint has_word(self, int slot, bytes word) noexcept
    cdef bint attribute_is(self, int slot, bytes value) noexcept
    cdef bint holds_article_type(self, Py_ssize_t at, Py_ssize_t end) noexcept

    cdef inline void start_tag(self) noexcept:
        """A start tag's attributes begin: none read yet."""
        self.attributes_found = 0

    cdef inline int labels(self, uint64_t name, bint inline) noexcept:
        """The label bits of the start tag just read, an element `name` that opens
        (`inline`: one of SPEC's inline elements, a span or a code, say)."""
        if (not self.attributes_found & LABEL_ATTRIBUTES
                and name != self.main_name and name != self.article_name):
            return 0  # most tags: nothing to read
        return self.read_labels(name, inline)

    cdef inline Py_ssize_t open(self, uint64_t name, int labels, Py_ssize_t where,
                                const Py_ssize_t* mark_of, Py_ssize_t length) except -2:
        """An element opens with `labels` (its mark goes at `where`), above the stack's
        entries whose marks are `mark_of` (-1: none): its mark, or -1 for none."""
        if name == self.h1_name or labels & MAIN_BIT:
            # a region holding the article's headline or container is none
            self.unmark(mark_of, length)
        if not labels:
            return -1
        return self.add_mark(where, labels, mark_of, length)

    cdef inline void end_of_start_tag(self, uint64_t name) noexcept:
        """The start tag of `name` has been read (an og:type meta declares an article)."""
        if name == self.meta_name:
            self.read_meta()


cdef Regions regions_of(const unsigned char* data, Py_ssize_t size)
