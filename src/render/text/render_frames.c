/* render_frames.c - the frames in the text profile and in JSON (see
 * render_frames.h). */
#include "render/text/render_frames.h"

#include <inttypes.h>

#include "model/frames.h"
#include "render/javaname.h"

/* Methods listed under each slow frame in the text profile. */
#define TEXT_METHODS 5

static const struct cg_pthread *thread_of(const struct cg_report *r, const struct cg_frame *f)
{
	size_t n = profile_thread_count(r->profile);

	return f->thread < n ? &profile_threads(r->profile)[f->thread] : NULL;
}

/* The frame's start on the axis of --range: ms from the first record. */
static int64_t start_us(const struct cg_report *r, const struct cg_frame *f)
{
	return (int64_t)(f->start - r->origin);
}

static void put_ms(struct strbuf *sb, int width, uint64_t us)
{
	char ms[32];

	strbuf_printf(sb, " %*s", width, fmt_ms(ms, us));
}

void frames_text(const struct cg_report *r, struct strbuf *sb)
{
	const struct cg_frames *f = r->frames;
	const struct cg_frame *list;
	const size_t *slow;
	size_t n, ns, i, k;
	uint64_t wall = 0, cpu = 0;
	char pct[32], ms[32];
	int dual;

	if (!f)
		return; /* not looked for */
	strbuf_puts(sb, "\nFrames (outermost calls of ");
	strbuf_puts(sb, frames_pattern(f));
	n = frames_count(f);
	if (!n) {
		strbuf_puts(sb, "): none\n");
		return;
	}
	list = frames_list(f);
	dual = profile_has_other(r->profile);
	for (i = 0; i < n; i++) {
		wall += list[i].wall_us;
		cpu += list[i].cpu_us;
	}
	strbuf_printf(sb, "): %zu, %s ms in all", n, fmt_ms(ms, wall ? wall : cpu));
	if (dual)
		strbuf_printf(sb, ", %s%% off-CPU", report_off_cpu(pct, cpu, wall));
	strbuf_puts(sb, "\nMethod tracing slows every call: compare frames with each other, "
			"not with a 16.7 ms budget.\n");
	strbuf_printf(sb, "  %-8s %12s %12s %12s %12s\n", "ms", "p50", "p90", "p99", "max");
	for (k = 0; k < 2; k++) {
		int c = k == 1;

		if (c ? !dual && profile_primary(r->profile) != CG_USE_CPU
		      : !dual && profile_primary(r->profile) != CG_USE_WALL)
			continue;
		strbuf_printf(sb, "  %-8s", c ? "cpu" : "wall");
		put_ms(sb, 12, frames_percentile(f, c, 50));
		put_ms(sb, 12, frames_percentile(f, c, 90));
		put_ms(sb, 12, frames_percentile(f, c, 99));
		put_ms(sb, 12, frames_percentile(f, c, 100));
		strbuf_putc(sb, '\n');
	}
	ns = frames_slowest(f, &slow);
	strbuf_printf(sb, "\nSlowest frames (by %s time; --range frame:N shows every thread "
			  "during frame N)\n",
		      profile_clock_name(profile_primary(r->profile)));
	strbuf_printf(sb, "  %7s %8s %12s %12s %12s %8s  %s\n", "frame", "tid", "start ms", "wall ms",
		      "cpu ms", "off-cpu%", "thread");
	for (i = 0; i < ns; i++) {
		const struct cg_frame *fr = &list[slow[i]];
		const struct cg_pthread *t = thread_of(r, fr);
		const struct cg_frame_method *m;
		size_t nm = frames_methods(f, slow[i], &m), j;

		strbuf_printf(sb, "  %7zu %8u %12s", slow[i] + 1, t ? t->tid : 0,
			      fmt_ms_signed(ms, start_us(r, fr)));
		put_ms(sb, 12, fr->wall_us);
		put_ms(sb, 12, fr->cpu_us);
		strbuf_printf(sb, " %8s  %s%s\n", dual ? report_off_cpu(pct, fr->cpu_us, fr->wall_us) : "-",
			      t ? t->name : "?",
			      fr->flags & FRAME_ADOPTED ? " (entered before tracing: no breakdown)" : "");
		for (j = 0; j < nm && j < TEXT_METHODS; j++) {
			struct cg_method_info tmp;

			strbuf_printf(sb, "  %7s %8s %12s", "", "", "self");
			put_ms(sb, 12, m[j].wall_us);
			put_ms(sb, 12, m[j].cpu_us);
			strbuf_printf(sb, " %8s  ",
				      dual ? report_off_cpu(pct, m[j].cpu_us, m[j].wall_us) : "-");
			javaname_put_method(sb, symtab_method_peek(r->st, m[j].midx, &tmp),
					    JN_SIG | (r->short_names ? JN_SHORT : 0));
			strbuf_putc(sb, '\n');
		}
		if (nm > TEXT_METHODS)
			strbuf_printf(sb, "  %7s %8s %12s  %zu more methods\n", "", "", "", nm - TEXT_METHODS);
	}
}

