/* diag.c — formatting and printing of positioned error messages. */
#include "util/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void set_message(diag *d, const char *fmt, va_list ap)
{
    vsnprintf(d->message, sizeof d->message, fmt, ap);
    d->set = true;
}

bool diag_at(diag *d, const char *file, int line, int column, const char *fmt, ...)
{
    snprintf(d->file, sizeof d->file, "%s", file ? file : "");
    d->line = line;
    d->column = column;
    va_list ap;
    va_start(ap, fmt);
    set_message(d, fmt, ap);
    va_end(ap);
    return false;
}

bool diag_fail(diag *d, const char *fmt, ...)
{
    d->file[0] = '\0';
    d->line = d->column = 0;
    va_list ap;
    va_start(ap, fmt);
    set_message(d, fmt, ap);
    va_end(ap);
    return false;
}

void diag_print(const diag *d)
{
    if (d->file[0] && d->line > 0)
        fprintf(stderr, "%s:%d:%d: %s\n", d->file, d->line, d->column, d->message);
    else if (d->file[0])
        fprintf(stderr, "%s: %s\n", d->file, d->message);
    else
        fprintf(stderr, "collsim: %s\n", d->message);
}
