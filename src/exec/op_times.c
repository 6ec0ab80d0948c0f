/* op_times.c — per-message latencies from per-op times: each send is paired
 * with its receive as the executor matches them (per connection, in program
 * order: schedule_seal), then the later posting is subtracted from the
 * arrival. */
#include "exec/op_times.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/memory.h"

/* One end of a message: the connection and where its times are. */
typedef struct message_end {
    int from, to;
    long index; /* into the op times */
} message_end;

/* END[0..COUNT) reordered stably by BY (0: from, 1: to) into TMP, then
 * copied back: a counting sort over ACTORS keys, linear in COUNT. */
static void sort_ends_by(message_end *end, message_end *tmp, long count, int actors, int by, long *slot)
{
    for (int a = 0; a <= actors; a++) slot[a] = 0;
    for (long m = 0; m < count; m++) slot[(by ? end[m].to : end[m].from) + 1]++;
    for (int a = 0; a < actors; a++) slot[a + 1] += slot[a];
    for (long m = 0; m < count; m++) tmp[slot[by ? end[m].to : end[m].from]++] = end[m];
    for (long m = 0; m < count; m++) end[m] = tmp[m];
}

void op_times_latencies(const schedule *s, const net_op_time *times, const long *actor_first, double *latency_s)
{
    long messages = sched_messages(s), sends = 0, recvs = 0;
    message_end *send = malloc(sizeof *send * (size_t)(messages + 1));
    message_end *recv = malloc(sizeof *recv * (size_t)(messages + 1));
    message_end *tmp = malloc(sizeof *tmp * (size_t)(messages + 1));
    long *slot = malloc(sizeof *slot * ((size_t)s->actors + 1));
    /* collected actor by actor in program order: sends by (from, op), receives by (to, op) */
    for (int a = 0; a < s->actors; a++) {
        sched_cursor cursor;
        sched_cursor_init(&cursor, s, a);
        for (int o = 0; o < s->actor[a].op_count; o++) {
            sched_op op = sched_cursor_op(&cursor, o);
            long index = actor_first[a] + o;
            if (op.kind == OP_SEND) send[sends++] = (message_end){a, op.peer, index};
            else if (recvs < messages) recv[recvs++] = (message_end){op.peer, a, index};
        }
    }
    /* per connection in program order on both sides, (from, to, op): the k-th
     * send meets the k-th receive; stable sorts keep the program order */
    sort_ends_by(send, tmp, sends, s->actors, 1, slot);
    sort_ends_by(send, tmp, sends, s->actors, 0, slot);
    sort_ends_by(recv, tmp, recvs, s->actors, 0, slot);
    for (long m = 0; m < sends && m < recvs; m++) {
        const net_op_time *x = &times[send[m].index], *y = &times[recv[m].index];
        double start = fmax(x->posted_s, y->posted_s), arrival = fmax(x->done_s, y->done_s);
        latency_s[m] = arrival - start;
    }
    free(send);
    free(recv);
    free(tmp);
    free(slot);
}

/* Two messages of a connection in flight at most: the k-th in slot k % 2. */
typedef struct message_slot {
    double posted_s, done_s; /* the later of the two ends' so far */
    int ends;                /* events seen: two postings, two completions */
} message_slot;

struct message_connection {
    double *latency_s; /* this connection's first message's place */
    long count;        /* its messages */
    long posted[2];    /* messages posted so far by the sender [1] and the receiver [0] */
    message_slot slot[2];
};

struct message_log {
    uint64_t *keys; /* from * actors + to, increasing: connections[i]'s */
    message_connection *connections;
    long count;
    int actors;
};

static uint64_t pair_key(const message_log *l, int from, int to)
{
    return (uint64_t)from * (uint64_t)l->actors + (uint64_t)to;
}

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Whether each actor talks to each peer, in each direction, on one lane
 * (MARK: actors + 1 ints, all -1, left so). */
static bool one_lane_per_pair(const schedule *s, int *mark)
{
    if (s->channels < 2) return true; /* every op on channel 0 */
    for (int a = 0; a < s->actors; a++)
        for (int kind = 0; kind < 2; kind++) {
            bool same = true;
            sched_cursor cursor;
            sched_cursor_init(&cursor, s, a);
            for (int o = 0; o < s->actor[a].op_count; o++) {
                sched_op op = sched_cursor_op(&cursor, o);
                if ((op.kind == OP_SEND) != (kind == 0)) continue;
                if (mark[op.peer] < 0) mark[op.peer] = op.channel;
                else same &= mark[op.peer] == op.channel;
            }
            for (int o = 0; o < s->actor[a].op_count; o++) mark[sched_cursor_op(&cursor, o).peer] = -1;
            if (!same) return false;
        }
    return true;
}

/* Below this many messages per connection, per-op times take less room than
 * the connections' slots (an all-to-all sends one message per pair). */
#define MESSAGES_PER_CONNECTION_MIN 4

bool message_log_applies(const schedule *s)
{
    long pairs = 0;
    int *count = calloc((size_t)s->actors + 1, sizeof *count), *peers = malloc(sizeof *peers * ((size_t)s->actors + 1));
    for (int a = 0; a < s->actors; a++) {
        int distinct = sched_send_peers(s, a, count, peers);
        for (int i = 0; i < distinct; i++) count[peers[i]] = 0;
        pairs += distinct;
    }
    for (int a = 0; a < s->actors; a++) count[a] = -1; /* one_lane_per_pair's marks */
    bool applies = sched_messages(s) >= MESSAGES_PER_CONNECTION_MIN * pairs && one_lane_per_pair(s, count);
    free(count);
    free(peers);
    return applies;
}

