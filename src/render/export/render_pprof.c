/* render_pprof.c - pprof profile.proto from the calling-context tree.
 *
 * Field numbers are those of profile.proto: Profile {1 sample_type,
 * 2 sample, 4 location, 5 function, 6 string_table, 11 period_type,
 * 12 period, 14 default_sample_type}, ValueType {1 type, 2 unit},
 * Sample {1 location_id, 2 value, 3 label}, Label {1 key, 2 str, 3 num},
 * Location {1 id, 4 line}, Line {1 function_id, 2 line}, Function {1 id,
 * 2 name, 3 system_name, 4 filename, 5 start_line}.
 *
 * Sample values: calls, time on the primary clock (the default sample
 * type), and on a dual-clock trace the time on the other clock as a third
 * type named after it, so `go tool pprof -sample_index=cpu` shows it. */
#include "render/export/render_pprof.h"

#include <stdlib.h>
#include <string.h>

#include "model/cct.h"
#include "render/export/exportname.h"
#include "render/export/gzpipe.h"
#include "render/javaname.h"
#include "render/export/protobuf.h"

/* String table: strings in one buffer, found through an open-addressing
 * table; index 0 is "". */
struct strtab {
	struct strbuf text;   /* each string NUL-terminated */
	size_t *off;          /* offset of string i */
	size_t n, cap;
	uint32_t *slots;      /* string index + 1; 0 = empty */
	size_t nslots;
};

