/* replay.c - ranges of records scanned, composed, replayed and summed by
 * several threads (see replay.h).
 *
 * With n threads the span is cut into n ranges.  This thread replays the
 * first range from the start, as a replay in order would.  At the same time
 * thread i (1 <= i < n) scans range i - 1; once every scan is in, the scans
 * are composed, and thread i replays range i from the state composed for
 * it.  With two ranges, range 1's thread scans range 0 only from a record
 * where this thread's replay hands it its threads' state (profile_snapshot),
 * and composes its scan with that (stitch_create_from).  Scanning costs a
 * part of replaying (SCAN_*), and a later range's records cost about what
 * the first's do (LATER): the ranges are cut so that every thread finishes
 * at about the same time.  With two ranges of a long span, where range 0
 * ends is settled while both threads run: range 1's thread scans on until
 * what is left of range 0, from where its replay has come to where the
 * scan stands, holds as many records as the rest of the span
 * (replay_cut_due).  Positions, not speeds: speeds taken early (range 0's
 * first records cost more, and a scan's speed says little of a replay's)
 * cut up to a fifth of the wall time off one thread or the other.  The
 * ranges' profiles are summed in order; from a range that cannot be used
 * (the trace cannot be cut there, or a method id is missing from the key)
 * the rest is replayed in order on this thread. */
#include "cli/replay.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/cct.h"
#include "model/stitch.h"
#include "util/thread.h"

/* Records read at a time (about 115 KB of 14-byte records), decoded where
 * they lie. */
#define CHUNK 8192
/* Stacks deeper than this within a range (real ones are a few hundred
 * frames) are replayed in order: their seeds would cost as much again. */
#define SCAN_DEPTH (1u << 16)
/* Each thread's stack.  The threads recurse nowhere: a small stack leaves
 * address space to the tables (under ulimit -v, 8 MB stacks ran out
 * first). */
#define THREAD_STACK (512u << 10)
/* What a range costs, in thousandths of the first range's replay of a
 * record: the scan of a record, by the replay's layout (SCAN_*), and the
 * replay of a record in a later range (LATER).  Scans measured on the
 * 1 GiB program-shaped trace of make bench with -j 2, each thread timed
 * apart (CPU time of the thread, records read and decoded where they lie):
 * 5.2 to 6.0 ns a record beside a replay; range 0's replay 20 ns into
 * global tables, 26.5 with the calling-context tree (a profile without
 * tables, profile_bare.c) and 39 into per-thread tables.  A record of
 * range 1 against one of range 0 after the cut, six runs of each layout:
 * 0.88 to 1.13 into global tables, 0.93 to 1.05 with the tree, 0.94 to
 * 1.05 into per-thread tables; its tables start empty, and range 0's have
 * grown past its cache. */
#define SCAN_GLOBAL 260
#define SCAN_CCT 215
#define SCAN_THREADS 145
#define LATER 1000
/* Spans of at least this many records in two ranges are cut as the
 * threads run (replay_cut_due); shorter ones where cut() says. */
#define CUT_LIVE_MIN (1u << 20)

struct split;

struct range {
	struct split *sp;
	unsigned index;
	uint64_t from, to;             /* record indices of the span */
	struct cg_profile *prof;
	struct cg_cct *cct;            /* the range's tree, with split.cct */
	struct cg_error err;
	int failed;
	pthread_t thr;
	int spawned;
};

