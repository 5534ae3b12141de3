/* render_text.c - text profile; milliseconds with three decimals.
 *
 * A single-clock trace shows its one clock.  A dual-clock trace shows both,
 * in Traceview's order (incl cpu, excl cpu, incl wall, excl wall), and the
 * off-CPU share of each inclusive time (1 - cpu / wall): the time a method
 * spent waiting (sleeping, parked, blocked in I/O or binder) rather than
 * running.  The primary clock (--clock) sorts the rows and gives the %. */
#include "render/text/render_text.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/groups.h"
#include "render/javaname.h"
#include "render/text/render_frames.h"
#include "util/sort.h"

/* "pkg.Class.method(String, int)": readable Java names (javaname.h). */
static void put_method(struct strbuf *sb, const struct cg_symtab *st, uint32_t index,
		       int short_names)
{
	struct cg_method_info tmp;

	javaname_put_method(sb, symtab_method_peek(st, index, &tmp),
			    JN_SIG | (short_names ? JN_SHORT : 0));
}

static void put_caller(struct strbuf *sb, const struct cg_report *r, const struct cg_view *v,
		       const struct cg_pedge *e)
{
	if (e->from_root)
		strbuf_printf(sb, "<%s> (thread %u)", v->threads[e->caller].name,
			      v->threads[e->caller].tid);
	else
		put_method(sb, r->st, e->caller, r->short_names);
}

/* A space, then s right-aligned in width: " %*s". */
static void put_col(struct strbuf *sb, size_t width, const char *s)
{
	strbuf_putc(sb, ' ');
	strbuf_put_right(sb, width, s);
}

static void put_row_ms(struct strbuf *sb, uint64_t us)
{
	char ms[32];

	put_col(sb, 12, fmt_ms(ms, us));
}

static void put_row_pct(struct strbuf *sb, uint64_t part, uint64_t whole)
{
	char pct[32];

	put_col(sb, 7, fmt_pct(pct, part, whole));
}

/* "calls+rec" into buf (at least 48 bytes). */
static char *fmt_calls(char *buf, uint64_t calls, uint64_t rec)
{
	size_t n = fmt_u64(buf, calls);

	buf[n++] = '+';
	fmt_u64(buf + n, rec);
	return buf;
}

/* "[pos] ", a method's index in the listing. */
static void put_index(struct strbuf *sb, size_t pos)
{
	strbuf_putc(sb, '[');
	strbuf_put_u64(sb, pos);
	strbuf_puts(sb, "] ");
}

/* The dual-clock columns, after a row's leading fields: incl cpu, excl cpu,
 * incl wall, excl wall (times in ms), then off-CPU %.  incl/excl are on the
 * primary clock, o_incl/o_excl on the other; without exclusive times (edges)
 * their columns stay blank. */
static void put_dual_head(struct strbuf *sb)
{
	strbuf_printf(sb, " %10s %10s %10s %10s %8s", "incl cpu", "excl cpu", "incl wall",
		      "excl wall", "off-cpu%");
}


static void put_dual(struct strbuf *sb, const struct cg_view *v, uint64_t incl, uint64_t o_incl,
		     int with_excl, uint64_t excl, uint64_t o_excl)
{
	int cpu_first = v->primary == CG_USE_CPU;
	uint64_t ci = cpu_first ? incl : o_incl, wi = cpu_first ? o_incl : incl;
	uint64_t ce = cpu_first ? excl : o_excl, we = cpu_first ? o_excl : excl;
	char ms[32], pct[32];

	put_col(sb, 10, fmt_ms(ms, ci));
	put_col(sb, 10, with_excl ? fmt_ms(ms, ce) : "");
	put_col(sb, 10, fmt_ms(ms, wi));
	put_col(sb, 10, with_excl ? fmt_ms(ms, we) : "");
	put_col(sb, 8, report_off_cpu(pct, ci, wi));
}

/* Exclusive time descending, then inclusive, then method id (and the view
 * order, which is symtab index order, for equal ids). */
