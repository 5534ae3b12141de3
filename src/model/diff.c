/* diff.c - match the methods of two profiles and compute their changes.
 *
 * Each method of either view gets a key (class with '/' as '.', name,
 * signature; the symtab's strings); the keys of both views are sorted
 * together, so equal keys are adjacent and each group becomes one row. */
#include "model/diff.h"

#include <stdlib.h>
#include <string.h>

#include "util/sort.h"
#include "util/util.h"

struct cg_diff {
	struct cg_diff_row *rows;
	size_t nrows;
	size_t counts[3];
	uint32_t *by_later;  /* later symtab index -> row, UINT32_MAX when none */
	size_t nby_later;
	uint64_t base_total, later_total;
	int has_other;
	enum cg_clock_sel primary;
	uint64_t base_o_total, later_o_total;
	const struct cg_symtab *base_st, *later_st;
};

/* A method of one view under its match key: class (with '/' read as '.'),
 * name and signature, pointing into the view's symtab. */
struct dkey {
	const char *klass, *name, *sig;
	uint32_t pos;        /* position in its view */
	uint32_t later;      /* 0 base, 1 later */
};

static int cmp_names(const char *ka, const char *na, const char *sa, const char *kb,
		     const char *nb, const char *sb)
{
	int c = symtab_class_cmp(ka, kb);

	if (!c)
		c = strcmp(na, nb);
	return c ? c : strcmp(sa, sb);
}

static int same_key(const struct dkey *x, const struct dkey *y)
{
	return cmp_names(x->klass, x->name, x->sig, y->klass, y->name, y->sig) == 0;
}

static int cmp_dkey(const void *a, const void *b, void *ctx)
{
	const struct dkey *x = a, *y = b;
	const struct cg_view *const *views = ctx;
	uint32_t xi, yi;
	int c = cmp_names(x->klass, x->name, x->sig, y->klass, y->name, y->sig);

	if (c)
		return c;
	if (x->later != y->later)
		return x->later < y->later ? -1 : 1;
	xi = views[x->later]->methods[x->pos].index;
	yi = views[y->later]->methods[y->pos].index;
	return xi < yi ? -1 : xi > yi;
}

static uint64_t magnitude(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* Display order of rows (see diff_rows), on an index array over them. */
struct row_order {
	const struct cg_diff *d;
	const struct cg_diff_row *rows;
};

static int cmp_rows(const void *a, const void *b, void *ctx)
{
	const struct row_order *o = ctx;
	const struct cg_diff_row *x = &o->rows[*(const uint32_t *)a];
	const struct cg_diff_row *y = &o->rows[*(const uint32_t *)b];
	struct cg_method_info tx, ty;
	const struct cg_method_info *mx, *my;
	uint64_t xv, yv;

	if (x->status != y->status)
		return x->status < y->status ? -1 : 1;
	switch (x->status) {
	case CG_DIFF_BOTH:
		xv = magnitude(x->d_incl_us);
		yv = magnitude(y->d_incl_us);
		if (xv != yv)
			return xv > yv ? -1 : 1;
		if (x->d_incl_us != y->d_incl_us)
			return x->d_incl_us > y->d_incl_us ? -1 : 1;
		if (x->later.incl_us != y->later.incl_us)
			return x->later.incl_us > y->later.incl_us ? -1 : 1;
		break;
	case CG_DIFF_BASE_ONLY:
		if (x->base.incl_us != y->base.incl_us)
			return x->base.incl_us > y->base.incl_us ? -1 : 1;
		if (x->base.excl_us != y->base.excl_us)
			return x->base.excl_us > y->base.excl_us ? -1 : 1;
		break;
	case CG_DIFF_LATER_ONLY:
		if (x->later.incl_us != y->later.incl_us)
			return x->later.incl_us > y->later.incl_us ? -1 : 1;
		if (x->later.excl_us != y->later.excl_us)
			return x->later.excl_us > y->later.excl_us ? -1 : 1;
		break;
	}
	mx = diff_method(o->d, x, &tx);
	my = diff_method(o->d, y, &ty);
	return cmp_names(mx->klass, mx->name, mx->sig, my->klass, my->name, my->sig);
}

/* Put element order[i] of base at position i, for every i, in place:
 * each cycle of the permutation moves through one spare element.  order
 * is used up. */
static void permute(void *base, size_t size, uint32_t *order, size_t n)
{
	char *b = base, *spare = xmalloc(size);
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		if (order[i] == i)
			continue;
		memcpy(spare, b + i * size, size);
		for (j = i;; j = k) {
			k = order[j];
			order[j] = (uint32_t)j;
			if (k == i) {
				memcpy(b + j * size, spare, size);
				break;
			}
			memcpy(b + j * size, b + k * size, size);
		}
	}
	free(spare);
}

