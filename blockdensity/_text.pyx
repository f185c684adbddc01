# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The fit's passes over its text: counting words, collapsing whitespace.

`count_ended` is words.count_ended: the word rule applied in one pass over
the characters, every script at the same few nanoseconds a character;
`word_starts`, the same pass noting where each word begins (words.word_starts,
for the blocks with sup or sub).
blockdensity.words holds the rule (`char_class`); the class of each code
point is asked of it once per process and kept in a table here. Runs of
Thai, Lao, Khmer and Myanmar are read on the way and, after the pass,
counted by the segmenter in one call (blockdensity.wordbreak.count_runs): a
text without them never calls it.

`collapse` is render_blocks' collapse: one line per block, its whitespace
runs made one space, in one pass instead of a split into words and a join.

`date_stretches` is where blockdensity.evidence looks for dates: the
stretches of a text made of the characters a date is written with that hold
a digit, found in one pass, so that the date pattern runs on a few short
stretches instead of stopping at every letter a month's name begins with.

The classifier's evidence (blockdensity.evidence) reads three more:
`parts_at`, the texts of a few blocks without a split of the whole text
(the Markdown reads the kept blocks' with it too);
`occurrences`, where microdata's itemtype is in the markup, checking a
stretch of characters at once where str.find goes a character at a time on
text that is not Latin-1; and `phrase_lines`, the short blocks' lines whose
letters and digits may be a known phrase's, so that only those are
lowercased and looked up.

tests/test_text_compiled.py checks each against their plain Python
references (tests/reference/text.py) on every corpus page, every character
and random text (phrase_lines: tests/test_evidence.py, against every line
looked up).
"""

from cpython.unicode cimport (
    Py_UNICODE_ISDECIMAL,
    Py_UNICODE_ISSPACE,
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_1BYTE_KIND,
    PyUnicode_2BYTE_KIND,
    PyUnicode_KIND,
    PyUnicode_READ,
    PyUnicode_WRITE,
)
from libc.stdint cimport uint8_t, uint16_t, uint32_t
from libc.stdlib cimport calloc

DEF CODE_POINTS = 0x110000
# The classes: 0 not yet asked, then what words.char_class says.
DEF WORD_LETTER = 1  # a letter or number: makes a run a word
DEF WORD_JOINER = 2  # underscore, combining mark or glue: inside a run, not a letter
DEF WORD_SEPARATOR = 3
DEF WORD_CJK = 4  # a word by itself, and a separator for its neighbours
# Thai, Lao, Khmer, Myanmar (above the others: `value >= WORD_DENSE_LETTER`
# tells them apart in one comparison).
DEF WORD_DENSE_LETTER = 5  # begins or continues a run the segmenter counts
DEF WORD_DENSE_MARK = 6  # continues a run; outside one, a joiner

cdef unsigned char* _classes = NULL
cdef object _char_class = None
cdef dict _class_codes = {}
cdef object _count_runs = None


def configure(object char_class, str letter, str joiner, str separator, str cjk_word,
              str glue, str dense_letter, str dense_mark, object count_runs):
    """Take words.py's rule for one character, the class texts it returns, and the
    segmenter's counter of runs (text, [start, end, ...]) -> [words per run]."""
    global _classes, _char_class, _class_codes, _count_runs
    if _classes == NULL:
        _classes = <unsigned char*> calloc(CODE_POINTS, 1)
        if _classes == NULL:
            raise MemoryError()
    _char_class = char_class
    _class_codes = {letter: WORD_LETTER, joiner: WORD_JOINER, separator: WORD_SEPARATOR,
                    cjk_word: WORD_CJK, dense_letter: WORD_DENSE_LETTER,
                    dense_mark: WORD_DENSE_MARK}
    for char in glue:
        _class_codes[char] = WORD_JOINER
    _count_runs = count_runs


cdef unsigned char _ask(Py_UCS4 code) except 0:
    cdef unsigned char value = _class_codes[_char_class(chr(code))]
    _classes[code] = value
    return value


cdef inline unsigned char _class_of(Py_UCS4 code) except 0:
    # The class of `code`: from the table, asked of words.char_class the first time.
    cdef unsigned char value = _classes[code]
    return value if value else _ask(code)


# The three widths of a str's characters: each pass is compiled once per width,
# so its loop reads a typed array instead of switching on the kind at every
# character (PyUnicode_READ).
ctypedef fused char_t:
    uint8_t
    uint16_t
    uint32_t


cdef int _check_configured() except -1:
    if _classes == NULL:
        raise RuntimeError("blockdensity._text.configure() has not been called")
    return 0


cdef inline Py_ssize_t _dense_run_end(char_t* data, Py_ssize_t index,
                                      Py_ssize_t length) except -1:
    """Where the run of Thai, Lao, Khmer or Myanmar that goes on at `index` ends: the
    first character from there that is not one of their letters or marks."""
    cdef Py_UCS4 code
    cdef unsigned char value
    while index < length:
        code = data[index]
        value = _class_of(code)
        if value < WORD_DENSE_LETTER:
            break
        index += 1
    return index


def count_ended(str texts):
    """The number of words in each part of `texts`, a run of texts each ended by NUL
    (words.count_ended: what follows the last NUL is not a part)."""
    _check_configured()
    cdef int kind = PyUnicode_KIND(texts)
    cdef void* data = PyUnicode_DATA(texts)
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(texts)
    cdef list counts = []
    # The runs of Thai, Lao, Khmer and Myanmar: [start, end, ...], and the part
    # each is in. A run is read by an inner loop, so the loop over other text
    # is the one it was without them but for a comparison on separators.
    cdef list runs = []
    cdef list run_parts = []
    if kind == PyUnicode_1BYTE_KIND:
        _count_into(<uint8_t*> data, length, counts, runs, run_parts)
    elif kind == PyUnicode_2BYTE_KIND:
        _count_into(<uint16_t*> data, length, counts, runs, run_parts)
    else:
        _count_into(<uint32_t*> data, length, counts, runs, run_parts)
    if runs:
        for part, words in zip(run_parts, _count_runs(texts, runs)):
            if part < len(counts):  # after the last NUL is no text
                counts[part] += words
    return counts


cdef int _count_into(char_t* data, Py_ssize_t length, list counts, list runs,
                     list run_parts) except -1:
    """count_ended's pass over `data`: the words of each NUL-ended part into `counts`,
    the runs of the dense scripts (and their parts) into `runs` and `run_parts`."""
    cdef Py_ssize_t index = 0
    cdef Py_ssize_t count = 0
    # Inside a run of letters and joiners that holds a letter. (Joiners alone
    # make no word, and inside a run change nothing: only letters matter.)
    cdef bint lettered = False
    cdef Py_UCS4 code
    cdef unsigned char value
    cdef Py_ssize_t run_start
    while index < length:
        code = data[index]
        if code == 0:
            # A word counts once a separator ends it, as in the reference (END
            # is a space and a NUL): a run that runs into the NUL is not one.
            counts.append(count)
            count = 0
            lettered = False
            index += 1
            continue
        value = _class_of(code)
        if value == WORD_LETTER:
            lettered = True
        elif value != WORD_JOINER:
            if value >= WORD_DENSE_LETTER:
                if value == WORD_DENSE_LETTER:
                    # A run begins: it ends the word before it, and goes on
                    # while letters and marks of these scripts do.
                    if lettered:
                        count += 1
                    lettered = False
                    run_start = index
                    index = _dense_run_end(data, index + 1, length)
                    runs += (run_start, index)
                    run_parts.append(len(counts))
                    continue  # the character after the run, read again above
                # A mark outside a run joins, like any mark: nothing to do.
            else:
                if lettered:
                    count += 1
                lettered = False
                if value == WORD_CJK:
                    count += 1
        index += 1
    return 0


def word_starts(str text, list runs):
    """words.word_starts' pass: where each word of `text` begins, ascending, but the
    words of the runs of Thai, Lao, Khmer and Myanmar, whose [start, end, ...] it adds to
    `runs` for the segmenter (words.word_starts merges their words in)."""
    _check_configured()
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text)
    cdef list starts = []
    if kind == PyUnicode_1BYTE_KIND:
        _starts_of_words_into(<uint8_t*> data, length, starts, runs)
    elif kind == PyUnicode_2BYTE_KIND:
        _starts_of_words_into(<uint16_t*> data, length, starts, runs)
    else:
        _starts_of_words_into(<uint32_t*> data, length, starts, runs)
    return starts


