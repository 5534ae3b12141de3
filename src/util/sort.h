/* sort.h - an in-place sort with a context pointer.
 *
 * sort_inplace orders n elements of `size` bytes at base by cmp, which gets
 * ctx as its third argument.  It needs no memory beyond the array (glibc's
 * qsort merges through a copy of the whole array), so a view of millions of
 * edges sorts where it lies.  Not stable: cmp must be a total order for the
 * result to be deterministic.  O(n log n) in the worst case.
 */
#ifndef CG_SORT_H
#define CG_SORT_H

#include <stddef.h>

typedef int (*sort_cmp)(const void *a, const void *b, void *ctx);

void sort_inplace(void *base, size_t n, size_t size, sort_cmp cmp, void *ctx);

#endif
