/* gv_build.c - the call graph as a libcgraph graph: one node per thread
 * root, method and folded chain, one edge per drawn call, with labels,
 * tooltips, colours and the rank hints that keep dot's layout acyclic.
 */
#include "render/graph/gv_build.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/graph/gv_log.h"
#include "render/graph/gv_text.h"
#include "render/javaname.h"
#include "model/groups.h"
#include "model/waiting.h"

/* Append the label name of pm (the one rule of javaname_put_label: packages
 * as initials, the argument list only for overloads), cleaned and escaped. */
static void put_display(struct gv_build *b, struct strbuf *sb, const struct cg_pmethod *pm)
{
	struct cg_method_info tmp;

	strbuf_reset(&b->name);
	javaname_put_label(&b->name, profile_method(b->v, pm, &tmp), JN_SHORT,
			   b->overloads && b->overloads[pm->index]);
	gv_text_put(sb, &b->tmp, b->name.data ? b->name.data : "", 0);
}

/* put_display for a node label: shortened past GV_LABEL_MAX characters
 * (the tooltip keeps the whole name). */
static void put_display_label(struct gv_build *b, struct strbuf *sb, const struct cg_pmethod *pm)
{
	struct cg_method_info tmp;

	strbuf_reset(&b->name);
	javaname_put_label(&b->name, profile_method(b->v, pm, &tmp), JN_SHORT,
			   b->overloads && b->overloads[pm->index]);
	gv_text_put_label(sb, &b->tmp, b->name.data ? b->name.data : "");
}

static const char *sbstr(const struct strbuf *sb)
{
	return sb->data ? sb->data : "";
}

void gv_build_set_val(void *obj, const char *attr, struct gv_build *b)
{
	agsafeset(obj, (char *)attr, (char *)sbstr(&b->val), "");
}

void gv_build_set_str(void *obj, const char *attr, const char *value)
{
	agsafeset(obj, (char *)attr, (char *)value, "");
}

