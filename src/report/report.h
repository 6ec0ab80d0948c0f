/* report.h — results as a table (nccl-tests style), CSV or JSON (docs/output.md),
 * written whole or not at all (temporary file, then rename); η fitted
 * per case (docs/model.md, "How η is fitted") and the --plot SVG. */
#ifndef COLLSIM_REPORT_H
#define COLLSIM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/results.h"
#include "util/diag.h"

typedef enum { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON, FORMAT_NCCL_TESTS } report_format;

/* The table, the JSON, or the CSV results table (one table: the η, terms and
 * crossovers CSV tables are report_print_csv_block's). */
void report_print(const report *r, report_format format, FILE *out);
/* One result of the JSON: its object, as the "results" list holds it. */
void report_print_json_result(const report *r, const result_row *row, FILE *out);
/* The table alone (table.c). */
void report_print_table(const report *r, FILE *out);
typedef enum { CSV_ETA, CSV_TERMS, CSV_CROSSOVERS, CSV_HOT_LINKS, CSV_LINKS, CSV_BLOCK_COUNT } csv_block;
void report_print_csv_block(const report *r, csv_block block, FILE *out);
/* The suffix of a CSV block's own file: "eta", "terms", "crossovers",
 * "hot_links", "links" (the last only with --links: report.all_links). */
const char *report_csv_block_name(csv_block block);
/* The file of BLOCK beside the CSV file PATH: "out.csv" -> "out.eta.csv". */
void report_csv_block_path(const char *path, csv_block block, char *out, size_t size);
/* How many block files a CSV has (the links' only with --links: ALL_LINKS). */
int report_csv_block_count(bool all_links);
/* Write to PATH ("-" or NULL: standard output) as util/output_file.h says.
 * CSV to a file that is replaced (a regular file or a new path) also writes
 * STEM.eta.csv, STEM.terms.csv, STEM.crossovers.csv, STEM.hot_links.csv
 * (and STEM.links.csv with --links) beside it, STEM being PATH without its
 * ".csv". */
bool report_write(const report *r, report_format format, const char *path, diag *d);
/* Draw time and busbw against M (log-log, simulated points over the
 * predicted line) and η per case with gnuplot into PATH (.svg, .png or
 * .pdf), written as util/output_file.h says. */
bool report_plot(const report *r, const char *path, diag *d);
/* Whether PATH names a format report_plot draws (.svg, .png, .pdf). */
bool report_plot_format_known(const char *path);
/* The format TEXT names (REPORT_FORMAT_NAMES), or without TEXT the extension
 * of OUTPUT (.csv, .json; may be NULL), else the table; false for another
 * name. */
#define REPORT_FORMAT_NAMES "table, csv, json or nccl-tests"
bool report_format_named(const char *text, const char *output, report_format *format);

#endif
