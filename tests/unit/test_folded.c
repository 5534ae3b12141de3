/* Folded stacks of the bundled real traces (samples/, run from the project
 * root or with $TOP set): per thread, the lines sum to the thread's total
 * (its inclusive_us in --json), with and without --focus/--hide, and every
 * line is "frame;frame;... N" with no empty frame. */
#include <stdlib.h>

#include "model/cct.h"
#include "model/profile.h"
#include "render/export/render_folded.h"
#include "render/report.h"
#include "read/source.h"
#include "util/strbuf.h"
#include "read/trace.h"
#include "unit.h"

static const char *const samples[] = {
	"samples/legacy.trace", "samples/basic.trace", "samples/mismatched.trace",
	"samples/exception.trace", "samples/streaming.trace", "samples/art-regular.trace.gz",
};

struct run {
	struct cg_source *src;
	struct cg_trace *t;
	struct cg_profile *p;
	struct cg_cct *cct;
	struct strbuf out;
};

/* Load path with the given filters and render its folded stacks. */
static int run_load(struct run *R, const char *path, enum cg_clock_sel clock,
		    const char *const *focus, const char *const *hide)
{
	struct cg_profile_opts po = { .clock = clock, .focus = focus, .hide = hide };
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_record recs[512];
	struct cg_observer obs;
	struct cg_report r;
	size_t n;
	int rc;

	memset(R, 0, sizeof(*R));
	strbuf_init(&R->out);
	R->src = source_open(path, &err);
	if (!R->src) {
		fprintf(stderr, "  %s: %s (run from the project root or set TOP)\n", path, err.msg);
		return -1;
	}
	R->t = trace_open(R->src, &err);
	if (!R->t)
		return -1;
	R->p = profile_create(trace_symtab(R->t), &po);
	R->cct = cct_create();
	cct_observer(R->cct, &obs);
	profile_set_observer(R->p, &obs);
	do {
		rc = trace_next(R->t, recs, 512, &n, &err);
		if (profile_add(R->p, recs, n, &err) < 0)
			return -1;
	} while (rc == 1);
	if (rc < 0)
		return -1;
	profile_finish(R->p, trace_info(R->t));
	memset(&r, 0, sizeof(r));
	r.file = path;
	r.info = trace_info(R->t);
	r.profile = R->p;
	r.st = trace_symtab(R->t);
	r.clock = clock;
	r.cct = R->cct;
	return render_folded.render(&r, &R->out, &err);
}

static void run_free(struct run *R)
{
	profile_free(R->p);
	cct_free(R->cct);
	trace_free(R->t);
	source_free(R->src);
	strbuf_free(&R->out);
}

/* Lines come grouped by thread in view order, a thread with no time having
 * none: compare group sums with the threads that have time. */
static int check_sums(const struct run *R, const char *what)
{
	const struct cg_view *v = profile_view(R->p, -1);
	const char *s = R->out.len ? R->out.data : "", *line;
	size_t th = 0;
	uint64_t sum = 0, total = 0;
	char cur[512] = "";

	while (th < v->nthreads && v->threads[th].incl_us == 0)
		th++;
	for (line = s; *line; ) {
		const char *nl = strchr(line, '\n'), *sp, *semi;
		size_t flen;
		uint64_t val = 0;
		const char *q;

		CHECK(nl != NULL);
		for (sp = nl; sp > line && sp[-1] != ' '; sp--)
			;
		CHECK(sp > line + 1 && sp < nl);
		for (q = sp; q < nl; q++) {
			CHECK(*q >= '0' && *q <= '9');
			val = val * 10 + (uint64_t)(*q - '0');
		}
		CHECK(val > 0);
		CHECK(line[0] != ';' && sp[-2] != ';');
		for (q = line; q + 1 < sp - 1; q++)
			CHECK(!(q[0] == ';' && q[1] == ';'));
		semi = memchr(line, ';', (size_t)(sp - 1 - line));
		/* Every line has a frame below its thread (Perfetto's sniffer). */
		CHECK(semi != NULL);
		flen = (size_t)((semi ? semi : sp - 1) - line);
		CHECK(flen < sizeof(cur));
		if (strlen(cur) != flen || memcmp(cur, line, flen) != 0) {
			if (cur[0]) {
				CHECK(th < v->nthreads);
				if (sum != v->threads[th].incl_us) {
					fprintf(stderr, "  %s: thread %s sums to %" PRIu64 ", total %" PRIu64 "\n",
						what, cur, sum, v->threads[th].incl_us);
					return 1;
				}
				for (th++; th < v->nthreads && v->threads[th].incl_us == 0; th++)
					;
			}
			memcpy(cur, line, flen);
			cur[flen] = '\0';
			sum = 0;
		}
		sum += val;
		total += val;
		line = nl + 1;
	}
	if (cur[0]) {
		CHECK(th < v->nthreads);
		CHECK_EQ_U64(sum, v->threads[th].incl_us);
		for (th++; th < v->nthreads && v->threads[th].incl_us == 0; th++)
			;
	}
	CHECK_EQ_U64(th, v->nthreads);
	CHECK_EQ_U64(total, v->total_us);
	return 0;
}

UNIT_TEST(folded_samples_sum_to_thread_totals)
{
	static const char *const hide[] = { "*.Looper.*", "java.*", NULL };
	static const char *const focus[] = { "*.onCreate", "*.run", "*.create*", NULL };
	const char *top = getenv("TOP");
	size_t i;
	int clock, mode;

	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		char path[1024];

		snprintf(path, sizeof(path), "%s/%s", top && top[0] ? top : ".", samples[i]);
		for (clock = 0; clock < 2; clock++) {
			for (mode = 0; mode < 4; mode++) {
				struct run R;
				char what[1100];
				int bad;

				snprintf(what, sizeof(what), "%s clock %d mode %d", samples[i], clock, mode);
				if (run_load(&R, path, clock ? CG_USE_CPU : CG_USE_WALL,
					     mode & 1 ? focus : NULL, mode & 2 ? hide : NULL) < 0) {
					fprintf(stderr, "  %s: cannot load\n", what);
					run_free(&R);
					return 1;
				}
				bad = check_sums(&R, what);
				run_free(&R);
				if (bad) {
					fprintf(stderr, "  in %s\n", what);
					return 1;
				}
			}
		}
	}
	return 0;
}
