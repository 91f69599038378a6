/* codelog.stage._canon: parse + canonical form in C, the build's hot loop.
 *
 * The same algorithm as codelog/stage/ast_hash.py::canonical_form, which stays the reference
 * (the tests compare the two on every bundled program and on generated ones). Walking a tree
 * from Python creates a Node object per node and costs about as much as the parse itself; here
 * the walk and its serialisation are under a tenth of the parse (perf, synthetic CodeNet Python).
 *
 * Encoding, little-endian, one record per event in prefix order:
 *   '(' u16 kind             a node with children opens
 *   ')'                      ... and closes after its last child
 *   '.' u16 kind             an anonymous leaf (keyword, operator) with its kind's usual text
 *   '"' u16 kind u32 n text  any other leaf: a literal, a name kept as written, an odd token
 *   '$' u16 kind u32 i       an identifier the program binds: its i-th such name by first use
 *   '?' u16 kind             a MISSING node (zero-width, invented by error recovery)
 *   '~' u32 n text           source text no visible node covers (hidden tokens), unless blank
 * Comment subtrees are skipped; whitespace between tokens never appears. A tree with errors
 * is '!' then its records with no name renamed, or, for a layout-sensitive grammar, '=' then
 * the source bytes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tree_sitter/api.h"
/* tree-sitter internals (the vendored core is compiled in): the walk reads subtrees. */
#include "language.h"
#include "subtree.h"
#include "tree.h"

enum {
    IS_IDENTIFIER = 1,
    IS_COMMENT = 2,
    IS_BINDING_PARENT = 4,
    IS_CONTAINER = 8,
};

/* (parent kind, field) slots: an identifier there binds, or is looked up by its text. */
enum { SLOT_BINDS = 1, SLOT_KEEPS = 2 };

enum { EV_OPEN, EV_CLOSE, EV_LEAF, EV_TEXT, EV_IDENT, EV_MISSING, EV_UNCOVERED };

#define KEPT_NAME (-2) /* Name.index of a name that keeps its text */

/* Name.flags: where the walk saw the name. */
enum { NAME_BOUND = 1, NAME_BY_TEXT = 2 };

typedef struct {
    uint8_t tag;
    TSSymbol kind;
    uint32_t start, end;
} Event;

typedef struct {
    TSSymbol kind;
    TSFieldId field; /* the node's field in its parent; only containers need it */
} Ancestor;

/* A node of the tree, visible or hidden, whose children the walk is going through. */
typedef struct {
    const Subtree *children;
    const TSSymbol *aliases; /* this node's production's alias sequence, or NULL */
    uint32_t count, next;    /* children, and the index of the next one */
    uint32_t structural;     /* structural index of the next child (extras have none) */
    uint32_t pos;            /* where the next child's padding starts */
    uint16_t production;
    /* For field ids looked up through hidden nodes: this node's place in its parent. */
    uint32_t own_structural;
    bool hidden, extra;
} Frame;

/* Growable arrays; one per Canonicalizer, reused across calls. PyMem_Raw*: the walk runs
 * without the GIL. */
typedef struct {
    void *items;
    size_t len, cap, size;
} Vec;

static void *vec_push(Vec *v) {
    if (v->len == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 256;
        void *items = PyMem_RawRealloc(v->items, cap * v->size);
        if (!items) return NULL;
        v->items = items;
        v->cap = cap;
    }
    return (char *)v->items + v->len++ * v->size;
}

/* tree-sitter's allocator for this copy of its core: free lists per thread and size class.
 *
 * A parse makes and frees tens of thousands of small blocks (subtrees, stack nodes, arrays);
 * with glibc's malloc they are a tenth of the parse (consolidation, chunk unlinking).
 * py-tree-sitter sends them to pymalloc, which needs the GIL; the parse here runs without it
 * so the file readers keep going, hence lists of our own, which need no lock: a block freed
 * by another thread joins that thread's lists. Memory kept is the peak of one parse's small
 * blocks per thread; larger blocks go straight to malloc. */
