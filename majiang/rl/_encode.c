/* C accelerator for majiang.rl.features: observation encoding v1 written straight
 * into a float32 buffer from the engine's hand, and action indexes of a legal list.
 *
 * The pure Python encoder (features._fill over an engine Observation) stays the
 * reference and the fallback; tests compare the two cell by cell for every variant.
 *
 * Information sets (DESIGN.md): fill() reads of the hand only what observe() copies
 * into an Observation for `seat`: the seat's own concealed counts, every seat's number
 * of concealed tiles, discards, flowers, melds (another seat's concealed kong only as
 * "one concealed kong": its tiles are never read), the drawn tile only in the seat's
 * own turn, the window, the wild kind, the live count, dealer, current seat and phase.
 * Per-hand public facts (revealed tiles, counters, the tile set) and the variant's
 * public state come from Python (features.hand_context / features.encode_state). It
 * never reads the wall, the reserved tiles or another seat's concealed tiles. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* the layout of encoding v1 (features.py; checked against it by layout()) */
#define PLANES 116
#define CELLS (PLANES * 34)
#define HAND 0
#define DRAWN 4
#define WILD 5
#define REVEALED 6
#define WINDOW 7
#define IN_PLAY 8
#define UNSEEN 9
#define KNOWN 10
#define SEATS 11
#define SEAT_PLANES 13
#define RIVER 0
#define LAST 4
#define CHI 8
#define PENG 9
#define KONG 10
#define CONCEALED 11
#define TAKEN 12
#define FLOWERS 63
#define CONSTANT 67
#define N_CONST 49
/* constant planes, offsets from CONSTANT */
#define C_WIND 0
#define C_DEALER 4
#define C_CURRENT 8
#define C_WINDOW_FROM 12
#define C_PHASE 16
#define C_SIZE 20
#define C_CONCEALED 24
#define C_LIVE 40
#define C_VARIANT 44
/* action indexes (actions.py) */
#define A_CHI_BASE 34
#define A_PENG_BASE 42
#define A_KONG_BASE 45
#define A_HU 215
#define A_PASS 216

static PyObject *phase_turn, *phase_claim, *phase_rob, *phase_declare;
static PyObject *meld_chi, *meld_peng, *meld_concealed;
static PyObject *act_discard, *act_chi, *act_peng, *act_kong, *act_hu, *act_pass;
static PyObject *s_concealed, *s_drawn, *s_phase, *s_current, *s_window_tile, *s_window_from,
    *s_discards, *s_melds, *s_flowers, *s_hi, *s_lo, *s_dealer, *s_wild, *s_kind, *s_tiles,
    *s_source;
static int ready = 0;

/* `member` is `obj` or equal to it (enum members are compared by identity first). */
static int same(PyObject *obj, PyObject *member) {
    if (obj == member) return 1;
    int r = PyObject_RichCompareBool(obj, member, Py_EQ);
    return r < 0 ? (PyErr_Clear(), 0) : r;
}

/* PyLong_AsLong, reading a small non-negative int in place (the counts, tiles and seats
 * read here are all of them) on CPython 3.11, whose int layout this knows. */
static inline __attribute__((always_inline)) long as_long(PyObject *v) {
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
    if (PyLong_CheckExact(v)) {
        Py_ssize_t size = Py_SIZE(v);
        if (size == 0) return 0;
        if (size == 1) return (long)((PyLongObject *)v)->ob_digit[0];
    }
#endif
    return PyLong_AsLong(v);
}

/* An int attribute of `obj`, or -1 for None; -2 with an exception set on error. */
static long int_attr(PyObject *obj, PyObject *name) {
    PyObject *v = PyObject_GetAttr(obj, name);
    if (!v) return -2;
    long r = -1;
    if (v != Py_None) {
        r = as_long(v);
        if (r == -1 && PyErr_Occurred()) r = -2;
    }
    Py_DECREF(v);
    return r;
}

static int __attribute__((noinline, cold)) bad(const char *what) {
    PyErr_Format(PyExc_ValueError, "encode: %s", what);
    return -1;
}

