/* gv_build.h - the call graph as a libcgraph graph: nodes, edges, their
 * labels, tooltips and styles (render_gv.c lays it out and renders it).
 *
 * The graph is built with agnode/agedge/agsafeset in a fixed order (legend,
 * roots in thread order, methods in view order, edges in view order, then
 * the recursion loops), so the same view always gives the same bytes.
 *
 * Ownership: the build owns its graph and arrays (gv_build_free); the
 * report, view, selection and fold are borrowed and must outlive it.
 */
#ifndef CG_GV_BUILD_H
#define CG_GV_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include <cgraph.h>

#include "model/filter.h"
#include "model/fold.h"
#include "model/profile.h"
#include "model/roots.h"
#include "render/report.h"
#include "util/strbuf.h"
#include "util/util.h"

struct gv_build {
	Agraph_t *g;
	const struct cg_view *v;
	struct strbuf val;  /* the attribute value being built */
	struct strbuf tmp;  /* scratch for cleaning */
	Agnode_t **mnode;   /* by view position; NULL when not drawn */
	Agnode_t **tnode;   /* by thread index */
	uint32_t *depth;    /* by item: thread index, or nthreads + view position */
	struct strbuf name; /* scratch for display names */
	unsigned char *overloads; /* by symtab index (javaname_overloads) */
	unsigned char *waiting;   /* by view position */
	uint64_t max_self;  /* largest exclusive time of a drawn, not waiting method */
	int sampled;        /* counts are stack changes, not calls */
	const struct cg_fold *fold;
	const struct cg_roots *roots; /* b->v is roots->view */
	Agnode_t **cnode;   /* by chain */
	size_t drawn;       /* edges drawn (recursion loops included, residual not) */
	size_t inside;      /* drawn edges that fall inside a folded chain */
};

/* Build the graph of the items sel draws from roots->view (chains of fold
 * folded) into b->g, opened with disc; the legend states rules.  b must be
 * zeroed before.  0, or -1 with err filled; either way gv_build_free(b)
 * after. */
int gv_build_graph(struct gv_build *b, const struct cg_report *r, const struct cg_roots *roots,
		   const struct cg_graph_sel *sel, const struct cg_fold *fold,
		   const struct cg_graph_rules *rules, Agdisc_t *disc, struct cg_error *err);

/* Close the graph (its layout freed before) and release b's arrays. */
void gv_build_free(struct gv_build *b);

/* agsafeset of attr to the value built in b->val (cgraph copies it). */
void gv_build_set_val(void *obj, const char *attr, struct gv_build *b);

/* agsafeset of attr to value. */
void gv_build_set_str(void *obj, const char *attr, const char *value);

/* The legend note "legend": the trace, clock, totals, each rule and what
 * it dropped (gv_legend.c). */
void gv_legend_add(struct gv_build *b, const struct cg_report *r, const struct cg_graph_rules *rules,
		   const struct cg_graph_sel *sel);

/* Append the line text to the legend (gv_legend.c). */
void gv_legend_note(struct gv_build *b, const char *text);

/* -d: colour the drawn methods by change against the base run, add the
 * change to their labels and explain the colours in the legend
 * (gv_legend.c). */
struct cg_diff;
void gv_legend_mark_changes(struct gv_build *b, const struct cg_diff *d);

#endif
