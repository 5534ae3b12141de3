/* Streamed outputs: a strbuf with a sink hands its bytes over at each
 * strbuf_spill once spill_at are held, and the big renderers (text, JSON,
 * folded stacks, the -d text) spill between rows, so their output reaches
 * the sink in many bounded chunks whose concatenation is the output built
 * whole. */
#include <stdlib.h>

#include "model/cct.h"
#include "model/diff.h"
#include "model/profile.h"
#include "render/text/render_diff.h"
#include "render/export/render_folded.h"
#include "render/text/render_json.h"
#include "render/text/render_text.h"
#include "render/report.h"
#include "read/source.h"
#include "util/strbuf.h"
#include "read/trace.h"
#include "unit.h"

struct chunks {
	struct strbuf all;  /* every byte the sink was given */
	size_t n, largest;  /* chunks, and the largest */
	int fail_at;        /* refuse the chunk of this number (1-based); 0 never */
};

static int collect(void *ctx, const void *p, size_t n)
{
	struct chunks *c = ctx;

	c->n++;
	if (c->fail_at && (int)c->n == c->fail_at)
		return -1;
	if (n > c->largest)
		c->largest = n;
	strbuf_add(&c->all, p, n);
	return 0;
}

UNIT_TEST(strbuf_sink_spills_in_chunks)
{
	struct chunks c = { .n = 0 };
	struct strbuf sb;
	size_t i, rows = 3 * STRBUF_SPILL / 16 + 5;

	strbuf_init(&c.all);
	strbuf_init(&sb);
	strbuf_set_sink(&sb, collect, &c);
	for (i = 0; i < rows; i++) {
		strbuf_printf(&sb, "row %010zu\n", i); /* 15 bytes */
		strbuf_putc(&sb, '.');
		strbuf_spill(&sb);
		CHECK(sb.len < STRBUF_SPILL);
	}
	CHECK_EQ_U64(c.n, 3);
	CHECK(strbuf_flush(&sb) == 0);
	CHECK_EQ_U64(c.n, 4);
	CHECK_EQ_U64(c.all.len, rows * 16);
	CHECK(memcmp(c.all.data, "row 0000000000\n.row 0000000001\n.", 32) == 0);
	CHECK(c.largest < STRBUF_SPILL + 16);
	CHECK_EQ_U64(sb.len, 0);
	strbuf_free(&sb);
	strbuf_free(&c.all);
	return 0;
}

UNIT_TEST(strbuf_sink_failure_is_kept)
{
	struct chunks c = { .n = 0, .fail_at = 1 };
	struct strbuf sb;

	strbuf_init(&c.all);
	strbuf_init(&sb);
	strbuf_set_sink(&sb, collect, &c);
	sb.spill_at = 4;
	strbuf_puts(&sb, "first");
	strbuf_spill(&sb); /* refused */
	strbuf_puts(&sb, "second");
	strbuf_spill(&sb); /* dropped: the sink already failed */
	CHECK_EQ_U64(c.n, 1);
	CHECK(strbuf_flush(&sb) == -1);
	CHECK_EQ_U64(c.all.len, 0);
	CHECK(sb.len < 8);
	strbuf_free(&sb);
	strbuf_free(&c.all);
	return 0;
}

struct loaded {
	struct cg_source *src;
	struct cg_trace *t;
	struct cg_profile *p;
	struct cg_cct *cct;
	struct cg_report r;
};

static int load(struct loaded *L, const char *path)
{
	struct cg_profile_opts po = { .clock = CG_USE_WALL };
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_record recs[512];
	struct cg_observer obs;
	size_t n;
	int rc;

	memset(L, 0, sizeof(*L));
	L->src = source_open(path, &err);
	if (!L->src) {
		fprintf(stderr, "  %s: %s (run from the project root or set TOP)\n", path, err.msg);
		return -1;
	}
	L->t = trace_open(L->src, &err);
	if (!L->t)
		return -1;
	L->p = profile_create(trace_symtab(L->t), &po);
	L->cct = cct_create();
	cct_observer(L->cct, &obs);
	profile_set_observer(L->p, &obs);
	do {
		rc = trace_next(L->t, recs, 512, &n, &err);
		if (profile_add(L->p, recs, n, &err) < 0)
			return -1;
	} while (rc == 1);
	if (rc < 0)
		return -1;
	profile_finish(L->p, trace_info(L->t));
	L->r.file = path;
	L->r.info = trace_info(L->t);
	L->r.profile = L->p;
	L->r.st = trace_symtab(L->t);
	L->r.clock = CG_USE_WALL;
	L->r.cct = L->cct;
	return 0;
}

static void loaded_free(struct loaded *L)
{
	profile_free(L->p);
	cct_free(L->cct);
	trace_free(L->t);
	source_free(L->src);
}

/* Render twice, whole and through a sink that spills at every chance: the
 * same bytes, in many chunks none larger than a few rows. */
static int streams(const char *what, const struct cg_renderer *single,
		   const struct cg_report *r)
{
	struct cg_error err = { { 0 }, 0, 0 };
	struct chunks c = { .n = 0 };
	struct strbuf whole, sb;
	int rc = 1;

	strbuf_init(&whole);
	strbuf_init(&sb);
	strbuf_init(&c.all);
	strbuf_set_sink(&sb, collect, &c);
	sb.spill_at = 1;
	if (single ? single->render(r, &whole, &err) || single->render(r, &sb, &err)
		   : render_diff_text(r, &whole, &err) || render_diff_text(r, &sb, &err)) {
		fprintf(stderr, "  %s: %s\n", what, err.msg);
		goto out;
	}
	if (strbuf_flush(&sb) != 0)
		goto out;
	if (c.all.len != whole.len || memcmp(c.all.data, whole.data, whole.len) != 0) {
		fprintf(stderr, "  %s: streamed bytes differ from the whole output\n", what);
		goto out;
	}
	if (c.n < 20 || c.largest > 16384) {
		fprintf(stderr, "  %s: %zu chunks, the largest %zu bytes (want >= 20, <= 16384: a few rows)\n",
			what, c.n, c.largest);
		goto out;
	}
	rc = 0;
out:
	strbuf_free(&whole);
	strbuf_free(&sb);
	strbuf_free(&c.all);
	return rc;
}

UNIT_TEST(large_outputs_stream_between_rows)
{
	struct loaded L, B;
	struct cg_diff_run run = { "legacy.trace", "wall", 0, { NULL } };
	struct cg_diff *d;
	int bad = 0;

	if (load(&L, "samples/art-regular.trace.gz") || load(&B, "samples/legacy.trace"))
		return 1;
	bad |= streams("text", &render_text, &L.r);
	bad |= streams("json", &render_json, &L.r);
	bad |= streams("folded", &render_folded, &L.r);
	d = diff_create(diff_base_create(profile_view(B.p, -1), &run), profile_view(L.p, -1));
	L.r.diff = d;
	bad |= streams("diff text", NULL, &L.r);
	diff_free(d);
	loaded_free(&L);
	loaded_free(&B);
	return bad;
}