/* An int in [0, hi) from a Python int (a tile, a seat); -1 with ValueError otherwise. */
static inline __attribute__((always_inline)) long in_range(PyObject *v, long hi,
                                                           const char *what) {
    long r = as_long(v);
    if (r == -1 && PyErr_Occurred()) return -1;
    if (r < 0 || r >= hi) return bad(what);
    return r;
}

static PyObject *no_items[1];

/* The items of a list or tuple (borrowed), with the sequence's length in *n; NULL with
 * TypeError for anything else (an empty list's are no_items, not NULL). */
static PyObject **items_of(PyObject *seq, Py_ssize_t *n) {
    if (PyList_Check(seq)) {
        *n = PyList_GET_SIZE(seq);
        return *n ? ((PyListObject *)seq)->ob_item : no_items;
    }
    if (PyTuple_Check(seq)) {
        *n = PyTuple_GET_SIZE(seq);
        return ((PyTupleObject *)seq)->ob_item;
    }
    PyErr_SetString(PyExc_TypeError, "encode: expected a list or tuple");
    return NULL;
}

/* Four per-seat lists of `state` (discards, flowers, melds, concealed). */
static int per_seat(PyObject *seq, PyObject **out) {
    Py_ssize_t n;
    PyObject **it = items_of(seq, &n);
    if (!it) return -1;
    if (n != 4) return bad("expected four seats");
    for (int s = 0; s < 4; s++) out[s] = it[s];
    return 0;
}

static int fill_seat_melds(float *o, float *cv, int *seen, PyObject *melds, int s, int me) {
    int r = (s - me + 4) % 4;
    Py_ssize_t n;
    PyObject **ms = items_of(melds, &n);
    if (!ms) return -1;
    float *sb = o + (SEATS + r * SEAT_PLANES) * 34;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *m = ms[i];
        PyObject *kind = PyObject_GetAttr(m, s_kind);
        if (!kind) return -1;
        int plane;
        int concealed = same(kind, meld_concealed);
        if (concealed) {
            cv[C_CONCEALED + r] += 0.25f;
            if (s != me) { /* RULES.md 0.6: another seat's concealed kong stays face down */
                Py_DECREF(kind);
                continue;
            }
            plane = CONCEALED;
        } else {
            plane = same(kind, meld_chi) ? CHI : same(kind, meld_peng) ? PENG : KONG;
        }
        Py_DECREF(kind);
        PyObject *tiles = PyObject_GetAttr(m, s_tiles);
        if (!tiles) return -1;
        Py_ssize_t nt;
        PyObject **ts = items_of(tiles, &nt);
        if (!ts) { Py_DECREF(tiles); return -1; }
        long src = -1;
        if (!concealed) {
            src = int_attr(m, s_source);
            if (src == -2 || src > 3) {
                Py_DECREF(tiles);
                return src == -2 ? -1 : bad("a meld's source is a seat 0-3");
            }
        }
        float *taken = src >= 0 ? o + (SEATS + ((src - me + 4) % 4) * SEAT_PLANES + TAKEN) * 34
                                : NULL;
        for (Py_ssize_t j = 0; j < nt; j++) {
            long t = in_range(ts[j], 34, "a meld's tile is a kind 0-33");
            if (t < 0) { Py_DECREF(tiles); return -1; }
            sb[plane * 34 + t] += 0.25f;
            seen[t]++; /* the unseen plane counts every tile of a meld the seat sees */
            if (taken) taken[t] = 1.0f;
        }
        Py_DECREF(tiles);
    }
    return 0;
}

/* fill(out, row, state, seat, context, extra): encode `seat`'s view of `state` as row
 * `row` of the C-contiguous float32 buffer `out` (rows of PLANES x 34).
 * context = (variant index or -1, revealed kinds, ((const offset, value), ...), copies)
 * extra = (known kinds, ((const offset, absolute seat), ...)) from the variant state. */
