# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The walk of blockdensity.segment: the page as blocks, in one loop over lexbor's records.

segment.py holds the walk's rules (its marks, the title repair, the Page);
this is the walk itself, reading the tree lexbor built directly (first_child,
next and parent pointers, tag ids, text bytes, attributes) instead of making a
Python object and a few Python calls per node. It reads on its way the
attributes that change what an element is (hidden elements, dropped ARIA
roles, the article profile's regions), where a CSS query over the body would
cost about the whole walk. Asked, it also notes which block each text node
went to (the trace --highlight marks the page with).
tests/reference/walk.py is the same walk written plainly in Python over
selectolax's nodes, on a tree rewritten where those attributes say so;
tests/test_walk.py checks that both make the same page, trace and metadata
on every corpus page, the fuzz corpus and random tag soup.

selectolax ships no lexbor headers, so the records read here (node, text,
element, attribute) are declared below as lexbor lays them out, and so is
selectolax's LexborNode object (to hand the few declaring and hidden elements
back as nodes, for blockdensity.metadata and segment).
Those layouts are selectolax's ABI: this module is built and imported only
against the selectolax release it mirrors (LAYOUT_VERSION; setup.py refuses
to build against another), and at import it checks the installed release and
then probes a parsed page through selectolax's own accessors, raising
RuntimeError if anything differs: a silent misread would be wrong text, not
a crash.
"""

cimport cython
from cpython.unicode cimport (
    Py_UNICODE_ISSPACE,
    PyUnicode_4BYTE_KIND,
    PyUnicode_DATA,
    PyUnicode_DecodeUTF8,
    PyUnicode_FromKindAndData,
    PyUnicode_GET_LENGTH,
    PyUnicode_KIND,
    PyUnicode_READ,
)
from libc.stdint cimport int32_t, uint16_t, uint32_t, uintptr_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memmove

import re
from importlib.metadata import version as _installed_version

from selectolax.lexbor import LexborHTMLParser

# The selectolax release whose layouts are mirrored below. setup.py reads it
# from here (it must equal the installed selectolax's version to build).
LAYOUT_VERSION = "1.0.2"

cdef extern from *:
    """
    /* lexbor's lxb_dom_node_t and lxb_dom_character_data_t
       (source/lexbor/dom/interfaces/node.h, character_data.h) and selectolax's
       LexborNode object (selectolax/lexbor.pxd), as selectolax 1.0.2 builds them. */
    typedef struct bd_node bd_node;
    struct bd_node {
        void *events;              /* lxb_dom_event_target_t */
        uintptr_t local_name;      /* the tag id */
        uintptr_t prefix;
        uintptr_t ns;
        void *owner_document;
        bd_node *next;
        bd_node *prev;
        bd_node *parent;
        bd_node *first_child;
        bd_node *last_child;
        void *user;
        int type;                  /* lxb_dom_node_type_t */
    };
    typedef struct {
        bd_node node;
        unsigned char *data;       /* lexbor_str_t */
        size_t length;
    } bd_text;
    typedef struct {
        unsigned char *data;
        size_t length;
    } bd_str;                      /* lexbor_str_t */
    typedef struct bd_attr bd_attr;
    struct bd_attr {               /* lxb_dom_attr_t (attr.h) */
        bd_node node;              /* its local_name is the attribute's name id */
        uintptr_t upper_name;
        uintptr_t qualified_name;
        bd_str *value;
        void *owner;
        bd_attr *next;
        bd_attr *prev;
    };
    typedef struct {               /* lxb_dom_element_t (element.h), its head */
        bd_node node;
        uintptr_t upper_name;
        uintptr_t qualified_name;
        bd_str *is_value;
        bd_attr *first_attr;
    } bd_element;
    typedef struct {
        PyObject_HEAD
        void *vtab;
        bd_node *node;
        PyObject *parser;
        int is_fragment_root;
        int is_template_content;
    } bd_node_object;
    """
    ctypedef struct bd_node:
        uintptr_t local_name
        bd_node* next
        bd_node* parent
        bd_node* first_child
        int type
    ctypedef struct bd_text:
        unsigned char* data
        size_t length
    ctypedef struct bd_str:
        unsigned char* data
        size_t length
    ctypedef struct bd_attr:
        bd_node node
        bd_str* value
        bd_attr* next
    ctypedef struct bd_element:
        bd_attr* first_attr

    # check_size error: Cython compares the size of the object selectolax
    # makes with the one declared here when this module is imported.
    ctypedef class selectolax.lexbor.LexborNode [object bd_node_object, check_size error]:
        cdef bd_node* node
        cdef object parser

DEF ELEMENT_TYPE = 1  # LXB_DOM_NODE_TYPE_ELEMENT
DEF TEXT_TYPE = 3  # LXB_DOM_NODE_TYPE_TEXT

# segment.py's constants, handed over once by configure().
cdef uintptr_t TEXT_ID, IMG_ID, CODE_ID
cdef uintptr_t DECLARING[4]
cdef int BOUNDARY, ANCHOR, SUPSUB, PRE, DROP, SEPARATOR, SKIP, BREAK, TITLE
cdef str BLOCK_END
cdef Py_UCS4 ANCHOR_MARK, BREAK_MARK, SUB_OPEN, SUB_CLOSE
DEF SPACE = 32
cdef bint _configured = False


def configure(int text_id, int img_id, int code_id, tuple declaring, dict bits, dict marks):
    """Take the text node's, <img>'s and <code>'s tag ids, the declaring elements' ids,
    tags.py's flag bits and segment.py's marks."""
    global TEXT_ID, IMG_ID, CODE_ID, BOUNDARY, ANCHOR, SUPSUB, PRE, DROP, SEPARATOR, SKIP, BREAK, TITLE
    global BLOCK_END, ANCHOR_MARK, BREAK_MARK, SUB_OPEN, SUB_CLOSE, _configured
    if len(declaring) != 4:
        raise ValueError(f"expected the ids of the 4 declaring elements, got {declaring!r}")
    TEXT_ID = text_id
    IMG_ID = img_id
    CODE_ID = code_id
    for index in range(4):
        DECLARING[index] = declaring[index]
    BOUNDARY, ANCHOR, SUPSUB = bits["BOUNDARY"], bits["ANCHOR"], bits["SUPSUB"]
    PRE, DROP, SEPARATOR = bits["PRE"], bits["DROP"], bits["SEPARATOR"]
    SKIP, BREAK, TITLE = bits["SKIP"], bits["BREAK"], bits["TITLE"]
    BLOCK_END = marks["BLOCK_END"]
    ANCHOR_MARK, BREAK_MARK = ord(marks["ANCHOR_MARK"]), ord(marks["BREAK_MARK"])
    SUB_OPEN, SUB_CLOSE = ord(marks["SUB_OPEN"]), ord(marks["SUB_CLOSE"])
    _configured = True


cdef inline LexborNode _node(bd_node* node, object parser):
    # As selectolax's LexborNode.new makes one (its flags are zero from the allocation).
    cdef LexborNode made = LexborNode.__new__(LexborNode)
    made.node = node
    made.parser = parser
    return made


cdef inline bint _ascii_blank(bd_node* node) noexcept:
    # selectolax's is_empty_text_node: no bytes, or only HTML's ASCII whitespace.
    cdef bd_text* text = <bd_text*> node
    cdef size_t i
    cdef unsigned char c
    if text.data == NULL:
        return True
    for i in range(text.length):
        c = text.data[i]
        if c != 32 and c != 9 and c != 10 and c != 12 and c != 13:
            return False
    return True


cdef inline bd_node* _child(bd_node* node, bint skip_ws) noexcept:
    # The node LexborNode.iter(include_text=True, skip_empty=skip_ws) yields
    # from `node` on: `node` itself unless it is a blank text node skipped.
    if skip_ws:
        while node != NULL and node.type == TEXT_TYPE and _ascii_blank(node):
            node = node.next
    return node


cdef inline bint _isspace(const Py_UCS4* text, Py_ssize_t length) noexcept:
    # str.isspace of the characters: False for none.
    cdef Py_ssize_t i
    if not length:
        return False
    for i in range(length):
        if not Py_UNICODE_ISSPACE(text[i]):
            return False
    return True


cdef void* _resized(void* data, Py_ssize_t count, size_t item) except NULL:
    """`data` reallocated to hold `count` items of `item` bytes; MemoryError if it cannot be."""
    cdef void* resized = realloc(data, count * item)
    if resized == NULL:
        raise MemoryError()
    return resized


cdef class _Text:
    # The page's text, which the reference walk builds as a list of str and
    # joins at the end, built as code points instead: no str per text node.
    cdef Py_UCS4* data
    cdef Py_ssize_t size
    cdef Py_ssize_t capacity

    def __cinit__(self):
        self.size = 0
        self.capacity = 4096
        self.data = <Py_UCS4*> malloc(self.capacity * sizeof(Py_UCS4))
        if self.data == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.data)

    cdef int reserve(self, Py_ssize_t more) except -1:
        cdef Py_ssize_t capacity = self.capacity
        while self.size + more > capacity:
            capacity *= 2
        if capacity != self.capacity:
            self.data = <Py_UCS4*> _resized(self.data, capacity, sizeof(Py_UCS4))
            self.capacity = capacity
        return 0

    cdef inline int push(self, Py_UCS4 code) except -1:
        if self.size == self.capacity:
            self.reserve(1)
        self.data[self.size] = code
        self.size += 1
        return 0

    cdef int push_str(self, str text) except -1:
        cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text)
        cdef int kind = PyUnicode_KIND(text)
        cdef void* data = PyUnicode_DATA(text)
        cdef Py_ssize_t i
        self.reserve(length)
        for i in range(length):
            self.data[self.size + i] = PyUnicode_READ(kind, data, i)
        self.size += length
        return 0

    cdef int extend(self, const Py_UCS4* codes, Py_ssize_t length) except -1:
        self.reserve(length)
        memcpy(self.data + self.size, codes, length * sizeof(Py_UCS4))
        self.size += length
        return 0

    cdef int insert_space(self, Py_ssize_t at) except -1:
        self.reserve(1)
        memmove(self.data + at + 1, self.data + at, (self.size - at) * sizeof(Py_UCS4))
        self.data[at] = SPACE
        self.size += 1
        return 0

    cdef int decode(self, bd_node* node) except -1:
        # The text node's UTF-8 as LexborNode.text_content decodes it ("replace"):
        # valid UTF-8 here, anything else by CPython's decoder itself.
        cdef bd_text* text = <bd_text*> node
        cdef const unsigned char* s = text.data
        cdef Py_ssize_t n = text.length
        cdef Py_ssize_t i = 0, k
        cdef Py_UCS4* out
        cdef unsigned char c, c1
        cdef uint32_t code  # not Py_UCS4, which Cython's arithmetic would make a str
        cdef int more
        if s == NULL:
            return 0
        self.reserve(n)  # never more characters than bytes
        out = self.data + self.size
        k = 0
        while i < n:
            c = s[i]
            if c < 0x80:
                out[k] = c
                k += 1
                i += 1
                continue
            if 0xC2 <= c <= 0xDF:
                more = 1
                code = c & 0x1F
            elif 0xE0 <= c <= 0xEF:
                more = 2
                code = c & 0x0F
            elif 0xF0 <= c <= 0xF4:
                more = 3
                code = c & 0x07
            else:
                return self._decode_replacing(s, n)
            if i + more >= n:  # cut short
                return self._decode_replacing(s, n)
            c1 = s[i + 1]
            # The second byte's range excludes overlong forms, surrogates and
            # code points past U+10FFFF (the Unicode standard's table 3-7).
            if ((c == 0xE0 and c1 < 0xA0) or (c == 0xED and c1 > 0x9F)
                    or (c == 0xF0 and c1 < 0x90) or (c == 0xF4 and c1 > 0x8F)
                    or c1 < 0x80 or c1 > 0xBF):
                return self._decode_replacing(s, n)
            code = (code << 6) | (c1 & 0x3F)
            if more >= 2:
                c1 = s[i + 2]
                if c1 < 0x80 or c1 > 0xBF:
                    return self._decode_replacing(s, n)
                code = (code << 6) | (c1 & 0x3F)
            if more == 3:
                c1 = s[i + 3]
                if c1 < 0x80 or c1 > 0xBF:
                    return self._decode_replacing(s, n)
                code = (code << 6) | (c1 & 0x3F)
            out[k] = <Py_UCS4> code
            k += 1
            i += more + 1
        self.size += k
        return 0

    cdef int _decode_replacing(self, const unsigned char* s, Py_ssize_t n) except -1:
        return self.push_str(PyUnicode_DecodeUTF8(<const char*> s, n, "replace"))

    cdef str make(self):
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, self.data, self.size)


cdef bint _whitespace_between(bd_node* first, bd_node* last) noexcept:
    # Whether a text node lies strictly between two text nodes, in document
    # order. Asked only when nothing but inline elements separates them, so
    # any text node between is one the walk skipped: whitespace only.
    cdef bd_node* node = first
    cdef bd_node* child
    while True:
        child = node.first_child
        if child != NULL and node != first:
            node = child
        else:
            while node.next == NULL:
                if node.parent == NULL:
                    return False
                node = node.parent
            node = node.next
        if node == last:
            return False
        if node.type == TEXT_TYPE:
            return True


def attribute_ids(LexborNode element):
    """The ids lexbor gave the names of `element`'s attributes in its document, in order:
    the same for every attribute of those names there."""
    cdef bd_attr* attr = (<bd_element*> element.node).first_attr
    if element.node.type != ELEMENT_TYPE:
        raise ValueError("an element is needed")
    ids = []
    while attr != NULL:
        ids.append(attr.node.local_name)
        attr = attr.next
    return ids


cdef inline bd_attr* _attribute(bd_node* node, uintptr_t name_id) noexcept:
    # The element's first attribute of that name (as attrs.get finds it), or NULL.
    cdef bd_attr* attr = (<bd_element*> node).first_attr
    while attr != NULL and attr.node.local_name != name_id:
        attr = attr.next
    return attr


cdef str _value(bd_attr* attr):
    # attrs.get(name) or "": the value as selectolax decodes it.
    if attr.value == NULL or attr.value.data == NULL:
        return ""
    return PyUnicode_DecodeUTF8(<const char*> attr.value.data, attr.value.length, "replace")


# The ids lexbor gave, in the page's document, the names of the attributes the
# walk reads (0: not sought).
cdef struct AttributeIds:
    uintptr_t hidden  # replaced by an empty <img> (docs/spec.md section 2)
    uintptr_t role  # a dropped ARIA role opens a scope
    uintptr_t region  # the article profile's regions, as nesting's scan marks them
    uintptr_t klass  # class: the signature of a boundary element, a <pre>'s language
    uintptr_t itemprop  # itemprop and pubdate: whether blockdensity.metadata's
    uintptr_t pubdate  # microdata query can find anything
    uintptr_t popover  # closed_popups: an element with a popover attribute is hidden
    uintptr_t open_attr  # closed_popups: a <dialog> without open is hidden
    uintptr_t href  # a link's target: whether it leads within the page (in_page)


cdef class Settings:
    """What one page's walk reads and never changes, made once per page (segment._walk).

    The configuration's tag table: `packed`, its flags as native uint16 by tag id
    (TagTable.packed), `custom`, the flags of a tag beyond it, `names`, the element
    names by tag id; the ARIA `roles` it drops and the article profile's region
    `scopes` (the scope of each region label the rules act on). Then the ids
    lexbor gave the names of the attributes the walk reads in the page's
    document (0: not sought): `hidden_id`, `role_id`, `region_id` (the region
    attribute), `class_id`, and `itemprop_id` and `pubdate_id` for
    blockdensity.metadata. `popover_id`, `open_id` and `dialog_id` (the
    <dialog> tag's id), for the closed_popups rule (0: the rule is off): an
    element with a popover attribute, and a <dialog> without open, are hidden
    as a browser hides them until a script shows them. `tab_panels`: a hidden
    element whose role is a tab panel is walked as shown (the article profile's
    tab_panels rule);
    `show_hidden`: every hidden element is, but a pop-up's (role dialog,
    alertdialog, menu, listbox or tooltip: the page's hidden reading). Both
    read the role by `role_id`. `href_id`: a link's target, read to tell the
    blocks whose links all lead within the page (0: not sought).
    """

    cdef bytes packed  # holds the memory flags_of points into
    cdef const uint16_t* flags_of
    cdef Py_ssize_t n_flags
    cdef int custom
    cdef dict names
    cdef frozenset roles
    cdef dict scopes
    cdef AttributeIds ids
    cdef bint tab_panels
    cdef bint show_hidden
    cdef uintptr_t dialog_id

    def __init__(self, bytes packed, int custom, dict names, frozenset roles, dict scopes, *,
                 uintptr_t hidden_id, uintptr_t role_id, uintptr_t region_id,
                 uintptr_t class_id, uintptr_t itemprop_id, uintptr_t pubdate_id,
                 uintptr_t popover_id=0, uintptr_t open_id=0, uintptr_t dialog_id=0,
                 bint tab_panels=False, bint show_hidden=False, uintptr_t href_id=0):
        if len(packed) % 2:
            raise ValueError(f"the packed flags are uint16, got {len(packed)} bytes")
        self.packed = packed
        self.flags_of = <const uint16_t*> <const char*> packed
        self.n_flags = len(packed) // 2
        self.custom = custom
        self.names = names
        self.roles = roles
        self.scopes = scopes
        self.ids.hidden = hidden_id
        self.ids.role = role_id
        self.ids.region = region_id
        self.ids.klass = class_id
        self.ids.itemprop = itemprop_id
        self.ids.pubdate = pubdate_id
        self.ids.popover = popover_id
        self.ids.open_attr = open_id
        self.ids.href = href_id
        self.dialog_id = dialog_id if open_id else 0
        self.tab_panels = tab_panels
        self.show_hidden = show_hidden


# What the attributes of one element say (the first of each name, as attrs.get
# finds it; NULL: none).
cdef struct Found:
    bd_attr* hidden
    bd_attr* role
    bd_attr* region
    bd_attr* klass
    bd_attr* popover
    bd_attr* open_attr
    bd_attr* href


cdef inline bint _read_attributes(bd_node* node, const AttributeIds* ids, Found* found) noexcept:
    # The element's attributes that change what it is, in one pass over them.
    # Returns whether it has one that blockdensity.metadata's microdata query
    # looks for.
    cdef bd_attr* attr = (<bd_element*> node).first_attr
    cdef uintptr_t name_id
    cdef bint microdata = False
    found.hidden = NULL
    found.role = NULL
    found.region = NULL
    found.klass = NULL
    found.popover = NULL
    found.open_attr = NULL
    found.href = NULL
    while attr != NULL:
        name_id = attr.node.local_name
        if name_id == ids.hidden and ids.hidden and found.hidden == NULL:
            found.hidden = attr
        elif name_id == ids.role and ids.role and found.role == NULL:
            found.role = attr
        elif name_id == ids.region and ids.region and found.region == NULL:
            found.region = attr
        elif name_id == ids.klass and ids.klass and found.klass == NULL:
            found.klass = attr
        elif name_id == ids.popover and ids.popover and found.popover == NULL:
            found.popover = attr
        elif name_id == ids.open_attr and ids.open_attr and found.open_attr == NULL:
            found.open_attr = attr
        elif name_id == ids.href and ids.href and found.href == NULL:
            found.href = attr
        elif ids.itemprop and (name_id == ids.itemprop or name_id == ids.pubdate):
            microdata = True
        attr = attr.next
    return microdata


# HTML's ASCII whitespace, which separates the tokens [role~="..."] matches.
_CSS_SPACE = re.compile("[ \t\n\f\r]+")


# The roles of a pop-up, which the hidden reading leaves hidden: a page's
# dialogs, menus and tooltips are hidden until opened, and are not its text.
_POPUP_ROLES = frozenset(("dialog", "alertdialog", "menu", "listbox", "tooltip"))


cdef bint _has_role(bd_attr* role, frozenset names) except -1:
    # Whether [role~="name" i] matches for one of `names`: a token of the role,
    # ASCII case folded.
    for token in _CSS_SPACE.split(_value(role)):
        if token.isascii() and token.lower() in names:
            return True
    return False


_TAB_PANEL = frozenset(("tabpanel",))


cdef bint _stays_hidden(bd_attr* role, Settings settings) except -1:
    # Whether an element with a hidden attribute and `role` (NULL: none) is
    # walked as hidden: always, but under the hidden reading (a pop-up's only)
    # and the tab_panels rule (all but a tab panel).
    if settings.show_hidden:
        return role != NULL and _has_role(role, _POPUP_ROLES)
    if settings.tab_panels:
        return role == NULL or not _has_role(role, _TAB_PANEL)
    return True


cdef inline bint _closed_popup(uintptr_t node_id, bd_attr* popover, bd_attr* open_attr,
                               Settings settings) noexcept:
    # The closed_popups rule: an element with a popover attribute, or a <dialog>
    # without open, is hidden until a script shows it, as a browser's style sheet
    # has it ([popover]:not(:popover-open), dialog:not([open]): display none). A
    # crawler runs no script: a pop-up's text (a glossary's definitions, a
    # sign-up form) is not the page's. `settings.dialog_id` is 0 when the rule is off.
    return settings.dialog_id != 0 and (
        popover != NULL or (node_id == settings.dialog_id and open_attr == NULL)
    )


cdef bint _hidden(bd_node* node, const AttributeIds* ids, Settings settings) except -1:
    # Whether an element is hidden as the walk reads it (_stays_hidden, or a
    # closed pop-up), its attributes looked up here (the walk's own loop has
    # them from its pass).
    if settings.dialog_id and _closed_popup(
        node.local_name,
        _attribute(node, ids.popover) if ids.popover else NULL,
        _attribute(node, ids.open_attr) if ids.open_attr else NULL,
        settings,
    ):
        return True
    if not ids.hidden or _attribute(node, ids.hidden) == NULL:
        return False
    return _stays_hidden(_attribute(node, ids.role) if ids.role else NULL, settings)


cdef object _role_label(bd_attr* attr, frozenset roles):
    # The scope of an element with a role: "role=..." when the selector
    # [role~="r" i] matches for a dropped role r (a token, ASCII case folded)
    # and the first token (lowercase) is a dropped role; else None.
    cdef str value = _value(attr)
    for token in _CSS_SPACE.split(value):
        if token.isascii() and token.lower() in roles:
            break
    else:
        return None
    tokens = value.lower().split()
    if tokens and tokens[0] in roles:
        return "role=" + tokens[0]
    return None


@cython.final
cdef class _Scopes:
    # The scoped elements the walk meets: dropped ones (e.g. "nav" or
    # "role=navigation") and the article profile's regions ("article:...").
    cdef list labels  # each scope's label, in the order met (Page.drop_scopes)
    cdef list parents  # the scope each sits in, or -1 (Page.scope_parents)
    cdef list opened  # the open ones, innermost last, as indices into labels

    def __cinit__(self):
        self.labels = []
        self.parents = []
        self.opened = []

    cdef inline Py_ssize_t innermost(self):
        # The scope in effect, or -1 (an index spelled out: wraparound is off).
        return self.opened[len(self.opened) - 1] if self.opened else -1

    cdef int enter(self, str label) except -1:
        self.parents.append(self.innermost())
        self.opened.append(len(self.labels))
        self.labels.append(label)
        return 0

    cdef int leave(self, Py_ssize_t count) except -1:
        cdef Py_ssize_t i
        for i in range(count):
            self.opened.pop()
        return 0

    cdef Py_ssize_t enter_regions(self, bd_attr* attr, dict scopes) except -1:
        # The article profile's regions of an element, as nesting's scan
        # marked them: a scope per label the rules act on, in order. Returns
        # how many it opened.
        cdef Py_ssize_t opened = 0
        for label in _value(attr).split():
            if label in scopes:
                self.enter(scopes[label])
                opened += 1
        return opened


cdef inline bint _has_any(bd_node* node, uintptr_t first_id, uintptr_t second_id) noexcept:
    # Whether the element has an attribute of either name (0: no name).
    cdef bd_attr* attr = (<bd_element*> node).first_attr
    while attr != NULL:
        if first_id and (attr.node.local_name == first_id or attr.node.local_name == second_id):
            return True
        attr = attr.next
    return False


cdef int _find_hidden(bd_node* root, const AttributeIds* ids, list hidden, object parser,
                      bint* microdata, Settings settings) except -1:
    # The hidden elements in a subtree the walk skips, outermost only, in
    # document order: the caller replaces them in the tree, which
    # blockdensity.metadata reads after the walk. On the way, whether an
    # element the tree keeps has a microdata attribute (`microdata`).
    cdef bd_node* node = root.first_child
    while node != NULL:
        if node.type == ELEMENT_TYPE and _hidden(node, ids, settings):
            hidden.append(_node(node, parser))
        else:
            if (node.type == ELEMENT_TYPE and not microdata[0]
                    and _has_any(node, ids.itemprop, ids.pubdate)):
                microdata[0] = True
            if node.first_child != NULL:
                node = node.first_child
                continue
        while node.next == NULL:
            node = node.parent
            if node == root:
                return 0
        node = node.next
    return 0


# The class signature (Elements): FNV-1a, 32 bits, over the first token of the
# class attribute. The first token names the component (a BEM block, "card",
# WordPress's "product" or "post"); the tokens after it vary from one sibling
# to the next (WordPress's "post-15859", "first", "instock", "product_cat-x"),
# so a signature over them all split a shop's grid of cards into one group per
# card: measured on the four development sets, WCXB's listings 0.669 -> 0.677,
# collections 0.661 -> 0.671, the three article sets unchanged.
DEF FNV_OFFSET = 2166136261
DEF FNV_PRIME = 16777619


cdef inline bint _ascii_space(Py_UCS4 c) noexcept:
    # HTML's ASCII whitespace, which separates the tokens of a class attribute.
    return c == 32 or c == 9 or c == 10 or c == 12 or c == 13


cdef uint32_t _signature_of(str value) noexcept:
    # The signature of a class value as a str (the bytes as selectolax decodes them).
    cdef uint32_t hashed = FNV_OFFSET
    cdef bint started = False
    cdef Py_UCS4 c
    for c in value:
        if _ascii_space(c):
            if started:
                break  # the first token ends
            continue
        hashed = (hashed ^ <uint32_t> c) * FNV_PRIME
        started = True
    if not started:
        return 0
    return hashed if hashed else 1


cdef uint32_t _signature(bd_attr* attr):
    # The element's class signature: FNV-1a over the code points of the first
    # token of its class attribute; 0: no class attribute, or no token; 1 where
    # the hash is 0. Read from the bytes while they are ASCII (the common case),
    # else from their decoding, as selectolax decodes them.
    cdef const unsigned char* data
    cdef Py_ssize_t i
    cdef uint32_t hashed = FNV_OFFSET
    cdef bint started = False
    cdef unsigned char c
    if attr == NULL or attr.value == NULL or attr.value.data == NULL:
        return 0
    data = attr.value.data
    for i in range(<Py_ssize_t> attr.value.length):
        c = data[i]
        if c >= 0x80:
            return _signature_of(_value(attr))
        if _ascii_space(c):
            if started:
                break  # the first token ends
            continue
        hashed = (hashed ^ c) * FNV_PRIME
        started = True
    if not started:
        return 0
    return hashed if hashed else 1


cdef object _code_class(bd_node* pre, const AttributeIds* ids, Settings settings):
    # The class of a <pre>'s code child, where code blocks name their language:
    # its first element child when that is a <code> (not hidden), its class
    # ("" for none); None when there is no such child.
    cdef bd_node* node = pre.first_child
    cdef bd_attr* attr
    while node != NULL and node.type != ELEMENT_TYPE:
        node = node.next
    if node == NULL or node.local_name != CODE_ID:
        return None
    if _hidden(node, ids, settings):
        return None
    attr = _attribute(node, ids.klass) if ids.klass else NULL
    return _value(attr) if attr != NULL else ""


@cython.final
cdef class Elements:
    """A page's element table: what blockdensity.structure reads of where each block sits.

    Its entries are the boundary elements the walk opened (those that end
    blocks, <hr> aside), <body> first, in document order: each with its tag
    id, the entry it sits in (-1: none, for <body>) and its class signature
    (FNV-1a over the code points of its class attribute's tokens joined by one
    space; 0: no token). Then the entry each block sits in (that of its first
    visible text, as Page.blocks' element), and the classes of each <pre>
    entry and of its code child (where code names its language). Kept as C
    arrays, read on demand: the fit that never asks pays for the arrays alone.
    """

    cdef uint32_t* tags
    cdef int32_t* parents
    cdef uint32_t* signatures
    cdef Py_ssize_t count
    cdef Py_ssize_t capacity
    cdef int32_t* block_entries
    cdef Py_ssize_t block_count
    cdef Py_ssize_t block_capacity
    cdef dict pre_classes  # entry -> (the pre's class, its code child's class or None)
    cdef dict names  # tag id -> element name, for the boundary elements

    def __cinit__(self, dict names):
        self.capacity = 64
        self.block_capacity = 64
        self.tags = <uint32_t*> malloc(self.capacity * sizeof(uint32_t))
        self.parents = <int32_t*> malloc(self.capacity * sizeof(int32_t))
        self.signatures = <uint32_t*> malloc(self.capacity * sizeof(uint32_t))
        self.block_entries = <int32_t*> malloc(self.block_capacity * sizeof(int32_t))
        if (self.tags == NULL or self.parents == NULL or self.signatures == NULL
                or self.block_entries == NULL):
            raise MemoryError()
        self.pre_classes = {}
        self.names = names

    def __dealloc__(self):
        free(self.tags)
        free(self.parents)
        free(self.signatures)
        free(self.block_entries)

    cdef Py_ssize_t add(self, uintptr_t tag, Py_ssize_t parent, uint32_t signature) except -1:
        # A new entry (an element the walk opens); its index.
        if self.count == self.capacity:
            self.capacity *= 2
            self.tags = <uint32_t*> _resized(self.tags, self.capacity, sizeof(uint32_t))
            self.parents = <int32_t*> _resized(self.parents, self.capacity, sizeof(int32_t))
            self.signatures = <uint32_t*> _resized(
                self.signatures, self.capacity, sizeof(uint32_t)
            )
        self.tags[self.count] = <uint32_t> tag
        self.parents[self.count] = <int32_t> parent
        self.signatures[self.count] = signature
        self.count += 1
        return self.count - 1

    cdef int add_block(self, Py_ssize_t entry) except -1:
        # The entry the next block sits in.
        if self.block_count == self.block_capacity:
            self.block_capacity *= 2
            self.block_entries = <int32_t*> _resized(
                self.block_entries, self.block_capacity, sizeof(int32_t)
            )
        self.block_entries[self.block_count] = <int32_t> entry
        self.block_count += 1
        return 0

    def __len__(self):
        return self.count

    def rows(self):
        """Every entry as (element name, parent entry, class signature), in order."""
        return [
            (self.names[self.tags[i]], self.parents[i], self.signatures[i])
            for i in range(self.count)
        ]

    def columns(self):
        """The entries' element names and their parent entries, two lists in order (what
        rows() holds, without the signatures: built in C, for blockdensity.structure)."""
        cdef Py_ssize_t i
        cdef dict names = self.names
        cdef list tags = [None] * self.count
        cdef list parents = [None] * self.count
        for i in range(self.count):
            tags[i] = names[self.tags[i]]
            parents[i] = self.parents[i]
        return tags, parents

    def signatures_list(self):
        """The entries' class signatures, in order."""
        return [self.signatures[i] for i in range(self.count)]

    def blocks(self):
        """The entry each block sits in, in block order."""
        return [self.block_entries[i] for i in range(self.block_count)]

    def blocks_within(self, names):
        """The blocks that sit in an element named in `names` or inside one (the
        blocks of table cells, for names td and th), in block order: one pass over
        the entries in C, so that a page without such an element costs next to
        nothing."""
        cdef list ids = [tag for tag, name in self.names.items() if name in names]
        cdef Py_ssize_t i, j, count = self.count, wanted = len(ids)
        cdef uint32_t tag
        cdef int32_t parent
        cdef char* inside
        cdef list found = []
        if wanted == 0 or count == 0:
            return found
        cdef uint32_t* targets = <uint32_t*> malloc(wanted * sizeof(uint32_t))
        if targets == NULL:
            raise MemoryError()
        for j in range(wanted):
            targets[j] = <uint32_t> ids[j]
        inside = <char*> calloc(count, 1)
        if inside == NULL:
            free(targets)
            raise MemoryError()
        try:
            # Entries come in document order, each after its parent.
            for i in range(count):
                tag = self.tags[i]
                parent = self.parents[i]
                if parent >= 0 and inside[parent]:
                    inside[i] = 1
                    continue
                for j in range(wanted):
                    if targets[j] == tag:
                        inside[i] = 1
                        break
            for i in range(self.block_count):
                parent = self.block_entries[i]
                if parent >= 0 and inside[parent]:
                    found.append(i)
        finally:
            free(targets)
            free(inside)
        return found

    def pres(self):
        """Each <pre> entry's class and its code child's class (None: no code child)."""
        return dict(self.pre_classes)


# The kinds of link a block holds (bits): one to a place in the page (href
# "#name"), one anywhere else (another page, a script, no href).
DEF IN_PAGE = 1
DEF ELSEWHERE = 2


cdef inline int _link_kind(bd_attr* href) noexcept:
    # A fragment of the page itself: "#" and a name (a bare "#" is a script's
    # button, "#!" a script's route).
    if href == NULL or href.value == NULL or href.value.data == NULL:
        return ELSEWHERE
    if href.value.length >= 2 and href.value.data[0] == 35 and href.value.data[1] != 33:
        return IN_PAGE
    return ELSEWHERE


@cython.final
cdef class _Blocks:
    # What the walk makes of the page's text: every block's text with its
    # marks, and its link text (anchor edges as spaces), each followed by
    # BLOCK_END; a record per block with visible text; and the current block.
    cdef _Text pieces
    cdef _Text links
    cdef list records  # (element, pre, drop) per block: segment.BlockInfo
    cdef Elements elements  # ... and the entry it sits in
    cdef list trace  # (block index, text node) per text node taken; None: not asked
    cdef Py_ssize_t start  # where the current block began in pieces
    cdef Py_ssize_t link_start  # ... and in links
    cdef bint visible  # whether it has visible text yet; where the first sits:
    cdef str element  # its boundary element,
    cdef Py_ssize_t entry  # ... as an entry of the element table,
    cdef bint pre  # inside <pre>,
    cdef Py_ssize_t drop  # the scope in effect, or -1
    # The blocks whose links all lead within the page (at least one): a table
    # of contents' entries (blockdensity.decide.contents).
    cdef list in_page
    cdef int link_kinds  # the kinds of link met in the current block (IN_PAGE, ELSEWHERE)
    cdef int open_kind  # the kind of the link open at the walk's place (anchor_depth > 0)

    def __cinit__(self, Elements elements, list trace):
        self.pieces = _Text()
        self.links = _Text()
        self.records = []
        self.in_page = []
        self.elements = elements
        self.trace = trace
        self.element = "body"
        self.drop = -1

    cdef int end(self, int anchor_depth, int sup_depth) except -1:
        # A boundary opened or closed: the block so far ends if it has visible
        # text; else what it holds (whitespace and marks) goes, and so do its
        # text nodes' entries in the trace.
        if self.visible:
            if anchor_depth or sup_depth:
                # It ends inside a link or sup/sub that goes on in the next
                # block: the marks close here (each block's marks pair up)...
                if anchor_depth:
                    self.pieces.push(ANCHOR_MARK)
                if sup_depth:
                    self.pieces.push(SUB_CLOSE)
            self.pieces.push_str(BLOCK_END)
            self.links.push_str(BLOCK_END)
            if self.link_kinds == IN_PAGE:
                self.in_page.append(len(self.records))
            self.records.append((self.element, self.pre, self.drop))
            self.elements.add_block(self.entry)
            self.visible = False
            self.start = self.pieces.size
            self.link_start = self.links.size
        else:
            if self.trace is not None:
                self.untrace()
            if self.pieces.size == self.start:
                return 0
            self.pieces.size = self.start
            self.links.size = self.link_start
        # ... and open again at the start of the next (a link going on, its kind too).
        self.link_kinds = self.open_kind if anchor_depth else 0
        if anchor_depth:
            self.pieces.push(ANCHOR_MARK)
        if sup_depth:
            self.pieces.push(SUB_OPEN)
        return 0

    cdef inline void open_link(self, bd_attr* href) noexcept:
        # A link opens (the outermost): its kind counts for the block it is in,
        # and for the blocks it goes on into.
        self.open_kind = _link_kind(href)
        self.link_kinds |= self.open_kind

    cdef int untrace(self) except -1:
        # The text nodes of the block that turned out to have no visible text.
        cdef list trace = self.trace
        cdef Py_ssize_t block = len(self.records)
        while trace and trace[len(trace) - 1][0] == block:
            trace.pop()
        return 0


# One level of the walk: the children of an element being walked.
cdef struct Level:
    bd_node* next  # the next child to look at
    int closer  # the flags of the element, to close after its children
    Py_ssize_t regions  # the scopes it opened (a dropped role, regions), to close with it
    bint skip_ws  # whether blank text children are skipped (outside <pre>)


cdef class _Stack:
    # Growable C arrays, freed with the walk whatever happens: the levels, and
    # the open boundary elements as entries of the element table.
    cdef Level* levels
    cdef Py_ssize_t* entries
    cdef Py_ssize_t size
    cdef Py_ssize_t entry_size

    def __cinit__(self):
        self.size = self.entry_size = 64
        self.levels = <Level*> malloc(self.size * sizeof(Level))
        self.entries = <Py_ssize_t*> malloc(self.entry_size * sizeof(Py_ssize_t))
        if self.levels == NULL or self.entries == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.levels)
        free(self.entries)

    cdef int grow(self, Py_ssize_t needed) except -1:
        if needed >= self.size:
            self.levels = <Level*> _resized(self.levels, 2 * self.size, sizeof(Level))
            self.size *= 2
        return 0

    cdef int grow_entries(self, Py_ssize_t needed) except -1:
        if needed >= self.entry_size:
            self.entries = <Py_ssize_t*> _resized(
                self.entries, 2 * self.entry_size, sizeof(Py_ssize_t)
            )
            self.entry_size *= 2
        return 0


