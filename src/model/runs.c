/* runs.c - repeated runs matched into rows of per-run values (runs.h).
 *
 * Runs keep their packed method summaries (diff_base) until the
 * comparison is freed: rows name their methods with the strings of the
 * first run that has them.  Values live in one array, row by row, metric
 * by metric, run by run (base runs first, then later ones). */
#include "model/runs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/diff.h"
#include "util/util.h"

struct thr {
	char *name;
	uint64_t v[4];  /* incl, excl, o_incl, o_excl */
};

struct run {
	char *file, *clock;
	struct cg_diff_base *b;
	struct thr *thr;         /* by name, sorted, summed */
	size_t nthr;
	uint64_t total, o_total;
	int has_other;
	enum cg_clock_sel primary;
};

struct row {
	enum cg_runs_kind kind;
	const char *name;                /* thread name, or method name */
	const char *klass, *sig;         /* methods */
};

struct cg_runs {
	struct run *runs[2];
	size_t n[2], cap[2];
	struct row *rows;
	size_t nrows, rows_cap;
	uint64_t *vals;
	int has_other;
	enum cg_clock_sel primary;
};

struct cg_runs *runs_create(void)
{
	return xcalloc(1, sizeof(struct cg_runs));
}

void runs_free(struct cg_runs *rs)
{
	size_t s, i, k;

	if (!rs)
		return;
	for (s = 0; s < 2; s++) {
		for (i = 0; i < rs->n[s]; i++) {
			struct run *r = &rs->runs[s][i];

			free(r->file);
			free(r->clock);
			diff_base_free(r->b);
			for (k = 0; k < r->nthr; k++)
				free(r->thr[k].name);
			free(r->thr);
		}
		free(rs->runs[s]);
	}
	free(rs->rows);
	free(rs->vals);
	free(rs);
}

static int cmp_thr(const void *a, const void *b)
{
	return strcmp(((const struct thr *)a)->name, ((const struct thr *)b)->name);
}

/* The view's threads summed by name, sorted by name. */
static void threads_take(struct run *r, const struct cg_view *v)
{
	size_t i, j, n = 0;

	r->thr = xcalloc(v->nthreads + 1, sizeof(*r->thr));
	for (i = 0; i < v->nthreads; i++) {
		const struct cg_pthread *t = &v->threads[i];
		const char *name = t->name ? t->name : "";

		for (j = 0; j < n && strcmp(r->thr[j].name, name); j++)
			;
		if (j == n)
			r->thr[n++].name = xstrdup(name);
		r->thr[j].v[0] += t->incl_us;
		r->thr[j].v[1] += t->excl_us;
		if (v->has_other) {
			r->thr[j].v[2] += t->other_us;
			r->thr[j].v[3] += t->o_excl_us;
		}
	}
	r->nthr = n;
	qsort(r->thr, n, sizeof(*r->thr), cmp_thr);
}

void runs_add(struct cg_runs *rs, enum cg_runs_side side, const struct cg_view *v,
	      const char *file, const char *clock)
{
	struct cg_diff_run dr;
	struct run *r;

	rs->runs[side] = xgrow(rs->runs[side], &rs->cap[side], rs->n[side] + 1, sizeof(struct run));
	r = &rs->runs[side][rs->n[side]++];
	memset(r, 0, sizeof(*r));
	r->file = xstrdup(file);
	r->clock = xstrdup(clock);
	diff_run_fill(&dr, file, clock, v);
	r->b = diff_base_create(v, &dr);
	r->total = diff_base_totals(r->b, &r->o_total, &r->has_other, &r->primary);
	threads_take(r, v);
}

static size_t nruns(const struct cg_runs *rs)
{
	return rs->n[0] + rs->n[1];
}

static struct run *run_at(const struct cg_runs *rs, size_t k)
{
	return k < rs->n[0] ? &rs->runs[0][k] : &rs->runs[1][k - rs->n[0]];
}

