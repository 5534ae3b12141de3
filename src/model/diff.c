/* diff.c - match the methods of two profiles and compute their changes.
 *
 * The base becomes a packed list of entries in key order (class with '/'
 * as '.', name, signature).  Each entry is a flag byte, the sums as varints
 * (incl, excl, calls, rec_calls, and o_incl, o_excl when the base has the
 * other clock), then the class when it differs from the previous entry's,
 * the name and the signature, each ending in a NUL.  Methods of the base
 * with the same key are summed into one entry.
 *
 * The later view's methods are sorted by key through an index array; one
 * merge of the two ordered lists makes a row per key.  A row holds where
 * its sides are (the base entry, the later methods) and is filled whole
 * when read. */
#include "model/diff.h"

#include <stdlib.h>
#include <string.h>

#include "util/sort.h"
#include "util/util.h"

#define NONE32 UINT32_MAX
#define NONE64 UINT64_MAX
#define HAS_CLASS 1u  /* the entry's class follows its sums */

struct cg_diff_base {
	char *arena;          /* the entries, in key order */
	size_t len, cap;
	size_t nentries;
	int has_other;
	enum cg_clock_sel primary;
	uint64_t total_us, o_total_us;
	struct cg_diff_run run;   /* strings owned */
};

/* A later key whose group has more than one method: its summed side. */
struct extra {
	struct cg_diff_side side;
	uint32_t count;
};

/* A row: its base entry and class (offsets into the arena, NONE64 when the
 * key did not run in the base) and its later methods (from position later
 * of the sorted index, NONE32 when none; extra names the summed side when
 * there are several). */
struct drow {
	uint64_t entry, klass;
	uint32_t later, extra;
};

struct cg_diff {
	struct cg_diff_base *base;
	const struct cg_view *view;  /* later */
	uint32_t *lidx;              /* later view positions in key order */
	size_t nlidx;
	struct extra *extras;
	size_t nextras, extras_cap;
	struct drow *rows;
	size_t nrows;
	size_t counts[3];
	uint32_t *by_later;  /* later symtab index -> row, NONE32 when none */
	size_t nby_later;
	int has_other;
	enum cg_clock_sel primary;
};

/* Keys in order; a symtab interns classes and signatures, so within one
 * trace equal ones are one pointer. */
static int cmp_names(const char *ka, const char *na, const char *sa, const char *kb,
		     const char *nb, const char *sb)
{
	int c = ka == kb ? 0 : symtab_class_cmp(ka, kb);

	if (!c)
		c = strcmp(na, nb);
	return c || sa == sb ? c : strcmp(sa, sb);
}

static int cmp_info(const struct cg_method_info *a, const struct cg_method_info *b)
{
	return cmp_names(a->klass, a->name, a->sig, b->klass, b->name, b->sig);
}

/* View positions by key, then by symtab index (so a group's first method
 * is its lowest index). */
