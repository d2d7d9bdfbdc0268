/* C accelerator for majiang.engine.state: one discard from the turn's own list, its
 * claim window, and, when nobody can claim, the window's resolution and the next draw
 * (HandState._apply_turn's discard branch, _after_discard, _claim_options' plain case,
 * auto_pass and _next_draw / _receive), in one call. The pure Python methods remain the
 * readable statement and the fallback (MAJIANG_ENGINE_PURE=1); tests play seeded hands
 * of every variant both ways and compare every attribute of the state after every step.
 * Everything a variant decides (its hooks, a claim window with a possible claim, a
 * flower, the end of the wall) is handed back to those Python methods, so this file
 * knows no rule of any variant. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *P_TURN, *P_CLAIM, *E_DISCARD, *E_DRAW, *OTHERS, *EMPTY;
static PyObject *DISCARDS, *HU, *PASS, *WINNING, *M_PENG, *A_DISCARD, *FALLBACK; /* per-seat action tables; is_winning_counts */
static PyObject *S_HU, *S_CHI, *S_X, *S_P, *S_D;
static PyObject *a_concealed, *a_discards, *a_seat_log, *a_wild, *a_first_turn,
    *a_after_kong, *a_drawn, *a_follows_discard, *a_variant_state, *a_rules, *a_on_event,
    *a_claim_options, *a_window_options, *a_window_seats, *a_decisions, *a_phase,
    *a_turn_cache, *a_window_from, *a_window_tile, *a_hi, *a_lo, *a_variant,
    *a_draw_end_live, *a_end_draw, *a_wall, *a_receive, *a_follows_draw, *a_last_drawer,
    *a_current, *a_can_win_now, *a_missed_win, *a_missed_peng, *a_claim_end_live,
    *a_final_live, *a_last_turn, *a_final_turn, *a_claims, *a_wild_discard_claims,
    *a_meld_wilds, *a_melds, *a_shapes, *a_kong_min_live, *a_limits_self_draw,
    *a_can_self_draw, *a_instant_win, *a_filters_turn, *a_filter_turn, *a_own_kongs,
    *k_wild, *k_seven_pairs, *k_thirteen_orphans, *a_result, *a_kind, *a_tiles, *a_history,
    *a_auto_pass;


/* Per thread: a hook called from here runs Python, which may let another thread in and
 * through these same entry points (the server's bot threads). */
#if defined(_MSC_VER)
#define PER_THREAD __declspec(thread)
#else
#define PER_THREAD _Thread_local
#endif

/* The state being worked on and its instance dict: its attributes are read and written
 * there directly (HandState has no slots and no descriptor for any name used here; a
 * name missing from the dict is looked up as an attribute). Saved and restored around
 * each entry point, as hooks called from here may call back in. */
static PER_THREAD PyObject *CUR = NULL, *CUR_DICT = NULL;

static PyObject *attr_get(PyObject *o, PyObject *name) {
    if (o == CUR) {
        PyObject *v = PyDict_GetItemWithError(CUR_DICT, name);
        if (v) {
            Py_INCREF(v);
            return v;
        }
        if (PyErr_Occurred()) return NULL;
    }
    return PyObject_GetAttr(o, name);
}

static int attr_set(PyObject *o, PyObject *name, PyObject *v) {
    if (o == CUR) return PyDict_SetItem(CUR_DICT, name, v);
    return PyObject_SetAttr(o, name, v);
}

typedef struct { PyObject *state, *dict; } Saved;

/* make state the current one; 0, or -1 with an exception */
static int enter(PyObject *state, Saved *saved) {
    saved->state = CUR;
    saved->dict = CUR_DICT;
    PyObject *d = PyObject_GenericGetDict(state, NULL);
    if (!d) return -1;
    if (!PyDict_CheckExact(d)) {
        Py_DECREF(d);
        PyErr_SetString(PyExc_TypeError, "engine state: its __dict__ is not a dict");
        return -1;
    }
    CUR = state;
    CUR_DICT = d;
    return 0;
}

static void leave(Saved *saved) {
    Py_XDECREF(CUR_DICT);
    CUR = saved->state;
    CUR_DICT = saved->dict;
}

