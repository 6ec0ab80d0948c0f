/* verify.h — running a schedule on data (docs/architecture.md).  Each (rank, chunk) starts
 * with a 64-bit fingerprint; sends carry a snapshot of their chunks, receives
 * copy or reduce (wrapping addition) them; at the end the primitive's
 * postcondition is checked on every rank.  Message matching follows the
 * executor's rules (per-connection program order), so a schedule that
 * verifies is the schedule that is timed. */
#ifndef COLLSIM_VERIFY_H
#define COLLSIM_VERIFY_H

#include <stdbool.h>

#include "sched/schedule.h"

/* The verifier holds a 64-bit fingerprint per (actor, chunk): at most this
 * many (1 GiB; an all-to-all on N ranks has N^3). */
#define VERIFY_MAX_FINGERPRINTS (1L << 27)

/* False, with WHY, when S has more fingerprints than the verifier holds. */
bool schedule_verifiable(const schedule *s, char *why, int why_size);
/* True when S computes its primitive; otherwise WHY says the first failure. */
bool schedule_verify(const schedule *s, char *why, int why_size);

#endif
