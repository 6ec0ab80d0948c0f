/* distinct_files.c — no output of a command replaces one of its inputs or
 * another output (distinct_files.h). */
#include "cli/distinct_files.h"

#include <stdio.h>
#include <string.h>

#include "util/same_file.h"

static bool shareable(const char *path)
{
    return strcmp(path, "-") == 0 || is_character_device(path);
}

bool files_distinct(const char *command, const named_file *files, int count)
{
    for (int i = 0; i < count; i++) {
        const named_file *out = &files[i];
        if (!out->path || !out->output || shareable(out->path)) continue;
        for (int j = 0; j < count; j++) {
            const named_file *other = &files[j];
            if (j == i || !other->path || (other->output && j < i)) continue; /* each pair of outputs once */
            if (other->rewriter && strcmp(other->rewriter, out->role) == 0) continue;
            if (!same_file(out->path, other->path)) continue;
            fprintf(stderr, "collsim %s: %s %s is the same file as %s %s: %s; name another file\n", command,
                    out->role, out->path, other->role, other->path,
                    other->output ? "two outputs would overwrite each other" : "the output would replace an input");
            return false;
        }
    }
    return true;
}
