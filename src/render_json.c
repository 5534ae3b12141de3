/* render_json.c - JSON output.  Arrays sorted as the views are: methods and
 * edges by inclusive time descending, then id; integers only. */
#include "render_json.h"

#include <inttypes.h>

static void put_str(struct strbuf *sb, const char *s)
{
	strbuf_putc(sb, '"');
	strbuf_put_json(sb, s);
	strbuf_putc(sb, '"');
}

static void put_id(struct strbuf *sb, const struct cg_method_info *m)
{
	if (m->id_text)
		put_str(sb, m->id_text);
	else
		strbuf_printf(sb, "\"0x%" PRIx64 "\"", m->id);
}

static int json_render(const struct cg_report *r, struct strbuf *sb, struct cg_error *err)
{
	const struct cg_view *v = profile_view(r->profile, -1);
	const struct cg_trace_info *in = r->info;
	const struct cg_warning *w;
	size_t nw = profile_warnings(r->profile, &w), i;

	strbuf_puts(sb, "{\n  \"trace\": {\"file\": ");
	put_str(sb, r->file);
	strbuf_printf(sb, ", \"format\": \"%s\", \"version\": %d, \"clock\": \"%s\", "
			  "\"clock_used\": \"%s\", \"record_size\": %d, \"records\": %" PRIu64 ", ",
		      trace_layout_name(in->layout), in->version, trace_clock_name(in->clock),
		      r->clock == CG_USE_CPU && in->clock != CG_CLOCK_WALL ? "cpu"
		      : in->clock == CG_CLOCK_CPU ? "cpu" : "wall",
		      in->record_size, in->records);
	if (in->pid >= 0)
		strbuf_printf(sb, "\"pid\": %" PRId64 ", ", in->pid);
	else
		strbuf_puts(sb, "\"pid\": null, ");
	strbuf_puts(sb, "\"vm\": ");
	put_str(sb, in->vm);
	strbuf_printf(sb, ", \"sampling\": %s, \"overflow\": %s},\n",
		      profile_sampling(r->profile) ? "true" : "false", in->overflow ? "true" : "false");
	strbuf_printf(sb, "  \"total_us\": %" PRIu64 ",\n  \"threads\": [", v->total_us);
	for (i = 0; i < v->nthreads; i++) {
		const struct cg_pthread *t = &v->threads[i];

		strbuf_printf(sb, "%s\n    {\"tid\": %u, \"name\": ", i ? "," : "", t->tid);
		put_str(sb, t->name);
		strbuf_printf(sb, ", \"records\": %" PRIu64 ", \"inclusive_us\": %" PRIu64
				  ", \"exclusive_us\": %" PRIu64 "}",
			      t->records, t->incl_us, t->excl_us);
	}
	strbuf_puts(sb, "\n  ],\n  \"methods\": [");
	for (i = 0; i < v->nmethods; i++) {
		const struct cg_pmethod *m = &v->methods[i];

		strbuf_printf(sb, "%s\n    {\"id\": ", i ? "," : "");
		put_id(sb, m->info);
		strbuf_puts(sb, ", \"class\": ");
		put_str(sb, m->info->klass);
		strbuf_puts(sb, ", \"name\": ");
		put_str(sb, m->info->name);
		strbuf_puts(sb, ", \"signature\": ");
		put_str(sb, m->info->sig);
		strbuf_puts(sb, ", \"source\": ");
		put_str(sb, m->info->source);
		strbuf_printf(sb, ", \"inclusive_us\": %" PRIu64 ", \"exclusive_us\": %" PRIu64
				  ", \"calls\": %" PRIu64 ", \"recursive_calls\": %" PRIu64 "}",
			      m->incl_us, m->excl_us, m->calls, m->rec_calls);
	}
	strbuf_puts(sb, "\n  ],\n  \"edges\": [");
	for (i = 0; i < v->nedges; i++) {
		const struct cg_pedge *e = &v->edges[i];

		strbuf_printf(sb, "%s\n    {\"caller\": ", i ? "," : "");
		if (e->from_root)
			strbuf_printf(sb, "\"thread:%u\"", v->threads[e->caller].tid);
		else
			put_id(sb, symtab_method(r->st, e->caller));
		strbuf_puts(sb, ", \"callee\": ");
		put_id(sb, symtab_method(r->st, e->callee));
		strbuf_printf(sb, ", \"calls\": %" PRIu64 ", \"inclusive_us\": %" PRIu64 "}", e->calls,
			      e->incl_us);
	}
	strbuf_puts(sb, "\n  ],\n  \"warnings\": [");
	for (i = 0; i < nw; i++) {
		strbuf_printf(sb, "%s\n    {\"kind\": \"%s\", \"count\": %" PRIu64 ", \"message\": ",
			      i ? "," : "", w[i].name, w[i].count);
		put_str(sb, w[i].message);
		strbuf_putc(sb, '}');
	}
	strbuf_puts(sb, "\n  ]\n}\n");
	return 0;
}

const struct cg_renderer render_json = { "json", json_render };
