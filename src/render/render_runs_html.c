/* placeholder */
#include "render/render_runs.h"
int render_runs_html(const struct cg_report *r, struct strbuf *out, struct cg_error *err)
{
	(void)r; (void)out;
	cg_error_set(err, -1, "not yet");
	return -1;
}
