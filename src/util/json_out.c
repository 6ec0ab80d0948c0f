/* json_out.c — JSON strings and numbers (json_out.h). */
#include "util/json_out.h"

#include <math.h>

void json_print_string(FILE *out, const char *text)
{
    fputc('"', out);
    for (const char *p = text ? text : ""; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if ((unsigned char)*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

void json_print_number(FILE *out, double value)
{
    if (isfinite(value)) fprintf(out, "%.17g", value);
    else fputs("null", out);
}
