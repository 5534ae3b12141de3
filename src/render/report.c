/* report.c - small shared facts about a report. */
#include "render/report.h"

#include <inttypes.h>
#include <string.h>

#include "model/window.h"

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

void report_window_text(const struct cg_report *r, struct strbuf *sb)
{
	char a[32], b[32];

	if (r->range_from_us == WINDOW_OPEN_FROM)
		strbuf_printf(sb, "up to %s ms", fmt_ms_signed(b, r->range_to_us));
	else if (r->range_to_us == WINDOW_OPEN_TO)
		strbuf_printf(sb, "from %s ms", fmt_ms_signed(a, r->range_from_us));
	else
		strbuf_printf(sb, "%s to %s ms", fmt_ms_signed(a, r->range_from_us),
			      fmt_ms_signed(b, r->range_to_us));
	if (r->range_frame)
		strbuf_printf(sb, " (frame %" PRIu64 ")", r->range_frame);
}

char *report_off_cpu(char *buf, uint64_t cpu, uint64_t wall)
{
	double off = profile_off_cpu(cpu, wall);

	if (off < 0)
		return strcpy(buf, "-");
	if (off == 0)
		return strcpy(buf, "0.00");
	return fmt_hundredths(buf, wall - cpu, wall, 100.0 * off);
}