cdef int _starts_of_words_into(char_t* data, Py_ssize_t length, list starts,
                               list runs) except -1:
    """word_starts' pass over `data`: _count_into's word rule, noting where each word
    begins (the first character of its run, joiners and glue included) instead of
    counting it, with no NUL ending a part."""
    cdef Py_ssize_t index = 0
    cdef Py_ssize_t run_start = -1  # where the run of letters and joiners began, or -1
    cdef bint lettered = False
    cdef Py_UCS4 code
    cdef unsigned char value
    cdef Py_ssize_t dense_start
    while index < length:
        code = data[index]
        value = _class_of(code)
        if value == WORD_LETTER:
            if run_start < 0:
                run_start = index
            lettered = True
        elif value == WORD_JOINER or value == WORD_DENSE_MARK:
            # A mark of the four scripts outside one of their runs joins like any mark.
            if run_start < 0:
                run_start = index
        else:
            if lettered:
                starts.append(run_start)
            lettered = False
            run_start = -1
            if value == WORD_DENSE_LETTER:
                dense_start = index
                index = _dense_run_end(data, index + 1, length)
                runs += (dense_start, index)
                continue  # the character after the run, read again above
            if value == WORD_CJK:
                starts.append(index)
        index += 1
    if lettered:
        starts.append(run_start)
    return 0


cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)


cdef Py_ssize_t _collapse_into(list texts, void* out, int out_kind, Py_UCS4* maxchar):
    """One pass of `collapse`: with `out`, writes the lines there; without, only measures
    them (their length, returned, and their widest character, in maxchar)."""
    cdef str text
    cdef int kind
    cdef void* data
    cdef Py_ssize_t at = 0
    for text in texts:
        kind = PyUnicode_KIND(text)
        data = PyUnicode_DATA(text)
        if kind == PyUnicode_1BYTE_KIND:
            at = _collapse_text(<uint8_t*> data, PyUnicode_GET_LENGTH(text), out, out_kind,
                                maxchar, at)
        elif kind == PyUnicode_2BYTE_KIND:
            at = _collapse_text(<uint16_t*> data, PyUnicode_GET_LENGTH(text), out, out_kind,
                                maxchar, at)
        else:
            at = _collapse_text(<uint32_t*> data, PyUnicode_GET_LENGTH(text), out, out_kind,
                                maxchar, at)
    return at


cdef Py_ssize_t _collapse_text(char_t* data, Py_ssize_t length, void* out, int out_kind,
                               Py_UCS4* maxchar, Py_ssize_t at) noexcept:
    """One text of `_collapse_into`, its line written (or measured) from `at`; returns
    where the next begins."""
    cdef Py_ssize_t index
    cdef Py_UCS4 code
    cdef bint pending = False  # whitespace seen since the last character kept
    cdef bint started = False  # this text has a visible character
    for index in range(length):
        code = data[index]
        if Py_UNICODE_ISSPACE(code):
            pending = started
            continue
        if not started and at:  # the newline before this text's line
            if out != NULL:
                PyUnicode_WRITE(out_kind, out, at, 10)
            elif maxchar[0] < 10:
                maxchar[0] = 10
            at += 1
        if pending:
            if out != NULL:
                PyUnicode_WRITE(out_kind, out, at, 32)
            at += 1
            pending = False
        if out != NULL:
            PyUnicode_WRITE(out_kind, out, at, code)
        elif code > maxchar[0]:
            maxchar[0] = code
        at += 1
        started = True
    return at


def collapse(list texts):
    """render_blocks' lines: each text with its whitespace runs made one space and its ends
    stripped, the texts joined by newlines; a text with nothing but whitespace makes no
    line (the fit's texts all have visible characters)."""
    # Measured first: a str must be made at the narrowest width that holds it.
    cdef Py_UCS4 maxchar = 0
    cdef Py_ssize_t size = _collapse_into(texts, NULL, 0, &maxchar)
    result = PyUnicode_New(size, maxchar)
    _collapse_into(texts, PyUnicode_DATA(result), PyUnicode_KIND(result), &maxchar)
    return result


