/* traffic_matrix.c — reading flows from rows or an htsim connection matrix
 * (traffic_matrix.h).  A line is cut into words with their columns, so that
 * every refusal names the word at fault. */
#include "net/traffic_matrix.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/memory.h"
#include "util/units.h"

#define MAX_WORDS 24

typedef struct line_words {
    char text[512];
    const char *word[MAX_WORDS];
    int column[MAX_WORDS];
    int count;
    int length; /* of the line, for a missing word's column (past its end) */
} line_words;

typedef struct reader {
    const char *name;
    int line, ranks;
    flow *flows;
    int count, capacity;
    diag *d;
} reader;

/* LINE (LENGTH bytes) cut at blanks; a comment ends it.  False when a line
 * has more words than any format uses. */
static bool split(reader *r, const char *line, int length, line_words *w)
{
    w->count = 0;
    w->length = length;
    if (length >= (int)sizeof w->text) return diag_at(r->d, r->name, r->line, 1, "line longer than %d characters",
                                                      (int)sizeof w->text - 1);
    memcpy(w->text, line, (size_t)length);
    w->text[length] = '\0';
    for (char *p = w->text; *p;) {
        while (*p && isspace((unsigned char)*p)) *p++ = '\0';
        if (!*p || *p == '#') {
            *p = '\0';
            break;
        }
        if (w->count == MAX_WORDS) return diag_at(r->d, r->name, r->line, (int)(p - w->text) + 1, "too many words");
        w->column[w->count] = (int)(p - w->text) + 1;
        w->word[w->count++] = p;
        while (*p && !isspace((unsigned char)*p)) p++;
    }
    return true;
}

static bool refuse(reader *r, const line_words *w, int i, const char *what)
{
    return diag_at(r->d, r->name, r->line, i < w->count ? w->column[i] : w->length + 1, "%s", what);
}

/* Word I of W as a rank below the reader's ranks. */
static bool read_rank(reader *r, const line_words *w, int i, const char *text, int *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < 0 || v >= r->ranks) {
        char why[160];
        snprintf(why, sizeof why, "'%s' is not a rank of this platform (0 to %d)", text, r->ranks - 1);
        return refuse(r, w, i, why);
    }
    *out = (int)v;
    return true;
}

static bool read_unit(reader *r, const line_words *w, int i, unit_kind kind, double *out)
{
    char why[256];
    if (units_parse(w->word[i], kind, out, why, sizeof why) && *out >= 0) return true;
    if (*out < 0) snprintf(why, sizeof why, "'%s' is negative", w->word[i]);
    return refuse(r, w, i, why);
}

static void add(reader *r, flow f)
{
    r->flows = grow_array(r->flows, &r->capacity, r->count + 1, sizeof *r->flows);
    r->flows[r->count++] = f;
}

/* `SRC DST SIZE [START]` */
static bool read_row(reader *r, const line_words *w)
{
    flow f = {0};
    if (w->count < 3 || w->count > 4) return refuse(r, w, w->count > 4 ? 4 : w->count, "expected SRC DST SIZE [START]");
    if (!read_rank(r, w, 0, w->word[0], &f.src) || !read_rank(r, w, 1, w->word[1], &f.dst) ||
        !read_unit(r, w, 2, UNIT_SIZE, &f.size_bytes) || (w->count == 4 && !read_unit(r, w, 3, UNIT_TIME, &f.start_s)))
        return false;
    add(r, f);
    return true;
}

/* A whole number, word I of W. */
static bool read_count(reader *r, const line_words *w, int i, long *out)
{
    char *end;
    if (i >= w->count) return refuse(r, w, i, "expected a number");
    *out = strtol(w->word[i], &end, 10);
    if (end == w->word[i] || *end || *out < 0) return refuse(r, w, i, "expected a whole number");
    return true;
}

