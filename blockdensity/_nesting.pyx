# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The bound on nesting's scan: the stack of open elements and the formatting list, in C.

blockdensity.nesting holds the rules (the element categories, the limits)
and hands them over once, at import (configure); this is the scan itself,
the one the fit runs (a few percent of a fit). The names on the stack and on
the list of active formatting elements are 64-bit FNV-1a hashes of their
lowercase bytes (0 is a marker; _bytes.pxd). With regions (the article
profile), the same pass finds the page's regions: the scan hands a Regions
(_regions.pyx) what they are named by as it reads it, each byte read once.
tests/reference/scan.py is the same algorithm written plainly in Python;
tests/test_nesting.py checks that both find the same cuts.
"""

cimport cython
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memchr

from blockdensity._bytes cimport name_hash, name_hash_end, name_hash_start, name_hash_step, resized
from blockdensity._regions cimport Regions, regions_of

DEF TABLE_SIZE = 2048  # open addressing, a power of two, well over twice the names

cdef uint64_t _keys[TABLE_SIZE]
cdef uint32_t _values[TABLE_SIZE]
cdef bint _configured = False

cdef uint32_t VOID, IGNORED, RAW, PLAINTEXT, FORMATTING, SINGLE, CLOSES_P, SCOPE, MARKER
cdef uint32_t TABLE, TABLE_PART, SPECIAL, LI, DDDT, HEADING, OPTION, CELL, ROW, SECTION
cdef uint32_t BUTTON, P, FOREIGN, INTEGRATION, BREAKOUT, INLINE_ELEMENT, LIST_PASS
cdef uint32_t BOUNDARY_ELEMENT
cdef uint64_t NOSCRIPT_NAME = name_hash(b"noscript", 8)
# The parents the tree builder inserts for a row or a cell put straight into
# a table (tbody) or a table section (tr), and their flags.
cdef uint64_t TBODY_NAME = name_hash(b"tbody", 5)
cdef uint64_t TR_NAME = name_hash(b"tr", 2)
cdef uint32_t TBODY_FLAGS, TR_FLAGS
cdef uint64_t OPTION_NAME = name_hash(b"option", 6)
cdef uint32_t ENTRY_FOREIGN, ENTRY_DROPPED
cdef Py_ssize_t DEPTH_LIMIT, FORMATTING_LIMIT, SEARCH_LIMIT, NODE_LIMIT, ATTRIBUTE_LIMIT
# What the cut past the page's budget leaves: a comment (never text), so that
# the page's reader can tell that the page was cut short (nesting.bound).
BUDGET_CUT = b"<!-- blockdensity: the element budget ends the page here -->"
DEF SOUGHT_COUNT = 7
cdef uint32_t SOUGHT[SOUGHT_COUNT]  # the flags a search looks for (nesting.SOUGHT)

# What the tokenizer asks of a byte, one table lookup each, and each byte
# lowercased (ASCII letters only, as bytes.lower()).
DEF B_SPACE = 1  # HTML whitespace: tab, LF, FF, CR, space
DEF B_NAME_END = 2  # ends a tag name: whitespace, "/", ">"
DEF B_ATTRIBUTE_END = 4  # ends an attribute name: whitespace, "/", ">", "="
DEF B_VALUE_END = 8  # ends an unquoted attribute value: whitespace, ">"
DEF B_LETTER = 16  # an ASCII letter
cdef unsigned char _byte_kind[256]
cdef unsigned char _lower_of[256]


cdef int _fill_byte_tables() except -1:
    cdef int c, kind
    for c in range(256):
        kind = 0
        if c == 32 or c == 9 or c == 10 or c == 12 or c == 13:
            kind |= B_SPACE | B_NAME_END | B_ATTRIBUTE_END | B_VALUE_END
        if c == 47:  # "/"
            kind |= B_NAME_END | B_ATTRIBUTE_END
        if c == 62:  # ">"
            kind |= B_NAME_END | B_ATTRIBUTE_END | B_VALUE_END
        if c == 61:  # "="
            kind |= B_ATTRIBUTE_END
        if 65 <= c <= 90 or 97 <= c <= 122:
            kind |= B_LETTER
        _byte_kind[c] = kind
        _lower_of[c] = c | 32 if 65 <= c <= 90 else c
    return 0


_fill_byte_tables()


cdef inline bint _is_letter(unsigned char c) noexcept nogil:
    return _byte_kind[c] & B_LETTER


cdef inline bint _is_space(unsigned char c) noexcept nogil:
    return _byte_kind[c] & B_SPACE


cdef inline unsigned char _lower(unsigned char c) noexcept nogil:
    return _lower_of[c]


cdef inline uint32_t _flags_of(uint64_t h) noexcept nogil:
    cdef Py_ssize_t slot = <Py_ssize_t>(h & (TABLE_SIZE - 1))
    while _keys[slot] != 0:
        if _keys[slot] == h:
            return _values[slot]
        slot = (slot + 1) & (TABLE_SIZE - 1)
    return 0


def configure(dict element_flags, dict bits, Py_ssize_t depth_limit,
              Py_ssize_t formatting_limit, Py_ssize_t search_limit, Py_ssize_t node_limit,
              Py_ssize_t attribute_limit):
    """Take nesting.py's flag table, its flag bits by name and its limits."""
    global TBODY_FLAGS, TR_FLAGS
    global VOID, IGNORED, RAW, PLAINTEXT, FORMATTING, SINGLE, CLOSES_P, SCOPE, MARKER
    global TABLE, TABLE_PART, SPECIAL, LI, DDDT, HEADING, OPTION, CELL, ROW, SECTION
    global BUTTON, P, FOREIGN, INTEGRATION, BREAKOUT, INLINE_ELEMENT, LIST_PASS
    global BOUNDARY_ELEMENT
    global ENTRY_FOREIGN, ENTRY_DROPPED, DEPTH_LIMIT, FORMATTING_LIMIT, SEARCH_LIMIT
    global NODE_LIMIT, ATTRIBUTE_LIMIT
    global _configured
    cdef bytes name
    cdef uint64_t h
    cdef Py_ssize_t slot
    if len(element_flags) * 2 > TABLE_SIZE:
        raise ValueError(f"{len(element_flags)} element names do not fit a table of {TABLE_SIZE}")
    for slot in range(TABLE_SIZE):
        _keys[slot] = 0
    for key, value in element_flags.items():
        name = key.encode("ascii")
        h = name_hash(name, len(name))
        slot = <Py_ssize_t>(h & (TABLE_SIZE - 1))
        while _keys[slot] != 0:
            if _keys[slot] == h:
                raise ValueError(f"element name {key!r} collides with another's hash")
            slot = (slot + 1) & (TABLE_SIZE - 1)
        _keys[slot] = h
        _values[slot] = value
    VOID, IGNORED, RAW, PLAINTEXT = bits["VOID"], bits["IGNORED"], bits["RAW"], bits["PLAINTEXT"]
    FORMATTING, SINGLE, CLOSES_P = bits["FORMATTING"], bits["SINGLE"], bits["CLOSES_P"]
    SCOPE, MARKER, TABLE, TABLE_PART = bits["SCOPE"], bits["MARKER"], bits["TABLE"], bits["TABLE_PART"]
    SPECIAL, LI, DDDT, HEADING = bits["SPECIAL"], bits["LI"], bits["DDDT"], bits["HEADING"]
    OPTION, CELL, ROW, SECTION = bits["OPTION"], bits["CELL"], bits["ROW"], bits["SECTION"]
    BUTTON, P, FOREIGN, INTEGRATION = bits["BUTTON"], bits["P"], bits["FOREIGN"], bits["INTEGRATION"]
    BREAKOUT, INLINE_ELEMENT, LIST_PASS = bits["BREAKOUT"], bits["INLINE_ELEMENT"], bits["LIST_PASS"]
    ENTRY_FOREIGN, ENTRY_DROPPED = bits["ENTRY_FOREIGN"], bits["ENTRY_DROPPED"]
    BOUNDARY_ELEMENT = bits["BOUNDARY_ELEMENT"]
    TBODY_FLAGS, TR_FLAGS = _flags_of(TBODY_NAME), _flags_of(TR_NAME)
    DEPTH_LIMIT, FORMATTING_LIMIT, SEARCH_LIMIT = depth_limit, formatting_limit, search_limit
    NODE_LIMIT, ATTRIBUTE_LIMIT = node_limit, attribute_limit
    SOUGHT[:] = [P, LI, DDDT, CELL, ROW, SECTION, BUTTON]
    _configured = True


