/* msccl_read.c — reading an MSCCL algorithm file (msccl_program.h) with
 * libxml2, every rule checked with the line it is about.
 *
 * The file is untrusted input: its size is bounded before parsing, libxml2
 * reads it without the network, without a DTD and without substituting
 * entities (a DOCTYPE is refused), the elements must nest exactly algo >
 * gpu > tb > step, and every number is decimal and inside the bounds of
 * msccl_program.h.  The rules are those of MSCCL's runtime parser, where it
 * has them (step types, buffers, offsets inside their buffer, one send and
 * one receive peer per threadblock, threadblock ids 0..T-1), plus those its
 * runtime needs to finish: a dependency names a step that exists and
 * signals (hasdep="1"), a nop is followed by a step with a dependency. */
#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/msccl_program.h"
#include "util/memory.h"

static const char *const step_names[MSCCL_STEP_TYPES] = {"s", "r", "rcs", "rrs", "rrc", "rrcs", "cpy", "re", "nop"};

const char *msccl_step_name(msccl_step_type t)
{
    return t < MSCCL_STEP_TYPES ? step_names[t] : "?";
}

/* MSCCL's collective names (its runtime's; msccl-tools writes reduce_scatter). */
static const struct { const char *name; primitive prim; } colls[] = {
    {"allreduce", PRIM_ALLREDUCE}, {"allgather", PRIM_ALLGATHER}, {"reducescatter", PRIM_REDUCESCATTER},
    {"reduce_scatter", PRIM_REDUCESCATTER}, {"alltoall", PRIM_ALLTOALL}, {"broadcast", PRIM_BCAST},
    {"reduce", PRIM_REDUCE},
};

bool msccl_coll_primitive(const char *coll, primitive *prim)
{
    for (size_t i = 0; i < sizeof colls / sizeof colls[0]; i++)
        if (strcmp(colls[i].name, coll) == 0) {
            *prim = colls[i].prim;
            return true;
        }
    return false;
}

const char *msccl_coll_name(primitive prim)
{
    for (size_t i = 0; i < sizeof colls / sizeof colls[0]; i++)
        if (colls[i].prim == prim) return colls[i].name;
    return NULL;
}

typedef struct reader {
    msccl_program *p;
    diag *d;
    int tb_capacity;
    long step_capacity;
} reader;

static int line_of(const xmlNode *n)
{
    long line = xmlGetLineNo(n);
    return line > 0 && line < INT_MAX ? (int)line : 0;
}

static bool fail_at(reader *r, const xmlNode *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool fail_at(reader *r, const xmlNode *n, const char *fmt, ...)
{
    char message[900];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    return diag_at(r->d, r->p->path, n ? line_of(n) : 0, 0, "%s", message);
}

/* Attribute NAME of N as text (NULL when absent; the caller frees). */
static char *attribute(const xmlNode *n, const char *name)
{
    return (char *)xmlGetNoNsProp(n, (const xmlChar *)name);
}

/* A required attribute: absent is an error naming what to write. */
static char *require(reader *r, const xmlNode *n, const char *name, const char *example)
{
    char *value = attribute(n, name);
    if (!value)
        fail_at(r, n, "<%s> has no '%s' attribute, which MSCCL's runtime requires: add it, e.g. %s=\"%s\"",
                (const char *)n->name, name, name, example);
    return value;
}

/* A decimal integer attribute in [LOW, HIGH]. */
static bool integer(reader *r, const xmlNode *n, const char *name, long long low, long long high, const char *example,
                    bool required, long long *out)
{
    char *text = required ? require(r, n, name, example) : attribute(n, name);
    if (!text) return !required;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    bool ok = end != text && *end == '\0' && errno == 0 && v >= low && v <= high;
    if (!ok) fail_at(r, n, "'%s' must be a decimal integer from %lld to %lld, not \"%.40s\"", name, low, high, text);
    xmlFree(text);
    *out = v;
    return ok;
}

static bool int_attribute(reader *r, const xmlNode *n, const char *name, long long low, long long high,
                          const char *example, int *out)
{
    long long v;
    if (!integer(r, n, name, low, high, example, true, &v)) return false;
    *out = (int)v;
    return true;
}

static bool text_attribute(reader *r, const xmlNode *n, const char *name, const char *example, char *out, size_t size)
{
    char *text = require(r, n, name, example);
    if (!text) return false;
    bool ok = strlen(text) < size;
    if (ok) snprintf(out, size, "%s", text);
    else fail_at(r, n, "'%s' is longer than collsim takes (%zu characters)", name, size - 1);
    xmlFree(text);
    return ok;
}

static bool buffer_attribute(reader *r, const xmlNode *n, const char *name, msccl_buffer *out)
{
    char *text = require(r, n, name, "i");
    if (!text) return false;
    bool ok = strlen(text) == 1 && strchr("ios", text[0]);
    if (ok) *out = text[0] == 'i' ? MSCCL_INPUT : text[0] == 'o' ? MSCCL_OUTPUT : MSCCL_SCRATCH;
    else fail_at(r, n, "'%s' must name a buffer: i (input), o (output) or s (scratch), not \"%.40s\"", name, text);
    xmlFree(text);
    return ok;
}

/* The element children of N, each required to be named CHILD. */
static bool children_named(reader *r, const xmlNode *n, const char *child)
{
    for (const xmlNode *c = n->children; c; c = c->next) {
        if (c->type == XML_TEXT_NODE || c->type == XML_COMMENT_NODE) {
            if (c->type == XML_TEXT_NODE && c->content && strspn((const char *)c->content, " \t\r\n") != strlen((const char *)c->content))
                return fail_at(r, c, "text inside <%s>: MSCCL's format has elements only; remove it", (const char *)n->name);
            continue;
        }
        if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, child) != 0)
            return fail_at(r, c, "<%s> holds only <%s> elements", (const char *)n->name, child);
    }
    return true;
}

