# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The article profile's regions, found by the nesting scan as it reads the page.

blockdensity.nesting hands over the region words at import (configure);
the scan (_nesting.pyx) makes a Regions for a page it reads with regions,
and calls it where an element opens (_regions.pxd says how). A start tag
is labelled by its element and its attributes: a main container (main,
article, role=main, itemprop=articleBody), a content container (a CMS's
name for it in class or id: an owner word then a part word), comments, a
consent notice or boxes (their words in class or id). Each labelled element gets a mark, the
attribute inserted after its name (nesting.REGION_ATTRIBUTE), unless the
region around it keeps the same label; a page that declares no article
(no main container, no og:type article, no JSON-LD article type) gets only
its content containers, comments and consent notices. tests/reference/regions.py is the same
written plainly in Python.
"""

cimport cython
from libc.stdint cimport uint16_t, uint64_t
from libc.stdlib cimport free
from libc.string cimport memchr, memcmp, memcpy, memset
from operator import itemgetter

from blockdensity._bytes cimport ascii_lower, is_ascii_space, name_hash, resized

# The class and id words (COMMENTS_BIT or BOXES_BIT) and the content
# containers' names (CONTENT_BIT: an owner word then a part word, "-" and "_"
# skipped) in one automaton (_word_automaton, built by configure): bytes map
# to classes (each byte of a word, any case, "-", "_", and all others), and
# each state's row of the transition table holds, per class, the next state's
# row (its index times the number of classes); _word_bits, by row, the bits
# found when the automaton is there. One pass over a class or id value reads both kinds.
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
cdef bytes _region_attribute = b""
cdef object _first = itemgetter(0)
cdef bint _configured = False

_REGION_ATTRIBUTES = (b"class", b"id", b"role", b"itemprop", b"property", b"content", b"type")
# The region attributes' names as keep_attribute reads a name, their lengths
# (bit n: n bytes long), by length n the mask of a 64-bit word's first n
# bytes in memory; the hashes of the elements named (those a Regions' inline
# methods compare with are copied into each).
cdef uint64_t _attribute_words[ATTRIBUTE_COUNT]
cdef uint64_t _attribute_lengths = 0
cdef uint64_t _word_masks[9]
cdef uint64_t H1_NAME = name_hash(b"h1", 2)
cdef uint64_t MAIN_NAME = name_hash(b"main", 4)
cdef uint64_t ARTICLE_NAME = name_hash(b"article", 7)
cdef uint64_t META_NAME = name_hash(b"meta", 4)
cdef uint64_t SCRIPT_NAME = name_hash(b"script", 6)


cdef int _fill_attribute_words() except -1:
    global _attribute_lengths
    cdef unsigned char ones[8]
    cdef int n, slot
    cdef bytes attribute
    memset(ones, 255, 8)
    for n in range(9):
        _word_masks[n] = 0
        memcpy(&_word_masks[n], ones, n)
    for slot, attribute in enumerate(_REGION_ATTRIBUTES):
        if not 0 < len(attribute) <= 8 or not attribute.isalpha() or not attribute.islower():
            raise ValueError(f"attribute name {attribute!r}: 1 to 8 lowercase letters "
                             "(the scan reads one as a 64-bit word)")
        _attribute_words[slot] = 0
        memcpy(&_attribute_words[slot], <const unsigned char*>attribute, len(attribute))
        _attribute_words[slot] = (_attribute_words[slot] | 0x2020202020202020ULL) & _word_masks[len(attribute)]
        _attribute_lengths |= (<uint64_t>1) << len(attribute)
    return 0


_fill_attribute_words()


def _word_automaton(tuple comment_tokens, tuple box_tokens, tuple consent_tokens,
                    tuple content_owners, tuple content_parts):
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
    for word in consent_tokens:
        region.append((word, CONSENT_BIT))
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
    cdef uint16_t* next_row = <uint16_t*>resized(_word_next, len(rows), sizeof(uint16_t))
    _word_next = next_row
    cdef unsigned char* found = <unsigned char*>resized(_word_bits, len(rows), 1)
    _word_bits = found
    for i in range(256):
        _byte_class[i] = classes[i]
    for i in range(len(rows)):
        next_row[i] = rows[i]
        found[i] = 0
    for i in range(len(bits)):
        found[i * count] = bits[i]
    return 0


def configure(tuple comment_tokens, tuple box_tokens, tuple consent_tokens,
              tuple article_types, bytes region_attribute, tuple content_owners,
              tuple content_parts):
    """Take nesting.py's region words, article types and region attribute."""
    global _article_types, _region_attribute, _configured
    global _type_bytes, _type_length, _type_count, _mark_texts
    cdef Py_ssize_t slot
    words = _word_automaton(comment_tokens, box_tokens, consent_tokens, content_owners,
                            content_parts)
    _type_bytes = <const unsigned char**>resized(_type_bytes, len(article_types) + 1,
                                                 sizeof(const unsigned char*))
    _type_length = <Py_ssize_t*>resized(_type_length, len(article_types) + 1,
                                        sizeof(Py_ssize_t))
    _article_types = list(article_types)
    _type_count = len(_article_types)
    for slot in range(_type_count):
        _type_bytes[slot] = <bytes>_article_types[slot]
        _type_length[slot] = len(<bytes>_article_types[slot])
    _set_word_automaton(words[0], words[1], words[2], words[3])
    _region_attribute = region_attribute
    _mark_texts = tuple(_mark_bytes(labels) for labels in range(32))
    _configured = True