static void put_key_u64(struct strbuf *sb, const char *key, uint64_t v)
{
	strbuf_puts(sb, key);
	strbuf_put_u64(sb, v);
}

/* `"wall_us": {"p50": .., ...}` for each clock the trace has. */
static void put_percentiles(const struct cg_report *r, struct strbuf *sb)
{
	int dual = profile_has_other(r->profile), c;

	for (c = 0; c < 2; c++) {
		enum cg_clock_sel clk = c ? CG_USE_CPU : CG_USE_WALL;

		if (!dual && profile_primary(r->profile) != clk)
			continue;
		strbuf_printf(sb, ", \"%s_us\": {", profile_clock_name(clk));
		put_key_u64(sb, "\"p50\": ", frames_percentile(r->frames, c, 50));
		put_key_u64(sb, ", \"p90\": ", frames_percentile(r->frames, c, 90));
		put_key_u64(sb, ", \"p99\": ", frames_percentile(r->frames, c, 99));
		put_key_u64(sb, ", \"max\": ", frames_percentile(r->frames, c, 100));
		strbuf_putc(sb, '}');
	}
}

void frames_json(const struct cg_report *r, struct strbuf *sb)
{
	const struct cg_frames *f = r->frames;
	const struct cg_frame *list;
	const size_t *slow;
	size_t n = f ? frames_count(f) : 0, ns, i, j;

	if (!n)
		return;
	list = frames_list(f);
	strbuf_puts(sb, ",\n  \"frames\": {\"method\": \"");
	strbuf_put_json(sb, frames_pattern(f));
	put_key_u64(sb, "\", \"count\": ", n);
	put_percentiles(r, sb);
	strbuf_puts(sb, ",\n    \"list\": [");
	for (i = 0; i < n; i++) {
		const struct cg_pthread *t = thread_of(r, &list[i]);
		char ms[32];

		strbuf_spill(sb);
		put_key_u64(sb, i ? ",\n      {\"frame\": " : "\n      {\"frame\": ", i + 1);
		put_key_u64(sb, ", \"tid\": ", t ? t->tid : 0);
		strbuf_printf(sb, ", \"start_ms\": %s", fmt_ms_signed(ms, start_us(r, &list[i])));
		put_key_u64(sb, ", \"wall_us\": ", list[i].wall_us);
		put_key_u64(sb, ", \"cpu_us\": ", list[i].cpu_us);
		if (list[i].flags & FRAME_ADOPTED)
			strbuf_puts(sb, ", \"entered_before_tracing\": true");
		strbuf_putc(sb, '}');
	}
	strbuf_puts(sb, "\n    ],\n    \"slowest\": [");
	ns = frames_slowest(f, &slow);
	for (i = 0; i < ns; i++) {
		const struct cg_frame_method *m;
		size_t nm = frames_methods(f, slow[i], &m);

		put_key_u64(sb, i ? ",\n      {\"frame\": " : "\n      {\"frame\": ", slow[i] + 1);
		strbuf_puts(sb, ", \"methods\": [");
		for (j = 0; j < nm; j++) {
			struct cg_method_info tmp;
			const struct cg_method_info *mi = symtab_method_peek(r->st, m[j].midx, &tmp);

			strbuf_puts(sb, j ? ", {\"name\": \"" : "{\"name\": \"");
			strbuf_put_json(sb, mi->klass);
			strbuf_putc(sb, '.');
			strbuf_put_json(sb, mi->name);
			strbuf_puts(sb, "\", \"signature\": \"");
			strbuf_put_json(sb, mi->sig);
			put_key_u64(sb, "\", \"wall_us\": ", m[j].wall_us);
			put_key_u64(sb, ", \"cpu_us\": ", m[j].cpu_us);
			strbuf_putc(sb, '}');
		}
		strbuf_puts(sb, "]}");
	}
	strbuf_puts(sb, "\n    ]}");
}