static int cmp_excl(const void *a, const void *b, void *ctx)
{
	const struct cg_pmethod *x = *(const struct cg_pmethod *const *)a;
	const struct cg_pmethod *y = *(const struct cg_pmethod *const *)b;

	if (x->excl_us != y->excl_us)
		return x->excl_us > y->excl_us ? -1 : 1;
	if (x->incl_us != y->incl_us)
		return x->incl_us > y->incl_us ? -1 : 1;
	return symtab_method_cmp_id(ctx, x->index, y->index);
}

struct class_row {
	const char *klass;
	uint64_t excl, o_excl, calls, rec;
	size_t methods;
};

static int cmp_class_excl(const void *a, const void *b)
{
	const struct class_row *x = a, *y = b;

	if (x->excl != y->excl)
		return x->excl > y->excl ? -1 : 1;
	return strcmp(x->klass, y->klass);
}

static void put_header(const struct cg_report *r, const struct cg_view *v, struct strbuf *sb)
{
	const struct cg_trace_info *in = r->info;
	const struct cg_profile_stats *stats = profile_stats(r->profile);
	const struct cg_warning *w;
	size_t nw = profile_warnings(r->profile, &w), i;
	const char *const *focus, *const *hide;
	char ms[32];

	strbuf_printf(sb, "Trace:    %s\n", r->file);
	strbuf_printf(sb, "Format:   %s, version %d%s, %s\n",
		      trace_layout_name(in->layout), in->version, in->gzip ? ", gzip" : "",
		      trace_record_text(in, ms));
	if (v->has_other)
		strbuf_printf(sb, "Clock:    %s: cpu and wall times; %s time sorts and gives %% "
				  "(--clock %s to sort by %s)\n",
			      trace_clock_name(in->clock), profile_clock_name(v->primary),
			      profile_clock_name(profile_other_clock(v->primary)),
			      profile_clock_name(profile_other_clock(v->primary)));
	else
		strbuf_printf(sb, "Clock:    %s: one clock, times below are %s time\n",
			      trace_clock_name(in->clock), report_clock_name(r));
	strbuf_printf(sb, "Records:  %" PRIu64 " in %zu thread%s\n", stats->records, v->nthreads,
		      v->nthreads == 1 ? "" : "s");
	if (r->has_range) {
		strbuf_puts(sb, "Window:   ");
		report_window_text(r, sb);
		strbuf_puts(sb, ", on the wall clock from the first event; frames open at its edges are cut there\n");
	}
	profile_filters(r->profile, &focus, &hide);
	strbuf_printf(sb, "Total:    %s ms", fmt_ms(ms, v->total_us));
	if (v->has_other) {
		char pct[16];

		strbuf_printf(sb, " %s, %s ms %s; %s%% off-CPU", profile_clock_name(v->primary),
			      fmt_ms(ms, v->o_total_us),
			      profile_clock_name(profile_other_clock(v->primary)),
			      report_off_cpu(pct, v->primary == CG_USE_CPU ? v->total_us : v->o_total_us,
					  v->primary == CG_USE_CPU ? v->o_total_us : v->total_us));
	}
	strbuf_printf(sb, " (%s)\n", focus ? "sum of the focused methods' outermost calls"
					   : "sum over threads of last - first event");
	for (i = 0; focus && focus[i]; i++)
		strbuf_printf(sb, "Focus:    %s\n", focus[i]);
	for (i = 0; hide && hide[i]; i++)
		strbuf_printf(sb, "Hidden:   %s (time charged to callers)\n", hide[i]);
	if (profile_sampling(r->profile))
		strbuf_puts(sb, "Mode:     sampling (call counts are stack changes)\n");
	for (i = 0; i < nw; i++)
		strbuf_printf(sb, "Warning:  %s\n", w[i].message);
}

