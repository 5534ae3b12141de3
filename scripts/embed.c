/* embed.c - turn a text asset (a report's .js or .css) into the body of a C
 * string literal, one source line per line, so the report renderers can
 * carry their scripts and styles as real files (linted and unit-tested on
 * their own) and still produce one self-contained binary.
 *
 * Usage: embed INPUT OUTPUT.  The output is included as
 *     static const char report_js[] =
 *     #include "report.js.inc"
 *     ;
 * Every byte is kept: '\\' and '"' are escaped, bytes outside printable
 * ASCII become three-digit octal escapes.  Exit 1 with one line on error. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	FILE *in, *out;
	int c, at_start = 1;

	if (argc != 3) {
		fprintf(stderr, "usage: embed INPUT OUTPUT\n");
		return 2;
	}
	in = fopen(argv[1], "rb");
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	out = fopen(argv[2], "w");
	if (!out) {
		perror(argv[2]);
		return 1;
	}
	fprintf(out, "/* generated from %s by scripts/embed.c; do not edit */\n", argv[1]);
	while ((c = getc(in)) != EOF) {
		if (at_start) {
			fputc('"', out);
			at_start = 0;
		}
		if (c == '\n') {
			fputs("\\n\"\n", out);
			at_start = 1;
		} else if (c == '\\' || c == '"') {
			fprintf(out, "\\%c", c);
		} else if (c < 0x20 || c > 0x7e || c == '?') {
			/* '?' too: no trigraphs */
			fprintf(out, "\\%03o", (unsigned)c);
		} else {
			fputc(c, out);
		}
	}
	if (!at_start)
		fputs("\"\n", out);
	else
		fputs("\"\"\n", out);
	if (ferror(in) || fclose(out) != 0) {
		fprintf(stderr, "embed: cannot write %s\n", argv[2]);
		return 1;
	}
	fclose(in);
	return 0;
}
