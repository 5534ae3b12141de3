/* render_chrome.c - Chrome trace events from the event log. */
#include "render/export/render_chrome.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/events.h"
#include "render/export/exportname.h"
#include "render/javaname.h"

/* The CHROME_MAX_CALLS + 1 longest durations seen, as a min-heap: its root
 * is then the longest call that cannot be kept.  Bounded memory, whatever
 * the number of calls. */
struct longest {
	uint64_t *h;
	size_t n;
};

static void longest_add(struct longest *l, uint64_t d)
{
	size_t i, c;

	if (l->n < (size_t)CHROME_MAX_CALLS + 1) {
		/* Sift up. */
		for (i = l->n++; i && l->h[(i - 1) / 2] > d; i = (i - 1) / 2)
			l->h[i] = l->h[(i - 1) / 2];
		l->h[i] = d;
		return;
	}
	if (d <= l->h[0])
		return;
	/* Replace the root and sift down. */
	for (i = 0; (c = 2 * i + 1) < l->n; i = c) {
		if (c + 1 < l->n && l->h[c + 1] < l->h[c])
			c++;
		if (l->h[c] >= d)
			break;
		l->h[i] = l->h[c];
	}
	l->h[i] = d;
}

/* An open call while the event log is read. */
struct open {
	uint64_t t;      /* entry */
	uint32_t midx;
	int kept;        /* its "B" is written */
};

/* Room for one more open call in *st. */
static void open_room(struct open **st, size_t *cap, size_t depth)
{
	if (depth == *cap)
		*st = xgrow(*st, cap, depth + 1, sizeof(**st));
}

/* A call's duration: from its entry at from to its return at to. */
static uint64_t span(uint64_t from, uint64_t to)
{
	return to >= from ? to - from : 0;
}

/* Every call of thread i into top, the methods it enters marked in used,
 * its calls counted in *ncalls.  0, or -1 with err set when the event log
 * cannot be read back. */
static int measure_thread(const struct cg_events *ev, size_t i, struct longest *top,
			  unsigned char *used, struct open **st, size_t *cap_st, uint64_t *ncalls,
			  struct cg_error *err)
{
	struct cg_event_reader rd;
	const struct cg_event *e;
	size_t depth = 0, k;
	long n;

	*ncalls = 0;
	events_open(ev, i, &rd);
	while ((n = events_next(&rd, &e, err)) > 0) {
		for (k = 0; k < (size_t)n; k++) {
			if (e[k].midx != EV_LEAVE) {
				used[e[k].midx] = 1;
				open_room(st, cap_st, depth);
				(*st)[depth++].t = e[k].t;
				(*ncalls)++;
			} else if (depth) {
				uint64_t d = span((*st)[--depth].t, e[k].t);

				/* Most calls are shorter than the heap's shortest. */
				if (top->n <= (size_t)CHROME_MAX_CALLS || d > top->h[0])
					longest_add(top, d);
			}
		}
	}
	events_close(&rd);
	/* The log closes every call; one it did not would last 0. */
	for (; depth; depth--)
		longest_add(top, 0);
	return n < 0 ? -1 : 0;
}

/* The start of a begin or end event up to its name's opening quote; head
 * holds the thread's "pid":P,"tid":T,"ts": (written once per thread). */
static void put_head(struct strbuf *sb, char ph, const struct strbuf *head, uint64_t ts)
{
	strbuf_puts(sb, ",\n{\"ph\":\"");
	strbuf_putc(sb, ph);
	strbuf_puts(sb, "\",");
	strbuf_add(sb, head->data, head->len);
	strbuf_put_u64(sb, ts);
	strbuf_puts(sb, ",\"name\":\"");
}

