/* profile_open.c - the methods with an outermost activation open on a
 * thread of a profile of global tables (profile_global.c): a frame that
 * opens its method's line on its thread is that method's outermost
 * activation there, and its time is what the method's inclusive time
 * counts.  A profile without tables (profile_bare.c) marks methods by their
 * symtab index instead of a line, for its exits that do not match the top
 * frame.  The common case, a bit per line, is inline in profile_impl.h;
 * here are its growth and the set that replaces it past a budget. */
#include <stdlib.h>
#include <string.h>

#include "model/profile_impl.h"

/* A thread marks its open lines in a bit per line while all threads' bits
 * fit in ON_BUDGET bytes; past it (thousands of threads of hundreds of
 * thousands of methods), in a hash set bounded by its stack's depth.  Lines leave the set in the
 * reverse order they came in (a stack's), so a deletion seldom has
 * anything to shift back. */
#define ON_BUDGET (32u << 20)

static inline uint32_t set_home(const struct tstate *ts, uint32_t line)
{
	return (line * 0x9E3779B1u) >> ts->open_shift;
}

static void set_grow(struct tstate *ts)
{
	uint32_t *old = ts->open, i, n = ts->open ? ts->open_mask + 1 : 0;

	ts->open_shift = old ? ts->open_shift - 1 : 28;
	ts->open_mask = (1u << (32 - ts->open_shift)) - 1;
	ts->open = xmalloc(((size_t)ts->open_mask + 1) * sizeof(*ts->open));
	memset(ts->open, 0xff, ((size_t)ts->open_mask + 1) * sizeof(*ts->open));
	for (i = 0; i < n; i++) {
		uint32_t v = old[i], k;

		if (v == NIL)
			continue;
		for (k = set_home(ts, v); ts->open[k] != NIL; k = (k + 1) & ts->open_mask)
			;
		ts->open[k] = v;
	}
	free(old);
}

static int set_has(const struct tstate *ts, uint32_t line)
{
	uint32_t k, v;

	if (!ts->open)
		return 0;
	for (k = set_home(ts, line); (v = ts->open[k]) != NIL; k = (k + 1) & ts->open_mask)
		if (v == line)
			return 1;
	return 0;
}

static int set_enter(struct tstate *ts, uint32_t line)
{
	uint32_t k, v;

	if ((ts->nopen + 1) * 2 > (size_t)ts->open_mask + 1 || !ts->open)
		set_grow(ts);
	for (k = set_home(ts, line); (v = ts->open[k]) != NIL; k = (k + 1) & ts->open_mask)
		if (v == line)
			return 0;
	ts->open[k] = line;
	ts->nopen++;
	return 1;
}

/* Linear probing's deletion, by backward shift. */
void profile_open_leave_set(struct tstate *ts, uint32_t line)
{
	uint32_t mask = ts->open_mask, i, j, h;

	for (i = set_home(ts, line); ts->open[i] != line; i = (i + 1) & mask)
		;
	for (j = i;;) {
		j = (j + 1) & mask;
		if (ts->open[j] == NIL)
			break;
		h = set_home(ts, ts->open[j]);
		/* Move it back unless its home lies cyclically in (i, j]. */
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		ts->open[i] = ts->open[j];
		i = j;
	}
	ts->open[i] = NIL;
	ts->nopen--;
}

int profile_open_slow(struct cg_profile *p, struct tstate *ts, uint32_t line)
{
	if (!ts->open && !ts->set_mode) {
		/* Bits for every line (method, without tables) there is, in
		 * whole bytes. */
		size_t keys = p->bare ? symtab_method_count(p->st) : p->cap_lines;
		size_t want = ((keys > line ? keys : (size_t)line + 1) + 7) / 8 * 8;
		size_t have = ts->non / 8, bytes = want / 8;

		if (p->on_bytes - have + bytes <= ON_BUDGET) {
			ts->on = xrealloc(ts->on, bytes);
			memset(ts->on + have, 0, bytes - have);
			p->on_bytes += bytes - have;
			ts->non = want;
			ts->on[line >> 3] |= (unsigned char)(1u << (line & 7));
			return 1;
		} else {
			size_t d;

			for (d = 0; d < ts->depth; d++)
				if (ts->stack[d].own)
					set_enter(ts, ts->stack[d].tm);
			p->on_bytes -= have;
			free(ts->on);
			ts->on = NULL;
			ts->non = 0;
			ts->set_mode = 1;
		}
	}
	return set_enter(ts, line);
}

int profile_open_has(const struct tstate *ts, uint32_t line)
{
	if (!ts->set_mode)
		return line < ts->non && (ts->on[line >> 3] >> (line & 7) & 1);
	return set_has(ts, line);
}
