/* msccl_xml.c — a schedule as an MSCCL algorithm file (msccl_xml.h).
 *
 * Invariants:
 *   1. One threadblock per connection of a rank (channel, peer, direction):
 *      its steps are the connection's ops in program order, which is the
 *      order schedule_seal gives them, so reading the file back
 *      (msccl_import.c) gives every op the same dependencies.
 *   2. Each rank's data sits where MSCCL's collective puts it: all-reduce,
 *      broadcast and reduce in the input buffer (in place), all-gather in
 *      the output buffer (the input is rank r's share of it, in place),
 *      reduce-scatter in the input (the output is rank r's share), and
 *      all-to-all out of place: a rank's own blocks in its input, the
 *      blocks it is sent in its output, blocks it relays in scratch, and
 *      its block to itself copied (cpy) from input to output.
 *   3. A dependency on another threadblock is a depid / deps; an op with
 *      more than one gets a nop per extra one before it (MSCCL's runtime
 *      takes one per step); a depended-on step has hasdep="1".
 *   4. Nothing is written unless the whole file fits MSCCL's runtime limits.
 *   5. Every step carries collsim's own attribute `order`, the op's place in
 *      its rank's program, which MSCCL's runtime ignores (it reads the
 *      attributes it knows by name): read back, a rank's ops come in the
 *      same order, so ops that become ready at one instant are posted in
 *      the same order (which the packet model's ties depend on).
 *   6. A message whose chunks lie apart in a rank's buffers (PAT, Bruck and
 *      ring relay send several ranges as one message: one α) stays one
 *      message: the sender copies each run of them into scratch and sends
 *      from there, the receiver receives into scratch and copies (or adds)
 *      each run out; copies take no time in collsim's model. */
#include "sched/msccl_xml.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "algo/msccl_program.h"
#include "util/memory.h"

typedef struct place {
    msccl_buffer buffer;
    int offset;
} place;

typedef struct exporter {
    const schedule *s;
    int share;        /* chunks per rank's share (AG, RS, A2A), else the grid */
    int *position;    /* AG / RS: each grid chunk's index in MSCCL's common buffer */
    int **scratch;    /* A2A: per rank, each grid chunk's scratch offset (-1: none) */
    int *scratch_used;
    char *why;
    int why_size;
} exporter;

