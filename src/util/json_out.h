/* json_out.h — the small pieces of JSON writing collsim shares (report,
 * platform describe): strings escaped, numbers that JSON can hold. */
#ifndef COLLSIM_JSON_OUT_H
#define COLLSIM_JSON_OUT_H

#include <stdio.h>

/* TEXT as a JSON string (NULL as ""). */
void json_print_string(FILE *out, const char *text);
/* VALUE with 17 significant digits, or null when it is not finite (JSON has
 * no NaN or infinity). */
void json_print_number(FILE *out, double value);

#endif