static uint64_t hash_str(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static void strtab_rehash(struct strtab *t)
{
	size_t i, j, mask;

	free(t->slots);
	t->nslots = t->nslots ? t->nslots * 2 : 1024;
	t->slots = xcalloc(t->nslots, sizeof(*t->slots));
	mask = t->nslots - 1;
	for (i = 0; i < t->n; i++) {
		const char *s = t->text.data + t->off[i];

		for (j = (size_t)hash_str(s, strlen(s)) & mask; t->slots[j]; j = (j + 1) & mask)
			;
		t->slots[j] = (uint32_t)i + 1;
	}
}

static uint64_t strtab_id(struct strtab *t, const char *s)
{
	size_t len = strlen(s), mask, j;

	if ((t->n + 1) * 2 > t->nslots)
		strtab_rehash(t);
	mask = t->nslots - 1;
	for (j = (size_t)hash_str(s, len) & mask; t->slots[j]; j = (j + 1) & mask)
		if (strcmp(t->text.data + t->off[t->slots[j] - 1], s) == 0)
			return t->slots[j] - 1;
	t->off = xgrow(t->off, &t->cap, t->n + 1, sizeof(*t->off));
	t->off[t->n] = t->text.len;
	strbuf_add(&t->text, s, len + 1);
	t->slots[j] = (uint32_t)t->n + 1;
	return t->n++;
}

static void value_type(struct strbuf *out, struct strtab *t, uint32_t field, const char *type,
		       const char *unit)
{
	struct strbuf m;

	strbuf_init(&m);
	pb_uint(&m, 1, strtab_id(t, type), 0);
	pb_uint(&m, 2, strtab_id(t, unit), 0);
	pb_bytes(out, field, m.data, m.len);
	strbuf_free(&m);
}

struct ctx {
	struct strbuf *out;
	struct strtab *st;
	struct strbuf msg, lab;
	uint64_t *locs;        /* location ids, leaf first */
	size_t cap_locs;
	uint64_t thread_key, tid_key, thread_name;
	uint32_t tid;
	int other;             /* 1: a third value, the other clock's time */
};

/* One Sample: path[0..n) root first, values calls and time. */
static void sample(struct ctx *c, const uint64_t *path, size_t n, uint64_t calls, uint64_t us,
		   uint64_t o_us)
{
	uint64_t vals[3];
	size_t i;

	c->locs = xgrow(c->locs, &c->cap_locs, n + 1, sizeof(*c->locs));
	for (i = 0; i < n; i++)
		c->locs[i] = path[n - 1 - i];
	vals[0] = calls;
	vals[1] = us;
	vals[2] = o_us;
	strbuf_reset(&c->msg);
	pb_packed(&c->msg, 1, c->locs, n);
	pb_packed(&c->msg, 2, vals, c->other ? 3 : 2);
	strbuf_reset(&c->lab);
	pb_uint(&c->lab, 1, c->thread_key, 0);
	pb_uint(&c->lab, 2, c->thread_name, 0);
	pb_bytes(&c->msg, 3, c->lab.data, c->lab.len);
	strbuf_reset(&c->lab);
	pb_uint(&c->lab, 1, c->tid_key, 0);
	pb_uint(&c->lab, 3, c->tid, 1);
	pb_bytes(&c->msg, 3, c->lab.data, c->lab.len);
	pb_bytes(c->out, 2, c->msg.data, c->msg.len);
}

/* Calls and exclusive time (both clocks) of the whole subtree of node k. */
static void subtree_sum(const struct cg_cct *cct, uint32_t k, uint64_t *calls, uint64_t *us,
			uint64_t *o_us, uint32_t **work, size_t *cap)
{
	size_t n = 0;

	*calls = *us = *o_us = 0;
	*work = xgrow(*work, cap, 1, sizeof(**work));
	(*work)[n++] = k;
	while (n) {
		uint32_t id = (*work)[--n];
		size_t nk, i;
		const uint32_t *kids = cct_children(cct, id, &nk);
		uint64_t x, o_x;

		cct_excl_both(cct, id, &x, &o_x);
		*calls += cct_node(cct, id)->calls;
		*us += x;
		*o_us += o_x;
		*work = xgrow(*work, cap, n + nk, sizeof(**work));
		for (i = 0; i < nk; i++)
			(*work)[n++] = kids[i];
	}
}

/* A Function and its Location, both with id `id`. */
static void put_function(struct strbuf *out, uint64_t id, uint64_t name, uint64_t sys,
			 uint64_t file, uint64_t line)
{
	struct strbuf f, l, loc;

	strbuf_init(&f);
	strbuf_init(&l);
	strbuf_init(&loc);
	pb_uint(&f, 1, id, 1);
	pb_uint(&f, 2, name, 0);
	pb_uint(&f, 3, sys ? sys : name, 0);
	pb_uint(&f, 4, file, 0);
	pb_uint(&f, 5, line, 0);
	pb_bytes(out, 5, f.data, f.len);
	pb_uint(&l, 1, id, 1);
	pb_uint(&l, 2, line, 0);
	pb_uint(&loc, 1, id, 1);
	pb_bytes(&loc, 4, l.data, l.len);
	pb_bytes(out, 4, loc.data, loc.len);
	strbuf_free(&f);
	strbuf_free(&l);
	strbuf_free(&loc);
}

struct walk {
	const uint32_t *kids; /* children of the frame */
	size_t n, next;       /* how many; the next to visit */
};

static int pprof_render(const struct cg_report *r, struct strbuf *final, struct cg_error *err)
{
	const struct cg_cct *cct = r->cct;
	const struct cg_pthread *threads = profile_threads(r->profile);
	size_t nthreads = profile_thread_count(r->profile);
	size_t nm = symtab_method_count(r->st), i;
	struct strtab st;
	struct strbuf out, fn;
	struct ctx c;
	struct cg_exportnames *names;
	unsigned char *used;
	uint64_t *path = NULL, deeper_id, next_id;
	size_t cap_path = 0, cap_walk = 0, cap_work = 0;
	struct walk *w = NULL;
	uint32_t *work = NULL;
	const char *clock = report_clock_name(r);
	struct cg_gzpipe *gz;
	int rc;

	if (!cct) {
		cg_error_set(err, -1, "pprof output needs the calling-context tree (internal error)");
		return -1;
	}
	memset(&st, 0, sizeof(st));
	/* The encoded message is compressed a piece at a time (between
	 * top-level fields), so neither it nor the compressed file is held
	 * whole; on a thread of its own when the run may use threads. */
	gz = gzpipe_create(final, r->threads);
	strbuf_init(&st.text);
	strtab_id(&st, "");
	strbuf_init(&out);
	strbuf_init(&fn);
	memset(&c, 0, sizeof(c));
	c.out = &out;
	c.st = &st;
	strbuf_init(&c.msg);
	strbuf_init(&c.lab);

	/* Methods that appear in the tree: one function and location each,
	 * id = method index + 1; thread frames and "[deeper frames]" follow. */
	used = xcalloc(nm + 1, 1);
	for (i = 0; i < cct_node_count(cct); i++) {
		uint32_t m = cct_node(cct, (uint32_t)i)->midx;

		if (m != CCT_NONE && m < nm)
			used[m] = 1;
	}
	names = exportname_build(r->st, used, r->short_names ? JN_SHORT : 0);

	value_type(&out, &st, 1, "calls", "count");
	value_type(&out, &st, 1, clock, "microseconds");
	c.other = profile_has_other(r->profile);
	if (c.other)
		value_type(&out, &st, 1, profile_clock_name(profile_other_clock(profile_primary(r->profile))),
			   "microseconds");
	c.thread_key = strtab_id(&st, "thread");
	c.tid_key = strtab_id(&st, "tid");

	next_id = nm + 1;
	deeper_id = next_id++;
	for (i = 0; i < nthreads; i++) {
		const struct cg_pthread *t = &threads[i];
		uint32_t root = cct_root(cct, (uint32_t)i);
		uint64_t thread_fn = next_id++;
		size_t depth;

		c.thread_name = strtab_id(&st, t->name);
		c.tid = t->tid;
		if (t->excl_us || t->o_excl_us) {
			sample(&c, &thread_fn, 1, 0, t->excl_us, t->o_excl_us);
			strbuf_reset(&fn);
			strbuf_printf(&fn, "[%s]", t->name);
			put_function(&out, thread_fn, strtab_id(&st, fn.data), 0, 0, 0);
		}
		if (root == CCT_NONE)
			continue;
		/* Depth-first; path[d] is the location of the frame at depth d+1. */
		w = xgrow(w, &cap_walk, 1, sizeof(*w));
		w[0].kids = cct_children(cct, root, &w[0].n);
		w[0].next = 0;
		depth = 1;
		while (depth) {
			struct walk *top = &w[depth - 1];
			const struct cg_cct_node *n;
			uint64_t us, o_us;
			uint32_t k;

			gzpipe_pump(gz, &out, 0);
			if (top->next == top->n) {
				depth--;
				continue;
			}
			k = top->kids[top->next++];
			n = cct_node(cct, k);
			path = xgrow(path, &cap_path, depth + 1, sizeof(*path));
			path[depth - 1] = (uint64_t)n->midx + 1;
			if (depth > PPROF_MAX_DEPTH) {
				/* At the cap: everything from here down is one frame. */
				uint64_t calls;

				subtree_sum(cct, k, &calls, &us, &o_us, &work, &cap_work);
				path[depth - 1] = deeper_id;
				sample(&c, path, depth, calls, us, o_us);
				continue;
			}
			cct_excl_both(cct, k, &us, &o_us);
			if (n->calls || us || o_us)
				sample(&c, path, depth, n->calls, us, o_us);
			w = xgrow(w, &cap_walk, depth + 1, sizeof(*w));
			w[depth].kids = cct_children(cct, k, &w[depth].n);
			w[depth].next = 0;
			depth++;
		}
	}

	/* Functions and locations of the methods, then "[deeper frames]". */
	for (i = 0; i < nm; i++) {
		struct cg_method_info tmp;
		const struct cg_method_info *m;
		uint64_t sys;

		if (!used[i])
			continue;
		m = symtab_method_peek(r->st, (uint32_t)i, &tmp);
		gzpipe_pump(gz, &out, 0);
		strbuf_reset(&fn);
		javaname_put_class(&fn, m->klass, 0);
		if (m->name[0])
			strbuf_printf(&fn, ".%s", m->name);
		strbuf_puts(&fn, m->sig);
		sys = strtab_id(&st, fn.len ? fn.data : "");
		put_function(&out, i + 1, strtab_id(&st, exportname_get(names, (uint32_t)i)), sys,
			     strtab_id(&st, m->source), m->line > 0 ? (uint64_t)m->line : 0);
	}
	put_function(&out, deeper_id, strtab_id(&st, "[deeper frames]"), 0, 0, 0);
	for (i = 0; i < st.n; i++) {
		const char *s = st.text.data + st.off[i];

		pb_bytes(&out, 6, s, strlen(s));
		gzpipe_pump(gz, &out, 0);
	}
	/* Interned before the table was written: the ids below add no string. */
	value_type(&out, &st, 11, clock, "microseconds");
	pb_uint(&out, 12, 1, 0);
	pb_uint(&out, 14, strtab_id(&st, clock), 0);

	gzpipe_pump(gz, &out, 1);
	rc = gzpipe_end(gz, err);
	exportname_free(names);
	free(used);
	free(path);
	free(w);
	free(work);
	free(c.locs);
	strbuf_free(&c.msg);
	strbuf_free(&c.lab);
	strbuf_free(&fn);
	strbuf_free(&out);
	strbuf_free(&st.text);
	free(st.off);
	free(st.slots);
	return rc;
}

const struct cg_renderer render_pprof = { "pprof", pprof_render };
