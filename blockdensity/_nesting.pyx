# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The bound on nesting's scan: the stack of open elements and the formatting list, in C.

blockdensity.nesting holds the rules (the element categories, the limits,
the region words) and hands them over once, at import (configure); this is
the scan itself, the one the fit runs (a few percent of a fit). The names on
the stack and on the list of active formatting elements are 64-bit FNV-1a
hashes of their lowercase bytes (0 is a marker). tests/reference/scan.py is
the same algorithm written plainly in Python; tests/test_nesting.py checks
that both find the same cuts.
"""

cimport cython
from libc.stdint cimport uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memchr, memcmp, memcpy, memset
from operator import itemgetter

DEF TABLE_SIZE = 2048  # open addressing, a power of two, well over twice the names

cdef uint64_t _keys[TABLE_SIZE]
cdef uint32_t _values[TABLE_SIZE]
cdef bint _configured = False

cdef uint32_t VOID, IGNORED, RAW, PLAINTEXT, FORMATTING, SINGLE, CLOSES_P, SCOPE, MARKER
cdef uint32_t TABLE, TABLE_PART, SPECIAL, LI, DDDT, HEADING, OPTION, CELL, ROW, SECTION
cdef uint32_t BUTTON, P, FOREIGN, INTEGRATION, BREAKOUT, INLINE_ELEMENT, LIST_PASS
cdef uint32_t BOUNDARY_ELEMENT, ENTRY_REGION
# The article profile's regions (nesting.labels): label bits, and the words
# that name them, lowercase.
DEF MAIN_BIT = 1
DEF COMMENTS_BIT = 2
DEF BOXES_BIT = 4
DEF CONTENT_BIT = 8
# The region words (COMMENTS_BIT or BOXES_BIT) and the content containers'
# names (CONTENT_BIT: an owner word then a part word, "-" and "_" skipped) in
# one automaton (_word_automaton, built by configure): bytes map to classes
# (each byte of a word, any case, "-", "_", and all others), and each state's
# row of the transition table holds, per class, the next state's row (its
# index times the number of classes); _word_bits, by row, the bits found when
# the automaton is there. One pass over a class or id value reads both kinds.
DEF WORD_TABLE_LIMIT = 65536  # uint16 rows
cdef unsigned char _byte_class[256]
cdef uint16_t* _word_next = NULL
cdef unsigned char* _word_bits = NULL
cdef list _article_types = []
# The same, in C (pointers into _article_types' bytes).
cdef const unsigned char** _type_bytes = NULL
cdef Py_ssize_t* _type_length = NULL
cdef Py_ssize_t _type_count = 0
# A mark's attribute text by its label bits (_mark_bytes).
cdef tuple _mark_texts = ()
cdef object _first = itemgetter(0)
cdef bytes _region_attribute = b""
cdef uint64_t H1
# The attributes a region is recognised by, in this order (nesting._REGION_ATTRIBUTES).
DEF A_CLASS = 0
DEF A_ID = 1
DEF A_ROLE = 2
DEF A_ITEMPROP = 3
DEF A_PROPERTY = 4
DEF A_CONTENT = 5
DEF A_TYPE = 6
DEF ATTRIBUTE_COUNT = 7
_REGION_ATTRIBUTES = (b"class", b"id", b"role", b"itemprop", b"property", b"content", b"type")
# Their names as _name_word reads them (8 bytes at most), and which lengths
# they have (bit n: n bytes long), checked before a name is read.
cdef uint64_t _attribute_words[ATTRIBUTE_COUNT]
cdef uint64_t _attribute_lengths
cdef uint64_t MAIN_NAME, ARTICLE_NAME, META_NAME, SCRIPT_NAME, NOSCRIPT_NAME
# The parents the tree builder inserts for a row or a cell put straight into
# a table (tbody) or a table section (tr), and their flags.
cdef uint64_t TBODY_NAME, TR_NAME
cdef uint64_t OPTION_NAME
cdef uint32_t TBODY_FLAGS, TR_FLAGS
cdef uint32_t ENTRY_FOREIGN, ENTRY_DROPPED
cdef Py_ssize_t DEPTH_LIMIT, FORMATTING_LIMIT, SEARCH_LIMIT, NODE_LIMIT, ATTRIBUTE_LIMIT
DEF SOUGHT_COUNT = 7
cdef uint32_t SOUGHT[SOUGHT_COUNT]  # the flags a search looks for (nesting.SOUGHT)


cdef void* _resized(void* data, Py_ssize_t count, size_t item) except NULL:
    """`data` reallocated to hold `count` items of `item` bytes; MemoryError if it cannot be."""
    cdef void* resized = realloc(data, count * item)
    if resized == NULL:
        raise MemoryError()
    return resized


# What the tokenizer asks of a byte, one table lookup each, and each byte
# lowercased (ASCII letters only, as bytes.lower()).
DEF B_SPACE = 1  # HTML whitespace: tab, LF, FF, CR, space
DEF B_NAME_END = 2  # ends a tag name: whitespace, "/", ">"
DEF B_ATTRIBUTE_END = 4  # ends an attribute name: whitespace, "/", ">", "="
DEF B_VALUE_END = 8  # ends an unquoted attribute value: whitespace, ">"
DEF B_LETTER = 16  # an ASCII letter
cdef unsigned char _byte_kind[256]
cdef unsigned char _lower_of[256]
# By length n (0 to 8), the mask of a 64-bit word's first n bytes in memory (_name_word).
cdef uint64_t _word_masks[9]


cdef int _fill_byte_tables() except -1:
    cdef int c, kind
    cdef unsigned char ones[8]
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
    memset(ones, 255, 8)
    for c in range(9):
        _word_masks[c] = 0
        memcpy(&_word_masks[c], ones, c)
    return 0


_fill_byte_tables()


cdef inline bint _is_letter(unsigned char c) noexcept nogil:
    return _byte_kind[c] & B_LETTER


cdef inline bint _is_space(unsigned char c) noexcept nogil:
    return _byte_kind[c] & B_SPACE


cdef inline unsigned char _lower(unsigned char c) noexcept nogil:
    return _lower_of[c]


cdef inline uint64_t _hash(const unsigned char* s, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = 14695981039346656037ULL  # FNV-1a
    cdef Py_ssize_t i
    for i in range(n):
        h = (h ^ _lower_of[s[i]]) * 1099511628211ULL
    return h | 1  # never 0, the marker


cdef inline uint64_t _name_word(const unsigned char* s, Py_ssize_t n,
                                Py_ssize_t available) noexcept nogil:
    """The n (8 at most) bytes at `s` as one 64-bit word, each with bit 5 set:
    equal to the word of a name of lowercase letters exactly when the bytes
    are that name in any case (bit 5 set, no byte is 0: the lengths agree
    too). `available`: the bytes readable at `s`, n or more."""
    cdef uint64_t word = 0
    if available >= 8:
        memcpy(&word, s, 8)
    else:
        memcpy(&word, s, <size_t>n)
    return (word | 0x2020202020202020ULL) & _word_masks[n]


cdef inline uint32_t _flags_of(uint64_t h) noexcept nogil:
    cdef Py_ssize_t slot = <Py_ssize_t>(h & (TABLE_SIZE - 1))
    while _keys[slot] != 0:
        if _keys[slot] == h:
            return _values[slot]
        slot = (slot + 1) & (TABLE_SIZE - 1)
    return 0


def _word_automaton(tuple comment_tokens, tuple box_tokens, tuple content_owners,
                    tuple content_parts):
    """The class and id words' automaton: (byte classes, number of classes, the
    transition table by row, the bits found by row), for _set_word_automaton.

    Two Aho-Corasick automata run side by side: one over the value's bytes for
    the region words (any case; a word's "-" is a byte like any other), one
    over its bytes with "-" and "_" left out for the content containers' names
    (each owner word followed by each part word), as nesting's reference reads
    them; its states are the pairs of theirs that a value can reach."""
    cdef bytes word
    region = []  # (word, bits)
    for word in comment_tokens:
        region.append((word, COMMENTS_BIT))
    for word in box_tokens:
        region.append((word, BOXES_BIT))
    for word, _ in region:
        if not word or word != word.lower():
            raise ValueError(f"region word {word!r} must be non-empty and lowercase")
    for word in (*content_owners, *content_parts):
        if not word or word != word.lower():
            raise ValueError(f"content word {word!r} must be non-empty and lowercase")
    content = [(owner + part, CONTENT_BIT) for owner in content_owners for part in content_parts]
    # Byte classes: 0 for a byte in no word; one for "-", one for "_", one per
    # other byte of a word (its uppercase letter too).
    alphabet = sorted({45, 95} | {byte for word, _ in region + content for byte in word})
    classes = [0] * 256
    for number, byte in enumerate(alphabet, 1):
        classes[byte] = number
        if 97 <= byte <= 122:
            classes[byte - 32] = number
    count = len(alphabet) + 1
    skipped = (classes[45], classes[95])
    raw_next, raw_bits = _aho_corasick(region, classes, count)
    bare_next, bare_bits = _aho_corasick(content, classes, count)
    pairs = [(0, 0)]
    number_of = {(0, 0): 0}
    rows = []
    done = 0
    while done < len(pairs):
        raw, bare = pairs[done]
        done += 1
        for kind in range(count):
            pair = (raw_next[raw][kind], bare if kind in skipped else bare_next[bare][kind])
            number = number_of.get(pair)
            if number is None:
                number = len(pairs)
                if (number + 1) * count > WORD_TABLE_LIMIT:
                    longest = max((word for word, _ in region + content), key=len)
                    raise ValueError(
                        f"the region and content words need over {number} states of "
                        f"{count} byte classes, over a table of {WORD_TABLE_LIMIT} "
                        f"(the longest word: {longest[:16]!r} of {len(longest)} bytes)")
                number_of[pair] = number
                pairs.append(pair)
            rows.append(number * count)
    bits = [raw_bits[raw] | bare_bits[bare] for raw, bare in pairs]
    return bytes(classes), count, rows, bits


def _aho_corasick(list words, list classes, Py_ssize_t count):
    """Aho-Corasick's automaton of `words` ((word, bits)) over byte classes: the
    next state by state and class, and by state the bits of the words ending there."""
    goto = [{}]
    found = [0]
    cdef bytes word
    for word, bits in words:
        state = 0
        for byte in word:
            kind = classes[byte]
            if kind not in goto[state]:
                goto[state][kind] = len(goto)
                goto.append({})
                found.append(0)
            state = goto[state][kind]
        found[state] |= bits
    next_state = [[0] * count for _ in goto]
    failure = [0] * len(goto)
    queue = []
    for kind, state in goto[0].items():
        next_state[0][kind] = state
        queue.append(state)
    done = 0
    while done < len(queue):  # breadth first: a state's failure is done before it
        state = queue[done]
        done += 1
        found[state] |= found[failure[state]]
        for kind in range(count):
            child = goto[state].get(kind)
            if child is None:
                next_state[state][kind] = next_state[failure[state]][kind]
            else:
                failure[child] = next_state[failure[state]][kind]
                next_state[state][kind] = child
                queue.append(child)
    return next_state, found


cdef int _set_word_automaton(bytes classes, Py_ssize_t count, list rows, list bits) except -1:
    global _word_next, _word_bits
    cdef Py_ssize_t i
    cdef uint16_t* next_row = <uint16_t*>_resized(_word_next, len(rows), sizeof(uint16_t))
    _word_next = next_row
    cdef unsigned char* found = <unsigned char*>_resized(_word_bits, len(rows), 1)
    _word_bits = found
    for i in range(256):
        _byte_class[i] = classes[i]
    for i in range(len(rows)):
        next_row[i] = rows[i]
        found[i] = 0
    for i in range(len(bits)):
        found[i * count] = bits[i]
    return 0


def configure(dict element_flags, dict bits, Py_ssize_t depth_limit,
              Py_ssize_t formatting_limit, Py_ssize_t search_limit,
              tuple comment_tokens, tuple box_tokens, tuple article_types,
              bytes region_attribute, Py_ssize_t node_limit, Py_ssize_t attribute_limit,
              tuple content_owners, tuple content_parts):
    """Take nesting.py's flag table, its flag bits by name, its limits and region words."""
    global _article_types, _region_attribute, H1
    global MAIN_NAME, ARTICLE_NAME, META_NAME, SCRIPT_NAME, NOSCRIPT_NAME, ENTRY_REGION
    global TBODY_NAME, TR_NAME, TBODY_FLAGS, TR_FLAGS, OPTION_NAME
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
    words = _word_automaton(comment_tokens, box_tokens, content_owners, content_parts)
    for attribute in _REGION_ATTRIBUTES:
        if not 0 < len(attribute) <= 8 or not attribute.isalpha() or not attribute.islower():
            raise ValueError(f"attribute name {attribute!r}: 1 to 8 lowercase letters "
                             "(the scan reads one as a 64-bit word)")
    if len(element_flags) * 2 > TABLE_SIZE:
        raise ValueError(f"{len(element_flags)} element names do not fit a table of {TABLE_SIZE}")
    for slot in range(TABLE_SIZE):
        _keys[slot] = 0
    for key, value in element_flags.items():
        name = key.encode("ascii")
        h = _hash(name, len(name))
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
    ENTRY_REGION = bits["ENTRY_REGION"]
    global _type_bytes, _type_length, _type_count, _mark_texts
    _type_bytes = <const unsigned char**>_resized(_type_bytes, len(article_types) + 1,
                                                   sizeof(const unsigned char*))
    _type_length = <Py_ssize_t*>_resized(_type_length, len(article_types) + 1,
                                          sizeof(Py_ssize_t))
    _article_types = list(article_types)
    _type_count = len(_article_types)
    for slot in range(_type_count):
        _type_bytes[slot] = <bytes>_article_types[slot]
        _type_length[slot] = len(<bytes>_article_types[slot])
    _set_word_automaton(words[0], words[1], words[2], words[3])
    _region_attribute = region_attribute
    _mark_texts = tuple(_mark_bytes(labels) for labels in range(16))
    global _attribute_lengths
    _attribute_lengths = 0
    for slot, attribute in enumerate(_REGION_ATTRIBUTES):
        _attribute_words[slot] = _name_word(attribute, len(attribute), len(attribute))
        _attribute_lengths |= (<uint64_t>1) << len(attribute)
    H1 = _hash(b"h1", 2)
    MAIN_NAME, ARTICLE_NAME = _hash(b"main", 4), _hash(b"article", 7)
    META_NAME, SCRIPT_NAME = _hash(b"meta", 4), _hash(b"script", 6)
    NOSCRIPT_NAME = _hash(b"noscript", 8)
    TBODY_NAME, TR_NAME = _hash(b"tbody", 5), _hash(b"tr", 2)
    OPTION_NAME = _hash(b"option", 6)
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
    # The article profile's regions: whether to find them, whether the page
    # declares an article, the marks (where, label bits, the mark of the
    # nearest marked element around, -1 for none: C arrays, read at the end)
    # and each stack entry's mark (-1 for none), and the region attributes of
    # the start tag being read (start, end; those of attributes_found).
    cdef bint regions, structure
    cdef Py_ssize_t* mark_where
    cdef int* mark_labels
    cdef Py_ssize_t* mark_outer
    cdef Py_ssize_t mark_count, mark_capacity
    cdef Py_ssize_t* mark_of
    cdef Py_ssize_t attribute_start[ATTRIBUTE_COUNT]
    cdef Py_ssize_t attribute_end[ATTRIBUTE_COUNT]
    cdef int attributes_found  # bit n: attribute_start[n] and attribute_end[n] are set
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
        free(self.mark_where)
        free(self.mark_labels)
        free(self.mark_outer)

    # -- the stack ---------------------------------------------------------

    cdef inline Py_ssize_t depth(self) noexcept:
        return self.kept + self.formatting_elements

    cdef int push(self, uint64_t name, uint32_t flags, Py_ssize_t mark) except -1:
        if self.length == self.capacity:
            self.capacity *= 2
            self.names = <uint64_t*>_resized(self.names, self.capacity, sizeof(uint64_t))
            self.flags = <uint32_t*>_resized(self.flags, self.capacity, sizeof(uint32_t))
            self.mark_of = <Py_ssize_t*>_resized(self.mark_of, self.capacity, sizeof(Py_ssize_t))
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
            self.formatting = <uint64_t*>_resized(self.formatting, self.formatting_capacity,
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
        if self.regions and (name == H1 or labels & MAIN_BIT):
            self.unmark_around()
        if labels:
            if labels & MAIN_BIT:
                self.structure = True
            mark = self.add_mark(name_end, labels, self.outer_mark())
            if labels & (COMMENTS_BIT | BOXES_BIT):
                flags |= ENTRY_REGION
        self.push(name, flags, mark)
        return 0

    cdef Py_ssize_t add_mark(self, Py_ssize_t where, int labels, Py_ssize_t outer) except -1:
        """A new mark's number."""
        if self.mark_count == self.mark_capacity:
            self.mark_capacity = self.mark_capacity * 2 if self.mark_capacity else 64
            self.mark_where = <Py_ssize_t*>_resized(self.mark_where, self.mark_capacity,
                                                    sizeof(Py_ssize_t))
            self.mark_labels = <int*>_resized(self.mark_labels, self.mark_capacity, sizeof(int))
            self.mark_outer = <Py_ssize_t*>_resized(self.mark_outer, self.mark_capacity,
                                                    sizeof(Py_ssize_t))
        self.mark_where[self.mark_count] = where
        self.mark_labels[self.mark_count] = labels
        self.mark_outer[self.mark_count] = outer
        self.mark_count += 1
        return self.mark_count - 1

    cdef Py_ssize_t outer_mark(self) noexcept:
        """The mark of the nearest marked element open around this point, or -1."""
        cdef Py_ssize_t index = self.length - 1
        while index >= 0:
            if self.mark_of[index] >= 0:
                return self.mark_of[index]
            index -= 1
        return -1

    cdef int unmark_around(self) except -1:
        """Take the comments and boxes labels off every region open around this point."""
        cdef Py_ssize_t index
        for index in range(self.length):
            if self.flags[index] & ENTRY_REGION:
                self.mark_labels[self.mark_of[index]] &= MAIN_BIT | CONTENT_BIT
                self.flags[index] &= ~ENTRY_REGION
        return 0

    cdef int labels(self, uint64_t name) noexcept:
        """The region label bits of the start tag just read (nesting._Scan.labels)."""
        cdef int labels = 0
        if (not self.attributes_found & (
                (1 << A_CLASS) | (1 << A_ID) | (1 << A_ROLE) | (1 << A_ITEMPROP))
                and name != MAIN_NAME and name != ARTICLE_NAME):
            return 0  # most tags: nothing to read
        cdef bint main = (name == MAIN_NAME or name == ARTICLE_NAME
                          or (self.attributes_found & (1 << A_ROLE)
                              and self.has_word(A_ROLE, b"main"))
                          or (self.attributes_found & (1 << A_ITEMPROP)
                              and self.has_word(A_ITEMPROP, b"articlebody")))
        # a main container is not also a content container: its owner words go unread
        cdef int groups = self.read_words(A_CLASS, not main)
        groups |= self.read_words(A_ID, not main and not groups & CONTENT_BIT)
        if main:
            labels |= MAIN_BIT
        elif groups & CONTENT_BIT:
            labels |= CONTENT_BIT
        if groups & COMMENTS_BIT:
            labels |= COMMENTS_BIT
        elif groups & BOXES_BIT:
            labels |= BOXES_BIT
        return labels

    cdef int read_words(self, int slot, bint content) noexcept:
        """The group bits of the region words the attribute in `slot` holds (any
        case), and with `content` CONTENT_BIT if it names a content container
        (an owner word then a part word, "-" and "_" skipped: entry-content,
        post__body, articleBody): named_groups and names_content in one pass
        of the word automaton."""
        cdef Py_ssize_t start = self.attribute_start[slot]
        cdef Py_ssize_t end = self.attribute_end[slot]
        cdef const unsigned char* d = self.data
        cdef const uint16_t* next_row = _word_next
        cdef const unsigned char* bits = _word_bits
        cdef Py_ssize_t i = start
        cdef Py_ssize_t row = 0
        cdef int found = 0
        if not self.attributes_found & (1 << slot):
            return 0
        while i + 2 <= end:  # two bytes a step: half the loop's own work
            row = next_row[row + _byte_class[d[i]]]
            found |= bits[row]
            row = next_row[row + _byte_class[d[i + 1]]]
            found |= bits[row]
            i += 2
        if i < end:
            row = next_row[row + _byte_class[d[i]]]
            found |= bits[row]
        return found if content else found & ~CONTENT_BIT

    cdef bint has_word(self, int slot, bytes word) noexcept:
        """Whether the attribute in `slot` has `word` among its whitespace-separated words."""
        cdef Py_ssize_t at = self.attribute_start[slot]
        cdef Py_ssize_t end = self.attribute_end[slot]
        cdef Py_ssize_t start
        if not self.attributes_found & (1 << slot):
            return False
        while at < end:
            while at < end and _is_ascii_space(self.data[at]):
                at += 1
            start = at
            while at < end and not _is_ascii_space(self.data[at]):
                at += 1
            if at > start and _equal_lower(self.data + start, at - start, word, len(word)):
                return True
        return False

    cdef bint attribute_is(self, int slot, bytes value) noexcept:
        """Whether the attribute in `slot`, stripped, is `value` (any case)."""
        cdef Py_ssize_t start = self.attribute_start[slot]
        cdef Py_ssize_t end = self.attribute_end[slot]
        if not self.attributes_found & (1 << slot):
            return not value
        while start < end and _is_ascii_space(self.data[start]):
            start += 1
        while end > start and _is_ascii_space(self.data[end - 1]):
            end -= 1
        return _equal_lower(self.data + start, end - start, value, len(value))

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
                  self.labels(name) if self.regions else 0)
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
        """Just past the tag name that begins at `at`; its hash (_hash) in `name`."""
        cdef const unsigned char* d = self.data
        cdef Py_ssize_t size = self.size
        cdef uint64_t h = 14695981039346656037ULL  # FNV-1a
        cdef unsigned char c
        while at < size:
            c = d[at]
            if _byte_kind[c] & B_NAME_END:
                break
            h = (h ^ _lower_of[c]) * 1099511628211ULL
            at += 1
        name[0] = h | 1  # never 0, the marker
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
        self.attributes_found = 0
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
                self.keep_attribute(name_start, name_end, value_start, value_end)

    cdef void keep_attribute(self, Py_ssize_t name_start, Py_ssize_t name_end,
                             Py_ssize_t value_start, Py_ssize_t value_end) noexcept:
        """Note a region attribute's value (the first of each name, as HTML keeps)."""
        cdef Py_ssize_t length = name_end - name_start
        if length > 8 or not (_attribute_lengths >> length) & 1:
            return
        cdef uint64_t word = _name_word(self.data + name_start, length, self.size - name_start)
        cdef int slot
        for slot in range(ATTRIBUTE_COUNT):
            if word == _attribute_words[slot]:
                if not self.attributes_found & (1 << slot):
                    self.attribute_start[slot] = value_start
                    self.attribute_end[slot] = value_end
                    self.attributes_found |= 1 << slot
                return

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
                self.cuts.append((lt, size, b""))
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
            if (self.regions and name == META_NAME and self.attribute_is(A_PROPERTY, b"og:type")
                    and self.attribute_is(A_CONTENT, b"article")):
                self.structure = True
            if flags & (RAW | PLAINTEXT) and not self.in_foreign_content():
                if flags & PLAINTEXT:
                    return 0
                end = raw_end if raw_end >= 0 else self.raw_text_end(at, lt + 1, name_end - lt - 1)
                if (self.regions and name == SCRIPT_NAME
                        and self.attribute_is(A_TYPE, b"application/ld+json")
                        and self.holds_article_type(at, end)):
                    self.structure = True
                at = end

    cdef bint holds_article_type(self, Py_ssize_t at, Py_ssize_t end) noexcept:
        """Whether an article type occurs in the data between `at` and `end`: one
        pass over it per first byte of the types (their quote: one pass)."""
        cdef const unsigned char* s = self.data + at
        cdef Py_ssize_t n = end - at
        cdef Py_ssize_t kind, other, place, length
        cdef const unsigned char* word
        cdef const void* hit
        cdef unsigned char first
        for kind in range(_type_count):
            if _type_length[kind] == 0:
                return True
        for kind in range(_type_count):
            first = _type_bytes[kind][0]
            for other in range(kind):
                if _type_bytes[other][0] == first:
                    break
            else:
                place = 0
                while place < n:
                    hit = memchr(s + place, first, <size_t>(n - place))
                    if hit == NULL:
                        break
                    place = <const unsigned char*>hit - s
                    for other in range(kind, _type_count):
                        word = _type_bytes[other]
                        length = _type_length[other]
                        if (word[0] == first and place + length <= n
                                and (length < 2 or s[place + 1] == word[1])
                                and memcmp(s + place, word, <size_t>length) == 0):
                            return True
                    place += 1
        return False

    cdef list result(self):
        """The cuts, and the region marks among them if the page declares an article."""
        cdef list merged
        cdef int around, own
        cdef Py_ssize_t index, outer, where
        cdef int* labels = self.mark_labels
        if not self.mark_count:
            return self.cuts
        merged = list(self.cuts)
        for index in range(self.mark_count):
            outer = self.mark_outer[index]
            # the label bits kept on the marks around this one (an outer mark's
            # entry already holds them, with its own: it comes first)
            around = labels[outer] if outer >= 0 else 0
            # a container's label always stays; a page that declares no
            # article gets only its content containers and comments
            own = labels[index] & ~(around & ~(MAIN_BIT | CONTENT_BIT))
            if not self.structure:
                own &= CONTENT_BIT | COMMENTS_BIT
            labels[index] = around | own
            if own:
                where = self.mark_where[index]
                merged.append((where, where, <bytes>_mark_texts[own]))
        if self.cuts:  # the marks alone are in order already
            merged.sort(key=_first)
        return merged


cdef bytes _mark_bytes(int labels):
    words = []
    if labels & MAIN_BIT:
        words.append("main")
    if labels & CONTENT_BIT:
        words.append("content")
    if labels & COMMENTS_BIT:
        words.append("comments")
    elif labels & BOXES_BIT:
        words.append("boxes")
    return b" " + _region_attribute + b'="' + " ".join(words).encode() + b'"'


cdef inline bint _is_ascii_space(unsigned char c) noexcept nogil:
    # bytes.split() and bytes.strip()'s whitespace
    return c == 32 or c == 9 or c == 10 or c == 11 or c == 12 or c == 13


cdef bint _equal_lower(const unsigned char* s, Py_ssize_t n, bytes word,
                       Py_ssize_t m) noexcept:
    cdef const unsigned char* w = word
    cdef Py_ssize_t i
    if n != m:
        return False
    for i in range(n):
        if _lower(s[i]) != w[i]:
            return False
    return True


cdef _Scan _run(bytes data, bint regions):
    if not _configured:
        raise RuntimeError("blockdensity._nesting.configure() has not been called")
    cdef _Scan state = _Scan()
    state.data = <const unsigned char*>data
    state.size = len(data)
    state.regions = regions
    state.run()
    return state


def scan(bytes data, bint regions):
    """The cuts of nesting.bound_nesting for `data`: (start, end, replacement), in order;
    with `regions`, the article profile's region marks among them (start == end)."""
    return _run(data, regions).result()


def declares_article(bytes data):
    """Whether the scan finds article structure in `data` (nesting.declares_article)."""
    return _run(data, True).structure


def has_growing_reference(bytes data):
    """Whether `data` holds "&nGt;" or "&nLt;" (dom.parse replaces them before lexbor sees them).

    memchr to each "&", then four bytes compared: a third of the time of the
    regular expression's search, which this answers for (tests/test_dom.py).
    """
    cdef const unsigned char* s = data
    cdef Py_ssize_t n = len(data)
    cdef Py_ssize_t at = 0
    cdef const void* hit
    cdef const unsigned char* q
    while at + 5 <= n:
        hit = memchr(s + at, 38, <size_t>(n - 4 - at))  # "&", with room for the four after it
        if hit == NULL:
            return False
        q = <const unsigned char*>hit
        if q[1] == 110 and (q[2] == 71 or q[2] == 76) and q[3] == 116 and q[4] == 59:  # "nGt;" "nLt;"
            return True
        at = q - s + 1
    return False
