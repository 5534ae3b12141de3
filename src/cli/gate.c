/* gate.c - --fail-if-slower: the offending rows, one stderr line each. */
#include "cli/gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/runs.h"
#include "render/javaname.h"
#include "render/text/render_runs.h"

/* 1 when the row's metric trips the gate, its line printed. */
static int row_trips(const struct cg_report *r, size_t row, enum cg_runs_metric m, double pct,
		     uint64_t floor2, struct strbuf *sb)
{
	const struct cg_runs *rs = r->runs;
	struct cg_runs_stat st;
	char label[48], ch[32];

	runs_stat(rs, row, m, r->normalise, &st);
	if (!st.significant || !(st.change > pct))
		return 0;
	if (runs_kind(rs, row) == CG_RUNS_METHOD && st.side[0].median2 < floor2 &&
	    st.side[1].median2 < floor2)
		return 0;
	strbuf_reset(sb);
	runs_put_name(sb, rs, row, JN_SIG | (r->short_names ? JN_SHORT : 0));
	fprintf(stderr, "callgraph: slower: %s: %s %s (p=%.3f)\n", sb->data,
		runs_metric_label(rs, m, label, sizeof(label)), runs_fmt_change(ch, &st),
		st.test.p);
	return 1;
}

size_t gate_check(const struct cg_report *r, double pct)
{
	const struct cg_runs *rs = r->runs;
	struct cg_runs_stat total;
	struct strbuf sb;
	size_t row, n = 0;
	uint64_t floor2;

	strbuf_init(&sb);
	runs_stat(rs, 0, CG_RM_INCL, r->normalise, &total);
	floor2 = total.side[0].median2 * GATE_FLOOR_PCT / 100;
	n += (size_t)row_trips(r, 0, CG_RM_INCL, pct, floor2, &sb);
	for (row = 1; row < runs_rows(rs); row++) {
		if (runs_kind(rs, row) != CG_RUNS_METHOD)
			continue;
		n += (size_t)row_trips(r, row, CG_RM_INCL, pct, floor2, &sb);
		n += (size_t)row_trips(r, row, CG_RM_EXCL, pct, floor2, &sb);
	}
	strbuf_free(&sb);
	return n;
}
