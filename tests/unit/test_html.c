/* test_html.c - the HTML report (render_html.c) on a profile built through
 * the real symtab and model: escaping of hostile names, no network
 * reference, inline SVG without XML baggage, determinism. */
#include <stdlib.h>

#include "model/profile.h"
#include "render/report/render_html.h"
#include "render/report.h"
#include "util/strbuf.h"
#include "read/symtab.h"
#include "unit.h"

struct hfix {
	struct cg_symtab *st;
	struct cg_profile *p;
	struct cg_trace_info info;
	struct cg_report r;
};

#define HEV(tid, id, t, act) { (tid), (id), (t), (t), (act), 0 }

/* Two threads; every name is hostile:
 *   thread 1 `"main" <b>`:       <script>alert(1)</script> 0..100 calls Q.say"hi" 10..30
 *   thread 2 `see http://x & y`: Q.say"hi" 0..50
 * Method names go to the page only through the JSON block and the SVG. */
static int hfix_run(struct hfix *f)
{
	static const struct cg_record recs[] = {
		HEV(1, 0x4, 0, CG_ENTER),  HEV(1, 0x8, 10, CG_ENTER), HEV(1, 0x8, 30, CG_EXIT),
		HEV(1, 0x4, 100, CG_EXIT), HEV(2, 0x8, 0, CG_ENTER),  HEV(2, 0x8, 50, CG_EXIT),
	};
	struct cg_error err = { { 0 }, 0, 0 };

	memset(f, 0, sizeof(*f));
	f->st = symtab_create();
	symtab_define_method(f->st, 0x4, "x/Evil", "<script>alert(1)</script>",
			     "(L</script><script>alert(2)</script>;)V", "Evil.java", 0);
	symtab_define_method(f->st, 0x8, "x/Q", "say\"hi\"", "(Lhttp://example/U;)V", "Q.java", 0);
	symtab_define_thread(f->st, 1, "\"main\" <b>", 0);
	symtab_define_thread(f->st, 2, "see http://x & y", 0);
	f->p = profile_create(f->st, NULL);
	if (profile_add(f->p, recs, sizeof(recs) / sizeof(recs[0]), &err) < 0) {
		fprintf(stderr, "  profile_add: %s\n", err.msg);
		return 1;
	}
	f->info.clock = CG_CLOCK_WALL;
	f->info.vm = "art";
	f->info.pid = -1;
	f->info.version = 2;
	f->info.record_size = 10;
	profile_finish(f->p, &f->info);
	f->r.file = "dir/<evil>&.trace";
	f->r.info = &f->info;
	f->r.profile = f->p;
	f->r.st = f->st;
	f->r.clock = CG_USE_WALL;
	f->r.threshold = 0;
	f->r.max_nodes = 100;
	return 0;
}

static void hfix_free(struct hfix *f)
{
	profile_free(f->p);
	symtab_free(f->st);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (hay = strstr(hay, needle); hay; hay = strstr(hay + 1, needle))
		n++;
	return n;
}

static int render(struct hfix *f, struct strbuf *sb)
{
	struct cg_error err = { { 0 }, 0, 0 };

	strbuf_init(sb);
	if (render_html.render(&f->r, sb, &err) < 0) {
		fprintf(stderr, "  render_html: %s\n", err.msg);
		return 1;
	}
	return sb->data ? 0 : 1;
}

