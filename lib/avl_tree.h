/*
 * avl_tree.h - an intrusive balanced binary search tree (AVL: the heights
 * of a node's two subtrees differ by at most one, so a tree of n nodes is
 * at most 1.44 log2(n) deep; Adelson-Velsky and Landis 1962, Knuth TAOCP
 * vol. 3, 6.2.3), for indexes that must stay O(log n) per operation with
 * tens of thousands of entries: the runtime's table of allocations, the
 * GPU driver's extents of local memory.
 *
 * The node lives inside the caller's structure (avl_entry gives the
 * structure back) and the tree allocates nothing. The caller searches: it
 * walks from t->root comparing its own keys and links a new node where the
 * search ended:
 *
 *   struct avl_node *parent = NULL, **link = &t->root;
 *   while (*link) {
 *     parent = *link;
 *     link = key < avl_entry(parent, struct item, node)->key ? &parent->left : &parent->right;
 *   }
 *   avl_insert(t, parent, link, &item->node);
 *
 * A tree may keep a summary of every subtree (the largest free extent
 * below a node, for instance): `update` recomputes a node's summary from
 * its own value and its children's summaries, and the tree calls it on
 * every node whose subtree changed, children before parents. After a
 * node's own value changes in place (key order unchanged), avl_update_path
 * brings the summaries above it up to date. Not thread-safe: the caller
 * locks.
 */
#ifndef LIB_AVL_TREE_H
#define LIB_AVL_TREE_H

#include <stddef.h>

struct avl_node {
  struct avl_node *left, *right, *parent;
  int height; /* of the subtree: 1 for a leaf */
};

struct avl_tree {
  struct avl_node *root;
  void (*update)(struct avl_node *n); /* NULL: no summaries */
};

#define avl_entry(node_ptr, type, member) ((type *)((char *)(node_ptr)-offsetof(type, member)))

/* Links `n` at `*link`, a NULL child pointer of `parent` (or t->root, with
 * parent NULL) where the caller's search ended, and rebalances. */
void avl_insert(struct avl_tree *t, struct avl_node *parent, struct avl_node **link,
                struct avl_node *n);
/* Unlinks `n` (a node of t) and rebalances; n's memory is the caller's. */
void avl_remove(struct avl_tree *t, struct avl_node *n);
/* Recomputes the summaries of n and of every node above it. */
void avl_update_path(struct avl_tree *t, struct avl_node *n);

/* In-order walk: the smallest node, and the next larger / smaller one;
 * NULL past either end. */
struct avl_node *avl_first(const struct avl_tree *t);
struct avl_node *avl_next(const struct avl_node *n);
struct avl_node *avl_prev(const struct avl_node *n);

static inline int avl_height(const struct avl_node *n) { return n ? n->height : 0; }

#endif