#define POOL_GRAIN 16
#define POOL_CLASSES 64 /* blocks up to 1 KiB */

typedef union PoolBlock {
    union PoolBlock *next;  /* while free */
    struct {
        size_t size_class;  /* 0: from malloc, of any size */
        size_t capacity;
    } head;
    max_align_t align;
} PoolBlock;

static _Thread_local PoolBlock *pool_free[POOL_CLASSES + 1];

static void *pool_malloc(size_t n) {
    size_t size_class = n ? (n + POOL_GRAIN - 1) / POOL_GRAIN : 1;
    PoolBlock *block;
    if (size_class > POOL_CLASSES) {
        size_class = 0;
    } else if ((block = pool_free[size_class])) {
        pool_free[size_class] = block->next;
        block->head.size_class = size_class;
        return block + 1;
    }
    size_t capacity = size_class ? size_class * POOL_GRAIN : n;
    block = malloc(sizeof(PoolBlock) + capacity);
    if (!block) return NULL;
    block->head.size_class = size_class;
    block->head.capacity = capacity;
    return block + 1;
}

static void pool_free_block(void *p) {
    if (!p) return;
    PoolBlock *block = (PoolBlock *)p - 1;
    size_t size_class = block->head.size_class;
    if (!size_class) {
        free(block);
        return;
    }
    block->next = pool_free[size_class];
    pool_free[size_class] = block;
}

static void *pool_calloc(size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) return NULL;
    void *p = pool_malloc(count * size);
    if (p) memset(p, 0, count * size);
    return p;
}

static void *pool_realloc(void *p, size_t n) {
    if (!p) return pool_malloc(n);
    PoolBlock *block = (PoolBlock *)p - 1;
    size_t capacity = block->head.size_class ? block->head.size_class * POOL_GRAIN
                                             : block->head.capacity;
    if (n <= capacity && (block->head.size_class || n > POOL_CLASSES * POOL_GRAIN)) return p;
    void *q = pool_malloc(n);
    if (!q) return NULL;
    memcpy(q, p, n < capacity ? n : capacity);
    pool_free_block(p);
    return q;
}

/* Identifier texts the program binds or looks up by text, with their index by first use:
 * open addressing. */
typedef struct {
    uint32_t start, len, hash;
    uint32_t generation; /* a slot is empty unless this is its set's */
    int32_t index; /* -1 until the first use is numbered; KEPT_NAME: never renamed */
    uint8_t flags; /* NAME_* */
} Name;

/* Emptied per call by a new generation, not by clearing the slots: one large program grows
 * the table for good, and clearing or scanning it all per call cost more than the names. */
typedef struct {
    Name *slots;
    size_t cap, used;
    uint32_t generation;
} NameSet;

static uint32_t fnv1a(const char *s, uint32_t n) {
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

static Name *nameset_find(NameSet *set, const char *src, uint32_t start, uint32_t len,
                          uint32_t hash) {
    size_t mask = set->cap - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        Name *slot = &set->slots[i];
        if (slot->generation != set->generation) return slot;
        if (slot->hash == hash && slot->len == len &&
            memcmp(src + slot->start, src + start, len) == 0)
            return slot;
    }
}

static int nameset_grow(NameSet *set, const char *src) {
    size_t cap = set->cap ? 2 * set->cap : 64;
    Name *old = set->slots;
    size_t old_cap = set->cap;
    set->slots = PyMem_RawCalloc(cap, sizeof(Name));
    if (!set->slots) {
        set->slots = old;
        return -1;
    }
    set->cap = cap;
    for (size_t i = 0; i < old_cap; i++) {
        if (old[i].generation == set->generation) *nameset_find(set, src, old[i].start, old[i].len, old[i].hash) = old[i];
    }
    PyMem_RawFree(old);
    return 0;
}