def walk(LexborNode body, Settings settings, object title, list trace=None):
    """The fit's walk from <body> on: the page as blocks.

    The rules are docs/spec.md section 2's, written plainly in tests/reference/walk.py.
    The attributes that change what an element is are read on the way (by the
    ids `settings` holds): a hidden element is walked as the empty <img> that
    replaces it, a dropped ARIA role and the article profile's regions open
    scopes. `title`: the head's, or None (then the first <title> met in the
    body). `trace`: a list to fill with (block index, text node) for each text
    node of a block with visible text, in document order (for --highlight);
    None (the fit's case): no node object is made.

    Returns (blocks, text, linked, title, drop_scopes, scope_parents,
    declarations, hidden, microdata, elements, in_page): `hidden`, the hidden elements,
    for the caller to replace with <img> as docs/spec.md says (blockdensity.metadata
    reads the tree after); `microdata`, whether an element below <body> that
    stays in the tree has an itemprop or pubdate attribute (what metadata's
    microdata query needs), found on the way over the attributes (when
    `hidden` is sought; else True); `elements`, the page's element table
    (where each block sits, for blockdensity.structure); `in_page`, the blocks
    whose links all lead to a place in the page (href "#name"), at least one
    (when `settings` seeks href; else none)."""
    if not _configured:
        raise RuntimeError("blockdensity._walk.configure() has not been called")
    cdef const uint16_t* flags_of = settings.flags_of
    cdef Py_ssize_t n_flags = settings.n_flags
    cdef int custom = settings.custom
    cdef dict names = settings.names
    cdef AttributeIds ids = settings.ids
    cdef object parser = body.parser
    cdef Elements elements = Elements(names)
    cdef _Blocks out = _Blocks(elements, trace)
    cdef _Text pieces = out.pieces  # the page's text, block after block
    cdef _Text links = out.links  # its link text
    cdef _Scopes scopes = _Scopes()
    cdef list declarations = []
    cdef list hidden = []
    cdef bint microdata = False
    cdef int anchor_depth = 0, sup_depth = 0, pre_depth = 0
    cdef _Stack stack = _Stack()
    cdef Py_ssize_t depth = 0  # levels on the stack
    cdef Py_ssize_t boundaries = 1  # open boundary elements (stack.entries)
    cdef Py_ssize_t entry
    cdef bint skip_ws = True
    cdef bd_node* glue_node = NULL  # the last text node, while nothing separates it
    cdef bint glue_ends_blank = False  # ... and whether its text ends in whitespace
    cdef bint link_closes = False
    cdef bd_node* cursor = body.node.first_child  # the next child of the level walked
    cdef bint cursor_skip = True
    cdef int closer = BOUNDARY
    cdef Py_ssize_t closer_regions = 0  # the region scopes to close with `closer`
    cdef Py_ssize_t regions  # those the element at hand opened
    cdef bint seeking
    cdef bint was_hidden
    cdef Found found
    cdef bint ends_block = False
    cdef bint finished = False
    cdef bint interrupted
    cdef bd_node* entering = NULL  # an element just opened, whose children come next
    cdef bd_node* node
    cdef bd_node* child
    cdef uintptr_t node_id
    cdef int flags
    cdef Py_ssize_t text_start, length
    stack.entries[0] = elements.add(
        body.node.local_name, -1, _signature(_attribute(body.node, ids.klass)) if ids.klass else 0
    )
    out.entry = 0
    if _hidden(body.node, &ids, settings):
        # A hidden <body> is replaced, its children walked all the same (the
        # walk holds the body), and article.regions then finds no body.
        hidden.append(body)
        ids.region = 0
    seeking = ids.hidden or ids.role or ids.region or ids.klass or ids.href
    found.klass = NULL
    found.href = NULL
    while True:
        if ends_block:
            ends_block = False
            glue_node = NULL
            out.end(anchor_depth, sup_depth)
        interrupted = False  # the children loop left for the end of a block (<hr>)
        while True:
            node = _child(cursor, cursor_skip)
            if node == NULL:
                break
            cursor = node.next
            node_id = node.local_name
            regions = 0
            if node_id != TEXT_ID:
                flags = flags_of[node_id] if node_id < <uintptr_t> n_flags else custom
                was_hidden = False
                if seeking and node.type == ELEMENT_TYPE:
                    if _read_attributes(node, &ids, &found):
                        microdata = True
                    if (found.hidden != NULL and _stays_hidden(found.role, settings)) or (
                        _closed_popup(node_id, found.popover, found.open_attr, settings)
                    ):
                        # as the <img> that replaces it
                        hidden.append(_node(node, parser))
                        node_id = IMG_ID
                        flags = flags_of[IMG_ID]
                        was_hidden = True
                    else:
                        if found.role != NULL:
                            label = _role_label(found.role, settings.roles)
                            if label is not None:
                                scopes.enter(label)
                                regions = 1
                        if found.region != NULL:
                            regions += scopes.enter_regions(found.region, settings.scopes)
                else:
                    found.klass = NULL
                    found.href = NULL
                if flags & BOUNDARY:
                    ends_block = True
                    if flags & SKIP:  # <hr>
                        if regions:
                            scopes.leave(regions)
                        interrupted = True
                        break
                    entry = elements.add(
                        node_id, stack.entries[boundaries - 1], _signature(found.klass)
                    )
                    if flags & PRE:
                        elements.pre_classes[entry] = (
                            _value(found.klass) if found.klass != NULL else "",
                            _code_class(node, &ids, settings),
                        )
                    stack.grow_entries(boundaries)
                    stack.entries[boundaries] = entry
                    boundaries += 1
                    if flags == BOUNDARY:
                        entering = node
                        break
                elif not flags or (flags == ANCHOR and not anchor_depth):
                    child = node.first_child
                    if child == NULL or child.next != NULL or child.local_name != TEXT_ID:
                        if flags:
                            anchor_depth = 1
                            pieces.push(ANCHOR_MARK)
                            links.push(SPACE)
                            out.open_link(found.href)
                        entering = node
                        break
                    if flags:
                        pieces.push(ANCHOR_MARK)
                        link_closes = True
                        out.open_link(found.href)
                    node = child
                    node_id = TEXT_ID
                elif flags & SKIP:
                    if ids.hidden and not was_hidden and node.first_child != NULL:
                        _find_hidden(node, &ids, hidden, parser, &microdata, settings)
                    if (node_id == DECLARING[0] or node_id == DECLARING[1]
                            or node_id == DECLARING[2] or node_id == DECLARING[3]):
                        declarations.append(_node(node, parser))
                    if flags & SEPARATOR:
                        glue_node = NULL
                        pieces.push(SPACE)
                        if anchor_depth:
                            links.push(SPACE)
                        if flags & TITLE and title is None:
                            title = " ".join(_node(node, parser).text().split())
                    elif flags & BREAK:
                        glue_node = NULL
                        pieces.push(BREAK_MARK)
                        if anchor_depth:
                            links.push(SPACE)
                    if regions:
                        scopes.leave(regions)
                    continue
                elif flags & SEPARATOR:
                    glue_node = NULL
                    pieces.push(SPACE)
                    if anchor_depth:
                        links.push(SPACE)
                if node_id != TEXT_ID:
                    if flags & ANCHOR:
                        anchor_depth += 1
                        if anchor_depth == 1:
                            pieces.push(ANCHOR_MARK)
                            links.push(SPACE)
                            out.open_link(found.href)
                    if flags & SUPSUB:
                        sup_depth += 1
                        if sup_depth == 1:
                            pieces.push(SUB_OPEN)
                    if flags & PRE:
                        pre_depth += 1
                        skip_ws = False
                    if flags & DROP:
                        scopes.enter(names[node_id])
                    entering = node
                    break
            # A text node (or the only child of the element just met).
            text_start = pieces.size
            pieces.decode(node)
            length = pieces.size - text_start
            if (
                glue_node != NULL
                and not glue_ends_blank
                and not (length and Py_UNICODE_ISSPACE(pieces.data[text_start]))
                and _whitespace_between(glue_node, node)
            ):
                # A whitespace-only text node the walk skipped stood between.
                pieces.insert_space(text_start)  # before the text, as the reference
                text_start += 1
                if anchor_depth:
                    links.push(SPACE)
            if trace is not None:
                trace.append((len(out.records), _node(node, parser)))
            glue_node = node
            glue_ends_blank = length > 0 and Py_UNICODE_ISSPACE(pieces.data[text_start + length - 1])
            if anchor_depth:
                links.extend(pieces.data + text_start, length)
            if not out.visible and not _isspace(pieces.data + text_start, length):
                out.visible = True
                out.entry = stack.entries[boundaries - 1]
                out.element = names[elements.tags[out.entry]]
                out.pre = pre_depth > 0
                out.drop = scopes.innermost()
            if link_closes:
                pieces.push(ANCHOR_MARK)
                links.push(SPACE)
                links.extend(pieces.data + text_start, length)
                links.push(SPACE)
                link_closes = False
            if regions:  # those of the element whose only child this text is
                scopes.leave(regions)
        if entering != NULL:
            # Into the element just opened: its children next, its close after them.
            stack.grow(depth)
            stack.levels[depth] = Level(cursor, closer, closer_regions, cursor_skip)
            depth += 1
            cursor = entering.first_child
            cursor_skip = skip_ws
            closer = flags
            closer_regions = regions
            entering = NULL
            continue
        if interrupted:
            continue
        # The children are done: the close of their element.
        if finished:
            break
        flags = closer
        if closer_regions:
            scopes.leave(closer_regions)
        if depth:
            depth -= 1
            cursor = stack.levels[depth].next
            closer = stack.levels[depth].closer
            closer_regions = stack.levels[depth].regions
            cursor_skip = stack.levels[depth].skip_ws
        else:  # the close of <body>
            finished = True
            cursor = NULL
        if not flags:
            continue
        if flags != BOUNDARY:
            if flags & ANCHOR:
                anchor_depth -= 1
                if anchor_depth == 0:
                    pieces.push(ANCHOR_MARK)
                    links.push(SPACE)
            if flags & SUPSUB:
                sup_depth -= 1
                if sup_depth == 0:
                    pieces.push(SUB_CLOSE)
            if flags & PRE:
                pre_depth -= 1
                skip_ws = not pre_depth
            if flags & DROP:
                scopes.leave(1)
            if not flags & BOUNDARY:
                if flags & SEPARATOR:
                    glue_node = NULL
                    pieces.push(SPACE)
                    if anchor_depth:
                        links.push(SPACE)
                continue
        boundaries -= 1
        ends_block = True
    return (
        out.records, pieces.make(), links.make(), title, scopes.labels, scopes.parents,
        declarations, hidden, microdata or not ids.hidden, elements, out.in_page,
    )