static bool read_step(reader *r, const xmlNode *n, msccl_step *s)
{
    long long v;
    s->line = line_of(n);
    char *type = require(r, n, "type", "s");
    if (!type) return false;
    int t = 0;
    while (t < MSCCL_STEP_TYPES && strcmp(step_names[t], type) != 0) t++;
    if (t == MSCCL_STEP_TYPES) {
        fail_at(r, n, "unknown step type \"%.40s\": MSCCL's are s, r, rcs, rrs, rrc, rrcs, cpy, re and nop", type);
        xmlFree(type);
        return false;
    }
    xmlFree(type);
    s->type = (msccl_step_type)t;
    if (!buffer_attribute(r, n, "srcbuf", &s->src_buffer) || !buffer_attribute(r, n, "dstbuf", &s->dst_buffer) ||
        !int_attribute(r, n, "srcoff", -1, MSCCL_MAX_BUFFER_CHUNKS, "0", &s->src_offset) ||
        !int_attribute(r, n, "dstoff", -1, MSCCL_MAX_BUFFER_CHUNKS, "0", &s->dst_offset) ||
        !int_attribute(r, n, "cnt", 0, MSCCL_MAX_BUFFER_CHUNKS, "1", &s->count) ||
        !int_attribute(r, n, "depid", -1, MSCCL_MAX_THREADBLOCKS - 1, "-1", &s->dep_tb) ||
        !int_attribute(r, n, "deps", -1, INT_MAX, "-1", &s->dep_step) || !integer(r, n, "hasdep", 0, 1, "0", true, &v))
        return false;
    s->has_dep = v == 1;
    if (!integer(r, n, "order", 0, INT_MAX, "0", false, &v)) return false;
    char *order = attribute(n, "order");
    s->order = order ? (int)v : -1;
    xmlFree(order);
    if (s->type != MSCCL_NOP && s->count < 1)
        return fail_at(r, n, "a %s step moves at least one chunk: set cnt to 1 or more", step_names[s->type]);
    if ((s->dep_tb < 0) != (s->dep_step < 0))
        return fail_at(r, n, "depid and deps name a dependency together: both -1 (none) or both set");
    return true;
}

static bool read_tb(reader *r, const xmlNode *n, msccl_tb *tb)
{
    tb->line = line_of(n);
    if (!int_attribute(r, n, "id", 0, MSCCL_MAX_THREADBLOCKS - 1, "0", &tb->id) ||
        !int_attribute(r, n, "send", -1, MSCCL_MAX_GPUS - 1, "-1", &tb->send) ||
        !int_attribute(r, n, "recv", -1, MSCCL_MAX_GPUS - 1, "-1", &tb->recv) ||
        !int_attribute(r, n, "chan", 0, MSCCL_MAX_CHANNELS - 1, "0", &tb->channel) || !children_named(r, n, "step"))
        return false;
    tb->step_first = (int)r->p->step_count;
    for (const xmlNode *c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE) continue;
        if (r->p->step_count >= MSCCL_MAX_STEPS_TOTAL)
            return fail_at(r, c, "more than %ld steps: collsim reads at most that many", MSCCL_MAX_STEPS_TOTAL);
        if (r->p->step_count == r->step_capacity) {
            r->step_capacity = r->step_capacity ? 2 * r->step_capacity : 256;
            r->p->steps = realloc(r->p->steps, sizeof *r->p->steps * (size_t)r->step_capacity);
            if (!r->p->steps) out_of_memory();
        }
        msccl_step *s = &r->p->steps[r->p->step_count];
        long long position;
        if (!integer(r, c, "s", 0, INT_MAX, "0", true, &position) || !read_step(r, c, s)) return false;
        long expected = r->p->step_count - tb->step_first;
        if (position != expected)
            return fail_at(r, c, "step s=\"%lld\" is out of order: a threadblock numbers its steps 0, 1, 2, ... as "
                           "they come (MSCCL's dependencies count them so): write s=\"%ld\"", position, expected);
        r->p->step_count++;
    }
    tb->step_count = (int)(r->p->step_count - tb->step_first);
    return true;
}