static int nameset_add(NameSet *set, const char *src, uint32_t start, uint32_t len,
                       uint8_t flag) {
    if (2 * (set->used + 1) > set->cap && nameset_grow(set, src) < 0) return -1;
    uint32_t hash = fnv1a(src + start, len);
    Name *slot = nameset_find(set, src, start, len, hash);
    if (slot->generation != set->generation) {
        *slot = (Name){start, len, hash, set->generation, -1, 0};
        set->used++;
    }
    slot->flags |= flag;
    return 0;
}

static Name *nameset_get(NameSet *set, const char *src, uint32_t start, uint32_t len) {
    if (set->used == 0) return NULL;
    Name *slot = nameset_find(set, src, start, len, fnv1a(src + start, len));
    return slot->generation == set->generation ? slot : NULL;
}

typedef struct {
    char *text; /* NULL: none */
    uint32_t len;
} Text;

typedef struct {
    PyObject_HEAD
    TSParser *parser;
    PyObject *language_ref; /* keeps the grammar's capsule alive */
    uint32_t kinds, fields;
    uint8_t *flags;        /* per kind: IS_* bits */
    uint8_t *slots;        /* kinds x fields: SLOT_* bits of (parent kind, field) */
    Text *fixed;           /* per kind: an anonymous kind's usual text */
    Text *kept_names;      /* names never renamed */
    size_t n_kept_names;
    int kept_dunders, layout_sensitive;
    Vec events, ancestors, frames;
    size_t form_size; /* bytes the events take in the form, at most */
    NameSet bound;
    int busy; /* set under the GIL while a call runs without it: one call at a time */
} Canonicalizer;

static int set_flags(Canonicalizer *self, PyObject *kinds, uint8_t bit) {
    PyObject *iter = PyObject_GetIter(kinds);
    if (!iter) return -1;
    PyObject *item;
    while ((item = PyIter_Next(iter))) {
        unsigned long kind = PyLong_AsUnsignedLong(item);
        Py_DECREF(item);
        if (PyErr_Occurred()) break;
        if (kind >= self->kinds) {
            PyErr_Format(PyExc_ValueError, "kind id %lu is not in the grammar", kind);
            break;
        }
        self->flags[kind] |= bit;
    }
    Py_DECREF(iter);
    return PyErr_Occurred() ? -1 : 0;
}

static int set_slots(Canonicalizer *self, PyObject *pairs, uint8_t bit) {
    PyObject *iter = PyObject_GetIter(pairs);
    if (!iter) return -1;
    PyObject *item;
    while ((item = PyIter_Next(iter))) {
        unsigned long kind, field;
        int ok = PyArg_ParseTuple(item, "kk", &kind, &field);
        Py_DECREF(item);
        if (!ok) break;
        if (kind >= self->kinds || field >= self->fields) {
            PyErr_Format(PyExc_ValueError, "(kind %lu, field %lu) is not in the grammar", kind,
                         field);
            break;
        }
        self->slots[kind * self->fields + field] |= bit;
    }
    Py_DECREF(iter);
    return PyErr_Occurred() ? -1 : 0;
}

/* A private copy of a bytes object's contents. */
static int copy_text(Text *out, PyObject *bytes) {
    char *data;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(bytes, &data, &len) < 0) return -1;
    if ((size_t)len > UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "text over 4 GiB");
        return -1;
    }
    out->text = PyMem_RawMalloc(len ? (size_t)len : 1);
    if (!out->text) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(out->text, data, (size_t)len);
    out->len = (uint32_t)len;
    return 0;
}

static int set_fixed(Canonicalizer *self, PyObject *mapping) {
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    if (!PyDict_Check(mapping)) {
        PyErr_SetString(PyExc_TypeError, "fixed_text must be a dict of kind id -> bytes");
        return -1;
    }
    while (PyDict_Next(mapping, &pos, &key, &value)) {
        unsigned long kind = PyLong_AsUnsignedLong(key);
        if (PyErr_Occurred()) return -1;
        if (kind >= self->kinds) {
            PyErr_Format(PyExc_ValueError, "kind id %lu is not in the grammar", kind);
            return -1;
        }
        if (self->fixed[kind].text) continue;
        if (copy_text(&self->fixed[kind], value) < 0) return -1;
    }
    return 0;
}

