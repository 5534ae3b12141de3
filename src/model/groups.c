/* groups.c - items grouped by key (see groups.h). */
#include "model/groups.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void groups_build(struct cg_groups *g, size_t ngroups, const uint32_t *keys,
		  const uint32_t *values, size_t n)
{
	uint32_t *fill;
	size_t i;

	g->start = xcalloc(ngroups + 1, sizeof(*g->start));
	for (i = 0; i < n; i++)
		if (keys[i] != GROUPS_SKIP)
			g->start[keys[i] + 1]++;
	for (i = 0; i < ngroups; i++)
		g->start[i + 1] += g->start[i];
	g->item = xmalloc((g->start[ngroups] ? g->start[ngroups] : 1) * sizeof(*g->item));
	fill = xmalloc((ngroups ? ngroups : 1) * sizeof(*fill));
	memcpy(fill, g->start, ngroups * sizeof(*fill));
	for (i = 0; i < n; i++)
		if (keys[i] != GROUPS_SKIP)
			g->item[fill[keys[i]]++] = values ? values[i] : (uint32_t)i;
	free(fill);
}

void groups_free(struct cg_groups *g)
{
	if (!g)
		return;
	free(g->start);
	free(g->item);
	g->start = NULL;
	g->item = NULL;
}
