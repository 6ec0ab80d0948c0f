/* output_file.h — output files written whole or not at all (SPEC §8): the
 * content goes to a temporary file beside the target, renamed over it only
 * once complete. */
#ifndef COLLSIM_OUTPUT_FILE_H
#define COLLSIM_OUTPUT_FILE_H

#include <stddef.h>

/* Create PATH.tmp-XXXXXX (its name into TEMPORARY) with the permissions a
 * plain fopen would give (0666 less the umask); its descriptor, or -1 with
 * errno set.  Until committed or discarded, an interrupt removes it
 * (util/interrupt.h). */
int output_file_create(const char *path, char *temporary, size_t size);
/* Rename the complete TEMPORARY over PATH; -1 with errno set on failure
 * (TEMPORARY is then discarded). */
int output_file_commit(const char *temporary, const char *path);
/* Remove TEMPORARY (a failed or abandoned write). */
void output_file_discard(const char *temporary);

#endif
