/* msccl_xml.h — a collsim schedule written as an MSCCL algorithm file (the
 * XML MSCCL's runtime interprets; docs/schedules.md, "From collsim to
 * MSCCL"), or the reason it cannot be one. */
#ifndef COLLSIM_MSCCL_XML_H
#define COLLSIM_MSCCL_XML_H

#include <stdbool.h>
#include <stdio.h>

#include "sched/schedule.h"

/* The limits of MSCCL's runtime as built by default (its parser and
 * kernel): steps per threadblock (MSCCL_MAX_NUM_STEPS), threadblock ids a
 * dependency can name (an int8_t), chunks per step (MSCCL_MAX_COUNT: fewer
 * than 72), threadblocks sending (or receiving) per channel, XML nodes one
 * rank's view holds, children of one element. */
#define MSCCL_RUNTIME_STEPS 64
#define MSCCL_RUNTIME_DEPENDABLE_TBS 128
#define MSCCL_RUNTIME_COUNT 72
#define MSCCL_RUNTIME_TBS_PER_CHANNEL 32
#define MSCCL_RUNTIME_NODES 4096
#define MSCCL_RUNTIME_SUBS 1024

/* Write S (stored) as MSCCL XML named NAME for protocol PROTOCOL (Simple,
 * LL128, LL) to OUT; false with WHY (nothing written) when MSCCL cannot
 * express it or its runtime would refuse it. */
bool msccl_export(const schedule *s, const char *name, const char *protocol, FILE *out, char *why, int why_size);

#endif
