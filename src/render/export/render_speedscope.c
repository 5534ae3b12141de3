/* render_speedscope.c - speedscope evented profiles from the event log,
 * written as the log is read back. */
#include "render/export/render_speedscope.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/events.h"
#include "render/export/exportname.h"
#include "render/javaname.h"

/* Frame index of method m, assigned in order of first use. */
static uint32_t frame_of(uint32_t *frame, uint32_t **order, size_t *n, size_t *cap, uint32_t m)
{
	if (frame[m] == UINT32_MAX) {
		*order = xgrow(*order, cap, *n + 1, sizeof(**order));
		(*order)[*n] = m;
		frame[m] = (uint32_t)(*n)++;
	}
	return frame[m];
}

/* One open ('O') or close ('C') event, after a comma unless it is the
 * first. */
/* One event, formatted in place and added at once: the output is bound by
 * its size (three events' worth of bytes per record). */
static void put_event(struct strbuf *sb, char type, uint32_t frame, uint64_t at, int comma)
{
	static const char open[] = "\n{\"type\":\"", mid[] = "\",\"frame\":", tail[] = ",\"at\":";
	char b[sizeof(open) + sizeof(mid) + sizeof(tail) + 48];
	size_t n = 0;

	if (comma)
		b[n++] = ',';
	memcpy(b + n, open, sizeof(open) - 1);
	n += sizeof(open) - 1;
	b[n++] = type;
	memcpy(b + n, mid, sizeof(mid) - 1);
	n += sizeof(mid) - 1;
	n += fmt_u64(b + n, frame);
	memcpy(b + n, tail, sizeof(tail) - 1);
	n += sizeof(tail) - 1;
	n += fmt_u64(b + n, at);
	b[n++] = '}';
	strbuf_add(sb, b, n);
}

static void put_events(struct strbuf *sb, const struct cg_event *e, size_t n, uint64_t first,
		       uint32_t *frame, uint32_t **order, size_t *nf, size_t *cap,
		       uint32_t **stack, size_t *depth, size_t *cap_stack, int *comma)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t at = e[i].t >= first ? e[i].t - first : 0;
		uint32_t f;

		if (e[i].midx != EV_LEAVE) {
			f = frame_of(frame, order, nf, cap, e[i].midx);
			*stack = xgrow(*stack, cap_stack, *depth + 1, sizeof(**stack));
			(*stack)[(*depth)++] = f;
			put_event(sb, 'O', f, at, *comma);
		} else if (*depth) {
			f = (*stack)[--*depth];
			put_event(sb, 'C', f, at, *comma);
		}
		*comma = 1;
	}
}

/* The profiles come first and stream out as the event log is read back;
 * the frames they name follow in "shared" (JSON does not order keys). */
static int speedscope_render(const struct cg_report *r, struct strbuf *sb, struct cg_error *err)
{
	const struct cg_pthread *threads = profile_threads(r->profile);
	size_t nthreads = profile_thread_count(r->profile);
	size_t nm = symtab_method_count(r->st), i, nf = 0, cap = 0, cap_stack = 0, depth;
	uint32_t *frame, *order = NULL, *stack = NULL;
	struct cg_exportnames *names;
	const char *base = strrchr(r->file, '/');
	int rc = 0;

	if (!r->events) {
		cg_error_set(err, -1, "speedscope output needs the event log (internal error)");
		return -1;
	}
	if (events_status(r->events, err) < 0)
		return -1;
	frame = xmalloc((nm + 1) * sizeof(*frame));
	for (i = 0; i < nm; i++)
		frame[i] = UINT32_MAX;
	strbuf_puts(sb, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n"
			"\"exporter\":\"callgraph\",\"name\":");
	strbuf_put_json_string(sb, base ? base + 1 : r->file);
	strbuf_puts(sb, ",\"activeProfileIndex\":0,\n\"profiles\":[");
	for (i = 0; i < nthreads && !rc; i++) {
		const struct cg_pthread *t = &threads[i];
		struct cg_event_reader rd;
		const struct cg_event *evs;
		long n;
		int comma = 0;

		strbuf_printf(sb, "%s\n{\"type\":\"evented\",\"name\":", i ? "," : "");
		strbuf_putc(sb, '"');
		strbuf_put_json(sb, t->name);
		strbuf_printf(sb, " (tid %u)\",\"unit\":\"microseconds\",\"startValue\":0,"
				  "\"endValue\":%" PRIu64 ",\"events\":[",
			      t->tid, t->last_us - t->first_us);
		depth = 0;
		events_open(r->events, i, &rd);
		while ((n = events_next(&rd, &evs, err)) > 0) {
			put_events(sb, evs, (size_t)n, t->first_us, frame, &order, &nf, &cap, &stack,
				   &depth, &cap_stack, &comma);
			strbuf_spill(sb);
		}
		events_close(&rd);
		if (n < 0)
			rc = -1;
		strbuf_puts(sb, "]}");
	}
	if (!rc) {
		unsigned char *used = xcalloc(nm + 1, 1);

		for (i = 0; i < nf; i++)
			used[order[i]] = 1;
		names = exportname_build(r->st, used, JN_SIG | (r->short_names ? JN_SHORT : 0));
		free(used);
		strbuf_puts(sb, "],\n\"shared\":{\"frames\":[");
		for (i = 0; i < nf; i++) {
			struct cg_method_info tmp;
			const struct cg_method_info *m = symtab_method_peek(r->st, order[i], &tmp);

			strbuf_spill(sb);
			strbuf_printf(sb, "%s\n{\"name\":", i ? "," : "");
			strbuf_put_json_string(sb, exportname_get(names, order[i]));
			if (m->source[0]) {
				strbuf_puts(sb, ",\"file\":");
				strbuf_put_json_string(sb, m->source);
			}
			if (m->line > 0)
				strbuf_printf(sb, ",\"line\":%d", m->line);
			strbuf_putc(sb, '}');
		}
		strbuf_puts(sb, "]}}\n");
		exportname_free(names);
	}
	free(frame);
	free(order);
	free(stack);
	return rc;
}

const struct cg_renderer render_speedscope = { "speedscope", speedscope_render };
