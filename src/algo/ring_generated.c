/* ring_generated.c — ring AR / AG / RS (explainer 01 §5.1, §6) on ranks
 * 0..N-1, one channel, as a generator (schedule.h): op i of rank r is
 * computed from (r, i, N), dependencies included, and nothing is stored per
 * op, so that a ring of thousands of ranks runs in memory linear in N.
 *
 * The ops are those ring_schedule emits and schedule_seal completes
 * (ring_pass.c; tests/test_schedules.c holds them equal field by
 * field): each pass gives rank r, for steps t = 1..N-1, a send to r+1 then a
 * receive from r-1, ops 2(t-1) and 2(t-1)+1 of the pass; AR runs the
 * reduce-scatter pass then the all-gather pass.  Dependencies, in the order
 * sealing lists them:
 *   op 0 and op 1   none (the first step of the first pass);
 *   a send, o >= 2  the receive before it (its slice's producer, or the
 *                   previous pass's last receive), then the previous send on
 *                   its connection, o - 2;
 *   a receive, o>=3 the previous receive on its connection, o - 2 (at the
 *                   second pass's first step also the entry dependency on the
 *                   previous pass's last receive: the same op). */
#include "algo/algorithm.h"

/* Op O of rank R, without a division (it is read several times per
 * message): positions wrap by one comparison, as every offset is within
 * (-N, N). */
static sched_op ring_op(const schedule *s, int r, int o)
{
    int n = s->ranks, steps = n - 1;
    bool second = o >= 2 * steps; /* AR's all-gather pass */
    bool reduce = s->prim == PRIM_REDUCESCATTER || (s->prim == PRIM_ALLREDUCE && !second);
    int within = second ? o - 2 * steps : o, t = within / 2 + 1, shift = reduce ? 0 : 1;
    bool send = within % 2 == 0;
    int chunk = send ? r - t + shift : r - t - 1 + shift;
    sched_op op = {0};
    op.kind = (uint8_t)(send ? OP_SEND : reduce ? OP_RECV_REDUCE : OP_RECV);
    op.peer = send ? (r + 1 == n ? 0 : r + 1) : (r == 0 ? n - 1 : r - 1);
    op.chunk = chunk < 0 ? chunk + n : chunk;
    op.count = 1;
    op.dep_count = o < 2 ? 0 : send ? 2 : 1;
    return op;
}

static int ring_dep(const schedule *s, int r, int o, int k)
{
    (void)s;
    (void)r;
    return o % 2 == 0 && k == 0 ? o - 1 : o - 2;
}

static const sched_generator ring_generator = {ring_op, ring_dep, NULL, NULL};

schedule *ring_schedule_generated(primitive prim, int n, char *why, int why_size)
{
    if (n < 2) return ring_schedule(prim, n, why, why_size); /* its refusal */
    schedule *s = schedule_create(prim, n, 0, n);
    int passes = prim == PRIM_ALLREDUCE ? 2 : 1;
    for (int r = 0; r < n; r++) s->actor[r].op_count = passes * 2 * (n - 1);
    s->messages = (long)n * passes * (n - 1); /* half of each rank's ops are sends */
    s->generator = &ring_generator;
    s->sealed = true;
    return s;
}
