/* replay.c — a main() for a fuzz harness without libFuzzer: runs the harness
 * once on every file named (directories: every file in them), so that the
 * seed corpus and every regression input are replayed by the normal test
 * suite with gcc, under valgrind and the sanitizer build alike
 * (tests/fuzz_smoke.sh).  Exit 0 when every input was run. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        perror(path);
        return 1;
    }
    size_t capacity = 4096, size = 0, n;
    uint8_t *data = malloc(capacity);
    while (data && (n = fread(data + size, 1, capacity - size, in)) > 0)
        if ((size += n) == capacity) {
            uint8_t *larger = realloc(data, capacity *= 2);
            if (!larger) free(data);
            data = larger;
        }
    fclose(in);
    if (!data) {
        fprintf(stderr, "%s: out of memory\n", path);
        return 1;
    }
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

static int replay(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return 0; /* an absent regression folder: nothing found yet */
    if (!S_ISDIR(st.st_mode)) return replay_file(path);
    struct dirent **entries;
    int count = scandir(path, &entries, NULL, alphasort), failed = 0;
    for (int i = 0; i < count; i++) {
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, entries[i]->d_name);
        if (entries[i]->d_name[0] != '.') failed |= replay_file(file);
        free(entries[i]);
    }
    free(entries);
    return failed;
}

int main(int argc, char **argv)
{
    int failed = 0;
    for (int i = 1; i < argc; i++) failed |= replay(argv[i]);
    return failed;
}
