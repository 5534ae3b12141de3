/* groups.h - items grouped by a small integer key, in one array: the
 * children, parents or edges of every node of a graph, built in two linear
 * passes (count, then place) and read as item[start[g] .. start[g + 1]).
 * The caller owns both arrays through the struct; groups_free frees them. */
#ifndef CG_GROUPS_H
#define CG_GROUPS_H

#include <stddef.h>
#include <stdint.h>

/* A key that leaves its item out. */
#define GROUPS_SKIP UINT32_MAX

struct cg_groups {
	uint32_t *start; /* ngroups + 1 offsets into item (n < 2^32 items) */
	uint32_t *item;
};

/* Group n items: item i (values[i], or i itself when values is NULL) goes
 * into group keys[i] (< ngroups, or GROUPS_SKIP), keeping the items' order
 * within each group. */
void groups_build(struct cg_groups *g, size_t ngroups, const uint32_t *keys,
		  const uint32_t *values, size_t n);
void groups_free(struct cg_groups *g);

#endif
