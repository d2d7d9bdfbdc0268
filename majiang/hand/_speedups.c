/* C accelerator for majiang.hand.analysis: the same table logic as the pure
 * Python functions there (which remain the fallback and the readable
 * statement of the algorithm; tests run both). Tables are handed over once
 * by majiang.hand.analysis via init(); nothing here knows their file. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

enum { T_COMPLETE, T_NEED0, T_NEED2, T_NEED2N, T_ODD, T_SINGLE, T_KEPT,
       T_PAIRSQ, T_PAIRSN, T_ONES, T_ORPH, T_NEED0NW, T_NEED2NW, T_COUNT };
enum { F_SEVEN = 1, F_ORPHANS = 2, F_QUADS = 4, F_NUMONLY = 8, F_PAIRNAT = 16, F_WILDHONOR = 32 };
#define INF 99
#define RESTRICTED (-1000)

static const unsigned char *NT[T_COUNT], *HT[T_COUNT];
static PyObject *held = NULL;     /* keeps the table bytes alive */
static PyObject *loader = NULL;   /* Python callable returning the tables */
static PyObject *kinds = NULL;    /* tuple of the 34 Tile members */
static PyObject *fallback = NULL; /* Python shanten for restricted wilds */
static const int P5[10] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125};
static int SUIT[34], W5[34];

typedef struct { int key[4]; int w; int n; unsigned char cnt[34]; } Hand;

static int ensure_tables(void) {
    if (held) return 0;
    PyObject *t = PyObject_CallNoArgs(loader);
    if (!t) return -1;
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2 * T_COUNT) {
        Py_DECREF(t);
        PyErr_SetString(PyExc_RuntimeError, "hand tables have an unexpected layout");
        return -1;
    }
    for (int i = 0; i < 2 * T_COUNT; i++) {
        PyObject *b = PyTuple_GET_ITEM(t, i);
        if (!PyBytes_Check(b)) {
            Py_DECREF(t);
            PyErr_SetString(PyExc_RuntimeError, "hand tables must be bytes");
            return -1;
        }
        const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(b);
        if (i < T_COUNT) NT[i] = p; else HT[i - T_COUNT] = p;
    }
    held = t;
    return 0;
}

static int read_hand(PyObject *tiles, long wild, Hand *h) {
    PyObject *seq = PySequence_Fast(tiles, "tiles must be a sequence of tile ints");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    memset(h, 0, sizeof(Hand));
    h->n = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        long t = PyLong_AsLong(items[i]);
        if (t == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "not a tile kind 0-33 (flowers excluded): %R", items[i]);
            Py_DECREF(seq);
            return -1;
        }
        if (t < 0 || t > 33) {
            PyErr_Format(PyExc_ValueError, "not a tile kind 0-33 (flowers excluded): %ld", t);
            Py_DECREF(seq);
            return -1;
        }
        if (++h->cnt[t] > 4) {
            PyErr_Format(PyExc_ValueError, "more than four tiles of kind %ld in the hand", t);
            Py_DECREF(seq);
            return -1;
        }
        if (t == wild) h->w++;
        else h->key[SUIT[t]] += W5[t];
    }
    Py_DECREF(seq);
    return 0;
}

static int seven_pairs_cost(const int *key, int w, int flags) {
    int quads = flags & F_QUADS, pn = flags & F_PAIRNAT, numonly = flags & F_NUMONLY;
    int pairs = 0, wildable = 0, fixed = 0;
    for (int s = 0; s < 4; s++) {
        const unsigned char **T = s < 3 ? NT : HT;
        int k = key[s];
        pairs += quads ? T[T_PAIRSQ][k] : T[T_PAIRSN][k];
        int singles = quads ? T[T_ODD][k] : T[T_ONES][k];
        if (!pn || (s == 3 && numonly)) fixed += singles; else wildable += singles;
    }
    int r = 7 - (pairs < 7 ? pairs : 7);
    int x = wildable < w ? wildable : w; if (x > r) x = r;
    int y = (w - x) / 2; if (y > r - x) y = r - x;
    int left = r - x - y;
    int units = wildable - x + fixed + (w - x - 2 * y);
    return 2 * r - (2 * x + 2 * y + (left < units ? left : units));
}

