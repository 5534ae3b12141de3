/* render_window.c - the HTML report's call log and window script; see
 * render_window.h. */
#include "render/report/render_window.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/frames.h"
#include "model/pagelog.h"
#include "render/report/html_parts.h"
#include "render/report/render_flame.h"

/* The engine (src/render/report/assets/window.js) is in the page's head, with
 * util.js; the script here (winui.js) drives the window bar, the frames
 * and the other parts of the page. */
static const char winui_js[] =
#include "winui.js.inc"
	;

#define STR_(x) #x
#define STR(x) STR_(x)

/* 1 when the trace has a wall clock, the window axis. */
static int has_wall(const struct cg_report *r)
{
	enum cg_clock clock = r->info->clock;

	return clock == CG_CLOCK_WALL || clock == CG_CLOCK_DUAL || clock == CG_CLOCK_GLOBAL;
}

const char *render_window_why(const struct cg_report *r)
{
	const char *const *focus, *const *hide;
	static const enum cg_warn inexact[] = {
		CG_W_MISMATCH_POP, CG_W_MISMATCH_IGNORED, CG_W_CLOCK_BACK,
		CG_W_CLOCK_WRAP, CG_W_ACTION3,
	};
	const struct cg_warning *w;
	size_t nw = profile_warnings(r->profile, &w), i, j;

	if (!has_wall(r))
		return "the trace has no wall clock";
	if (!r->pagelog)
		return "the call log was not kept";
	if (pagelog_over(r->pagelog))
		return "the trace has more than " STR(PAGELOG_CALLS) " calls, the budget of the page's call log";
	if (profile_thread_count(r->profile) > PAGELOG_THREADS)
		return "the trace has more than " STR(PAGELOG_THREADS) " threads, the most the page's call "
		       "log holds";
	profile_filters(r->profile, &focus, &hide);
	if (focus || hide)
		return "--focus and --hide change which records open and close calls";
	if (r->has_range)
		return "it shows the window of --range already";
	for (i = 0; i < nw; i++)
		for (j = 0; j < sizeof(inexact) / sizeof(inexact[0]); j++)
			if (w[i].kind == inexact[j])
				return "some records do not open or close exactly one call (see the warnings)";
	return NULL;
}

/* v as a JSON number. */
static void put_int(struct strbuf *sb, int64_t v)
{
	if (v < 0) {
		strbuf_putc(sb, '-');
		strbuf_put_u64(sb, (uint64_t)0 - (uint64_t)v);
	} else {
		strbuf_put_u64(sb, (uint64_t)v);
	}
}

/* v as a JSON number after a comma. */
static void put_num(struct strbuf *sb, int64_t v)
{
	strbuf_putc(sb, ',');
	put_int(sb, v);
}

/* Thread i's log, its wall times on the axis (us from the origin, as the
 * frames' starts). */
static void put_thread(const struct cg_report *r, const struct cg_view *all, size_t i, int wall_primary,
		       int dual, uint64_t origin, struct strbuf *sb)
{
	const struct cg_pagelog_event *ev;
	size_t n = pagelog_thread(r->pagelog, i, &ev), j;
	uint64_t w0, pw, pc;
	int64_t base;

	strbuf_putc(sb, '[');
	put_int(sb, r->thread_map ? (int64_t)r->thread_map[i] : (int64_t)i);
	w0 = n ? (wall_primary ? ev[0].t : ev[0].o_t) : 0;
	base = (int64_t)(w0 - origin);
	put_num(sb, (int64_t)all->threads[i].records);
	put_num(sb, base);
	pc = n && dual ? (wall_primary ? ev[0].o_t : ev[0].t) : 0;
	put_num(sb, (int64_t)pc);
	pw = w0;
	for (j = 0; j < n; j++) {
		uint64_t w = wall_primary ? ev[j].t : ev[j].o_t;
		uint64_t c = dual ? (wall_primary ? ev[j].o_t : ev[j].t) : 0;

		if ((j & 1023) == 0)
			strbuf_spill(sb);
		if (ev[j].kind == PL_ENTER)
			put_num(sb, (int64_t)all->method_pos[ev[j].midx]);
		else if (ev[j].kind == PL_LEAVE)
			put_num(sb, -1);
		else
			put_num(sb, -2 - (int64_t)all->method_pos[ev[j].midx]);
		put_num(sb, (int64_t)(w - pw));
		put_num(sb, (int64_t)(c - pc));
		pw = w;
		pc = c;
	}
	strbuf_putc(sb, ']');
}