static int compare_tb_ids(const void *a, const void *b)
{
    return ((const msccl_tb *)a)->id - ((const msccl_tb *)b)->id;
}

static bool read_gpu(reader *r, const xmlNode *n, msccl_gpu *g)
{
    msccl_program *p = r->p;
    g->line = line_of(n);
    static const char *const names[MSCCL_BUFFERS] = {"i_chunks", "o_chunks", "s_chunks"};
    for (int b = 0; b < MSCCL_BUFFERS; b++)
        if (!int_attribute(r, n, names[b], 0, MSCCL_MAX_BUFFER_CHUNKS, "1", &g->chunks[b])) return false;
    if (!children_named(r, n, "tb")) return false;
    g->tb_first = p->tb_count;
    for (const xmlNode *c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE) continue;
        if (p->tb_count - g->tb_first >= MSCCL_MAX_THREADBLOCKS)
            return fail_at(r, c, "more than %d threadblocks on one GPU (MSCCL's 32 channels x 32)", MSCCL_MAX_THREADBLOCKS);
        p->tbs = grow_array(p->tbs, &r->tb_capacity, p->tb_count + 1, sizeof *p->tbs);
        if (!read_tb(r, c, &p->tbs[p->tb_count])) return false;
        p->tb_count++;
    }
    g->tb_count = p->tb_count - g->tb_first;
    qsort(p->tbs + g->tb_first, (size_t)g->tb_count, sizeof *p->tbs, compare_tb_ids);
    for (int i = 0; i < g->tb_count; i++)
        if (p->tbs[g->tb_first + i].id != i)
            return fail_at(r, n, "this GPU's threadblock ids must be 0, 1, ... without a gap or a repeat (MSCCL's "
                           "runtime refuses them otherwise): id %d is %s", i,
                           p->tbs[g->tb_first + i].id == i - 1 ? "repeated" : "missing");
    return true;
}

static bool read_algo(reader *r, const xmlNode *n)
{
    msccl_program *p = r->p;
    long long v;
    p->line = line_of(n);
    if (strcmp((const char *)n->name, "algo") != 0)
        return fail_at(r, n, "the top element is <%s>; an MSCCL algorithm file starts with <algo>", (const char *)n->name);
    char *name = attribute(n, "name");
    snprintf(p->name, sizeof p->name, "%.*s", (int)sizeof p->name - 1, name ? name : "");
    xmlFree(name);
    if (!text_attribute(r, n, "proto", "Simple", p->protocol, sizeof p->protocol) ||
        !text_attribute(r, n, "coll", "allreduce", p->coll, sizeof p->coll) ||
        !int_attribute(r, n, "nchannels", 1, MSCCL_MAX_CHANNELS, "1", &p->nchannels) ||
        !int_attribute(r, n, "nchunksperloop", 1, MSCCL_MAX_BUFFER_CHUNKS, "8", &p->nchunksperloop) ||
        !int_attribute(r, n, "ngpus", 1, MSCCL_MAX_GPUS, "8", &p->ngpus) || !integer(r, n, "inplace", 0, 1, "1", true, &v))
        return false;
    p->inplace = v == 1;
    p->has_outofplace = true;
    if (!integer(r, n, "outofplace", 0, 1, "0", false, &v)) return false;
    char *present = attribute(n, "outofplace");
    p->has_outofplace = present != NULL;
    xmlFree(present);
    p->outofplace = p->has_outofplace ? v == 1 : !p->inplace;
    long long low = -1, high = -1;
    if (!integer(r, n, "minBytes", 0, LLONG_MAX, "0", false, &low) || !integer(r, n, "maxBytes", 0, LLONG_MAX, "0", false, &high))
        return false;
    char *min = attribute(n, "minBytes"), *max = attribute(n, "maxBytes");
    p->has_size_range = min && max;
    p->min_bytes = min ? low : 0;
    p->max_bytes = max ? high : 0;
    xmlFree(min);
    xmlFree(max);
    if (strcmp(p->protocol, "Simple") != 0 && strcmp(p->protocol, "LL128") != 0 && strcmp(p->protocol, "LL") != 0)
        return fail_at(r, n, "proto \"%s\" is not one of MSCCL's: Simple, LL128 or LL", p->protocol);
    if (!msccl_coll_primitive(p->coll, &p->prim))
        return fail_at(r, n, "coll \"%s\" is not a collective collsim imports: allreduce, allgather, reducescatter, "
                       "alltoall, broadcast or reduce", p->coll);
    if (!children_named(r, n, "gpu")) return false;
    p->gpus = calloc((size_t)p->ngpus, sizeof *p->gpus);
    bool *seen = calloc((size_t)p->ngpus, 1);
    bool ok = true;
    int count = 0;
    for (const xmlNode *c = n->children; c && ok; c = c->next) {
        if (c->type != XML_ELEMENT_NODE) continue;
        int id;
        ok = int_attribute(r, c, "id", 0, p->ngpus - 1, "0", &id);
        if (ok && seen[id]) ok = fail_at(r, c, "a second <gpu> with this id: each of the ngpus GPUs has one");
        if (ok) {
            seen[id] = true;
            p->gpus[id].id = id;
            ok = read_gpu(r, c, &p->gpus[id]);
            count++;
        }
    }
    free(seen);
    if (ok && count != p->ngpus) ok = fail_at(r, n, "ngpus is %d, it lists %d: give one <gpu> per rank", p->ngpus, count);
    return ok;
}