static void put_threads(const struct cg_view *v, struct strbuf *sb)
{
	size_t i;

	strbuf_puts(sb, "\nThreads (root inclusive = last - first event; exclusive = between top-level calls)\n");
	if (v->has_other)
	{
		strbuf_printf(sb, "%8s %10s %7s", "tid", "records", "%");
		put_dual_head(sb);
		strbuf_puts(sb, "  name\n");
	}
	else
		strbuf_printf(sb, "%8s %10s %12s %7s %12s  %s\n", "tid", "records", "incl ms", "%",
			      "excl ms", "name");
	for (i = 0; i < v->nthreads; i++) {
		const struct cg_pthread *t = &v->threads[i];

		strbuf_spill(sb);
		strbuf_printf(sb, "%8u %10" PRIu64, t->tid, t->records);
		if (v->has_other) {
			put_row_pct(sb, t->incl_us, v->total_us);
			put_dual(sb, v, t->incl_us, t->other_us, 1, t->excl_us, t->o_excl_us);
		} else {
			put_row_ms(sb, t->incl_us);
			put_row_pct(sb, t->incl_us, v->total_us);
			put_row_ms(sb, t->excl_us);
		}
		strbuf_printf(sb, "  %s\n", t->name);
	}
}

static void put_exclusive(const struct cg_report *r, const struct cg_view *v, struct strbuf *sb)
{
	const struct cg_pmethod **order = xmalloc((v->nmethods + 1) * sizeof(*order));
	uint64_t cum = 0;
	size_t i;

	for (i = 0; i < v->nmethods; i++)
		order[i] = &v->methods[i];
	sort_inplace(order, v->nmethods, sizeof(*order), cmp_excl, (void *)v->st);
	if (v->has_other) {
		strbuf_printf(sb, "\nExclusive time (not counting callees), by exclusive %s time; "
				  "times in ms, %% of the %s total\n",
			      profile_clock_name(v->primary), profile_clock_name(v->primary));
		strbuf_printf(sb, " %6s %6s", "%", "cum %");
		put_dual_head(sb);
		strbuf_printf(sb, " %11s  %s\n", "calls+rec", "method");
	} else {
		strbuf_puts(sb, "\nExclusive time (not counting callees), by exclusive time\n");
		strbuf_printf(sb, " %12s %7s %7s %12s %15s  %s\n", "excl ms", "%", "cum %", "incl ms",
			      "calls+rec", "method");
	}
	for (i = 0; i < v->nmethods; i++) {
		const struct cg_pmethod *m = order[i];
		char calls[48], pct[32];

		strbuf_spill(sb);
		cum += m->excl_us;
		fmt_calls(calls, m->calls, m->rec_calls);
		if (v->has_other) {
			put_col(sb, 6, fmt_pct(pct, m->excl_us, v->total_us));
			put_col(sb, 6, fmt_pct(pct, cum, v->total_us));
			put_dual(sb, v, m->incl_us, m->o_incl_us, 1, m->excl_us, m->o_excl_us);
			put_col(sb, 11, calls);
			strbuf_puts(sb, "  ");
			put_index(sb, v->method_pos[m->index]);
			put_method(sb, v->st, m->index, r->short_names);
			strbuf_putc(sb, '\n');
			continue;
		}
		put_row_ms(sb, m->excl_us);
		put_row_pct(sb, m->excl_us, v->total_us);
		put_row_pct(sb, cum, v->total_us);
		put_row_ms(sb, m->incl_us);
		put_col(sb, 15, calls);
		strbuf_puts(sb, "  ");
		put_index(sb, v->method_pos[m->index]);
		put_method(sb, v->st, m->index, r->short_names);
		strbuf_putc(sb, '\n');
	}
	free(order);
}

/* Edges grouped by the method position they enter (by_callee) or leave,
 * each group in view order (inclusive desc): built once so listing
 * relatives is linear. */
static void index_edges(const struct cg_view *v, int by_callee, struct cg_groups *ix)
{
	uint32_t *keys = xmalloc((v->nedges + 1) * sizeof(*keys));
	size_t i;

	for (i = 0; i < v->nedges; i++) {
		const struct cg_pedge *e = &v->edges[i];

		keys[i] = by_callee ? v->method_pos[e->callee]
			  : e->from_root ? GROUPS_SKIP : v->method_pos[e->caller];
	}
	groups_build(ix, v->nmethods, keys, NULL, v->nedges);
	free(keys);
}

