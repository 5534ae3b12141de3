/* cct.c - calling-context tree built from the replay's visible frames.
 *
 * During the replay a node is one 64-byte line (struct cline): its public
 * fields, then the children it entered last (up to KIDS of them, method
 * and node).  Entering a child reads its parent's line, which the parent's
 * own entry brought into the cache, so an entry seldom reads more than the
 * line of the child it enters (prefetched at once, for its own children
 * and for its leave).  A child a line no longer remembers goes into an
 * open-addressing table keyed by (parent node, method index), and a bit
 * per node says whether any of its children is there: most nodes never
 * call more than KIDS methods, so most lookups skip the table, and so does
 * every new child of such a node.  Each thread keeps a stack of (node,
 * entry time) and the list of its root's children (for adopt).  When the
 * replay finishes the table goes, the lines are packed in place into
 * 32-byte public nodes, and the children of every node are laid out in one
 * array, grouped by parent.  Exclusive time is derived, never stored: the
 * replay nests (a child's activations lie inside its parent's, on both
 * clocks), so the time a node spent on top is its inclusive time less its
 * children's.
 *
 * A tree made by cct_create_ids keys its nodes by the records' raw method
 * ids during the replay (its observer asks for them, cg_observer.raw_ids):
 * the replay then looks no entry's method up, and the tree finds each
 * node's when the replay finishes. */
#include "model/cct.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "read/symtab.h"
#include "util/itab.h"
#include "util/util.h"

struct cframe {
	uint32_t node;
	uint64_t entry, o_entry;
};

struct cthread {
	uint32_t root;
	struct cframe *stack;
	size_t depth, cap;
	uint32_t *rootkids;   /* children of root, oldest first */
	size_t nrootkids, cap_rootkids;
	uint64_t o_first, o_now; /* other clock, as last reported */
};

/* Children a line remembers: programs call one to three callees from a
 * context, so most are found in the line. */
#define KIDS 4
#define LINE 64

struct cline {
	struct cg_cct_node pub;
	uint32_t kmidx[KIDS]; /* method (or raw id) of the child kid[i] */
	uint32_t kid[KIDS];   /* most recent first; CCT_NONE: empty */
};
_Static_assert(sizeof(struct cline) == LINE, "a node is one cache line during the replay");

/* A leave's sums, added to its node's line PEND leaves later: the line,
 * fetched at the leave, has come by then, so a leave seldom waits for
 * memory.  Nothing reads a line's sums before the replay ends, which adds
 * those still waiting. */
#define PEND 16

struct pend {
	uint32_t node;
	uint64_t us, o_us;
};

/* The inclusive time of a node's children, on both clocks. */
struct kin {
	uint64_t us, o_us;
};

struct cg_cct {
	/* Replay: lines; finished: nodes, packed in place.  Both start at
	 * mem, a block of `bytes` (xbig_resize). */
	char *mem;
	size_t bytes;
	struct cline *lines;
	struct cg_cct_node *nodes;
	size_t n, cap;
	struct cthread *threads;
	size_t nthreads, cap_threads;
	struct cg_itab tab;   /* replay: (parent node, method index) -> child node, for
	                       * the children lines forgot; the key is a line's
	                       * first 8 bytes */
	uint64_t *intab;      /* replay: a bit per node: in tab */
	uint64_t *spilt;      /* replay: a bit per node: a child of it is in tab */
	size_t cap_bits;      /* words of each */
	uint32_t *kid_start;  /* finished: children of node i are
	                       * kids[kid_start[i] .. kid_start[i + 1]) */
	uint32_t *kids;
	uint32_t *kmid;       /* finished: the method of kids[i] */
	struct kin *kin;      /* finished: children's inclusive time, by node */
	int finished;
	struct cg_symtab *st; /* keyed by raw id until finished (cct_create_ids) */
	uint64_t adopts;      /* frames entered before tracing taken (on_adopt) */
	struct pend pend[PEND]; /* replay: leaves not yet added, by npend % PEND */
	uint64_t npend;
};