# What declared() hands back, first item of each record (blockdensity.metadata reads them).
META, LINK, BASE, JSONLD = range(4)
# The attribute names declared() reads, in the order it takes their ids: the
# meta's content and the names it declares under (blockdensity.metadata's
# order), a link's rel and href (also a base's href), a script's type.
# Then pubdate, which has_microdata() looks for with itemprop.
DECLARED_ATTRIBUTES = (
    "content", "property", "name", "itemprop", "http-equiv", "rel", "href", "type", "pubdate"
)
DEF DECLARED_COUNT = 9
DEF CONTENT = 0
DEF PROPERTY = 1
DEF NAME = 2
DEF ITEMPROP = 3
DEF HTTP_EQUIV = 4
DEF REL = 5
DEF HREF = 6
DEF TYPE = 7
DEF PUBDATE = 8


cdef object _declared_value(bd_node* node, uintptr_t name_id):
    # node.attributes.get(name), as selectolax makes it: None for an attribute
    # without a value (or none of that name), else its value decoded ("replace").
    cdef bd_attr* attr = _attribute(node, name_id)
    if attr == NULL or attr.value == NULL or attr.value.data == NULL:
        return None
    return PyUnicode_DecodeUTF8(<const char*> attr.value.data, attr.value.length, "replace")


