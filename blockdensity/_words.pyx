# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""words.count_ended compiled: the word rule applied in one pass over the characters.

blockdensity.words holds the rule (`char_class`) and the reference, which
reaches C speed through encodings and byte translations that are fast only
for some scripts; this counts every script at the same few nanoseconds a
character. The class of each code point is asked of words.char_class once per
process and kept in a table here. tests/test_words.py checks that both count
the same on every corpus page, every character and random text.
"""

from cpython.unicode cimport PyUnicode_KIND, PyUnicode_DATA, PyUnicode_READ, PyUnicode_GET_LENGTH
from libc.stdlib cimport calloc

DEF CODE_POINTS = 0x110000
# The classes: 0 not yet asked, then what words.char_class says.
DEF WORD_LETTER = 1  # a letter or number: makes a run a word
DEF WORD_JOINER = 2  # underscore, combining mark or glue: inside a run, not a letter
DEF WORD_SEPARATOR = 3
DEF WORD_CJK = 4  # a word by itself, and a separator for its neighbours

cdef unsigned char* _classes = NULL
cdef object _char_class = None
cdef dict _class_codes = {}


def configure(object char_class, str letter, str joiner, str separator, str cjk_word,
              str glue):
    """Take words.py's rule for one character and the class texts it returns."""
    global _classes, _char_class, _class_codes
    if _classes == NULL:
        _classes = <unsigned char*> calloc(CODE_POINTS, 1)
        if _classes == NULL:
            raise MemoryError()
    _char_class = char_class
    _class_codes = {letter: WORD_LETTER, joiner: WORD_JOINER, separator: WORD_SEPARATOR,
                    cjk_word: WORD_CJK}
    for char in glue:
        _class_codes[char] = WORD_JOINER


cdef unsigned char _ask(Py_UCS4 code) except 0:
    cdef unsigned char value = _class_codes[_char_class(chr(code))]
    _classes[code] = value
    return value


def count_ended(str texts):
    """The number of words in each part of `texts`, a run of texts each ended by NUL
    (words.count_ended: what follows the last NUL is not a part)."""
    if _classes == NULL:
        raise RuntimeError("blockdensity._words.configure() has not been called")
    cdef int kind = PyUnicode_KIND(texts)
    cdef void* data = PyUnicode_DATA(texts)
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(texts)
    cdef Py_ssize_t index
    cdef Py_ssize_t count = 0
    # Inside a run of letters and joiners that holds a letter. (Joiners alone
    # make no word, and inside a run change nothing: only letters matter.)
    cdef bint lettered = False
    cdef Py_UCS4 code
    cdef unsigned char value
    cdef list counts = []
    for index in range(length):
        code = PyUnicode_READ(kind, data, index)
        if code == 0:
            # A word counts once a separator ends it, as in the reference (END
            # is a space and a NUL): a run that runs into the NUL is not one.
            counts.append(count)
            count = 0
            lettered = False
            continue
        value = _classes[code]
        if value == 0:
            value = _ask(code)
        if value == WORD_LETTER:
            lettered = True
        elif value != WORD_JOINER:
            if lettered:
                count += 1
            lettered = False
            if value == WORD_CJK:
                count += 1
    return counts