static uint64_t *slot(const struct cg_runs *rs, size_t row, enum cg_runs_metric m, size_t k)
{
	return &rs->vals[(row * CG_RM_COUNT + m) * nruns(rs) + k];
}

static size_t row_add(struct cg_runs *rs, enum cg_runs_kind kind, const char *klass,
		      const char *name, const char *sig)
{
	struct row *w;
	size_t n = nruns(rs) * CG_RM_COUNT, old = rs->rows_cap;

	rs->rows = xgrow(rs->rows, &rs->rows_cap, rs->nrows + 1, sizeof(*rs->rows));
	if (rs->rows_cap != old) {
		rs->vals = xrealloc(rs->vals, rs->rows_cap * n * sizeof(*rs->vals));
		memset(rs->vals + old * n, 0, (rs->rows_cap - old) * n * sizeof(*rs->vals));
	}
	w = &rs->rows[rs->nrows];
	w->kind = kind;
	w->klass = klass;
	w->name = name;
	w->sig = sig;
	return rs->nrows++;
}

/* Thread rows: the names of every run, merged. */
static void threads_merge(struct cg_runs *rs)
{
	size_t nr = nruns(rs), k, *at = xcalloc(nr + 1, sizeof(*at));

	for (;;) {
		const char *least = NULL;
		size_t row, m;

		for (k = 0; k < nr; k++) {
			struct run *r = run_at(rs, k);

			if (at[k] < r->nthr && (!least || strcmp(r->thr[at[k]].name, least) < 0))
				least = r->thr[at[k]].name;
		}
		if (!least)
			break;
		row = row_add(rs, CG_RUNS_THREAD, NULL, least, NULL);
		for (k = 0; k < nr; k++) {
			struct run *r = run_at(rs, k);

			if (at[k] >= r->nthr || strcmp(r->thr[at[k]].name, least))
				continue;
			for (m = 0; m < 4; m++)
				*slot(rs, row, (enum cg_runs_metric)m, k) = r->thr[at[k]].v[m];
			at[k]++;
		}
	}
	free(at);
}

/* A run's place in its method entries. */
struct cursor {
	size_t off;
	const char *klass, *name, *sig;
	struct cg_diff_side side;
	int live;
};

static void cursor_next(const struct run *r, struct cursor *c)
{
	c->live = diff_base_entry(r->b, &c->off, &c->klass, &c->name, &c->sig, &c->side);
}

/* Method rows: one merge of every run's entries in key order. */
static void methods_merge(struct cg_runs *rs)
{
	size_t nr = nruns(rs), k;
	struct cursor *c = xcalloc(nr + 1, sizeof(*c));

	for (k = 0; k < nr; k++)
		cursor_next(run_at(rs, k), &c[k]);
	for (;;) {
		const struct cursor *least = NULL;
		size_t row;

		for (k = 0; k < nr; k++)
			if (c[k].live && (!least || diff_key_cmp(c[k].klass, c[k].name, c[k].sig,
								 least->klass, least->name,
								 least->sig) < 0))
				least = &c[k];
		if (!least)
			break;
		row = row_add(rs, CG_RUNS_METHOD, least->klass, least->name, least->sig);
		least = NULL;
		for (k = 0; k < nr; k++) {
			struct cg_diff_side *s = &c[k].side;
			const struct row *w = &rs->rows[row];

			if (!c[k].live || diff_key_cmp(c[k].klass, c[k].name, c[k].sig, w->klass,
						       w->name, w->sig))
				continue;
			*slot(rs, row, CG_RM_INCL, k) = s->incl_us;
			*slot(rs, row, CG_RM_EXCL, k) = s->excl_us;
			*slot(rs, row, CG_RM_O_INCL, k) = rs->has_other ? s->o_incl_us : 0;
			*slot(rs, row, CG_RM_O_EXCL, k) = rs->has_other ? s->o_excl_us : 0;
			*slot(rs, row, CG_RM_CALLS, k) = s->calls + s->rec_calls;
			cursor_next(run_at(rs, k), &c[k]);
		}
	}
	free(c);
}