static int chrome_render(const struct cg_report *r, struct strbuf *sb, struct cg_error *err)
{
	const struct cg_pthread *threads = profile_threads(r->profile);
	size_t nthreads = profile_thread_count(r->profile);
	size_t nm = symtab_method_count(r->st), i, k, cap_st = 0;
	uint64_t min_dur = 1, kept = 0, total = 0, n;
	struct longest top;
	int rc = 0;
	struct open *st = NULL;
	unsigned char *used;
	struct cg_exportnames *names = NULL;
	struct strbuf meta, head;
	int64_t pid = r->info->pid >= 0 ? r->info->pid : 0;

	if (!r->events) {
		cg_error_set(err, -1, "Chrome trace output needs the event log (internal error)");
		return -1;
	}
	if (events_status(r->events, err) < 0)
		return -1;
	/* The bound: every call's duration, the longest CHROME_MAX_CALLS + 1
	 * kept, and the methods entered. */
	top.h = xmalloc(((size_t)CHROME_MAX_CALLS + 1) * sizeof(*top.h));
	top.n = 0;
	used = xcalloc(nm + 1, 1);
	strbuf_init(&meta);
	strbuf_init(&head);
	for (i = 0; i < nthreads; i++) {
		if (measure_thread(r->events, i, &top, used, &st, &cap_st, &n, err) < 0) {
			rc = -1;
			goto done;
		}
		total += n;
	}
	/* Keep calls strictly longer than the longest that cannot be kept. */
	if (total > CHROME_MAX_CALLS && top.h[0] + 1 > min_dur)
		min_dur = top.h[0] + 1;
	names = exportname_build(r->st, used, JN_SIG | (r->short_names ? JN_SHORT : 0));

	strbuf_printf(sb, "{\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRId64
			  ",\"tid\":0,\"args\":{\"name\":\"",
		      pid);
	strbuf_put_json(sb, r->info->vm && r->info->vm[0] ? r->info->vm : "java");
	strbuf_puts(sb, "\"}}");
	for (i = 0; i < nthreads && !rc; i++) {
		const struct cg_pthread *t = &threads[i];
		struct cg_event_reader rd;
		const struct cg_event *e;
		size_t depth = 0, und = 0;
		uint64_t calls = 0, dropped_top = 0, kept_before = kept;
		long got;

		strbuf_printf(sb, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRId64
				  ",\"tid\":%u,\"args\":{\"name\":\"",
			      pid, t->tid);
		strbuf_put_json(sb, t->name);
		strbuf_printf(sb, "\"}},\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%" PRId64
				  ",\"tid\":%u,\"args\":{\"sort_index\":%zu}}",
			      pid, t->tid, i);
		strbuf_reset(&head);
		strbuf_printf(&head, "\"pid\":%" PRId64 ",\"tid\":%u,\"ts\":", pid, t->tid);
		/* A call is kept once it has lasted min_dur: its "B" is
		 * written then, before the event that shows it, and a call that
		 * returns sooner is dropped with all it called (a callee never
		 * outlasts its caller).  The undecided calls are the top of the
		 * stack, from und up: the same "B" and "E" events, in the same
		 * order, as deciding each call at its entry would give. */
		events_open(r->events, i, &rd);
		while ((got = events_next(&rd, &e, err)) > 0) {
			for (k = 0; k < (size_t)got; k++) {
				struct open *o;

				for (; und < depth && span(st[und].t, e[k].t) >= min_dur; und++) {
					st[und].kept = 1;
					kept++;
					put_head(sb, 'B', &head, st[und].t);
					strbuf_put_json(sb, exportname_get(names, st[und].midx));
					strbuf_puts(sb, "\"}");
				}
				if (e[k].midx != EV_LEAVE) {
					calls++;
					open_room(&st, &cap_st, depth);
					o = &st[depth++];
					o->t = e[k].t;
					o->midx = e[k].midx;
					o->kept = 0;
				} else if (depth) {
					o = &st[--depth];
					if (und > depth)
						und = depth;
					if (!o->kept) {
						if (depth == 0)
							dropped_top += span(o->t, e[k].t);
						continue;
					}
					put_head(sb, 'E', &head, e[k].t);
					strbuf_put_json(sb, exportname_get(names, o->midx));
					strbuf_puts(sb, "\",\"args\":{}}");
				}
			}
			strbuf_spill(sb);
		}
		events_close(&rd);
		if (got < 0) {
			rc = -1;
			break;
		}
		strbuf_printf(&meta, "%s{\"tid\":%u,\"calls\":%" PRIu64 ",\"dropped\":%" PRIu64
				     ",\"dropped_top_us\":%" PRIu64 "}",
			      i ? "," : "", t->tid, calls, calls - (kept - kept_before), dropped_top);
	}
	if (rc)
		goto done;
	strbuf_printf(sb, "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{\"callgraph\":{\"clock\":\"%s\","
			  "\"rule\":\"calls of 0 us are left out; when more than max_calls remain, only the longest: calls lasting at least min_dur_us\","
			  "\"max_calls\":%d,\"min_dur_us\":%" PRIu64 ",\"calls\":%" PRIu64 ",\"kept\":%" PRIu64
			  ",\"dropped\":%" PRIu64 ",\"threads\":[",
		      report_clock_name(r), CHROME_MAX_CALLS, min_dur, total, kept, total - kept);
	strbuf_add(sb, meta.data ? meta.data : "", meta.len);
	strbuf_puts(sb, "]}}}\n");
done:
	strbuf_free(&meta);
	strbuf_free(&head);
	exportname_free(names);
	free(top.h);
	free(used);
	free(st);
	return rc;
}

const struct cg_renderer render_chrome = { "chrome-trace", chrome_render };