static int set_kept_names(Canonicalizer *self, PyObject *names) {
    PyObject *list = PySequence_List(names);
    if (!list) return -1;
    Py_ssize_t n = PyList_GET_SIZE(list);
    self->kept_names = PyMem_RawCalloc(n ? (size_t)n : 1, sizeof(Text));
    int status = self->kept_names ? 0 : -1;
    if (status < 0) PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n && status == 0; i++) {
        status = copy_text(&self->kept_names[i], PyList_GET_ITEM(list, i));
        if (status == 0) self->n_kept_names++;
    }
    Py_DECREF(list);
    return status;
}

static int Canonicalizer_init(Canonicalizer *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"language",     "identifiers",     "comments",
                               "fixed_text",   "binding_fields",  "binding_parents",
                               "containers",   "kept_fields",     "kept_names",
                               "kept_dunders", "layout_sensitive", NULL};
    PyObject *capsule, *identifiers, *comments, *fixed, *fields, *parents, *containers, *kept,
        *names;
    int dunders, layout;
    if (self->parser) {
        PyErr_SetString(PyExc_RuntimeError, "Canonicalizer is already initialised");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOOOOpp", keywords, &capsule,
                                     &identifiers, &comments, &fixed, &fields, &parents,
                                     &containers, &kept, &names, &dunders, &layout))
        return -1;
    const TSLanguage *language = PyCapsule_GetPointer(capsule, "tree_sitter.Language");
    if (!language) return -1;
    self->parser = ts_parser_new();
    if (!ts_parser_set_language(self->parser, language)) {
        PyErr_Format(PyExc_ValueError,
                     "grammar ABI version %u is not supported by codelog's tree-sitter core "
                     "(%d..%d)",
                     ts_language_abi_version(language), TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION,
                     TREE_SITTER_LANGUAGE_VERSION);
        return -1;
    }
    Py_INCREF(capsule);
    self->language_ref = capsule;
    self->kinds = ts_language_symbol_count(language);
    self->fields = ts_language_field_count(language) + 1; /* ids are 1-based; 0 is "none" */
    self->flags = PyMem_RawCalloc(self->kinds, 1);
    self->slots = PyMem_RawCalloc((size_t)self->kinds * self->fields, 1);
    self->fixed = PyMem_RawCalloc(self->kinds, sizeof(Text));
    if (!self->flags || !self->slots || !self->fixed) {
        PyErr_NoMemory();
        return -1;
    }
    self->kept_dunders = dunders;
    self->layout_sensitive = layout;
    self->events.size = sizeof(Event);
    self->ancestors.size = sizeof(Ancestor);
    self->frames.size = sizeof(Frame);
    if (set_flags(self, identifiers, IS_IDENTIFIER) < 0 || set_flags(self, comments, IS_COMMENT) < 0 ||
        set_flags(self, parents, IS_BINDING_PARENT) < 0 ||
        set_flags(self, containers, IS_CONTAINER) < 0 || set_slots(self, fields, SLOT_BINDS) < 0 ||
        set_slots(self, kept, SLOT_KEEPS) < 0 || set_fixed(self, fixed) < 0 ||
        set_kept_names(self, names) < 0)
        return -1;
    return 0;
}

