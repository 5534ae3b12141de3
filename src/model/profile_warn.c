/* profile_warn.c - the model's warnings: stable names and one-line texts. */
#include <stdio.h>

#include "model/profile_impl.h"

/* Each warning's name and text; a text with a count has "%llu" then "%s"
 * (the plural "s"). */
static const struct {
	const char *name, *text;
} warns[CG_W_COUNT] = {
	[CG_W_OVERFLOW] = { "overflow",
		"the trace overflowed its buffer: recording stopped early" },
	[CG_W_SAMPLING] = { "sampling",
		"sampling-mode trace: call counts are stack changes, not calls" },
	[CG_W_UNKNOWN_METHOD] = { "unknown-method",
		"%llu method id%s not in the key, shown as unknown.0x<id>" },
	[CG_W_EXIT_EMPTY] = { "exit-without-entry",
		"%llu exit%s of frames entered before tracing began" },
	[CG_W_MISMATCH_POP] = { "mismatched-exit",
		"%llu exit%s did not match the top of the stack and popped down to their frame" },
	[CG_W_MISMATCH_IGNORED] = { "ignored-exit",
		"%llu exit%s of methods not on the stack ignored" },
	[CG_W_CLOCK_BACK] = { "clock-backwards",
		"time went backwards %llu time%s on a thread; counted as zero" },
	[CG_W_CLOCK_WRAP] = { "clock-wrap",
		"32-bit time wrapped %llu time%s" },
	[CG_W_ACTION3] = { "action-3",
		"%llu record%s with undefined action 3, treated as exits" },
	[CG_W_TRUNCATED] = { "truncated",
		"the trace ends early: mid-record, before its num-method-calls records "
		"or without its summary (truncated?)" },
};

void profile_warn_message(enum cg_warn w, uint64_t count, char *m, size_t n)
{
	unsigned long long c = (unsigned long long)count;

	if (w >= CG_W_COUNT || !warns[w].text)
		m[0] = '\0';
	else
		snprintf(m, n, warns[w].text, c, c == 1 ? "" : "s");
}

const char *profile_warn_name(enum cg_warn w)
{
	return w < CG_W_COUNT ? warns[w].name : "";
}
