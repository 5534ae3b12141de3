/* test_cut.c - where two ranges replayed at once are cut while they run
 * (replay_cut_due): at the record where what is left of range 0 takes its
 * thread as long as the rest of the span takes the other, at the speeds
 * both have shown and the layout's costs. */
#include "cli/replay.h"
#include "unit.h"

/* A span of 1 000 000 records; range 0's replay has done 200 000 in
 * 200 000 ns (a record a ns); the scan has scanned `per_ns` records a ns;
 * a scanned record costs a quarter of a replayed one, a record of range 1
 * as much as one of range 0. */
static struct replay_pace pace(uint64_t at, uint64_t per_ns)
{
	struct replay_pace pc;

	memset(&pc, 0, sizeof(pc));
	pc.count = 1000000;
	pc.done = 200000;
	pc.run_ns = 200000;
	pc.scanned = 400000;
	pc.scan_ns = pc.scanned / per_ns;
	pc.at = at;
	pc.scan_cost = 250;
	pc.later_cost = 1000;
	return pc;
}

UNIT_TEST(cut_due_where_both_threads_finish_together)
{
	/* Cores of one speed: the scan does 4 records a ns, so range 1 will
	 * replay 1 a ns, and at a the threads have (a - 200 000) and
	 * (1 000 000 - a) records left: even at 600 000. */
	struct replay_pace pc = pace(590000, 4);

	CHECK(!replay_cut_due(&pc));
	pc = pace(599999, 4);
	CHECK(!replay_cut_due(&pc));
	pc = pace(600000, 4);
	CHECK(replay_cut_due(&pc));
	pc = pace(610000, 4);
	CHECK(replay_cut_due(&pc));
	return 0;
}

UNIT_TEST(cut_due_later_when_the_scanning_core_is_slower)
{
	/* The scan at 2 records a ns: range 1 will replay half a record a
	 * ns, so a - 200 000 = 2 (1 000 000 - a) at a = 733 333.3. */
	struct replay_pace pc = pace(733000, 2);

	CHECK(!replay_cut_due(&pc));
	pc = pace(733334, 2);
	CHECK(replay_cut_due(&pc));
	/* Faster: 8 a ns, 2 replayed a ns, a - 200 000 = (1 000 000 - a) / 2
	 * at 466 666.7. */
	pc = pace(466000, 8);
	CHECK(!replay_cut_due(&pc));
	pc = pace(466667, 8);
	CHECK(replay_cut_due(&pc));
	return 0;
}

UNIT_TEST(cut_due_follows_the_layout_costs)
{
	/* Records of range 1 at 1.5 times range 0's: (a - 200 000) = 1.5
	 * (1 000 000 - a) at 680 000. */
	struct replay_pace pc = pace(679000, 4);

	pc.later_cost = 1500;
	CHECK(!replay_cut_due(&pc));
	pc.at = 680000;
	CHECK(replay_cut_due(&pc));
	/* A scanned record at half a replayed one: the scan's 4 a ns are 2
	 * replayed, and the even point is 466 666.7 as above. */
	pc = pace(466000, 4);
	pc.scan_cost = 500;
	CHECK(!replay_cut_due(&pc));
	pc.at = 466667;
	CHECK(replay_cut_due(&pc));
	return 0;
}

UNIT_TEST(cut_due_waits_for_range_0s_speed)
{
	/* Range 0's first sixteenth of the span: its speed is not yet told,
	 * however far the scan has come. */
	struct replay_pace pc = pace(990000, 4);

	pc.done = 62499;
	pc.run_ns = 62499;
	CHECK(!replay_cut_due(&pc));
	pc.done = 62500;
	pc.run_ns = 62500;
	CHECK(replay_cut_due(&pc));
	/* A scan behind range 0's replay cuts nothing. */
	pc = pace(200000, 4);
	CHECK(!replay_cut_due(&pc));
	pc = pace(150000, 4);
	CHECK(!replay_cut_due(&pc));
	/* Nothing scanned yet in measurable time. */
	pc = pace(900000, 4);
	pc.scan_ns = 0;
	CHECK(!replay_cut_due(&pc));
	return 0;
}
