/* Windows and frames: --range parsing, the records a window makes at its
 * edges, and frames with their percentiles and breakdowns, on hand-written
 * records whose numbers are worked out in the comments. */
#include <stdlib.h>

#include "model/frames.h"
#include "model/profile.h"
#include "model/window.h"
#include "read/symtab.h"
#include "unit.h"

#define F 0x10u   /* android.view.Choreographer.doFrame */
#define G 0x20u   /* com.ex.A.g */
#define H 0x30u   /* com.ex.A.h */

enum { EN = CG_ENTER, EX = CG_EXIT };

UNIT_TEST(window_parse_forms)
{
	struct cg_window_spec s;
	uint64_t frame = 0;

	CHECK(window_parse("12.5:20", &s, &frame) == 0);
	CHECK_EQ_U64(s.from_us, 12500);
	CHECK_EQ_U64(s.to_us, 20000);
	CHECK(window_parse("0.001:", &s, &frame) == 0);
	CHECK_EQ_U64(s.from_us, 1);
	CHECK(s.to_us == WINDOW_OPEN_TO);
	CHECK(window_parse(":.25", &s, &frame) == 0);
	CHECK(s.from_us == WINDOW_OPEN_FROM);
	CHECK_EQ_U64(s.to_us, 250);
	CHECK(window_parse(":", &s, &frame) == 0);
	CHECK(s.from_us == WINDOW_OPEN_FROM && s.to_us == WINDOW_OPEN_TO);
	CHECK(window_parse("3:3", &s, &frame) == 0);
	CHECK(window_parse("frame:17", &s, &frame) == 1);
	CHECK_EQ_U64(frame, 17);
	return 0;
}

UNIT_TEST(window_parse_refuses)
{
	static const char *const bad[] = {
		"5:3", "abc", "frame:0", "frame:", "frame:x", "1.2345:2", "3", "", "1:2:3",
		"-1:2", "1e3:2", ".:1", "1..2:3", "99999999999999999999:",
	};
	struct cg_window_spec s;
	uint64_t frame;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (window_parse(bad[i], &s, &frame) != -1) {
			fprintf(stderr, "  accepted '%s'\n", bad[i]);
			return 1;
		}
	}
	return 0;
}

static void rec(struct cg_record *r, uint32_t tid, int act, uint32_t id, uint32_t wall,
		uint32_t cpu)
{
	memset(r, 0, sizeof(*r));
	r->tid = tid;
	r->action = (uint8_t)act;
	r->method = id;
	r->t_wall = wall;
	r->t_cpu = cpu;
}

/* Origin 100 (the first record's wall time); the window [300, 800] us from
 * it is wall 400..900.  Thread 1: G entered at 100 (cpu 10), H at 200 (20),
 * H leaves at 700 (60), G at 900 (80).  Thread 2: H entered at 150 (cpu 5),
 * left at 950 (9).  Thread 1's first record in the window is H's exit at
 * 700: G and H are entered before it at wall 400 and at its cpu time, 60;
 * G leaves at 900, the window's last microsecond.  Thread 2 has no record
 * in the window and H open across it: its exit at 950 is after the window,
 * so H is entered at 400 and closed at 900, both at its last cpu time, 5. */
UNIT_TEST(window_records_at_edges)
{
	struct cg_window_spec s = { 300, 800 };
	struct cg_window *w = window_create(&s);
	struct cg_record in[6];
	const struct cg_record *out;
	const struct cg_window_thread *mt;
	size_t n;

	rec(&in[0], 1, EN, G, 100, 10);
	rec(&in[1], 2, EN, H, 150, 5);
	rec(&in[2], 1, EN, H, 200, 20);
	rec(&in[3], 1, EX, H, 700, 60);
	rec(&in[4], 1, EX, G, 900, 80);
	rec(&in[5], 2, EX, H, 950, 9);
	n = window_add(w, in, 6, &out);
	CHECK_EQ_U64(n, 6);
	CHECK(out[0].tid == 1 && out[0].action == EN && out[0].method == G);
	CHECK_EQ_U64(out[0].t_wall, 400);
	CHECK_EQ_U64(out[0].t_cpu, 60);
	CHECK(out[1].method == H && out[1].action == EN && out[1].t_wall == 400);
	CHECK(out[2].method == H && out[2].action == EX && out[2].t_wall == 700);
	CHECK(out[3].method == G && out[3].action == EX && out[3].t_wall == 900);
	CHECK(out[4].tid == 2 && out[4].action == EN && out[4].t_wall == 400 && out[4].t_cpu == 5);
	CHECK(out[5].tid == 2 && out[5].action == EX && out[5].t_wall == 900 && out[5].t_cpu == 5);
	CHECK_EQ_U64(window_kept(w), 2);
	CHECK(window_cuts(w));
	n = window_made(w, &mt);
	CHECK_EQ_U64(n, 2);
	CHECK(mt[0].tid == 1 && mt[0].made == 2);
	CHECK(mt[1].tid == 2 && mt[1].made == 2);
	window_free(w);
	return 0;
}

