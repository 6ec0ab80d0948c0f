/* cfg_rules.h — the --cfg settings SimGrid accepts but collsim refuses,
 * before anything runs: values that make a simulation step forever, depend on
 * the machine's load, stop or crash it on purpose, or give times that are no
 * fabric's (docs/reliability.md, "--cfg options").  What SimGrid itself
 * refuses is found by asking it (simgrid_check_options). */
#ifndef COLLSIM_CFG_RULES_H
#define COLLSIM_CFG_RULES_H

#include <stdbool.h>

#include "util/diag.h"

/* SETTING is "NAME:VALUE" (without "--cfg="): false with D saying why
 * collsim refuses it and what to do instead. */
bool cfg_rules_check(const char *setting, diag *d);

#endif