UNIT_TEST(html_escapes_hostile_names)
{
	struct hfix f;
	struct strbuf sb;
	int rc = 1;

	strbuf_init(&sb);
	if (hfix_run(&f) || render(&f, &sb))
		goto out;
	/* Only the report's own six script elements (helpers, the window
	 * replay, the window data and its script, data block, page script),
	 * and no name breaks out. */
	CHECK_EQ_U64(count(sb.data, "<script"), 6);
	CHECK_EQ_U64(count(sb.data, "</script"), 6);
	CHECK(strstr(sb.data, "\"file\":\"dir/\\u003cevil\\u003e\\u0026.trace\""));
	CHECK(!strstr(sb.data, "<script>alert"));
	CHECK(!strstr(sb.data, "<b>"));
	/* In the JSON block: <, >, & as \u escapes; quotes as \". */
	CHECK(strstr(sb.data, "\"x.Evil.\\u003cscript\\u003ealert(1)\\u003c.script\\u003e\""));
	CHECK(strstr(sb.data, "\"(L\\u003c/script\\u003e\\u003cscript\\u003ealert(2)"));
	CHECK(strstr(sb.data, "\"x.Q.say\\\"hi\\\"\""));
	CHECK(strstr(sb.data, "\"see http\\u003a//x \\u0026 y\""));
	/* In markup: entities. */
	CHECK(strstr(sb.data, "<title>callgraph: dir/&lt;evil&gt;&amp;.trace</title>"));
	CHECK(strstr(sb.data, "&quot;main&quot; &lt;b&gt; (1)"));
	CHECK(strstr(sb.data, "see http&#58;//x &amp; y (2)"));
	rc = 0;
out:
	strbuf_free(&sb);
	hfix_free(&f);
	return rc;
}

UNIT_TEST(html_no_network_reference)
{
	struct hfix f;
	struct strbuf sb;
	int rc = 1;

	strbuf_init(&sb);
	if (hfix_run(&f) || render(&f, &sb))
		goto out;
	CHECK(!strstr(sb.data, "http://"));
	CHECK(!strstr(sb.data, "https://"));
	CHECK(!strstr(sb.data, "xmlns"));
	CHECK(!strstr(sb.data, "<?xml"));
	CHECK(!strstr(sb.data, "<!DOCTYPE svg"));
	CHECK(!strstr(sb.data, "<!--"));
	CHECK(strncmp(sb.data, "<!DOCTYPE html>\n", 16) == 0);
	rc = 0;
out:
	strbuf_free(&sb);
	hfix_free(&f);
	return rc;
}

UNIT_TEST(html_graphs_per_view)
{
	struct hfix f;
	struct strbuf sb;
	int rc = 1;

	strbuf_init(&sb);
	if (hfix_run(&f) || render(&f, &sb))
		goto out;
	/* All threads keeps the node ids of render_gv.h; thread graphs (busiest
	 * first: thread 1, then 2) are prefixed so ids stay unique. */
	CHECK_EQ_U64(count(sb.data, "<svg"), 3);
	CHECK(strstr(sb.data, "<g id=\"m0x4\""));
	CHECK(strstr(sb.data, "<g id=\"g1-m0x4\""));
	CHECK(strstr(sb.data, "<g id=\"g2-m0x8\""));
	CHECK(!strstr(sb.data, "<g id=\"g2-m0x4\""));
	CHECK(strstr(sb.data, "id=\"graph-2\" data-prefix=\"g2-\" hidden>"));
	/* Views: all (graph 0), thread 1 (graph 1), thread 2 (graph 2); method
	 * numbers are positions in the all-threads view (Evil 100 us first). */
	CHECK(strstr(sb.data, "{\"t\":-1,\"total\":150,\"g\":0,\"m\":[0,100,80,1,0,1,70,70,2,0],"));
	CHECK(strstr(sb.data, "\"e\":[-1,0,1,100,-2,1,1,50,0,1,1,20]}"));
	CHECK(strstr(sb.data, "{\"t\":1,\"total\":50,\"g\":2,\"m\":[1,50,50,1,0],\n\"e\":[-2,1,1,50]}"));
	rc = 0;
out:
	strbuf_free(&sb);
	hfix_free(&f);
	return rc;
}

UNIT_TEST(html_deterministic)
{
	struct hfix f;
	struct strbuf a, b;
	int rc = 1;

	strbuf_init(&a);
	strbuf_init(&b);
	if (hfix_run(&f) || render(&f, &a) || render(&f, &b))
		goto out;
	CHECK_EQ_U64(a.len, b.len);
	CHECK(memcmp(a.data, b.data, a.len) == 0);
	rc = 0;
out:
	strbuf_free(&a);
	strbuf_free(&b);
	hfix_free(&f);
	return rc;
}