static PyObject *py_fill(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "fill(out, row, state, seat, context, extra)");
        return NULL;
    }
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "majiang.rl._encode.init() was not called");
        return NULL;
    }
    Py_ssize_t row = PyLong_AsSsize_t(args[1]);
    if (row == -1 && PyErr_Occurred()) return NULL;
    long me = PyLong_AsLong(args[3]);
    if (me == -1 && PyErr_Occurred()) return NULL;
    if (me < 0 || me > 3) return PyErr_Format(PyExc_ValueError, "encode: seat %ld is not 0-3", me);
    PyObject *state = args[2], *ctx = args[4], *extra = args[5];
    if (!PyTuple_Check(ctx) || PyTuple_GET_SIZE(ctx) != 4 || !PyTuple_Check(extra) ||
        PyTuple_GET_SIZE(extra) != 2) {
        PyErr_SetString(PyExc_TypeError, "encode: context is a 4-tuple and extra a 2-tuple");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_FORMAT) < 0)
        return NULL;
    PyObject *held[7] = {NULL};
    int nheld = 0;
    PyObject *result = NULL;
    if (view.itemsize != 4 || !view.format || strcmp(view.format, "f") != 0) {
        PyErr_SetString(PyExc_TypeError, "encode: out must be a float32 buffer");
        goto done;
    }
    if (row < 0 || (row + 1) * (Py_ssize_t)CELLS * 4 > view.len) {
        PyErr_Format(PyExc_IndexError, "encode: row %zd is outside the buffer", row);
        goto done;
    }
    float *o = (float *)view.buf + row * CELLS;
    float cv[N_CONST];
    int seen[34] = {0}; /* tiles of each kind the seat sees (the unseen plane) */
    memset(o, 0, sizeof(float) * CELLS);
    memset(cv, 0, sizeof(cv));

    PyObject *phase = PyObject_GetAttr(state, s_phase);
    if (!phase) goto done;
    held[nheld++] = phase;
    /* the engine's own members are compared by identity; an equal string by value */
    int known = phase == phase_turn || phase == phase_claim || phase == phase_rob ||
                phase == phase_declare;
    int turn = known ? phase == phase_turn : same(phase, phase_turn);
    long current = int_attr(state, s_current), dealer = int_attr(state, s_dealer);
    long wild = int_attr(state, s_wild), hi = int_attr(state, s_hi), lo = int_attr(state, s_lo);
    if (current == -2 || dealer == -2 || wild == -2 || hi == -2 || lo == -2) goto done;
    if (current < 0 || current > 3 || dealer < 0 || dealer > 3 || wild > 33) {
        bad("current and dealer are seats 0-3, wild a kind 0-33");
        goto done;
    }
    if (turn && current == me) {
        long drawn = int_attr(state, s_drawn);
        if (drawn == -2) goto done;
        if (drawn > 33) { bad("the drawn tile is a kind 0-33"); goto done; }
        if (drawn >= 0) o[DRAWN * 34 + drawn] = 1.0f;
    }
    if (wild >= 0) o[WILD * 34 + wild] = 1.0f;
    if (!turn) {
        long wt = int_attr(state, s_window_tile), wf = int_attr(state, s_window_from);
        if (wt == -2 || wf == -2) goto done;
        if (wt > 33 || wf > 3) { bad("the window's tile or seat is out of range"); goto done; }
        if (wt >= 0) o[WINDOW * 34 + wt] = 1.0f;
        if (wf >= 0) cv[C_WINDOW_FROM + (wf - me + 4) % 4] = 1.0f;
    }
    cv[C_PHASE] = turn ? 1.0f : 0.0f;
    if (!turn) {
        if (known ? phase == phase_claim : same(phase, phase_claim)) cv[C_PHASE + 1] = 1.0f;
        else if (known ? phase == phase_rob : same(phase, phase_rob)) cv[C_PHASE + 2] = 1.0f;
        else if (known ? phase == phase_declare : same(phase, phase_declare))
            cv[C_PHASE + 3] = 1.0f;
    }
    cv[C_WIND + (me - dealer + 4) % 4] = 1.0f;
    cv[C_DEALER + (dealer - me + 4) % 4] = 1.0f;
    cv[C_CURRENT + (current - me + 4) % 4] = 1.0f;
    long live = hi - lo;
    cv[C_LIVE] = live < 144 ? (float)((double)live / 144.0) : 1.0f;

    /* per-hand context */
    long variant = PyLong_AsLong(PyTuple_GET_ITEM(ctx, 0));
    if (variant == -1 && PyErr_Occurred()) goto done;
    if (variant >= 0) {
        if (C_VARIANT + variant >= N_CONST) { bad("variant index out of range"); goto done; }
        cv[C_VARIANT + variant] = 1.0f;
    }
    Py_ssize_t n;
    PyObject **it = items_of(PyTuple_GET_ITEM(ctx, 1), &n);
    if (!it) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        long t = in_range(it[i], 34, "a revealed tile is a kind 0-33");
        if (t < 0) goto done;
        if (o[REVEALED * 34 + t] == 0.0f) seen[t]++; /* the plane's 1, as the reference adds */
        o[REVEALED * 34 + t] = 1.0f;
    }
    it = items_of(PyTuple_GET_ITEM(ctx, 2), &n);
    if (!it) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyTuple_Check(it[i]) || PyTuple_GET_SIZE(it[i]) != 2) {
            PyErr_SetString(PyExc_TypeError, "encode: a counter is (offset, value)");
            goto done;
        }
        long at = in_range(PyTuple_GET_ITEM(it[i], 0), N_CONST, "a counter's plane");
        if (at < 0) goto done;
        double v = PyFloat_AsDouble(PyTuple_GET_ITEM(it[i], 1));
        if (v == -1.0 && PyErr_Occurred()) goto done;
        cv[at] = (float)v;
    }
    PyObject **copies = items_of(PyTuple_GET_ITEM(ctx, 3), &n);
    if (!copies) goto done;
    if (n != 34) { bad("copies holds 34 counts"); goto done; }

    /* the variant's public state */
    it = items_of(PyTuple_GET_ITEM(extra, 0), &n);
    if (!it) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        long t = in_range(it[i], 34, "a known tile is a kind 0-33");
        if (t < 0) goto done;
        o[KNOWN * 34 + t] = 1.0f;
    }
    it = items_of(PyTuple_GET_ITEM(extra, 1), &n);
    if (!it) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyTuple_Check(it[i]) || PyTuple_GET_SIZE(it[i]) != 2) {
            PyErr_SetString(PyExc_TypeError, "encode: a seat state is (offset, seat)");
            goto done;
        }
        long at = in_range(PyTuple_GET_ITEM(it[i], 0), N_CONST - 3, "a seat state's plane");
        long s = at < 0 ? -1 : in_range(PyTuple_GET_ITEM(it[i], 1), 4, "a seat state's seat");
        if (s < 0) goto done;
        cv[at + (s - me + 4) % 4] = 1.0f;
    }

    /* per-seat public facts, and the seat's own concealed tiles */
    PyObject *concealed_s[4], *discards_s[4], *melds_s[4], *flowers_s[4];
    PyObject *names[4] = {s_concealed, s_discards, s_melds, s_flowers};
    PyObject **dest[4] = {concealed_s, discards_s, melds_s, flowers_s};
    for (int k = 0; k < 4; k++) {
        PyObject *v = PyObject_GetAttr(state, names[k]);
        if (!v) goto done;
        held[nheld++] = v;
        if (per_seat(v, dest[k]) < 0) goto done;
    }
    for (int s = 0; s < 4; s++) {
        int r = (s - (int)me + 4) % 4;
        float *sb = o + (SEATS + r * SEAT_PLANES) * 34;
        PyObject **cs = items_of(concealed_s[s], &n);
        if (!cs) goto done;
        if (n != 34) { bad("concealed holds 34 counts per seat"); goto done; }
        long size = 0;
        for (int t = 0; t < 34; t++) {
            long c = in_range(cs[t], 5, "a concealed count is 0-4");
            if (c < 0) goto done;
            size += c;
            if (s == me) {
                seen[t] += (int)c;
                for (long k = 0; k < c; k++) o[(HAND + k) * 34 + t] = 1.0f;
            }
        }
        cv[C_SIZE + r] = (float)((double)size / 14.0);
        PyObject **pile = items_of(discards_s[s], &n);
        if (!pile) goto done;
        int counts[34] = {0};
        long tiles[4] = {0};
        for (Py_ssize_t i = 0; i < n; i++) {
            long t = in_range(pile[i], 34, "a discard is a kind 0-33");
            if (t < 0) goto done;
            if (counts[t] >= 4) { bad("more than four discards of a kind"); goto done; }
            sb[(RIVER + counts[t]++) * 34 + t] = 1.0f;
            seen[t]++;
            if (i >= n - 4) tiles[n - 1 - i] = t;
        }
        for (Py_ssize_t j = 0; j < (n > 4 ? 4 : n); j++) sb[(LAST + j) * 34 + tiles[j]] = 1.0f;
        if (fill_seat_melds(o, cv, seen, melds_s[s], s, (int)me) < 0) goto done;
        PyObject **fl = items_of(flowers_s[s], &n);
        if (!fl) goto done;
        for (Py_ssize_t i = 0; i < n; i++) {
            long f = in_range(fl[i], 42, "a flower is a tile 34-41");
            if (f < 0) goto done;
            if (f < 34) { bad("a flower is a tile 34-41"); goto done; }
            o[(FLOWERS + r) * 34 + f - 34] = 1.0f;
        }
    }

    /* the tile set, and what the seat has not seen of it */
    static const float one = 1.0f;
    for (int t = 0; t < 34; t++) {
        long have = in_range(copies[t], 65, "copies of a kind are 0-64");
        if (have < 0) goto done;
        if (have > 0) o[IN_PLAY * 34 + t] = one;
        float u = (float)(have - seen[t]) * 0.25f; /* exact: small integers */
        o[UNSEEN * 34 + t] = u < 0.0f ? 0.0f : u > 1.0f ? 1.0f : u;
    }
    for (int k = 0; k < N_CONST; k++) {
        float v = cv[k];
        if (v == 0.0f) continue;
        float *p = o + (CONSTANT + k) * 34;
        for (int t = 0; t < 34; t++) p[t] = v;
    }
    result = Py_None;
    Py_INCREF(result);