void runs_finish(struct cg_runs *rs)
{
	size_t nr = nruns(rs), k, row;

	rs->has_other = nr > 0;
	for (k = 0; k < nr; k++) {
		const struct run *r = run_at(rs, k);

		if (!r->has_other || r->primary != run_at(rs, 0)->primary)
			rs->has_other = 0;
	}
	rs->primary = nr ? run_at(rs, 0)->primary : CG_USE_WALL;
	row = row_add(rs, CG_RUNS_TOTAL, NULL, "total", NULL);
	for (k = 0; k < nr; k++) {
		*slot(rs, row, CG_RM_INCL, k) = run_at(rs, k)->total;
		*slot(rs, row, CG_RM_O_INCL, k) = rs->has_other ? run_at(rs, k)->o_total : 0;
	}
	threads_merge(rs);
	if (!rs->has_other)
		for (row = 1; row < rs->nrows; row++)
			for (k = 0; k < nr; k++)
				*slot(rs, row, CG_RM_O_INCL, k) = *slot(rs, row, CG_RM_O_EXCL, k) = 0;
	methods_merge(rs);
}

size_t runs_count(const struct cg_runs *rs, enum cg_runs_side side)
{
	return rs->n[side];
}

const char *runs_file(const struct cg_runs *rs, enum cg_runs_side side, size_t i)
{
	return rs->runs[side][i].file;
}

const char *runs_clock(const struct cg_runs *rs, enum cg_runs_side side, size_t i)
{
	return rs->runs[side][i].clock;
}

uint64_t runs_total(const struct cg_runs *rs, enum cg_runs_side side, size_t i, uint64_t *o_total)
{
	if (o_total)
		*o_total = rs->has_other ? rs->runs[side][i].o_total : 0;
	return rs->runs[side][i].total;
}

int runs_has_other(const struct cg_runs *rs, enum cg_clock_sel *primary)
{
	if (primary)
		*primary = rs->primary;
	return rs->has_other;
}

size_t runs_rows(const struct cg_runs *rs)
{
	return rs->nrows;
}

enum cg_runs_kind runs_kind(const struct cg_runs *rs, size_t row)
{
	return rs->rows[row].kind;
}

const char *runs_thread(const struct cg_runs *rs, size_t row)
{
	return rs->rows[row].name;
}

const struct cg_method_info *runs_method(const struct cg_runs *rs, size_t row,
					 struct cg_method_info *tmp)
{
	memset(tmp, 0, sizeof(*tmp));
	tmp->klass = rs->rows[row].klass;
	tmp->name = rs->rows[row].name;
	tmp->sig = rs->rows[row].sig;
	tmp->source = "";
	return tmp;
}

int runs_has_metric(const struct cg_runs *rs, size_t row, enum cg_runs_metric m)
{
	enum cg_runs_kind kind = rs->rows[row].kind;

	if ((m == CG_RM_O_INCL || m == CG_RM_O_EXCL) && !rs->has_other)
		return 0;
	if (kind == CG_RUNS_TOTAL)
		return m == CG_RM_INCL || m == CG_RM_O_INCL;
	return kind == CG_RUNS_METHOD || m != CG_RM_CALLS;
}

uint64_t runs_value(const struct cg_runs *rs, size_t row, enum cg_runs_metric m, int norm,
		    enum cg_runs_side side, size_t i)
{
	size_t k = side == CG_RUNS_BASE ? i : rs->n[0] + i;
	uint64_t v = *slot(rs, row, m, k), total;

	if (!norm || m == CG_RM_CALLS)
		return v;
	total = m == CG_RM_O_INCL || m == CG_RM_O_EXCL ? run_at(rs, k)->o_total : run_at(rs, k)->total;
	return total ? (uint64_t)((unsigned __int128)v * CG_RUNS_NORM_UNIT / total) : 0;
}