/* ,"frames":[[start on the axis, wall, cpu, page thread, 1 when entered
 * before tracing], ...] in order (frame k is entry k - 1), "slowest":
 * [frame indices, slowest first], "framePattern". */
static void put_frames(const struct cg_report *r, struct strbuf *sb)
{
	const struct cg_frames *f = r->frames;
	size_t n = f ? frames_count(f) : 0, ns, i;
	const struct cg_frame *list = n ? frames_list(f) : NULL;
	const size_t *slow = NULL;

	strbuf_puts(sb, ",\"frames\":[");
	for (i = 0; i < n; i++) {
		const struct cg_frame *x = &list[i];

		strbuf_puts(sb, i ? ",[" : "[");
		put_int(sb, (int64_t)(x->start - r->origin));
		put_num(sb, (int64_t)x->wall_us);
		put_num(sb, (int64_t)x->cpu_us);
		put_num(sb, r->thread_map ? (int64_t)r->thread_map[x->thread] : (int64_t)x->thread);
		put_num(sb, (x->flags & FRAME_ADOPTED) ? 1 : 0);
		strbuf_putc(sb, ']');
	}
	strbuf_puts(sb, "],\"slowest\":[");
	ns = n ? frames_slowest(f, &slow) : 0;
	for (i = 0; i < ns; i++) {
		if (i)
			strbuf_putc(sb, ',');
		strbuf_put_u64(sb, slow[i]);
	}
	strbuf_puts(sb, "],\"framePattern\":");
	html_put_jstr(sb, f ? frames_pattern(f) : "");
}

int render_window_section(const struct cg_report *r, struct strbuf *out, struct cg_error *err)
{
	const struct cg_view *all = profile_view(r->profile, -1);
	int wall_primary = all->primary != CG_USE_CPU, dual = all->has_other;
	const char *why = render_window_why(r);
	uint64_t origin;
	size_t i, nlisted = 0;

	(void)err;
	origin = r->origin;
	for (i = 0; i < all->nthreads; i++)
		if (!r->thread_map || r->thread_map[i] >= 0)
			nlisted++;
	strbuf_puts(out, "<script type=\"application/json\" id=\"cg-win-data\">\n{\"ok\":");
	strbuf_puts(out, why ? "0" : "1");
	strbuf_puts(out, ",\"why\":\"");
	strbuf_puts(out, why ? why : "");
	strbuf_puts(out, "\",\"file\":");
	html_put_jstr(out, r->file);
	strbuf_printf(out, ",\"budget\":%zu,\"calls\":%zu,\"origin\":%" PRIu64
			   ",\"dual\":%d,\"primary\":%d,\"nlisted\":%zu,\"flameFraction\":%d,"
			   "\"flameDepth\":%d",
		      r->pagelog ? pagelog_budget(r->pagelog) : (size_t)PAGELOG_CALLS,
		      r->pagelog ? pagelog_calls(r->pagelog) : 0, wall_primary ? origin : 0, dual,
		      wall_primary ? 0 : 1, nlisted, FLAME_FRACTION, FLAME_DEPTH);
	put_frames(r, out);
	strbuf_puts(out, ",\"threads\":[");
	for (i = 0; !why && i < all->nthreads; i++) {
		if (i)
			strbuf_puts(out, ",\n");
		put_thread(r, all, i, wall_primary, dual, origin, out);
	}
	strbuf_puts(out, "]}\n</script>\n<script>\n");
	strbuf_puts(out, winui_js);
	strbuf_puts(out, "</script>\n");
	return 0;
}
