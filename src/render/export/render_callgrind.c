/* render_callgrind.c - callgrind profile from the finished view: methods'
 * exclusive times as self costs and its caller->callee edges as calls. */
#include "render/export/render_callgrind.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render/export/exportname.h"
#include "render/javaname.h"
#include "util/sort.h"

/* A caller is a method index, or nm + view thread index for a thread. */
struct pair {
	uint32_t caller, callee;
	uint64_t calls, cost;
};

/* A view has one edge per (root or caller, callee): the order is total. */
static int cmp_pair(const void *a, const void *b, void *ctx)
{
	const struct pair *x = a, *y = b;

	(void)ctx;
	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* before, v in decimal, after: the lines that name or cost. */
static void put_ref(struct strbuf *sb, const char *before, uint64_t v, const char *after)
{
	strbuf_puts(sb, before);
	strbuf_put_u64(sb, v);
	strbuf_puts(sb, after);
}

static void put_name(struct strbuf *sb, const char *s)
{
	/* One line each: a newline or CR in a name would end the record. */
	for (; *s; s++)
		strbuf_putc(sb, *s == '\n' || *s == '\r' ? ' ' : *s);
}

static int callgrind_render(const struct cg_report *r, struct strbuf *sb, struct cg_error *err)
{
	const struct cg_view *v = profile_view(r->profile, -1);
	size_t nm = symtab_method_count(r->st), i, np = 0;
	struct pair *pairs;
	uint64_t *self;
	unsigned char *used, *named_fn, *named_fl;
	struct cg_exportnames *names;
	const char *base = strrchr(r->file, '/');

	(void)err; /* cannot fail */

	self = xcalloc(nm + 1, sizeof(*self));
	used = xcalloc(nm + 1, 1);
	for (i = 0; i < v->nmethods; i++) {
		used[v->methods[i].index] = 1;
		self[v->methods[i].index] = v->methods[i].excl_us;
	}
	pairs = xmalloc((v->nedges + 1) * sizeof(*pairs));
	for (i = 0; i < v->nedges; i++) {
		const struct cg_pedge *e = &v->edges[i];

		pairs[np].caller = e->from_root ? (uint32_t)(nm + e->caller) : e->caller;
		pairs[np].callee = e->callee;
		pairs[np].calls = e->calls;
		pairs[np].cost = e->incl_us;
		np++;
	}
	sort_inplace(pairs, np, sizeof(*pairs), cmp_pair, NULL);

	names = exportname_build(r->st, used, r->short_names ? JN_SHORT : 0);
	named_fn = xcalloc(nm + v->nthreads + 1, 1);
	named_fl = xcalloc(nm + v->nthreads + 1, 1);
	strbuf_printf(sb, "# callgrind format\nversion: 1\ncreator: callgraph\ncmd: ");
	put_name(sb, base ? base + 1 : r->file);
	strbuf_printf(sb, "\npositions: line\nevent: us : %s-clock microseconds\nevents: us\n"
			  "summary: %" PRIu64 "\ntotals: %" PRIu64 "\n",
		      report_clock_name(r), v->total_us, v->total_us);

	/* Files and functions are compressed: "(id) name" the first time,
	 * "(id)" after.  Ids: method index + 1, threads after the methods. */
#define FL(key, idx, text)                                                       \
	do {                                                                     \
		if (named_fl[idx]) {                                             \
			put_ref(sb, key "=(", (idx) + 1, ")\n");                 \
		} else {                                                         \
			named_fl[idx] = 1;                                       \
			put_ref(sb, key "=(", (idx) + 1, ") ");                  \
			put_name(sb, text);                                      \
			strbuf_putc(sb, '\n');                                   \
		}                                                                \
	} while (0)
#define FN(key, idx, text)                                                       \
	do {                                                                     \
		if (named_fn[idx]) {                                             \
			put_ref(sb, key "=(", (idx) + 1, ")\n");                 \
		} else {                                                         \
			named_fn[idx] = 1;                                       \
			put_ref(sb, key "=(", (idx) + 1, ") ");                  \
			put_name(sb, text);                                      \
			strbuf_putc(sb, '\n');                                   \
		}                                                                \
	} while (0)
	{
		struct strbuf tn;
		size_t p = 0, f;

		strbuf_init(&tn);
		for (f = 0; f < nm + v->nthreads; f++) {
			const char *file, *fname;

			if (f < nm) {
				struct cg_method_info tmp;
				const struct cg_method_info *m;

				if (!used[f])
					continue;
				m = symtab_method_peek(r->st, (uint32_t)f, &tmp);
				file = m->source[0] ? m->source : "???";
				fname = exportname_get(names, (uint32_t)f);
			} else {
				strbuf_reset(&tn);
				strbuf_printf(&tn, "[%s]", v->threads[f - nm].name);
				file = "???";
				fname = tn.data;
			}
			strbuf_spill(sb);
			strbuf_putc(sb, '\n');
			FL("fl", f, file);
			FN("fn", f, fname);
			put_ref(sb, "0 ", f < nm ? self[f] : v->threads[f - nm].excl_us, "\n");
			while (p < np && pairs[p].caller < f)
				p++;
			for (; p < np && pairs[p].caller == f; p++) {
				struct cg_method_info tmp;
				const struct cg_method_info *c = symtab_method_peek(r->st, pairs[p].callee, &tmp);

				strbuf_spill(sb);
				FL("cfi", pairs[p].callee, c->source[0] ? c->source : "???");
				FN("cfn", pairs[p].callee, exportname_get(names, pairs[p].callee));
				put_ref(sb, "calls=", pairs[p].calls, " 0\n");
				put_ref(sb, "0 ", pairs[p].cost, "\n");
			}
		}
		strbuf_free(&tn);
	}
#undef FL
#undef FN
	exportname_free(names);
	free(named_fn);
	free(named_fl);
	free(pairs);
	free(self);
	free(used);
	return 0;
}

const struct cg_renderer render_callgrind = { "callgrind", callgrind_render };
