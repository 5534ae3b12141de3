/* test_cut.c - where two ranges replayed at once are cut while they run
 * (replay_cut_due): at the record where what is left of range 0, from
 * where its replay has come to where the scan stands, weighs as much as
 * the rest of the span. */
#include "cli/replay.h"
#include "unit.h"

/* A span of 1 000 000 records; range 0's replay has done 200 000; a
 * record of range 1 costs as much as one of range 0. */
static struct replay_pace pace(uint64_t at)
{
	struct replay_pace pc;

	memset(&pc, 0, sizeof(pc));
	pc.count = 1000000;
	pc.done = 200000;
	pc.at = at;
	pc.later_cost = 1000;
	return pc;
}

UNIT_TEST(cut_due_where_both_threads_have_as_much_left)
{
	/* At a the threads have (a - 200 000) and (1 000 000 - a) records
	 * left: even at 600 000. */
	struct replay_pace pc = pace(590000);

	CHECK(!replay_cut_due(&pc));
	pc = pace(599999);
	CHECK(!replay_cut_due(&pc));
	pc = pace(600000);
	CHECK(replay_cut_due(&pc));
	pc = pace(610000);
	CHECK(replay_cut_due(&pc));
	/* Range 0 further on: even at (1 000 000 + 500 000) / 2. */
	pc = pace(749999);
	pc.done = 500000;
	CHECK(!replay_cut_due(&pc));
	pc.at = 750000;
	CHECK(replay_cut_due(&pc));
	return 0;
}

UNIT_TEST(cut_due_follows_the_cost_of_range_1s_records)
{
	/* Records of range 1 at 1.5 times range 0's: (a - 200 000) = 1.5
	 * (1 000 000 - a) at 680 000. */
	struct replay_pace pc = pace(679999);

	pc.later_cost = 1500;
	CHECK(!replay_cut_due(&pc));
	pc.at = 680000;
	CHECK(replay_cut_due(&pc));
	/* At half: (a - 200 000) = (1 000 000 - a) / 2 at 466 666.7. */
	pc = pace(466666);
	pc.later_cost = 500;
	CHECK(!replay_cut_due(&pc));
	pc.at = 466667;
	CHECK(replay_cut_due(&pc));
	return 0;
}

UNIT_TEST(cut_due_never_behind_range_0_or_past_the_end)
{
	/* A scan behind range 0's replay, or level with it, cuts nothing. */
	struct replay_pace pc = pace(200000);

	CHECK(!replay_cut_due(&pc));
	pc = pace(150000);
	CHECK(!replay_cut_due(&pc));
	/* At the span's end with range 0 just behind: due. */
	pc = pace(1000000);
	pc.done = 999999;
	CHECK(replay_cut_due(&pc));
	pc.at = 1000001;
	CHECK(!replay_cut_due(&pc));
	/* Spans of billions of records: no overflow. */
	pc.count = (uint64_t)1 << 62;
	pc.done = pc.count / 4;
	pc.at = pc.count / 8 * 5;
	pc.later_cost = 1000;
	CHECK(replay_cut_due(&pc));
	pc.at = pc.count / 8 * 5 - 1;
	CHECK(!replay_cut_due(&pc));
	return 0;
}