/* One side's values of a row's metric, into buf. */
static void side_values(const struct cg_runs *rs, size_t row, enum cg_runs_metric m, int norm,
			enum cg_runs_side side, uint64_t *buf)
{
	size_t i;

	for (i = 0; i < rs->n[side]; i++)
		buf[i] = runs_value(rs, row, m, norm, side, i);
}

void runs_stat(const struct cg_runs *rs, size_t row, enum cg_runs_metric m, int norm,
	       struct cg_runs_stat *out)
{
	size_t na = rs->n[0], nb = rs->n[1];
	uint64_t *a = xmalloc((na + nb) * sizeof(*a)), *b = a + na;

	memset(out, 0, sizeof(*out));
	side_values(rs, row, m, norm, CG_RUNS_BASE, a);
	side_values(rs, row, m, norm, CG_RUNS_LATER, b);
	stats_spread(a, na, &out->side[0]);
	stats_spread(b, nb, &out->side[1]);
	stats_mwu(a, na, b, nb, &out->test);
	if (out->side[0].median2)
		out->change = ((double)out->side[1].median2 - (double)out->side[0].median2) * 100 /
			      (double)out->side[0].median2;
	else
		out->change = out->side[1].median2 ? HUGE_VAL : 0;
	out->significant = out->test.p <= CG_RUNS_LEVEL;
	if (rs->rows[row].kind == CG_RUNS_METHOD) {
		struct cg_spread ca, cb;

		side_values(rs, row, CG_RM_CALLS, 0, CG_RUNS_BASE, a);
		side_values(rs, row, CG_RM_CALLS, 0, CG_RUNS_LATER, b);
		stats_spread(a, na, &ca);
		stats_spread(b, nb, &cb);
		out->calls_changed = ca.median2 != cb.median2;
	}
	free(a);
}

/* A row's place in display order. */
struct okey {
	size_t row;
	int sig;
	double size;       /* |change| in % */
	uint64_t larger;   /* the larger median, twice */
	const struct cg_runs *rs;
};

static int cmp_okey(const void *pa, const void *pb)
{
	const struct okey *x = pa, *y = pb;
	const struct row *rx = &x->rs->rows[x->row], *ry = &y->rs->rows[y->row];
	int c;

	if (rx->kind != ry->kind)
		return rx->kind < ry->kind ? -1 : 1;
	if (x->sig != y->sig)
		return x->sig ? -1 : 1;
	if (x->sig && x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->larger != y->larger)
		return x->larger > y->larger ? -1 : 1;
	if (rx->kind == CG_RUNS_METHOD)
		c = diff_key_cmp(rx->klass, rx->name, rx->sig, ry->klass, ry->name, ry->sig);
	else
		c = strcmp(rx->name, ry->name);
	return c ? c : x->row < y->row ? -1 : x->row > y->row;
}

size_t runs_order(const struct cg_runs *rs, enum cg_runs_metric m, int norm, size_t *order)
{
	struct okey *keys = xcalloc(rs->nrows + 1, sizeof(*keys));
	size_t i, n = 0;

	for (i = 0; i < rs->nrows; i++) {
		struct cg_runs_stat st;
		struct okey *k;

		if (!runs_has_metric(rs, i, m))
			continue;
		runs_stat(rs, i, m, norm, &st);
		k = &keys[n++];
		k->row = i;
		k->rs = rs;
		k->sig = st.significant;
		k->size = fabs(st.change);
		k->larger = st.side[0].median2 > st.side[1].median2 ? st.side[0].median2
								    : st.side[1].median2;
	}
	qsort(keys, n, sizeof(*keys), cmp_okey);
	for (i = 0; i < n; i++)
		order[i] = keys[i].row;
	free(keys);
	return n;
}
