/* render_chrome.c - Chrome trace events from the event log. */
#include "render/render_chrome.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/events.h"
#include "render/exportname.h"
#include "render/javaname.h"

/* Thread i's events as one sequence: the adopted enters, then the log. */
struct seq {
	const struct cg_event *pre, *evs;
	size_t npre, n;
};

static const struct cg_event *seq_at(const struct seq *s, size_t k)
{
	return k < s->npre ? &s->pre[k] : &s->evs[k - s->npre];
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

struct open {
	size_t call;  /* index of the call in the thread's calls */
	uint64_t t;
};

/* Durations of thread s's calls in order of entry, into dur[0..ncalls). */
static size_t durations(const struct seq *s, uint64_t **dur, size_t *cap, struct open **st,
			size_t *cap_st)
{
	size_t k, ncalls = 0, depth = 0;

	for (k = 0; k < s->npre + s->n; k++) {
		const struct cg_event *e = seq_at(s, k);

		if (e->midx != EV_LEAVE) {
			*dur = xgrow(*dur, cap, ncalls + 1, sizeof(**dur));
			(*dur)[ncalls] = 0;
			*st = xgrow(*st, cap_st, depth + 1, sizeof(**st));
			(*st)[depth].call = ncalls++;
			(*st)[depth].t = e->t;
			depth++;
		} else if (depth) {
			depth--;
			(*dur)[(*st)[depth].call] = e->t >= (*st)[depth].t ? e->t - (*st)[depth].t : 0;
		}
	}
	return ncalls;
}

static int chrome_render(const struct cg_report *r, struct strbuf *sb, struct cg_error *err)
{
	const struct cg_view *v = profile_view(r->profile, -1);
	size_t nm = symtab_method_count(r->st), i, k, cap = 0, cap_st = 0, cap_all = 0, nall = 0;
	uint64_t *dur = NULL, *all = NULL, min_dur = 0, kept = 0, total = 0;
	struct open *st = NULL;
	unsigned char *used, *keep = NULL;
	uint32_t *open_m = NULL;  /* method of each open call */
	size_t cap_keep = 0, cap_m = 0;
	struct cg_exportnames *names;
	struct strbuf meta;
	int64_t pid = r->info->pid >= 0 ? r->info->pid : 0;

	if (!r->events) {
		cg_error_set(err, -1, "Chrome trace output needs the event log (internal error)");
		return -1;
	}
	/* The bound: every call's duration, the longest CHROME_MAX_CALLS. */
	for (i = 0; i < v->nthreads; i++) {
		struct seq s;
		size_t n;

		events_thread(r->events, i, &s.pre, &s.npre, &s.evs, &s.n);
		n = durations(&s, &dur, &cap, &st, &cap_st);
		all = xgrow(all, &cap_all, nall + n + 1, sizeof(*all));
		if (n)
			memcpy(all + nall, dur, n * sizeof(*dur));
		nall += n;
	}
	total = nall;
	min_dur = 1;
	if (nall > CHROME_MAX_CALLS) {
		qsort(all, nall, sizeof(*all), cmp_desc);
		/* all[CHROME_MAX_CALLS] is the longest call that cannot be kept:
		 * keep strictly longer ones. */
		if (all[CHROME_MAX_CALLS] + 1 > min_dur)
			min_dur = all[CHROME_MAX_CALLS] + 1;
	}
	free(all);

	used = xcalloc(nm + 1, 1);
	for (i = 0; i < v->nthreads; i++) {
		const struct cg_event *pre, *evs;
		size_t npre, n;

		events_thread(r->events, i, &pre, &npre, &evs, &n);
		for (k = 0; k < npre; k++)
			used[pre[k].midx] = 1;
		for (k = 0; k < n; k++)
			if (evs[k].midx != EV_LEAVE)
				used[evs[k].midx] = 1;
	}
	names = exportname_build(r->st, used, JN_SIG | (r->short_names ? JN_SHORT : 0));
	free(used);

	strbuf_init(&meta);
	strbuf_printf(sb, "{\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRId64
			  ",\"tid\":0,\"args\":{\"name\":\"",
		      pid);
	strbuf_put_json(sb, r->info->vm && r->info->vm[0] ? r->info->vm : "java");
	strbuf_puts(sb, "\"}}");
	for (i = 0; i < v->nthreads; i++) {
		const struct cg_pthread *t = &v->threads[i];
		struct seq s;
		size_t n, call = 0, depth = 0;
		uint64_t dropped = 0, dropped_top = 0;

		strbuf_printf(sb, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRId64
				  ",\"tid\":%u,\"args\":{\"name\":\"",
			      pid, t->tid);
		strbuf_put_json(sb, t->name);
		strbuf_printf(sb, "\"}},\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%" PRId64
				  ",\"tid\":%u,\"args\":{\"sort_index\":%zu}}",
			      pid, t->tid, i);
		events_thread(r->events, i, &s.pre, &s.npre, &s.evs, &s.n);
		n = durations(&s, &dur, &cap, &st, &cap_st);
		for (k = 0; k < s.npre + s.n; k++) {
			const struct cg_event *e = seq_at(&s, k);

			keep = xgrow(keep, &cap_keep, depth + 1, 1);
			if (e->midx != EV_LEAVE) {
				int kp = dur[call] >= min_dur;

				if (!kp) {
					dropped++;
					if (depth == 0)
						dropped_top += dur[call];
				}
				call++;
				open_m = xgrow(open_m, &cap_m, depth + 1, sizeof(*open_m));
				open_m[depth] = e->midx;
				keep[depth++] = (unsigned char)kp;
				if (!kp)
					continue;
				kept++;
				strbuf_printf(sb, ",\n{\"ph\":\"B\",\"pid\":%" PRId64 ",\"tid\":%u,\"ts\":%" PRIu64
						  ",\"name\":\"",
					      pid, t->tid, e->t);
				strbuf_put_json(sb, exportname_get(names, e->midx));
				strbuf_puts(sb, "\"}");
			} else if (depth) {
				if (!keep[--depth])
					continue;
				strbuf_printf(sb, ",\n{\"ph\":\"E\",\"pid\":%" PRId64 ",\"tid\":%u,\"ts\":%" PRIu64
						  ",\"name\":\"",
					      pid, t->tid, e->t);
				strbuf_put_json(sb, exportname_get(names, open_m[depth]));
				strbuf_puts(sb, "\",\"args\":{}}");
			}
		}
		strbuf_printf(&meta, "%s{\"tid\":%u,\"calls\":%zu,\"dropped\":%" PRIu64
				     ",\"dropped_top_us\":%" PRIu64 "}",
			      i ? "," : "", t->tid, n, dropped, dropped_top);
	}
	strbuf_printf(sb, "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{\"callgraph\":{\"clock\":\"%s\","
			  "\"rule\":\"calls of 0 us are left out; when more than max_calls remain, only the longest: calls lasting at least min_dur_us\","
			  "\"max_calls\":%d,\"min_dur_us\":%" PRIu64 ",\"calls\":%" PRIu64 ",\"kept\":%" PRIu64
			  ",\"dropped\":%" PRIu64 ",\"threads\":[",
		      report_clock_name(r), CHROME_MAX_CALLS, min_dur, total, kept, total - kept);
	strbuf_add(sb, meta.data ? meta.data : "", meta.len);
	strbuf_puts(sb, "]}}}\n");
	strbuf_free(&meta);
	exportname_free(names);
	free(dur);
	free(st);
	free(keep);
	free(open_m);
	return 0;
}

const struct cg_renderer render_chrome = { "chrome-trace", chrome_render };