static void Canonicalizer_dealloc(Canonicalizer *self) {
    if (self->parser) ts_parser_delete(self->parser);
    Py_XDECREF(self->language_ref);
    PyMem_RawFree(self->flags);
    PyMem_RawFree(self->slots);
    if (self->fixed) {
        for (uint32_t k = 0; k < self->kinds; k++) PyMem_RawFree(self->fixed[k].text);
        PyMem_RawFree(self->fixed);
    }
    for (size_t i = 0; i < self->n_kept_names; i++) PyMem_RawFree(self->kept_names[i].text);
    PyMem_RawFree(self->kept_names);
    PyMem_RawFree(self->events.items);
    PyMem_RawFree(self->ancestors.items);
    PyMem_RawFree(self->frames.items);
    PyMem_RawFree(self->bound.slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static inline uint8_t slot(const Canonicalizer *self, TSSymbol kind, TSFieldId field) {
    return kind < self->kinds && field < self->fields
               ? self->slots[(size_t)kind * self->fields + field]
               : 0;
}

static inline uint8_t flags_of(const Canonicalizer *self, TSSymbol kind) {
    return kind < self->kinds ? self->flags[kind] : 0;
}

static inline int emit(Canonicalizer *self, uint8_t tag, TSSymbol kind, uint32_t start,
                       uint32_t end) {
    Event *event = vec_push(&self->events);
    if (!event) return -1;
    *event = (Event){tag, kind, start, end};
    /* The record's size (an identifier's: at most), so serialize needs no pass of its own. */
    switch (tag) {
        case EV_CLOSE: self->form_size += 1; break;
        case EV_OPEN:
        case EV_LEAF:
        case EV_MISSING: self->form_size += 3; break;
        case EV_UNCOVERED: self->form_size += 5 + (end - start); break;
        default: self->form_size += 7 + (end - start);
    }
    return 0;
}

/* As bytes.strip() sees whitespace (ast_hash._WHITESPACE). */
static inline int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int blank(const char *src, uint32_t start, uint32_t end) {
    for (uint32_t i = start; i < end; i++)
        if (!is_space(src[i])) return 0;
    return 1;
}

static int is_kept_name(const Canonicalizer *self, const char *text, uint32_t len) {
    for (size_t i = 0; i < self->n_kept_names; i++) {
        const Text *kept = &self->kept_names[i];
        if (kept->len == len && memcmp(kept->text, text, len) == 0) return 1;
    }
    return self->kept_dunders && len > 4 && text[0] == '_' && text[1] == '_' &&
           text[len - 2] == '_' && text[len - 1] == '_';
}

static inline uint32_t padding_bytes(Subtree s) {
    return s.data.is_inline ? s.data.padding_bytes : s.ptr->padding.bytes;
}

static inline uint32_t size_bytes(Subtree s) {
    return s.data.is_inline ? s.data.size_bytes : s.ptr->size.bytes;
}

/* The field id ts_tree_cursor_current_field_id gives a node whose parent is frames[depth]:
 * its own field there, else (through hidden parents only) the hidden parent's, and so on. */
static TSFieldId field_of(const TSLanguage *language, const Frame *frames, size_t depth,
                          uint32_t structural, bool extra) {
    if (language->field_count == 0) return 0;
    for (;;) {
        if (extra) return 0;
        TSMapSlice slice = language->field_map_slices[frames[depth].production];
        const TSFieldMapEntry *map = &language->field_map_entries[slice.index];
        for (const TSFieldMapEntry *end = map + slice.length; map < end; map++)
            if (!map->inherited && map->child_index == structural) return map->field_id;
        if (depth == 0 || !frames[depth].hidden) return 0;
        structural = frames[depth].own_structural;
        extra = frames[depth].extra;
        depth--;
    }
}

/* Fills self->events and self->bound from the tree; -1 on allocation failure. `rename` off:
 * every identifier keeps its text. Runs without the GIL: no Python API here.
 *
 * Walks tree-sitter's own subtrees, not a TSTreeCursor: the nodes visited and everything read
 * of them (kind with aliases, byte range, field ids inherited through hidden nodes) are the
 * cursor's, as tree_cursor.c computes them, at about half the cost (no TSNode per step, no
 * re-scan of a parent's earlier children to find the next sibling, no row/column sums). */
static int walk(Canonicalizer *self, TSTree *tree, const char *src, uint32_t size, int rename) {
    const TSLanguage *language = tree->language;
    Vec *frames = &self->frames;
    Ancestor *stack;
    uint32_t covered = 0; /* source before this offset is in the form already, or a comment */
    /* Two sentinels: an identifier at depth 1 looks two levels up. */
    for (int i = 0; i < 2; i++) {
        if (!(stack = vec_push(&self->ancestors))) return -1;
        *stack = (Ancestor){(TSSymbol)-1, 0};
    }
    /* The node at hand: the root first (always visible, never aliased), then each child. */
    Subtree node = tree->root;
    uint32_t start = padding_bytes(node), structural = 0;
    TSSymbol alias = 0;
    bool visible = true, extra = false;
    for (;;) {
        uint32_t children = ts_subtree_child_count(node);
        bool descend = children > 0 && node.ptr->visible_child_count > 0;
        if (visible) {
            TSSymbol symbol = alias ? alias : ts_subtree_symbol(node);
            TSSymbol kind =
                symbol == ts_builtin_sym_error ? symbol : language->public_symbol_map[symbol];
            uint8_t flags = flags_of(self, kind);
            uint32_t end = start + size_bytes(node);
            if (descend && !(flags & IS_COMMENT)) {
                TSFieldId field = flags & IS_CONTAINER && frames->len
                                      ? field_of(language, frames->items, frames->len - 1,
                                                 structural, extra)
                                      : 0;
                if (emit(self, EV_OPEN, kind, 0, 0) < 0) return -1;
                if (!(stack = vec_push(&self->ancestors))) return -1;
                *stack = (Ancestor){kind, field};
            } else {
                descend = false;
                if (start > covered && !blank(src, covered, start) &&
                    emit(self, EV_UNCOVERED, 0, covered, start) < 0)
                    return -1;
                if (end > covered) covered = end;
                if (flags & IS_COMMENT) {
                    /* skipped */
                } else if (!rename && ts_subtree_missing(node)) { /* only broken trees */
                    if (emit(self, EV_MISSING, kind, start, start) < 0) return -1;
                } else if (flags & IS_IDENTIFIER) {
                    const Ancestor *a = self->ancestors.items;
                    const Ancestor parent = a[self->ancestors.len - 1];
                    const Ancestor grandparent = a[self->ancestors.len - 2];
                    uint8_t seen = 0;
                    if (rename) {
                        TSFieldId field = frames->len ? field_of(language, frames->items,
                                                                 frames->len - 1, structural, extra)
                                                      : 0;
                        uint8_t own = slot(self, parent.kind, field);
                        if (own & SLOT_KEEPS) {
                            seen = NAME_BY_TEXT;
                        } else if ((own & SLOT_BINDS) ||
                                   (flags_of(self, parent.kind) & IS_BINDING_PARENT) ||
                                   ((flags_of(self, parent.kind) & IS_CONTAINER) &&
                                    (slot(self, grandparent.kind, parent.field) & SLOT_BINDS))) {
                            seen = NAME_BOUND;
                        }
                    } /* else a broken tree: every name as written */
                    if (seen && nameset_add(&self->bound, src, start, end - start, seen) < 0)
                        return -1;
                    if (emit(self, rename ? EV_IDENT : EV_TEXT, kind, start, end) < 0) return -1;
                } else {
                    const Text *fixed = kind < self->kinds ? &self->fixed[kind] : NULL;
                    int usual = fixed && fixed->text && fixed->len == end - start &&
                                memcmp(fixed->text, src + start, end - start) == 0;
                    if (emit(self, usual ? EV_LEAF : EV_TEXT, kind, start, end) < 0) return -1;
                }
            }
        }
        /* A hidden node without visible descendants is skipped whole, as the cursor does:
         * its text, if not blank, is in the next '~' record. */
        if (descend) {
            Frame *frame = vec_push(frames);
            if (!frame) return -1;
            uint16_t production = node.ptr->production_id;
            *frame = (Frame){
                .children = ts_subtree_children(node),
                .aliases = ts_language_alias_sequence(language, production),
                .count = children,
                .pos = start - padding_bytes(node),
                .production = production,
                .own_structural = structural,
                .hidden = !visible,
                .extra = extra,
            };
        }
        /* The next node: the next child of the innermost frame that has one. */
        Frame *frame;
        for (;;) {
            if (frames->len == 0) goto finished;
            frame = (Frame *)frames->items + frames->len - 1;
            if (frame->next < frame->count) break;
            if (!frame->hidden) {
                if (emit(self, EV_CLOSE, 0, 0, 0) < 0) return -1;
                self->ancestors.len--;
            }
            frames->len--;
        }
        node = frame->children[frame->next++];
        /* Subtrees are scattered over the heap: a miss on each is most of what the walk costs. */
        if (frame->next < frame->count && !frame->children[frame->next].data.is_inline)
            __builtin_prefetch(frame->children[frame->next].ptr);
        extra = ts_subtree_extra(node);
        structural = frame->structural;
        alias = 0;
        if (!extra) {
            if (frame->aliases) alias = frame->aliases[structural];
            frame->structural++;
        }
        visible = alias || ts_subtree_visible(node);
        start = frame->pos + padding_bytes(node);
        frame->pos = start + size_bytes(node);
    }
finished:
    if (size > covered && !blank(src, covered, size) &&
        emit(self, EV_UNCOVERED, 0, covered, size) < 0)
        return -1;
    return 0;
}

static inline char *put_u16(char *p, uint16_t v) {
    p[0] = (char)(v & 0xff);
    p[1] = (char)(v >> 8);
    return p + 2;
}

static inline char *put_u32(char *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (char)((v >> (8 * i)) & 0xff);
    return p + 4;
}

/* The events as bytes, bound identifiers numbered by first use; `head` (if not 0) first. */
static PyObject *serialize(Canonicalizer *self, const char *src, char head) {
    const Event *events = self->events.items;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(self->form_size + 1));
    if (!out) return NULL;
    char *p = PyBytes_AS_STRING(out);
    if (head) *p++ = head;
    int32_t next_index = 0;
    for (size_t i = 0; i < self->events.len; i++) {
        const Event *e = &events[i];
        uint32_t len = e->end - e->start;
        Name *name;
        switch (e->tag) {
            case EV_OPEN: *p++ = '('; p = put_u16(p, e->kind); break;
            case EV_CLOSE: *p++ = ')'; break;
            case EV_LEAF: *p++ = '.'; p = put_u16(p, e->kind); break;
            case EV_MISSING: *p++ = '?'; p = put_u16(p, e->kind); break;
            case EV_UNCOVERED:
                *p++ = '~';
                p = put_u32(p, len);
                memcpy(p, src + e->start, len);
                p += len;
                break;
            case EV_IDENT:
                if ((name = nameset_get(&self->bound, src, e->start, len))) {
                    /* Renamed: names bound and never looked up by their text. */
                    if (name->index == -1)
                        name->index = name->flags != NAME_BOUND ||
                                              is_kept_name(self, src + name->start, name->len)
                                          ? KEPT_NAME
                                          : next_index++;
                }
                if (name && name->index != KEPT_NAME) {
                    *p++ = '$';
                    p = put_u16(p, e->kind);
                    p = put_u32(p, (uint32_t)name->index);
                    break;
                }
                /* fall through: a name the program does not bind keeps its text */
            default:
                *p++ = '"';
                p = put_u16(p, e->kind);
                p = put_u32(p, len);
                memcpy(p, src + e->start, len);
                p += len;
        }
    }
    if (_PyBytes_Resize(&out, p - PyBytes_AS_STRING(out)) < 0) return NULL;
    return out;
}

PyDoc_STRVAR(canonical_doc,
             "canonical(source: bytes) -> tuple[bool, bytes]\n\n"
             "Parse UTF-8 `source`; return (the tree has a syntax error, its canonical form).");

/* A layout-sensitive grammar's tree with errors: '=' and the source. */
static PyObject *exact_form(const char *src, Py_ssize_t len) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, len + 1);
    if (!out) return NULL;
    PyBytes_AS_STRING(out)[0] = '=';
    memcpy(PyBytes_AS_STRING(out) + 1, src, (size_t)len);
    return out;
}

