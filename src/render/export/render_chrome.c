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

struct open {
	size_t call;  /* index of the call in the thread's calls */
	uint64_t t;
};

/* Durations of thread i's calls in order of entry, into dur[0..*ncalls).
 * 0, or -1 with err set when the event log cannot be read back. */
static int durations(const struct cg_events *ev, size_t i, uint64_t **dur, size_t *cap,
		     struct open **st, size_t *cap_st, size_t *ncalls, struct cg_error *err)
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
				*dur = xgrow(*dur, cap, *ncalls + 1, sizeof(**dur));
				(*dur)[*ncalls] = 0;
				*st = xgrow(*st, cap_st, depth + 1, sizeof(**st));
				(*st)[depth].call = (*ncalls)++;
				(*st)[depth].t = e[k].t;
				depth++;
			} else if (depth) {
				depth--;
				(*dur)[(*st)[depth].call] =
					e[k].t >= (*st)[depth].t ? e[k].t - (*st)[depth].t : 0;
			}
		}
	}
	events_close(&rd);
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
	size_t nm = symtab_method_count(r->st), i, k, cap = 0, cap_st = 0;
	uint64_t *dur = NULL, min_dur = 0, kept = 0, total = 0;
	struct longest top;
	int rc = 0;
	struct open *st = NULL;
	unsigned char *used, *keep = NULL;
	uint32_t *open_m = NULL;  /* method of each open call */
	size_t cap_keep = 0, cap_m = 0;
	struct cg_exportnames *names;
	struct strbuf meta, head;
	int64_t pid = r->info->pid >= 0 ? r->info->pid : 0;

	if (!r->events) {
		cg_error_set(err, -1, "Chrome trace output needs the event log (internal error)");
		return -1;
	}
	if (events_status(r->events, err) < 0)
		return -1;
	/* The bound: every call's duration, the longest CHROME_MAX_CALLS. */
	top.h = xmalloc(((size_t)CHROME_MAX_CALLS + 1) * sizeof(*top.h));
	top.n = 0;
	for (i = 0; i < nthreads; i++) {
		size_t n;

		if (durations(r->events, i, &dur, &cap, &st, &cap_st, &n, err) < 0) {
			free(top.h);
			rc = -1;
			goto fail;
		}
		for (k = 0; k < n; k++)
			longest_add(&top, dur[k]);
		total += n;
	}
	min_dur = 1;
	/* Keep calls strictly longer than the longest that cannot be kept. */
	if (total > CHROME_MAX_CALLS && top.h[0] + 1 > min_dur)
		min_dur = top.h[0] + 1;
	free(top.h);

	used = xcalloc(nm + 1, 1);
	for (i = 0; i < nthreads; i++) {
		struct cg_event_reader rd;
		const struct cg_event *e;
		long n;

		events_open(r->events, i, &rd);
		while ((n = events_next(&rd, &e, err)) > 0)
			for (k = 0; k < (size_t)n; k++)
				if (e[k].midx != EV_LEAVE)
					used[e[k].midx] = 1;
		events_close(&rd);
		if (n < 0) {
			free(used);
			rc = -1;
			goto fail;
		}
	}
	names = exportname_build(r->st, used, JN_SIG | (r->short_names ? JN_SHORT : 0));
	free(used);

	strbuf_init(&meta);
	strbuf_init(&head);
	strbuf_printf(sb, "{\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRId64
			  ",\"tid\":0,\"args\":{\"name\":\"",
		      pid);
	strbuf_put_json(sb, r->info->vm && r->info->vm[0] ? r->info->vm : "java");
	strbuf_puts(sb, "\"}}");
	for (i = 0; i < nthreads && !rc; i++) {
		const struct cg_pthread *t = &threads[i];
		struct cg_event_reader rd;
		const struct cg_event *e;
		size_t n, call = 0, depth = 0;
		uint64_t dropped = 0, dropped_top = 0;
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
		if (durations(r->events, i, &dur, &cap, &st, &cap_st, &n, err) < 0) {
			rc = -1;
			break;
		}
		events_open(r->events, i, &rd);
		while ((got = events_next(&rd, &e, err)) > 0) {
			for (k = 0; k < (size_t)got; k++) {
				keep = xgrow(keep, &cap_keep, depth + 1, 1);
				if (e[k].midx != EV_LEAVE) {
					int kp = dur[call] >= min_dur;

					if (!kp) {
						dropped++;
						if (depth == 0)
							dropped_top += dur[call];
					}
					call++;
					open_m = xgrow(open_m, &cap_m, depth + 1, sizeof(*open_m));
					open_m[depth] = e[k].midx;
					keep[depth++] = (unsigned char)kp;
					if (!kp)
						continue;
					kept++;
					put_head(sb, 'B', &head, e[k].t);
					strbuf_put_json(sb, exportname_get(names, e[k].midx));
					strbuf_puts(sb, "\"}");
				} else if (depth) {
					if (!keep[--depth])
						continue;
					put_head(sb, 'E', &head, e[k].t);
					strbuf_put_json(sb, exportname_get(names, open_m[depth]));
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
		strbuf_printf(&meta, "%s{\"tid\":%u,\"calls\":%zu,\"dropped\":%" PRIu64
				     ",\"dropped_top_us\":%" PRIu64 "}",
			      i ? "," : "", t->tid, n, dropped, dropped_top);
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
fail:
	free(dur);
	free(st);
	free(keep);
	free(open_m);
	return rc;
}

const struct cg_renderer render_chrome = { "chrome-trace", chrome_render };
