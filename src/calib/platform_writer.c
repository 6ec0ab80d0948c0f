/* platform_writer.c — the calibrated platform (platform_writer.h).  The
 * input is copied line by line; what an earlier calibration wrote (its
 * `calibrated:` block and its "# collsim calibrate" lines) is dropped, so
 * that calibrating a calibrated platform again replaces its table; every
 * other line, the tiers' `efficiency` among them, is kept as written (the
 * fitted efficiency is against the tiers' rate with it applied,
 * docs/model.md).  The table is a list of groups, one per (collective,
 * tier, algorithm family) the logs measured.  Regimes map to NCCL's protocols from the
 * largest sizes down: Simple, then LL for the smallest and LL128 between
 * when there are three; `from` and `up_to` the smallest and largest size of
 * the regime (open below the first and above the last). */
#include "calib/platform_writer.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/output_file.h"
#include "yaml/yaml_tree.h"

static const char *protocol_of(int regime, int regime_count)
{
    int from_top = regime_count - 1 - regime;
    if (from_top == 0) return "simple";
    return regime == 0 ? "ll" : "ll128";
}

#define HEADER "# collsim calibrate"

/* The input without an earlier calibration; its trailing blank lines left out. */
static void copy_platform(FILE *out, const char *text)
{
    bool in_calibrated = false;
    int blank = 0; /* blank lines held back: written before the next line that is not */
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        if (strncmp(line, "calibrated:", 11) == 0) in_calibrated = true;
        else if (length > 0 && line[0] != ' ' && line[0] != '#') in_calibrated = false;
        bool ours = in_calibrated || strncmp(line, HEADER, sizeof HEADER - 1) == 0;
        if (!ours && length == 0) blank++;
        else if (!ours) {
            for (; blank > 0; blank--) fputc('\n', out);
            fwrite(line, 1, length, out);
            fputc('\n', out);
        }
        line += length + (end ? 1 : 0);
    }
}

/* Two comment lines on F, each indented by LEAD. */
static void describe_fit(FILE *out, const calib_regime_fit *f, const char *lead)
{
    fprintf(out, "%s# %s regime %d of %d, %.0f B .. %.0f B: %d points of %s; residual rms %.2f %%, max %.2f %%\n",
            lead, primitive_name(f->prim), f->regime + 1, f->regime_count, f->from_bytes, f->to_bytes,
            f->point_count, f->logs, f->rms_rel * 100, f->max_rel * 100);
    fprintf(out, "%s#   launch %.3f us, hop %.4f us (%s), BW %.2f GB/s = %.4f x %.2f GB/s (tier %d)\n", lead,
            f->launch_s * 1e6, f->hop_s * 1e6,
            f->hop_fitted ? "fitted: the logs cover several N" : "the platform's alpha + overhead: one N",
            f->efficiency * f->bandwidth_Bps / 1e9, f->efficiency, f->bandwidth_Bps / 1e9, f->tier);
    fprintf(out, "%s#   run as %s on %d channel(s): %s\n", lead, algorithm_family_name(f->family), f->channels > 0 ? f->channels : 1,
            f->library_choice ? "the library's choice there, as collsim's tuner makes it" : "the algorithm the log names");
}

static bool same_group(const calib_regime_fit *a, const calib_regime_fit *b)
{
    return a->prim == b->prim && a->tier == b->tier && a->family == b->family;
}

/* Whether fit K is the first of its (collective, tier, family) in R. */
static bool first_of_group(const calib_result *r, int k)
{
    for (int j = 0; j < k; j++)
        if (same_group(&r->fits[j], &r->fits[k])) return false;
    return true;
}

static void write_table(FILE *out, const calib_writer_input *in)
{
    const calib_result *r = in->result;
    fprintf(out, "\n" HEADER ": fitted to");
    for (int i = 0; i < in->log_count; i++)
        fprintf(out, " %s (%s, %d ranks)%s", in->logs[i].path, primitive_name(in->logs[i].prim), in->logs[i].ranks,
                i + 1 < in->log_count ? "," : "");
    fprintf(out, ".\n" HEADER ": one group per collective, tier and algorithm family measured; each protocol replaces\n" HEADER
                 ": NCCL's figures by its fit for that algorithm alone (docs/model.md, \"Calibrated protocols\"); auto\n" HEADER
                 ": offers it in the sizes it was measured at.  Anything not measured keeps the published figures.\ncalibrated:\n");
    for (int k = 0; k < r->fit_count; k++) {
        if (!first_of_group(r, k)) continue;
        const calib_regime_fit *g = &r->fits[k];
        fprintf(out, "  - primitive: %s\n    tier: %d\n    algorithm: %s\n    chosen: %s\n", primitive_name(g->prim),
                g->tier, algorithm_family_name(g->family), g->library_choice ? "library" : "named");
        for (int j = k; j < r->fit_count; j++) {
            const calib_regime_fit *f = &r->fits[j];
            if (!same_group(f, g)) continue;
            describe_fit(out, f, "    ");
            fprintf(out, "    %s: {", protocol_of(f->regime, f->regime_count));
            if (f->regime > 0) fprintf(out, "from: %.0fB, ", f->from_bytes);
            if (f->regime + 1 < f->regime_count) fprintf(out, "up_to: %.0fB, ", f->to_bytes);
            fprintf(out, "launch: %.4fus, overhead: %.4fus, efficiency: %.6f, channels: %d}\n",
                    (f->launch_s - in->platform->launch_s) * 1e6, (f->hop_s - f->platform_hop_s) * 1e6, f->efficiency,
                    f->channels > 0 ? f->channels : 1);
        }
    }
}

bool calib_write_platform(const calib_writer_input *in, const char *path, diag *d)
{
    size_t length;
    char *text = input_read(in->platform_path, &yaml_file_kind, &length, d);
    if (!text) return false;
    output_file f;
    if (!output_open(&f, path, d)) {
        free(text);
        return false;
    }
    copy_platform(f.stream, text);
    write_table(f.stream, in);
    free(text);
    return output_commit(&f, d);
}
