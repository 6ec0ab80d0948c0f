/* table.c — the report as a table in the style of nccl-tests (docs/output.md,
 * "Table"): a header naming the run, then per case a description, the
 * α and BW its counts are against, a column header and one line per size
 * (the columns of fields.c's result table that the case has: a column that
 * says nothing in this case is left out), each hierarchical row's terms,
 * the case's busiest link (every link of every row with --links), and its
 * η fits and crossovers.  Every line but a result row starts with '#'. */
#include <math.h>
#include <string.h>

#include "report/fields.h"
#include "report/report.h"

static const char *text_or_empty(const char *text)
{
    return text ? text : "";
}

static void print_table_header(const report *r, FILE *out)
{
    fprintf(out, "# collsim %s  scenario %s\n# platform %s (%s, %d ranks)  network model %s  eta profile %s\n",
            PACKAGE_VERSION, text_or_empty(r->scenario), text_or_empty(r->platform_name), text_or_empty(r->platform_kind),
            r->platform_ranks, text_or_empty(r->model), r->eta ? r->eta : "ideal");
}

/* The columns of the case whose first row is rows[FIRST]: the η = 1 time
 * when the profile is not ideal, the fastest group's time when several
 * groups ran at once. */
static column_flags case_columns(const report *r, int first)
{
    column_flags c = {.simulated = r->simulated, .measured = r->measured, .text_width = (int)strlen("algorithm")};
    for (int i = first; i < r->row_count && r->rows[i].case_index == r->rows[first].case_index; i++) {
        const result_row *row = &r->rows[i];
        c.ideal |= row->ideal_s != row->predicted_s;
        c.fastest |= r->simulated && row->groups > 1;
        c.pipelined |= row->segments > 1;
        c.protocol |= strcmp(row->protocol, "none") != 0;
        c.channels |= row->channels > 1;
        c.traffic |= row->prim == PRIM_TRAFFIC;
        c.synthetic |= row->prim == PRIM_TRAFFIC && strncmp(row->traffic, "matrix", 6) != 0;
        field_context x = {r, row, NULL, 0};
        field_value cell = field_table_text(&x);
        int width = field_text_length(&cell);
        if (width > c.text_width) c.text_width = width;
    }
    return c;
}

/* VALUE in a column of WIDTH with PRECISION decimals, "-" when not finite. */
static void print_cell(FILE *out, int width, int precision, double value)
{
    if (isfinite(value)) fprintf(out, " %*.*f", width, precision, value);
    else fprintf(out, " %*s", width, "-");
}

/* A size in the seed's units (KB, MB, GB are powers of ten). */
static void print_size(double bytes, FILE *out)
{
    static const char *const units[] = {"B", "KB", "MB", "GB", "TB"};
    int u = 0;
    while (bytes >= 1000 && u < 4) {
        bytes /= 1000;
        u++;
    }
    fprintf(out, "%.5g %s", bytes, units[u]);
}

/* "leaf0_spine1 up (spine) leaf0 -> spine1: utilization 0.998, 4.1 MB; buffer peak ..." */
static void print_link(const link_row *l, FILE *out)
{
    fprintf(out, "%s %s (%s) %s -> %s: utilization %.4f, ", l->link, l->down ? "down" : "up", l->tier, l->from, l->to,
            l->utilization);
    print_size(l->bytes, out);
    if (isfinite(l->peak_buffer_bytes)) {
        fprintf(out, "; buffer peak ");
        print_size(l->peak_buffer_bytes, out);
        fprintf(out, ", mean ");
        print_size(l->mean_buffer_bytes, out);
        fprintf(out, "; stalled %.4g us", l->stalled_s * 1e6);
    }
    fputc('\n', out);
}

static void print_table_row(const report *r, const result_row *row, const column_flags *columns, FILE *out)
{
    field_context x = {r, row, NULL, 0};
    fputc(' ', out);
    fields_table_values(out, &result_fields, &x, columns);
    fputc('\n', out);
    for (int t = 0; row->term_count > 1 && t < row->term_count; t++) {
        const row_term *term = &row->terms[t];
        fprintf(out, "#   term %-16s tier %-12s pred(us)", term->label, term->tier);
        print_cell(out, 12, 3, term->predicted_s * 1e6);
        if (term->time_s >= 0) {
            fprintf(out, "  sim(us)");
            print_cell(out, 12, 3, term->time_s * 1e6);
        }
        fputc('\n', out);
    }
    for (int i = 0; r->all_links && i < row->link_count; i++) {
        fprintf(out, "#   link %3d  ", i + 1);
        print_link(&row->links[i], out);
    }
}

/* Without --links, one line per algorithm of the case whose rows are
 * rows[FIRST, END): its busiest link at its largest simulated size. */
static void print_case_links(const report *r, int first, int end, FILE *out)
{
    if (r->all_links) return;
    for (int i = first; i < end; i++) {
        const result_row *row = &r->rows[i], *largest = NULL;
        bool seen = false;
        for (int j = first; j < i && !seen; j++) seen = strcmp(r->rows[j].algorithm, row->algorithm) == 0;
        for (int j = i; j < end && !seen; j++)
            if (strcmp(r->rows[j].algorithm, row->algorithm) == 0 && r->rows[j].hot_count > 0 &&
                (!largest || r->rows[j].size_bytes > largest->size_bytes))
                largest = &r->rows[j];
        if (seen || !largest) continue;
        fprintf(out, "# busiest link, %s at ", largest->algorithm);
        print_size(largest->size_bytes, out);
        fprintf(out, ": ");
        print_link(&largest->hot[0], out);
    }
}

/* "# alpha 0.5 us, BW 900 GB/s: n_alpha and n_beta count against these" when
 * ROW's differ from PREVIOUS's (or PREVIOUS is NULL). */
