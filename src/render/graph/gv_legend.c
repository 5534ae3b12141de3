/* gv_legend.c - the legend node of the call graph and, with -d, the
 * change marks of its methods.
 */
#include "render/graph/gv_build.h"

#include <stdio.h>
#include <string.h>

#include "model/diff.h"
#include "render/graph/gv_text.h"
#include "model/waiting.h"

/* -d: the colour of a method's change in inclusive time against the base
 * run: white unchanged; red when slower, blue when faster, deeper with the
 * ratio up to 4x (integer steps, so the bytes are stable); new methods (or
 * a base of 0 us) full red.  buf holds 8 bytes. */
static void change_color(char *buf, const struct cg_diff_row *row)
{
	uint64_t lo = row->d_incl_us > 0 ? row->base.incl_us : row->later.incl_us;
	uint64_t hi = row->d_incl_us > 0 ? row->later.incl_us : row->base.incl_us;
	unsigned t = 1000, k; /* permille of the way from 1x to 4x */

	if (row->d_incl_us == 0) {
		snprintf(buf, 8, "#ffffff");
		return;
	}
	if (lo && hi / lo < 4)
		t = (unsigned)((hi - lo) * 1000 / (3 * lo));
	if (t > 1000)
		t = 1000;
	k = 255 - (32 + 159 * t / 1000);
	if (row->d_incl_us > 0)
		snprintf(buf, 8, "#ff%02x%02x", k, k);
	else
		snprintf(buf, 8, "#%02x%02xff", k, k);
}

/* A plain label, not an HTML-like table: Graphviz 2.42's HTML-label
 * parser leaks on every layout. */
void gv_legend_add(struct gv_build *b, const struct cg_report *r, const struct cg_graph_rules *rules,
		       const struct cg_graph_sel *sel)
{
	const struct cg_view *v = b->v;
	char ms[32];
	Agnode_t *n = agnode(b->g, "legend", 0);
	const char *clock, *other;

	if (r->info)
		clock = report_clock_name(r);
	else
		clock = r->clock == CG_USE_CPU ? "cpu" : "wall";
	other = v->primary == CG_USE_CPU ? "wall" : "cpu";
	strbuf_reset(&b->val);
	strbuf_puts(&b->val, "trace: ");
	gv_text_put_label(&b->val, &b->tmp, r->file ? r->file : "-");
	if (v->has_other)
		strbuf_printf(&b->val, "\\lclock: %s (%s shown beside it)", clock, other);
	else
		strbuf_printf(&b->val, "\\lclock: %s (the trace has one clock)", clock);
	if (r->has_range) {
		/* digits and words only: nothing to escape */
		strbuf_puts(&b->val, "\\lwindow: ");
		report_window_text(r, &b->val);
	}
	strbuf_printf(&b->val, "\\lthreads: %zu, total %s ms\\l", b->roots->from->nthreads,
		      fmt_ms(ms, v->total_us));
	if (b->roots->pools)
		strbuf_printf(&b->val, "  %zu threads merged into %zu pool%s: same name but for "
			      "numbers, same top-level calls\\l", b->roots->pooled, b->roots->pools,
			      b->roots->pools == 1 ? "" : "s");
	if (b->roots->idle)
		strbuf_printf(&b->val, "  %zu idle threads folded: >= %d%% of their time waiting\\l",
			      b->roots->idle, WAITING_THREAD_PCT);
	if (b->sampled)
		strbuf_puts(&b->val, "sampled trace: counts are stack changes, not calls\\l");
	strbuf_puts(&b->val, "node floor: ");
	gv_text_put_pct(&b->val, rules->node_pct);
	strbuf_printf(&b->val, " of total (%zu dropped)\\l", sel->drop_floor);
	if (rules->pct > 0) {
		strbuf_puts(&b->val, "-t: edges under ");
		gv_text_put_pct(&b->val, rules->pct);
		strbuf_printf(&b->val, " of caller (%zu nodes cut off)\\l", sel->drop_rule);
	}
	if (rules->max_nodes)
		strbuf_printf(&b->val, "node cap: %zu (%zu dropped)\\l", rules->max_nodes, sel->drop_cap);
	strbuf_puts(&b->val, "edge floor: ");
	gv_text_put_pct(&b->val, rules->edge_pct);
	strbuf_printf(&b->val, " of total (%zu dropped)\\l", sel->edrop_floor);
	if (sel->edrop_cap)
		strbuf_printf(&b->val, "edge cap: %zu dropped\\l", sel->edrop_cap);
	strbuf_printf(&b->val, "nodes: %zu shown, %zu dropped\\l", sel->nodes_kept, sel->nodes_dropped);
	if (b->fold->nchains)
		strbuf_printf(&b->val, "  %zu frames folded into %zu chain%s\\l", b->fold->folded,
			      b->fold->nchains, b->fold->nchains == 1 ? "" : "s");
	strbuf_printf(&b->val, "edges: %zu shown, %zu dropped\\l", b->drawn, sel->edges_dropped);
	if (b->inside)
		strbuf_printf(&b->val, "  %zu more inside the chains\\l", b->inside);
	if (sel->nresidual)
		strbuf_printf(&b->val, "  %zu dotted: calls through frames not drawn\\l", sel->nresidual);
	strbuf_puts(&b->val, "colour: inclusive % of total; text size: self time\\l");
	strbuf_puts(&b->val, "grey dashed: waiting: ");
	gv_text_put(&b->val, &b->tmp, waiting_rule(v), 0);
	strbuf_puts(&b->val, "\\l");
	gv_build_set_val(n, "label", b);
	gv_build_set_str(n, "shape", "note");
	gv_build_set_str(n, "style", "filled");
	gv_build_set_str(n, "fillcolor", "#fffff0");
	gv_build_set_str(n, "id", "legend");
	gv_build_set_str(n, "class", "legend");
}