static PyObject *Canonicalizer_canonical(Canonicalizer *self, PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    if ((size_t)view.len > UINT32_MAX) {
        PyBuffer_Release(&view);
        return PyErr_Format(PyExc_ValueError, "source of %zd bytes is over tree-sitter's 4 GiB",
                            view.len);
    }
    if (self->busy) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_RuntimeError,
                        "Canonicalizer is in use by another thread: use one per thread");
        return NULL;
    }
    self->busy = 1;
    const char *src = view.buf;
    PyObject *result = NULL;
    int walked = -1, has_error = 0, exact = 0;
    TSTree *tree;
    /* The parse and walk touch no Python object: other threads (file readers) run meanwhile. */
    Py_BEGIN_ALLOW_THREADS
    tree = ts_parser_parse_string(self->parser, NULL, src, (uint32_t)view.len);
    if (tree) {
        self->events.len = self->ancestors.len = self->frames.len = self->form_size = 0;
        self->bound.used = 0;
        if (++self->bound.generation == 0) { /* wrapped: slots of old generations look live */
            if (self->bound.slots) memset(self->bound.slots, 0, self->bound.cap * sizeof(Name));
            self->bound.generation = 1;
        }
        has_error = ts_node_has_error(ts_tree_root_node(tree));
        exact = has_error && self->layout_sensitive;
        walked = exact ? 0 : walk(self, tree, src, (uint32_t)view.len, !has_error);
        ts_tree_delete(tree);
    }
    Py_END_ALLOW_THREADS
    if (!tree) {
        PyErr_SetString(PyExc_RuntimeError, "tree-sitter returned no tree");
    } else if (walked < 0) {
        PyErr_NoMemory();
    } else {
        PyObject *form = exact ? exact_form(src, view.len) : serialize(self, src, has_error ? '!' : 0);
        if (form) result = Py_BuildValue("(ON)", has_error ? Py_True : Py_False, form);
    }
    self->busy = 0;
    PyBuffer_Release(&view);
    return result;
}

