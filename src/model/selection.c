/* selection.c - warnings for selections that match nothing, with the
 * candidates a user probably meant. */
#include "model/selection.h"

#include <ctype.h>
#include <string.h>

/* Candidates listed before "and N more". */
#define MAX_LISTED 12

/* Append a name from the trace or the command line with control
 * characters (which could drive a terminal) shown as '?'. */
static void put_safe(struct strbuf *out, const char *s)
{
	for (; *s; s++)
		strbuf_putc(out, ((unsigned char)*s < 0x20 || *s == 0x7f) ? '?' : *s);
}

static void thread_warning(const struct cg_symtab *st, const char *pat, int64_t pid,
			   int main_named, struct strbuf *out)
{
	size_t n = symtab_thread_count(st), i;

	for (i = 0; i < n; i++) {
		const struct cg_thread_info *t = symtab_thread_at(st, i);

		if (profile_thread_match(pat, t->tid, t->name, pid, main_named))
			return;
	}
	strbuf_puts(out, "--thread ");
	put_safe(out, pat);
	strbuf_puts(out, " matches no thread; the threads are");
	for (i = 0; i < n && i < MAX_LISTED; i++) {
		strbuf_puts(out, i ? ", " : " ");
		put_safe(out, symtab_thread_at(st, i)->name);
		strbuf_printf(out, " (%u)", (unsigned)symtab_thread_at(st, i)->tid);
	}
	if (n > MAX_LISTED)
		strbuf_printf(out, " and %zu more", n - MAX_LISTED);
	if (n == 0)
		strbuf_puts(out, " not named in this trace");
	strbuf_putc(out, '\n');
}

/* The last word of a glob: its part after the last '.', without glob
 * characters, into word (size n). */
static void last_word(const char *pat, char *word, size_t n)
{
	const char *dot = strrchr(pat, '.'), *s = dot && dot[1] ? dot + 1 : pat;
	size_t k = 0;

	for (; *s && k + 1 < n; s++)
		if (!strchr("*?[]", *s))
			word[k++] = *s;
	word[k] = '\0';
}

/* 1 when hay contains needle, ignoring ASCII case. */
static int contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++) {
		size_t i;

		for (i = 0; i < n && hay[i] && tolower((unsigned char)hay[i]) ==
						  tolower((unsigned char)needle[i]); i++)
			;
		if (i == n)
			return 1;
	}
	return n == 0;
}

static void method_warning(const struct cg_symtab *st, const char *opt, const char *pat,
			   struct strbuf *name, struct strbuf *out)
{
	size_t n = symtab_method_count(st), i, listed = 0, more = 0;
	struct cg_method_info tmp;
	char word[128];

	for (i = 0; i < n; i++) {
		strbuf_reset(name);
		symtab_put_display(name, symtab_method_peek(st, (uint32_t)i, &tmp));
		if (profile_pattern_match(pat, name->data ? name->data : ""))
			return;
	}
	last_word(pat, word, sizeof(word));
	strbuf_printf(out, "%s ", opt);
	put_safe(out, pat);
	strbuf_puts(out, " matches no method");
	for (i = 0; i < n && word[0]; i++) {
		strbuf_reset(name);
		symtab_put_display(name, symtab_method_peek(st, (uint32_t)i, &tmp));
		if (!contains_nocase(name->data ? name->data : "", word))
			continue;
		if (listed == MAX_LISTED) {
			more++;
			continue;
		}
		strbuf_puts(out, listed ? ", " : "; methods containing ");
		put_safe(out, name->data);
		listed++;
	}
	if (more)
		strbuf_printf(out, " and %zu more", more);
	if (!listed) {
		strbuf_puts(out, "; no method name contains '");
		put_safe(out, word);
		strbuf_putc(out, '\'');
	}
	strbuf_putc(out, '\n');
}

void selection_warnings(const struct cg_symtab *st, const struct cg_profile_opts *o,
			struct strbuf *out)
{
	struct strbuf name;
	size_t i;
	int main_named = profile_main_named(st);

	strbuf_init(&name);
	for (i = 0; o->threads && o->threads[i]; i++)
		thread_warning(st, o->threads[i], o->pid, main_named, out);
	for (i = 0; o->focus && o->focus[i]; i++)
		method_warning(st, "--focus", o->focus[i], &name, out);
	for (i = 0; o->hide && o->hide[i]; i++)
		method_warning(st, "--hide", o->hide[i], &name, out);
	strbuf_free(&name);
}
