/* The comparison of two runs (diff.h) against a plain model of it: random
 * pairs of traces whose keys repeat across ids (a class written with '/'
 * in one id and '.' in another), with times past every varint length; each
 * key's sums are added up here straight from the two views, and every row,
 * count, order rule and later method's row must agree. */
#include <stdlib.h>

#include "model/diff.h"
#include "model/profile.h"
#include "read/symtab.h"
#include "unit.h"

#define NKEYS 12
#define MAXM 40
#define NREC 400

static const char *const classes[] = { "a/B", "a.B", "a/C", "z/Y" };
static const char *const names[] = { "run", "get", "x" };
static const char *const sigs[] = { "()V", "(I)V" };

static uint64_t rng = 88172645463325252ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* One run: methods with random keys, well-nested calls on two threads,
 * steps of time from 1 us to past 2^28 us. */
struct run {
	struct cg_symtab *st;
	struct cg_profile *p;
	const struct cg_view *v;
};

static void run_make(struct run *r, int dual)
{
	struct cg_profile_opts o = { .clock = CG_USE_WALL };
	struct cg_trace_info info = { 0 };
	struct cg_record recs[NREC];
	uint32_t stack[2][NREC], depth[2] = { 0, 0 }, wall = 1, nm = 5 + (uint32_t)(next() % (MAXM - 5));
	struct cg_error err;
	size_t i;

	r->st = symtab_create();
	for (i = 0; i < nm; i++) {
		uint64_t k = next() % NKEYS;

		symtab_define_method(r->st, (uint32_t)(i + 1) * 4, classes[k % 4], names[k % 3],
				     sigs[(k / 6) % 2], "X.java", 0);
	}
	symtab_define_thread(r->st, 1, "main", 0);
	symtab_define_thread(r->st, 2, "worker", 0);
	memset(recs, 0, sizeof(recs));
	for (i = 0; i < NREC; i++) {
		uint32_t t = (uint32_t)(next() % 2);
		uint64_t step = next() % 8;

		wall += step == 0 ? (uint32_t)(next() % (1u << 29)) : (uint32_t)(1 + next() % 300);
		recs[i].tid = t + 1;
		recs[i].t_wall = wall;
		recs[i].t_cpu = wall / 2;
		recs[i].offset = i;
		if (depth[t] && (next() % 2 || i + depth[0] + depth[1] >= NREC - 2)) {
			recs[i].action = CG_EXIT;
			recs[i].method = stack[t][--depth[t]];
		} else {
			recs[i].action = CG_ENTER;
			recs[i].method = (uint32_t)(1 + next() % nm) * 4;
			stack[t][depth[t]++] = recs[i].method;
		}
	}
	r->p = profile_create(r->st, &o);
	profile_add(r->p, recs, NREC, &err);
	info.clock = dual ? CG_CLOCK_DUAL : CG_CLOCK_WALL;
	profile_finish(r->p, &info);
	r->v = profile_view(r->p, -1);
}

static void run_free(struct run *r)
{
	profile_free(r->p);
	symtab_free(r->st);
}

/* A key as text: class with '/' as '.', name, signature. */
static void key_text(char *buf, const struct cg_method_info *m)
{
	size_t i;

	snprintf(buf, 96, "%s|%s|%s", m->klass, m->name, m->sig);
	for (i = 0; buf[i] != '|'; i++)
		if (buf[i] == '/')
			buf[i] = '.';
}

struct mkey {
	char text[96];
	struct cg_diff_side side[2];
};

/* The model: every method of both views summed under its key. */
static size_t model(const struct run *rs, struct mkey *keys, int other)
{
	size_t n = 0, k, i, j;

	for (k = 0; k < 2; k++) {
		const struct cg_view *v = rs[k].v;

		for (i = 0; i < v->nmethods; i++) {
			const struct cg_pmethod *m = &v->methods[i];
			struct cg_method_info tmp;
			char t[96];
			struct cg_diff_side *s;

			key_text(t, profile_method(v, m, &tmp));
			for (j = 0; j < n && strcmp(keys[j].text, t); j++)
				;
			if (j == n) {
				memset(&keys[n], 0, sizeof(keys[n]));
				strcpy(keys[n++].text, t);
			}
			s = &keys[j].side[k];
			s->ran = 1;
			s->incl_us += m->incl_us;
			s->excl_us += m->excl_us;
			s->calls += m->calls;
			s->rec_calls += m->rec_calls;
			if (other) {
				s->o_incl_us += m->o_incl_us;
				s->o_excl_us += m->o_excl_us;
			}
		}
	}
	return n;
}