struct split {
	struct cg_trace *t;
	struct cg_profile_opts opts;
	struct cg_cct *cct;            /* range 0's tree, or NULL: no trees */
	unsigned n;
	struct range *rs;
	struct cg_scan **scans;        /* of ranges 0 .. n-2 */
	struct cg_stitch *st;          /* NULL when a scan could not read */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned scans_left;
	int scan_failed;
	int composed;
	/* Two ranges: range 0's replay gives its threads' state at record
	 * snap_at (0: not) to range 1's thread, which scans only from there. */
	uint64_t snap_at;
	struct cg_seed *snap;          /* NULL when range 0 could not take it */
	struct cg_seed_frame *snap_frames;
	size_t nsnap;
	int snapped;                   /* taken, or known never to be */
	/* Two ranges cut as the threads run (CUT_LIVE_MIN): until `cut` is
	 * set, range 0's replay takes a chunk at a time (range0_take), up
	 * to `claimed`, and range 1's thread scans on; then rs[0].to is
	 * where range 0 ends.  Both under mu. */
	int live;
	int cut;
	uint64_t claimed;
	uint64_t count;                /* records of the span */
	uint64_t done;                 /* records replayed so far (atomic) */
	const struct cg_progress *progress;
	/* replay_beside: set (atomic) when either replay stops early, so
	 * that the other stops too; NULL otherwise. */
	int *halt;
};