def date_stretches(str text, Py_ssize_t shortest, bint dated=False):
    """[start, end, ...]: where in `text` blockdensity.evidence's dates may be. A date is
    written in decimal digits, ASCII lowercase letters, whitespace and ".,/-" (\\d and \\s
    as a str pattern reads them), holds a digit, begins with its first digit or with the
    one word (and a dot and whitespace) before it, and ends with its last digit or the
    two words (after whitespace) after it. So each run of those characters that holds a
    digit, narrowed to the word before its first digit and the two words after its last,
    is given if it is at least `shortest` long.

    With `dated`, only the stretches that hold "ago", four decimal digits in a row, or a
    digit, "." or "/" and a digit: each of evidence's dates holds one of them ("3 days
    ago"; a year; "2025-03-03"; "03/03/25"), and most stretches ("12 comments", "page 2
    of 5") none, which the date pattern was tried on to no avail."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text)
    cdef list found = []
    if kind == PyUnicode_1BYTE_KIND:
        _stretches_into(<uint8_t*> data, length, shortest, dated, found)
    elif kind == PyUnicode_2BYTE_KIND:
        _stretches_into(<uint16_t*> data, length, shortest, dated, found)
    else:
        _stretches_into(<uint32_t*> data, length, shortest, dated, found)
    return found


cdef inline bint _is_space(Py_UCS4 code) noexcept:
    """\\s in a str pattern (Py_UNICODE_ISSPACE), without a call for ASCII."""
    if code < 128:
        return code == 32 or 9 <= code <= 13 or 28 <= code <= 31
    return Py_UNICODE_ISSPACE(code)


cdef inline bint _is_digit(Py_UCS4 code) noexcept:
    """\\d in a str pattern (Py_UNICODE_ISDECIMAL), without a call for ASCII."""
    if code < 128:
        return 48 <= code <= 57
    return Py_UNICODE_ISDECIMAL(code)


cdef inline bint _is_letter(Py_UCS4 code) noexcept:
    return 97 <= code <= 122  # a-z


cdef inline bint _in_date(Py_UCS4 code) noexcept:
    """Whether a date may hold `code`: a-z, a separator, whitespace or a decimal digit."""
    if _is_letter(code):
        return True
    if code == 46 or code == 44 or code == 47 or code == 45:  # . , / -
        return True
    return _is_space(code) or _is_digit(code)


cdef bint _dated(char_t* data, Py_ssize_t begin, Py_ssize_t end) noexcept:
    """Whether data[begin:end] holds "ago", four decimal digits in a row, or a decimal digit,
    "." or "/" and a decimal digit (date_stretches' `dated`)."""
    cdef Py_ssize_t index
    cdef int digits = 0  # in a row, up to `index`
    cdef Py_UCS4 code
    for index in range(begin, end):
        code = data[index]
        if _is_digit(code):
            digits += 1
            if digits == 4:
                return True
            continue
        digits = 0
        if (code == 46 or code == 47) and index > begin and index + 1 < end:
            if _is_digit(data[index - 1]) and _is_digit(data[index + 1]):
                return True
        elif code == 97 and index + 2 < end and data[index + 1] == 103 and data[index + 2] == 111:
            return True  # "ago"
    return False


cdef int _stretches_into(char_t* data, Py_ssize_t length, Py_ssize_t shortest, bint dated,
                         list found) except -1:
    """date_stretches' pass over `data`, the stretches appended to `found`."""
    cdef Py_ssize_t index = 0
    cdef Py_ssize_t start, first, last, begin, end
    cdef int words
    cdef Py_UCS4 code
    while index < length:
        if not _in_date(data[index]):
            index += 1
            continue
        start = index
        first = last = -1  # the run's first and last digits
        while index < length:
            code = data[index]
            if not _in_date(code):
                break
            if _is_digit(code):
                if first < 0:
                    first = index
                last = index
            index += 1
        if first < 0:
            continue
        # Back from the first digit: whitespace, a dot, a word.
        begin = first
        while begin > start and _is_space(data[begin - 1]):
            begin -= 1
        if begin > start and data[begin - 1] == 46:
            begin -= 1
        while begin > start and _is_letter(data[begin - 1]):
            begin -= 1
        # On from the last digit: whitespace and a word, twice.
        end = last + 1
        for words in range(2):
            while end < index and _is_space(data[end]):
                end += 1
            while end < index and _is_letter(data[end]):
                end += 1
        if end - begin >= shortest and (not dated or _dated(data, begin, end)):
            found += (begin, end)
    return 0


# The characters of a stretch `parts_at` and `occurrences` check at once, before they
# look at them one by one: a loop of comparisons without a branch, which the C
# compiler turns into vector instructions (a scan several times as fast as a
# character at a time, or as str.find's on a text that is not Latin-1).
DEF STRETCH = 32
# The longest needle `occurrences` looks for.
DEF NEEDLE = 64


cdef Py_ssize_t _characters(str pattern, Py_UCS4* chars, str what) except -1:
    """`pattern`'s characters into `chars` (NEEDLE of them at most), and its length;
    ValueError, naming `what`, for an empty or a longer one."""
    cdef Py_ssize_t size = len(pattern), index
    if not 0 < size <= NEEDLE:
        raise ValueError(f"{what} of 1 to {NEEDLE} characters, not {size}")
    for index in range(size):
        chars[index] = pattern[index]
    return size


def parts_at(str text, str separator, list indexes):
    """[text.split(separator)[index] for index in indexes], `indexes` increasing, in one
    pass that makes no other part (blockdensity.evidence reads a few blocks of a page's
    text, each ended by words.END; blockdensity.markdown the kept ones). The pass stops at each occurrence of the
    separator's last character and checks the rest before it: a separator ends there
    when it begins after the end of the one before (as split finds them, from the
    left)."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text)
    cdef list found = []
    cdef Py_UCS4 chars[NEEDLE]
    cdef Py_ssize_t size = _characters(separator, chars, "parts_at: a separator")
    if not indexes:
        return found
    if kind == PyUnicode_1BYTE_KIND:
        _parts_into(<uint8_t*> data, length, text, chars, size, indexes, found)
    elif kind == PyUnicode_2BYTE_KIND:
        _parts_into(<uint16_t*> data, length, text, chars, size, indexes, found)
    else:
        _parts_into(<uint32_t*> data, length, text, chars, size, indexes, found)
    if len(found) < len(indexes):  # an index past the last part
        raise IndexError("parts_at: an index past the text's last part, or not increasing")
    return found


cdef inline bint _ends_at(char_t* data, Py_ssize_t at, const Py_UCS4* chars, Py_ssize_t size,
                          Py_ssize_t start) noexcept:
    """Whether the separator (`chars`, its last one at `at`) ends at `at`, beginning at
    `start` or after."""
    cdef Py_ssize_t index
    if at - (size - 1) < start:
        return False
    for index in range(size - 1):
        if data[at - (size - 1) + index] != chars[index]:
            return False
    return True


cdef int _parts_into(char_t* data, Py_ssize_t length, str text, const Py_UCS4* chars,
                     Py_ssize_t size, list indexes, list found) except -1:
    """parts_at's pass over `data`: the parts at `indexes` appended to `found`."""
    # The last character at the text's width (for the check of a stretch, which vectorizes
    # only at one width; cut short when the text is narrower, where it cannot occur).
    cdef char_t last = <char_t> chars[size - 1]
    cdef Py_ssize_t at = 0, start = 0, part = 0, taken = 0, wanted = len(indexes)
    cdef Py_ssize_t want = indexes[0]
    cdef Py_ssize_t index, stop
    cdef unsigned int seen
    while True:
        # The next stretch that holds the last character, checked whole first.
        if at + STRETCH <= length:
            seen = 0
            for index in range(STRETCH):
                seen |= data[at + index] == last
            if not seen:
                at += STRETCH
                continue
            stop = at + STRETCH
        else:
            stop = length
        while at < stop:
            if data[at] == chars[size - 1] and _ends_at(data, at, chars, size, start):
                if part == want:
                    found.append(text[start:at - size + 1])
                    taken += 1
                    if taken == wanted:
                        return 0
                    want = indexes[taken]
                part += 1
                start = at + 1
            at += 1
        if at >= length:
            break
    # The last part, after the last separator.
    if part == want:
        found.append(text[start:length])
    return 0


def occurrences(str text, str needle):
    """Where `needle` is in `text`: the starts text.find(needle, start) gives, from 0 and
    then from each start found and the needle's length after it (every occurrence, for a
    needle no proper prefix of which is also a suffix, as "itemtype"). One pass that
    checks a stretch of characters for the needle's first and last characters at once
    (blockdensity.evidence: microdata's itemtype attributes in a page's markup)."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text)
    cdef list found = []
    cdef Py_UCS4 chars[NEEDLE]
    cdef Py_ssize_t size = _characters(needle, chars, "occurrences: a needle")
    if kind == PyUnicode_1BYTE_KIND:
        _occurrences_into(<uint8_t*> data, length, chars, size, found)
    elif kind == PyUnicode_2BYTE_KIND:
        _occurrences_into(<uint16_t*> data, length, chars, size, found)
    else:
        _occurrences_into(<uint32_t*> data, length, chars, size, found)
    return found


cdef int _occurrences_into(char_t* data, Py_ssize_t length, const Py_UCS4* chars,
                           Py_ssize_t size, list found) except -1:
    """occurrences' pass over `data`: the needle's starts appended to `found`."""
    # The first and last characters at the text's width, for the check of a stretch (as
    # in _parts_into: a character wider than the text's is in none of its places).
    cdef char_t first = <char_t> chars[0], last = <char_t> chars[size - 1]
    cdef Py_ssize_t at = 0, index, stop, rest
    cdef Py_ssize_t end = length - size  # the last place the needle may start
    cdef const char_t* tail  # the places of the needle's last character
    cdef unsigned int seen
    while at <= end:
        if at + STRETCH <= end:
            seen = 0
            tail = data + at + size - 1
            for index in range(STRETCH):
                seen |= (data[at + index] == first) & (tail[index] == last)
            if not seen:
                at += STRETCH
                continue
            stop = at + STRETCH
        else:
            stop = end + 1
        while at < stop:
            if data[at] == chars[0] and data[at + size - 1] == chars[size - 1]:
                for rest in range(1, size - 1):
                    if data[at + rest] != chars[rest]:
                        break
                else:
                    found.append(at)
                    at += size
                    continue
            at += 1
    return 0


# `phrase_lines`' filter: a bit for each hash of a known phrase's letters and digits.
DEF FILTER_BITS = 1 << 16
DEF FNV_OFFSET = 2166136261  # FNV-1a, 32 bits
DEF FNV_PRIME = 16777619
DEF KELVIN = 0x212A  # KELVIN SIGN, which str.lower() makes "k"


cdef inline uint32_t _skeleton_step(uint32_t hashed, Py_UCS4 code) noexcept:
    """The hash of a line's letters and digits (as `phrase_lines` reads them) with `code`
    after them: ASCII letters lowercased, ASCII digits, and the Kelvin sign as "k" (the
    characters str.lower() makes an ASCII letter or digit, but U+0130, which it makes
    "i" and a combining dot no phrase holds); the others are passed over."""
    cdef uint32_t value = <uint32_t> code  # (a Py_UCS4 in arithmetic would be a str)
    if 65 <= value <= 90:
        value += 32
    elif not (97 <= value <= 122 or 48 <= value <= 57):
        if value != KELVIN:
            return hashed
        value = 107
    return (hashed ^ value) * FNV_PRIME


cdef inline Py_ssize_t _filter_bit(uint32_t hashed) noexcept:
    return (hashed ^ (hashed >> 16)) & (FILTER_BITS - 1)


def phrase_filter(phrases):
    """The filter `phrase_lines` reads for these phrases (ASCII lowercase letters, digits
    and spaces): a bit set for each phrase's letters and digits, hashed."""
    cdef bytearray bits = bytearray(FILTER_BITS // 8)
    cdef uint32_t hashed
    cdef Py_ssize_t bit
    cdef Py_UCS4 code
    for text in phrases:
        hashed = FNV_OFFSET
        for code in text:
            hashed = _skeleton_step(hashed, code)
        bit = _filter_bit(hashed)
        bits[bit >> 3] |= 1 << (bit & 7)
    return bytes(bits)


def phrase_lines(list texts, Py_ssize_t limit, bytes bits):
    """The lines of `texts` (each split at "\\n") of at most `limit` characters that may be
    one of the phrases `bits` (phrase_filter's) was made for: those whose letters and
    digits, lowercased, hash to a bit set. A line that str.lower() and stripping its
    ends, or also collapsing its whitespace, makes a phrase has the phrase's letters
    and digits, none other (no character but those `_skeleton_step` reads lowercases
    to an ASCII letter or digit, and punctuation, whitespace and marks hold none), so
    no line that may be one is left out; one in a few thousand that is none is given
    too (the caller checks each line given). blockdensity.evidence: a page's short
    blocks, where most lines are no phrase and were each lowercased and looked up."""
    if len(bits) != FILTER_BITS // 8:
        raise ValueError(f"phrase_lines: a filter of {FILTER_BITS // 8} bytes, not {len(bits)}")
    cdef const unsigned char* filter_of = bits
    cdef list found = []
    cdef str text
    cdef int kind
    cdef void* data
    for text in texts:
        kind = PyUnicode_KIND(text)
        data = PyUnicode_DATA(text)
        if kind == PyUnicode_1BYTE_KIND:
            _phrase_lines_into(<uint8_t*> data, text, limit, filter_of, found)
        elif kind == PyUnicode_2BYTE_KIND:
            _phrase_lines_into(<uint16_t*> data, text, limit, filter_of, found)
        else:
            _phrase_lines_into(<uint32_t*> data, text, limit, filter_of, found)
    return found


cdef int _phrase_lines_into(char_t* data, str text, Py_ssize_t limit,
                            const unsigned char* filter_of, list found) except -1:
    """phrase_lines' pass over one text: its lines that pass the filter appended to
    `found`."""
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text)
    cdef Py_ssize_t start = 0, index = 0, bit
    cdef uint32_t hashed = FNV_OFFSET
    cdef Py_UCS4 code
    while index <= length:
        if index == length or data[index] == 10:  # the end of a line
            if index - start <= limit:
                bit = _filter_bit(hashed)
                if filter_of[bit >> 3] & (1 << (bit & 7)):
                    found.append(text if start == 0 and index == length
                                 else text[start:index])
            start = index + 1
            hashed = FNV_OFFSET
        elif index - start < limit:  # (a longer line is given to no one)
            hashed = _skeleton_step(hashed, data[index])
        index += 1
    return 0


# The most needles `starts_of` looks for at once, and their longest.
DEF NEEDLES = 16
DEF NEEDLE_CHARS = 8


def starts_of(str text, tuple needles):
    """Every place in `text` where one of `needles` begins, in order, each place once: the
    places text.find(needle, start + 1) visits from 0 for each needle, merged (one pass,
    where blockdensity.evidence looked for each currency sign and code in turn, each a
    pass over the short blocks' text that cost a microsecond)."""
    cdef Py_ssize_t count = len(needles)
    cdef Py_UCS4 chars[NEEDLES][NEEDLE_CHARS]
    cdef Py_ssize_t sizes[NEEDLES]
    cdef unsigned char ascii_first[128]  # whether a needle begins with this ASCII character
    cdef bint wide_first = False  # whether one begins with a character beyond ASCII
    cdef Py_ssize_t number, index
    cdef str needle
    if count > NEEDLES:
        raise ValueError(f"starts_of: at most {NEEDLES} needles, not {count}")
    for index in range(128):
        ascii_first[index] = 0
    for number in range(count):
        needle = needles[number]
        sizes[number] = len(needle)
        if not 0 < sizes[number] <= NEEDLE_CHARS:
            raise ValueError(f"starts_of: needles of 1 to {NEEDLE_CHARS} characters, not {needle!r}")
        for index in range(sizes[number]):
            chars[number][index] = needle[index]
        if chars[number][0] < 128:
            ascii_first[chars[number][0]] = 1
        else:
            wide_first = True
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text)
    cdef list found = []
    if kind == PyUnicode_1BYTE_KIND:
        _starts_into(<uint8_t*> data, length, chars, sizes, count, ascii_first, wide_first, found)
    elif kind == PyUnicode_2BYTE_KIND:
        _starts_into(<uint16_t*> data, length, chars, sizes, count, ascii_first, wide_first, found)
    else:
        _starts_into(<uint32_t*> data, length, chars, sizes, count, ascii_first, wide_first, found)
    return found


cdef int _starts_into(char_t* data, Py_ssize_t length, Py_UCS4 (*chars)[NEEDLE_CHARS],
                      const Py_ssize_t* sizes, Py_ssize_t count,
                      const unsigned char* ascii_first, bint wide_first,
                      list found) except -1:
    """starts_of's pass over `data`: the places appended to `found`."""
    cdef Py_ssize_t index, number, rest
    cdef Py_UCS4 code
    for index in range(length):
        code = data[index]
        if code < 128:
            if not ascii_first[code]:
                continue
        elif not wide_first:
            continue
        for number in range(count):
            if chars[number][0] != code or index + sizes[number] > length:
                continue
            for rest in range(1, sizes[number]):
                if data[index + rest] != chars[number][rest]:
                    break
            else:
                found.append(index)
                break  # this place, once
    return 0