static void side_add(struct cg_diff_side *s, const struct cg_pmethod *m, int other)
{
	if (!s->ran) {
		s->ran = 1;
		s->index = m->index;
	}
	s->incl_us += m->incl_us;
	s->excl_us += m->excl_us;
	if (other) {
		s->o_incl_us += m->o_incl_us;
		s->o_excl_us += m->o_excl_us;
	}
	s->calls += m->calls;
	s->rec_calls += m->rec_calls;
}

/* The methods of both views under their keys, sorted so that equal keys
 * are adjacent; returns how many (base->nmethods + later->nmethods). */
static struct dkey *keys_sorted(const struct cg_view *base, const struct cg_view *later,
				size_t *count)
{
	const struct cg_view *views[2] = { base, later };
	size_t n = base->nmethods + later->nmethods, i;
	struct dkey *keys = xmalloc((n + 1) * sizeof(*keys));

	for (i = 0; i < n; i++) {
		uint32_t lat = i >= base->nmethods;
		const struct cg_view *v = views[lat];
		uint32_t pos = (uint32_t)(lat ? i - base->nmethods : i);
		struct cg_method_info tmp;
		const struct cg_method_info *mi = profile_method(v, &v->methods[pos], &tmp);

		keys[i].klass = mi->klass;
		keys[i].name = mi->name;
		keys[i].sig = mi->sig;
		keys[i].pos = pos;
		keys[i].later = lat;
	}
	sort_inplace(keys, n, sizeof(*keys), cmp_dkey, views);
	*count = n;
	return keys;
}

/* One row per group of equal keys, built in key order; the rows are then
 * put in display order through an index array, and each later method is
 * mapped to its row. */
struct cg_diff *diff_create(const struct cg_view *base, const struct cg_view *later)
{
	const struct cg_view *views[2] = { base, later };
	struct cg_diff *d = xcalloc(1, sizeof(*d));
	size_t n, i, j, k, nrows;
	struct dkey *keys = keys_sorted(base, later, &n);
	struct cg_diff_row *rows;
	uint32_t *key_row = xmalloc((n + 1) * sizeof(*key_row));
	uint32_t *order, *moved;
	struct row_order ro;

