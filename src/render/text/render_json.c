/* render_json.c - JSON output.  Arrays sorted as the views are: methods and
 * edges by inclusive time descending, then id; integers only.
 *
 * The unprefixed times (total_us, inclusive_us, exclusive_us) are on the
 * primary clock ("clock_used").  Beside them, every total, thread, method and
 * edge carries its times under each clock's name: cpu_* and wall_* on a
 * dual-clock trace, only the one clock's on a single-clock trace (wall for
 * wall and global clocks); "clocks" lists which. */
#include "render/text/render_json.h"

#include <inttypes.h>

#include "model/window.h"
#include "render/text/render_frames.h"

/* A method by its id: its text, or "0x<id>". */
static void put_id_of(struct strbuf *sb, const char *id_text, uint64_t id)
{
	if (id_text)
		strbuf_put_json_string(sb, id_text);
	else {
		strbuf_puts(sb, "\"0x");
		strbuf_put_hex(sb, id);
		strbuf_putc(sb, '"');
	}
}

static void put_id(struct strbuf *sb, const struct cg_method_info *m)
{
	put_id_of(sb, m->id_text, m->id);
}

/* Method index's id, without its other fields. */
static void put_index_id(struct strbuf *sb, const struct cg_symtab *st, uint32_t index)
{
	uint64_t id;
	const char *text = symtab_method_id_text(st, index, &id);

	put_id_of(sb, text, id);
}

/* key (its leading ", " and quotes included), then v. */
static void put_num(struct strbuf *sb, const char *key, uint64_t v)
{
	strbuf_puts(sb, key);
	strbuf_put_u64(sb, v);
}

/* The named-clock twins of a total, thread, method or edge, in Traceview's
 * order: `, "cpu_inclusive_us": .., "cpu_exclusive_us": .., "wall_inclusive_us":
 * .., "wall_exclusive_us": ..` for the clocks the view has.  incl and excl
 * are on the primary clock, o_incl and o_excl on the other; `what` is
 * "total" for the total (one number per clock), else "inclusive", and
 * with_excl adds the exclusive ones. */
static void put_clocks(struct strbuf *sb, const struct cg_view *v, const char *what,
		       uint64_t incl, uint64_t o_incl, int with_excl, uint64_t excl,
		       uint64_t o_excl)
{
	int c;

	for (c = 0; c < 2; c++) {
		enum cg_clock_sel clk = c == 0 ? CG_USE_CPU : CG_USE_WALL;
		int primary = v->primary == clk;

		if (!primary && !v->has_other)
			continue;
		strbuf_puts(sb, ", \"");
		strbuf_puts(sb, profile_clock_name(clk));
		strbuf_putc(sb, '_');
		strbuf_puts(sb, what);
		strbuf_puts(sb, "_us\": ");
		strbuf_put_u64(sb, primary ? incl : o_incl);
		if (with_excl) {
			strbuf_puts(sb, ", \"");
			strbuf_puts(sb, profile_clock_name(clk));
			strbuf_puts(sb, "_exclusive_us\": ");
			strbuf_put_u64(sb, primary ? excl : o_excl);
		}
	}
}

