/* tick.h - a thread's 64-bit clock from the 32-bit times records carry;
 * shared by the replay (profile.c) and the range scans (stitch.c), which
 * must advance clocks identically. */
#ifndef CG_TICK_H
#define CG_TICK_H

#include <stdint.h>

enum tick_kind { TICK_FORWARD, TICK_WRAP, TICK_BACK };

/* Advance *now to raw time `raw` from the last raw time *prev (updated).  A
 * backward step of more than 2^31 is a wrap; a smaller one counts as zero. */
static inline enum tick_kind tick_step(uint32_t *prev, uint64_t *now, uint32_t raw)
{
	enum tick_kind k = TICK_FORWARD;

	if (raw >= *prev) {
		*now += raw - *prev;
	} else if (*prev - raw > 0x80000000u) {
		*now += (uint64_t)raw + 0x100000000ULL - *prev;
		k = TICK_WRAP;
	} else {
		k = TICK_BACK;
	}
	*prev = raw;
	return k;
}

#endif