	d->has_other = base->has_other && later->has_other && base->primary == later->primary;
	d->primary = later->primary;
	d->base_st = base->st;
	d->later_st = later->st;
	for (i = 0, nrows = 0; i < n; i++)
		if (!i || !same_key(&keys[i], &keys[i - 1]))
			nrows++;
	rows = xcalloc(nrows + 1, sizeof(*rows));
	for (i = 0, k = 0; i < n; i = j, k++) {
		struct cg_diff_row *r = &rows[k];

		/* Groups end where the count above saw them end. */
		for (j = i; j < n && (j == i || same_key(&keys[j], &keys[j - 1])); j++) {
			side_add(keys[j].later ? &r->later : &r->base,
				 &views[keys[j].later]->methods[keys[j].pos], d->has_other);
			key_row[j] = (uint32_t)k;
		}
		r->status = !r->later.ran ? CG_DIFF_BASE_ONLY
			  : !r->base.ran  ? CG_DIFF_LATER_ONLY : CG_DIFF_BOTH;
		r->d_incl_us = (int64_t)r->later.incl_us - (int64_t)r->base.incl_us;
		r->d_excl_us = (int64_t)r->later.excl_us - (int64_t)r->base.excl_us;
		r->d_o_incl_us = (int64_t)r->later.o_incl_us - (int64_t)r->base.o_incl_us;
		r->d_o_excl_us = (int64_t)r->later.o_excl_us - (int64_t)r->base.o_excl_us;
		r->d_calls = (int64_t)(r->later.calls + r->later.rec_calls) -
			     (int64_t)(r->base.calls + r->base.rec_calls);
	}
	order = xmalloc((k + 1) * sizeof(*order));
	moved = xmalloc((k + 1) * sizeof(*moved));
	for (i = 0; i < k; i++)
		order[i] = (uint32_t)i;
	ro.d = d;
	ro.rows = rows;
	sort_inplace(order, k, sizeof(*order), cmp_rows, &ro);
	/* moved[row in key order] = its display position. */
	for (i = 0; i < k; i++) {
		moved[order[i]] = (uint32_t)i;
		d->counts[rows[order[i]].status]++;
	}
	permute(rows, sizeof(*rows), order, k);
	free(order);
	d->rows = rows;
	d->nrows = k;
	d->nby_later = later->npos;
	d->by_later = xmalloc((later->npos + 1) * sizeof(*d->by_later));
	for (i = 0; i < later->npos; i++)
		d->by_later[i] = UINT32_MAX;
	for (i = 0; i < n; i++) {
		uint32_t idx = keys[i].later ? later->methods[keys[i].pos].index : UINT32_MAX;

		if (idx < later->npos)
			d->by_later[idx] = moved[key_row[i]];
	}
	d->base_total = base->total_us;
	d->later_total = later->total_us;
	if (d->has_other) {
		d->base_o_total = base->o_total_us;
		d->later_o_total = later->o_total_us;
	}
	free(moved);
	free(key_row);
	free(keys);
	return d;
}

void diff_free(struct cg_diff *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d->by_later);
	free(d);
}

size_t diff_rows(const struct cg_diff *d, const struct cg_diff_row **rows, size_t counts[3])
{
	*rows = d->rows;
	if (counts)
		memcpy(counts, d->counts, sizeof(d->counts));
	return d->nrows;
}

uint64_t diff_base_total(const struct cg_diff *d)
{
	return d->base_total;
}

uint64_t diff_later_total(const struct cg_diff *d)
{
	return d->later_total;
}

int diff_has_other(const struct cg_diff *d, enum cg_clock_sel *primary)
{
	if (primary)
		*primary = d->primary;
	return d->has_other;
}

uint64_t diff_base_o_total(const struct cg_diff *d)
{
	return d->base_o_total;
}

uint64_t diff_later_o_total(const struct cg_diff *d)
{
	return d->later_o_total;
}

const struct cg_diff_row *diff_change(const struct cg_diff *d, uint32_t midx)
{
	if (!d || midx >= d->nby_later || d->by_later[midx] == UINT32_MAX)
		return NULL;
	return &d->rows[d->by_later[midx]];
}

const struct cg_method_info *diff_method(const struct cg_diff *d, const struct cg_diff_row *row,
					 struct cg_method_info *tmp)
{
	if (row->later.ran)
		return symtab_method_peek(d->later_st, row->later.index, tmp);
	return symtab_method_peek(d->base_st, row->base.index, tmp);
}

double diff_ratio(const struct cg_diff_row *row)
{
	if (row->base.incl_us == 0)
		return -1.0;
	return (double)row->later.incl_us / (double)row->base.incl_us;
}
