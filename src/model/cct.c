/* cct.c - calling-context tree built from the replay's visible frames.
 *
 * Nodes live in one array; a node's children are a singly linked list, found
 * by an open-addressing table keyed by (parent node, method index), so an
 * entry costs one lookup.  Each thread keeps a stack of (node, entry time,
 * time of finished children); a leave charges the node its duration and its
 * exclusive share. */
#include "model/cct.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/itab.h"
#include "util/util.h"

struct cframe {
	uint32_t node;
	uint64_t entry;
	uint64_t child;    /* time of children that have returned */
	uint64_t o_entry, o_child; /* the same on the other clock */
};

struct cthread {
	uint32_t root;
	struct cframe *stack;
	size_t depth, cap;
	uint64_t o_first, o_now; /* other clock, as last reported */
};

struct cg_cct {
	struct cg_cct_node *nodes;
	size_t n, cap;
	struct cthread *threads;
	size_t nthreads, cap_threads;
	struct cg_itab tab;   /* (parent node, method index) -> child node; the key is a
	                       * node's first 8 bytes */
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

static uint32_t node_new(struct cg_cct *c, uint32_t parent, uint32_t midx)
{
	struct cg_cct_node *n;
	uint32_t id;

	c->nodes = xgrow(c->nodes, &c->cap, c->n + 1, sizeof(*c->nodes));
	id = (uint32_t)c->n++;
	n = &c->nodes[id];
	memset(n, 0, sizeof(*n));
	n->parent = parent;
	n->midx = midx;
	n->first_child = CCT_NONE;
	n->next_sibling = CCT_NONE;
	if (parent != CCT_NONE) {
		n->next_sibling = c->nodes[parent].first_child;
		c->nodes[parent].first_child = id;
		itab_insert(&c->tab, id, c->nodes, sizeof(*c->nodes));
	}
	return id;
}

static struct cthread *thread_get(struct cg_cct *c, uint32_t thread)
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

static void on_enter(void *ctx, uint32_t thread, uint32_t midx, uint64_t t)
{
	struct cg_cct *c = ctx;
	struct cthread *th = thread_get(c, thread);
	uint32_t parent = th->depth ? th->stack[th->depth - 1].node : th->root;
	uint32_t n = itab_find(&c->tab, key_of(parent, midx), c->nodes, sizeof(*c->nodes));
	struct cframe *f;

	if (n == CCT_NONE)
		n = node_new(c, parent, midx);
	/* calls is counted at leave, where the node is touched anyway. */
	th->stack = xgrow(th->stack, &th->cap, th->depth + 1, sizeof(*th->stack));
	f = &th->stack[th->depth++];
	f->node = n;
	f->entry = t;
	f->child = 0;
	f->o_entry = th->o_now;
	f->o_child = 0;
}

static void on_leave(void *ctx, uint32_t thread, uint64_t t)
{
	struct cg_cct *c = ctx;
	struct cthread *th;
	struct cframe f;
	uint64_t dur, o_dur;

	if (thread >= c->nthreads || c->threads[thread].depth == 0)
		return; /* not reachable from the profile; kept harmless */
	th = &c->threads[thread];
	f = th->stack[--th->depth];
	dur = t > f.entry ? t - f.entry : 0;
	c->nodes[f.node].calls++;
	c->nodes[f.node].incl_us += dur;
	c->nodes[f.node].excl_us += dur > f.child ? dur - f.child : 0;
	o_dur = th->o_now > f.o_entry ? th->o_now - f.o_entry : 0;
	c->nodes[f.node].o_incl_us += o_dur;
	c->nodes[f.node].o_excl_us += o_dur > f.o_child ? o_dur - f.o_child : 0;
	if (th->depth) {
		th->stack[th->depth - 1].child += dur;
		th->stack[th->depth - 1].o_child += o_dur;
	}
}

/* The other clock's times at the event about to be reported. */
static void on_other(void *ctx, uint32_t thread, uint64_t o_first, uint64_t o_t)
{
	struct cthread *th = thread_get(ctx, thread);

	th->o_first = o_first;
	th->o_now = o_t;
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
	uint32_t root = th->root, list, x, a;
	uint64_t span = t > first ? t - first : 0, moved = 0;
	uint64_t o_span = th->o_now > th->o_first ? th->o_now - th->o_first : 0, o_moved = 0;

	if (th->depth)
		return; /* the profile adopts only on an empty stack */
	list = c->nodes[root].first_child;
	c->nodes[root].first_child = CCT_NONE;
	for (x = list; x != CCT_NONE; x = c->nodes[x].next_sibling) {
		itab_delete(&c->tab, key_of(root, c->nodes[x].midx), c->nodes, sizeof(*c->nodes));
		moved += c->nodes[x].incl_us;
		o_moved += c->nodes[x].o_incl_us;
	}
	a = node_new(c, root, midx);
	c->nodes[a].calls++;
	c->nodes[a].incl_us += span;
	c->nodes[a].excl_us += span > moved ? span - moved : 0;
	c->nodes[a].o_incl_us += o_span;
	c->nodes[a].o_excl_us += o_span > o_moved ? o_span - o_moved : 0;
	while (list != CCT_NONE) {
		x = list;
		list = c->nodes[x].next_sibling;
		c->nodes[x].parent = a;
		c->nodes[x].next_sibling = c->nodes[a].first_child;
		c->nodes[a].first_child = x;
		itab_insert(&c->tab, x, c->nodes, sizeof(*c->nodes));
	}
}

struct cg_cct *cct_create(void)
{
	return xcalloc(1, sizeof(struct cg_cct));
}

void cct_free(struct cg_cct *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nthreads; i++)
		free(c->threads[i].stack);
	free(c->threads);
	free(c->nodes);
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
}

uint32_t cct_root(const struct cg_cct *c, uint32_t thread)
{
	return thread < c->nthreads ? c->threads[thread].root : CCT_NONE;
}

const struct cg_cct_node *cct_node(const struct cg_cct *c, uint32_t id)
{
	return &c->nodes[id];
}

size_t cct_node_count(const struct cg_cct *c)
{
	return c->n;
}

/* A child with its sort keys, so that plain qsort needs no context. */
struct child_key {
	uint64_t incl_us;
	uint32_t midx, id;
};

/* Widest first, then by method index. */
static int cmp_child(const void *a, const void *b)
{
	const struct child_key *x = a, *y = b;

	if (x->incl_us != y->incl_us)
		return x->incl_us > y->incl_us ? -1 : 1;
	return (x->midx > y->midx) - (x->midx < y->midx);
}

void cct_sort_children(const struct cg_cct *c, uint32_t *v, size_t n)
{
	struct child_key *k = xmalloc(n * sizeof(*k));
	size_t i;

	for (i = 0; i < n; i++) {
		k[i].incl_us = cct_node(c, v[i])->incl_us;
		k[i].midx = cct_node(c, v[i])->midx;
		k[i].id = v[i];
	}
	qsort(k, n, sizeof(*k), cmp_child);
	for (i = 0; i < n; i++)
		v[i] = k[i].id;
	free(k);
}
