/* dump.c - record dump.  Line format:
 *   OFFSET TID ACTION CPU_US WALL_US DEPTH  <indent>class.method signature
 * where ACTION is ent, xit, unr or a3, and DEPTH is the stack depth after an
 * entry or before an exit (exits never go below zero). */
#include "render/text/dump.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/itab.h"
#include "util/strbuf.h"

/* The depth of a thread whose tid is 65536 or more (tid first, as the
 * table reads it). */
struct big_depth {
	uint32_t tid;
	uint32_t depth;
};

struct cg_dump {
	FILE *out;
	uint32_t depth[65536];   /* by tid, below 65536 */
	struct big_depth *big;   /* the larger (32-bit V2) tids */
	size_t nbig, cap_big;
	struct cg_itab big_tab;
	struct strbuf line;
};

struct cg_dump *dump_create(FILE *out)
{
	struct cg_dump *d = xcalloc(1, sizeof(*d));

	d->out = out;
	d->big_tab.key4 = 1;
	strbuf_init(&d->line);
	return d;
}

void dump_free(struct cg_dump *d)
{
	if (!d)
		return;
	strbuf_free(&d->line);
	free(d->big);
	itab_free(&d->big_tab);
	free(d);
}

/* The depth counter of thread tid. */
static uint32_t *depth_of(struct cg_dump *d, uint32_t tid)
{
	uint32_t i;

	if (tid <= 0xffff)
		return &d->depth[tid];
	i = itab_find(&d->big_tab, tid, d->big, sizeof(*d->big));
	if (i == ITAB_NONE) {
		d->big = xgrow(d->big, &d->cap_big, d->nbig + 1, sizeof(*d->big));
		d->big[d->nbig].tid = tid;
		d->big[d->nbig].depth = 0;
		i = (uint32_t)d->nbig++;
		itab_insert(&d->big_tab, i, d->big, sizeof(*d->big));
	}
	return &d->big[i].depth;
}

static void put_threads(struct cg_dump *d, struct cg_symtab *st)
{
	size_t i;

	for (i = 0; i < symtab_thread_count(st); i++) {
		const struct cg_thread_info *t = symtab_thread_at(st, i);

		if (t->named)
			fprintf(d->out, "# thread %u %s\n", t->tid, t->name);
	}
}

void dump_header(struct cg_dump *d, const char *file, const struct cg_trace_info *in,
		 struct cg_symtab *st)
{
	fprintf(d->out, "# callgraph dump of %s\n", file);
	fprintf(d->out, "# format %s version %d header-version 0x%x record-size %d%s\n",
		trace_layout_name(in->layout), in->version, in->header_version, in->record_size,
		in->gzip ? " gzip" : "");
	fprintf(d->out, "# clock %s start-us %" PRIu64, trace_clock_name(in->clock), in->start_us);
	if (in->records_declared >= 0)
		fprintf(d->out, " num-method-calls %" PRId64, in->records_declared);
	if (in->elapsed_us >= 0)
		fprintf(d->out, " elapsed-us %" PRId64, in->elapsed_us);
	if (in->pid >= 0)
		fprintf(d->out, " pid %" PRId64, in->pid);
	if (in->vm[0])
		fprintf(d->out, " vm %s", in->vm);
	fprintf(d->out, "%s\n", in->overflow ? " overflow" : "");
	fprintf(d->out, "# methods %zu\n", symtab_method_count(st));
	put_threads(d, st);
	fprintf(d->out, "# offset tid action cpu-us wall-us depth method\n");
}

void dump_records(struct cg_dump *d, struct cg_symtab *st, const struct cg_record *recs, size_t n)
{
	static const char *const names[4] = { "ent", "xit", "unr", "a3" };
	size_t i;

	for (i = 0; i < n; i++) {
		const struct cg_record *r = &recs[i];
		uint32_t *depth = depth_of(d, r->tid);
		int64_t mi = symtab_find_method(st, r->method);
		uint32_t shown;

		if (r->action == CG_ENTER)
			shown = ++*depth;
		else
			shown = *depth ? (*depth)-- : 0;
		strbuf_reset(&d->line);
		strbuf_printf(&d->line, "%" PRIu64 " %u %s %u %u %u  ", r->offset, r->tid,
			      names[r->action & 3], r->t_cpu, r->t_wall, shown);
		for (uint32_t k = 1; k < shown && k <= 64; k++)
			strbuf_putc(&d->line, ' ');
		if (mi >= 0) {
			struct cg_method_info tmp;
			const struct cg_method_info *m = symtab_method_peek(st, (uint32_t)mi, &tmp);

			symtab_put_display(&d->line, m);
			if (m->sig[0]) {
				strbuf_putc(&d->line, ' ');
				strbuf_puts(&d->line, m->sig);
			}
		} else {
			strbuf_printf(&d->line, "unknown.0x%x", r->method);
		}
		strbuf_putc(&d->line, '\n');
		fwrite(d->line.data, 1, d->line.len, d->out);
	}
}

void dump_footer(struct cg_dump *d, const struct cg_trace_info *in, struct cg_symtab *st)
{
	fprintf(d->out, "# end: %" PRIu64 " records%s\n", in->records,
		in->truncated ? " (truncated)" : "");
	if (in->layout == CG_LAYOUT_STREAMING) {
		fprintf(d->out, "# threads after the summary:\n");
		put_threads(d, st);
	}
}
