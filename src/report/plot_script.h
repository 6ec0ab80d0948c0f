/* plot_script.h — the gnuplot script and data that draw a report's panels. */
#ifndef COLLSIM_REPORT_PLOT_SCRIPT_H
#define COLLSIM_REPORT_PLOT_SCRIPT_H

#include <stdio.h>

#include "report/report.h"

/* R's panels as a gnuplot script into SCRIPT and their data into DATA (read
 * back by the script from DATA_PATH); the script draws into DRAWING with
 * gnuplot's TERMINAL, a printf format taking the width and height in pixels. */
void plot_write_script(FILE *script, FILE *data, const char *data_path, const report *r, const char *terminal,
                       const char *drawing);

#endif