message_log *message_log_open(const schedule *s, double *latency_s)
{
    int *count = calloc((size_t)s->actors + 1, sizeof *count), *peers = malloc(sizeof *peers * ((size_t)s->actors + 1));
    message_log *l = calloc(1, sizeof *l);
    l->actors = s->actors;
    /* each sender's peers in increasing order, their messages in program order: op_times_latencies' order */
    long next = 0;
    int key_capacity = 0, capacity = 0; /* doubling: counting the pairs first would be a scan more */
    for (int a = 0; a < s->actors; a++) {
        int distinct = sched_send_peers(s, a, count, peers);
        l->keys = grow_array(l->keys, &key_capacity, (int)l->count + distinct, sizeof *l->keys);
        l->connections = grow_array(l->connections, &capacity, (int)l->count + distinct, sizeof *l->connections);
        qsort(peers, (size_t)distinct, sizeof *peers, compare_ints);
        for (int i = 0; i < distinct; i++) {
            message_connection *c = &l->connections[l->count];
            l->keys[l->count++] = pair_key(l, a, peers[i]);
            *c = (message_connection){.latency_s = latency_s + next, .count = count[peers[i]]};
            next += c->count;
            count[peers[i]] = 0;
        }
    }
    free(count);
    free(peers);
    return l;
}

message_connection *message_log_connection(message_log *l, int from, int to)
{
    uint64_t key = pair_key(l, from, to);
    long low = 0, high = l->count;
    while (low < high) {
        long middle = (low + high) / 2;
        if (l->keys[middle] < key) low = middle + 1;
        else high = middle;
    }
    return low < l->count && l->keys[low] == key ? &l->connections[low] : NULL;
}

/* One more end of message K of C seen; the fourth writes its latency. */
static void message_end_seen(message_connection *c, long k, double posted_s, double done_s)
{
    if (k < 0 || k >= c->count) return; /* a receive without its send: the run deadlocks, and says so */
    message_slot *m = &c->slot[k % 2];
    if (m->ends == 0) *m = (message_slot){posted_s, done_s, 0};
    m->posted_s = fmax(m->posted_s, posted_s);
    m->done_s = fmax(m->done_s, done_s);
    if (++m->ends == 4) {
        c->latency_s[k] = m->done_s - m->posted_s;
        m->ends = 0;
    }
}

void message_log_posted(message_connection *c, bool send, double now)
{
    message_end_seen(c, c->posted[send]++, now, -INFINITY);
}

void message_log_done(message_connection *c, bool send, double now)
{
    message_end_seen(c, c->posted[send] - 1, -INFINITY, now);
}

void message_log_soon(const message_connection *c)
{
    __builtin_prefetch(c, 1);
    __builtin_prefetch((const char *)(c + 1) - 1, 1); /* the second slot may be on the next line */
}

void message_log_close(message_log *l)
{
    if (!l) return;
    free(l->keys);
    free(l->connections);
    free(l);
}

/* A double's place in the order of doubles, as an unsigned integer, and back. */
static uint64_t order_key(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u >> 63 ? ~u : u | UINT64_C(1) << 63;
}

static double key_value(uint64_t key)
{
    uint64_t u = key >> 63 ? key & ~(UINT64_C(1) << 63) : ~key;
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

#define DIGIT_BITS 16
#define DIGITS (1 << DIGIT_BITS)

/* The value of nearest rank ceil(PERCENT / 100 * COUNT) (integer arithmetic:
 * exact ranks) among the PARTS' COUNT values, found digit by digit of the
 * doubles' order keys from the top: each pass counts, by their next digit,
 * the values whose higher digits are those found so far (a radix select:
 * four passes, nothing sorted, the parts never copied into one array).
 * HISTOGRAM has DIGITS counts. */
static double nearest_rank(double *const *values, const long *counts, int parts, long count, long percent,
                           long *histogram)
{
    long rank = (count * percent + 99) / 100;
    if (rank < 1) rank = 1;
    uint64_t prefix = 0; /* the digits found, above SHIFT + DIGIT_BITS */
    for (int shift = 64 - DIGIT_BITS; shift >= 0; shift -= DIGIT_BITS) {
        memset(histogram, 0, sizeof *histogram * DIGITS);
        int above = shift + DIGIT_BITS;
        for (int k = 0; k < parts; k++)
            for (long i = 0; i < counts[k]; i++) {
                uint64_t key = order_key(values[k][i]);
                if (above < 64 && key >> above != prefix) continue;
                histogram[(key >> shift) & (DIGITS - 1)]++;
            }
        uint64_t d = 0;
        while (rank > histogram[d]) rank -= histogram[d++];
        prefix = prefix << DIGIT_BITS | d;
    }
    return key_value(prefix);
}

latency_summary latency_summarize_parts(double *const *values, const long *counts, int parts)
{
    latency_summary l = {0};
    for (int k = 0; k < parts; k++)
        for (long i = 0; i < counts[k]; i++) {
            double v = values[k][i];
            l.min_s = l.count == 0 ? v : fmin(l.min_s, v);
            l.max_s = l.count == 0 ? v : fmax(l.max_s, v);
            l.count++;
        }
    if (l.count == 0) return l;
    long *histogram = malloc(sizeof *histogram * DIGITS);
    if (!histogram) out_of_memory();
    l.p50_s = nearest_rank(values, counts, parts, l.count, 50, histogram);
    l.p99_s = nearest_rank(values, counts, parts, l.count, 99, histogram);
    free(histogram);
    return l;
}

latency_summary latency_summarize(double *values, long count)
{
    return latency_summarize_parts(&values, &count, 1);
}