cdef int _declaration(bd_node* node, const uintptr_t* ids, list found, object parser) except -1:
    cdef uintptr_t node_id = node.local_name
    cdef object value
    if node_id == DECLARING[0]:  # meta: only one with content declares anything
        value = _declared_value(node, ids[CONTENT])
        if value:
            found.append((
                META, value, _declared_value(node, ids[PROPERTY]),
                _declared_value(node, ids[NAME]), _declared_value(node, ids[ITEMPROP]),
                _declared_value(node, ids[HTTP_EQUIV]),
            ))
    elif node_id == DECLARING[1]:  # link
        value = _declared_value(node, ids[REL])
        if value:
            found.append((LINK, value, _declared_value(node, ids[HREF]), None, None, None))
    elif node_id == DECLARING[2]:  # base
        found.append((BASE, _declared_value(node, ids[HREF]), None, None, None, None))
    elif node_id == DECLARING[3]:  # script: its text only when it is JSON-LD
        value = _declared_value(node, ids[TYPE])
        if value and value.strip().lower() == "application/ld+json":
            found.append((JSONLD, _node(node, parser).text(deep=True), None, None, None, None))
    return 0


def declared(object head, list body, tuple names):
    """What the declaring elements say, for blockdensity.metadata, read from lexbor's records
    without a node object or an attribute dict per element: the <meta>, <link>, <base> and
    <script> children of `head` (None: no head), then the elements of `body` (the walk's
    declarations), in order. `names` are the ids of DECLARED_ATTRIBUTES in the document
    (attribute_ids of an element made there with them). A record per element that declares something:
    (META, content, property, name, itemprop, http-equiv) for a <meta> with content,
    (LINK, rel, href) for a <link> with rel, (BASE, href), (JSONLD, text) for a JSON-LD
    script, each padded with None to six items (one shape, one type); each value as
    node.attributes.get gives it."""
    cdef uintptr_t ids[DECLARED_COUNT]
    cdef Py_ssize_t index
    cdef bd_node* node
    cdef list found = []
    if len(names) != DECLARED_COUNT:
        raise ValueError(f"expected {DECLARED_COUNT} attribute ids, got {names!r}")
    for index in range(DECLARED_COUNT):
        ids[index] = names[index]
    if head is not None:
        node = (<LexborNode> head).node.first_child
        while node != NULL:
            if node.type == ELEMENT_TYPE:
                _declaration(node, ids, found, (<LexborNode> head).parser)
            node = node.next
    for item in body:
        _declaration((<LexborNode> item).node, ids, found, (<LexborNode> item).parser)
    return found


