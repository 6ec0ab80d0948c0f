/* fields.h — every field of the report's records named once: its key (the
 * CSV column and the JSON key), how to read it, and where each format puts
 * it (docs/output.md).  The table, CSV and JSON renderers walk these tables,
 * so a new field is one line in fields.c and appears in every format.
 *
 * A record is a result row, or one of its terms, link directions or η
 * fits, or a crossover; a field reads it through a field_context. */
#ifndef COLLSIM_FIELDS_H
#define COLLSIM_FIELDS_H

#include <stdbool.h>
#include <stdio.h>

#include "report/results.h"

typedef enum {
    VALUE_NUMBER,       /* %.17g; NaN or infinite: empty in CSV, null in JSON */
    VALUE_INT,
    VALUE_BOOL,
    VALUE_TEXT,         /* a string ("" is "") */
    VALUE_TEXT_OR_NULL, /* a string, null in JSON when empty */
    VALUE_CASES,        /* the cases a row ran with: a list of case numbers */
} value_kind;

#define FIELD_PIECES 5

typedef struct field_value {
    value_kind kind;
    bool present;       /* false: empty in CSV, no key in JSON, "-" in the table */
    double number;      /* NUMBER, INT, BOOL */
    const char *text;   /* TEXT, TEXT_OR_NULL */
    const char *after[FIELD_PIECES]; /* the table only: written after TEXT, up to a NULL (" inc/ring", " (auto)") */
} field_value;

/* What a field reads: the report, the row, and for a row's parts the item
 * (a row_term, a link_row, an eta_row, a crossover_row) and its rank. */
typedef struct field_context {
    const report *r;
    const result_row *row;
    const void *item;
    int rank;
} field_context;

/* Which formats carry a field. */
enum { IN_JSON = 1u << 0, IN_CSV = 1u << 1, IN_TABLE = 1u << 2, IN_TRAFFIC_TABLE = 1u << 3 };
/* IN_TRAFFIC_TABLE: the table's columns of a traffic case (docs/scenarios.md, "Traffic"), which has its own. */

/* When a column exists (the table: per case; CSV: per report). */
typedef enum {
    WHEN_ALWAYS,
    WHEN_SIMULATED,          /* run, not predict */
    WHEN_FASTEST,            /* the table: several groups ran at once in the case */
    WHEN_IDEAL,              /* the table: the case's η profile is not ideal */
    WHEN_MEASURED,           /* --measured logs were given */
    WHEN_MEASURED_SIMULATED, /* both */
    WHEN_PIPELINED,          /* the table: a row of the case ran on more than one segment */
    WHEN_PROTOCOL,           /* the table: a row of the case ran under an NCCL protocol */
    WHEN_CHANNELS,           /* the table: a row of the case ran on more than one channel */
    WHEN_SYNTHETIC,          /* the table: the case is synthetic traffic */
} field_when;

/* How the table prints a field: after GAP spaces, its header in HEADER_WIDTH
 * and its value in WIDTH (negative: left-aligned; 0: as wide as the case's
 * longest text, column_flags.text_width) with PRECISION decimals (-1: %g
 * with 5 digits; ints and text take none) times SCALE. */
typedef struct table_column {
    const char *header;
    int gap, header_width, width, precision;
    double scale;
    field_when when;
} table_column;

/* Where a field's value is kept in its record, so that a report read back
 * from its JSON (report/read_back.c) is filled by the same table that wrote
 * it; STORE_NONE: a field computed from others, written and never read. */
typedef enum {
    STORE_NONE,
    STORE_INT,       /* an int member */
    STORE_LONG,      /* a long member */
    STORE_DOUBLE,    /* null reads as NaN */
    STORE_BOOL,
    STORE_TEXT,      /* a char array; null reads as "" */
    STORE_PRIMITIVE, /* a primitive, by its name */
    STORE_CASES,     /* the cases a row ran with: block_first and block_count */
    STORE_DOWN,      /* a link's direction: "down" is true */
    STORE_KNOWN,     /* an int member from true (1), false (0) or null (-1: not known) */
} store_kind;

typedef struct field_store {
    store_kind kind;
    size_t offset, size;
} field_store;

typedef struct field {
    const char *key;
    field_value (*get)(const field_context *x);
    unsigned formats;                             /* IN_JSON | IN_CSV | IN_TABLE */
    field_when when;                              /* CSV: whether the column exists */
    int csv;                                      /* its place among the CSV columns (ascending) */
    int table;                                    /* its place among the table's columns (ascending) */
    table_column column;
    field_store store;                            /* where reading it back puts it */
} field;

typedef struct field_set {
    const field *fields;
    int count;
} field_set;

/* The fields of each record, in their JSON order. */
extern const field_set result_fields, term_fields, link_fields, eta_fields, crossover_fields, flow_fields;

/* What decides which columns exist: the report's (simulated, measured) and,
 * in the table, the case's (several groups, a non-ideal η profile). */
typedef struct column_flags {
    bool simulated, measured, fastest, ideal, pipelined, protocol, channels;
    bool traffic, synthetic;   /* the table: the case is traffic (its own columns), synthetic traffic */
    int text_width;            /* the table: a fitted text column's width (the case's longest) */
} column_flags;

/* CSV: the header of SET's columns and one record's values, in their CSV
 * order, each preceded by a comma unless it is the first. */
void fields_csv_header(FILE *out, const field_set *set, const column_flags *flags);
void fields_csv_values(FILE *out, const field_set *set, const field_context *x, const column_flags *flags);
/* JSON: ", \"KEY\": VALUE" for each field of SET the record has, in JSON
 * order; FIRST: the first pair has no leading comma. */
void fields_json(FILE *out, const field_set *set, const field_context *x, bool first);
/* The table: SET's header and one record's cells, in table order (no
 * newline). */
void fields_table_header(FILE *out, const field_set *set, const column_flags *flags);
void fields_table_values(FILE *out, const field_set *set, const field_context *x, const column_flags *flags);
/* The table's text of V: TEXT and what follows it. */
int field_text_length(const field_value *v);
/* The table's algorithm cell of X's row (the case's widest sets the column). */
field_value field_table_text(const field_context *x);
/* TEXT as one CSV field (RFC 4180: quoted when it holds a comma, a quote or a line break). */
void csv_text(FILE *out, const char *text);

#endif
