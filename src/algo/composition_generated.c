/* composition_generated.c — a two-tier composition (hierarchical.c) on one
 * slice as a generator (schedule.h): op o of a group rank is computed from
 * the parts' sub-schedules, which every sub-group shares, and the rank's
 * place in the group, so that nothing is stored per op of the composition
 * (16,416 ranks of ring on ring: 19.6 million ops, 0.9 GB stored).
 *
 * The ops are those sched_embed copies and schedule_seal completes
 * (tests/test_hierarchical.c holds them equal field by field).  Rank
 * (g, q), at position g·D + q, is child actor q of the inner parts (domain
 * g) and child actor g of the outer parts (position q); its ops are its
 * child actor's in each part, in part order.  An op's dependencies, in the
 * order the stored schedule lists them:
 *   1. its child op's own, in its part;
 *   2. when it has none: the sinks of the part before (sched_part_sinks);
 *   3. the previous op on its connection, which sealing appends when 1-2
 *      lack it: in its own part, or, for the first op on a connection, the
 *      last one of an earlier part of the same tier (the inner RS's last
 *      send to a peer, before the inner AG's first).
 * What 3 adds and 2 reads depends only on the part and the child actor: it
 * is kept per child op (`extra`) and per child actor (`sinks`). */
#include "algo/composition_generated.h"

#include <stdlib.h>

#include "sched/compose.h"
#include "util/memory.h"

#define PART_SHIFT 29 /* a dependency kept as (part << PART_SHIFT) | op of that part */

typedef struct part_form {
    schedule *child; /* NULL: the tier has one rank, the part is absent */
    bool outer;
    int prev;        /* the part whose sinks its first ops wait for (-1: none) */
    int width;       /* parent chunks per child chunk */
    long span;       /* an outer part's chunks per position */
    int *op_first;   /* per child actor (and one past): its first op in `extra` */
    int32_t *extra;  /* per child op: the dependency sealing appends, (part, op), or -1 */
    int *sink_first; /* per child actor (and one past): its sinks in `sinks` */
    int *sinks;
} part_form;

/* A group rank's place, worked out once: every op read of it (at setup,
 * and at every message of a run, where the child actors' lines are cold)
 * reads this line, without a division or a walk over the parts. */
typedef struct rank_place {
    int g, q;                             /* its position g·D + q */
    int base[COMPOSITION_MAX_PARTS + 1];  /* each part's first op of the rank, and one past its last */
} rank_place;

typedef struct composed {
    int part_count, d;
    part_form part[COMPOSITION_MAX_PARTS];
    int *rank_at;      /* position -> group rank */
    rank_place *place; /* by group rank */
} composed;

/* The child actor of part I that the rank at place P is. */
static int child_actor(const composed *c, int i, const rank_place *p)
{
    return c->part[i].outer ? p->g : p->q;
}

/* The part op O of the rank at place P sits in (a part without ops has
 * none: its base is the next one's). */
static int locate(const composed *c, const rank_place *p, int o)
{
    int i = 0;
    while (i + 1 < c->part_count && o >= p->base[i + 1]) i++;
    return i;
}

static int sink_count(const composed *c, int i, const rank_place *p)
{
    const part_form *f = &c->part[i];
    int j = child_actor(c, i, p);
    return f->sink_first[j + 1] - f->sink_first[j];
}

/* The op at LOCAL in part I of the rank at place P. */
static inline sched_op part_op(const composed *c, const rank_place *p, int i, int local)
{
    const part_form *f = &c->part[i];
    int j = child_actor(c, i, p), g = p->g, q = p->q;
    const sched_op *t = &f->child->actor[j].ops[local];
    sched_op op = *t;
    op.phase = (uint8_t)i;
    op.peer = c->rank_at[f->outer ? t->peer * c->d + q : g * c->d + t->peer];
    op.chunk = (int32_t)((f->outer ? q * f->span : 0) + (long)t->chunk * f->width);
    op.count = t->count * f->width;
    op.dep_first = 0;
    if (t->dep_count == 0 && f->prev >= 0) op.dep_count += sink_count(c, f->prev, p);
    if (f->extra[f->op_first[j] + local] >= 0) op.dep_count++;
    return op;
}