static void put_relatives(const struct cg_report *r, const struct cg_view *v,
			  const struct cg_groups *ix, size_t pos, uint64_t base, int parents,
			  struct strbuf *sb)
{
	size_t k;

	for (k = ix->start[pos]; k < ix->start[pos + 1]; k++) {
		const struct cg_pedge *e = &v->edges[ix->item[k]];
		const char *role = parents ? "parent" : "child";
		char calls[32];

		strbuf_spill(sb);
		fmt_u64(calls, e->calls);
		if (v->has_other) {
			strbuf_put_left(sb, 6, "");
			put_col(sb, 6, role);
			put_row_pct(sb, e->incl_us, base);
			put_dual(sb, v, e->incl_us, e->o_incl_us, 0, 0, 0);
			put_col(sb, 11, calls);
		} else {
			strbuf_put_right(sb, 8, "");
			put_col(sb, 8, role);
			put_row_pct(sb, e->incl_us, base);
			put_row_ms(sb, e->incl_us);
			put_col(sb, 10, calls);
		}
		strbuf_puts(sb, "  ");
		if (parents) {
			put_caller(sb, r, v, e);
		} else {
			put_index(sb, v->method_pos[e->callee]);
			put_method(sb, r->st, e->callee, r->short_names);
		}
		strbuf_putc(sb, '\n');
	}
}

static void put_inclusive(const struct cg_report *r, const struct cg_view *v, struct strbuf *sb)
{
	struct cg_groups in, out;
	size_t i;

	index_edges(v, 1, &in);
	index_edges(v, 0, &out);
	strbuf_puts(sb, "\nInclusive time (outermost calls only), with parents and children\n");
	if (v->has_other) {
		strbuf_printf(sb, "(times in ms, %% on the %s clock; parent and child %% are of the "
				  "method's inclusive time; calls count every call)\n",
			      profile_clock_name(v->primary));
		strbuf_printf(sb, "%-6s %6s %7s", "index", "", "%");
		put_dual_head(sb);
		strbuf_printf(sb, " %11s  %s\n", "calls+rec", "method");
	} else {
		strbuf_puts(sb, "(parent and child % are of the method's inclusive time; calls count every call)\n");
		strbuf_printf(sb, "%-8s %8s %7s %12s %12s %15s  %s\n", "index", "", "%", "incl ms",
			      "excl ms", "calls+rec", "method");
	}
	for (i = 0; i < v->nmethods; i++) {
		const struct cg_pmethod *m = &v->methods[i];
		char idx[24], calls[48];

		strbuf_puts(sb, "--------\n");
		put_relatives(r, v, &in, i, m->incl_us, 1, sb);
		idx[0] = '[';
		strcpy(idx + 1 + fmt_u64(idx + 1, i), "]");
		fmt_calls(calls, m->calls, m->rec_calls);
		if (v->has_other) {
			strbuf_put_left(sb, 6, idx);
			put_col(sb, 6, "");
			put_row_pct(sb, m->incl_us, v->total_us);
			put_dual(sb, v, m->incl_us, m->o_incl_us, 1, m->excl_us, m->o_excl_us);
			put_col(sb, 11, calls);
		} else {
			strbuf_put_left(sb, 8, idx);
			put_col(sb, 8, "");
			put_row_pct(sb, m->incl_us, v->total_us);
			put_row_ms(sb, m->incl_us);
			put_row_ms(sb, m->excl_us);
			put_col(sb, 15, calls);
		}
		strbuf_puts(sb, "  ");
		put_method(sb, v->st, m->index, r->short_names);
		strbuf_putc(sb, '\n');
		put_relatives(r, v, &out, i, m->incl_us, 0, sb);
	}
	groups_free(&in);
	groups_free(&out);
}

