/* exportname.c - distinct method names for the exporters (see exportname.h). */
#include "render/export/exportname.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render/javaname.h"
#include "util/sort.h"
#include "util/strbuf.h"
#include "util/util.h"

/* Every name lives in one text buffer, NUL-terminated, found through its
 * method's offset: no allocation per name. */
struct cg_exportnames {
	struct strbuf text;
	uint64_t *off;       /* per method index; NONE when not built */
	size_t n;
};

#define NONE UINT64_MAX

struct ent {
	uint64_t off;        /* the name's offset in the text */
	uint32_t midx;
};

static int cmp_ent(const void *a, const void *b, void *ctx)
{
	const struct ent *x = a, *y = b;
	const struct strbuf *text = ctx;
	int c = strcmp(text->data + x->off, text->data + y->off);

	if (c)
		return c;
	return x->midx < y->midx ? -1 : x->midx > y->midx;
}

/* Append m's name at the given level to the text; returns its offset. */
static uint64_t make(struct strbuf *text, const struct cg_method_info *m, unsigned flags,
		     int level)
{
	uint64_t off = text->len;

	javaname_put_method(text, m, flags | (level >= 1 ? JN_SIG : 0));
	if (level >= 2) {
		if (m->id_text)
			strbuf_printf(text, " [%s]", m->id_text);
		else
			strbuf_printf(text, " [0x%" PRIx64 "]", m->id);
	}
	strbuf_add(text, "", 1);
	return off;
}

/* Sort ents and raise the level of every run of equal names; returns the
 * number of methods whose name changed.  A name replaced stays in the text
 * unused (only names shared by several methods are replaced). */
static size_t split_level(const struct cg_symtab *st, struct cg_exportnames *x, struct ent *e,
			  size_t n, unsigned flags, int level)
{
	size_t i = 0, j, changed = 0;

	sort_inplace(e, n, sizeof(*e), cmp_ent, &x->text);
	while (i < n) {
		for (j = i + 1; j < n && strcmp(x->text.data + e[i].off, x->text.data + e[j].off) == 0;
		     j++)
			;
		if (j - i > 1) {
			size_t k;

			for (k = i; k < j; k++) {
				struct cg_method_info tmp;

				e[k].off = make(&x->text, symtab_method_peek(st, e[k].midx, &tmp), flags,
						level);
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
	struct ent *e;
	struct cg_method_info tmp;

	strbuf_init(&x->text);
	x->n = nm;
	x->off = xmalloc((nm + 1) * sizeof(*x->off));
	for (i = 0; i < nm; i++)
		if (!used || used[i])
			ne++;
	e = xmalloc((ne + 1) * sizeof(*e));
	for (i = 0, ne = 0; i < nm; i++) {
		x->off[i] = NONE;
		if (used && !used[i])
			continue;
		e[ne].midx = (uint32_t)i;
		e[ne].off = make(&x->text, symtab_method_peek(st, (uint32_t)i, &tmp), flags, 0);
		ne++;
	}
	if (split_level(st, x, e, ne, flags, 1))
		split_level(st, x, e, ne, flags, 2);
	for (i = 0; i < ne; i++)
		x->off[e[i].midx] = e[i].off;
	free(e);
	return x;
}

void exportname_free(struct cg_exportnames *x)
{
	if (!x)
		return;
	strbuf_free(&x->text);
	free(x->off);
	free(x);
}

const char *exportname_get(const struct cg_exportnames *x, uint32_t midx)
{
	return midx < x->n && x->off[midx] != NONE ? x->text.data + x->off[midx] : NULL;
}