static int same_side(const struct cg_diff_side *a, const struct cg_diff_side *b)
{
	return a->ran == b->ran && a->incl_us == b->incl_us && a->excl_us == b->excl_us &&
	       a->calls == b->calls && a->rec_calls == b->rec_calls &&
	       a->o_incl_us == b->o_incl_us && a->o_excl_us == b->o_excl_us;
}

static uint64_t mag(int64_t v)
{
	return v < 0 ? (uint64_t)-v : (uint64_t)v;
}

/* Row x may come before row y in display order. */
static int in_order(const struct cg_diff_row *x, const struct cg_diff_row *y)
{
	if (x->status != y->status)
		return x->status < y->status;
	if (x->status == CG_DIFF_BOTH)
		return mag(x->d_incl_us) > mag(y->d_incl_us) ||
		       (mag(x->d_incl_us) == mag(y->d_incl_us) && x->d_incl_us >= y->d_incl_us);
	if (x->status == CG_DIFF_BASE_ONLY)
		return x->base.incl_us >= y->base.incl_us;
	return x->later.incl_us >= y->later.incl_us;
}

static int one_pair(int dual)
{
	struct run rs[2];
	struct mkey keys[2 * MAXM];
	struct cg_diff_run info = { "base.trace", "wall", 2, { "main", "worker" } };
	struct cg_diff *d;
	struct cg_diff_row prev = { 0 }, row;
	size_t counts[3], want[3] = { 0, 0, 0 }, n, nk, i, j;
	int other, bad = 0;

	run_make(&rs[0], dual);
	run_make(&rs[1], dual);
	d = diff_create(diff_base_create(rs[0].v, &info), rs[1].v);
	other = diff_has_other(d, NULL);
	CHECK(other == dual);
	nk = model(rs, keys, other);
	n = diff_count(d, counts);
	CHECK_EQ_U64(n, nk);
	for (i = 0; i < nk; i++)
		want[keys[i].side[0].ran ? keys[i].side[1].ran ? CG_DIFF_BOTH : CG_DIFF_BASE_ONLY
					 : CG_DIFF_LATER_ONLY]++;
	for (i = 0; i < 3; i++)
		CHECK_EQ_U64(counts[i], want[i]);
	CHECK_EQ_U64(diff_base_total(d), rs[0].v->total_us);
	CHECK_EQ_U64(diff_later_total(d), rs[1].v->total_us);
	CHECK(strcmp(diff_base_run(d)->names[1], "worker") == 0);
	for (i = 0; i < n; i++) {
		struct cg_method_info tmp;
		struct cg_diff_side b, l;
		char t[96];

		diff_row(d, i, &row);
		key_text(t, diff_method(d, &row, &tmp));
		for (j = 0; j < nk && strcmp(keys[j].text, t); j++)
			;
		CHECK(j < nk);
		b = row.base;
		l = row.later;
		b.index = l.index = 0;
		if (!same_side(&b, &keys[j].side[0]) || !same_side(&l, &keys[j].side[1])) {
			fprintf(stderr, "  row %zu (%s): sums differ from the model\n", i, t);
			bad = 1;
		}
		CHECK(row.d_incl_us == (int64_t)(l.incl_us - b.incl_us));
		CHECK(row.d_o_excl_us == (int64_t)(l.o_excl_us - b.o_excl_us));
		if (i && !in_order(&prev, &row)) {
			fprintf(stderr, "  rows %zu and %zu out of order\n", i - 1, i);
			bad = 1;
		}
		keys[j].text[0] = '\0'; /* each key one row */
		prev = row;
	}
	/* Every later method finds its key's row. */
	for (i = 0; i < rs[1].v->nmethods; i++) {
		const struct cg_pmethod *m = &rs[1].v->methods[i];
		struct cg_method_info t1, t2;
		char a[96], b[96];
		const struct cg_diff_row *r = diff_change(d, m->index, &row);

		CHECK(r != NULL);
		key_text(a, profile_method(rs[1].v, m, &t1));
		key_text(b, diff_method(d, r, &t2));
		CHECK(strcmp(a, b) == 0);
	}
	diff_free(d);
	run_free(&rs[0]);
	run_free(&rs[1]);
	return bad;
}

UNIT_TEST(diff_matches_model)
{
	int i;

	for (i = 0; i < 300; i++)
		if (one_pair(i % 2))
			return 1;
	return 0;
}