static int orphans_cost(const int *key, int w, int flags) {
    /* an honor wild under wild_numbers_only: its own kind can never be held naturally */
    if ((flags & F_NUMONLY) && (flags & F_WILDHONOR)) return INF;
    int present = 0, dup = 0, present_num = 0;
    for (int s = 0; s < 4; s++) {
        int v = (s < 3 ? NT : HT)[T_ORPH][key[s]];
        present += v >> 1; dup |= v & 1;
        if (s < 3) present_num += v >> 1;
    }
    int fill = (flags & F_NUMONLY) ? 6 - present_num : 13 - present;
    int used;
    if (dup || (flags & F_PAIRNAT)) { int f = fill + 1 - dup; used = present + dup + (w < f ? w : f); }
    else if (fill && w >= 2) used = present + (w < fill + 1 ? w : fill + 1);
    else used = present + (w < fill ? w : fill);
    return 14 - used;
}

static int win_core(const int *key, int w, int n, int flags) {
    if (!w) {
        const unsigned char *c = NT[T_COMPLETE];
        /* 1 = complete as sets, 2 = sets and the pair: exactly one suit holds the pair */
        int a = c[key[0]], b = c[key[1]], d = c[key[2]], e = HT[T_COMPLETE][key[3]];
        if (a && b && d && e && a + b + d + e == 5) return 1;
        if (n != 14) return 0;
        if (flags & F_SEVEN) {
            int t = (flags & F_QUADS) ? T_ODD : T_SINGLE;
            if (!(NT[t][key[0]] | NT[t][key[1]] | NT[t][key[2]] | HT[t][key[3]])) return 1;
        }
        return (flags & F_ORPHANS) && orphans_cost(key, 0, flags) == 0;
    }
    int t2 = (flags & F_PAIRNAT) ? T_NEED2 : T_NEED2N;
    int a0 = NT[T_NEED0][key[0]], b0 = NT[T_NEED0][key[1]], c0 = NT[T_NEED0][key[2]];
    int z0, z2;
    if (flags & F_NUMONLY) { z0 = HT[T_NEED0NW][key[3]]; z2 = HT[T_NEED2NW][key[3]]; }
    else { z0 = HT[T_NEED0][key[3]]; z2 = HT[t2][key[3]]; }
    int d = 2, e;
    e = NT[t2][key[0]] - a0; if (e < d) d = e;
    e = NT[t2][key[1]] - b0; if (e < d) d = e;
    e = NT[t2][key[2]] - c0; if (e < d) d = e;
    e = z2 - z0; if (e < d) d = e;
    if (a0 + b0 + c0 + z0 + d <= w) return 1;
    if (n != 14) return 0;
    if ((flags & F_SEVEN) && seven_pairs_cost(key, w, flags) == 0) return 1;
    return (flags & F_ORPHANS) && orphans_cost(key, w, flags) == 0;
}

/* Max-plus merge of kept vectors: g = 0..top, p = 0 (none) or 1 (pair slot). */
static void merge(const int *a, const int *b, int top, int *out) {
    for (int g = 0; g <= top; g++) {
        int b0 = 0, b1 = 0;
        for (int i = 0; i <= g; i++) {
            int j = g - i, v;
            v = a[i] + b[j]; if (v > b0) b0 = v;
            v = a[5 + i] + b[j]; if (v > b1) b1 = v;
            v = a[i] + b[5 + j]; if (v > b1) b1 = v;
        }
        out[g] = b0; out[5 + g] = b1;
    }
}

static int shanten_core(const int *key, int w, int n, int flags) {
    int sets = n / 3, target = 3 * sets + 2, best;
    if (((flags & F_NUMONLY) && key[3]) || (w && !(flags & F_PAIRNAT))) return RESTRICTED;
    int v[4][10], acc[10], acc2[10];
    for (int s = 0; s < 4; s++) {
        const unsigned char *k = (s < 3 ? NT : HT)[T_KEPT] + 10 * key[s];
        for (int i = 0; i < 10; i++) v[s][i] = k[i];
    }
    merge(v[0], v[1], sets, acc);
    merge(acc, v[2], sets, acc2);
    int most = 0;
    for (int i = 0; i <= sets; i++) {
        int j = sets - i, x;
        x = acc2[5 + i] + v[3][j]; if (x > most) most = x;
        x = acc2[i] + v[3][5 + j]; if (x > most) most = x;
    }
    best = target - most - w; if (best < 0) best = 0;
    if (target == 14) {
        int c;
        if (flags & F_SEVEN) { c = seven_pairs_cost(key, w, flags); if (c < best) best = c; }
        if (flags & F_ORPHANS) { c = orphans_cost(key, w, flags); if (c < best) best = c; }
    }
    return best - 1;
}

