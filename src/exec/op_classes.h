/* op_classes.h — the op graphs of a job's actors, shared between actors
 * whose ops depend on one another alike: the same number of ops, each
 * waiting for the same ops by index (every rank of a ring, of a ring on
 * ring).  Such actors read the dependents of a completed op from one copy,
 * which stays in cache, instead of one each, cold when the actor's next
 * message comes at thousands of actors (docs/scale.md §6); each keeps its
 * own counts of unmet dependencies. */
#ifndef COLLSIM_OP_CLASSES_H
#define COLLSIM_OP_CLASSES_H

#include "sched/schedule.h"

typedef struct op_classes op_classes;

op_classes *op_classes_create(void);
/* Frees the shared graphs: after every actor's last use. */
void op_classes_free(op_classes *c);
/* Actor A of S's op graph (schedule.h's op_graph): OFFSET and LIST those of
 * its class, REMAINING its own; C owns them all. */
void op_classes_graph(op_classes *c, const schedule *s, int a, op_graph *g);

#endif