/* The file's text, bounded; false with D. */
static char *read_bounded(const char *path, long *size, diag *d)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_fail(d, "%s: cannot open the MSCCL file: %s", path, strerror(errno));
        return NULL;
    }
    char *text = malloc(MSCCL_FILE_MAX_BYTES + 1);
    size_t n = fread(text, 1, MSCCL_FILE_MAX_BYTES + 1, f);
    fclose(f);
    if (n > MSCCL_FILE_MAX_BYTES) {
        free(text);
        diag_at(d, path, 0, 0, "larger than %ld MiB: collsim reads MSCCL files up to that size (docs/reliability.md)",
                MSCCL_FILE_MAX_BYTES >> 20);
        return NULL;
    }
    *size = (long)n;
    return text;
}

static void quiet_errors(void *context, const char *fmt, ...)
{
    (void)context;
    (void)fmt;
}

bool msccl_program_load(const char *path, msccl_program *p, diag *d)
{
    long size;
    char *text = read_bounded(path, &size, d);
    if (!text) return false;
    bool ok = msccl_program_parse(path, text, size, p, d);
    free(text);
    return ok;
}

bool msccl_program_parse(const char *name, const char *text, long size, msccl_program *p, diag *d)
{
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", name);
    if (size > MSCCL_FILE_MAX_BYTES)
        return diag_at(d, name, 0, 0, "larger than %ld MiB: collsim reads MSCCL files up to that size (docs/reliability.md)",
                       MSCCL_FILE_MAX_BYTES >> 20);
    xmlSetGenericErrorFunc(NULL, quiet_errors);
    xmlDoc *doc = xmlReadMemory(text, (int)size, name, NULL, XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR |
                                XML_PARSE_BIG_LINES | XML_PARSE_NOCDATA);
    if (!doc) {
        const xmlError *e = xmlGetLastError();
        char message[512];
        snprintf(message, sizeof message, "%s", e && e->message ? e->message : "not well-formed XML");
        message[strcspn(message, "\n")] = '\0';
        return diag_at(d, name, e ? e->line : 0, e && e->int2 > 0 ? e->int2 : 0,
                       "not well-formed XML: %s; fix the file (an MSCCL algorithm is <algo> > <gpu> > <tb> > <step>)", message);
    }
    reader r = {.p = p, .d = d};
    bool ok;
    if (doc->intSubset || doc->extSubset)
        ok = fail_at(&r, (const xmlNode *)doc->intSubset, "a DOCTYPE: MSCCL's files have none, and collsim reads none "
                     "(entities, external files): remove it");
    else {
        xmlNode *root = xmlDocGetRootElement(doc);
        ok = root ? read_algo(&r, root) : diag_at(d, name, 0, 0, "no <algo> element");
    }
    xmlFreeDoc(doc);
    if (!ok) msccl_program_free(p);
    return ok;
}

void msccl_program_free(msccl_program *p)
{
    free(p->gpus);
    free(p->tbs);
    free(p->steps);
    memset(p, 0, sizeof *p); /* freeing twice frees nothing */
}