static void print_alpha_bandwidth(const result_row *row, const result_row *previous, FILE *out)
{
    if (row->prim == PRIM_TRAFFIC) return; /* no prediction: nothing counts against them */
    if (previous && previous->alpha_s == row->alpha_s && previous->bandwidth_Bps == row->bandwidth_Bps) return;
    fprintf(out, "# alpha %.6g us, BW %.6g GB/s (the bottleneck tier's): n_alpha and n_beta count against these\n",
            row->alpha_s * 1e6, row->bandwidth_Bps / 1e9);
}

static void print_number_or_dash(FILE *out, const char *format, double value)
{
    if (isfinite(value)) fprintf(out, format, value);
    else fputc('-', out);
}

static void print_eta_line(const eta_row *e, FILE *out)
{
    fprintf(out, "# eta %s", e->algorithm);
    if (e->group) fprintf(out, " group %d", e->group);
    if (e->tier[0]) fprintf(out, " %s (%s)", e->label, e->tier);
    if (e->note[0]) {
        fprintf(out, ": not fitted: %s (%d sizes)\n", e->note, e->points);
        return;
    }
    fprintf(out, ": eta_alpha ");
    print_number_or_dash(out, "%.6f", e->eta_alpha);
    fprintf(out, " eta_beta ");
    print_number_or_dash(out, "%.6f", e->eta_beta);
    if (!e->tier[0] && isfinite(e->eta_beta_busbw)) fprintf(out, " eta_beta(busbw) %.3f", e->eta_beta_busbw);
    fprintf(out, " max rel residual ");
    print_number_or_dash(out, "%.2g", e->max_rel_residual);
    fprintf(out, " (%d sizes)\n", e->points);
}

/* "# best (simulated): 1 KB ring, 64 KB ring, 1 MB inc": the case's best algorithm at each size, in the
 * rows' order of sizes (analysis/eta_fits.c), when it runs several. */
static void print_case_best(const report *r, int case_index, FILE *out)
{
    bool any = false;
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        if (row->case_index != case_index || !row->best[0]) continue;
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = r->rows[j].case_index == case_index && r->rows[j].best[0] && r->rows[j].size_bytes == row->size_bytes;
        if (seen) continue;
        fprintf(out, "%s", any ? ", " : "# best (simulated):");
        fputc(' ', out);
        print_size(row->size_bytes, out);
        fprintf(out, " %s", row->best);
        any = true;
    }
    if (any) fputc('\n', out);
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        if (row->case_index != case_index || !row->slower_than[0]) continue;
        fprintf(out, "# note: at ");
        print_size(row->size_bytes, out);
        fprintf(out, " the tuner's pick %s simulates over 5 %% slower than %s\n", row->algorithm, row->slower_than);
    }
}

static void print_case_etas(const report *r, int case_index, FILE *out)
{
    print_case_best(r, case_index, out);
    for (int i = 0; i < r->eta_count; i++)
        if (r->etas[i].case_index == case_index) print_eta_line(&r->etas[i], out);
    for (int i = 0; i < r->crossover_count; i++) {
        const crossover_row *x = &r->crossovers[i];
        if (x->case_index != case_index) continue;
        fprintf(out, "# crossover (%s) %s = %s at M* = %.6g B (", x->simulated ? "simulated" : "predicted", x->a, x->b,
                x->size_bytes);
        print_size(x->size_bytes, out);
        fprintf(out, ")\n");
    }
}

/* "# case 2: alltoall, 8 groups of 64 ranks (strided) of star-512, skew zipf(1.2), with case 3" */
static void print_case_header(const report *r, const result_row *row, FILE *out)
{
    fprintf(out, "#\n# case %d: %s", row->case_index, primitive_name(row->prim));
    if (row->groups > 1) fprintf(out, ", %d concurrent groups of %d ranks (%s)", row->groups, row->ranks, row->layout);
    else if (strcmp(row->layout, "all") != 0 && row->layout[0]) fprintf(out, ", one group of %d ranks (%s)", row->ranks, row->layout);
    else fprintf(out, " over %d ranks", row->ranks);
    fprintf(out, " of %s", row->platform[0] ? row->platform : text_or_empty(r->platform_name));
    if (row->skew[0]) fprintf(out, ", skew %s", row->skew);
    if (row->traffic[0]) fprintf(out, ", %s", row->traffic);
    if (row->background[0]) fprintf(out, ", background %s", row->background);
    for (int c = row->block_first, n = 0; c < row->block_first + row->block_count; c++)
        if (c != row->case_index) fprintf(out, n++ ? ", %d" : ", concurrent with case %d", c);
    fputc('\n', out);
    if (row->groups > 1 && r->simulated)
        fprintf(out, "# time = the slowest group's finish (column group), fastest = the fastest group's\n");
}

void report_print_table(const report *r, FILE *out)
{
    print_table_header(r, out);
    int current = -1, first = 0;
    column_flags columns = {0};
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        bool opens = row->case_index != current;
        if (opens) {
            if (current >= 0) {
                print_case_links(r, first, i, out);
                print_case_etas(r, current, out);
            }
            current = row->case_index;
            first = i;
            columns = case_columns(r, i);
            print_case_header(r, row, out);
        }
        print_alpha_bandwidth(row, opens ? NULL : &r->rows[i - 1], out);
        if (opens) {
            fputc('#', out);
            fields_table_header(out, &result_fields, &columns);
            fputc('\n', out);
        }
        print_table_row(r, row, &columns, out);
    }
    if (current >= 0) {
        print_case_links(r, first, r->row_count, out);
        print_case_etas(r, current, out);
    }
}