done:
    for (int i = 0; i < nheld; i++) Py_DECREF(held[i]);
    PyBuffer_Release(&view);
    return result;
}

/* The index of one legal action (actions._index), -1 if it has none (an escape). */
static long index_of(PyObject *a, long window, long wild) {
    if (!PyTuple_Check(a) || PyTuple_GET_SIZE(a) != 4) {
        PyErr_SetString(PyExc_TypeError, "legal_indices: an action is a 4-tuple");
        return -2;
    }
    PyObject *kind = PyTuple_GET_ITEM(a, 1), *tile = PyTuple_GET_ITEM(a, 2);
    PyObject *tiles = PyTuple_GET_ITEM(a, 3);
    if (same(kind, act_discard)) {
        if (tile == Py_None) return -1;
        long t = as_long(tile);
        return t == -1 && PyErr_Occurred() ? -2 : t;
    }
    if (same(kind, act_pass)) return A_PASS;
    if (same(kind, act_hu)) return A_HU;
    Py_ssize_t n;
    PyObject **ts = items_of(tiles, &n);
    if (!ts) return -2;
    long v[2] = {0};
    Py_ssize_t wilds = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long x = as_long(ts[i]);
        if (x == -1 && PyErr_Occurred()) return -2;
        if (i < 2) v[i] = x;
        if (wild >= 0 && x == wild) wilds++;
    }
    if (same(kind, act_kong)) {
        if (tile == Py_None) return -1;
        long t = as_long(tile);
        if (t == -1 && PyErr_Occurred()) return -2;
        if (n == 0) return A_KONG_BASE + t;
        if (n == 1) return wilds == 1 ? A_KONG_BASE + 34 + t : -1;
        return wilds >= 1 && wilds <= 3 ? A_KONG_BASE + 34 * (1 + wilds) + t : -1;
    }
    if (same(kind, act_peng)) {
        if (n == 0) return A_PENG_BASE;
        return (wilds == 1 || wilds == 2) && n == 2 ? A_PENG_BASE + wilds : -1;
    }
    if (same(kind, act_chi) && window >= 0 && n == 2) {
        long t = window, x = v[0], y = v[1];
        if (wild >= 0 && x == wild && y == wild) return A_CHI_BASE + 7;
        if (wild >= 0 && (x == wild || y == wild)) {
            long d = (x == wild ? y : x) - t;
            return d == -2 ? A_CHI_BASE + 3 : d == -1 ? A_CHI_BASE + 4 : d == 1 ? A_CHI_BASE + 5
                 : d == 2 ? A_CHI_BASE + 6 : -1;
        }
        long a = x - t, b = y - t;
        if (a == 1 && b == 2) return A_CHI_BASE;
        if (a == -1 && b == 1) return A_CHI_BASE + 1;
        if (a == -2 && b == -1) return A_CHI_BASE + 2;
    }
    return -1;
}