/* Open sides pass every record through unchanged. */
UNIT_TEST(window_whole_trace)
{
	struct cg_window_spec s = { WINDOW_OPEN_FROM, WINDOW_OPEN_TO };
	struct cg_window *w = window_create(&s);
	struct cg_record in[3];
	const struct cg_record *out;

	rec(&in[0], 1, EX, G, 100, 10); /* entered before tracing */
	rec(&in[1], 1, EN, H, 200, 20);
	rec(&in[2], 3, EN, G, 300, 30);
	CHECK_EQ_U64(window_add(w, in, 3, &out), 3);
	CHECK(memcmp(out, in, sizeof(in)) == 0);
	CHECK(!window_cuts(w));
	window_free(w);
	return 0;
}

/* Frames of doFrame on thread 1 (wall, cpu):
 *   [0, 1000] cpu [0, 100], G inside from 200 to 900 (cpu 20..90): G self
 *     700/70, doFrame self 300/30;
 *   a recursive doFrame inside the second frame is no frame of its own;
 *   [2000, 2500] cpu [200, 450], [3000, 6000] cpu [500, 600].
 * Walls 1000, 500, 3000: p50 = 1000 (2nd of 3), p90 = p99 = max = 3000;
 * cpus 100, 250, 100: p50 = 100, p90 = 250.  Slowest: 3, 1, 2. */
UNIT_TEST(frames_percentiles_and_slowest)
{
	static const uint32_t ev[][5] = {
		{ 1, EN, F, 0, 0 },       { 1, EN, G, 200, 20 },    { 1, EX, G, 900, 90 },
		{ 1, EX, F, 1000, 100 },  { 1, EN, F, 2000, 200 },  { 1, EN, F, 2100, 250 },
		{ 1, EX, F, 2400, 400 },  { 1, EX, F, 2500, 450 },  { 1, EN, F, 3000, 500 },
		{ 1, EN, H, 3100, 510 },  { 1, EX, H, 5900, 590 },  { 1, EX, F, 6000, 600 },
	};
	struct cg_profile_opts o = { .clock = CG_USE_WALL };
	struct cg_symtab *st = symtab_create();
	struct cg_profile *p;
	struct cg_frames *fr;
	struct cg_observer obs;
	struct cg_record r[12];
	struct cg_trace_info info = { 0 };
	struct cg_error err;
	const struct cg_frame *list;
	const struct cg_frame_method *m;
	const size_t *slow;
	size_t i;

	symtab_define_method(st, F, "android/view/Choreographer", "doFrame", "(JI)V", "C.java", 0);
	symtab_define_method(st, G, "com/ex/A", "g", "()V", "A.java", 0);
	symtab_define_method(st, H, "com/ex/A", "h", "()V", "A.java", 0);
	symtab_define_thread(st, 1, "main", 0);
	p = profile_create(st, &o);
	fr = frames_create(st, NULL);
	frames_observer(fr, NULL, &obs);
	profile_set_observer(p, &obs);
	for (i = 0; i < 12; i++)
		rec(&r[i], ev[i][0], (int)ev[i][1], ev[i][2], ev[i][3], ev[i][4]);
	CHECK(profile_add(p, r, 12, &err) == 0);
	info.clock = CG_CLOCK_DUAL;
	profile_finish(p, &info);
	frames_finish(fr, p);
	CHECK_EQ_U64(frames_count(fr), 3);
	list = frames_list(fr);
	CHECK_EQ_U64(list[0].wall_us, 1000);
	CHECK_EQ_U64(list[0].cpu_us, 100);
	CHECK_EQ_U64(list[1].wall_us, 500);
	CHECK_EQ_U64(list[1].cpu_us, 250);
	CHECK_EQ_U64(list[2].start, 3000);
	CHECK_EQ_U64(frames_percentile(fr, 0, 50), 1000);
	CHECK_EQ_U64(frames_percentile(fr, 0, 90), 3000);
	CHECK_EQ_U64(frames_percentile(fr, 0, 100), 3000);
	CHECK_EQ_U64(frames_percentile(fr, 1, 50), 100);
	CHECK_EQ_U64(frames_percentile(fr, 1, 90), 250);
	CHECK_EQ_U64(frames_slowest(fr, &slow), 3);
	CHECK(slow[0] == 2 && slow[1] == 0 && slow[2] == 1);
	CHECK_EQ_U64(frames_methods(fr, 0, &m), 2);
	CHECK(m[0].midx == (uint32_t)symtab_find_method(st, G));
	CHECK_EQ_U64(m[0].wall_us, 700);
	CHECK_EQ_U64(m[0].cpu_us, 70);
	CHECK_EQ_U64(m[1].wall_us, 300);
	CHECK_EQ_U64(m[1].cpu_us, 30);
	frames_free(fr);
	profile_free(p);
	symtab_free(st);
	return 0;
}