static const char *KW[] = {"wild", "seven_pairs", "thirteen_orphans", "quads_as_two_pairs",
                           "wild_numbers_only", "wild_pairs_natural"};

/* Parse (tiles, *, wild=None, seven_pairs=True, ...) from a vectorcall. */
static int parse_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      const char *fname, PyObject **tiles, long *wild, int *flags) {
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "%s() takes one positional argument (the tiles)", fname);
        return -1;
    }
    *tiles = args[0];
    *wild = -1;
    *flags = F_SEVEN | F_ORPHANS | F_QUADS | F_PAIRNAT;
    if (!kwnames) return 0;
    Py_ssize_t nk = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nk; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i), *val = args[nargs + i];
        int which = -1;
        for (int j = 0; j < 6; j++)
            if (PyUnicode_CompareWithASCIIString(name, KW[j]) == 0) { which = j; break; }
        if (which < 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument %R", fname, name);
            return -1;
        }
        if (which == 0) {
            if (val == Py_None) { *wild = -1; continue; }
            long t = PyLong_AsLong(val);
            if (t == -1 && PyErr_Occurred()) return -1;
            if (t < 0 || t > 33) {
                PyErr_Format(PyExc_ValueError, "wild must be a tile kind 0-33, got %ld", t);
                return -1;
            }
            *wild = t;
            if (t >= 27) *flags |= F_WILDHONOR;
            continue;
        }
        int truth = PyObject_IsTrue(val);
        if (truth < 0) return -1;
        int bit = which == 1 ? F_SEVEN : which == 2 ? F_ORPHANS : which == 3 ? F_QUADS
                : which == 4 ? F_NUMONLY : F_PAIRNAT;
        if (truth) *flags |= bit; else *flags &= ~bit;
    }
    return 0;
}

static PyObject *py_is_winning(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames) {
    PyObject *tiles; long wild; int flags; Hand h;
    if (parse_args(args, nargs, kwnames, "is_winning", &tiles, &wild, &flags) < 0) return NULL;
    if (ensure_tables() < 0 || read_hand(tiles, wild, &h) < 0) return NULL;
    if (h.n % 3 != 2 || h.n > 14)
        return PyErr_Format(PyExc_ValueError,
                            "is_winning takes %d tiles; expected 3n+2 tiles (2, 5, 8, 11 or 14)", h.n);
    return PyBool_FromLong(win_core(h.key, h.w, h.n, flags));
}

/* A hand given as 34 counts (the engine's concealed counts); as read_hand. */
static int read_counts(PyObject *counts, long wild, Hand *h) {
    PyObject *seq = PySequence_Fast(counts, "counts must be a sequence of 34 ints");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 34) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "counts must hold 34 counts, one per kind");
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    memset(h, 0, sizeof(Hand));
    for (int t = 0; t < 34; t++) {
        long c = PyLong_AsLong(items[t]);
        if (c == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "a count is an int 0-4, got %R", items[t]);
            Py_DECREF(seq);
            return -1;
        }
        if (c < 0 || c > 4) {
            PyErr_Format(PyExc_ValueError, "a count is an int 0-4, got %ld for kind %d", c, t);
            Py_DECREF(seq);
            return -1;
        }
        if (!c) continue;
        h->cnt[t] = (unsigned char)c;
        h->n += (int)c;
        if (t == wild) h->w += (int)c;
        else h->key[SUIT[t]] += (int)c * W5[t];
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *py_is_winning_counts(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                      PyObject *kwnames) {
    PyObject *counts; long wild; int flags; Hand h;
    if (parse_args(args, nargs, kwnames, "is_winning_counts", &counts, &wild, &flags) < 0)
        return NULL;
    if (ensure_tables() < 0 || read_counts(counts, wild, &h) < 0) return NULL;
    if (h.n % 3 != 2 || h.n > 14)
        return PyErr_Format(PyExc_ValueError,
                            "is_winning takes %d tiles; expected 3n+2 tiles (2, 5, 8, 11 or 14)", h.n);
    return PyBool_FromLong(win_core(h.key, h.w, h.n, flags));
}