static long opt_tile(PyObject *v) {
    if (v == Py_None) return -1;
    long r = PyLong_AsLong(v);
    return r == -1 && PyErr_Occurred() ? -2 : r;
}

/* The indexes of `legal` (escapes left out) as a new list; with `mask` set, also a 1 at
 * each index of that int8 row (actions.legal_indices / actions.legal_mask). */
static PyObject *indices_of(PyObject *legal, long window, long wild, signed char *mask) {
    PyObject *seq = PySequence_Fast(legal, "legal_indices: legal is a sequence of actions");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *out = PyList_New(0);
    if (!out) { Py_DECREF(seq); return NULL; }
    for (Py_ssize_t i = 0; i < n; i++) {
        long k = index_of(items[i], window, wild);
        if (k == -2) { Py_DECREF(out); Py_DECREF(seq); return NULL; }
        if (k < 0) continue;
        if (mask && k > A_PASS) {
            PyErr_Format(PyExc_ValueError, "legal_mask: index %ld is outside the space", k);
            Py_DECREF(out); Py_DECREF(seq);
            return NULL;
        }
        PyObject *x = PyLong_FromLong(k);
        if (!x || PyList_Append(out, x) < 0) {
            Py_XDECREF(x); Py_DECREF(out); Py_DECREF(seq);
            return NULL;
        }
        Py_DECREF(x);
        if (mask) mask[k] = 1;
    }
    Py_DECREF(seq);
    return out;
}

