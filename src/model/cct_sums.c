/* cct_sums.c - a thread's own sums from the calling-context tree (see
 * cct_sums.h). */
#include "model/cct_sums.h"

#include <stdlib.h>
#include <string.h>

#include "util/itab.h"
#include "util/util.h"

/* An edge while a thread is summed; the key (caller << 32 | callee, the
 * caller UINT32_MAX for the root) first, as itab reads it. */
struct esum {
	uint64_t key;
	uint64_t calls, incl, o_incl;
};

/* A node on the walk's stack, the next of its children to visit, and the
 * inclusive time of those done (read as each is visited, so that no child
 * is read twice). */
struct step {
	uint32_t id;
	uint32_t next;
	uint64_t kids, o_kids;
};

struct cg_cct_sums {
	const struct cg_cct *c;
	uint32_t *active;         /* per method: nodes of it on the walk's stack */
	struct esum *es;
	size_t nes, cap_es;
	struct cg_itab etab;
	struct step *stack;
	size_t cap_stack;
};

struct cg_cct_sums *cct_sums_create(const struct cg_cct *c, size_t nmethods)
{
	struct cg_cct_sums *s = xcalloc(1, sizeof(*s));

	s->c = c;
	s->active = xcalloc(nmethods ? nmethods : 1, sizeof(*s->active));
	return s;
}

void cct_sums_free(struct cg_cct_sums *s)
{
	if (!s)
		return;
	free(s->active);
	free(s->es);
	itab_free(&s->etab);
	free(s->stack);
	free(s);
}

static struct esum *edge_of(struct cg_cct_sums *s, uint32_t caller, uint32_t callee)
{
	uint64_t key = (uint64_t)caller << 32 | callee;
	uint32_t i = itab_find(&s->etab, key, s->es, sizeof(*s->es));

	if (i == ITAB_NONE) {
		s->es = xgrow(s->es, &s->cap_es, s->nes + 1, sizeof(*s->es));
		memset(&s->es[s->nes], 0, sizeof(*s->es));
		s->es[s->nes].key = key;
		i = (uint32_t)s->nes++;
		itab_insert(&s->etab, i, s->es, sizeof(*s->es));
	}
	return &s->es[i];
}

/* Node id (not a root) into the edge sums: its parent's method is caller
 * (UINT32_MAX for the root), and outer says that no node of its method is
 * above it. */
static void add_edge(struct cg_cct_sums *s, const struct cg_cct_node *nd, uint32_t caller,
		     int outer)
{
	struct esum *e = edge_of(s, caller, nd->midx);

	e->calls += nd->calls;
	if (outer) {
		e->incl += nd->incl_us;
		e->o_incl += nd->o_incl_us;
	}
}

/* Node nd, whose children's inclusive time is kids and o_kids, into the
 * method sums. */
static void add_method(const struct cg_cct_node *nd, int outer, uint64_t kids, uint64_t o_kids,
		       const struct cg_sums_sink *sink)
{
	struct cg_pmethod m;

	memset(&m, 0, sizeof(m));
	m.index = nd->midx;
	/* In unsigned arithmetic, as the replay's exclusive time (the time
	 * of the incoming edges less that of the outgoing ones). */
	m.excl_us = nd->incl_us - kids;
	m.o_excl_us = nd->o_incl_us - o_kids;
	if (outer) {
		m.calls = nd->calls;
		m.incl_us = nd->incl_us;
		m.o_incl_us = nd->o_incl_us;
	} else {
		m.rec_calls = nd->calls;
	}
	sink->method(sink->ctx, &m);
}

/* The walk visits a node on the way down (its edge) and gives its method
 * sums on the way up, once its children's time is summed; the sink's sums
 * do not depend on the order. */
void cct_sums_thread(void *arg, uint32_t thread, const struct cg_sums_sink *sink)
{
	struct cg_cct_sums *s = arg;
	uint32_t root = cct_root(s->c, thread);
	size_t depth = 0, i;

	if (root == CCT_NONE)
		return;
	s->stack = xgrow(s->stack, &s->cap_stack, 1, sizeof(*s->stack));
	memset(&s->stack[depth++], 0, sizeof(*s->stack));
	s->stack[0].id = root;
	while (depth) {
		struct step *top = &s->stack[depth - 1];
		size_t n;
		const uint32_t *kids = cct_children(s->c, top->id, &n);
		const struct cg_cct_node *nd;
		uint32_t id;

		if (top->next == 0 && n)
			cct_prefetch_children(s->c, top->id);
		if (top->next == n) {
			/* Done with top: its method is one node less deep. */
			if (depth > 1) {
				nd = cct_node(s->c, top->id);
				add_method(nd, --s->active[nd->midx] == 0, top->kids, top->o_kids,
					   sink);
				top[-1].kids += nd->incl_us;
				top[-1].o_kids += nd->o_incl_us;
			}
			depth--;
			continue;
		}
		id = kids[top->next++];
		nd = cct_node(s->c, id);
		add_edge(s, nd, depth > 1 ? cct_node(s->c, top->id)->midx : UINT32_MAX,
			 s->active[nd->midx]++ == 0);
		s->stack = xgrow(s->stack, &s->cap_stack, depth + 1, sizeof(*s->stack));
		memset(&s->stack[depth], 0, sizeof(*s->stack));
		s->stack[depth++].id = id;
	}
	for (i = 0; i < s->nes; i++) {
		struct cg_pedge e;
		uint32_t caller = (uint32_t)(s->es[i].key >> 32);

		memset(&e, 0, sizeof(e));
		e.from_root = caller == UINT32_MAX;
		e.caller = e.from_root ? 0 : caller;
		e.callee = (uint32_t)s->es[i].key;
		e.calls = s->es[i].calls;
		e.incl_us = s->es[i].incl;
		e.o_incl_us = s->es[i].o_incl;
		sink->edge(sink->ctx, &e);
	}
	s->nes = 0;
	itab_free(&s->etab);
}
