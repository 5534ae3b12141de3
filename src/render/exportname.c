/* exportname.c - distinct method names for the exporters (see exportname.h). */
#include "render/exportname.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render/javaname.h"
#include "util/strbuf.h"
#include "util/util.h"

struct cg_exportnames {
	char **names;
	size_t n;
};

struct ent {
	char *name;
	uint32_t midx;
};

static int cmp_ent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->midx < y->midx ? -1 : x->midx > y->midx;
}

static char *make(const struct cg_method_info *m, unsigned flags, int level)
{
	struct strbuf sb;

	strbuf_init(&sb);
	javaname_put_method(&sb, m, flags | (level >= 1 ? JN_SIG : 0));
	if (level >= 2) {
		if (m->id_text)
			strbuf_printf(&sb, " [%s]", m->id_text);
		else
			strbuf_printf(&sb, " [0x%" PRIx64 "]", m->id);
	}
	return strbuf_detach(&sb, NULL);
}

/* Sort ents and raise the level of every run of equal names; returns the
 * number of methods whose name changed. */
static size_t split_level(const struct cg_symtab *st, struct ent *e, size_t n, unsigned flags,
			  int level)
{
	size_t i = 0, j, changed = 0;

	qsort(e, n, sizeof(*e), cmp_ent);
	while (i < n) {
		for (j = i + 1; j < n && strcmp(e[i].name, e[j].name) == 0; j++)
			;
		if (j - i > 1) {
			size_t k;

			for (k = i; k < j; k++) {
				struct cg_method_info tmp;

				free(e[k].name);
				e[k].name = make(symtab_method_peek(st, e[k].midx, &tmp), flags, level);
				changed++;
			}
		}
		i = j;
	}
	return changed;
}

struct cg_exportnames *exportname_build(const struct cg_symtab *st, const unsigned char *used,
					unsigned flags)
{
	struct cg_exportnames *x = xcalloc(1, sizeof(*x));
	size_t nm = symtab_method_count(st), i, ne = 0;
	struct ent *e = xmalloc((nm + 1) * sizeof(*e));
	struct cg_method_info tmp;

	x->n = nm;
	x->names = xcalloc(nm + 1, sizeof(*x->names));
	for (i = 0; i < nm; i++) {
		if (used && !used[i])
			continue;
		e[ne].midx = (uint32_t)i;
		e[ne].name = make(symtab_method_peek(st, (uint32_t)i, &tmp), flags, 0);
		ne++;
	}
	if (split_level(st, e, ne, flags, 1))
		split_level(st, e, ne, flags, 2);
	for (i = 0; i < ne; i++)
		x->names[e[i].midx] = e[i].name;
	free(e);
	return x;
}

void exportname_free(struct cg_exportnames *x)
{
	size_t i;

	if (!x)
		return;
	for (i = 0; i < x->n; i++)
		free(x->names[i]);
	free(x->names);
	free(x);
}

const char *exportname_get(const struct cg_exportnames *x, uint32_t midx)
{
	return midx < x->n ? x->names[midx] : NULL;
}
