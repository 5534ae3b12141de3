/* trace_v2meta.c - what a V2 file says besides its records: 64-bit method
 * ids and their 32-bit keys, thread ids, and the METHOD-INFO, THREAD-INFO
 * and SUMMARY packets. */
#include "read/trace_v2int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/symtab.h"
#include "util/util.h"

/* ---- method ids -------------------------------------------------------- */

static size_t meth_slot(const struct cg_v2 *v, uint64_t id)
{
	size_t mask = v->nslots - 1, i = (size_t)hash64(id) & mask;

	while (v->slots[i] && v->m[v->slots[i] - 1].id != id)
		i = (i + 1) & mask;
	return i;
}

/* The entry of id, created (undefined, first used at `off`) when new. */
static struct v2_meth *meth_get(struct cg_trace *t, uint64_t id, uint64_t off, int *created)
{
	struct cg_v2 *v = t->v2;
	size_t s;
	struct v2_meth *e;

	*created = 0;
	s = meth_slot(v, id);
	if (v->slots[s])
		return &v->m[v->slots[s] - 1];
	if ((v->nm + 1) * 2 > v->nslots) {
		free(v->slots);
		v->nslots *= 2;
		v->slots = xcalloc(v->nslots, sizeof(*v->slots));
		for (size_t i = 0; i < v->nm; i++)
			v->slots[meth_slot(v, v->m[i].id)] = (uint32_t)i + 1;
		s = meth_slot(v, id);
	}
	v->m = xgrow(v->m, &v->capm, v->nm + 1, sizeof(*v->m));
	e = &v->m[v->nm];
	e->id = id;
	e->first_ref = off;
	e->key = (uint32_t)v->nm;
	e->defined = 0;
	v->slots[s] = (uint32_t)++v->nm;
	*created = 1;
	return e;
}

uint32_t v2_meth_key_slow(struct cg_trace *t, uint64_t id, uint64_t off)
{
	struct cg_v2 *v = t->v2;
	struct v2_meth *e;
	int created;

	e = meth_get(t, id, off, &created);
	if (created)
		symtab_set_id(t->st, symtab_method_index(t->st, e->key), id);
	v->last_id = id;
	v->last_key = e->key;
	v->last_valid = 1;
	return e->key;
}

/* ---- threads ----------------------------------------------------------- */

uint32_t v2_stack_of(struct cg_v2 *v, uint32_t tid)
{
	uint32_t i = itab_find(&v->stack_tab, tid, v->stacks, sizeof(*v->stacks));

	if (i != ITAB_NONE)
		return i;
	v->stacks = xgrow(v->stacks, &v->cap_stacks, v->nstacks + 1, sizeof(*v->stacks));
	memset(&v->stacks[v->nstacks], 0, sizeof(*v->stacks));
	v->stacks[v->nstacks].tid = tid;
	i = (uint32_t)v->nstacks++;
	itab_insert(&v->stack_tab, i, v->stacks, sizeof(*v->stacks));
	return i;
}

/* ---- the time unit ---------------------------------------------------- */

/* The unit the summary text (len bytes, not NUL-terminated) names, or U_NONE
 * with *why set. */
static int summary_unit(const unsigned char *text, size_t len, const char **why)
{
	char *s = xstrndup((const char *)text, len);
	int us = strstr(s, "\nelapsed-time-usec=") != NULL;
	int ns = strstr(s, "\nelapsed-time-nsec=") != NULL;

	free(s);
	if (us != ns)
		return us ? U_US : U_NS;
	*why = us ? "its summary gives both elapsed-time-usec and elapsed-time-nsec"
		  : "its summary gives neither elapsed-time-usec nor elapsed-time-nsec";
	return U_NONE;
}

