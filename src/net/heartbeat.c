/* heartbeat.c — the memory a simulation child shares with its parent to say
 * how far it has got (heartbeat.h). */
#include "net/heartbeat.h"

#include <stddef.h>
#include <sys/mman.h>

heartbeat *heartbeat_create(void)
{
    void *p = mmap(NULL, sizeof(heartbeat), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p; /* zeroed by the kernel */
}

void heartbeat_free(heartbeat *h)
{
    if (h) munmap(h, sizeof *h);
}

heartbeat *heartbeat_unread(void)
{
    static heartbeat unread;
    return &unread;
}