void gv_legend_mark_changes(struct gv_build *b, const struct cg_diff *d)
{
	Agnode_t *legend = agnode(b->g, "legend", 0);
	char color[8], ms[32];
	size_t i;

	for (i = 0; i < b->v->nmethods; i++) {
		struct cg_diff_row tmp;
		const struct cg_diff_row *row = diff_change(d, b->v->methods[i].index, &tmp);
		Agnode_t *n = b->mnode[i];

		if (!n || !row || b->fold->chain_of[i] != FOLD_NONE)
			continue;
		change_color(color, row);
		gv_build_set_str(n, "fillcolor", color);
		strbuf_reset(&b->val);
		strbuf_puts(&b->val, agget(n, "label"));
		if (row->status == CG_DIFF_LATER_ONLY) {
			strbuf_puts(&b->val, "\\nnew in this run");
		} else {
			strbuf_printf(&b->val, "\\nchange %s ms", fmt_ms_signed(ms, row->d_incl_us));
			if (diff_ratio(row) >= 0)
				strbuf_printf(&b->val, " (x%.2f)", diff_ratio(row));
		}
		gv_build_set_val(n, "label", b);
	}
	if (legend) {
		strbuf_reset(&b->val);
		strbuf_puts(&b->val, agget(legend, "label"));
		strbuf_printf(&b->val, "change vs base: %s ms\\l",
			      fmt_ms_signed(ms, (int64_t)diff_later_total(d) -
						(int64_t)diff_base_total(d)));
		strbuf_puts(&b->val, "colour: inclusive time vs base run\\l"
				     "  red slower, blue faster (deepest at 4x)\\l"
				     "  white unchanged, full red new\\l");
		gv_build_set_val(legend, "label", b);
	}
}

void gv_legend_note(struct gv_build *b, const char *text)
{
	Agnode_t *legend = agnode(b->g, "legend", 0);

	if (!legend)
		return;
	strbuf_reset(&b->val);
	strbuf_puts(&b->val, agget(legend, "label"));
	strbuf_puts(&b->val, text);
	strbuf_puts(&b->val, "\\l");
	gv_build_set_val(legend, "label", b);
}
