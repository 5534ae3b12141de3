/* mutate.c - write damaged copies of a trace for tests/bad/mutate.sh.
 *
 * usage: mutate SEED_FILE OUT_FILE N
 * Copies SEED_FILE to OUT_FILE with 1 to 4 damages chosen by the number N
 * (the same N always gives the same bytes): a flipped bit, a byte set to
 * 0, 0x7f, 0x80 or 0xff, a random byte, a cut at some offset, a run of
 * bytes deleted, duplicated or overwritten with a 32-bit boundary value.
 * Damages aim at the first 512 bytes (key, header) half of the time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

static uint64_t next(void)
{
	state += 0x9e3779b97f4a7c15ULL;
	uint64_t z = state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t pick(size_t len)
{
	if (len == 0)
		return 0;
	if (next() % 2 && len > 512)
		return (size_t)(next() % 512);
	return (size_t)(next() % len);
}

int main(int argc, char **argv)
{
	static const uint32_t edges[] = { 0, 1, 0x7fffffff, 0x80000000u, 0xffffffffu, 0xffff, 0x10000 };
	static const unsigned char vals[] = { 0, 0x7f, 0x80, 0xff };
	FILE *f;
	unsigned char *buf;
	size_t len = 0, cap, i, n;

	if (argc != 4) {
		fprintf(stderr, "usage: mutate SEED_FILE OUT_FILE N\n");
		return 2;
	}
	state = strtoull(argv[3], NULL, 10) * 0x2545f4914f6cdd1dULL + 1;
	f = fopen(argv[1], "rb");
	if (!f)
		return perror(argv[1]), 1;
	fseek(f, 0, SEEK_END);
	cap = (size_t)ftell(f) * 2 + 64;
	rewind(f);
	buf = malloc(cap);
	if (!buf)
		return 1;
	len = fread(buf, 1, cap / 2, f);
	fclose(f);
	n = 1 + next() % 4;
	for (i = 0; i < n && len > 0; i++) {
		size_t at = pick(len), k = 1 + next() % 64;

		if (k > len - at)
			k = len - at;
		switch (next() % 8) {
		case 0: buf[at] ^= (unsigned char)(1u << (next() % 8)); break;
		case 1: buf[at] = vals[next() % 4]; break;
		case 2: buf[at] = (unsigned char)next(); break;
		case 3: len = at; break;
		case 4: memmove(buf + at, buf + at + k, len - at - k); len -= k; break;
		case 5:
			if (len + k <= cap) {
				memmove(buf + at + k, buf + at, len - at);
				len += k;
			}
			break;
		case 6:
			if (at + 4 <= len) {
				uint32_t v = edges[next() % 7];
				memcpy(buf + at, &v, 4);
			}
			break;
		default: buf[at] = buf[pick(len)]; break;
		}
	}
	f = fopen(argv[2], "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0)
		return perror(argv[2]), 1;
	free(buf);
	return 0;
}
