/* render_timeline.c - the HTML report's timeline and flame-graph section:
 * markup, CSS, a JSON data block and the script that draws both on canvases.
 * render_html.c calls render_timeline_section once, after the flat profile.
 *
 * Every trace-derived string reaches the page as JSON inside <script>, with
 * <, > and & written as \u003c, \u003e, \u0026, and is drawn as canvas text
 * or set through textContent, never parsed as markup.  No network reference.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render/javaname.h"
#include "render/report/render_flame.h"
#include "render/report/render_timeline.h"
#include "render/report/render_window.h"
#include "render/report/html_parts.h"
#include "model/frames.h"
#include "model/pagelog.h"
#include "model/timeline.h"

/* The section's stylesheet (src/render/report/assets/timeline.css) and its script
 * (src/render/report/assets/timeline.js), which draws the timeline and flame graph from
 * #cg-tl-data; it exposes window.cgTimelineSelect(k) (k: a method's position
 * in the all-threads view, as the table's data-k) and listens to the table
 * and #thread. */
static const char timeline_css[] =
#include "timeline.css.inc"
;
static const char timeline_js[] =
#include "timeline.js.inc"
;



/* Append the JSON text src to sb with <, > and & written as \u escapes (so
 * no "</script>" can close the element), and inside strings also ':' (so
 * no "http://" appears in the file: the report makes no network reference,
 * and a test greps for one).  Outside strings only ':' occurs of these. */
static void put_script_safe(struct strbuf *sb, const struct strbuf *src)
{
	size_t i, from = 0;
	int in_str = 0, esc = 0;

	for (i = 0; i < src->len; i++) {
		char c = src->data[i];
		const char *rep = NULL;

		if (in_str && esc) {
			esc = 0;
			continue;
		}
		if (c == '"')
			in_str = !in_str;
		else if (in_str && c == '\\')
			esc = 1;
		else if (c == '<')
			rep = "\\u003c";
		else if (c == '>')
			rep = "\\u003e";
		else if (c == '&')
			rep = "\\u0026";
		else if (c == ':' && in_str)
			rep = "\\u003a";
		if (!rep)
			continue;
		strbuf_add(sb, src->data + from, i - from);
		strbuf_puts(sb, rep);
		from = i + 1;
	}
	strbuf_add(sb, src->data + from, src->len - from);
}

static void put_data(const struct cg_report *r, struct strbuf *sb)
{
	const struct cg_view *all = profile_view(r->profile, -1);
	size_t nm = symtab_method_count(r->st), i;
	unsigned char *used = xmalloc(nm ? nm : 1), *over = javaname_overloads(r->st);
	struct strbuf js, name;
	struct cg_method_info tmp;
	int first = 1;

	memset(used, 0, nm ? nm : 1);
	strbuf_init(&js);
	strbuf_init(&name);
	strbuf_printf(&js, "{\"clock\":\"%s\",\"timeline\":", profile_clock_name(all->primary));
	timeline_json(r->timeline, r->profile, r->thread_map, used, nm, &js);
	strbuf_puts(&js, ",\n\"flame\":");
	if (r->cct)
		flame_json(r->cct, r->profile, r->thread_map, used, nm, &js);
	else
		strbuf_puts(&js, "{\"threads\":[]}");
	strbuf_puts(&js, ",\n\"threads\":[");
	for (i = 0; i < all->nthreads; i++) {
		/* Listed threads only, in order: entry j is the thread mapped to j. */
		if (r->thread_map && r->thread_map[i] < 0)
			continue;
		strbuf_printf(&js, "%s[%" PRIu32 ",\"", first ? "" : ",", all->threads[i].tid);
		first = 0;
		strbuf_put_json(&js, all->threads[i].name);
		strbuf_puts(&js, "\"]");
	}
	strbuf_puts(&js, "],\n\"names\":{");
	first = 1;
	for (i = 0; i < nm; i++) {
		if (!used[i] || i >= all->npos || all->method_pos[i] == UINT32_MAX)
			continue;
		strbuf_reset(&name);
		javaname_put_label(&name, symtab_method_peek(r->st, (uint32_t)i, &tmp),
				   r->short_names ? JN_SHORT : 0, over[i]);
		strbuf_printf(&js, "%s\"%" PRIu32 "\":\"", first ? "" : ",", all->method_pos[i]);
		strbuf_put_json(&js, name.data ? name.data : "");
		strbuf_putc(&js, '"');
		first = 0;
	}
	strbuf_puts(&js, "}}");
	strbuf_puts(sb, "<script type=\"application/json\" id=\"cg-tl-data\">\n");
	put_script_safe(sb, &js);
	strbuf_puts(sb, "\n</script>\n");
	strbuf_free(&js);
	strbuf_free(&name);
	free(used);
	free(over);
}