@cython.final
cdef class _Scan:
    cdef const unsigned char* data
    cdef Py_ssize_t size
    cdef uint64_t* names
    cdef uint32_t* flags
    cdef Py_ssize_t length, capacity, kept, tables
    cdef uint64_t* formatting
    cdef Py_ssize_t formatting_length, formatting_capacity, formatting_elements
    cdef Py_ssize_t open_with[SOUGHT_COUNT]  # stack entries by sought flag
    cdef list cuts
    # The article profile's regions: whether to find them, those found as the
    # page is read (with regions), and each stack entry's mark (-1 for none).
    cdef bint regions
    cdef Regions found
    cdef Py_ssize_t* mark_of
    # The bound on the page's size (nesting.NODE_LIMIT), in half elements:
    # two a start tag, one an attribute, read so far; of the start tag being read, its attributes, where those
    # past ATTRIBUTE_LIMIT begin (-1: none) and where its attributes end.
    cdef Py_ssize_t nodes, tag_attributes, excess_start, attributes_close

    def __cinit__(self):
        self.capacity = 64
        self.names = <uint64_t*>malloc(self.capacity * sizeof(uint64_t))
        self.flags = <uint32_t*>malloc(self.capacity * sizeof(uint32_t))
        self.formatting_capacity = 64
        self.formatting = <uint64_t*>malloc(self.formatting_capacity * sizeof(uint64_t))
        self.mark_of = <Py_ssize_t*>malloc(self.capacity * sizeof(Py_ssize_t))
        if (self.names == NULL or self.flags == NULL or self.formatting == NULL
                or self.mark_of == NULL):
            raise MemoryError()
        self.cuts = []
        cdef Py_ssize_t i
        for i in range(SOUGHT_COUNT):
            self.open_with[i] = 0

    def __dealloc__(self):
        free(self.names)
        free(self.flags)
        free(self.formatting)
        free(self.mark_of)

    # -- the stack ---------------------------------------------------------

    cdef inline Py_ssize_t depth(self) noexcept:
        return self.kept + self.formatting_elements

    cdef int push(self, uint64_t name, uint32_t flags, Py_ssize_t mark) except -1:
        if self.length == self.capacity:
            self.capacity *= 2
            self.names = <uint64_t*>resized(self.names, self.capacity, sizeof(uint64_t))
            self.flags = <uint32_t*>resized(self.flags, self.capacity, sizeof(uint32_t))
            self.mark_of = <Py_ssize_t*>resized(self.mark_of, self.capacity, sizeof(Py_ssize_t))
        self.names[self.length] = name
        self.flags[self.length] = flags
        self.mark_of[self.length] = mark
        self.length += 1
        self.count(flags, 1)
        if not flags & ENTRY_DROPPED:
            self.kept += 1
            if flags & TABLE:
                self.tables += 1
            if flags & MARKER:
                self.add_formatting(0)
        return 0

    cdef void pop(self) noexcept:
        self.length -= 1
        cdef uint32_t flags = self.flags[self.length]
        self.count(flags, -1)
        if not flags & ENTRY_DROPPED:
            self.kept -= 1
            if flags & TABLE:
                self.tables -= 1
            if flags & MARKER:
                self.clear_to_marker()

    cdef inline void count(self, uint32_t flags, Py_ssize_t change) noexcept:
        cdef Py_ssize_t i
        for i in range(SOUGHT_COUNT):
            if flags & SOUGHT[i]:
                self.open_with[i] += change

    cdef inline bint any_open(self, uint32_t wanted) noexcept:
        cdef Py_ssize_t i
        for i in range(SOUGHT_COUNT):
            if wanted == SOUGHT[i]:
                return self.open_with[i] > 0
        return True

    cdef void pop_to(self, Py_ssize_t index) noexcept:
        while self.length > index:
            self.pop()

    cdef Py_ssize_t find(self, uint32_t wanted, uint32_t stop, uint32_t passing) noexcept:
        cdef Py_ssize_t bottom = self.length - SEARCH_LIMIT
        cdef Py_ssize_t index
        cdef uint32_t flags
        if not self.any_open(wanted):
            return -1
        if bottom < 0:
            bottom = 0
        index = self.length - 1
        while index >= bottom:
            flags = self.flags[index]
            if flags & wanted:
                return index
            if flags & stop and not flags & passing:
                return -1
            index -= 1
        return -1

    cdef int implied_parents(self, uint32_t flags) noexcept:
        """How many parents the tree builder inserts for this row or cell: a tbody for a
        row or cell straight in a table, a tr for a cell straight in a table or section."""
        cdef Py_ssize_t bottom = self.length - SEARCH_LIMIT
        cdef Py_ssize_t index = self.length - 1
        cdef uint32_t entry
        if bottom < 0:
            bottom = 0
        while index >= bottom:
            entry = self.flags[index]
            if not entry & ENTRY_DROPPED:
                if entry & ROW:
                    return 0
                if entry & SECTION:
                    return 1 if flags & CELL else 0
                if entry & TABLE:
                    return 2 if flags & CELL else 1
            index -= 1
        return 0

    cdef inline bint in_foreign_content(self) noexcept:
        return self.length > 0 and (
            self.flags[self.length - 1] & (ENTRY_FOREIGN | INTEGRATION)) == ENTRY_FOREIGN

    cdef inline void close(self, Py_ssize_t index) noexcept:
        if index >= 0:
            self.pop_to(index)

    # -- the list of active formatting elements ----------------------------

    cdef int add_formatting(self, uint64_t name) except -1:
        if self.formatting_length == self.formatting_capacity:
            self.formatting_capacity *= 2
            self.formatting = <uint64_t*>resized(self.formatting, self.formatting_capacity,
                                                  sizeof(uint64_t))
        self.formatting[self.formatting_length] = name
        self.formatting_length += 1
        if name != 0:
            self.formatting_elements += 1
        return 0

    cdef void clear_to_marker(self) noexcept:
        cdef uint64_t name
        while self.formatting_length > 0:
            self.formatting_length -= 1
            name = self.formatting[self.formatting_length]
            if name == 0:
                return
            self.formatting_elements -= 1

    cdef Py_ssize_t since_marker(self) noexcept:
        cdef Py_ssize_t index = self.formatting_length - 1
        cdef Py_ssize_t count = 0
        while index >= 0 and self.formatting[index] != 0:
            count += 1
            index -= 1
        return count

    cdef void remove_formatting(self, uint64_t name) noexcept:
        cdef Py_ssize_t index = self.formatting_length - 1
        cdef Py_ssize_t later
        while index >= 0:
            if self.formatting[index] == 0:
                return
            if self.formatting[index] == name:
                for later in range(index, self.formatting_length - 1):
                    self.formatting[later] = self.formatting[later + 1]
                self.formatting_length -= 1
                self.formatting_elements -= 1
                return
            index -= 1

    # -- the page ----------------------------------------------------------

    cdef int cut(self, Py_ssize_t start, Py_ssize_t end, uint32_t flags) except -1:
        if flags & BOUNDARY_ELEMENT:
            self.cuts.append((start, end, b"<hr>"))
        else:
            self.cuts.append((start, end, b"" if flags & INLINE_ELEMENT else b" "))
        return 0

    cdef int open(self, uint64_t name, uint32_t flags, Py_ssize_t start,
                  Py_ssize_t end, Py_ssize_t name_end, int labels) except -1:
        cdef Py_ssize_t mark = -1
        if self.depth() >= DEPTH_LIMIT and not flags & (RAW | PLAINTEXT):
            self.cut(start, end, flags)
            self.push(name, flags | ENTRY_DROPPED, -1)
            return 0
        if self.regions:
            mark = self.found.open(name, labels, name_end, self.mark_of, self.length)
        self.push(name, flags, mark)
        return 0

    cdef int start_tag(self, uint64_t name, Py_ssize_t start, Py_ssize_t end,
                       bint self_closing, Py_ssize_t name_end, uint32_t flags) except -1:
        """The start tag of `name` (its flags: `flags`) between `start` and `end`."""
        cdef int implied
        if self.in_foreign_content():
            if not flags & BREAKOUT:
                if not self_closing:
                    self.open(name, (flags & INTEGRATION) | ENTRY_FOREIGN, start, end,
                              name_end, 0)
                return 0
            while self.in_foreign_content():
                self.pop()
        if flags & IGNORED or (flags & TABLE_PART and self.tables == 0):
            return 0
        if flags & CLOSES_P:
            self.close(self.find(P, SCOPE | BUTTON | INTEGRATION, 0))
        if flags & LI:
            self.close(self.find(LI, SPECIAL, LIST_PASS))
        if flags & DDDT:
            self.close(self.find(DDDT, SPECIAL, LIST_PASS))
        if flags & HEADING and self.length > 0 and self.flags[self.length - 1] & HEADING:
            self.pop()
        if flags & OPTION and self.length > 0 and self.names[self.length - 1] == OPTION_NAME:
            self.pop()  # an option or optgroup closes an open option (not an optgroup)
        if flags & CELL:
            self.close(self.find(CELL, ROW | TABLE, 0))
        if flags & ROW:
            self.close(self.find(ROW, SECTION | TABLE, 0))
        if flags & SECTION:
            self.close(self.find(SECTION, TABLE, 0))
        if flags & BUTTON:
            self.close(self.find(BUTTON, SCOPE, 0))
        if flags & VOID:
            return 0
        if flags & FORMATTING:
            if flags & SINGLE:
                self.remove_formatting(name)
            elif self.since_marker() >= FORMATTING_LIMIT or self.depth() >= DEPTH_LIMIT:
                self.cut(start, end, flags)
                return 0
            self.add_formatting(name)
            return 0
        if flags & FOREIGN:
            if not self_closing:
                self.open(name, (flags & ~INTEGRATION) | ENTRY_FOREIGN, start, end, name_end, 0)
            return 0
        if flags & (ROW | CELL):
            # A row or cell put straight into a table gets a tbody (and a tr) from
            # the tree builder: they nest as deep as the page's own elements.
            implied = self.implied_parents(flags)
            if implied and self.depth() + implied >= DEPTH_LIMIT:
                self.cut(start, end, flags)  # the start tag goes, and its parents with it
                self.push(name, flags | ENTRY_DROPPED, -1)
                return 0
            if implied == 2:
                self.push(TBODY_NAME, TBODY_FLAGS, -1)
                self.push(TR_NAME, TR_FLAGS, -1)
            elif implied == 1:
                self.push(TR_NAME if flags & CELL else TBODY_NAME,
                          TR_FLAGS if flags & CELL else TBODY_FLAGS, -1)
        # the region labels, read only for an element that opens here
        self.open(name, flags & ~INTEGRATION, start, end, name_end,
                  self.found.labels(name, flags & INLINE_ELEMENT) if self.regions else 0)
        return 0

    cdef int end_tag(self, uint64_t name, Py_ssize_t start, Py_ssize_t end) except -1:
        cdef uint32_t flags = _flags_of(name)
        cdef uint32_t stop
        cdef Py_ssize_t bottom, index
        if flags & (IGNORED | VOID):
            return 0
        if flags & FORMATTING:
            self.remove_formatting(name)
            return 0
        stop = 0 if flags & (SCOPE | TABLE_PART) else SCOPE | INTEGRATION
        bottom = self.length - SEARCH_LIMIT
        if bottom < 0:
            bottom = 0
        index = self.length - 1
        while index >= bottom:
            if self.names[index] == name:
                if self.flags[index] & ENTRY_DROPPED:
                    self.cut(start, end, self.flags[index])
                self.pop_to(index)
                return 0
            if self.flags[index] & stop:
                return 0
            index -= 1
        return 0

    cdef Py_ssize_t find_byte(self, unsigned char byte, Py_ssize_t at) noexcept:
        if at >= self.size:
            return -1
        cdef const void* found = memchr(self.data + at, byte, <size_t>(self.size - at))
        if found == NULL:
            return -1
        return <const unsigned char*>found - self.data

    cdef inline Py_ssize_t read_name(self, Py_ssize_t at, uint64_t* name) noexcept:
        """Just past the tag name that begins at `at`; its hash (_bytes.name_hash) in `name`."""
        cdef const unsigned char* d = self.data
        cdef Py_ssize_t size = self.size
        cdef uint64_t h = name_hash_start()
        cdef unsigned char c
        while at < size:
            c = d[at]
            if _byte_kind[c] & B_NAME_END:
                break
            h = name_hash_step(h, _lower_of[c])
            at += 1
        name[0] = name_hash_end(h)
        return at

    cdef Py_ssize_t tag_end(self, Py_ssize_t at) noexcept:
        cdef Py_ssize_t gt = self.find_byte(62, at)
        return self.size + 1 if gt < 0 else gt + 1

    cdef Py_ssize_t comment_end(self, Py_ssize_t lt) noexcept:
        cdef const unsigned char* d = self.data
        cdef Py_ssize_t at
        if lt + 3 < self.size and d[lt + 2] == 45 and d[lt + 3] == 45:  # "<!--"
            if lt + 4 < self.size and d[lt + 4] == 62:
                return lt + 5
            if lt + 5 < self.size and d[lt + 4] == 45 and d[lt + 5] == 62:
                return lt + 6
            at = lt + 4
            while True:
                at = self.find_byte(62, at)
                if at < 0:
                    return self.size
                if at - 2 >= lt + 4 and d[at - 1] == 45 and d[at - 2] == 45:
                    return at + 1
                at += 1
        return self.tag_end(lt + 2)

    cdef Py_ssize_t attributes_end(self, Py_ssize_t at, bint* self_closing) noexcept:
        cdef const unsigned char* d = self.data
        cdef Py_ssize_t size = self.size
        cdef unsigned char c
        cdef Py_ssize_t close, name_start, name_end, value_start, value_end
        self_closing[0] = False
        self.tag_attributes = 0
        self.excess_start = -1
        if self.regions:
            self.found.start_tag()
        while True:
            while at < size and _byte_kind[d[at]] & B_SPACE:
                at += 1
            if at >= size:
                return size + 1
            c = d[at]
            if c == 62:
                self.attributes_close = at
                return at + 1
            if c == 47:
                if at + 1 < size and d[at + 1] == 62:
                    self_closing[0] = True
                    self.attributes_close = at
                    return at + 2
                at += 1
                continue
            name_start = at
            self.tag_attributes += 1
            if self.tag_attributes > ATTRIBUTE_LIMIT and self.excess_start < 0:
                self.excess_start = name_start
            at += 1  # an attribute's name (its first character may be "=")
            while at < size and not _byte_kind[d[at]] & B_ATTRIBUTE_END:
                at += 1
            name_end = at
            while at < size and _is_space(d[at]):
                at += 1
            value_start = value_end = at
            if at < size and d[at] == 61:
                at += 1
                while at < size and _is_space(d[at]):
                    at += 1
                if at < size and (d[at] == 34 or d[at] == 39):
                    close = self.find_byte(d[at], at + 1)
                    if close < 0:
                        return size + 1
                    value_start, value_end = at + 1, close
                    at = close + 1
                else:
                    value_start = at
                    while at < size and not _byte_kind[d[at]] & B_VALUE_END:
                        at += 1
                    value_end = at
            if self.regions:
                self.found.keep_attribute(name_start, name_end, value_start, value_end)

    cdef Py_ssize_t raw_text_end(self, Py_ssize_t at, Py_ssize_t name_start,
                                 Py_ssize_t name_length) noexcept:
        cdef const unsigned char* d = self.data
        cdef Py_ssize_t lt, i, end
        while True:
            lt = self.find_byte(60, at)
            if lt < 0:
                return self.size
            if lt + 1 < self.size and d[lt + 1] == 47:
                end = lt + 2 + name_length
                if end <= self.size:
                    i = 0
                    while i < name_length and _lower(d[lt + 2 + i]) == _lower(d[name_start + i]):
                        i += 1
                    if i == name_length and (end >= self.size or _is_space(d[end])
                                             or d[end] == 47 or d[end] == 62):
                        return lt
            at = lt + 1

    cdef int run(self) except -1:
        cdef const unsigned char* d = self.data
        cdef Py_ssize_t size = self.size
        cdef Py_ssize_t at = 0
        cdef Py_ssize_t lt, name_end
        cdef unsigned char c
        cdef bint self_closing
        cdef uint64_t name
        cdef uint32_t flags
        cdef Py_ssize_t end, raw_end
        while True:
            lt = self.find_byte(60, at)
            if lt < 0 or lt + 1 >= size:
                return 0
            c = d[lt + 1]
            if c == 33:  # "<!"
                at = self.comment_end(lt)
                continue
            if c == 63:  # "<?"
                at = self.tag_end(lt + 2)
                continue
            if c == 47:  # "</"
                if lt + 2 < size and _is_letter(d[lt + 2]):
                    name_end = self.read_name(lt + 2, &name)
                    at = self.tag_end(name_end)
                    if at > size:
                        return 0
                    self.end_tag(name, lt, at)
                else:
                    at = self.tag_end(lt + 2)
                continue
            if not _is_letter(c):
                at = lt + 1
                continue
            name_end = self.read_name(lt + 1, &name)
            at = self.attributes_end(name_end, &self_closing)
            if at > size:
                return 0
            # In half elements: an element is two, an attribute one.
            self.nodes += 2 + min(self.tag_attributes, ATTRIBUTE_LIMIT)
            if self.nodes > 2 * NODE_LIMIT:
                # Past the page's budget the rest of the page goes, tags and
                # text, as a browser's limits end a page (nesting.NODE_LIMIT).
                self.cuts.append((lt, size, BUDGET_CUT))
                return 0
            raw_end = -1
            if name == NOSCRIPT_NAME and not self.in_foreign_content():
                raw_end = self.raw_text_end(at, lt + 1, name_end - lt - 1)
                if raw_end >= size:
                    # A noscript never closed would hide the rest of the page (its
                    # content is raw text to the end, scripting on or off): its
                    # start tag goes and what follows is the page, as an
                    # unterminated <title> is recovered (nesting.py).
                    self.cuts.append((lt, at, b" "))
                    continue
            cut_before = len(self.cuts)
            flags = _flags_of(name)
            self.start_tag(name, lt, at, self_closing, name_end, flags)
            if self.excess_start >= 0 and not (
                    len(self.cuts) > cut_before and self.cuts[len(self.cuts) - 1][0] == lt):
                # The attributes past ATTRIBUTE_LIMIT go (unless the whole tag did).
                self.cuts.append((self.excess_start, self.attributes_close, b""))
            if self.regions:
                self.found.end_of_start_tag(name)
            if flags & (RAW | PLAINTEXT) and not self.in_foreign_content():
                if flags & PLAINTEXT:
                    return 0
                end = raw_end if raw_end >= 0 else self.raw_text_end(at, lt + 1, name_end - lt - 1)
                if self.regions:
                    self.found.read_raw_text(name, at, end)
                at = end

    cdef list result(self):
        """The cuts, and the region marks among them (with regions)."""
        if not self.regions:
            return self.cuts
        return self.found.marked(self.cuts)


cdef _Scan _run(bytes data, bint regions):
    if not _configured:
        raise RuntimeError("blockdensity._nesting.configure() has not been called")
    cdef _Scan state = _Scan()
    state.data = <const unsigned char*>data
    state.size = len(data)
    state.regions = regions
    if regions:
        state.found = regions_of(state.data, state.size)
    state.run()
    return state


def scan(bytes data, bint regions):
    """The cuts of nesting.bound_nesting for `data`: (start, end, replacement), in order;
    with `regions`, the article profile's region marks among them (start == end)."""
    return _run(data, regions).result()


def declares_article(bytes data):
    """Whether the scan finds article structure in `data` (nesting.declares_article)."""
    return _run(data, True).found.structure