static bool refuse(exporter *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool refuse(exporter *x, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(x->why, (size_t)x->why_size, fmt, args);
    va_end(args);
    return false;
}

/* Grid chunk C on rank R (invariant 2). */
static place place_of(exporter *x, int r, int c)
{
    const schedule *s = x->s;
    switch (s->prim) {
    case PRIM_ALLGATHER: return (place){MSCCL_OUTPUT, x->position[c]};
    case PRIM_REDUCESCATTER: return (place){MSCCL_INPUT, x->position[c]};
    case PRIM_ALLTOALL: {
        int n = s->ranks, f = x->share, src = c / (n * f), dst = c / f % n, k = c % f;
        if (src == r) return (place){MSCCL_INPUT, dst * f + k};
        if (dst == r) return (place){MSCCL_OUTPUT, src * f + k};
        if (x->scratch[r][c] < 0) x->scratch[r][c] = x->scratch_used[r]++;
        return (place){MSCCL_SCRATCH, x->scratch[r][c]};
    }
    default: return (place){MSCCL_INPUT, c};
    }
}

/* The places of the COUNT chunks op OP of rank R moves (its ranges in order),
 * into PLACES; how many runs of chunks lie one after another there. */
static int op_places(exporter *x, int r, const sched_actor *a, const sched_op *op, place *places)
{
    int k = 0, runs = 0;
    for (int i = 0; i < sched_op_range_count(op); i++) {
        chunk_range range = sched_op_range(a, op, i);
        for (int c = range.first; c < range.first + range.count; c++, k++) {
            places[k] = place_of(x, r, c);
            runs += k == 0 || places[k].buffer != places[k - 1].buffer || places[k].offset != places[k - 1].offset + 1;
        }
    }
    return runs;
}

/* AG / RS: grid chunk c is the j-th chunk of its owner's share: MSCCL's index owner * share + j. */
static void share_positions(exporter *x)
{
    const schedule *s = x->s;
    int *taken = calloc((size_t)s->ranks, sizeof(int));
    x->position = malloc(sizeof(int) * (size_t)s->chunks);
    for (int c = 0; c < s->chunks; c++) {
        int owner = sched_slice_owner(s, c);
        x->position[c] = owner * x->share + taken[owner]++;
    }
    free(taken);
}

/* One threadblock: its connection and its steps (nops counted). */
typedef struct tb_info {
    long long key;
    int peer, channel, sends, steps;
} tb_info;

/* A rank's threadblocks: one per connection, numbered by their first op. */
typedef struct rank_tbs {
    int count;
    tb_info *tb;
    int *tb_of_op;        /* per op */
    int *step_of_op;      /* per op: its step index in its threadblock, nops before it counted */
    bool *depended;       /* per op: some other threadblock waits for it */
    int extra_first;      /* A2A: the local copy threadblock, or -1 */
} rank_tbs;

static long long connection_key(const sched_op *op)
{
    return ((long long)op->channel << 33) | ((long long)op->peer << 1) | (op->kind != OP_SEND);
}

/* The cross-threadblock dependencies of op O of actor A (same-threadblock ones
 * and ones an earlier step of its threadblock already waited for dropped), into DEPS. */
static int cross_deps(const schedule *s, const rank_tbs *t, int a, int o, int *latest, int *deps)
{
    const sched_actor *actor = &s->actor[a];
    const sched_op *op = &actor->ops[o];
    int count = 0, tb = t->tb_of_op[o];
    for (int d = 0; d < op->dep_count; d++) {
        int dep = actor->deps[op->dep_first + d], on = t->tb_of_op[dep];
        if (on == tb || latest[(size_t)tb * t->count + on] >= dep) continue;
        deps[count++] = dep;
    }
    for (int i = 0; i < count; i++) {
        int on = t->tb_of_op[deps[i]];
        if (deps[i] > latest[(size_t)tb * t->count + on]) latest[(size_t)tb * t->count + on] = deps[i];
    }
    return count;
}

static bool assign_tbs(exporter *x, int a, rank_tbs *t, int **latest)
{
    const schedule *s = x->s;
    const sched_actor *actor = &s->actor[a];
    int ops = actor->op_count;
    t->tb_of_op = malloc(sizeof(int) * (size_t)(ops + 1));
    t->step_of_op = malloc(sizeof(int) * (size_t)(ops + 1));
    t->depended = calloc((size_t)ops + 1, sizeof(bool));
    int capacity = 0;
    t->count = 0;
    t->tb = NULL;
    for (int o = 0; o < ops; o++) {
        const sched_op *op = &actor->ops[o];
        long long key = connection_key(op);
        int tb = 0;
        while (tb < t->count && t->tb[tb].key != key) tb++;
        if (tb == t->count) {
            t->tb = grow_array(t->tb, &capacity, ++t->count, sizeof *t->tb);
            t->tb[tb] = (tb_info){key, op->peer, op->channel, op->kind == OP_SEND, 0};
        }
        t->tb_of_op[o] = tb;
    }
    *latest = malloc(sizeof(int) * (size_t)t->count * (size_t)t->count + 1);
    for (long i = 0; i < (long)t->count * t->count; i++) (*latest)[i] = -1;
    int *deps = malloc(sizeof(int) * (size_t)(actor->dep_count + 1));
    place places[MSCCL_RUNTIME_COUNT];
    for (int o = 0; o < ops; o++) {
        int tb = t->tb_of_op[o];
        int count = cross_deps(s, t, a, o, *latest, deps);
        for (int i = 0; i < count; i++) t->depended[deps[i]] = true;
        int runs = actor->ops[o].count < MSCCL_RUNTIME_COUNT ? op_places(x, a, actor, &actor->ops[o], places) : 1;
        int packs = runs > 1 ? runs : 0; /* invariant 6 */
        t->tb[tb].steps += count > 1 ? count - 1 : 0; /* its nops */
        t->step_of_op[o] = t->tb[tb].steps + packs;
        t->tb[tb].steps += packs + 1;
    }
    free(deps);
    return true;
}

static void tbs_free(rank_tbs *t)
{
    free(t->tb_of_op);
    free(t->step_of_op);
    free(t->depended);
    free(t->tb);
}

static const char buffer_letter[MSCCL_BUFFERS] = {'i', 'o', 's'};

/* One step; ORDER (>= 0) is the op's place in its rank's program (collsim's own attribute, invariant 5). */
static void write_step(FILE *out, int index, const char *type, place src, place dst, int count, int dep_tb, int dep_step,
                       bool has_dep, int order)
{
    fprintf(out, "      <step s=\"%d\" type=\"%s\" srcbuf=\"%c\" srcoff=\"%d\" dstbuf=\"%c\" dstoff=\"%d\" cnt=\"%d\" "
            "depid=\"%d\" deps=\"%d\" hasdep=\"%d\"", index, type, buffer_letter[src.buffer], src.offset,
            buffer_letter[dst.buffer], dst.offset, count, dep_tb, dep_step, has_dep ? 1 : 0);
    if (order >= 0) fprintf(out, " order=\"%d\"", order);
    fprintf(out, "/>\n");
}

/* Every check of one rank against MSCCL's runtime limits (invariant 4). */
static bool within_limits(exporter *x, int a, const rank_tbs *t)
{
    const schedule *s = x->s;
    long nodes = 1 + s->ranks + t->count + (t->extra_first >= 0);
    int per_channel[SCHED_MAX_CHANNELS][2] = {{0}};
    for (int tb = 0; tb < t->count; tb++) {
        nodes += t->tb[tb].steps;
        if (t->tb[tb].steps > MSCCL_RUNTIME_STEPS)
            return refuse(x, "rank %d's threadblock to or from rank %d needs %d steps; MSCCL's runtime runs at most %d per "
                          "threadblock as built by default (MSCCL_MAX_NUM_STEPS)", a, t->tb[tb].peer, t->tb[tb].steps,
                          MSCCL_RUNTIME_STEPS);
        if (++per_channel[t->tb[tb].channel][t->tb[tb].sends] > MSCCL_RUNTIME_TBS_PER_CHANNEL)
            return refuse(x, "rank %d %s more than %d peers on channel %d, past MSCCL's threadblocks per channel", a,
                          t->tb[tb].sends ? "sends to" : "receives from", MSCCL_RUNTIME_TBS_PER_CHANNEL, t->tb[tb].channel);
    }
    if (t->count + 1 > MSCCL_RUNTIME_DEPENDABLE_TBS)
        return refuse(x, "rank %d needs %d threadblocks; MSCCL's dependencies name at most %d", a, t->count,
                      MSCCL_RUNTIME_DEPENDABLE_TBS);
    if (nodes > MSCCL_RUNTIME_NODES)
        return refuse(x, "rank %d's part of the file is %ld XML elements; MSCCL's parser holds at most %d", a, nodes,
                      MSCCL_RUNTIME_NODES);
    for (int o = 0; o < s->actor[a].op_count; o++)
        if (s->actor[a].ops[o].count >= MSCCL_RUNTIME_COUNT)
            return refuse(x, "rank %d moves %d chunks in one message; an MSCCL step moves fewer than %d", a,
                          s->actor[a].ops[o].count, MSCCL_RUNTIME_COUNT);
    return true;
}

/* Op O of rank A, whose chunks (at PLACES) lie apart in its buffers, as
 * steps from INDEX (invariant 6): a send copies each run of them into
 * scratch, then sends them from there; a receive receives into scratch, then
 * copies (a reduction: adds) each run out.  The first step waits for LAST
 * (an op, or -1); the op's last step signals when another threadblock
 * waits for it. */
static void write_packed(exporter *x, int a, const rank_tbs *t, int o, int index, int last, const place *places, FILE *out)
{
    const sched_op *op = &x->s->actor[a].ops[o];
    int dep_tb = last >= 0 ? t->tb_of_op[last] : -1, dep_step = last >= 0 ? t->step_of_op[last] : -1;
    int base = x->scratch_used[a];
    x->scratch_used[a] += op->count;
    place packed = {MSCCL_SCRATCH, base};
    bool send = op->kind == OP_SEND;
    if (!send) {
        write_step(out, index++, "r", packed, packed, op->count, dep_tb, dep_step, false, o);
        dep_tb = dep_step = -1;
    }
    for (int k = 0; k < op->count;) {
        int run = 1;
        while (k + run < op->count && places[k + run].buffer == places[k].buffer &&
               places[k + run].offset == places[k].offset + run)
            run++;
        place in_scratch = {MSCCL_SCRATCH, base + k};
        bool signals = !send && k + run == op->count && t->depended[o];
        write_step(out, index++, send || op->kind == OP_RECV ? "cpy" : "re", send ? places[k] : in_scratch,
                   send ? in_scratch : places[k], run, dep_tb, dep_step, signals, o);
        dep_tb = dep_step = -1;
        k += run;
    }
    if (send) write_step(out, index, "s", packed, packed, op->count, -1, -1, t->depended[o], o);
}

/* The threadblocks of rank A, written (their places checked first). */
static bool write_rank(exporter *x, int a, const rank_tbs *t, FILE *out)
{
    const schedule *s = x->s;
    const sched_actor *actor = &s->actor[a];
    int *latest = malloc(sizeof(int) * (size_t)t->count * (size_t)t->count + 1);
    int *deps = malloc(sizeof(int) * (size_t)(actor->dep_count + 1));
    for (long i = 0; i < (long)t->count * t->count; i++) latest[i] = -1;
    for (int tb = 0; tb < t->count; tb++) {
        fprintf(out, "    <tb id=\"%d\" send=\"%d\" recv=\"%d\" chan=\"%d\">\n", tb, t->tb[tb].sends ? t->tb[tb].peer : -1,
                t->tb[tb].sends ? -1 : t->tb[tb].peer, t->tb[tb].channel);
        for (int o = 0; o < actor->op_count; o++) {
            if (t->tb_of_op[o] != tb) continue;
            const sched_op *op = &actor->ops[o];
            place places[MSCCL_RUNTIME_COUNT];
            int runs = op_places(x, a, actor, op, places), packs = runs > 1 ? runs : 0;
            int count = cross_deps(s, t, a, o, latest, deps), index = t->step_of_op[o] - packs - (count > 1 ? count - 1 : 0);
            for (int i = 0; i + 1 < count; i++, index++)
                write_step(out, index, "nop", (place){MSCCL_INPUT, -1}, (place){MSCCL_OUTPUT, -1}, 0,
                           t->tb_of_op[deps[i]], t->step_of_op[deps[i]], false, -1);
            bool send = op->kind == OP_SEND;
            int last = count > 0 ? deps[count - 1] : -1;
            if (packs) {
                write_packed(x, a, t, o, index, last, places, out);
                continue;
            }
            /* one run of chunks; the far end's place is the peer's business (MSCCL reads src of s, dst of r) */
            write_step(out, index, send ? "s" : op->kind == OP_RECV ? "r" : "rrc", places[0], places[0], op->count,
                       last >= 0 ? t->tb_of_op[last] : -1,
                       last >= 0 ? t->step_of_op[last] : -1, t->depended[o], o);
        }
        fprintf(out, "    </tb>\n");
    }
    if (t->extra_first >= 0) { /* A2A: the rank's block to itself, input to output */
        fprintf(out, "    <tb id=\"%d\" send=\"-1\" recv=\"-1\" chan=\"0\">\n", t->count);
        int f = x->share;
        write_step(out, 0, "cpy", (place){MSCCL_INPUT, a * f}, (place){MSCCL_OUTPUT, a * f}, f, -1, -1, false, 0);
        fprintf(out, "    </tb>\n");
    }
    free(latest);
    free(deps);
    return true;
}

static bool expressible(exporter *x)
{
    const schedule *s = x->s;
    if (s->actors > s->ranks)
        return refuse(x, "its %d switch actors reduce or multicast inside the network (in-network collectives); MSCCL's "
                      "threadblocks run on GPUs only", s->actors - s->ranks);
    if (!msccl_coll_name(s->prim))
        return refuse(x, "MSCCL's runtime has no %s collective (its own: allreduce, allgather, reducescatter, alltoall, "
                      "broadcast, reduce)", primitive_name(s->prim));
    if (s->generator || s->slots > 0)
        return refuse(x, "only a schedule collsim builds and stores is written (not a generated one, nor one read from a file)");
    if (s->prim == PRIM_ALLTOALL && s->chunks % (s->ranks * s->ranks) != 0)
        return refuse(x, "its all-to-all grid of %d chunks is not N x N blocks", s->chunks);
    return true;
}

bool msccl_export(const schedule *s_in, const char *name, const char *protocol, FILE *out, char *why, int why_size)
{
    schedule *s = (schedule *)s_in;
    exporter x = {.s = s, .why = why, .why_size = why_size};
    if (!expressible(&x)) return false;
    schedule_seal(s);
    int n = s->ranks;
    bool shares = s->prim == PRIM_ALLGATHER || s->prim == PRIM_REDUCESCATTER;
    x.share = shares ? sched_slice_count(s) * (s->slice_positions > 0 ? s->slice_positions / n : 1)
              : s->prim == PRIM_ALLTOALL ? s->chunks / (n * n) : s->chunks;
    if (shares) share_positions(&x);
    if (s->prim == PRIM_ALLTOALL) {
        x.scratch = malloc(sizeof(int *) * (size_t)n);
        for (int r = 0; r < n; r++) {
            x.scratch[r] = malloc(sizeof(int) * (size_t)s->chunks);
            for (int c = 0; c < s->chunks; c++) x.scratch[r][c] = -1;
        }
    }
    x.scratch_used = calloc((size_t)n, sizeof(int));
    rank_tbs *tbs = calloc((size_t)n, sizeof *tbs);
    bool ok = true;
    for (int a = 0; a < n && ok; a++) {
        int *latest = NULL;
        ok = assign_tbs(&x, a, &tbs[a], &latest);
        tbs[a].extra_first = s->prim == PRIM_ALLTOALL ? tbs[a].count : -1;
        ok = ok && within_limits(&x, a, &tbs[a]);
        free(latest);
    }
    char *text = NULL;
    size_t size = 0;
    FILE *body = ok ? open_memstream(&text, &size) : NULL;
    for (int a = 0; a < n && ok; a++) { /* places first: scratch sizes are known once every rank's steps are */
        fprintf(body, "  <gpu id=\"%d\" i_chunks=\"%%I\" o_chunks=\"%%O\" s_chunks=\"%%S%d\">\n", a, a);
        ok = write_rank(&x, a, &tbs[a], body);
        fprintf(body, "  </gpu>\n");
    }
    if (body) fclose(body);
    if (ok) {
        int channels = 1, loop = s->prim == PRIM_ALLTOALL ? n * x.share : s->chunks;
        for (int a = 0; a < n; a++)
            for (int tb = 0; tb < tbs[a].count; tb++)
                if (tbs[a].tb[tb].channel + 1 > channels) channels = tbs[a].tb[tb].channel + 1;
        int input = s->prim == PRIM_ALLGATHER ? x.share : loop, output = s->prim == PRIM_REDUCESCATTER ? x.share : loop;
        fprintf(out, "<!-- %s: written by collsim schedule export (docs/schedules.md) -->\n", name);
        fprintf(out, "<algo name=\"%s\" proto=\"%s\" nchannels=\"%d\" nchunksperloop=\"%d\" ngpus=\"%d\" coll=\"%s\" "
                "inplace=\"%d\" outofplace=\"%d\" minBytes=\"0\" maxBytes=\"0\">\n", name, protocol, channels, loop, n,
                msccl_coll_name(s->prim), s->prim != PRIM_ALLTOALL, s->prim == PRIM_ALLTOALL);
        for (char *p = text; *p;) { /* fill in the buffer sizes */
            char *mark = strchr(p, '%');
            if (!mark) {
                fputs(p, out);
                break;
            }
            fwrite(p, 1, (size_t)(mark - p), out);
            if (mark[1] == 'I') fprintf(out, "%d", input), p = mark + 2;
            else if (mark[1] == 'O') fprintf(out, "%d", output), p = mark + 2;
            else {
                char *end;
                long r = strtol(mark + 2, &end, 10);
                fprintf(out, "%d", x.scratch_used[r]);
                p = end;
            }
        }
        fprintf(out, "</algo>\n");
    }
    free(text);
    for (int a = 0; a < n; a++) tbs_free(&tbs[a]);
    free(tbs);
    free(x.position);
    if (x.scratch)
        for (int r = 0; r < n; r++) free(x.scratch[r]);
    free(x.scratch);
    free(x.scratch_used);
    return ok;
}