static sched_op composed_op(const schedule *s, int a, int o)
{
    const composed *c = s->generator_state;
    const rank_place *p = &c->place[a];
    int i = locate(c, p, o);
    return part_op(c, p, i, o - p->base[i]);
}

/* Ops FIRST .. FIRST + COUNT - 1 of rank A, part by part. */
static void composed_ops(const schedule *s, int a, int first, int count, sched_op *out)
{
    const composed *c = s->generator_state;
    const rank_place *p = &c->place[a];
    for (int o = first, end = first + count; o < end;) {
        int i = locate(c, p, o), stop = i + 1 < c->part_count && p->base[i + 1] < end ? p->base[i + 1] : end;
        for (; o < stop; o++) out[o - first] = part_op(c, p, i, o - p->base[i]);
    }
}

static int composed_dep(const schedule *s, int a, int o, int k)
{
    const composed *c = s->generator_state;
    const rank_place *p = &c->place[a];
    int i = locate(c, p, o), j = child_actor(c, i, p), local = o - p->base[i];
    const int *base = p->base;
    const part_form *f = &c->part[i];
    const sched_actor *child = &f->child->actor[j];
    const sched_op *t = &child->ops[local];
    if (k < t->dep_count) return base[i] + child->deps[t->dep_first + k];
    k -= t->dep_count;
    if (t->dep_count == 0 && f->prev >= 0) {
        const part_form *before = &c->part[f->prev];
        int jj = child_actor(c, f->prev, p), count = before->sink_first[jj + 1] - before->sink_first[jj];
        if (k < count) return base[f->prev] + before->sinks[before->sink_first[jj] + k];
    }
    int32_t extra = f->extra[f->op_first[j] + local];
    return base[extra >> PART_SHIFT] + (extra & ((1 << PART_SHIFT) - 1));
}

static void composed_release(void *state)
{
    composed *c = state;
    for (int i = 0; i < c->part_count; i++) {
        part_form *f = &c->part[i];
        schedule_free(f->child);
        free(f->op_first);
        free(f->extra);
        free(f->sink_first);
        free(f->sinks);
    }
    free(c->rank_at);
    free(c->place);
    free(c);
}

static const sched_generator composed_generator = {composed_op, composed_dep, composed_release, composed_ops};

/* Whether the generator computes CHILD's ops as sched_embed copies them:
 * plain ranges, one channel, no local op, ops on every actor. */
bool composition_part_generable(const schedule *child)
{
    if (child->actors != child->ranks || child->channels > 1) return false;
    for (int a = 0; a < child->actors; a++) {
        if (child->actor[a].op_count == 0 || child->actor[a].op_count >= 1 << PART_SHIFT) return false;
        for (int o = 0; o < child->actor[a].op_count; o++) {
            const sched_op *op = &child->actor[a].ops[o];
            if (op->range_count > 0 || op->channel != 0 || sched_op_local(op)) return false;
        }
    }
    return true;
}

/* Part I's sinks, per child actor. */
static void find_sinks(part_form *f)
{
    const schedule *child = f->child;
    long ops = 0;
    for (int j = 0; j < child->actors; j++) ops += child->actor[j].op_count;
    f->sink_first = malloc(sizeof(int) * ((size_t)child->actors + 1));
    f->sinks = malloc(sizeof(int) * ((size_t)ops + 1));
    f->op_first = malloc(sizeof(int) * ((size_t)child->actors + 1));
    f->extra = malloc(sizeof(int32_t) * ((size_t)ops + 1));
    if (!f->sink_first || !f->sinks || !f->op_first || !f->extra) out_of_memory();
    int count = 0, first = 0;
    for (int j = 0; j < child->actors; j++) {
        f->sink_first[j] = count;
        f->op_first[j] = first;
        count += sched_part_sinks(&child->actor[j], 0, child->actor[j].op_count, f->sinks + count);
        first += child->actor[j].op_count;
    }
    f->sink_first[child->actors] = count;
    f->op_first[child->actors] = first;
}

