/* report.c - small shared facts about a report. */
#include "render/report.h"

const char *report_clock_name(const struct cg_report *r)
{
	if (r->info->clock == CG_CLOCK_WALL)
		return "wall";
	if (r->info->clock == CG_CLOCK_CPU || r->info->clock == CG_CLOCK_GLOBAL)
		return r->info->clock == CG_CLOCK_CPU ? "cpu" : "global";
	if (r->info->clock == CG_CLOCK_DUAL)
		return r->clock == CG_USE_CPU ? "cpu" : "wall";
	return "unknown";
}
