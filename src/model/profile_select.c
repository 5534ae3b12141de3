/* profile_select.c - what the replay looks at: --focus/--hide patterns on
 * method names (flags computed once per method) and --thread selection. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/profile_impl.h"

/* A pattern with none of fnmatch's special characters matches a name only
 * where they are equal: the whole name, or a part after one of its dots,
 * is then the name's end, after a dot or from its start.  Frames look for
 * their method among every method of the key, and most patterns are
 * plain names. */
static int literal_match(const char *pat, const char *name)
{
	size_t n = strlen(name), k = strlen(pat);

	return n >= k && memcmp(name + n - k, pat, k) == 0 && (n == k || name[n - k - 1] == '.');
}

int profile_pattern_match(const char *pat, const char *name)
{
	const char *s = name;

	if (!strpbrk(pat, "*?[\\"))
		return literal_match(pat, name);
	if (fnmatch(pat, name, 0) == 0)
		return 1;
	/* As users type them: "Class.method" or "method" without the package. */
	while ((s = strchr(s, '.')) != NULL)
		if (fnmatch(pat, ++s, 0) == 0)
			return 1;
	return 0;
}

static int match_any(const char *const *pats, const char *name)
{
	size_t i;

	for (i = 0; pats && pats[i]; i++)
		if (profile_pattern_match(pats[i], name))
			return 1;
	return 0;
}

/* MF_* flags of method midx, computed on first sight from its display name
 * "Class.method" (slashes shown as dots).  Hide wins over focus. */
unsigned profile_method_flags(struct cg_profile *p, uint32_t midx)
{
	unsigned char fl;

	if (midx >= p->nmflag) {
		size_t old = p->nmflag, n = symtab_method_count(p->st);

		if (n < old * 2)
			n = old * 2;
		if (n <= midx)
			n = (size_t)midx + 1;
		p->mflag = xrealloc(p->mflag, n);
		memset(p->mflag + old, 0, n - old);
		p->nmflag = n;
	}
	fl = p->mflag[midx];
	if (!fl) {
		const char *name;
		struct cg_method_info tmp;

		strbuf_reset(&p->namebuf);
		symtab_put_display(&p->namebuf, symtab_method_peek(p->st, midx, &tmp));
		name = p->namebuf.len ? p->namebuf.data : "";
		fl = MF_SEEN;
		if (match_any(p->opts.hide, name))
			fl |= MF_HIDE;
		else if (match_any(p->opts.focus, name))
			fl |= MF_FOCUS;
		p->mflag[midx] = fl;
	}
	return fl;
}

int profile_main_named(const struct cg_symtab *st)
{
	size_t i, n = symtab_thread_count(st);

	for (i = 0; i < n; i++)
		if (strcmp(symtab_thread_at(st, i)->name, "main") == 0)
			return 1;
	return 0;
}

int profile_thread_match(const char *pat, uint32_t tid, const char *name, int64_t pid,
			 int main_named)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", tid);
	if (strcmp(pat, buf) == 0 || strcmp(pat, name) == 0)
		return 1;
	return strcmp(pat, "main") == 0 && !main_named && pid > 0 && (int64_t)tid == pid;
}

int profile_thread_selected(struct cg_profile *p, uint32_t tid)
{
	const struct cg_thread_info *ti;
	size_t i;

	if (!p->opts.threads || !p->opts.threads[0])
		return 1;
	ti = symtab_thread(p->st, tid);
	if (p->main_named < 0)
		p->main_named = profile_main_named(p->st);
	for (i = 0; p->opts.threads[i]; i++)
		if (profile_thread_match(p->opts.threads[i], tid, ti->name, p->opts.pid, p->main_named))
			return 1;
	return 0;
}


void profile_discount(struct cg_profile *p, uint32_t tid, uint64_t n)
{
	size_t i;

	for (i = 0; i < p->nthreads; i++) {
		struct tstate *ts = p->threads[i];

		if (ts->tid == tid)
			ts->records -= n < ts->records ? n : ts->records;
	}
}