/* getattr as a C long; -1 with an exception set on failure */
static int get_long(PyObject *o, PyObject *name, long *out) {
    PyObject *v = attr_get(o, name);
    if (!v) return -1;
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int get_truth(PyObject *o, PyObject *name) {
    PyObject *v = attr_get(o, name);
    if (!v) return -1;
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

static int set_long(PyObject *o, PyObject *name, long value) {
    PyObject *v = PyLong_FromLong(value);
    if (!v) return -1;
    int r = attr_set(o, name, v);
    Py_DECREF(v);
    return r;
}

/* seq[i] as a borrowed reference of a list attribute's item (a list of lists) */
static PyObject *row_of(PyObject *o, PyObject *name, long i) {
    PyObject *rows = attr_get(o, name);
    if (!rows) return NULL;
    if (!PyList_Check(rows) || i < 0 || i >= PyList_GET_SIZE(rows)) {
        Py_DECREF(rows);
        PyErr_SetString(PyExc_TypeError, "engine state: unexpected layout");
        return NULL;
    }
    PyObject *row = PyList_GET_ITEM(rows, i);
    Py_DECREF(rows); /* the state keeps the list, the list keeps the row */
    return row;
}

/* counts[t] += delta for a list of ints */
static int bump(PyObject *counts, long t, long delta) {
    if (!PyList_Check(counts) || t < 0 || t >= PyList_GET_SIZE(counts)) {
        PyErr_SetString(PyExc_TypeError, "engine state: unexpected counts");
        return -1;
    }
    long c = PyLong_AsLong(PyList_GET_ITEM(counts, t));
    if (c == -1 && PyErr_Occurred()) return -1;
    PyObject *v = PyLong_FromLong(c + delta);
    if (!v) return -1;
    return PyList_SetItem(counts, t, v); /* steals v */
}

static int append_to(PyObject *o, PyObject *name, long i, PyObject *item) {
    PyObject *row = row_of(o, name, i);
    if (!row) return -1;
    if (!PyList_Check(row)) {
        PyErr_SetString(PyExc_TypeError, "engine state: unexpected row");
        return -1;
    }
    return PyList_Append(row, item);
}

static int clear_set(PyObject *o, PyObject *name, long i) {
    PyObject *s = row_of(o, name, i);
    if (!s) return -1;
    if (!PySet_Check(s)) {
        PyErr_SetString(PyExc_TypeError, "engine state: unexpected set");
        return -1;
    }
    return PySet_GET_SIZE(s) ? PySet_Clear(s) : 0;
}

/* the state's wild kind, or -1 (None) */
static int get_wild(PyObject *state, long *wild) {
    PyObject *w = attr_get(state, a_wild);
    if (!w) return -1;
    if (w == Py_None) *wild = -1;
    else *wild = PyLong_AsLong(w);
    Py_DECREF(w);
    return (*wild == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* rules.on_event(state, event, seat, t) stored as the variant state (a followed event) */
static int follow(PyObject *state, PyObject *event, long seat, long t) {
    PyObject *rules = attr_get(state, a_rules);
    if (!rules) return -1;
    PyObject *s = PyLong_FromLong(seat), *tt = PyLong_FromLong(t);
    PyObject *vs = (s && tt) ? PyObject_CallMethodObjArgs(rules, a_on_event, state, event, s, tt, NULL)
                             : NULL;
    Py_XDECREF(s);
    Py_XDECREF(tt);
    Py_DECREF(rules);
    if (!vs) return -1;
    int r = attr_set(state, a_variant_state, vs);
    Py_DECREF(vs);
    return r;
}

/* Is claim ``name`` on offer for the discard t: in the variant's claims, in its wild
 * discard claims when t is the wild (RULES.md 2.1), and hu alone on the last discard
 * (RULES.md 1.2 / 2.2)? As _claim_options masks the claims. */
static int offered(PyObject *claims, PyObject *wdc, int is_wild, int last_turn, PyObject *name) {
    int r = PySet_Contains(claims, name);
    if (r <= 0) return r;
    if (is_wild) {
        r = PySet_Contains(wdc, name);
        if (r <= 0) return r;
    }
    if (last_turn && name != S_HU) return 0;
    return 1;
}

/* The variant's facts read here, kept for the last variant seen (a Variant is an immutable
 * value: one read of each per variant, not per call) */
typedef struct {
    PyObject *variant, *claims, *wdc;
    long draw_end, claim_end, final, kong_min;
    int has_final;
} Facts;
static PER_THREAD Facts FACTS = {NULL, NULL, NULL, 0, 0, 0, 0, 0};

static const Facts *facts(PyObject *state) {
    PyObject *variant = attr_get(state, a_variant);
    if (!variant) return NULL;
    if (variant == FACTS.variant) {
        Py_DECREF(variant);
        return &FACTS;
    }
    Facts f = {variant, NULL, NULL, 0, 0, -1, 0, 0};
    PyObject *fl = NULL;
    if (!(f.claims = PyObject_GetAttr(variant, a_claims)) ||
        !(f.wdc = PyObject_GetAttr(variant, a_wild_discard_claims)) ||
        get_long(variant, a_draw_end_live, &f.draw_end) < 0 ||
        get_long(variant, a_claim_end_live, &f.claim_end) < 0 ||
        get_long(variant, a_kong_min_live, &f.kong_min) < 0 ||
        !(fl = PyObject_GetAttr(variant, a_final_live)))
        goto fail;
    if (!PyAnySet_Check(f.claims) || !PyAnySet_Check(f.wdc)) {
        PyErr_SetString(PyExc_TypeError, "variant: claims and wild_discard_claims are sets");
        goto fail;
    }
    f.has_final = fl != Py_None;
    if (f.has_final && (f.final = PyLong_AsLong(fl)) == -1 && PyErr_Occurred()) goto fail;
    Py_DECREF(fl);
    Py_XDECREF(FACTS.variant);
    Py_XDECREF(FACTS.claims);
    Py_XDECREF(FACTS.wdc);
    FACTS = f;
    return &FACTS;
fail:
    Py_XDECREF(fl);
    Py_XDECREF(f.claims);
    Py_XDECREF(f.wdc);
    Py_DECREF(variant);
    return NULL;
}

/* The window's claim options: {} computed here when no seat can claim on the plain path
 * (pengs and kongs of natural tiles only: a seat holding two of t is the only one with a
 * claim), else _claim_options itself. Returns a new reference. */
static PyObject *claim_options(PyObject *state, long seat, long t, long wild) {
    const Facts *f = facts(state);
    if (!f) return NULL;
    int plain = -1;
    int last_turn = get_truth(state, a_last_turn);
    int meld_wilds = last_turn < 0 ? -1 : get_truth(state, a_meld_wilds);
    if (meld_wilds >= 0) {
        int is_wild = t == wild;
        int hu = offered(f->claims, f->wdc, is_wild, last_turn, S_HU);
        int chi = hu < 0 ? -1 : offered(f->claims, f->wdc, is_wild, last_turn, S_CHI);
        plain = (hu < 0 || chi < 0) ? -1 : (hu == 0 && chi == 0 && !(meld_wilds && wild >= 0));
    }
    if (plain < 0) return NULL;
    if (plain) {
        PyObject *rows = attr_get(state, a_concealed);
        if (!rows) return NULL;
        int any = 0;
        for (long s = 0; s < 4 && !any; s++) {
            if (s == seat) continue;
            PyObject *c = PyList_Check(rows) && PyList_GET_SIZE(rows) == 4 ? PyList_GET_ITEM(rows, s) : NULL;
            if (!c || !PyList_Check(c) || PyList_GET_SIZE(c) <= t) {
                Py_DECREF(rows);
                PyErr_SetString(PyExc_TypeError, "engine state: unexpected concealed counts");
                return NULL;
            }
            long n = PyLong_AsLong(PyList_GET_ITEM(c, t));
            if (n == -1 && PyErr_Occurred()) {
                Py_DECREF(rows);
                return NULL;
            }
            any = n >= 2;
        }
        Py_DECREF(rows);
        if (!any) {  /* nobody can claim, and nobody could with a claim the variant lacks */
            if (set_long(state, a_window_from, seat) < 0) return NULL;
            if (set_long(state, a_window_tile, t) < 0) return NULL;
            return PyDict_New();
        }
    }
    PyObject *s = PyLong_FromLong(seat), *tt = PyLong_FromLong(t);
    PyObject *out = (s && tt) ? PyObject_CallMethodObjArgs(state, a_claim_options, s, tt, NULL) : NULL;
    Py_XDECREF(s);
    Py_XDECREF(tt);
    return out;
}

/* _receive(seat, t, None) without a flower or a followed draw (those go to Python) */
static int receive(PyObject *state, long seat, long t) {
    int follows = get_truth(state, a_follows_draw);
    if (follows < 0) return -1;
    if (t >= 34 || follows) {
        PyObject *s = PyLong_FromLong(seat), *tt = PyLong_FromLong(t);
        PyObject *r = (s && tt) ? PyObject_CallMethodObjArgs(state, a_receive, s, tt, Py_None, NULL)
                                : NULL;
        Py_XDECREF(s);
        Py_XDECREF(tt);
        if (!r) return -1;
        Py_DECREF(r);
        return 0;
    }
    PyObject *c = row_of(state, a_concealed, seat);
    if (!c || bump(c, t, 1) < 0) return -1;
    if (set_long(state, a_last_drawer, seat) < 0) return -1;
    if (set_long(state, a_current, seat) < 0) return -1;
    if (attr_set(state, a_phase, P_TURN) < 0) return -1;
    if (set_long(state, a_drawn, t) < 0) return -1;
    if (attr_set(state, a_can_win_now, Py_True) < 0) return -1;
    if (attr_set(state, a_after_kong, Py_None) < 0) return -1;
    if (append_to(state, a_seat_log, seat, S_D) < 0) return -1;
    if (clear_set(state, a_missed_win, seat) < 0) return -1;
    if (clear_set(state, a_missed_peng, seat) < 0) return -1;
    long hi, lo;
    if (get_long(state, a_hi, &hi) < 0 || get_long(state, a_lo, &lo) < 0) return -1;
    const Facts *f = facts(state);
    if (!f) return -1;
    long live = hi - lo;
    if (attr_set(state, a_last_turn, live <= f->claim_end ? Py_True : Py_False) < 0) return -1;
    return attr_set(state, a_final_turn, f->has_final && live <= f->final ? Py_True : Py_False);
}

/* _next_draw(discarder): the next seat draws from the front, or the hand ends drawn */
static int next_draw(PyObject *state, long discarder) {
    long seat = (discarder + 1) % 4, hi, lo;
    if (get_long(state, a_hi, &hi) < 0 || get_long(state, a_lo, &lo) < 0) return -1;
    const Facts *f = facts(state);
    if (!f) return -1;
    if (hi - lo <= f->draw_end) {
        PyObject *r = PyObject_CallMethodNoArgs(state, a_end_draw);
        if (!r) return -1;
        Py_DECREF(r);
        return 0;
    }
    PyObject *wall = attr_get(state, a_wall);
    if (!wall) return -1;
    if (!PyList_Check(wall) || lo < 0 || lo >= PyList_GET_SIZE(wall)) {
        Py_DECREF(wall);
        PyErr_SetString(PyExc_TypeError, "engine state: unexpected wall");
        return -1;
    }
    long t = PyLong_AsLong(PyList_GET_ITEM(wall, lo));
    Py_DECREF(wall);
    if (t == -1 && PyErr_Occurred()) return -1;
    if (set_long(state, a_lo, lo + 1) < 0) return -1;
    return receive(state, seat, t);
}

static PyObject *turn_actions_in(PyObject *state, long seat);

/* Seat's discard of kind t, already checked against its turn list and written to the
 * history: the tile leaves the hand, the claim window opens, and when no seat has a claim
 * it closes at once, the next seat draws and its turn list is built (_apply_turn, then
 * auto_pass's common case). True then; False with the window left open. */
static PyObject *discard_in(PyObject *state, long seat, long t) {
    long wild;
    /* _apply_turn's discard branch */
    PyObject *c = row_of(state, a_concealed, seat);
    if (!c || bump(c, t, -1) < 0) return NULL;
    PyObject *tile = PyLong_FromLong(t);
    if (!tile) return NULL;
    int r = append_to(state, a_discards, seat, tile);
    Py_DECREF(tile);
    if (r < 0 || get_wild(state, &wild) < 0) return NULL;
    if (append_to(state, a_seat_log, seat, t == wild ? S_P : S_X) < 0) return NULL;
    /* _after_discard */
    if (attr_set(state, a_first_turn, Py_False) < 0) return NULL;
    if (attr_set(state, a_after_kong, Py_None) < 0) return NULL;
    if (attr_set(state, a_drawn, Py_None) < 0) return NULL;
    int follows = get_truth(state, a_follows_discard);
    if (follows < 0 || (follows && follow(state, E_DISCARD, seat, t) < 0)) return NULL;
    PyObject *options = claim_options(state, seat, t, wild);
    if (!options) return NULL;
    r = attr_set(state, a_window_options, options);
    Py_ssize_t n = PyDict_Check(options) ? PyDict_GET_SIZE(options) : PyObject_Length(options);
    Py_DECREF(options);
    if (r < 0 || n < 0) return NULL;
    PyObject *decisions = PyDict_New();
    if (!decisions) return NULL;
    r = attr_set(state, a_decisions, decisions);
    Py_DECREF(decisions);
    if (r < 0) return NULL;
    if (n) {  /* a claim is possible: the window stays open for the seats to decide */
        if (attr_set(state, a_window_seats, PyTuple_GET_ITEM(OTHERS, seat)) < 0) return NULL;
        if (attr_set(state, a_phase, P_CLAIM) < 0) return NULL;
        Py_RETURN_FALSE;
    }
    /* auto_pass: nobody can claim, the window resolves as every seat passed */
    if (attr_set(state, a_phase, P_TURN) < 0) return NULL;
    if (attr_set(state, a_window_seats, EMPTY) < 0) return NULL;
    if (attr_set(state, a_turn_cache, Py_None) < 0) return NULL;
    if (next_draw(state, seat) < 0) return NULL;
    /* the drawer's turn list, which every driver of then_pass asks for next */
    PyObject *result = attr_get(state, a_result);
    if (!result) return NULL;
    int live = result == Py_None;
    Py_DECREF(result);
    if (live) {
        PyObject *list = turn_actions_in(state, (seat + 1) % 4);
        if (!list) return NULL;
        Py_DECREF(list);
    }
    Py_RETURN_TRUE;
}


/* _complete(seat, None): is the seat's own hand (its 3n+2 concealed tiles) a win, with the
 * variant's shapes, seven pairs and thirteen orphans off once it has melds */
static int complete(PyObject *state, PyObject *counts, int melded, PyObject *wild) {
    PyObject *shapes = attr_get(state, a_shapes);
    if (!shapes) return -1;
    if (!PyDict_Check(shapes)) {
        Py_DECREF(shapes);
        PyErr_SetString(PyExc_TypeError, "engine state: shapes is a dict");
        return -1;
    }
    /* is_winning_counts(counts, wild=wild, **shapes), by keyword names: no dict built */
    PyObject *stack[8], *names[8];
    Py_ssize_t n = 0, pos = 0;
    PyObject *key, *value;
    stack[0] = counts;
    names[n] = k_wild;
    stack[1 + n++] = wild;
    while (PyDict_Next(shapes, &pos, &key, &value)) {
        if (n == 7) {
            Py_DECREF(shapes);
            PyErr_SetString(PyExc_TypeError, "engine state: too many shape flags");
            return -1;
        }
        if (melded && (PyUnicode_Compare(key, k_seven_pairs) == 0 ||
                       PyUnicode_Compare(key, k_thirteen_orphans) == 0))
            continue; /* passed as False below */
        names[n] = key;
        stack[1 + n++] = value;
    }
    if (melded) {
        names[n] = k_seven_pairs;
        stack[1 + n++] = Py_False;
        names[n] = k_thirteen_orphans;
        stack[1 + n++] = Py_False;
    }
    PyObject *kwnames = PyTuple_New(n);
    if (!kwnames) {
        Py_DECREF(shapes);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(names[i]);
        PyTuple_SET_ITEM(kwnames, i, names[i]);
    }
    PyObject *r = PyObject_Vectorcall(WINNING, stack, 1, kwnames);
    Py_DECREF(kwnames);
    Py_DECREF(shapes);
    if (!r) return -1;
    int won = PyObject_IsTrue(r);
    Py_DECREF(r);
    return won;
}

/* rules.<name>(state, seat) as a truth value */
static int ask_rules(PyObject *state, PyObject *name, long seat) {
    PyObject *rules = attr_get(state, a_rules);
    if (!rules) return -1;
    PyObject *s = PyLong_FromLong(seat);
    PyObject *r = s ? PyObject_CallMethodObjArgs(rules, name, state, s, NULL) : NULL;
    Py_XDECREF(s);
    Py_DECREF(rules);
    if (!r) return -1;
    int yes = PyObject_IsTrue(r);
    Py_DECREF(r);
    return yes;
}

/* a small int object's value (a seat, a tile), or -1 for anything else */
static long small(PyObject *v) {
    if (!PyLong_CheckExact(v)) return -1;
    long r = PyLong_AsLong(v);
    if (r == -1 && PyErr_Occurred()) PyErr_Clear();
    return r;
}

/* Is action, an element of the state's turn list, a discard this file applies: the turn
 * list read since the last change, the hand live, the turn's own seat? */
static int own_discard(PyObject *state, PyObject *action, long *seat, long *t) {
    if (!PyTuple_Check(action) || PyTuple_GET_SIZE(action) != 4 ||
        PyTuple_GET_ITEM(action, 1) != A_DISCARD)
        return 0;
    *seat = small(PyTuple_GET_ITEM(action, 0));
    *t = small(PyTuple_GET_ITEM(action, 2));
    if (*seat < 0 || *seat > 3 || *t < 0 || *t > 33) return 0;
    PyObject *cache = attr_get(state, a_turn_cache), *phase = NULL, *result = NULL;
    long current = -1;
    int ok = cache && cache != Py_None && (phase = attr_get(state, a_phase)) && phase == P_TURN &&
             (result = attr_get(state, a_result)) && result == Py_None &&
             get_long(state, a_current, &current) == 0 && current == *seat;
    Py_XDECREF(cache);
    Py_XDECREF(phase);
    Py_XDECREF(result);
    return PyErr_Occurred() ? -1 : ok;
}

PyDoc_STRVAR(play_listed_doc,
"play_listed(state, action)\n--\n\n"
"state.apply_listed(action, then_pass=True) (majiang.engine.state.play_listed): a discard\n"
"of the turn's own list here, written to the history, then through its window to the\n"
"next draw; any other action through the Python method.");

static PyObject *play_listed(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "play_listed(state, action)");
        return NULL;
    }
    PyObject *state = args[0], *action = args[1];
    Saved saved;
    long seat = -1, t = -1;
    if (enter(state, &saved) < 0) return NULL;
    int mine = own_discard(state, action, &seat, &t);
    PyObject *r = NULL;
    if (mine > 0) {
        PyObject *history = attr_get(state, a_history);
        int bad = !history || !PyList_Check(history) || PyList_Append(history, action) < 0 ||
                  attr_set(state, a_turn_cache, Py_None) < 0;
        Py_XDECREF(history);
        if (!bad && !PyErr_Occurred()) r = discard_in(state, seat, t);
        else if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "engine state: history is a list");
    }
    leave(&saved);
    if (mine < 0) return NULL;
    if (!mine) return PyObject_CallFunctionObjArgs(FALLBACK, state, action, NULL);
    if (!r) return NULL;
    int open = r == Py_False;
    Py_DECREF(r);
    if (open) {  /* a seat may claim: the seats with only pass pass (auto_pass) */
        PyObject *done = PyObject_CallMethodNoArgs(state, a_auto_pass);
        if (!done) return NULL;
        Py_DECREF(done);
    }
    Py_RETURN_NONE;
}

/* Does the seat hold a tile of one of its pengs (an added kong to look at)? */
static int peng_to_add(PyObject *melds, const long *counts) {
    if (!PyList_Check(melds)) {
        PyErr_SetString(PyExc_TypeError, "engine state: a seat's melds are a list");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(melds); i++) {
        PyObject *m = PyList_GET_ITEM(melds, i);
        PyObject *kind = PyObject_GetAttr(m, a_kind);
        if (!kind) return -1;
        int peng = kind == M_PENG;
        Py_DECREF(kind);
        if (!peng) continue;
        PyObject *tiles = PyObject_GetAttr(m, a_tiles);
        if (!tiles) return -1;
        long t = PyTuple_Check(tiles) && PyTuple_GET_SIZE(tiles) ? PyLong_AsLong(PyTuple_GET_ITEM(tiles, 0)) : -2;
        Py_DECREF(tiles);
        if (t == -1 && PyErr_Occurred()) return -1;
        if (t < 0 || t > 33) {
            PyErr_SetString(PyExc_TypeError, "engine state: a peng's tiles are kinds 0-33");
            return -1;
        }
        if (counts[t]) return 1;
    }
    return 0;
}

PyDoc_STRVAR(turn_actions_doc,
"turn_actions(state, seat)\n--\n\n"
"The turn's legal list of seat (HandState._turn_actions without its cache), kept as the\n"
"state's _turn_cache: hu when the hand is complete (or an instant win), the pass of the\n"
"last tile, kongs (HandState._own_kongs), each held kind's discard, then the variant's\n"
"filter_turn.");

static PyObject *turn_actions_in(PyObject *state, long seat) {
    PyObject *c = row_of(state, a_concealed, seat);
    if (!c) return NULL;
    if (!PyList_Check(c) || PyList_GET_SIZE(c) != 34) {
        PyErr_SetString(PyExc_TypeError, "engine state: unexpected concealed counts");
        return NULL;
    }
    long counts[34];
    int four = 0;
    for (int t = 0; t < 34; t++) {
        counts[t] = PyLong_AsLong(PyList_GET_ITEM(c, t));
        if (counts[t] == -1 && PyErr_Occurred()) return NULL;
        if (counts[t] == 4) four = 1;
    }
    PyObject *melds = row_of(state, a_melds, seat);
    if (!melds) return NULL;
    int melded = PyObject_IsTrue(melds);
    if (melded < 0) return NULL;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    PyObject *wild = NULL;
    int hu = 0;
    int can = get_truth(state, a_can_win_now);
    if (can < 0) goto fail;
    if (!(wild = attr_get(state, a_wild))) goto fail;
    if (can) {
        PyObject *drawn = attr_get(state, a_drawn);
        if (!drawn) goto fail;
        int has = drawn != Py_None;
        Py_DECREF(drawn);
        if (has) {
            hu = complete(state, c, melded, wild);
            if (hu < 0) goto fail;
            if (hu) {
                int limits = get_truth(state, a_limits_self_draw);
                if (limits < 0) goto fail;
                if (limits && (hu = ask_rules(state, a_can_self_draw, seat)) < 0) goto fail;
            }
        }
    }
    if (!hu) {
        int first = get_truth(state, a_first_turn);
        if (first < 0) goto fail;
        if (first && (hu = ask_rules(state, a_instant_win, seat)) < 0) goto fail;
    }
    if (hu && PyList_Append(out, PyTuple_GET_ITEM(HU, seat)) < 0) goto fail;
    int final = get_truth(state, a_final_turn);
    if (final < 0) goto fail;
    if (final) {  /* RULES.md 3.2: the last tile is not discarded */
        if (PyList_Append(out, PyTuple_GET_ITEM(PASS, seat)) < 0) goto fail;
        goto done;
    }
    long hi, lo, w = -1;
    if (get_long(state, a_hi, &hi) < 0 || get_long(state, a_lo, &lo) < 0) goto fail;
    const Facts *f = facts(state);
    if (!f) goto fail;
    long min_live = f->kong_min;
    if (wild != Py_None && (w = PyLong_AsLong(wild)) == -1 && PyErr_Occurred()) goto fail;
    if (hi - lo >= min_live) {
        int meld_wilds = get_truth(state, a_meld_wilds);
        if (meld_wilds < 0) goto fail;
        int some = four || (meld_wilds && w >= 0 && w < 34 && counts[w]);
        if (!some && melded && (some = peng_to_add(melds, counts)) < 0) goto fail;
        if (some) {
            /* else _own_kongs finds none: no peng to add to, no four held, no wild to use */
            PyObject *s = PyLong_FromLong(seat);
            PyObject *kongs = s ? PyObject_CallMethodObjArgs(state, a_own_kongs, s, NULL) : NULL;
            Py_XDECREF(s);
            if (!kongs) goto fail;
            Py_ssize_t end = PyList_GET_SIZE(out);
            int r = PyList_SetSlice(out, end, end, kongs);
            Py_DECREF(kongs);
            if (r < 0) goto fail;
        }
    }
    PyObject *mine = PyTuple_GET_ITEM(DISCARDS, seat);
    for (int t = 0; t < 34; t++)
        if (counts[t] && PyList_Append(out, PyTuple_GET_ITEM(mine, t)) < 0) goto fail;
    int filters = get_truth(state, a_filters_turn);
    if (filters < 0) goto fail;
    if (filters) {
        PyObject *rules = attr_get(state, a_rules);
        PyObject *s = rules ? PyLong_FromLong(seat) : NULL;
        PyObject *kept = s ? PyObject_CallMethodObjArgs(rules, a_filter_turn, state, s, out, NULL) : NULL;
        Py_XDECREF(s);
        Py_XDECREF(rules);
        if (!kept) goto fail;
        Py_DECREF(out);
        out = kept;
    }
done:
    Py_XDECREF(wild);
    if (attr_set(state, a_turn_cache, out) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
fail:
    Py_XDECREF(wild);
    Py_DECREF(out);
    return NULL;
}

static PyObject *turn_actions(PyObject *self, PyObject *args) {
    PyObject *state;
    long seat;
    Saved saved;
    if (!PyArg_ParseTuple(args, "Ol:turn_actions", &state, &seat)) return NULL;
    if (seat < 0 || seat > 3) {
        PyErr_SetString(PyExc_ValueError, "turn_actions: a seat 0-3");
        return NULL;
    }
    if (enter(state, &saved) < 0) return NULL;
    PyObject *r = turn_actions_in(state, seat);
    leave(&saved);
    return r;
}

PyDoc_STRVAR(init_doc,
"init(turn, claim, discard_event, draw_event, others, discards, hu, pass_, winning, peng,\n"
"     discard, fallback)\n--\n\n"
"The engine's Phase.TURN and Phase.CLAIM, Event.DISCARD and Event.DRAW, each seat's other\n"
"seats, its discard of each kind, its hu and its pass, and majiang.hand's\n"
"is_winning_counts, MeldKind.PENG, ActionType.DISCARD and the Python play_listed, handed\n"
"over once by majiang.engine.state.");

static PyObject *init(PyObject *self, PyObject *args) {
    PyObject *turn, *claim, *ed, *edr, *others, *discards, *hu, *pass, *winning, *peng, *ad,
        *fallback;
    if (!PyArg_ParseTuple(args, "OOOOO!O!O!O!OOOO:init", &turn, &claim, &ed, &edr, &PyTuple_Type,
                          &others, &PyTuple_Type, &discards, &PyTuple_Type, &hu, &PyTuple_Type,
                          &pass, &winning, &peng, &ad, &fallback))
        return NULL;
    if (PyTuple_GET_SIZE(others) != 4 || PyTuple_GET_SIZE(discards) != 4 ||
        PyTuple_GET_SIZE(hu) != 4 || PyTuple_GET_SIZE(pass) != 4) {
        PyErr_SetString(PyExc_ValueError, "init: the per-seat tables hold four entries");
        return NULL;
    }
    for (int s = 0; s < 4; s++) {
        PyObject *row = PyTuple_GET_ITEM(discards, s);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 34) {
            PyErr_SetString(PyExc_ValueError, "init: a seat's discards are a 34-tuple");
            return NULL;
        }
    }
    Py_INCREF(discards); Py_XSETREF(DISCARDS, discards);
    Py_INCREF(hu); Py_XSETREF(HU, hu);
    Py_INCREF(pass); Py_XSETREF(PASS, pass);
    Py_INCREF(winning); Py_XSETREF(WINNING, winning);
    Py_INCREF(peng); Py_XSETREF(M_PENG, peng);
    Py_INCREF(ad); Py_XSETREF(A_DISCARD, ad);
    Py_INCREF(fallback); Py_XSETREF(FALLBACK, fallback);
    Py_INCREF(turn); Py_XSETREF(P_TURN, turn);
    Py_INCREF(claim); Py_XSETREF(P_CLAIM, claim);
    Py_INCREF(ed); Py_XSETREF(E_DISCARD, ed);
    Py_INCREF(edr); Py_XSETREF(E_DRAW, edr);
    Py_INCREF(others); Py_XSETREF(OTHERS, others);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"play_listed", (PyCFunction)(void (*)(void))play_listed, METH_FASTCALL, play_listed_doc},
    {"turn_actions", turn_actions, METH_VARARGS, turn_actions_doc},
    {"init", init, METH_VARARGS, init_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "majiang.engine._speedups",
    "C accelerator of the engine's discard, claim window and draw (majiang.engine.state).",
    -1, methods,
};

/* every name this file reads or calls, interned once */
static const struct { PyObject **slot; const char *text; } NAMES[] = {
    {&S_HU, "hu"}, {&S_CHI, "chi"}, {&S_X, "X"}, {&S_P, "P"}, {&S_D, "D"},
    {&a_concealed, "concealed"}, {&a_discards, "discards"}, {&a_seat_log, "seat_log"},
    {&a_wild, "wild"}, {&a_first_turn, "first_turn"}, {&a_after_kong, "after_kong"},
    {&a_drawn, "drawn"}, {&a_follows_discard, "_follows_discard"},
    {&a_variant_state, "variant_state"}, {&a_rules, "rules"}, {&a_on_event, "on_event"},
    {&a_claim_options, "_claim_options"}, {&a_window_options, "window_options"},
    {&a_window_seats, "window_seats"}, {&a_decisions, "decisions"}, {&a_phase, "phase"},
    {&a_turn_cache, "_turn_cache"}, {&a_window_from, "window_from"},
    {&a_window_tile, "window_tile"}, {&a_hi, "hi"}, {&a_lo, "lo"}, {&a_variant, "variant"},
    {&a_draw_end_live, "draw_end_live"}, {&a_end_draw, "_end_draw"}, {&a_wall, "wall"},
    {&a_receive, "_receive"}, {&a_follows_draw, "_follows_draw"},
    {&a_last_drawer, "last_drawer"}, {&a_current, "current"}, {&a_can_win_now, "can_win_now"},
    {&a_missed_win, "missed_win"}, {&a_missed_peng, "missed_peng"},
    {&a_claim_end_live, "claim_end_live"}, {&a_final_live, "final_live"},
    {&a_last_turn, "last_turn"}, {&a_final_turn, "final_turn"}, {&a_claims, "claims"},
    {&a_wild_discard_claims, "wild_discard_claims"}, {&a_meld_wilds, "meld_wilds"},
    {&a_melds, "melds"}, {&a_shapes, "shapes"}, {&a_kong_min_live, "kong_min_live"},
    {&a_limits_self_draw, "_limits_self_draw"}, {&a_can_self_draw, "can_self_draw"},
    {&a_instant_win, "instant_win"}, {&a_filters_turn, "_filters_turn"},
    {&a_filter_turn, "filter_turn"}, {&a_own_kongs, "_own_kongs"}, {&a_history, "history"},
    {&a_auto_pass, "auto_pass"}, {&a_result, "result_"}, {&a_kind, "kind"}, {&a_tiles, "tiles"},
    {&k_wild, "wild"}, {&k_seven_pairs, "seven_pairs"},
    {&k_thirteen_orphans, "thirteen_orphans"},
};

PyMODINIT_FUNC PyInit__speedups(void) {
    for (size_t i = 0; i < sizeof(NAMES) / sizeof(NAMES[0]); i++)
        if (!(*NAMES[i].slot = PyUnicode_InternFromString(NAMES[i].text))) return NULL;
    if (!(EMPTY = PyTuple_New(0))) return NULL;
    return PyModule_Create(&module);
}