int v2_find_unit(struct cg_trace *t, struct cg_error *err)
{
	struct cg_v2 *v = t->v2;
	uint64_t size;
	unsigned char *tail;
	size_t n, i;
	ssize_t got;

	if (!source_span(t->src, &size)) {
		/* Nothing read yet has left the buffer: it holds the stream
		 * from its first byte. */
		t->spool = source_spool(t->src, t->buf, t->len, err);
		if (!t->spool)
			return -1;
		t->src = t->spool;
		if (!source_span(t->src, &size))
			size = 0;
	}
	v->unit = U_NONE;
	v->no_unit = "it has no summary at its end";
	if (size <= HEADER_SIZE)
		return 0;
	n = size - HEADER_SIZE < SUMMARY_MAX ? (size_t)(size - HEADER_SIZE) : SUMMARY_MAX;
	tail = xmalloc(n);
	got = source_pread(t->src, tail, n, size - n, err);
	if (got < 0) {
		free(tail);
		return -1;
	}
	/* The summary packet ends the file: u1 3, u2 length, "*version" ...
	 * The first such packet from the front is the one a reader walking
	 * the packets would meet. */
	for (i = 0; (size_t)got == n && i + 3 + 8 <= n; i++) {
		if (tail[i] == 3 && get_le16(tail + i + 1) == n - i - 3 &&
		    memcmp(tail + i + 3, "*version", 8) == 0) {
			v->unit = summary_unit(tail + i + 3, n - i - 3, &v->no_unit);
			break;
		}
	}
	free(tail);
	return 0;
}

void v2_set_start(struct cg_trace *t)
{
	const struct cg_v2 *v = t->v2;

	t->info.start_us = v->unit == U_NS ? v->start_raw / 1000 : v->start_raw;
	t->info.v2_ns = v->unit == U_NS;
}

int v2_set_unit(struct cg_trace *t, uint64_t off, struct cg_error *err)
{
	struct cg_v2 *v = t->v2;

	if (v->gen == GEN_A) {
		v->unit = U_US;   /* Android 15's only writer: µs */
	} else if (v->unit == U_NONE) {
		cg_error_set(err, (int64_t)off,
			     "layout B event block: its times are in us or ns, and only the "
			     "summary says which, but %s", v->no_unit);
		return -1;
	}
	v2_set_start(t);
	return 0;
}

/* ---- packets ------------------------------------------------------------------- */

int v2_past_end(struct cg_trace *t, uint64_t off, const char *what, uint64_t need,
		    ssize_t avail, struct cg_error *err)
{
	cg_error_set(err, (int64_t)off,
		     "%s needs %" PRIu64 " bytes but the file ends %zd bytes later", what, need, avail);
	(void)t;
	return -1;
}

/* THREAD-INFO: u1 0, u4 tid, u2 len, name. */
int v2_thread_info(struct cg_trace *t, struct cg_error *err)
{
	uint64_t off = trace_off(t, t->pos);
	ssize_t a = trace_ensure(t, 7, err);
	size_t len;
	uint32_t tid;
	char *name;

	if (a < 0)
		return -1;
	if (a < 7)
		return v2_past_end(t, off, "thread-info packet header", 7, a, err);
	tid = get_le32(t->buf + t->pos + 1);
	len = get_le16(t->buf + t->pos + 5);
	a = trace_ensure(t, 7 + len, err);
	if (a < 0)
		return -1;
	if ((size_t)a < 7 + len)
		return v2_past_end(t, off, "thread-info packet", 7 + len, a, err);
	name = xstrndup((const char *)t->buf + t->pos + 7, len);
	mem_replace(name, len, '\0', '?');
	symtab_define_thread(t->st, tid, name, 1);
	free(name);
	t->pos += 7 + len;
	return 0;
}