static bool listed(const int32_t *list, int count, int value)
{
    for (int k = 0; k < count; k++)
        if (list[k] == value) return true;
    return false;
}

/* Each op's dependency from sealing (`extra`), child actor J of the parts
 * of one tier (OUTER) in order: LAST (2 x the sub-group's ranks, all -1)
 * holds the latest op on each connection so far, as (part, op). */
static void find_extras(composed *c, bool outer, int j, int32_t *last, int slots)
{
    for (int i = 0; i < c->part_count; i++) {
        part_form *f = &c->part[i];
        if (!f->child || f->outer != outer) continue;
        const sched_actor *child = &f->child->actor[j];
        for (int o = 0; o < child->op_count; o++) {
            const sched_op *op = &child->ops[o];
            int slot = op->peer * 2 + (op->kind != OP_SEND);
            int32_t before = last[slot], *extra = &f->extra[f->op_first[j] + o];
            *extra = before;
            if (before >= 0 && before >> PART_SHIFT == i) { /* in its part: unless its own dependencies hold it */
                if (listed(child->deps + op->dep_first, op->dep_count, before & ((1 << PART_SHIFT) - 1))) *extra = -1;
            } else if (before >= 0 && op->dep_count == 0 && f->prev == before >> PART_SHIFT) { /* unless a sink */
                const part_form *p = &c->part[f->prev];
                const int *sinks = p->sinks + p->sink_first[j];
                for (int k = 0; k < p->sink_first[j + 1] - p->sink_first[j]; k++)
                    if (sinks[k] == (before & ((1 << PART_SHIFT) - 1))) *extra = -1;
            }
            last[slot] = (int32_t)(i << PART_SHIFT | o);
        }
    }
    for (int k = 0; k < slots; k++) last[k] = -1;
}

bool composition_generate(schedule *s, const composition_part *parts, int part_count, const int *rank_at, int d,
                          schedule **child)
{
    int n = s->ranks, l = n / d;
    for (int i = 0; i < part_count; i++)
        if (child[i] && !composition_part_generable(child[i])) return false;
    composed *c = calloc(1, sizeof *c);
    c->part_count = part_count;
    c->d = d;
    c->rank_at = malloc(sizeof(int) * (size_t)n);
    c->place = malloc(sizeof *c->place * (size_t)n);
    if (!c->rank_at || !c->place) out_of_memory();
    for (int position = 0; position < n; position++) {
        c->rank_at[position] = rank_at ? rank_at[position] : position;
        c->place[c->rank_at[position]] = (rank_place){.g = position / d, .q = position % d};
    }
    int prev = -1;
    for (int i = 0; i < part_count; i++) {
        part_form *f = &c->part[i];
        sched_set_phase(s, i, parts[i].phase);
        *f = (part_form){.child = child[i], .outer = parts[i].outer, .prev = prev};
        if (!f->child) continue;
        f->span = parts[i].outer ? s->chunks / d : s->chunks;
        f->width = (int)(f->span / f->child->chunks);
        if (f->child->segments > s->segments) s->segments = f->child->segments;
        s->messages += sched_messages(f->child) * (parts[i].outer ? d : l);
        find_sinks(f);
        prev = i;
    }
    int32_t *last = malloc(sizeof(int32_t) * 2 * ((size_t)(d > l ? d : l) + 1));
    for (int k = 0; k < 2 * (d > l ? d : l); k++) last[k] = -1;
    for (int j = 0; j < d; j++) find_extras(c, false, j, last, 2 * d);
    for (int j = 0; j < l; j++) find_extras(c, true, j, last, 2 * l);
    free(last);
    for (int a = 0; a < n; a++) {
        rank_place *p = &c->place[a];
        for (int i = 0; i < part_count; i++) {
            p->base[i] = s->actor[a].op_count;
            if (c->part[i].child) s->actor[a].op_count += c->part[i].child->actor[child_actor(c, i, p)].op_count;
        }
        p->base[part_count] = s->actor[a].op_count;
    }
    s->generator = &composed_generator;
    s->generator_state = c;
    s->sealed = true;
    return true;
}