/* legal_indices(legal, window_tile, wild): actions.legal_indices, in C. */
static PyObject *py_legal_indices(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "legal_indices(legal, window_tile, wild)");
        return NULL;
    }
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "majiang.rl._encode.init() was not called");
        return NULL;
    }
    long window = opt_tile(args[1]), wild = opt_tile(args[2]);
    if (window == -2 || wild == -2) return NULL;
    return indices_of(args[0], window, wild, NULL);
}

/* legal_mask(legal, window_tile, wild, out, row): legal_indices, and a 1 at each of them in
 * row `row` of the C-contiguous int8 buffer `out` (rows of 217; the rest is left as it is). */
static PyObject *py_legal_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "legal_mask(legal, window_tile, wild, out, row)");
        return NULL;
    }
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "majiang.rl._encode.init() was not called");
        return NULL;
    }
    long window = opt_tile(args[1]), wild = opt_tile(args[2]);
    if (window == -2 || wild == -2) return NULL;
    Py_ssize_t row = PyLong_AsSsize_t(args[4]);
    if (row == -1 && PyErr_Occurred()) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[3], &view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_FORMAT) < 0)
        return NULL;
    PyObject *result = NULL;
    if (view.itemsize != 1 || !view.format || strcmp(view.format, "b") != 0)
        PyErr_SetString(PyExc_TypeError, "legal_mask: out must be an int8 buffer");
    else if (row < 0 || (row + 1) * (Py_ssize_t)(A_PASS + 1) > view.len)
        PyErr_Format(PyExc_IndexError, "legal_mask: row %zd is outside the buffer", row);
    else
        result = indices_of(args[0], window, wild, (signed char *)view.buf + row * (A_PASS + 1));
    PyBuffer_Release(&view);
    return result;
}