/* The class of a view's method, as its symtab keeps it. */
static const char *class_of(const struct cg_view *v, uint32_t pos)
{
	const char *klass, *name;
	struct cg_method_info tmp;

	/* A class is never tmp's. */
	symtab_method_names(v->st, v->methods[pos].index, &klass, &name, &tmp);
	return klass;
}

/* Methods by class name, through their view positions. */
static int cmp_method_class(const void *a, const void *b, void *ctx)
{
	return strcmp(class_of(ctx, *(const uint32_t *)a), class_of(ctx, *(const uint32_t *)b));
}

/* One row per class: the view's methods ordered by class through an index
 * array (4 bytes a method), each run of one class summed into its row. */
static void put_classes(const struct cg_view *v, int short_names, struct strbuf *sb)
{
	uint32_t *order = xmalloc((v->nmethods + 1) * sizeof(*order));
	struct class_row *rows = NULL;
	size_t i, n = 0, cap = 0;

	for (i = 0; i < v->nmethods; i++)
		order[i] = (uint32_t)i;
	sort_inplace(order, v->nmethods, sizeof(*order), cmp_method_class, (void *)v);
	for (i = 0; i < v->nmethods; i++) {
		const struct cg_pmethod *m = &v->methods[order[i]];
		const char *klass = class_of(v, order[i]);
		struct class_row *row;

		if (n == 0 || strcmp(rows[n - 1].klass, klass) != 0) {
			rows = xgrow(rows, &cap, n + 1, sizeof(*rows));
			memset(&rows[n], 0, sizeof(rows[n]));
			rows[n++].klass = klass;
		}
		row = &rows[n - 1];
		row->excl += m->excl_us;
		row->o_excl += m->o_excl_us;
		row->calls += m->calls;
		row->rec += m->rec_calls;
		row->methods++;
	}
	free(order);
	if (n > 1) /* rows is NULL when no method ran */
		qsort(rows, n, sizeof(*rows), cmp_class_excl);
	if (v->has_other)
		strbuf_printf(sb, "\nPer-class exclusive time, by exclusive %s time (%% of the %s total)\n",
			      profile_clock_name(v->primary), profile_clock_name(v->primary));
	else
		strbuf_puts(sb, "\nPer-class exclusive time\n");
	if (v->has_other)
		strbuf_printf(sb, " %12s %12s %7s %15s %8s  %s\n", "excl cpu ms", "excl wall ms", "%",
			      "calls+rec", "methods", "class");
	else
		strbuf_printf(sb, " %12s %7s %15s %8s  %s\n", "excl ms", "%", "calls+rec", "methods",
			      "class");
	for (i = 0; i < n; i++) {
		char calls[48];

		strbuf_spill(sb);
		if (v->has_other) {
			int cpu_first = v->primary == CG_USE_CPU;

			put_row_ms(sb, cpu_first ? rows[i].excl : rows[i].o_excl);
			put_row_ms(sb, cpu_first ? rows[i].o_excl : rows[i].excl);
		} else {
			put_row_ms(sb, rows[i].excl);
		}
		put_row_pct(sb, rows[i].excl, v->total_us);
		snprintf(calls, sizeof(calls), "%" PRIu64 "+%" PRIu64, rows[i].calls, rows[i].rec);
		strbuf_printf(sb, " %15s %8zu  ", calls, rows[i].methods);
		javaname_put_class(sb, rows[i].klass, short_names ? JN_SHORT : 0);
		strbuf_putc(sb, '\n');
	}
	free(rows);
}

static int text_render(const struct cg_report *r, struct strbuf *sb, struct cg_error *err)
{
	const struct cg_view *v = profile_view(r->profile, -1);

	(void)err; /* cannot fail */
	put_header(r, v, sb);
	if (r->frames_section)
		frames_text(r, sb);
	put_threads(v, sb);
	put_exclusive(r, v, sb);
	put_inclusive(r, v, sb);
	put_classes(v, r->short_names, sb);
	return 0;
}

const struct cg_renderer render_text = { "text", text_render };