static void gv_build_defaults(Agraph_t *g)
{
	/* Compact spacing (dot's defaults are 0.25 and 0.5 inch), and never
	 * larger than 41 inches, 3936 px at 96 dpi, on either side: a wider
	 * layout is scaled down to fit a screen's zoom range. */
	static const struct {
		int kind;
		const char *name, *value;
	} defaults[] = {
		{ AGRAPH, "charset", "UTF-8" },
		{ AGRAPH, "nodesep", "0.18" },
		{ AGRAPH, "ranksep", "0.3" },
		{ AGRAPH, "size", "41,41" },
		{ AGNODE, "margin", "0.08,0.03" },
		{ AGNODE, "shape", "box" },
		{ AGNODE, "style", "rounded,filled" },
		{ AGNODE, "fillcolor", "white" },
		{ AGNODE, "fontname", "Helvetica" },
		{ AGNODE, "fontsize", "10" },
		{ AGEDGE, "fontname", "Helvetica" },
		{ AGEDGE, "fontsize", "8" },
	};
	size_t i;

	for (i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
		agattr(g, defaults[i].kind, (char *)defaults[i].name, (char *)defaults[i].value);
}

/* A merged root's tooltip lists at most this many of its threads (a
 * trace can have 65535), then how many more. */
#define GV_ROOT_MEMBERS 40

/* The member threads of a merged root in its tooltip: "name (tid N)",
 * one a line. */
static void put_members(struct gv_build *b, const struct cg_root *rt)
{
	const struct cg_view *from = b->roots->from;
	size_t k;

	for (k = 0; k < rt->n; k++) {
		if (k == GV_ROOT_MEMBERS) {
			strbuf_printf(&b->val, "\\nand %zu more", rt->n - k);
			break;
		}
		const struct cg_pthread *t = &from->threads[b->roots->members[rt->first + k]];

		strbuf_puts(&b->val, "\\n");
		gv_text_put(&b->val, &b->tmp, t->name, 0);
		strbuf_printf(&b->val, " (tid %u)", (unsigned)t->tid);
	}
}

/* A thread root ("t<tid>"), a pool ("p<tid of its first thread>") or the
 * idle threads ("idle"), with their times on both clocks. */
static void add_root(struct gv_build *b, size_t i)
{
	const struct cg_pthread *t = &b->v->threads[i];
	const struct cg_root *rt = &b->roots->roots[i];
	char name[32], ms[32], pct[16];
	const char *cls = "thread";
	Agnode_t *n;

	if (rt->kind == CG_ROOT_POOL) {
		snprintf(name, sizeof(name), "p%u", (unsigned)t->tid);
		cls = "thread pool";
	} else if (rt->kind == CG_ROOT_IDLE) {
		snprintf(name, sizeof(name), "idle");
		cls = "thread idle";
	} else {
		snprintf(name, sizeof(name), "t%u", (unsigned)t->tid);
	}
	n = agnode(b->g, name, 1);
	b->tnode[i] = n;
	fmt_ms(ms, t->incl_us);
	fmt_pct(pct, t->incl_us, b->v->total_us);
	strbuf_reset(&b->val);
	gv_text_put_label(&b->val, &b->tmp, t->name);
	if (rt->kind == CG_ROOT_POOL)
		strbuf_printf(&b->val, " (%zu threads)", rt->n);
	else if (rt->kind == CG_ROOT_THREAD)
		strbuf_printf(&b->val, "\\ntid %u", (unsigned)t->tid);
	strbuf_printf(&b->val, "\\n%s ms (%s%%)", ms, pct);
	if (b->v->has_other)
		strbuf_printf(&b->val, "\\n%s %s ms", b->v->primary == CG_USE_CPU ? "wall" : "cpu",
			      fmt_ms(ms, t->other_us));
	gv_build_set_val(n, "label", b);
	strbuf_reset(&b->val);
	if (rt->kind == CG_ROOT_THREAD) {
		strbuf_puts(&b->val, "thread ");
		gv_text_put(&b->val, &b->tmp, t->name, 0);
		strbuf_printf(&b->val, " (tid %u)", (unsigned)t->tid);
	} else {
		if (rt->kind == CG_ROOT_POOL) {
			strbuf_printf(&b->val, "%zu threads, the same name but for numbers, "
				      "calling the same methods:", rt->n);
		} else {
			strbuf_printf(&b->val, "%zu idle threads, each waiting for at least %d%% "
				      "of its time:", rt->n, WAITING_THREAD_PCT);
		}
		put_members(b, rt);
	}
	gv_build_set_val(n, "tooltip", b);
	gv_build_set_str(n, "style", "filled,bold");
	gv_build_set_str(n, "fillcolor", "#e0e0e0");
	gv_build_set_str(n, "id", name);
	gv_build_set_str(n, "class", cls);
}

/* Fill and class of a method node: grey and dashed when waiting (never on
 * the temperature scale), else the temperature of its inclusive share,
 * with the class cg-heat-N (N = 0 coldest .. 9 hottest). */
static void set_heat(Agnode_t *n, struct gv_build *b, size_t pos, const char *kind)
{
	const struct cg_pmethod *pm = &b->v->methods[pos];
	char color[8], cls[40];

	if (b->waiting[pos]) {
		gv_build_set_str(n, "fillcolor", "#e4e4e4");
		gv_build_set_str(n, "style", "rounded,filled,dashed");
		gv_build_set_str(n, "color", "#707070");
		snprintf(cls, sizeof(cls), "%s cg-waiting", kind);
	} else {
		unsigned pos1000 = gv_text_scale_pos(pm->incl_us, b->v->total_us);

		gv_text_scale_color(color, pos1000);
		gv_build_set_str(n, "fillcolor", color);
		snprintf(cls, sizeof(cls), "%s cg-heat-%u", kind, pos1000 >= 1000 ? 9 : pos1000 / 100);
	}
	gv_build_set_str(n, "class", cls);
}

/* Font size by self time (pprof): 10 pt, up to 24 pt for the largest
 * exclusive time of a drawn method that is not waiting. */
static void set_font(Agnode_t *n, struct gv_build *b, size_t pos)
{
	const struct cg_pmethod *pm = &b->v->methods[pos];
	char fs[16];

	if (b->waiting[pos] || b->max_self == 0)
		return;
	snprintf(fs, sizeof(fs), "%u", 10 + 14 * gv_text_scale_pos(pm->excl_us, b->max_self) / 1000);
	gv_build_set_str(n, "fontsize", fs);
}

/* "incl 1.000 ms (10.0%)" etc.; with both clocks the other clock follows. */
static void put_times(struct gv_build *b, const struct cg_pmethod *pm)
{
	const struct cg_view *v = b->v;
	char ms[32], pct[16];

	strbuf_printf(&b->val, "\\nincl %s ms (%s%%)", fmt_ms(ms, pm->incl_us),
		      fmt_pct(pct, pm->incl_us, v->total_us));
	strbuf_printf(&b->val, "\\nexcl %s ms (%s%%)", fmt_ms(ms, pm->excl_us),
		      fmt_pct(pct, pm->excl_us, v->total_us));
	if (v->has_other) {
		strbuf_printf(&b->val, "\\n%s incl %s", v->primary == CG_USE_CPU ? "wall" : "cpu",
			      fmt_ms(ms, pm->o_incl_us));
		strbuf_printf(&b->val, " excl %s ms", fmt_ms(ms, pm->o_excl_us));
	}
}

/* The tooltip line of a method: full name and signature, source:line. */
static void put_full_name(struct gv_build *b, const struct cg_method_info *m)
{
	gv_text_put(&b->val, &b->tmp, m->klass, 1);
	if (m->name[0]) {
		strbuf_putc(&b->val, '.');
		gv_text_put(&b->val, &b->tmp, m->name, 0);
	}
	gv_text_put(&b->val, &b->tmp, m->sig, 0);
}

static void add_method(struct gv_build *b, size_t pos)
{
	const struct cg_pmethod *pm = &b->v->methods[pos];
	struct cg_method_info tmp;
	const struct cg_method_info *m = profile_method(b->v, pm, &tmp);
	char name[32];
	Agnode_t *n;

	snprintf(name, sizeof(name), "m0x%" PRIx64, (uint64_t)m->id);
	n = agnode(b->g, name, 1);
	b->mnode[pos] = n;
	strbuf_reset(&b->val);
	put_display_label(b, &b->val, pm);
	put_times(b, pm);
	strbuf_printf(&b->val, "\\n%s %llu+%llu", b->sampled ? "stack changes" : "calls",
		      (unsigned long long)pm->calls, (unsigned long long)pm->rec_calls);
	gv_build_set_val(n, "label", b);

	/* Tooltip: the full signature and where it is defined. */
	strbuf_reset(&b->val);
	put_full_name(b, m);
	if (m->source[0]) {
		strbuf_puts(&b->val, "\\n");
		gv_text_put(&b->val, &b->tmp, m->source, 0);
		if (m->line > 0)
			strbuf_printf(&b->val, ":%d", m->line);
	}
	gv_build_set_val(n, "tooltip", b);
	gv_build_set_str(n, "id", name);
	set_heat(n, b, pos, "method");
	set_font(n, b, pos);
}

/* A folded chain: one node ("c0x<id of its first frame>") naming the first
 * and last frame and how many lie between, with the first frame's times;
 * the tooltip lists every frame with its inclusive time.  Every member's
 * mnode is the chain's node, so the edges inside the chain vanish as
 * self-edges and the edges into the first and out of the last join it. */
static void add_chain(struct gv_build *b, size_t c)
{
	const struct cg_fold *f = b->fold;
	size_t first = f->start[c], n = f->start[c + 1] - first, k;
	const struct cg_pmethod *head = &b->v->methods[f->members[first]];
	const struct cg_pmethod *tail = &b->v->methods[f->members[first + n - 1]];
	char name[32], ms[32];
	Agnode_t *node;

	snprintf(name, sizeof(name), "c0x%" PRIx64, symtab_method_id(b->v->st, head->index));
	node = agnode(b->g, name, 1);
	b->cnode[c] = node;
	for (k = 0; k < n; k++)
		b->mnode[f->members[first + k]] = node;
	strbuf_reset(&b->val);
	put_display_label(b, &b->val, head);
	strbuf_printf(&b->val, "\\n\xe2\x80\xa6 %zu frame%s \xe2\x80\xa6\\n", n - 2, n - 2 == 1 ? "" : "s");
	put_display_label(b, &b->val, tail);
	put_times(b, head);
	gv_build_set_val(node, "label", b);
	strbuf_reset(&b->val);
	strbuf_printf(&b->val, "%zu frames, each the only caller of the next:", n);
	for (k = 0; k < n; k++) {
		const struct cg_pmethod *pm = &b->v->methods[f->members[first + k]];
		struct cg_method_info tmp;

		strbuf_puts(&b->val, "\\n");
		put_full_name(b, profile_method(b->v, pm, &tmp));
		strbuf_printf(&b->val, " %s ms", fmt_ms(ms, pm->incl_us));
		if (pm->rec_calls)
			strbuf_printf(&b->val, ", %llu recursive", (unsigned long long)pm->rec_calls);
	}
	gv_build_set_val(node, "tooltip", b);
	gv_build_set_str(node, "id", name);
	set_heat(node, b, f->members[first], "chain");
}

/* Item of an edge's caller / callee: thread index, or nthreads + position
 * (UINT32_MAX when the method is not in the view). */
static uint32_t caller_item(const struct cg_view *v, const struct cg_pedge *e)
{
	if (e->from_root)
		return e->caller;
	if (e->caller >= v->npos || v->method_pos[e->caller] >= v->nmethods)
		return UINT32_MAX;
	return (uint32_t)v->nthreads + v->method_pos[e->caller];
}

static uint32_t callee_item(const struct cg_view *v, const struct cg_pedge *e)
{
	if (e->callee >= v->npos || v->method_pos[e->callee] >= v->nmethods)
		return UINT32_MAX;
	return (uint32_t)v->nthreads + v->method_pos[e->callee];
}

/* The item that stands for item x in the drawing: a chain's first frame
 * for every frame of a folded chain, else x itself. */
static uint32_t rep_item(const struct gv_build *b, uint32_t x)
{
	size_t nt = b->v->nthreads;
	uint32_t c;

	if (x == UINT32_MAX || x < nt)
		return x;
	c = b->fold->chain_of[x - nt];
	return c == FOLD_NONE ? x : (uint32_t)nt + b->fold->members[b->fold->start[c]];
}

/* Store the drawn arc c -> h (items, as drawn: a folded chain is its first
 * frame) at *from, *to.  Returns 1, or 0 when it is not drawn as an arc. */
static size_t arc(const struct gv_build *b, uint32_t c, uint32_t h, uint32_t *from, uint32_t *to)
{
	c = rep_item(b, c);
	h = rep_item(b, h);
	if (c == UINT32_MAX || h == UINT32_MAX || c == h)
		return 0;
	*from = c;
	*to = h;
	return 1;
}

/* Rank hints.  b->depth gets each drawn item's depth in a breadth-first
 * search from the roots along the drawn edges (roots in thread order, edges
 * in view order, then residual edges; a folded chain counts as its first
 * frame).  add_edge writes every edge so that it runs forward in the order
 * (depth, item): a call back up toward the roots (recursion through
 * another method) or across to an earlier node of the same depth becomes
 * callee -> caller with dir=back, drawn as the same call.  The graph dot
 * sees is then acyclic and ranks follow the shortest call paths.  Left to
 * itself, dot 2.42 breaks cycles by reversing edges, which leaks memory
 * (LeakSanitizer) and, with recursion cycles and long chains, gave ranks
 * far deeper than the graph: 150 nodes took over ten seconds.  Not
 * constraint=false: unconstrained edges can join nodes of one rank, and
 * 2.42 leaks on such flat edges and frees memory twice when they have a
 * label. */
static void compute_depths(struct gv_build *b, const struct cg_graph_sel *sel)
{
	const struct cg_view *v = b->v;
	size_t ni = v->nthreads + v->nmethods, narcs = v->nedges + sel->nresidual, n = 0;
	size_t i, k, head = 0, tail = 0;
	uint32_t *from = xmalloc((narcs ? narcs : 1) * sizeof(*from));
	uint32_t *to = xmalloc((narcs ? narcs : 1) * sizeof(*to));
	uint32_t *queue = xmalloc((ni ? ni : 1) * sizeof(*queue));
	struct cg_groups out;

	b->depth = xmalloc((ni ? ni : 1) * sizeof(*b->depth));
	for (i = 0; i < ni; i++)
		b->depth[i] = UINT32_MAX;
	for (i = 0; i < v->nedges; i++)
		if (sel->keep_edge[i])
			n += arc(b, caller_item(v, &v->edges[i]), callee_item(v, &v->edges[i]),
				 &from[n], &to[n]);
	for (i = 0; i < sel->nresidual; i++)
		n += arc(b, sel->residual[i].from, (uint32_t)v->nthreads + sel->residual[i].to,
			 &from[n], &to[n]);
	/* Each item's drawn callees, in the order above. */
	groups_build(&out, ni, from, to, n);
	for (i = 0; i < v->nthreads; i++) {
		if (sel->keep_thread[i]) {
			b->depth[i] = 0;
			queue[tail++] = (uint32_t)i;
		}
	}
	while (head < tail) {
		uint32_t x = queue[head++];

		for (k = out.start[x]; k < out.start[x + 1]; k++) {
			if (b->depth[out.item[k]] == UINT32_MAX) {
				b->depth[out.item[k]] = b->depth[x] + 1;
				queue[tail++] = out.item[k];
			}
		}
	}
	groups_free(&out);
	free(from);
	free(to);
	free(queue);
}

/* The graph node of item x (a chain's node for its frames), or NULL. */
static Agnode_t *item_node(const struct gv_build *b, uint32_t x)
{
	if (x == UINT32_MAX)
		return NULL;
	return x < b->v->nthreads ? b->tnode[x] : b->mnode[x - b->v->nthreads];
}

/* Create the arc c -> h (items) as an edge running forward in the
 * (depth, item) order of compute_depths, with the SVG class kind; NULL when
 * both ends are one node (recursion, or the inside of a chain). */
static Agedge_t *forward_edge(struct gv_build *b, uint32_t c, uint32_t h, const char *kind)
{
	char cls[32];
	Agnode_t *t = item_node(b, c), *n = item_node(b, h);
	uint32_t rc = rep_item(b, c), rh = rep_item(b, h);
	uint32_t dc = b->depth[rc], dh = b->depth[rh];
	int back;
	Agedge_t *ed;

	if (!t || !n || t == n)
		return NULL;
	back = dh < dc || (dh == dc && rh < rc);
	ed = back ? agedge(b->g, n, t, NULL, 1) : agedge(b->g, t, n, NULL, 1);
	if (back)
		gv_build_set_str(ed, "dir", "back");
	/* SVG classes: "call" or "residual", plus "back" when drawn reversed. */
	snprintf(cls, sizeof(cls), "%s%s", kind, back ? " back" : "");
	gv_build_set_str(ed, "class", cls);
	return ed;
}

/* The tooltip "caller -> callee" of an arc between items. */
static void put_arc_names(struct gv_build *b, uint32_t c, uint32_t h, const char *via)
{
	strbuf_reset(&b->val);
	if (c < b->v->nthreads)
		gv_text_put(&b->val, &b->tmp, b->v->threads[c].name, 0);
	else
		put_display(b, &b->val, &b->v->methods[c - b->v->nthreads]);
	strbuf_puts(&b->val, via);
	put_display(b, &b->val, &b->v->methods[h - b->v->nthreads]);
}

static void add_edge(struct gv_build *b, const struct cg_pedge *e)
{
	uint32_t c = caller_item(b->v, e), h = callee_item(b->v, e);
	char ms[32], pw[16], color[8];
	unsigned pos;
	Agedge_t *ed;

	if (c == UINT32_MAX || h == UINT32_MAX)
		return;
	ed = forward_edge(b, c, h, "call");
	if (!ed) {
		/* A self-edge is drawn as the recursion loop; others are inside
		 * a chain. */
		b->inside += c != h;
		return;
	}
	b->drawn++;
	strbuf_reset(&b->val);
	strbuf_printf(&b->val, "%llu %s%s\\n%s ms", (unsigned long long)e->calls,
		      b->sampled ? "stack change" : "call", e->calls == 1 ? "" : "s",
		      fmt_ms(ms, e->incl_us));
	gv_build_set_val(ed, "label", b);
	if (b->waiting[h - b->v->nthreads]) {
		/* Into a wait: thin and grey, whatever its time. */
		gv_build_set_str(ed, "penwidth", "1");
		gv_build_set_str(ed, "color", "#a0a0a0");
		gv_build_set_str(ed, "fontcolor", "#707070");
	} else {
		/* Pen width 1 to 5 and colour on the nodes' scale. */
		pos = gv_text_scale_pos(e->incl_us, b->v->total_us);
		snprintf(pw, sizeof(pw), "%u.%02u", (100 + 4 * pos / 10) / 100, (100 + 4 * pos / 10) % 100);
		gv_build_set_str(ed, "penwidth", pw);
		gv_text_scale_color(color, pos);
		gv_build_set_str(ed, "color", color);
	}
	put_arc_names(b, c, h, " -> ");
	gv_build_set_val(ed, "tooltip", b);
}

/* A residual edge: the caller reaches the callee through frames not drawn. */
static void add_residual(struct gv_build *b, const struct cg_residual *rs)
{
	uint32_t h = (uint32_t)b->v->nthreads + rs->to;
	Agedge_t *ed = forward_edge(b, rs->from, h, "residual");

	if (!ed)
		return;
	gv_build_set_str(ed, "style", "dotted");
	gv_build_set_str(ed, "color", "#808080");
	put_arc_names(b, rs->from, h, " -> \xe2\x80\xa6 -> ");
	strbuf_puts(&b->val, " (through frames not drawn)");
	gv_build_set_val(ed, "tooltip", b);
}

static void add_loop(struct gv_build *b, size_t pos)
{
	const struct cg_pmethod *pm = &b->v->methods[pos];
	Agedge_t *ed = agedge(b->g, b->mnode[pos], b->mnode[pos], NULL, 1);

	b->drawn++;
	strbuf_reset(&b->val);
	strbuf_printf(&b->val, "%llu recursive", (unsigned long long)pm->rec_calls);
	gv_build_set_val(ed, "label", b);
	gv_build_set_str(ed, "style", "dashed");
	strbuf_reset(&b->val);
	put_display(b, &b->val, pm);
	strbuf_puts(&b->val, " recursion");
	gv_build_set_val(ed, "tooltip", b);
}

int gv_build_graph(struct gv_build *b, const struct cg_report *r, const struct cg_roots *roots,
		   const struct cg_graph_sel *sel, const struct cg_fold *fold,
		   const struct cg_graph_rules *rules, Agdisc_t *disc, struct cg_error *err)
{
	const struct cg_view *v = &roots->view;
	size_t i;

	strbuf_init(&b->val);
	strbuf_init(&b->tmp);
	strbuf_init(&b->name);
	b->v = v;
	b->roots = roots;
	b->fold = fold;
	b->sampled = r->profile && profile_sampling(r->profile);
	b->overloads = r->st ? javaname_overloads(r->st) : NULL;
	b->waiting = xcalloc(v->nmethods ? v->nmethods : 1, 1);
	for (i = 0; i < v->nmethods; i++) {
		b->waiting[i] = (unsigned char)waiting_method(v, &v->methods[i]);
		if (sel->keep_method[i] && !b->waiting[i] && v->methods[i].excl_us > b->max_self)
			b->max_self = v->methods[i].excl_us;
	}
	b->g = agopen("callgraph", Agdirected, disc);
	if (!b->g) {
		cg_error_set(err, -1, "cannot create the graph: %s", gv_log_message("agopen failed"));
		return -1;
	}
	b->mnode = xcalloc(v->nmethods ? v->nmethods : 1, sizeof(*b->mnode));
	b->tnode = xcalloc(v->nthreads ? v->nthreads : 1, sizeof(*b->tnode));
	b->cnode = xcalloc(fold->nchains ? fold->nchains : 1, sizeof(*b->cnode));
	gv_build_defaults(b->g);
	agnode(b->g, "legend", 1);  /* first in the file; labelled at the end */
	for (i = 0; i < v->nthreads; i++)
		if (sel->keep_thread[i])
			add_root(b, i);
	for (i = 0; i < v->nmethods; i++) {
		if (!sel->keep_method[i])
			continue;
		if (fold->chain_of[i] == FOLD_NONE)
			add_method(b, i);
		else if (fold->members[fold->start[fold->chain_of[i]]] == i)
			add_chain(b, fold->chain_of[i]);
	}
	compute_depths(b, sel);
	for (i = 0; i < v->nedges; i++)
		if (sel->keep_edge[i])
			add_edge(b, &v->edges[i]);
	for (i = 0; i < sel->nresidual; i++)
		add_residual(b, &sel->residual[i]);
	for (i = 0; i < v->nmethods; i++)
		if (sel->keep_method[i] && v->methods[i].rec_calls && fold->chain_of[i] == FOLD_NONE)
			add_loop(b, i);
	gv_legend_add(b, r, rules, sel);
	if (r->diff)
		gv_legend_mark_changes(b, r->diff);
	return 0;
}

void gv_build_free(struct gv_build *b)
{
	if (b->g)
		agclose(b->g);
	free(b->mnode);
	free(b->tnode);
	free(b->cnode);
	free(b->depth);
	free(b->overloads);
	free(b->waiting);
	strbuf_free(&b->val);
	strbuf_free(&b->tmp);
	strbuf_free(&b->name);
	memset(b, 0, sizeof(*b));
}
