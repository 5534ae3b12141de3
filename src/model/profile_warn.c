/* profile_warn.c - the model's warnings: stable names and one-line texts. */
#include <stdio.h>

#include "model/profile_impl.h"

static const char *const warn_names[CG_W_COUNT] = {
	[CG_W_OVERFLOW] = "overflow",
	[CG_W_SAMPLING] = "sampling",
	[CG_W_UNKNOWN_METHOD] = "unknown-method",
	[CG_W_EXIT_EMPTY] = "exit-without-entry",
	[CG_W_MISMATCH_POP] = "mismatched-exit",
	[CG_W_MISMATCH_IGNORED] = "ignored-exit",
	[CG_W_CLOCK_BACK] = "clock-backwards",
	[CG_W_CLOCK_WRAP] = "clock-wrap",
	[CG_W_ACTION3] = "action-3",
	[CG_W_TRUNCATED] = "truncated",
};

void profile_warn_message(enum cg_warn w, uint64_t count, char *m, size_t n)
{
	unsigned long long c = (unsigned long long)count;

	switch (w) {
	case CG_W_OVERFLOW:
		snprintf(m, n, "the trace overflowed its buffer: recording stopped early");
		break;
	case CG_W_SAMPLING:
		snprintf(m, n, "sampling-mode trace: call counts are stack changes, not calls");
		break;
	case CG_W_UNKNOWN_METHOD:
		snprintf(m, n, "%llu method id%s not in the key, shown as unknown.0x<id>", c,
			 c == 1 ? "" : "s");
		break;
	case CG_W_EXIT_EMPTY:
		snprintf(m, n, "%llu exit%s of frames entered before tracing began", c, c == 1 ? "" : "s");
		break;
	case CG_W_MISMATCH_POP:
		snprintf(m, n, "%llu exit%s did not match the top of the stack and popped down to their frame",
			 c, c == 1 ? "" : "s");
		break;
	case CG_W_MISMATCH_IGNORED:
		snprintf(m, n, "%llu exit%s of methods not on the stack ignored", c, c == 1 ? "" : "s");
		break;
	case CG_W_CLOCK_BACK:
		snprintf(m, n, "time went backwards %llu time%s on a thread; counted as zero", c,
			 c == 1 ? "" : "s");
		break;
	case CG_W_CLOCK_WRAP:
		snprintf(m, n, "32-bit time wrapped %llu time%s", c, c == 1 ? "" : "s");
		break;
	case CG_W_ACTION3:
		snprintf(m, n, "%llu record%s with undefined action 3, treated as exits", c,
			 c == 1 ? "" : "s");
		break;
	case CG_W_TRUNCATED:
		snprintf(m, n, "the trace ends early: mid-record, before its num-method-calls records "
			 "or without its summary (truncated?)");
		break;
	default:
		m[0] = '\0';
	}
}


const char *profile_warn_name(enum cg_warn w)
{
	return w < CG_W_COUNT ? warn_names[w] : "";
}