/* The key of a child node: its first 8 bytes, parent then midx. */
_Static_assert(offsetof(struct cg_cct_node, parent) == 0 && offsetof(struct cg_cct_node, midx) == 4,
	       "the child table keys nodes by their first 8 bytes");
static uint64_t key_of(uint32_t parent, uint32_t midx)
{
	uint32_t k[2] = { parent, midx };
	uint64_t v;

	memcpy(&v, k, sizeof(v));
	return v;
}

/* Room for node c->n in the lines: the block twice the size, on huge
 * pages once large (xbig_resize).  A lookup reads a line at random: with
 * 4 KiB pages, each missed the TLB once the tree was large. */
static void lines_grow(struct cg_cct *c)
{
	if (c->n < c->cap)
		return;
	c->mem = xbig_grow(c->mem, &c->cap, c->n + 1, LINE);
	c->bytes = c->cap * LINE;
	c->lines = (struct cline *)(void *)c->mem;
}

static int bit_get(const uint64_t *v, uint32_t i)
{
	return (int)(v[i >> 6] >> (i & 63)) & 1;
}

static void bit_set(uint64_t *v, uint32_t i)
{
	v[i >> 6] |= (uint64_t)1 << (i & 63);
}

static void bit_clear(uint64_t *v, uint32_t i)
{
	v[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

/* Room for bits 0 .. 64 need - 1 of both bit arrays, the new ones clear. */
static void bits_grow(struct cg_cct *c, size_t need)
{
	size_t old = c->cap_bits, cap = old;

	if (need <= old)
		return;
	c->intab = xgrow(c->intab, &cap, need, sizeof(*c->intab));
	c->spilt = xgrow(c->spilt, &c->cap_bits, need, sizeof(*c->spilt));
	memset(c->intab + old, 0, (c->cap_bits - old) * sizeof(*c->intab));
	memset(c->spilt + old, 0, (c->cap_bits - old) * sizeof(*c->spilt));
}

/* Node id (its key set, not in the table) into the child table. */
static void tab_insert(struct cg_cct *c, uint32_t id)
{
	itab_insert(&c->tab, id, c->lines, LINE);
	bit_set(c->intab, id);
	bit_set(c->spilt, c->lines[id].pub.parent);
}

/* Forget the children line l remembers. */
static void kids_clear(struct cline *l)
{
	size_t i;

	for (i = 0; i < KIDS; i++)
		l->kmidx[i] = l->kid[i] = CCT_NONE;
}

/* Child n (method midx) of node p, which its line does not remember,
 * remembered first; the oldest it remembered goes into the table, unless
 * there already. */
static void kids_put(struct cg_cct *c, uint32_t p, uint32_t midx, uint32_t n)
{
	struct cline *l = &c->lines[p];
	uint32_t old = l->kid[KIDS - 1];

	if (old != CCT_NONE && !bit_get(c->intab, old))
		tab_insert(c, old);
	memmove(l->kmidx + 1, l->kmidx, (KIDS - 1) * sizeof(*l->kmidx));
	memmove(l->kid + 1, l->kid, (KIDS - 1) * sizeof(*l->kid));
	l->kmidx[0] = midx;
	l->kid[0] = n;
}

/* A new node, remembered by its parent (if any). */
static uint32_t node_new(struct cg_cct *c, uint32_t parent, uint32_t midx)
{
	struct cline *l;
	uint32_t id;

	lines_grow(c);
	id = (uint32_t)c->n++;
	bits_grow(c, (id >> 6) + 1);
	l = &c->lines[id];
	memset(&l->pub, 0, sizeof(l->pub));
	l->pub.parent = parent;
	l->pub.midx = midx;
	kids_clear(l);
	if (parent != CCT_NONE)
		kids_put(c, parent, midx, id);
	return id;
}

/* A new child of thread th's root. */
static uint32_t root_child_new(struct cg_cct *c, struct cthread *th, uint32_t midx)
{
	uint32_t id = node_new(c, th->root, midx);

	th->rootkids = xgrow(th->rootkids, &th->cap_rootkids, th->nrootkids + 1,
			     sizeof(*th->rootkids));
	th->rootkids[th->nrootkids++] = id;
	return id;
}

/* Thread `thread`, made (with its root) when new. */
static __attribute__((noinline)) struct cthread *thread_new(struct cg_cct *c, uint32_t thread)
{
	struct cthread *th;

	if (thread >= c->nthreads) {
		size_t i;

		c->threads = xgrow(c->threads, &c->cap_threads, (size_t)thread + 1,
				   sizeof(*c->threads));
		for (i = c->nthreads; i <= thread; i++) {
			memset(&c->threads[i], 0, sizeof(c->threads[i]));
			c->threads[i].root = CCT_NONE;
		}
		c->nthreads = (size_t)thread + 1;
	}
	th = &c->threads[thread];
	if (th->root == CCT_NONE)
		th->root = node_new(c, CCT_NONE, CCT_NONE);
	return th;
}

static inline struct cthread *thread_get(struct cg_cct *c, uint32_t thread)
{
	if (thread < c->nthreads && c->threads[thread].root != CCT_NONE)
		return &c->threads[thread];
	return thread_new(c, thread);
}

/* Four lanes of a line's children, compared at once. */
typedef uint32_t v4u __attribute__((vector_size(16)));
_Static_assert(KIDS * sizeof(uint32_t) == sizeof(v4u), "a line's children are one vector");

/* The child midx of node parent that the parent's line remembers, or
 * CCT_NONE.  Which of the four it is, if any, cannot be predicted: they
 * are compared as one vector, without a branch (a loop over them took a
 * tenth of --folded's time on a tree that fits the cache).  A line
 * remembers a method once, so at most one of its children matches; an
 * empty place matches nothing, as a raw id may be any value. */
static inline uint32_t line_kid(const struct cline *l, uint32_t midx)
{
	v4u km, kid, eq, v;

	memcpy(&km, l->kmidx, sizeof(km));
	memcpy(&kid, l->kid, sizeof(kid));
	eq = (v4u)(km == midx) & (v4u)(kid != CCT_NONE);
	v = kid & eq;
	v |= __builtin_shufflevector(v, v, 2, 3, 0, 1);
	v |= __builtin_shufflevector(v, v, 1, 0, 3, 2);
	eq |= __builtin_shufflevector(eq, eq, 2, 3, 0, 1);
	eq |= __builtin_shufflevector(eq, eq, 1, 0, 3, 2);
	return v[0] | ~eq[0];
}

/* The child midx of parent that its line does not remember: from the
 * table when one of parent's children is there, else new (a child of the
 * root of root_th, the thread whose root parent is, or NULL when parent is
 * no root); remembered first either way. */
static __attribute__((noinline)) uint32_t child_find(struct cg_cct *c, struct cthread *root_th,
						     uint32_t parent, uint32_t midx)
{
	uint32_t n = CCT_NONE;

	if (bit_get(c->spilt, parent))
		n = itab_find(&c->tab, key_of(parent, midx), c->lines, LINE);
	if (n == CCT_NONE)
		return root_th ? root_child_new(c, root_th, midx) : node_new(c, parent, midx);
	kids_put(c, parent, midx, n);
	return n;
}

/* The entry of midx below the thread's top frame: found in the parent's
 * line when it remembers it, else through the table.  The child's line is
 * fetched at once: its own children and its leave read it next. */
static inline void enter(struct cg_cct *c, struct cthread *th, uint32_t midx, uint64_t t)
{
	uint32_t parent = th->depth ? th->stack[th->depth - 1].node : th->root;
	uint32_t n = line_kid(&c->lines[parent], midx);
	struct cframe *f;

	if (n == CCT_NONE)
		n = child_find(c, th->depth ? NULL : th, parent, midx);
	__builtin_prefetch(&c->lines[n], 1);
	/* calls is counted at leave, where the node is touched anyway. */
	if (th->depth == th->cap)
		th->stack = xgrow(th->stack, &th->cap, th->depth + 1, sizeof(*th->stack));
	f = &th->stack[th->depth++];
	f->node = n;
	f->entry = t;
	f->o_entry = th->o_now;
}

static void on_enter(void *ctx, uint32_t thread, uint32_t midx, uint64_t t)
{
	struct cg_cct *c = ctx;

	enter(c, thread_get(c, thread), midx, t);
}

/* A waiting leave into its node's sums. */
static inline void pend_add(struct cg_cct *c, const struct pend *p)
{
	struct cg_cct_node *n = &c->lines[p->node].pub;

	n->calls++;
	n->incl_us += p->us;
	n->o_incl_us += p->o_us;
}

/* Every waiting leave into its node's sums. */
static void pend_flush(struct cg_cct *c)
{
	size_t i, n = c->npend < PEND ? (size_t)c->npend : PEND;

	for (i = 0; i < n; i++)
		pend_add(c, &c->pend[i]);
	c->npend = 0;
}

/* The top frame of thread returns at t: its node's sums, added PEND leaves
 * later (struct pend). */
static inline void leave(struct cg_cct *c, uint32_t thread, uint64_t t)
{
	struct cthread *th;
	const struct cframe *f;
	struct pend *p;

	if (thread >= c->nthreads || c->threads[thread].depth == 0)
		return; /* not reachable from the profile; kept harmless */
	th = &c->threads[thread];
	f = &th->stack[--th->depth];
	__builtin_prefetch(&c->lines[f->node], 1);
	p = &c->pend[c->npend % PEND];
	if (c->npend >= PEND)
		pend_add(c, p);
	p->node = f->node;
	p->us = t > f->entry ? t - f->entry : 0;
	p->o_us = th->o_now > f->o_entry ? th->o_now - f->o_entry : 0;
	c->npend++;
}

static void on_leave(void *ctx, uint32_t thread, uint64_t t)
{
	leave(ctx, thread, t);
}

/* Thread `thread`, with the other clock's times at the event about to be
 * reported. */
static struct cthread *other_at(struct cg_cct *c, uint32_t thread, uint64_t o_first, uint64_t o_t)
{
	struct cthread *th = thread_get(c, thread);

	th->o_first = o_first;
	th->o_now = o_t;
	return th;
}

static void on_other(void *ctx, uint32_t thread, uint64_t o_first, uint64_t o_t)
{
	other_at(ctx, thread, o_first, o_t);
}

/* on_other, then on_enter or on_leave, in one call. */
static void on_enter_o(void *ctx, uint32_t thread, uint32_t midx, uint64_t t, uint64_t o_first,
		       uint64_t o_t)
{
	enter(ctx, other_at(ctx, thread, o_first, o_t), midx, t);
}

static void on_leave_o(void *ctx, uint32_t thread, uint64_t t, uint64_t o_first, uint64_t o_t)
{
	other_at(ctx, thread, o_first, o_t);
	leave(ctx, thread, t);
}

/* Method midx was entered before tracing: a new root child that adopts
 * every existing root child.  The root's children are distinct methods and
 * the new node has none, so they move over without merging; an earlier
 * top-level activation of midx itself becomes the stack midx;midx, as the
 * profile makes it a recursive call. */
static void on_adopt(void *ctx, uint32_t thread, uint32_t midx, uint64_t first, uint64_t t)
{
	struct cg_cct *c = ctx;
	struct cthread *th = thread_get(c, thread);
	uint32_t root = th->root, a, x;
	struct cg_cct_node *an;
	size_t i;

	if (th->depth)
		return; /* the profile adopts only on an empty stack */
	c->adopts++;
	/* The root's children move under a, made now: those in the table
	 * under their new key, and a remembers what the root did (a top-level
	 * entry of midx enters a again, and its children with it). */
	a = node_new(c, CCT_NONE, midx);
	for (i = 0; i < th->nrootkids; i++) {
		x = th->rootkids[i];
		if (bit_get(c->intab, x)) {
			itab_delete(&c->tab, key_of(root, c->lines[x].pub.midx), c->lines, LINE);
			c->lines[x].pub.parent = a;
			tab_insert(c, x);
		} else {
			c->lines[x].pub.parent = a;
		}
	}
	memcpy(c->lines[a].kmidx, c->lines[root].kmidx, sizeof(c->lines[a].kmidx));
	memcpy(c->lines[a].kid, c->lines[root].kid, sizeof(c->lines[a].kid));
	kids_clear(&c->lines[root]);
	bit_clear(c->spilt, root);
	c->lines[a].pub.parent = root;
	kids_put(c, root, midx, a);
	an = &c->lines[a].pub;
	an->calls++;
	an->incl_us += t > first ? t - first : 0;
	an->o_incl_us += th->o_now > th->o_first ? th->o_now - th->o_first : 0;
	th->nrootkids = 0;
	th->rootkids = xgrow(th->rootkids, &th->cap_rootkids, 1, sizeof(*th->rootkids));
	th->rootkids[th->nrootkids++] = a;
}

/* ---- ranges -------------------------------------------------------------- */

static void replay_end(struct cg_cct *c);

uint64_t cct_adopts(const struct cg_cct *c)
{
	return c->adopts;
}

/* A thread's root, and the thread, by node id. */
struct root_of {
	uint32_t node, thread;
};

static int cmp_root_of(const void *a, const void *b)
{
	const struct root_of *x = a, *y = b;

	return (x->node > y->node) - (x->node < y->node);
}

/* The thread whose root is node, among roots[0..n) sorted by node, or
 * NULL when node is no thread's root. */
static const struct root_of *root_find(const struct root_of *roots, size_t n, uint32_t node)
{
	struct root_of key = { node, 0 };

	return bsearch(&key, roots, n, sizeof(*roots), cmp_root_of);
}

void cct_seal(struct cg_cct *c)
{
	if (c->lines && !c->finished)
		replay_end(c);
}

/* How many nodes ahead cct_merge fetches the line of a node's parent. */
#define MERGE_AHEAD 8

void cct_merge(struct cg_cct *dst, struct cg_cct *src)
{
	uint32_t *map;
	struct root_of *roots;
	size_t nroots = 0, i, k;

	/* Half the memory for the rest of src's life: it is only read. */
	cct_seal(src);
	map = xmalloc((src->n ? src->n : 1) * sizeof(*map));
	roots = xmalloc((src->nthreads ? src->nthreads : 1) * sizeof(*roots));

	for (i = 0; i < src->nthreads; i++)
		if (src->threads[i].root != CCT_NONE) {
			roots[nroots].node = src->threads[i].root;
			roots[nroots++].thread = (uint32_t)i;
		}
	qsort(roots, nroots, sizeof(*roots), cmp_root_of);
	/* In src's order, which is the order a replay in one piece makes
	 * the nodes dst lacks: parents before children. */
	for (i = 0; i < src->n; i++) {
		const struct cg_cct_node *sn = &src->nodes[i];
		const struct root_of *r;
		struct cg_cct_node *dn;
		uint32_t d, dp;

		/* Nodes left out: a parent made after its child, or a node
		 * without parent that is no thread's root -- only an adopt
		 * makes them, which the caller rules out (cct_adopts). */
		map[i] = CCT_NONE;
		if (i + MERGE_AHEAD < src->n) {
			/* The parent's line is read there: a node's parent is
			 * anywhere in dst. */
			uint32_t ap = src->nodes[i + MERGE_AHEAD].parent;

			if (ap < i && map[ap] != CCT_NONE)
				__builtin_prefetch(&dst->lines[map[ap]]);
		}
		if (sn->parent == CCT_NONE) {
			if (!(r = root_find(roots, nroots, (uint32_t)i)))
				continue;
			d = thread_get(dst, r->thread)->root;
		} else {
			if (sn->parent >= i || (dp = map[sn->parent]) == CCT_NONE)
				continue;
			r = src->nodes[sn->parent].parent == CCT_NONE
				    ? root_find(roots, nroots, sn->parent) : NULL;
			d = line_kid(&dst->lines[dp], sn->midx);
			if (d == CCT_NONE)
				d = child_find(dst, r ? &dst->threads[r->thread] : NULL, dp, sn->midx);
		}
		map[i] = d;
		dn = &dst->lines[d].pub;
		dn->incl_us += sn->incl_us;
		dn->o_incl_us += sn->o_incl_us;
		dn->calls += sn->calls;
	}
	/* The frames open at src's end are the threads' frames now. */
	for (i = 0; i < src->nthreads; i++) {
		const struct cthread *st = &src->threads[i];
		struct cthread *dt;

		if (st->root == CCT_NONE)
			continue;
		dt = thread_get(dst, (uint32_t)i);
		dt->stack = xgrow(dt->stack, &dt->cap, st->depth + 1, sizeof(*dt->stack));
		for (k = 0; k < st->depth && map[st->stack[k].node] != CCT_NONE; k++) {
			dt->stack[k] = st->stack[k];
			dt->stack[k].node = map[st->stack[k].node];
		}
		dt->depth = k;
		dt->o_first = st->o_first;
		dt->o_now = st->o_now;
	}
	free(roots);
	free(map);
}

/* The lines packed in place into public nodes (node i moves down from
 * 64 i to 32 i bytes, in ascending order), and the block shrunk. */
static void lines_pack(struct cg_cct *c)
{
	struct cg_cct_node *nodes = (struct cg_cct_node *)(void *)c->lines;
	size_t i, bytes;

	/* Node i >= 1 lands below line i (32 i + 32 <= 64 i); node 0 is
	 * where it was. */
	for (i = 1; i < c->n; i++)
		nodes[i] = c->lines[i].pub;
	c->lines = NULL;
	c->cap = 0;
	if (!c->mem) {
		c->nodes = NULL;
		return;
	}
	bytes = (c->n ? c->n : 1) * sizeof(*nodes);
	c->mem = xbig_resize(c->mem, c->bytes, bytes);
	c->bytes = bytes;
	c->nodes = (struct cg_cct_node *)(void *)c->mem;
}

/* The replay's lookups freed and the lines packed into nodes (c->nodes). */
static void replay_end(struct cg_cct *c)
{
	pend_flush(c);
	itab_free(&c->tab);
	memset(&c->tab, 0, sizeof(c->tab));
	free(c->intab);
	free(c->spilt);
	c->intab = c->spilt = NULL;
	c->cap_bits = 0;
	lines_pack(c);
}

/* The replay is over: the child table goes, the lines are packed, and the
 * children of each node are grouped by parent, newest first (a counting
 * sort on parent), their time summed. */
static void on_finish(void *ctx)
{
	struct cg_cct *c = ctx;
	size_t i;

	if (c->finished)
		return;
	c->finished = 1;
	replay_end(c);
	if (c->st)
		for (i = 0; i < c->n; i++)
			if (c->nodes[i].parent != CCT_NONE)
				c->nodes[i].midx = symtab_method_index(c->st, c->nodes[i].midx);
	for (i = 0; i < c->nthreads; i++) {
		free(c->threads[i].stack);
		free(c->threads[i].rootkids);
		c->threads[i].stack = NULL;
		c->threads[i].rootkids = NULL;
		c->threads[i].depth = c->threads[i].nrootkids = 0;
	}
	c->kid_start = xcalloc(c->n + 1, sizeof(*c->kid_start));
	c->kids = xmalloc((c->n ? c->n : 1) * sizeof(*c->kids));
	c->kmid = xmalloc((c->n ? c->n : 1) * sizeof(*c->kmid));
	c->kin = xcalloc(c->n ? c->n : 1, sizeof(*c->kin));
	/* kid_start[p]: p's child count, then the end of p's group...; and
	 * the children's time, summed once for every reader of it. */
	for (i = 0; i < c->n; i++) {
		uint32_t p = c->nodes[i].parent;

		if (p != CCT_NONE) {
			c->kid_start[p]++;
			c->kin[p].us += c->nodes[i].incl_us;
			c->kin[p].o_us += c->nodes[i].o_incl_us;
		}
	}
	for (i = 1; i < c->n; i++)
		c->kid_start[i] += c->kid_start[i - 1];
	c->kid_start[c->n] = c->n ? c->kid_start[c->n - 1] : 0;
	/* ...filled backwards in ascending id order, which leaves each group
	 * newest first and kid_start[p] at its start. */
	for (i = 0; i < c->n; i++) {
		uint32_t p = c->nodes[i].parent;

		if (p != CCT_NONE) {
			c->kids[--c->kid_start[p]] = (uint32_t)i;
			c->kmid[c->kid_start[p]] = c->nodes[i].midx;
		}
	}
}

struct cg_cct *cct_create(void)
{
	return xcalloc_lines(sizeof(struct cg_cct));
}

struct cg_cct *cct_create_ids(struct cg_symtab *st)
{
	struct cg_cct *c = cct_create();

	c->st = st;
	return c;
}

struct cg_cct *cct_create_like(const struct cg_cct *c)
{
	return cct_create_ids(c->st);
}

void cct_free(struct cg_cct *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nthreads; i++) {
		free(c->threads[i].stack);
		free(c->threads[i].rootkids);
	}
	free(c->threads);
	xbig_free(c->mem, c->bytes);
	free(c->kid_start);
	free(c->kids);
	free(c->kmid);
	free(c->kin);
	free(c->intab);
	free(c->spilt);
	itab_free(&c->tab);
	free(c);
}

void cct_observer(struct cg_cct *c, struct cg_observer *o)
{
	o->ctx = c;
	o->enter = on_enter;
	o->leave = on_leave;
	o->adopt = on_adopt;
	o->other = on_other;
	o->finish = on_finish;
	o->enter_o = on_enter_o;
	o->leave_o = on_leave_o;
	o->raw_ids = c->st != NULL;
	o->bypass = NULL;
}

uint32_t cct_root(const struct cg_cct *c, uint32_t thread)
{
	return thread < c->nthreads ? c->threads[thread].root : CCT_NONE;
}

const struct cg_cct_node *cct_node(const struct cg_cct *c, uint32_t id)
{
	return c->finished ? &c->nodes[id] : &c->lines[id].pub;
}

const uint32_t *cct_children_methods(const struct cg_cct *c, uint32_t id)
{
	return c->finished ? c->kmid + c->kid_start[id] : NULL;
}

const uint32_t *cct_children(const struct cg_cct *c, uint32_t id, size_t *n)
{
	if (!c->finished) {
		*n = 0;
		return NULL;
	}
	*n = c->kid_start[id + 1] - c->kid_start[id];
	return c->kids + c->kid_start[id];
}

void cct_prefetch_children(const struct cg_cct *c, uint32_t id)
{
	uint32_t i, end;

	if (!c->finished)
		return;
	end = c->kid_start[id + 1];
	for (i = c->kid_start[id]; i < end; i++) {
		uint32_t k = c->kids[i];

		__builtin_prefetch(&c->nodes[k]);
		__builtin_prefetch(&c->kid_start[k]);
		__builtin_prefetch(&c->kin[k]);
	}
}

void cct_children_incl(const struct cg_cct *c, uint32_t id, uint64_t *us, uint64_t *o_us)
{
	*us = *o_us = 0;
	if (!c->finished)
		return;
	*us = c->kin[id].us;
	*o_us = c->kin[id].o_us;
}

void cct_excl_both(const struct cg_cct *c, uint32_t id, uint64_t *us, uint64_t *o_us)
{
	const struct cg_cct_node *nd = &c->nodes[id];
	uint64_t kids, o_kids;

	*us = *o_us = 0;
	if (nd->parent == CCT_NONE)
		return;
	cct_children_incl(c, id, &kids, &o_kids);
	*us = nd->incl_us > kids ? nd->incl_us - kids : 0;
	*o_us = nd->o_incl_us > o_kids ? nd->o_incl_us - o_kids : 0;
}

uint64_t cct_excl(const struct cg_cct *c, uint32_t id, int other)
{
	uint64_t us, o_us;

	cct_excl_both(c, id, &us, &o_us);
	return other ? o_us : us;
}

size_t cct_node_count(const struct cg_cct *c)
{
	return c->n;
}