/* How to choose a window of the trace, and what the page needs for it. */
static void put_window_note(const struct cg_report *r, struct strbuf *out)
{
	const char *why = render_window_why(r);

	strbuf_puts(out, "<p class=\"tlnote\" id=\"win-note\">Windows: drag along the time axis (the "
			 "scale above the rows, on the wall clock) to choose a window of the trace, or click "
			 "a frame in the Frames lane (each outermost call of ");
	html_put_text(out, r->frames ? frames_pattern(r->frames) : "Choreographer.doFrame");
	strbuf_puts(out, ", as wide as it lasted and coloured by its wall time; the slowest outlined "
			 "and marked). "
			 "The profile, Top Down, Bottom Up and the flame graph then show that window, "
			 "exactly as callgraph --range FROM:TO does; the bar at the top says which window "
			 "is shown and goes back to the whole trace. ");
	if (!why && profile_view(r->profile, -1)->primary == CG_USE_CPU)
		strbuf_puts(out, "With --clock cpu the timeline is on the cpu clock, which has no common "
				 "axis: run callgraph without it for the frames lane and windows. ");
	if (r->pagelog && pagelog_over(r->pagelog))
		strbuf_printf(out, "This page cannot compute windows: the trace has more than %zu calls, "
				   "the budget of the call log the page would need; it shows the --range "
				   "command for the window chosen instead.", pagelog_budget(r->pagelog));
	else if (why)
		strbuf_printf(out, "This page cannot compute windows: %s; it shows the --range command "
				   "for the window chosen instead.", why);
	else
		strbuf_printf(out, "The page computes them from a log of every call it holds: %zu "
				   "calls, within its budget of %zu.",
			      pagelog_calls(r->pagelog), pagelog_budget(r->pagelog));
	strbuf_puts(out, "</p>\n");
}

int render_timeline_section(const struct cg_report *r, struct strbuf *out, struct cg_error *err)
{
	uint64_t seen = 0, kept = 0, merged = 0;

	(void)err;
	strbuf_puts(out, "<nav id=\"cg-nav\" hidden><a href=\"#summary\">Summary</a> "
			 "<a href=\"#graph\">Call graph</a> <a href=\"#profile\">Profile</a> "
			 "<a href=\"#topdown\">Top Down</a> <a href=\"#bottomup\">Bottom Up</a> "
			 "<a href=\"#timeline\">Timeline</a> <a href=\"#flame\">Flame graph</a></nav>\n");
	if (!r->timeline) {
		strbuf_puts(out, "<section id=\"timeline\">\n<h2>Timeline</h2>\n<p>Not collected.</p>\n"
				 "</section>\n");
		return 0;
	}
	timeline_counts(r->timeline, &seen, &kept, &merged);
	strbuf_puts(out, "<style>\n");
	strbuf_puts(out, timeline_css);
	strbuf_puts(out, "</style>\n<section id=\"timeline\">\n<h2>Timeline</h2>\n");
	strbuf_printf(out, "<p class=\"tlnote\">One row per thread, calls as nested bars on the %s "
			   "clock%s. To stay small, the report keeps %" PRIu64 " of %" PRIu64 " calls: "
			   "per thread the %d longest, and of those only calls of at least 1/%d of "
			   "the thread's time, at most %d in all; the other %" PRIu64 " are merged "
			   "into grey busy strips (%d bins per depth, darker when busier). Wheel or "
			   "+/- to zoom, drag or arrows to pan, 0 for all; click a method in the "
			   "flat profile to mark its kept calls under the rows. Threads with no "
			   "recorded time fold into one row; click it to show them.</p>\n",
		      profile_view(r->profile, -1)->has_other ? "chosen" : report_clock_name(r),
		      profile_view(r->profile, -1)->has_other ? " (the Clock switch; which calls are "
								"kept is decided on the primary clock, "
								"the first one it offers)" : "",
		      kept, seen, TL_CAP, TL_FRACTION, TL_BUDGET, merged,
		      TL_BINS);
	put_window_note(r, out);
	strbuf_puts(out, "<div class=\"tlbar\"><button type=\"button\" id=\"tl-in\">Zoom in</button>"
			 "<button type=\"button\" id=\"tl-out\">Zoom out</button>"
			 "<button type=\"button\" id=\"tl-all\">Whole trace</button>"
			 "<span id=\"tl-range\"></span></div>\n"
			 "<div id=\"tl\"><canvas id=\"tl-canvas\" tabindex=\"0\" width=\"800\" "
			 "height=\"40\"></canvas></div>\n</section>\n");
	strbuf_puts(out, "<section id=\"flame\">\n<h2>Flame graph</h2>\n");
	strbuf_printf(out, "<p class=\"tlnote\">Callers above callees; widths are inclusive time "
			   "from the calling-context tree. Frames narrower than 1/%d of their "
			   "thread's time (or deeper than %d levels) are left out and their time "
			   "shows as their parent's own time. Click a frame to zoom; search takes a "
			   "regular expression and reports the matched share.</p>\n",
		      FLAME_FRACTION, FLAME_DEPTH);
	strbuf_puts(out, "<div class=\"tlbar\"><button type=\"button\" id=\"fl-reset\">Reset zoom"
			 "</button><input type=\"search\" id=\"fl-search\" placeholder=\"Search frames"
			 "\"><span id=\"fl-matched\"></span></div>\n"
			 "<div id=\"fl\"><canvas id=\"fl-canvas\" width=\"800\" height=\"20\"></canvas>"
			 "</div>\n</section>\n<div id=\"cg-tip\" class=\"cg-tip\" hidden></div>\n");
	put_data(r, out);
	strbuf_puts(out, "<script>\n");
	strbuf_puts(out, timeline_js);
	strbuf_puts(out, "</script>\n");
	return 0;
}