static int json_render(const struct cg_report *r, struct strbuf *sb, struct cg_error *err)
{
	const struct cg_view *v = profile_view(r->profile, -1);
	const struct cg_trace_info *in = r->info;
	const struct cg_warning *w;
	size_t nw = profile_warnings(r->profile, &w), i;

	(void)err; /* cannot fail */

	strbuf_puts(sb, "{\n  \"trace\": {\"file\": ");
	strbuf_put_json_string(sb, r->file);
	strbuf_printf(sb, ", \"format\": \"%s\", \"version\": %d, \"clock\": \"%s\", "
			  "\"clock_used\": \"%s\", \"clocks\": [%s], \"record_size\": %d, "
			  "\"records\": %" PRIu64 ", ",
		      trace_layout_name(in->layout), in->version, trace_clock_name(in->clock),
		      profile_clock_name(v->primary),
		      v->has_other ? "\"cpu\", \"wall\""
		      : v->primary == CG_USE_CPU ? "\"cpu\"" : "\"wall\"",
		      in->record_size, in->records);
	if (in->pid >= 0)
		strbuf_printf(sb, "\"pid\": %" PRId64 ", ", in->pid);
	else
		strbuf_puts(sb, "\"pid\": null, ");
	strbuf_puts(sb, "\"vm\": ");
	strbuf_put_json_string(sb, in->vm);
	strbuf_printf(sb, ", \"sampling\": %s, \"overflow\": %s",
		      profile_sampling(r->profile) ? "true" : "false", in->overflow ? "true" : "false");
	if (r->has_range) {
		char a[32];

		strbuf_puts(sb, ", \"range\": {\"from_ms\": ");
		strbuf_puts(sb, r->range_from_us == WINDOW_OPEN_FROM ? "null"
				: fmt_ms_signed(a, r->range_from_us));
		strbuf_puts(sb, ", \"to_ms\": ");
		strbuf_puts(sb, r->range_to_us == WINDOW_OPEN_TO ? "null"
				: fmt_ms_signed(a, r->range_to_us));
		if (r->range_frame)
			put_num(sb, ", \"frame\": ", r->range_frame);
		put_num(sb, ", \"records\": ", r->range_kept);
		strbuf_putc(sb, '}');
	}
	strbuf_puts(sb, "},\n");
	strbuf_printf(sb, "  \"total_us\": %" PRIu64, v->total_us);
	put_clocks(sb, v, "total", v->total_us, v->o_total_us, 0, 0, 0);
	strbuf_puts(sb, ",\n  \"threads\": [");
	for (i = 0; i < v->nthreads; i++) {
		const struct cg_pthread *t = &v->threads[i];

		strbuf_spill(sb);
		strbuf_printf(sb, "%s\n    {\"tid\": %u, \"name\": ", i ? "," : "", t->tid);
		strbuf_put_json_string(sb, t->name);
		strbuf_printf(sb, ", \"records\": %" PRIu64 ", \"inclusive_us\": %" PRIu64
				  ", \"exclusive_us\": %" PRIu64,
			      t->records, t->incl_us, t->excl_us);
		put_clocks(sb, v, "inclusive", t->incl_us, t->other_us, 1, t->excl_us, t->o_excl_us);
		strbuf_putc(sb, '}');
	}
	strbuf_puts(sb, "\n  ],\n  \"methods\": [");
	for (i = 0; i < v->nmethods; i++) {
		const struct cg_pmethod *m = &v->methods[i];
		struct cg_method_info tmp;
		const struct cg_method_info *mi = profile_method(v, m, &tmp);

		strbuf_spill(sb);
		strbuf_puts(sb, i ? ",\n    {\"id\": " : "\n    {\"id\": ");
		put_id(sb, mi);
		strbuf_puts(sb, ", \"class\": ");
		strbuf_put_json_string(sb, mi->klass);
		strbuf_puts(sb, ", \"name\": ");
		strbuf_put_json_string(sb, mi->name);
		strbuf_puts(sb, ", \"signature\": ");
		strbuf_put_json_string(sb, mi->sig);
		strbuf_puts(sb, ", \"source\": ");
		strbuf_put_json_string(sb, mi->source);
		if (mi->obfuscated) {
			strbuf_puts(sb, ", \"obfuscated\": ");
			strbuf_put_json_string(sb, mi->obfuscated);
			strbuf_puts(sb, ", \"mapping_note\": ");
			if (mi->mapping_note)
				strbuf_put_json_string(sb, mi->mapping_note);
			else
				strbuf_puts(sb, "null");
		}
		put_num(sb, ", \"inclusive_us\": ", m->incl_us);
		put_num(sb, ", \"exclusive_us\": ", m->excl_us);
		put_num(sb, ", \"calls\": ", m->calls);
		put_num(sb, ", \"recursive_calls\": ", m->rec_calls);
		put_clocks(sb, v, "inclusive", m->incl_us, m->o_incl_us, 1, m->excl_us, m->o_excl_us);
		strbuf_putc(sb, '}');
	}
	strbuf_puts(sb, "\n  ],\n  \"edges\": [");
	for (i = 0; i < v->nedges; i++) {
		const struct cg_pedge *e = &v->edges[i];

		strbuf_spill(sb);
		strbuf_puts(sb, i ? ",\n    {\"caller\": " : "\n    {\"caller\": ");
		if (e->from_root)
			strbuf_printf(sb, "\"thread:%u\"", v->threads[e->caller].tid);
		else
			put_index_id(sb, r->st, e->caller);
		strbuf_puts(sb, ", \"callee\": ");
		put_index_id(sb, r->st, e->callee);
		put_num(sb, ", \"calls\": ", e->calls);
		put_num(sb, ", \"inclusive_us\": ", e->incl_us);
		put_clocks(sb, v, "inclusive", e->incl_us, e->o_incl_us, 0, 0, 0);
		strbuf_putc(sb, '}');
	}
	strbuf_puts(sb, "\n  ]");
	frames_json(r, sb);
	strbuf_puts(sb, ",\n  \"warnings\": [");
	for (i = 0; i < nw; i++) {
		strbuf_printf(sb, "%s\n    {\"kind\": \"%s\", \"count\": %" PRIu64 ", \"message\": ",
			      i ? "," : "", w[i].name, w[i].count);
		strbuf_put_json_string(sb, w[i].message);
		strbuf_putc(sb, '}');
	}
	strbuf_puts(sb, "\n  ]\n}\n");
	return 0;
}

const struct cg_renderer render_json = { "json", json_render };