static PyMethodDef Canonicalizer_methods[] = {
    {"canonical", (PyCFunction)Canonicalizer_canonical, METH_O, canonical_doc},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CanonicalizerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "codelog.stage._canon.Canonicalizer",
    .tp_basicsize = sizeof(Canonicalizer),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = PyDoc_STR("Canonicalizer(language, identifiers, comments, fixed_text, "
                        "binding_fields, binding_parents, containers, kept_fields, kept_names, "
                        "kept_dunders, layout_sensitive): one grammar's rules as kind and field "
                        "ids (see codelog.stage.ast_hash)."),
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Canonicalizer_init,
    .tp_dealloc = (destructor)Canonicalizer_dealloc,
    .tp_methods = Canonicalizer_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "codelog.stage._canon",
    .m_doc = PyDoc_STR("tree-sitter parse and canonical form in C (see codelog.stage.ast_hash)."),
    .m_size = -1,
};

/* Set by setup.py in the build made from a profile (codelog.stage.canon_profile). */
#ifndef CANON_PROFILE_GUIDED
#define CANON_PROFILE_GUIDED 0
#endif

PyMODINIT_FUNC PyInit__canon(void) {
    ts_set_allocator(pool_malloc, pool_calloc, pool_realloc, pool_free_block);
    if (PyType_Ready(&CanonicalizerType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddObject(m, "PROFILE_GUIDED", PyBool_FromLong(CANON_PROFILE_GUIDED)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&CanonicalizerType);
    if (PyModule_AddObject(m, "Canonicalizer", (PyObject *)&CanonicalizerType) < 0) {
        Py_DECREF(&CanonicalizerType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