def has_microdata(LexborNode root, tuple names, bint deep=True):
    """Whether an element of `root`'s subtree (itself included; not deep: itself alone)
    has an itemprop or a pubdate attribute: whether blockdensity.metadata's microdata
    query can find anything. `names` as declared() takes them. One loop over lexbor's
    records, where the CSS query costs about a tenth of a millisecond."""
    cdef uintptr_t itemprop_id, pubdate_id
    cdef bd_node* node = root.node
    cdef bd_attr* attr
    if len(names) != DECLARED_COUNT:
        raise ValueError(f"expected {DECLARED_COUNT} attribute ids, got {names!r}")
    itemprop_id, pubdate_id = names[ITEMPROP], names[PUBDATE]
    while True:
        if node.type == ELEMENT_TYPE:
            attr = (<bd_element*> node).first_attr
            while attr != NULL:
                if attr.node.local_name == itemprop_id or attr.node.local_name == pubdate_id:
                    return True
                attr = attr.next
        if not deep:
            return False
        if node.first_child != NULL:
            node = node.first_child
            continue
        while node.next == NULL:
            if node == root.node:
                return False
            node = node.parent
        if node == root.node:
            return False
        node = node.next


cdef str _text(bd_node* node):
    # LexborNode.text_content, or "" where it is None, as the walk reads it.
    cdef _Text text = _Text()
    text.decode(node)
    return text.make()