unsigned replay_cores(void)
{
	long n;
#ifdef CPU_COUNT
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
#endif
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

/* How a range's records are given to a profile. */
enum feed { FEED_REPLAY, FEED_CORRECT };

/* A `to` of read_range: range 0's end, as range0_take settles it. */
#define TO_CUT UINT64_MAX

/* How many records from k range 0's replay takes next (0: range 0 ends at
 * k), claimed so that range 0 cannot be cut below them. */
static size_t range0_take(struct split *sp, uint64_t k)
{
	uint64_t end;
	size_t n;

	pthread_mutex_lock(&sp->mu);
	end = sp->cut ? sp->rs[0].to : sp->count;
	n = end - k < CHUNK ? (size_t)(end - k) : CHUNK;
	if (!sp->cut)
		sp->claimed = k + n;
	pthread_mutex_unlock(&sp->mu);
	return n;
}

/* Records from .. to-1 (TO_CUT: to range 0's end) into scan, or else into
 * prof (counted in sp->done, and told to sp->progress when tell is set;
 * with FEED_CORRECT, to prof's correction pass).  0, or -1 (err filled)
 * on a read error or an error of the replay; a replay abandoned stops
 * early with 0. */
static int read_range(struct split *sp, uint64_t from, uint64_t to, struct cg_scan *scan,
		      struct cg_profile *prof, int tell, enum feed feed, struct cg_error *err)
{
	struct cg_raw_layout l;
	unsigned char *buf;
	uint64_t k, off;
	size_t n;
	int rc = 0;

	trace_raw_layout(sp->t, &l);
	buf = xmalloc(CHUNK * l.size);
	for (k = from; rc == 0; k += n) {
		if (sp->halt && __atomic_load_n(sp->halt, __ATOMIC_RELAXED))
			break;
		if (to == TO_CUT)
			n = range0_take(sp, k);
		else
			n = to - k < CHUNK ? (size_t)(to - k) : CHUNK;
		if (n == 0)
			break;
		if (trace_read_raw_at(sp->t, k, n, buf, &off, err) < 0) {
			rc = -1;
		} else if (scan) {
			scan_add_raw(scan, &l, buf, n);
		} else if (feed == FEED_CORRECT) {
			rc = profile_correct_add_raw(prof, &l, buf, n, off, err);
		} else if (profile_add_raw(prof, &l, buf, n, off, err) < 0) {
			rc = -1;
		} else if (profile_abandoned(prof)) {
			break;
		} else {
			uint64_t done = __atomic_add_fetch(&sp->done, n, __ATOMIC_RELAXED);

			if (tell && sp->progress)
				sp->progress->fn(sp->progress->ctx, done, sp->count);
		}
	}
	free(buf);
	return rc;
}

int replay_cut_due(const struct replay_pace *pc)
{
	unsigned __int128 ahead, rest;

	if (pc->at <= pc->done || pc->at > pc->count)
		return 0;
	ahead = (unsigned __int128)(pc->at - pc->done) * 1000;
	rest = (unsigned __int128)(pc->count - pc->at) * pc->later_cost;
	return ahead >= rest;
}

/* Range 1's thread: range 0 scanned from snap_at, a chunk at a time, until
 * replay_cut_due says that range 0 ends there, beyond what range 0's
 * replay has claimed.  0; or -1 when the scan fails to read, meets what
 * keeps the range from being replayed apart, or reaches the span's end:
 * range 0 then takes it all. */
static int scan_live(struct split *sp, struct cg_scan *scan)
{
	struct cg_error err = { { 0 }, 0, 0 };
	struct replay_pace pc;
	uint64_t k;
	int cut = 0;

	memset(&pc, 0, sizeof(pc));
	pc.count = sp->count;
	pc.later_cost = LATER;
	for (k = sp->snap_at; !cut && k < sp->count && !scan_cut_fails(scan); ) {
		uint64_t to = sp->count - k < CHUNK ? sp->count : k + CHUNK;

		if (read_range(sp, k, to, scan, NULL, 0, FEED_REPLAY, &err) < 0)
			break;
		k = to;
		pc.at = k;
		pc.done = __atomic_load_n(&sp->done, __ATOMIC_RELAXED);
		if (!replay_cut_due(&pc))
			continue;
		pthread_mutex_lock(&sp->mu);
		if (sp->claimed <= k) {
			sp->cut = cut = 1;
			sp->rs[0].to = sp->rs[1].from = k;
		}
		pthread_mutex_unlock(&sp->mu);
	}
	if (cut)
		return 0;
	pthread_mutex_lock(&sp->mu);
	sp->cut = 1;
	sp->rs[0].to = sp->rs[1].from = sp->count;
	pthread_mutex_unlock(&sp->mu);
	return -1;
}

/* Scan range i-1 for range i; the last scan in composes them all. */
static void range_scan(struct range *r)
{
	struct split *sp = r->sp;
	const struct range *prev = &sp->rs[r->index - 1];
	struct cg_error err = { { 0 }, 0, 0 };
	uint64_t from = sp->snap_at ? sp->snap_at : prev->from;
	int bad;
	unsigned i;

	if (sp->live)
		bad = scan_live(sp, sp->scans[r->index - 1]);
	else
		bad = read_range(sp, from, prev->to, sp->scans[r->index - 1], NULL, 0, FEED_REPLAY,
				 &err);
	pthread_mutex_lock(&sp->mu);
	sp->scan_failed |= bad;
	if (--sp->scans_left == 0) {
		while (sp->snap_at && !sp->snapped)
			pthread_cond_wait(&sp->cv, &sp->mu);
		/* A read error leaves it to the replay in order to meet, as does
		 * a range 0 that gave no state. */
		if (sp->scan_failed || (sp->snap_at && !sp->snap))
			sp->st = NULL;
		else if (sp->snap_at)
			sp->st = stitch_create_from(sp->snap, sp->nsnap, sp->scans, sp->n - 1);
		else
			sp->st = stitch_create(sp->scans, sp->n - 1);
		for (i = 0; i + 1 < sp->n; i++) {
			scan_free(sp->scans[i]);
			sp->scans[i] = NULL;
		}
		sp->composed = 1;
		pthread_cond_broadcast(&sp->cv);
	}
	pthread_mutex_unlock(&sp->mu);
}

/* The calling-context tree c as p's only observer. */
static void observe_tree(struct cg_profile *p, struct cg_cct *c)
{
	struct cg_observer o = { 0 };

	cct_observer(c, &o);
	profile_set_observer(p, &o);
}

/* Replay range i from its composed state, once the scans are composed. */
static void range_replay(struct range *r)
{
	struct split *sp = r->sp;
	const struct cg_seed *seeds;
	size_t n;

	pthread_mutex_lock(&sp->mu);
	while (!sp->composed)
		pthread_cond_wait(&sp->cv, &sp->mu);
	pthread_mutex_unlock(&sp->mu);
	if (!sp->st || r->index > stitch_ranges(sp->st))
		return;
	r->prof = profile_create(trace_symtab(sp->t), &sp->opts);
	if (sp->cct)
		observe_tree(r->prof, r->cct = cct_create_like(sp->cct));
	n = stitch_seeds(sp->st, r->index, &seeds);
	profile_seed(r->prof, seeds, n);
	profile_first_record(r->prof, r->from);
	if (read_range(sp, r->from, r->to, NULL, r->prof, 0, FEED_REPLAY, &r->err) < 0)
		r->failed = 1;
	else if (r->cct)
		cct_seal(r->cct);
}

static void *range_thread(void *arg)
{
	range_scan(arg);
	range_replay(arg);
	return NULL;
}

/* Cut count records into sp->n ranges, the first the longest (see above). */
static void cut(struct split *sp, uint64_t count)
{
	unsigned __int128 scan = sp->cct ? SCAN_CCT : sp->opts.global ? SCAN_GLOBAL : SCAN_THREADS;
	unsigned __int128 cost = LATER;
	/* A later range's weight: its thread scans (scan) the range before
	 * it while range 0 is replayed (1000 a record), and its own records
	 * cost `cost` each. */
	unsigned __int128 later = (1000 - scan) * 1000 / cost;
	unsigned __int128 total = 1000 + (sp->n - 1) * later, at = 1000;
	unsigned i;

	if (sp->n == 2) {
		/* Range 1's thread scans range 0 from snap_at, where range 0's
		 * replay has come when the scan is done, and then replays
		 * range 1 while range 0's ends: snap_at * 1000 = (to -
		 * snap_at) * scan, and to * 1000 = snap_at * 1000 + (count -
		 * to) * cost, so that to = count * cost * (1000 + scan) /
		 * (1000000 + cost * (1000 + scan)).  snap_at is taken at
		 * three quarters of that: range 0's first records cost more
		 * (its tables start empty), and a scan done before range 0
		 * reached snap_at waited for it (up to 0.08 s of 1.2 with the
		 * tree on the 1 GiB trace); the records scanned in addition
		 * take about 0.01 s. */
		unsigned __int128 w = cost * (1000 + scan);

		sp->rs[0].to = (uint64_t)(count * w / (1000000 + w));
		sp->snap_at = (uint64_t)(sp->rs[0].to * scan / (1000 + scan) * 3 / 4);
		sp->rs[1].from = sp->rs[0].to;
		sp->rs[1].to = count;
		return;
	}

	sp->rs[0].to = (uint64_t)(count * at / total);
	for (i = 1; i < sp->n; i++) {
		sp->rs[i].from = sp->rs[i - 1].to;
		at += later;
		sp->rs[i].to = (uint64_t)(count * at / total);
	}
	sp->rs[sp->n - 1].to = count;
}

/* Sum the replayed ranges into p (range 0's profile), in order, up to the
 * first that cannot be used; its index, or sp->n when all were.  -1 with
 * err filled when the first error in file order is a range's. */
static int sum_ranges(struct split *sp, struct cg_profile *p, struct cg_error *err)
{
	const struct cg_profile *last = p;
	unsigned i;

	if (!sp->st || stitch_ranges(sp->st) == 0)
		return 1; /* p's stacks are still those at the end of range 0 */
	profile_park(p);
	for (i = 1; i < sp->n; i++) {
		struct range *r = &sp->rs[i];

		if (!r->prof)
			break; /* the trace cannot be cut at its start */
		if (r->failed) {
			*err = r->err;
			return -1;
		}
		if (profile_abandoned(r->prof))
			break;
		/* A tree that took a frame entered before tracing would have
		 * moved what came before it: the rest is replayed in order. */
		if (r->cct && (cct_adopts(r->cct) || !profile_threads_follow(p, r->prof)))
			break;
		profile_park(r->prof);
		profile_merge(p, r->prof);
		if (r->cct)
			cct_merge(sp->cct, r->cct);
		last = r->prof;
	}
	profile_unpark(p, last);
	return (int)i;
}

/* Frames entered before tracing, in a global profile: the records up to
 * the last exit that met an empty stack, once more.  0, or -1 with err
 * filled. */
static int correct(struct split *sp, struct cg_profile *p, struct cg_error *err)
{
	uint64_t again = profile_correct_count(p);

	if (!again)
		return 0;
	if (read_range(sp, 0, again, NULL, p, 0, FEED_CORRECT, err) < 0)
		return -1;
	profile_correct_end(p);
	return 0;
}

int replay_span(struct cg_trace *t, struct cg_profile *p, uint64_t count,
		const struct cg_progress *progress, struct cg_error *err)
{
	struct split sp;

	memset(&sp, 0, sizeof(sp));
	sp.t = t;
	sp.count = count;
	sp.progress = progress;
	if (read_range(&sp, 0, count, NULL, p, 1, FEED_REPLAY, err) < 0 || correct(&sp, p, err) < 0)
		return -1;
	trace_skip(t, count);
	return 0;
}

/* The replay beside: its profile, its split, whether it failed. */
struct beside {
	struct split sp;
	struct cg_profile *p;
	struct cg_error err;
	int failed;
};

/* A replay of the span that halts the other (sp->halt) when it stops
 * early: it failed, or it was abandoned. */
static int replay_halting(struct split *sp, struct cg_profile *p, int tell, struct cg_error *err)
{
	int rc = read_range(sp, 0, sp->count, NULL, p, tell, FEED_REPLAY, err);

	if (rc < 0 || profile_abandoned(p))
		__atomic_store_n(sp->halt, 1, __ATOMIC_RELAXED);
	return rc;
}

static void *beside_thread(void *arg)
{
	struct beside *b = arg;

	b->failed = replay_halting(&b->sp, b->p, 0, &b->err) < 0;
	/* Its observers end here, while the other replay may still run. */
	if (!b->failed && !__atomic_load_n(b->sp.halt, __ATOMIC_RELAXED))
		profile_end_observed(b->p);
	return NULL;
}

int replay_beside(struct cg_trace *t, struct cg_profile *p, struct cg_profile *side,
		  uint64_t count, const struct cg_progress *progress, int *side_done,
		  struct cg_error *err)
{
	struct split sp;
	struct beside b;
	pthread_t thr;
	int halt = 0, spawned, rc;

	memset(&sp, 0, sizeof(sp));
	memset(&b, 0, sizeof(b));
	sp.t = b.sp.t = t;
	sp.count = b.sp.count = count;
	sp.progress = progress;
	sp.halt = b.sp.halt = &halt;
	b.p = side;
	spawned = thread_start_stack(&thr, THREAD_STACK, beside_thread, &b) == 0;
	rc = replay_halting(&sp, p, 1, err);
	if (spawned)
		pthread_join(thr, NULL);
	else if (rc == 0 && !halt)
		beside_thread(&b); /* no thread: one after the other */
	*side_done = !halt && !b.failed;
	if (rc < 0)
		return -1;
	if (halt)
		return 0; /* abandoned, or the side failed: the caller starts again */
	sp.halt = NULL;
	profile_share_symtab(p, 0);
	if (correct(&sp, p, err) < 0)
		return -1;
	trace_skip(t, count);
	return 0;
}

struct cg_profile *replay_split(struct cg_trace *t, const struct cg_profile_opts *po,
				struct cg_cct *cct, uint64_t count, unsigned ranges,
				const struct cg_progress *progress, int *failed, struct cg_error *err)
{
	struct split sp;
	struct cg_profile *p = NULL;
	unsigned i;
	int next, ok = 0;

	memset(&sp, 0, sizeof(sp));
	*failed = 0;
	sp.t = t;
	sp.opts = *po;
	sp.opts.shared_symtab = 1;
	sp.cct = cct;
	sp.n = ranges;
	sp.count = count;
	sp.progress = progress;
	sp.rs = xcalloc(ranges, sizeof(*sp.rs));
	sp.scans = xcalloc(ranges, sizeof(*sp.scans));
	sp.scans_left = ranges - 1;
	pthread_mutex_init(&sp.mu, NULL);
	pthread_cond_init(&sp.cv, NULL);
	cut(&sp, count);
	sp.live = ranges == 2 && sp.snap_at && count >= CUT_LIVE_MIN;
	for (i = 0; i < ranges; i++) {
		sp.rs[i].sp = &sp;
		sp.rs[i].index = i;
		if (i + 1 < ranges)
			sp.scans[i] = scan_create(sp.opts.clock == CG_USE_CPU, SCAN_DEPTH);
	}
	for (i = 1; i < ranges; i++)
		sp.rs[i].spawned =
			thread_start_stack(&sp.rs[i].thr, THREAD_STACK, range_thread, &sp.rs[i]) == 0;
	if (!sp.rs[1].spawned)
		sp.live = 0; /* range 1 is scanned after range 0, where cut() says */
	p = sp.rs[0].prof = profile_create(trace_symtab(t), &sp.opts);
	if (cct)
		observe_tree(p, cct);
	if (sp.snap_at) {
		/* The state at snap_at for range 1's thread, or word that there
		 * will be none, before anything else. */
		sp.rs[0].failed = read_range(&sp, 0, sp.snap_at, NULL, p, 1, FEED_REPLAY,
					     &sp.rs[0].err) < 0;
		pthread_mutex_lock(&sp.mu);
		if (!sp.rs[0].failed && !profile_abandoned(p))
			sp.nsnap = profile_snapshot(p, &sp.snap, &sp.snap_frames);
		sp.snapped = 1;
		pthread_cond_broadcast(&sp.cv);
		pthread_mutex_unlock(&sp.mu);
		if (sp.snap)
			sp.rs[0].failed = read_range(&sp, sp.snap_at, sp.live ? TO_CUT : sp.rs[0].to,
						     NULL, p, 1, FEED_REPLAY, &sp.rs[0].err) < 0;
	} else {
		sp.rs[0].failed = read_range(&sp, 0, sp.rs[0].to, NULL, p, 1, FEED_REPLAY,
					     &sp.rs[0].err) < 0;
	}
	/* Ranges whose thread did not start: their scans first, then (the
	 * scans composed) their replays. */
	for (i = 1; i < ranges; i++)
		if (!sp.rs[i].spawned)
			range_scan(&sp.rs[i]);
	for (i = 1; i < ranges; i++)
		if (sp.rs[i].spawned)
			pthread_join(sp.rs[i].thr, NULL);
	for (i = 1; i < ranges; i++)
		if (!sp.rs[i].spawned)
			range_replay(&sp.rs[i]);
	if (sp.rs[0].failed) {
		*err = sp.rs[0].err;
		*failed = 1;
		goto done;
	}
	if (profile_abandoned(p))
		goto done; /* the reader has not moved: replay it all in order */
	next = sum_ranges(&sp, p, err);
	if (next < 0) {
		*failed = 1;
		goto done;
	}
	if ((unsigned)next < ranges) {
		profile_share_symtab(p, 0);
		if (read_range(&sp, sp.rs[next].from, count, NULL, p, 1, FEED_REPLAY, err) < 0) {
			*failed = 1;
			goto done;
		}
	}
	if (correct(&sp, p, err) < 0) {
		*failed = 1;
		goto done;
	}
	trace_skip(t, count);
	sp.rs[0].prof = NULL; /* p is the caller's */
	ok = 1;
done:
	for (i = 0; i < ranges; i++) {
		scan_free(sp.scans[i]);
		profile_free(sp.rs[i].prof);
		cct_free(sp.rs[i].cct);
	}
	stitch_free(sp.st);
	free(sp.snap);
	free(sp.snap_frames);
	pthread_mutex_destroy(&sp.mu);
	pthread_cond_destroy(&sp.cv);
	free(sp.scans);
	free(sp.rs);
	return ok ? p : NULL;
}
