/* diff.c - match the methods of two profiles and compute their changes.
 *
 * Each method of either view gets a key "class\0name\0sig" (class with '/'
 * as '.'); the keys of both views are sorted together, so equal keys are
 * adjacent and each group becomes one row. */
#include "model/diff.h"

#include <stdlib.h>
#include <string.h>

#include "util/sort.h"
#include "util/strbuf.h"
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
};

struct dkey {
	const char *key;     /* into the key buffer */
	size_t off, len;
	int later;           /* 0 base, 1 later */
	const struct cg_pmethod *m;
};

static int cmp_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static int cmp_dkey(const void *a, const void *b, void *ctx)
{
	const struct dkey *x = a, *y = b;
	int c = cmp_bytes(x->key, x->len, y->key, y->len);

	(void)ctx;
	if (c)
		return c;
	if (x->later != y->later)
		return x->later - y->later;
	return x->m->index < y->m->index ? -1 : x->m->index > y->m->index;
}

static void put_key(struct strbuf *sb, const struct cg_method_info *mi)
{
	size_t start = sb->len, i;

	strbuf_puts(sb, mi->klass);
	for (i = start; i < sb->len; i++)
		if (sb->data[i] == '/')
			sb->data[i] = '.';
	strbuf_add(sb, "", 1);
	strbuf_puts(sb, mi->name);
	strbuf_add(sb, "", 1);
	strbuf_puts(sb, mi->sig);
}

