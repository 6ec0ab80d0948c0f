/* nccl_tests.c — a run's rows as nccl-tests logs (`--format nccl-tests`,
 * nccl_tests.h): one log per (case, algorithm) series, in the shape
 * nccl-tests' src/common.cu prints and collsim calibrate reads
 * (calib/log_reader.c): the "Collective test starting" and "nThread" header,
 * a "#  Rank" line per rank, the column header with its units line, one row
 * per size (the out-of-place and in-place columns both carry the simulated
 * time: a simulation has no in-place difference), and "# Avg bus bandwidth".
 * Times are printed as nccl-tests prints them (two decimals below 10 ms, one
 * below 100 ms, none above).  A series of a named flat algorithm says it as
 * NCCL's INFO line does, so that calibrate fits that algorithm. */
#include "report/nccl_tests.h"

#include <math.h>
#include <string.h>

#include "algo/algorithm.h"
#include "model/protocol.h"

/* nccl-tests' binary for PRIM, or NULL (permutation has none). */
static const char *binary_of(primitive prim)
{
    switch (prim) {
    case PRIM_ALLREDUCE: return "all_reduce_perf";
    case PRIM_ALLGATHER: return "all_gather_perf";
    case PRIM_REDUCESCATTER: return "reduce_scatter_perf";
    case PRIM_ALLTOALL: return "alltoall_perf";
    case PRIM_BCAST: return "broadcast_perf";
    case PRIM_REDUCE: return "reduce_perf";
    case PRIM_SENDRECV: return "sendrecv_perf";
    default: return NULL;
    }
}

static void print_time(double us, FILE *out)
{
    fprintf(out, us < 1e4 ? "%7.2f" : us < 1e5 ? "%7.1f" : "%7.0f", us);
}

static bool same_series(const result_row *a, const result_row *b)
{
    return a->case_index == b->case_index && a->auto_pick == b->auto_pick &&
           (a->auto_pick || strcmp(a->algorithm, b->algorithm) == 0);
}

/* The series that rows[first] opens, as one log. */
static void print_series(const report *r, int first, FILE *out)
{
    const result_row *head = &r->rows[first];
    const char *binary = binary_of(head->prim);
    if (!binary) {
        fprintf(out, "# collsim: case %d (%s) has no nccl-tests binary: not printed\n", head->case_index,
                primitive_name(head->prim));
        return;
    }
    double smallest = head->size_bytes, largest = head->size_bytes, busbw_sum = 0;
    int count = 0;
    for (int i = first; i < r->row_count; i++)
        if (same_series(&r->rows[i], head)) {
            smallest = fmin(smallest, r->rows[i].size_bytes);
            largest = fmax(largest, r->rows[i].size_bytes);
        }
    fprintf(out, "# collsim %s of %s: case %d, %s%s, simulated (%s)\n", r->simulated ? "run" : "predict", r->scenario,
            head->case_index, head->auto_pick ? "auto" : head->algorithm, head->auto_pick ? " (the tuner's pick per size)" : "",
            r->model);
    fprintf(out, "# Collective test starting: %s\n", binary);
    fprintf(out, "# nThread 1 nGpus %d minBytes %.0f maxBytes %.0f step: 2(factor) warmup iters: 0 iters: 1 agg iters: 1 "
                 "validation: 0 graph: 0\n#\n# Using devices\n", head->ranks, smallest, largest);
    for (int rank = 0; rank < head->ranks; rank++)
        fprintf(out, "#  Rank %2d Group  0 Pid      0 on %10s device %2d [0000:00:00] simulated\n", rank, head->platform, rank);
    const algorithm *a = algorithm_find(head->prim, head->algorithm);
    static const char *const nccl_names[] = {"Ring", "Tree", "NVLS"};
    if (!head->auto_pick && a && a == calibrated_algorithm(head->prim, a->family))
        fprintf(out, "collsim INFO NCCL_ALGO set by environment to %s\n", nccl_names[a->family]);
    fprintf(out, "#\n#                                                              out-of-place                       in-place\n"
                 "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                 "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n");
    bool rooted = head->prim == PRIM_BCAST || head->prim == PRIM_REDUCE;
    bool reduces = head->prim == PRIM_ALLREDUCE || head->prim == PRIM_REDUCESCATTER || head->prim == PRIM_REDUCE;
    for (int i = first; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        if (!same_series(row, head)) continue;
        double t = r->simulated ? row->time_s : row->predicted_s;
        for (int half = 0; half < 2; half++) {
            if (half == 0)
                fprintf(out, "%12.0f  %12.0f  %8s  %6s  %6d  ", row->size_bytes, floor(row->size_bytes / 4), "float",
                        reduces ? "sum" : "none", rooted ? 0 : -1);
            print_time(t * 1e6, out);
            fprintf(out, " %7.2f %7.2f    N/A", row->algbw_Bps / 1e9, row->busbw_Bps / 1e9);
            fputs(half == 0 ? "  " : "\n", out);
        }
        busbw_sum += row->busbw_Bps / 1e9;
        count++;
    }
    fprintf(out, "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : %g \n#\n", count ? busbw_sum / count : 0);
}

void report_print_nccl_tests(const report *r, FILE *out)
{
    for (int i = 0; i < r->row_count; i++) {
        bool opens = true;
        for (int j = 0; j < i && opens; j++) opens = !same_series(&r->rows[j], &r->rows[i]);
        if (opens) print_series(r, i, out);
    }
}