/* METHOD-INFO: u1 1, u8 id, u2 len, "class\tname\tsig\tsource[\tline]\n". */
int v2_method_info(struct cg_trace *t, struct cg_error *err)
{
	uint64_t off = trace_off(t, t->pos), id;
	ssize_t a = trace_ensure(t, 11, err);
	size_t len;
	char *text, *f[5] = { 0 };
	int nf = 0, created;
	struct v2_meth *e;
	long line = 0;

	if (a < 0)
		return -1;
	if (a < 11)
		return v2_past_end(t, off, "method-info packet header", 11, a, err);
	id = get_le64(t->buf + t->pos + 1);
	len = get_le16(t->buf + t->pos + 9);
	a = trace_ensure(t, 11 + len, err);
	if (a < 0)
		return -1;
	if ((size_t)a < 11 + len)
		return v2_past_end(t, off, "method-info packet", 11 + len, a, err);
	text = xstrndup((const char *)t->buf + t->pos + 11, len);
	mem_replace(text, len, '\0', '?');
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	f[nf++] = text;
	for (char *s = text; nf < 5 && (s = strchr(s, '\t')) != NULL;) {
		*s++ = '\0';
		f[nf++] = s;
	}
	if (nf == 5)
		line = strtol(f[4], NULL, 10);
	e = meth_get(t, id, off, &created);
	e->defined = 1;
	symtab_define_method_id(t->st, e->key, id, f[0], nf > 1 ? f[1] : "", nf > 2 ? f[2] : "",
				nf > 3 ? f[3] : "", (int)line);
	free(text);
	t->pos += 11 + len;
	return 0;
}

/* The first method used but never defined, as an error; 0 when none. */
int v2_check_defined(struct cg_trace *t, struct cg_error *err)
{
	struct cg_v2 *v = t->v2;
	const struct v2_meth *worst = NULL;

	for (size_t i = 0; i < v->nm; i++)
		if (!v->m[i].defined && (!worst || v->m[i].first_ref < worst->first_ref))
			worst = &v->m[i];
	if (!worst)
		return 0;
	cg_error_set(err, (int64_t)worst->first_ref,
		     "method id 0x%" PRIx64 " is used but no method-info packet defines it", worst->id);
	return -1;
}

/* SUMMARY: u1 3, u2 len, text "*version ... *end".  Last in the file. */
int v2_summary(struct cg_trace *t, struct cg_error *err)
{
	struct cg_v2 *v = t->v2;
	uint64_t off = trace_off(t, t->pos);
	ssize_t a = trace_ensure(t, 3, err);
	size_t len;
	int version = t->info.version;
	const char *text;

	if (a < 0)
		return -1;
	if (a < 3)
		return v2_past_end(t, off, "summary packet header", 3, a, err);
	len = get_le16(t->buf + t->pos + 1);
	a = trace_ensure(t, 3 + len, err);
	if (a < 0)
		return -1;
	if ((size_t)a < 3 + len) {
		cg_error_set(err, (int64_t)off + 1,
			     "summary length %zu runs past the end of the file (%zd bytes follow)",
			     len, a - 3);
		return -1;
	}
	t->pos += 3;
	if (trace_parse_summary(t, len, err))
		return -1;
	if (t->info.version != version) {
		cg_error_set(err, (int64_t)off + 3,
			     "summary *version %d does not match the header's version %d",
			     t->info.version, version);
		return -1;
	}
	t->info.has_summary = 1;
	text = t->key.data ? t->key.data : "";
	if (v->gen == GEN_A || v->gen == GEN_B) {
		/* The unit was read from these bytes before the records (B), or is
		 * Android 15's µs (A). */
		int says_ns = strstr(text, "\nelapsed-time-nsec=") != NULL;
		int says_us = strstr(text, "\nelapsed-time-usec=") != NULL;

		if ((says_ns && v->unit != U_NS) || (says_us && v->unit != U_US)) {
			cg_error_set(err, (int64_t)off + 3,
				     "the summary gives elapsed-time-%s, but this file's layout %c "
				     "event blocks were read in %s",
				     says_ns ? "nsec" : "usec", v->gen, v->unit == U_NS ? "ns" : "us");
			return -1;
		}
	}
	strbuf_free(&t->key);  /* read only for these keys */
	if (v->gen == GEN_C)
		t->info.clock = CG_CLOCK_WALL;
	else if (v->dual)
		t->info.clock = CG_CLOCK_DUAL;
	a = trace_ensure(t, 1, err);
	if (a < 0)
		return -1;
	if (a > 0) {
		cg_error_set(err, (int64_t)trace_off(t, t->pos), "data after the summary");
		return -1;
	}
	return 0;
}