static int set_members(PyObject *tuple, Py_ssize_t n, PyObject ***slots, const char *what) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != n) {
        PyErr_Format(PyExc_TypeError, "init: %s", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *m = PyTuple_GET_ITEM(tuple, i);
        Py_INCREF(m);
        Py_XSETREF(*slots[i], m);
    }
    return 0;
}

/* init(phases, meld_kinds, action_types): the enum members compared against. */
static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *phases, *melds, *acts;
    if (!PyArg_ParseTuple(args, "OOO:init", &phases, &melds, &acts)) return NULL;
    PyObject **p[] = {&phase_turn, &phase_claim, &phase_rob, &phase_declare};
    PyObject **m[] = {&meld_chi, &meld_peng, &meld_concealed};
    PyObject **a[] = {&act_discard, &act_chi, &act_peng, &act_kong, &act_hu, &act_pass};
    if (set_members(phases, 4, p, "phases are (turn, claim, rob, declare)") < 0 ||
        set_members(melds, 3, m, "meld kinds are (chi, peng, kong_concealed)") < 0 ||
        set_members(acts, 6, a, "action types are (discard, chi, peng, kong, hu, pass)") < 0)
        return NULL;
    ready = 1;
    Py_RETURN_NONE;
}

/* layout(): the constants above, for features.py to check against its own. */
static PyObject *py_layout(PyObject *self, PyObject *unused) {
    return Py_BuildValue("{si,si,si,si,si,si,si,si,si,si,si,si,si,si,si,si,si,si,si,si,si,si}",
                         "PLANES", PLANES, "SEATS", SEATS, "SEAT_PLANES", SEAT_PLANES,
                         "FLOWERS", FLOWERS, "CONSTANT", CONSTANT, "N_CONST", N_CONST,
                         "UNSEEN", UNSEEN, "KNOWN", KNOWN, "IN_PLAY", IN_PLAY,
                         "WINDOW", WINDOW, "REVEALED", REVEALED, "WILD", WILD,
                         "DRAWN", DRAWN, "TAKEN", TAKEN, "CONCEALED", CONCEALED,
                         "LIVE", C_LIVE, "VARIANT", C_VARIANT, "SIZE", C_SIZE,
                         "PHASE", C_PHASE, "KONG_BASE", A_KONG_BASE, "HU", A_HU,
                         "PASS", A_PASS);
}

static PyMethodDef methods[] = {
    {"init", (PyCFunction)py_init, METH_VARARGS,
     "Register the Phase, MeldKind and ActionType members compared against."},
    {"layout", (PyCFunction)py_layout, METH_NOARGS, "The encoding's layout constants."},
    {"fill", (PyCFunction)(void (*)(void))py_fill, METH_FASTCALL,
     "Encode a seat's view of a hand into a row of a float32 buffer (encoding v1)."},
    {"legal_indices", (PyCFunction)(void (*)(void))py_legal_indices, METH_FASTCALL,
     "The action indexes of a legal list (actions.legal_indices)."},
    {"legal_mask", (PyCFunction)(void (*)(void))py_legal_mask, METH_FASTCALL,
     "legal_indices, also setting a 1 at each in a row of an int8 mask buffer."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_encode",
                                    "C accelerator for majiang.rl.features.", -1, methods};

PyMODINIT_FUNC PyInit__encode(void) {
    const char *attr[] = {"concealed", "drawn", "phase", "current", "window_tile",
                          "window_from", "discards", "melds", "flowers", "hi", "lo",
                          "dealer", "wild", "kind", "tiles", "source"};
    PyObject **slot[] = {&s_concealed, &s_drawn, &s_phase, &s_current, &s_window_tile,
                         &s_window_from, &s_discards, &s_melds, &s_flowers, &s_hi, &s_lo,
                         &s_dealer, &s_wild, &s_kind, &s_tiles, &s_source};
    for (size_t i = 0; i < sizeof(attr) / sizeof(attr[0]); i++) {
        *slot[i] = PyUnicode_InternFromString(attr[i]);
        if (!*slot[i]) return NULL;
    }
    return PyModule_Create(&module);
}