def _probe():
    """Check the layouts above against selectolax's own accessors on a small page."""
    cdef LexborNode body
    cdef LexborNode other
    cdef bd_node* node
    installed = _installed_version("selectolax")
    if installed != LAYOUT_VERSION:
        raise RuntimeError(
            f"blockdensity's compiled walk was built for selectolax {LAYOUT_VERSION}, whose "
            f"lexbor records it reads, but selectolax {installed} is installed: install "
            f"selectolax=={LAYOUT_VERSION}, or build blockdensity against {installed} after "
            "checking the layouts in blockdensity/_walk.pyx"
        )
    document = LexborHTMLParser("<p>caf\u00e9 <b>au</b> lait</p>")
    body = document.body
    paragraph = body.first_child
    word = paragraph.first_child
    bold = word.next
    node = (<LexborNode> paragraph).node
    checks = [
        (<LexborNode> word).node.parent == node,
        node.parent == body.node,
        node.first_child == (<LexborNode> word).node,
        (<LexborNode> word).node.next == (<LexborNode> bold).node,
        (<LexborNode> bold).node.next == (<LexborNode> bold.next).node,
        (<LexborNode> bold).node.next.next == NULL,
        node.local_name == paragraph.tag_id,
        (<LexborNode> word).node.local_name == word.tag_id,
        (<LexborNode> word).node.type == TEXT_TYPE,
        node.type != TEXT_TYPE,
        _text((<LexborNode> word).node) == word.text_content,
        _text((<LexborNode> bold.next).node) == bold.next.text_content,
    ]
    other = _node(node, document)
    checks.append(other.mem_id == paragraph.mem_id and other.html == paragraph.html)
    # Attributes: the walk finds one by the id of its name, which an element
    # made later in the same document shares.
    document = LexborHTMLParser("<p data-x='caf\u00e9' id=a>t</p>")
    paragraph = document.body.first_child
    made = document.create_node("div")
    made.attrs["data-x"] = ""
    name_id = attribute_ids(made)[0]
    attr = _attribute((<LexborNode> paragraph).node, name_id)
    checks.append(
        attr != NULL and attr.value != NULL
        and PyUnicode_DecodeUTF8(<const char*> attr.value.data, attr.value.length, "replace")
        == paragraph.attrs["data-x"]
    )
    checks.append(attribute_ids(paragraph)[0] == name_id)
    if not all(checks):
        raise RuntimeError(
            f"selectolax {installed}'s lexbor records are not laid out as "
            "blockdensity/_walk.pyx declares them: the compiled walk cannot read its tree "
            f"(checks: {checks})"
        )


_probe()