static uint64_t magnitude(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* Sort keys of rows: kept beside the rows while sorting. */
struct srow {
	struct cg_diff_row row;
	const char *key;
	size_t len;
	uint32_t orig;       /* index before sorting */
};

static int cmp_srow(const void *a, const void *b, void *ctx)
{
	const struct srow *x = a, *y = b;
	uint64_t xv, yv;

	(void)ctx;
	if (x->row.status != y->row.status)
		return x->row.status < y->row.status ? -1 : 1;
	switch (x->row.status) {
	case CG_DIFF_BOTH:
		xv = magnitude(x->row.d_incl_us);
		yv = magnitude(y->row.d_incl_us);
		if (xv != yv)
			return xv > yv ? -1 : 1;
		if (x->row.d_incl_us != y->row.d_incl_us)
			return x->row.d_incl_us > y->row.d_incl_us ? -1 : 1;
		if (x->row.later.incl_us != y->row.later.incl_us)
			return x->row.later.incl_us > y->row.later.incl_us ? -1 : 1;
		break;
	case CG_DIFF_BASE_ONLY:
		if (x->row.base.incl_us != y->row.base.incl_us)
			return x->row.base.incl_us > y->row.base.incl_us ? -1 : 1;
		if (x->row.base.excl_us != y->row.base.excl_us)
			return x->row.base.excl_us > y->row.base.excl_us ? -1 : 1;
		break;
	case CG_DIFF_LATER_ONLY:
		if (x->row.later.incl_us != y->row.later.incl_us)
			return x->row.later.incl_us > y->row.later.incl_us ? -1 : 1;
		if (x->row.later.excl_us != y->row.later.excl_us)
			return x->row.later.excl_us > y->row.later.excl_us ? -1 : 1;
		break;
	}
	return cmp_bytes(x->key, x->len, y->key, y->len);
}

static void side_add(struct cg_diff_side *s, const struct cg_pmethod *m, int other)
{
	if (!s->info)
		s->info = m->info;
	s->incl_us += m->incl_us;
	s->excl_us += m->excl_us;
	if (other) {
		s->o_incl_us += m->o_incl_us;
		s->o_excl_us += m->o_excl_us;
	}
	s->calls += m->calls;
	s->rec_calls += m->rec_calls;
}

/* Rows are built beside their sort keys (struct srow), sorted in place, and
 * then packed down into plain rows in the same array: the row of position
 * i never lies above its srow, so each move copies downwards. */
struct cg_diff *diff_create(const struct cg_view *base, const struct cg_view *later)
{
	struct cg_diff *d = xcalloc(1, sizeof(*d));
	size_t n = base->nmethods + later->nmethods, i, j, k, nrows;
	struct dkey *keys = xmalloc((n + 1) * sizeof(*keys));
	struct srow *rows;
	uint32_t *key_row = xmalloc((n + 1) * sizeof(*key_row));
	uint32_t *moved;
	struct strbuf kb;

	d->has_other = base->has_other && later->has_other && base->primary == later->primary;
	d->primary = later->primary;
	strbuf_init(&kb);
	for (i = 0; i < n; i++) {
		int lat = i >= base->nmethods;
		const struct cg_pmethod *m = lat ? &later->methods[i - base->nmethods]
						 : &base->methods[i];

		keys[i].off = kb.len;
		put_key(&kb, m->info);
		keys[i].len = kb.len - keys[i].off;
		keys[i].later = lat;
		keys[i].m = m;
	}
	for (i = 0; i < n; i++)
		keys[i].key = kb.data + keys[i].off;
	sort_inplace(keys, n, sizeof(*keys), cmp_dkey, NULL);
	for (i = 0, nrows = 0; i < n; i++)
		if (!i || cmp_bytes(keys[i].key, keys[i].len, keys[i - 1].key, keys[i - 1].len))
			nrows++;
	rows = xcalloc(nrows + 1, sizeof(*rows));
	/* One row per group of equal keys. */
	for (i = 0, k = 0; i < n; i = j, k++) {
		struct cg_diff_row *r = &rows[k].row;

		rows[k].key = keys[i].key;
		rows[k].len = keys[i].len;
		rows[k].orig = (uint32_t)k;
		for (j = i; j < n && cmp_bytes(keys[j].key, keys[j].len, keys[i].key, keys[i].len) == 0;
		     j++) {
			side_add(keys[j].later ? &r->later : &r->base, keys[j].m, d->has_other);
			key_row[j] = (uint32_t)k;
		}
		r->status = !r->later.info ? CG_DIFF_BASE_ONLY
			  : !r->base.info  ? CG_DIFF_LATER_ONLY : CG_DIFF_BOTH;
		r->d_incl_us = (int64_t)r->later.incl_us - (int64_t)r->base.incl_us;
		r->d_excl_us = (int64_t)r->later.excl_us - (int64_t)r->base.excl_us;
		r->d_o_incl_us = (int64_t)r->later.o_incl_us - (int64_t)r->base.o_incl_us;
		r->d_o_excl_us = (int64_t)r->later.o_excl_us - (int64_t)r->base.o_excl_us;
		r->d_calls = (int64_t)(r->later.calls + r->later.rec_calls) -
			     (int64_t)(r->base.calls + r->base.rec_calls);
	}
	sort_inplace(rows, k, sizeof(*rows), cmp_srow, NULL);
	/* moved[unsorted row] = sorted position, to map later methods to rows. */
	moved = xmalloc((k + 1) * sizeof(*moved));
	for (i = 0; i < k; i++) {
		moved[rows[i].orig] = (uint32_t)i;
		d->counts[rows[i].row.status]++;
	}
	d->rows = (struct cg_diff_row *)(void *)rows;
	for (i = 0; i < k; i++)
		memmove(&d->rows[i], &rows[i].row, sizeof(d->rows[i]));
	d->rows = xrealloc(d->rows, (k + 1) * sizeof(*d->rows));
	d->nrows = k;
	d->nby_later = later->npos;
	d->by_later = xmalloc((later->npos + 1) * sizeof(*d->by_later));
	for (i = 0; i < later->npos; i++)
		d->by_later[i] = UINT32_MAX;
	for (i = 0; i < n; i++)
		if (keys[i].later && keys[i].m->index < later->npos)
			d->by_later[keys[i].m->index] = moved[key_row[i]];
	d->base_total = base->total_us;
	d->later_total = later->total_us;
	if (d->has_other) {
		d->base_o_total = base->o_total_us;
		d->later_o_total = later->o_total_us;
	}
	free(moved);
	free(key_row);
	free(keys);
	strbuf_free(&kb);
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

double diff_ratio(const struct cg_diff_row *row)
{
	if (row->base.incl_us == 0)
		return -1.0;
	return (double)row->later.incl_us / (double)row->base.incl_us;
}