static PyObject *py_shanten(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
    PyObject *tiles; long wild; int flags; Hand h;
    if (parse_args(args, nargs, kwnames, "shanten", &tiles, &wild, &flags) < 0) return NULL;
    if (ensure_tables() < 0 || read_hand(tiles, wild, &h) < 0) return NULL;
    if (h.n % 3 == 0 || h.n > 14)
        return PyErr_Format(PyExc_ValueError,
                            "shanten takes %d tiles; expected 1 to 14 tiles, not a multiple of 3", h.n);
    int r = shanten_core(h.key, h.w, h.n, flags);
    if (r == RESTRICTED) return PyObject_Vectorcall(fallback, args, nargs, kwnames);
    return PyLong_FromLong(r);
}

/* Shanten of the hand changed by one tile of each kind in turn (delta -1: one fewer, of
 * each kind held; +1: one more, of each kind held fewer than four times), as a 34-tuple
 * with -2 where there is no such hand: every discard's, or every draw's, shanten in one
 * call (the bots'). A restricted wild asks the Python shanten for that hand, as
 * shanten() does. */
static PyObject *shanten_each(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                              const char *fname, int delta) {
    PyObject *tiles; long wild; int flags; Hand h;
    if (parse_args(args, nargs, kwnames, fname, &tiles, &wild, &flags) < 0) return NULL;
    if (ensure_tables() < 0 || read_hand(tiles, wild, &h) < 0) return NULL;
    if (h.n % 3 != (delta < 0 ? 2 : 1) || h.n > 14 + (delta < 0 ? 0 : -1))
        return PyErr_Format(PyExc_ValueError, "%s takes %d tiles; expected %s", fname, h.n,
                            delta < 0 ? "3n+2 tiles (2, 5, 8, 11 or 14)"
                                      : "3n+1 tiles (1, 4, 7, 10 or 13)");
    PyObject *out = PyTuple_New(34);
    if (!out) return NULL;
    for (int t = 0; t < 34; t++) {
        long r = -2;
        if (delta < 0 ? h.cnt[t] > 0 : h.cnt[t] < 4) {
            if (t == wild) h.w += delta; else h.key[SUIT[t]] += delta * W5[t];
            r = shanten_core(h.key, h.w, h.n + delta, flags);
            if (t == wild) h.w -= delta; else h.key[SUIT[t]] -= delta * W5[t];
            if (r == RESTRICTED) {  /* this one hand through the Python shanten */
                PyObject *other = PyList_New(0);
                int bad = !other;
                for (int u = 0; u < 34 && !bad; u++) {
                    int c = h.cnt[u] + (u == t ? delta : 0);
                    for (int k = 0; k < c && !bad; k++)
                        bad = PyList_Append(other, PyTuple_GET_ITEM(kinds, u)) < 0;
                }
                PyObject *stack[8];
                Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
                if (!bad && nk > 7) {
                    PyErr_SetString(PyExc_TypeError, "too many keywords");
                    bad = 1;
                }
                PyObject *v = NULL;
                if (!bad) {
                    stack[0] = other;
                    for (Py_ssize_t i = 0; i < nk; i++) stack[1 + i] = args[nargs + i];
                    v = PyObject_Vectorcall(fallback, stack, 1, kwnames);
                }
                Py_XDECREF(other);
                if (!v) { Py_DECREF(out); return NULL; }
                r = PyLong_AsLong(v);
                Py_DECREF(v);
                if (r == -1 && PyErr_Occurred()) { Py_DECREF(out); return NULL; }
            }
        }
        PyObject *x = PyLong_FromLong(r);
        if (!x) { Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, t, x);
    }
    return out;
}