static int cmp_pos(const void *a, const void *b, void *ctx)
{
	const struct cg_view *v = ctx;
	const struct cg_pmethod *x = &v->methods[*(const uint32_t *)a];
	const struct cg_pmethod *y = &v->methods[*(const uint32_t *)b];
	struct cg_method_info tx, ty;
	int c = cmp_info(profile_method(v, x, &tx), profile_method(v, y, &ty));

	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The end of the group of equal keys that starts at sorted position i of
 * idx (n positions of v). */
static size_t group_end(const struct cg_view *v, const uint32_t *idx, size_t n, size_t i)
{
	struct cg_method_info tf, tj;
	const struct cg_method_info *first = profile_method(v, &v->methods[idx[i]], &tf);
	size_t j = i + 1;

	while (j < n && !cmp_info(first, profile_method(v, &v->methods[idx[j]], &tj)))
		j++;
	return j;
}

static uint32_t *positions_sorted(const struct cg_view *v)
{
	uint32_t *idx = xmalloc((v->nmethods + 1) * sizeof(*idx));
	size_t i;

	for (i = 0; i < v->nmethods; i++)
		idx[i] = (uint32_t)i;
	sort_inplace(idx, v->nmethods, sizeof(*idx), cmp_pos, (void *)v);
	return idx;
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

/* ---- the base's entries ------------------------------------------------------- */

static void put_bytes(struct cg_diff_base *b, const void *p, size_t n)
{
	b->arena = xgrow(b->arena, &b->cap, b->len + n, 1);
	memcpy(b->arena + b->len, p, n);
	b->len += n;
}

static void put_varint(struct cg_diff_base *b, uint64_t v)
{
	unsigned char buf[10];
	size_t n = 0;

	while (v >= 0x80) {
		buf[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	buf[n++] = (unsigned char)v;
	put_bytes(b, buf, n);
}

static uint64_t get_varint(const char **p)
{
	const unsigned char *s = (const unsigned char *)*p;
	uint64_t v = 0;
	unsigned shift = 0;

	for (;; shift += 7) {
		v |= (uint64_t)(*s & 0x7f) << shift;
		if (!(*s++ & 0x80))
			break;
	}
	*p = (const char *)s;
	return v;
}

/* An entry of the base, decoded. */
struct bentry {
	struct cg_diff_side side;
	int has_class;
	const char *klass, *name, *sig;  /* klass NULL when the entry has none */
	size_t next;                     /* offset of the following entry */
};

static void entry_read(const struct cg_diff_base *b, uint64_t off, struct bentry *e)
{
	const char *p = b->arena + off;
	unsigned flags = (unsigned char)*p++;

	memset(e, 0, sizeof(*e));
	e->side.ran = 1;
	e->side.incl_us = get_varint(&p);
	e->side.excl_us = get_varint(&p);
	e->side.calls = get_varint(&p);
	e->side.rec_calls = get_varint(&p);
	if (b->has_other) {
		e->side.o_incl_us = get_varint(&p);
		e->side.o_excl_us = get_varint(&p);
	}
	e->has_class = (flags & HAS_CLASS) != 0;
	if (e->has_class) {
		e->klass = p;
		p += strlen(p) + 1;
	}
	e->name = p;
	p += strlen(p) + 1;
	e->sig = p;
	p += strlen(p) + 1;
	e->next = (size_t)(p - b->arena);
}

static void entry_write(struct cg_diff_base *b, const struct cg_diff_side *s,
			const struct cg_method_info *m, const char *prev_class)
{
	unsigned char flags = !prev_class || strcmp(prev_class, m->klass) ? HAS_CLASS : 0;

	put_bytes(b, &flags, 1);
	put_varint(b, s->incl_us);
	put_varint(b, s->excl_us);
	put_varint(b, s->calls);
	put_varint(b, s->rec_calls);
	if (b->has_other) {
		put_varint(b, s->o_incl_us);
		put_varint(b, s->o_excl_us);
	}
	if (flags & HAS_CLASS)
		put_bytes(b, m->klass, strlen(m->klass) + 1);
	put_bytes(b, m->name, strlen(m->name) + 1);
	put_bytes(b, m->sig, strlen(m->sig) + 1);
}

void diff_run_fill(struct cg_diff_run *run, const char *file, const char *clock,
		   const struct cg_view *v)
{
	size_t i;

	memset(run, 0, sizeof(*run));
	run->file = file;
	run->clock = clock;
	run->nthreads = v->nthreads;
	for (i = 0; i < v->nthreads && v->nthreads <= 4; i++)
		run->names[i] = v->threads[i].name;
}

struct cg_diff_base *diff_base_create(const struct cg_view *v, const struct cg_diff_run *run)
{
	struct cg_diff_base *b = xcalloc(1, sizeof(*b));
	uint32_t *idx = positions_sorted(v);
	const char *prev_class = NULL;
	size_t i, j, k;

	b->has_other = v->has_other;
	b->primary = v->primary;
	b->total_us = v->total_us;
	b->o_total_us = v->has_other ? v->o_total_us : 0;
	b->run.file = xstrdup(run->file);
	b->run.clock = xstrdup(run->clock);
	b->run.nthreads = run->nthreads;
	for (k = 0; k < 4 && run->nthreads <= 4 && k < run->nthreads; k++)
		b->run.names[k] = xstrdup(run->names[k]);
	for (i = 0; i < v->nmethods; i = j) {
		struct cg_method_info tf;
		const struct cg_method_info *first = profile_method(v, &v->methods[idx[i]], &tf);
		struct cg_diff_side s;

		memset(&s, 0, sizeof(s));
		j = group_end(v, idx, v->nmethods, i);
		for (k = i; k < j; k++)
			side_add(&s, &v->methods[idx[k]], b->has_other);
		/* first may live in tf; its strings are the symtab's. */
		entry_write(b, &s, first, prev_class);
		prev_class = first->klass;
		b->nentries++;
	}
	free(idx);
	b->arena = xrealloc(b->arena, b->len + 1);
	b->cap = b->len + 1;
	return b;
}

int diff_base_entry(const struct cg_diff_base *b, size_t *off, const char **klass,
		    const char **name, const char **sig, struct cg_diff_side *side)
{
	struct bentry e;

	if (*off >= b->len)
		return 0;
	entry_read(b, *off, &e);
	if (e.has_class)
		*klass = e.klass;
	*name = e.name;
	*sig = e.sig;
	*side = e.side;
	*off = e.next;
	return 1;
}

uint64_t diff_base_totals(const struct cg_diff_base *b, uint64_t *o_total, int *has_other,
			  enum cg_clock_sel *primary)
{
	if (o_total)
		*o_total = b->o_total_us;
	if (has_other)
		*has_other = b->has_other;
	if (primary)
		*primary = b->primary;
	return b->total_us;
}

int diff_key_cmp(const char *ka, const char *na, const char *sa, const char *kb, const char *nb,
		 const char *sb)
{
	return cmp_names(ka, na, sa, kb, nb, sb);
}

void diff_base_free(struct cg_diff_base *b)
{
	size_t k;

	if (!b)
		return;
	free(b->arena);
	free((char *)b->run.file);
	free((char *)b->run.clock);
	for (k = 0; k < 4; k++)
		free((char *)b->run.names[k]);
	free(b);
}

/* ---- rows ----------------------------------------------------------------------- */

static enum cg_diff_status row_status(const struct drow *r)
{
	return r->later == NONE32 ? CG_DIFF_BASE_ONLY
	     : r->entry == NONE64 ? CG_DIFF_LATER_ONLY : CG_DIFF_BOTH;
}

static void row_fill(const struct cg_diff *d, const struct drow *r, struct cg_diff_row *out)
{
	memset(out, 0, sizeof(*out));
	out->status = row_status(r);
	if (r->entry != NONE64) {
		struct bentry e;

		entry_read(d->base, r->entry, &e);
		out->base = e.side;
		if (!d->has_other)
			out->base.o_incl_us = out->base.o_excl_us = 0;
	}
	if (r->extra != NONE32)
		out->later = d->extras[r->extra].side;
	else if (r->later != NONE32)
		side_add(&out->later, &d->view->methods[d->lidx[r->later]], d->has_other);
	out->d_incl_us = (int64_t)out->later.incl_us - (int64_t)out->base.incl_us;
	out->d_excl_us = (int64_t)out->later.excl_us - (int64_t)out->base.excl_us;
	out->d_o_incl_us = (int64_t)out->later.o_incl_us - (int64_t)out->base.o_incl_us;
	out->d_o_excl_us = (int64_t)out->later.o_excl_us - (int64_t)out->base.o_excl_us;
	out->d_calls = (int64_t)(out->later.calls + out->later.rec_calls) -
		       (int64_t)(out->base.calls + out->base.rec_calls);
}

static const struct cg_method_info *row_method(const struct cg_diff *d, const struct drow *r,
					       struct cg_method_info *tmp)
{
	struct bentry e;

	if (r->later != NONE32)
		return profile_method(d->view, &d->view->methods[d->lidx[r->later]], tmp);
	entry_read(d->base, r->entry, &e);
	memset(tmp, 0, sizeof(*tmp));
	tmp->klass = d->base->arena + r->klass;
	tmp->name = e.name;
	tmp->sig = e.sig;
	tmp->source = "";
	return tmp;
}

static uint64_t magnitude(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* The primary clock's times of a row, for sorting: incl_us and excl_us of
 * both sides and d_incl_us; the rest of *out is left as it was. */
static void row_times(const struct cg_diff *d, const struct drow *r, struct cg_diff_row *out)
{
	out->base.incl_us = out->base.excl_us = 0;
	out->later.incl_us = out->later.excl_us = 0;
	if (r->entry != NONE64) {
		const char *p = d->base->arena + r->entry + 1;

		out->base.incl_us = get_varint(&p);
		out->base.excl_us = get_varint(&p);
	}
	if (r->extra != NONE32) {
		out->later.incl_us = d->extras[r->extra].side.incl_us;
		out->later.excl_us = d->extras[r->extra].side.excl_us;
	} else if (r->later != NONE32) {
		out->later.incl_us = d->view->methods[d->lidx[r->later]].incl_us;
		out->later.excl_us = d->view->methods[d->lidx[r->later]].excl_us;
	}
	out->d_incl_us = (int64_t)out->later.incl_us - (int64_t)out->base.incl_us;
}

/* Display order of rows (see diff_row). */
static int cmp_rows(const void *a, const void *b, void *ctx)
{
	const struct cg_diff *d = ctx;
	const struct drow *rx = a, *ry = b;
	enum cg_diff_status sx = row_status(rx), sy = row_status(ry);
	struct cg_diff_row x, y;
	struct cg_method_info tx, ty;
	uint64_t xv, yv;

	if (sx != sy)
		return sx < sy ? -1 : 1;
	row_times(d, rx, &x);
	row_times(d, ry, &y);
	switch (sx) {
	case CG_DIFF_BOTH:
		xv = magnitude(x.d_incl_us);
		yv = magnitude(y.d_incl_us);
		if (xv != yv)
			return xv > yv ? -1 : 1;
		if (x.d_incl_us != y.d_incl_us)
			return x.d_incl_us > y.d_incl_us ? -1 : 1;
		if (x.later.incl_us != y.later.incl_us)
			return x.later.incl_us > y.later.incl_us ? -1 : 1;
		break;
	case CG_DIFF_BASE_ONLY:
		if (x.base.incl_us != y.base.incl_us)
			return x.base.incl_us > y.base.incl_us ? -1 : 1;
		if (x.base.excl_us != y.base.excl_us)
			return x.base.excl_us > y.base.excl_us ? -1 : 1;
		break;
	case CG_DIFF_LATER_ONLY:
		if (x.later.incl_us != y.later.incl_us)
			return x.later.incl_us > y.later.incl_us ? -1 : 1;
		if (x.later.excl_us != y.later.excl_us)
			return x.later.excl_us > y.later.excl_us ? -1 : 1;
		break;
	}
	return cmp_info(row_method(d, rx, &tx), row_method(d, ry, &ty));
}

/* The later group of equal keys starting at sorted position i: its end;
 * a summed side in the extras when it has more than one method. */
static size_t later_group(struct cg_diff *d, size_t i, uint32_t *extra)
{
	const struct cg_view *v = d->view;
	size_t j = group_end(v, d->lidx, d->nlidx, i);

	*extra = NONE32;
	if (j - i > 1) {
		struct extra *x;
		size_t k;

		d->extras = xgrow(d->extras, &d->extras_cap, d->nextras + 1, sizeof(*d->extras));
		x = &d->extras[d->nextras];
		memset(x, 0, sizeof(*x));
		for (k = i; k < j; k++)
			side_add(&x->side, &v->methods[d->lidx[k]], d->has_other);
		x->count = (uint32_t)(j - i);
		*extra = (uint32_t)d->nextras++;
	}
	return j;
}

static void row_add(struct cg_diff *d, size_t *cap, uint64_t entry, uint64_t klass,
		    uint32_t later, uint32_t extra)
{
	struct drow *r;

	d->rows = xgrow(d->rows, cap, d->nrows + 1, sizeof(*d->rows));
	r = &d->rows[d->nrows++];
	r->entry = entry;
	r->klass = klass;
	r->later = later;
	r->extra = extra;
}

/* One merge of the base's entries and the later's sorted methods. */
static void rows_merge(struct cg_diff *d)
{
	const struct cg_diff_base *b = d->base;
	const struct cg_view *v = d->view;
	size_t cap = 0, off = 0, n = 0, li = 0;
	uint64_t klass = 0;
	struct bentry e;

	if (b->nentries)
		entry_read(b, 0, &e);
	while (n < b->nentries || li < d->nlidx) {
		int c;

		if (n < b->nentries && e.has_class)
			klass = (uint64_t)(e.klass - b->arena);
		if (n == b->nentries) {
			c = 1;
		} else if (li == d->nlidx) {
			c = -1;
		} else {
			struct cg_method_info t;
			const struct cg_method_info *m =
				profile_method(v, &v->methods[d->lidx[li]], &t);

			c = cmp_names(b->arena + klass, e.name, e.sig, m->klass, m->name, m->sig);
		}
		if (c > 0) {
			uint32_t extra;
			size_t end = later_group(d, li, &extra);

			row_add(d, &cap, NONE64, 0, (uint32_t)li, extra);
			li = end;
			continue;
		}
		if (c == 0) {
			uint32_t extra;
			size_t end = later_group(d, li, &extra);

			row_add(d, &cap, off, klass, (uint32_t)li, extra);
			li = end;
		} else {
			row_add(d, &cap, off, klass, NONE32, NONE32);
		}
		off = e.next;
		if (++n < b->nentries)
			entry_read(b, off, &e);
	}
}

struct cg_diff *diff_create(struct cg_diff_base *base, const struct cg_view *later)
{
	struct cg_diff *d = xcalloc(1, sizeof(*d));
	size_t i, k;

	d->base = base;
	d->view = later;
	d->has_other = base->has_other && later->has_other && base->primary == later->primary;
	d->primary = later->primary;
	d->lidx = positions_sorted(later);
	d->nlidx = later->nmethods;
	rows_merge(d);
	sort_inplace(d->rows, d->nrows, sizeof(*d->rows), cmp_rows, d);
	d->nby_later = later->npos;
	d->by_later = xmalloc((later->npos + 1) * sizeof(*d->by_later));
	for (i = 0; i < later->npos; i++)
		d->by_later[i] = NONE32;
	for (i = 0; i < d->nrows; i++) {
		const struct drow *r = &d->rows[i];
		size_t count = r->extra != NONE32 ? d->extras[r->extra].count : 1;

		d->counts[row_status(r)]++;
		if (r->later == NONE32)
			continue;
		for (k = r->later; k < r->later + count; k++) {
			uint32_t idx = later->methods[d->lidx[k]].index;

			if (idx < later->npos)
				d->by_later[idx] = (uint32_t)i;
		}
	}
	return d;
}

void diff_free(struct cg_diff *d)
{
	if (!d)
		return;
	diff_base_free(d->base);
	free(d->lidx);
	free(d->extras);
	free(d->rows);
	free(d->by_later);
	free(d);
}

const struct cg_diff_run *diff_base_run(const struct cg_diff *d)
{
	return &d->base->run;
}

size_t diff_count(const struct cg_diff *d, size_t counts[3])
{
	if (counts)
		memcpy(counts, d->counts, sizeof(d->counts));
	return d->nrows;
}

const struct cg_diff_row *diff_row(const struct cg_diff *d, size_t i, struct cg_diff_row *tmp)
{
	row_fill(d, &d->rows[i], tmp);
	tmp->id = i;
	return tmp;
}

uint64_t diff_base_total(const struct cg_diff *d)
{
	return d->base->total_us;
}

uint64_t diff_later_total(const struct cg_diff *d)
{
	return d->view->total_us;
}

int diff_has_other(const struct cg_diff *d, enum cg_clock_sel *primary)
{
	if (primary)
		*primary = d->primary;
	return d->has_other;
}

uint64_t diff_base_o_total(const struct cg_diff *d)
{
	return d->has_other ? d->base->o_total_us : 0;
}

uint64_t diff_later_o_total(const struct cg_diff *d)
{
	return d->has_other ? d->view->o_total_us : 0;
}

const struct cg_diff_row *diff_change(const struct cg_diff *d, uint32_t midx,
				      struct cg_diff_row *tmp)
{
	if (!d || midx >= d->nby_later || d->by_later[midx] == NONE32)
		return NULL;
	return diff_row(d, d->by_later[midx], tmp);
}

const struct cg_method_info *diff_method(const struct cg_diff *d, const struct cg_diff_row *row,
					 struct cg_method_info *tmp)
{
	return row_method(d, &d->rows[row->id], tmp);
}

double diff_ratio(const struct cg_diff_row *row)
{
	if (row->base.incl_us == 0)
		return -1.0;
	return (double)row->later.incl_us / (double)row->base.incl_us;
}