/* `SRC->DST key value ...` of an htsim connection matrix. */
static bool read_connection(reader *r, const line_words *w)
{
    flow f = {0};
    char src[32];
    const char *arrow = strstr(w->word[0], "->");
    size_t length = (size_t)(arrow - w->word[0]);
    if (length >= sizeof src) return refuse(r, w, 0, "expected SRC->DST");
    memcpy(src, w->word[0], length);
    src[length] = '\0';
    if (!read_rank(r, w, 0, src, &f.src) || !read_rank(r, w, 0, arrow + 2, &f.dst)) return false;
    bool sized = false;
    for (int i = 1; i < w->count; i += 2) {
        const char *key = w->word[i];
        long value;
        if (!strcmp(key, "trigger") || !strcmp(key, "send_done_trigger") || !strcmp(key, "recv_done_trigger") ||
            !strcmp(key, "addon"))
            return refuse(r, w, i, "triggers are not supported: every flow starts at its own time");
        if (strcmp(key, "id") && strcmp(key, "start") && strcmp(key, "size") && strcmp(key, "prio"))
            return refuse(r, w, i, "unknown key: expected id, start, size or prio");
        if (!read_count(r, w, i + 1, &value)) return false;
        if (!strcmp(key, "start")) f.start_s = (double)value * 1e-12; /* picoseconds */
        if (!strcmp(key, "size")) f.size_bytes = (double)value, sized = true;
    }
    if (!sized) return refuse(r, w, w->count, "a connection needs 'size BYTES'");
    add(r, f);
    return true;
}

/* An htsim header line `Nodes N` / `Connections C` (others of its header are refused). */
static bool read_header(reader *r, const line_words *w, long *nodes, long *connections)
{
    const char *key = w->word[0];
    if (!strcmp(key, "Nodes")) {
        if (!read_count(r, w, 1, nodes)) return false;
        if (*nodes > r->ranks) return refuse(r, w, 1, "more nodes than the platform has ranks");
        return true;
    }
    if (!strcmp(key, "Connections")) return read_count(r, w, 1, connections);
    if (!strcmp(key, "Triggers") || !strcmp(key, "Failures"))
        return refuse(r, w, 0, "triggers and failures are not supported");
    return refuse(r, w, 0, "expected Nodes, Connections or SRC->DST");
}

bool traffic_matrix_parse(const char *name, const char *text, int ranks, flow **flows, int *count, diag *d)
{
    reader r = {.name = name, .ranks = ranks, .d = d};
    line_words w;
    bool ok = true, htsim = false, decided = false;
    long nodes = -1, connections = -1;
    for (const char *line = text; ok && *line;) {
        const char *end = strchr(line, '\n');
        int length = end ? (int)(end - line) : (int)strlen(line);
        r.line++;
        ok = split(&r, line, length, &w);
        line += length + (end != NULL);
        if (!ok || w.count == 0) continue;
        if (!decided) htsim = !strcmp(w.word[0], "Nodes") || !strcmp(w.word[0], "Connections") || strstr(w.word[0], "->");
        decided = true;
        if (!htsim) ok = read_row(&r, &w);
        else if (strstr(w.word[0], "->")) ok = read_connection(&r, &w);
        else ok = read_header(&r, &w, &nodes, &connections);
    }
    if (ok && htsim && connections >= 0 && connections != r.count)
        ok = diag_at(d, name, r.line, 1, "'Connections %ld' but %d connection lines", connections, r.count);
    if (ok && r.count == 0) ok = diag_at(d, name, r.line > 0 ? r.line : 1, 1, "no flows");
    if (!ok) {
        free(r.flows);
        return false;
    }
    *flows = r.flows;
    *count = r.count;
    return true;
}

bool traffic_matrix_read(const char *path, int ranks, flow **flows, int *count, diag *d)
{
    FILE *f = fopen(path, "rb");
    if (!f) return diag_at(d, path, 0, 0, "cannot open the traffic matrix");
    char *text = NULL;
    size_t size = 0, capacity = 0, got;
    char chunk[65536];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (size + got + 1 > capacity) {
            capacity = 2 * (size + got + 1);
            char *grown = realloc(text, capacity);
            if (!grown) out_of_memory();
            text = grown;
        }
        memcpy(text + size, chunk, got);
        size += got;
    }
    fclose(f);
    if (!text) return diag_at(d, path, 1, 1, "no flows");
    text[size] = '\0';
    bool ok = traffic_matrix_parse(path, text, ranks, flows, count, d);
    free(text);
    return ok;
}
