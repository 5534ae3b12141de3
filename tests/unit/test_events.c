/* The event log: what a reader gives back equals what was recorded, per
 * thread and in order (adopted enters first, outermost first), whether the
 * blocks stay in memory (default budget), all go to the temporary file
 * (budget 0) or some do (a budget of a few blocks); and a temporary file
 * that cannot be made is an error of the log, not a crash. */
#include <stdlib.h>

#include "model/events.h"
#include "unit.h"

#define NTHREADS 3

/* The expected sequence of thread th: event k's time and method. */
static uint64_t want_t(size_t th, size_t k)
{
	return 1000 * th + 3 * k;
}

static uint32_t want_m(size_t th, size_t k)
{
	return k % 3 == 2 ? EV_LEAVE : (uint32_t)(th * 7 + k % 11);
}

/* Records n events per thread, interleaved, after two adoptions on thread
 * 1; reads them back; 0 when everything matches, else 1 (or -1 when the
 * log failed, its message in *err). */
static int round_trip(size_t budget, size_t n, struct cg_error *err)
{
	struct cg_events *ev = events_create();
	struct cg_observer o;
	size_t th, k;
	int rc = 0;

	events_set_budget(ev, budget);
	events_observer(ev, NULL, &o);
	o.adopt(o.ctx, 1, 40, 5, 6);  /* inner: adopted first */
	o.adopt(o.ctx, 1, 41, 5, 7);  /* outer */
	for (k = 0; k < n; k++)
		for (th = 0; th < NTHREADS; th++) {
			if (want_m(th, k) == EV_LEAVE)
				o.leave(o.ctx, (uint32_t)th, want_t(th, k));
			else
				o.enter(o.ctx, (uint32_t)th, want_m(th, k), want_t(th, k));
		}
	if (events_status(ev, err) < 0) {
		events_free(ev);
		return -1;
	}
	for (th = 0; th < NTHREADS && !rc; th++) {
		struct cg_event_reader rd;
		const struct cg_event *e;
		size_t got = 0, i;
		long m;

		events_open(ev, th, &rd);
		while ((m = events_next(&rd, &e, err)) > 0) {
			for (i = 0; i < (size_t)m && !rc; i++, got++) {
				size_t pos = got;

				if (th == 1) {
					/* outer adopted enter, inner adopted enter,
					 * the two adoptions' leaves, then the rest */
					static const uint32_t pre_m[4] = { 41, 40, EV_LEAVE, EV_LEAVE };
					static const uint64_t pre_t[4] = { 5, 5, 6, 7 };

					if (got < 4) {
						rc = e[i].midx != pre_m[got] || e[i].t != pre_t[got];
						continue;
					}
					pos = got - 4;
				}
				rc = e[i].t != want_t(th, pos) || e[i].midx != want_m(th, pos);
			}
		}
		events_close(&rd);
		if (m < 0 || got != n + (th == 1 ? 4 : 0))
			rc = 1;
	}
	events_free(ev);
	return rc;
}

UNIT_TEST(events_read_back_in_memory_and_spilled)
{
	struct cg_error err = { 0 };
	size_t n = 3 * EV_BLOCK + 123;

	CHECK(round_trip(EV_BUDGET, n, &err) == 0);
	CHECK(round_trip(0, n, &err) == 0);
	CHECK(round_trip(3 * EV_BLOCK * sizeof(struct cg_event), n, &err) == 0);
	CHECK(round_trip(0, 5, &err) == 0);
	CHECK(round_trip(0, 0, &err) == 0);
	return 0;
}

UNIT_TEST(events_temporary_file_error)
{
	struct cg_error err = { 0 };
	const char *old = getenv("TMPDIR");
	char *keep = old ? strdup(old) : NULL;
	int rc;

	setenv("TMPDIR", "/nonexistent-callgraph-dir", 1);
	rc = round_trip(0, 2 * EV_BLOCK, &err);
	if (keep) {
		setenv("TMPDIR", keep, 1);
		free(keep);
	} else {
		unsetenv("TMPDIR");
	}
	CHECK(rc == -1);
	CHECK_EQ_STR(err.msg, "cannot create the event log's temporary file: No such file or directory");
	return 0;
}