static PyObject *py_discard_shanten(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames) {
    return shanten_each(args, nargs, kwnames, "discard_shanten", -1);
}

static PyObject *py_draw_shanten(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kwnames) {
    return shanten_each(args, nargs, kwnames, "draw_shanten", +1);
}

/* Kinds completing a 3n+1 part, as a sorted tuple of ints (fewer than four held). */
static PyObject *py_waits(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
    PyObject *tiles; long wild; int flags; Hand h;
    if (parse_args(args, nargs, kwnames, "waits", &tiles, &wild, &flags) < 0) return NULL;
    if (ensure_tables() < 0 || read_hand(tiles, wild, &h) < 0) return NULL;
    if (h.n % 3 != 1 || h.n > 13)
        return PyErr_Format(PyExc_ValueError,
                            "waits takes %d tiles; expected 3n+1 tiles (1, 4, 7, 10 or 13)", h.n);
    int found[34], nf = 0;
    for (int t = 0; t < 34; t++) {
        if (h.cnt[t] >= 4) continue;
        int ok;
        if (t == wild) ok = win_core(h.key, h.w + 1, h.n + 1, flags);
        else {
            h.key[SUIT[t]] += W5[t];
            ok = win_core(h.key, h.w, h.n + 1, flags);
            h.key[SUIT[t]] -= W5[t];
        }
        if (ok) found[nf++] = t;
    }
    PyObject *items = PyTuple_New(nf);
    if (!items) return NULL;
    for (int i = 0; i < nf; i++) {
        PyObject *k = PyTuple_GET_ITEM(kinds, found[i]);
        Py_INCREF(k);
        PyTuple_SET_ITEM(items, i, k);
    }
    PyObject *out = PyFrozenSet_New(items);
    Py_DECREF(items);
    return out;
}

static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *ld, *kd, *fb;
    if (!PyArg_ParseTuple(args, "OO!O:init", &ld, &PyTuple_Type, &kd, &fb)) return NULL;
    if (!PyCallable_Check(ld) || !PyCallable_Check(fb) || PyTuple_GET_SIZE(kd) != 34) {
        PyErr_SetString(PyExc_TypeError, "init(loader, kinds, shanten_fallback)");
        return NULL;
    }
    Py_INCREF(ld); Py_XSETREF(loader, ld);
    Py_INCREF(kd); Py_XSETREF(kinds, kd);
    Py_INCREF(fb); Py_XSETREF(fallback, fb);
    Py_CLEAR(held);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"init", (PyCFunction)py_init, METH_VARARGS, "Register the table loader, the Tile kinds and the Python shanten."},
    {"is_winning", (PyCFunction)(void (*)(void))py_is_winning, METH_FASTCALL | METH_KEYWORDS,
     "True if the concealed part (3n+2 tiles) is a complete hand."},
    {"is_winning_counts", (PyCFunction)(void (*)(void))py_is_winning_counts,
     METH_FASTCALL | METH_KEYWORDS, "is_winning of a hand given as 34 counts."},
    {"shanten", (PyCFunction)(void (*)(void))py_shanten, METH_FASTCALL | METH_KEYWORDS,
     "Tile exchanges from complete, minus one: -1 complete, 0 ready."},
    {"discard_shanten", (PyCFunction)(void (*)(void))py_discard_shanten,
     METH_FASTCALL | METH_KEYWORDS,
     "The shanten after discarding one tile of each held kind (-2 where none is held)."},
    {"draw_shanten", (PyCFunction)(void (*)(void))py_draw_shanten, METH_FASTCALL | METH_KEYWORDS,
     "The shanten after drawing one tile of each kind (-2 where four are held)."},
    {"waits", (PyCFunction)(void (*)(void))py_waits, METH_FASTCALL | METH_KEYWORDS,
     "Kinds that complete a 3n+1 part, excluding kinds held four times."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_speedups",
                                    "C accelerator for majiang.hand.", -1, methods};

PyMODINIT_FUNC PyInit__speedups(void) {
    for (int t = 0; t < 34; t++) {
        SUIT[t] = t < 27 ? t / 9 : 3;
        W5[t] = t < 27 ? P5[t % 9] : P5[t - 27];
    }
    return PyModule_Create(&module);
}