cdef Regions regions_of(const unsigned char* data, Py_ssize_t size):
    """The regions of the page of `size` bytes at `data`, none found yet."""
    if not _configured:
        raise RuntimeError("blockdensity._regions.configure() has not been called")
    cdef Regions regions = Regions.__new__(Regions)
    regions.data = data
    regions.size = size
    return regions


cdef bytes _mark_bytes(int labels):
    words = []
    if labels & MAIN_BIT:
        words.append("main")
    if labels & CONTENT_BIT:
        words.append("content")
    if labels & COMMENTS_BIT:
        words.append("comments")
    elif labels & CONSENT_BIT:
        words.append("consent")
    elif labels & BOXES_BIT:
        words.append("boxes")
    return b" " + _region_attribute + b'="' + " ".join(words).encode() + b'"'


cdef bint _equal_lower(const unsigned char* s, Py_ssize_t n, bytes word,
                       Py_ssize_t m) noexcept:
    cdef const unsigned char* w = word
    cdef Py_ssize_t i
    if n != m:
        return False
    for i in range(n):
        if ascii_lower(s[i]) != w[i]:
            return False
    return True


@cython.final
cdef class Regions:

    def __cinit__(self):
        self.h1_name, self.main_name, self.article_name = H1_NAME, MAIN_NAME, ARTICLE_NAME
        self.meta_name = META_NAME

    def __dealloc__(self):
        free(self.mark_where)
        free(self.mark_labels)
        free(self.mark_outer)

    # -- the start tag being read -------------------------------------------

    cdef void keep_attribute(self, Py_ssize_t name_start, Py_ssize_t name_end,
                             Py_ssize_t value_start, Py_ssize_t value_end) noexcept:
        """Note a region attribute's value (the first of each name, as HTML keeps).

        The name is read as one 64-bit word with bit 5 of each byte set: equal
        to a word of _attribute_words exactly when its bytes are that name in
        any case (no byte of a name is 0: the lengths agree too)."""
        cdef Py_ssize_t length = name_end - name_start
        if length > 8 or not (_attribute_lengths >> length) & 1:
            return
        cdef uint64_t word = 0
        if self.size - name_start >= 8:
            memcpy(&word, self.data + name_start, 8)
        else:
            memcpy(&word, self.data + name_start, <size_t>length)
        word = (word | 0x2020202020202020ULL) & _word_masks[length]
        cdef int slot
        for slot in range(ATTRIBUTE_COUNT):
            if word == _attribute_words[slot]:
                if not self.attributes_found & (1 << slot):
                    self.attribute_start[slot] = value_start
                    self.attribute_end[slot] = value_end
                    self.attributes_found |= 1 << slot
                return

    cdef int read_labels(self, uint64_t name, bint inline) noexcept:
        """The region label bits of the start tag just read (the reference's labels).
        A comments region is a block of posts: on an inline element a comment word
        names a syntax highlighter's token (highlight.js's `hljs-comment`, Prism's
        `token comment` inside a <pre>) or a comment count, and is not read."""
        cdef int labels = 0
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
            if not inline:
                labels |= COMMENTS_BIT
        elif groups & CONSENT_BIT:
            labels |= CONSENT_BIT
        elif groups & BOXES_BIT:
            labels |= BOXES_BIT
        return labels

    cdef int read_words(self, int slot, bint content) noexcept:
        """The group bits of the region words the attribute in `slot` holds (any
        case), and with `content` CONTENT_BIT if it names a content container
        (an owner word then a part word, "-" and "_" skipped: entry-content,
        post__body, articleBody): the reference's named groups and content
        names in one pass of the word automaton."""
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
            while at < end and is_ascii_space(self.data[at]):
                at += 1
            start = at
            while at < end and not is_ascii_space(self.data[at]):
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
        while start < end and is_ascii_space(self.data[start]):
            start += 1
        while end > start and is_ascii_space(self.data[end - 1]):
            end -= 1
        return _equal_lower(self.data + start, end - start, value, len(value))

    cdef void read_meta(self) noexcept:
        if self.attribute_is(A_PROPERTY, b"og:type") and self.attribute_is(A_CONTENT, b"article"):
            self.structure = True

    cdef void read_raw_text(self, uint64_t name, Py_ssize_t at, Py_ssize_t end) noexcept:
        """The content of a raw-text element `name`, from `at` to `end`: a JSON-LD
        block that holds an article type declares an article."""
        if (name == SCRIPT_NAME and self.attribute_is(A_TYPE, b"application/ld+json")
                and self.holds_article_type(at, end)):
            self.structure = True

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

    # -- the marks ----------------------------------------------------------

    cdef Py_ssize_t add_mark(self, Py_ssize_t where, int labels, const Py_ssize_t* mark_of,
                             Py_ssize_t length) except -2:
        """A new mark's number, for an element labelled `labels` opened above the
        stack's entries whose marks are `mark_of`."""
        if labels & MAIN_BIT:
            self.structure = True
        if self.mark_count == self.mark_capacity:
            self.mark_capacity = self.mark_capacity * 2 if self.mark_capacity else 64
            self.mark_where = <Py_ssize_t*>resized(self.mark_where, self.mark_capacity,
                                                   sizeof(Py_ssize_t))
            self.mark_labels = <int*>resized(self.mark_labels, self.mark_capacity, sizeof(int))
            self.mark_outer = <Py_ssize_t*>resized(self.mark_outer, self.mark_capacity,
                                                   sizeof(Py_ssize_t))
        # the mark of the nearest marked element open around this one, or -1
        cdef Py_ssize_t outer = -1
        cdef Py_ssize_t index = length - 1
        while index >= 0:
            if mark_of[index] >= 0:
                outer = mark_of[index]
                break
            index -= 1
        self.mark_where[self.mark_count] = where
        self.mark_labels[self.mark_count] = labels
        self.mark_outer[self.mark_count] = outer
        self.mark_count += 1
        return self.mark_count - 1

    cdef void unmark(self, const Py_ssize_t* mark_of, Py_ssize_t length) noexcept:
        """Take the comments and boxes labels off every region open around this point
        (the stack's entries whose marks are `mark_of`)."""
        cdef Py_ssize_t index
        for index in range(length):
            if mark_of[index] >= 0:
                self.mark_labels[mark_of[index]] &= MAIN_BIT | CONTENT_BIT

    cdef list marked(self, list cuts):
        """`cuts` and the marks among them (in order), those kept: a comments or boxes
        label inside an element that keeps the same label adds nothing (the article
        profile reads the outermost of each), and a page that declares no article
        gets only its content containers, comments and consent notices."""
        cdef list merged
        cdef int around, own
        cdef Py_ssize_t index, outer, where
        cdef int* labels = self.mark_labels
        if not self.mark_count:
            return cuts
        merged = list(cuts)
        for index in range(self.mark_count):
            outer = self.mark_outer[index]
            # the label bits kept on the marks around this one (an outer mark's
            # entry already holds them, with its own: it comes first)
            around = labels[outer] if outer >= 0 else 0
            # a container's label always stays
            own = labels[index] & ~(around & ~(MAIN_BIT | CONTENT_BIT))
            if not self.structure:
                own &= CONTENT_BIT | COMMENTS_BIT | CONSENT_BIT
            labels[index] = around | own
            if own:
                where = self.mark_where[index]
                merged.append((where, where, <bytes>_mark_texts[own]))
        if cuts:  # the marks alone are in order already
            merged.sort(key=_first)
        return merged
