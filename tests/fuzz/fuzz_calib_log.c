/* fuzz_calib_log.c — libFuzzer harness for the nccl-tests / rccl-tests log
 * reader of `collsim calibrate` and `--measured` (docs/calibration.md): any bytes given
 * as a log must be refused with a positioned message, or read into points
 * whose sizes and times are finite and within their documented bounds
 * (docs/reliability.md), a collective and a rank count from 1 to
 * TOPO_MAX_RANKS; a read log is then fitted on a star of its ranks, whose
 * fitted costs (launch, hop, efficiency, residuals, every fitted time) must
 * be finite and within their bounds.  Never a crash, a leak or a
 * hang.  Built and run by scripts/fuzz on tests/fuzz/corpus/calib_log/. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib/fit.h"
#include "calib/log_reader.h"
#include "fuzz_input.h"
#include "platform/platform.h"
#include "platform/topology.h"
#include "util/units.h"

static void check_log(const calib_log *log)
{
    if (log->point_count < 1 || log->point_count > CALIB_MAX_POINTS || log->ranks < 1 || log->ranks > TOPO_MAX_RANKS ||
        log->prim >= PRIM_COUNT)
        abort();
    for (int p = 0; p < log->point_count; p++) {
        const calib_point *pt = &log->points[p];
        if (!(pt->size_bytes > 0) || !(pt->size_bytes <= UNITS_MAX_SIZE_BYTES) || !(pt->time_s >= CALIB_MIN_TIME_S) ||
            !(pt->time_s <= UNITS_MAX_TIME_S) || !(pt->busbw_Bps >= 0) || !(pt->busbw_Bps <= UNITS_MAX_BANDWIDTH_BPS))
            abort();
    }
}

/* Fit the log on a star of its ranks (small ones: the fuzzer's time goes to the reader). */
static void check_fit(const calib_log *log)
{
    if (log->ranks < 2 || log->ranks > 64) return;
    char text[128];
    snprintf(text, sizeof text, "kind: star\nranks: %d\nalpha: 0.6us\nbandwidth: 450GBps\n", log->ranks);
    topology t;
    diag d = {0};
    if (!platform_load_string("fuzz-star.yaml", text, &t, &d)) abort();
    /* the fit runs the log's points in a scenario on the platform's file */
    char path[] = "/tmp/fuzz-star-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) abort();
    close(fd);
    calib_result r;
    char why[256];
    bool fitted = calib_fit(log, 1, path, &t, &r, why, sizeof why);
    unlink(path);
    if (fitted) {
        for (int k = 0; k < r.fit_count; k++) {
            const calib_regime_fit *f = &r.fits[k];
            if (!isfinite(f->launch_s) || !isfinite(f->hop_s) || !(f->efficiency > 0) || !isfinite(f->efficiency) ||
                f->launch_s < 0 || f->hop_s < f->platform_hop_s * (1 - 1e-9) || !isfinite(f->rms_rel) ||
                !isfinite(f->max_rel) || f->point_count < 1)
                abort();
        }
        for (int p = 0; p < log->point_count; p++)
            if (!isfinite(r.residuals[p].fitted_s) || !(r.residuals[p].fitted_s > 0)) abort();
        calib_result_free(&r);
    }
    topology_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    calib_log *log = malloc(sizeof *log);
    diag d = {0};
    if (calib_log_parse("fuzz.log", (const char *)data, size, log, NULL, NULL, &d)) {
        check_log(log);
        check_fit(log);
    } else {
        fuzz_expect_message(&d);
    }
    free(log);
    return 0;
}
