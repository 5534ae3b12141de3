/* cct.h - the calling-context tree: per thread, one node per distinct stack
 * of visible frames, built during the single replay pass through the
 * profile's observer (profile_set_observer).  Memory is bounded by the
 * number of distinct stacks plus stack depth, never by the number of records.
 *
 * Times follow the profile model exactly: a node's inclusive time is the sum
 * of the durations of its activations (each stack is its own node, so
 * recursion is never double-counted), its exclusive time that minus the time
 * of its children, i.e. the time between events while it was on top.  The
 * exclusive times of a thread's nodes therefore sum to the time its
 * top-level frames ran; the rest of the thread's time is its root's own
 * (the profile's root exclusive time).  A frame entered before tracing
 * (observer adopt) becomes a child of the root and the parent of every
 * existing root child.
 *
 * During the replay a node is a 64-byte line that remembers the children
 * it entered last, and a hash table keyed by (parent, method) finds the
 * others, which are few; when the replay finishes (the observer's finish),
 * the table is freed, the lines are packed into 32-byte nodes and the
 * children of every node are laid out in one array and its index, 8 bytes
 * per node, and their inclusive times summed, 16 bytes per node (56 in all,
 * less than the line was).
 * Exclusive time is not stored: it is the node's inclusive time less its
 * children's, which the replay's nesting makes exact (cct_excl).
 *
 * The observer also asks for the other clock's times (cg_observer.other),
 * so a dual-clock trace gets both clocks per node with the same rules.
 *
 * Ownership: the tree owns its nodes; readers borrow them until cct_free.
 * The observer filled in by cct_observer borrows the tree.
 */
#ifndef CG_CCT_H
#define CG_CCT_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"

#define CCT_NONE UINT32_MAX

struct cg_cct_node {
	uint32_t parent;        /* CCT_NONE for a thread root */
	uint32_t midx;          /* symtab method index; CCT_NONE for a root */
	uint64_t incl_us;       /* 0 for a root */
	uint64_t calls;         /* activations of this stack */
	uint64_t o_incl_us;     /* on the other clock of a dual-clock trace (0 otherwise) */
};

struct cg_cct;

struct cg_cct *cct_create(void);
/* A tree whose observer asks the replay for raw method ids
 * (cg_observer.raw_ids), which it turns into methods of st (adding those
 * st lacks) once the replay finishes: the replay looks no entry's method
 * up.  Its observer must be the profile's own, not one passed on by
 * another; cct_merge sums trees made alike. */
struct cg_cct *cct_create_ids(struct cg_symtab *st);
/* An empty tree made as c was (cct_create or cct_create_ids). */
struct cg_cct *cct_create_like(const struct cg_cct *c);
void cct_free(struct cg_cct *c);

/* Fill *o with an observer that feeds c (pass it to profile_set_observer). */
void cct_observer(struct cg_cct *c, struct cg_observer *o);

/* The root node of profile thread index `thread`, or CCT_NONE when that
 * thread had no visible frame. */
uint32_t cct_root(const struct cg_cct *c, uint32_t thread);
/* Node id, valid from cct_root or cct_children; ids below
 * cct_node_count(). */
const struct cg_cct_node *cct_node(const struct cg_cct *c, uint32_t id);
/* The children of node id (*n of them, newest first), once the replay has
 * finished; NULL with *n = 0 before. */
const uint32_t *cct_children(const struct cg_cct *c, uint32_t id, size_t *n);
/* The methods of those children, in the same order: a walk that orders
 * children by method reads them here, one after the other, rather than in
 * each child's node.  NULL before the replay has finished. */
const uint32_t *cct_children_methods(const struct cg_cct *c, uint32_t id);
/* Ask the cache for what a walk reads of each child of id (node, children
 * and their time): a walk that goes down one child at a time would
 * otherwise wait on memory at each, the nodes lying in the order they were
 * made, not the walk's.  On a tree still being built, nothing. */
void cct_prefetch_children(const struct cg_cct *c, uint32_t id);
/* The inclusive times of node id's children summed, on both clocks, in
 * *us and *o_us.  After the replay has finished. */
void cct_children_incl(const struct cg_cct *c, uint32_t id, uint64_t *us, uint64_t *o_us);
/* Exclusive time of node id on both clocks:
 * its inclusive time less its children's; 0 for a root.  After the replay
 * has finished.  cct_excl: the same on one clock, the primary or (other)
 * the other one. */
void cct_excl_both(const struct cg_cct *c, uint32_t id, uint64_t *us, uint64_t *o_us);
uint64_t cct_excl(const struct cg_cct *c, uint32_t id, int other);
size_t cct_node_count(const struct cg_cct *c);

/* A trace replayed in ranges (replay.h), each range into a tree of its
 * own: src, the tree of the range after those dst holds, its threads
 * entered into the frames open at the start of its range (the same thread
 * indices as dst's), is added to dst, node by node by stack, before
 * either has finished; dst's threads then have the frames open at the end
 * of src's range, and src can only be freed.  Exact when src took no
 * frame entered before tracing (cct_adopts, which counts them). */
void cct_merge(struct cg_cct *dst, struct cg_cct *src);
/* The replay of c, a range's tree, is over and c will only be merged: its
 * lookups go and its lines are packed now (on the range's own thread),
 * rather than when it is merged. */
void cct_seal(struct cg_cct *c);
uint64_t cct_adopts(const struct cg_cct *c);

#endif
