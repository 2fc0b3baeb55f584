/* avl_tree.c - intrusive AVL tree (avl_tree.h). Every change walks from
 * the lowest changed node up to the root, recomputing heights and
 * summaries and rotating where a node's subtrees differ in height by two:
 * O(log n) per insertion or removal. */
#include "lib/avl_tree.h"

static void refresh(struct avl_tree *t, struct avl_node *n) {
  int l = avl_height(n->left), r = avl_height(n->right);
  n->height = 1 + (l > r ? l : r);
  if (t->update) t->update(n);
}

/* Makes `to` the child of `parent` that `from` was (or the root). */
static void replace_child(struct avl_tree *t, struct avl_node *parent, struct avl_node *from,
                          struct avl_node *to) {
  if (!parent)
    t->root = to;
  else if (parent->left == from)
    parent->left = to;
  else
    parent->right = to;
  if (to) to->parent = parent;
}

/* x's right child takes x's place; returns it. */
static struct avl_node *rotate_left(struct avl_tree *t, struct avl_node *x) {
  struct avl_node *y = x->right;
  replace_child(t, x->parent, x, y);
  x->right = y->left;
  if (x->right) x->right->parent = x;
  y->left = x;
  x->parent = y;
  refresh(t, x);
  refresh(t, y);
  return y;
}

static struct avl_node *rotate_right(struct avl_tree *t, struct avl_node *x) {
  struct avl_node *y = x->left;
  replace_child(t, x->parent, x, y);
  x->left = y->right;
  if (x->left) x->left->parent = x;
  y->right = x;
  x->parent = y;
  refresh(t, x);
  refresh(t, y);
  return y;
}

/* From n (NULL: nothing) to the root: heights, summaries, balance. */
static void rebalance_up(struct avl_tree *t, struct avl_node *n) {
  while (n) {
    refresh(t, n);
    int balance = avl_height(n->left) - avl_height(n->right);
    if (balance > 1) {
      if (avl_height(n->left->left) < avl_height(n->left->right)) rotate_left(t, n->left);
      n = rotate_right(t, n);
    } else if (balance < -1) {
      if (avl_height(n->right->right) < avl_height(n->right->left)) rotate_right(t, n->right);
      n = rotate_left(t, n);
    }
    n = n->parent;
  }
}

void avl_insert(struct avl_tree *t, struct avl_node *parent, struct avl_node **link,
                struct avl_node *n) {
  n->left = n->right = NULL;
  n->parent = parent;
  n->height = 1;
  *link = n;
  rebalance_up(t, n);
}

static struct avl_node *leftmost(struct avl_node *n) {
  while (n->left) n = n->left;
  return n;
}

void avl_remove(struct avl_tree *t, struct avl_node *n) {
  struct avl_node *from;
  if (!n->left || !n->right) {
    from = n->parent;
    replace_child(t, n->parent, n, n->left ? n->left : n->right);
  } else {
    /* The successor s (no left child) takes n's place. */
    struct avl_node *s = leftmost(n->right);
    if (s->parent == n) {
      from = s;
    } else {
      from = s->parent;
      from->left = s->right;
      if (s->right) s->right->parent = from;
      s->right = n->right;
      s->right->parent = s;
    }
    s->left = n->left;
    s->left->parent = s;
    replace_child(t, n->parent, n, s);
  }
  n->left = n->right = n->parent = NULL;
  rebalance_up(t, from);
}

void avl_update_path(struct avl_tree *t, struct avl_node *n) {
  for (; n; n = n->parent) refresh(t, n);
}

struct avl_node *avl_first(const struct avl_tree *t) {
  return t->root ? leftmost(t->root) : NULL;
}

struct avl_node *avl_next(const struct avl_node *n) {
  if (n->right) return leftmost(n->right);
  while (n->parent && n == n->parent->right) n = n->parent;
  return n->parent;
}

struct avl_node *avl_prev(const struct avl_node *n) {
  if (n->left) {
    n = n->left;
    while (n->right) n = n->right;
    return (struct avl_node *)n;
  }
  while (n->parent && n == n->parent->left) n = n->parent;
  return n->parent;
}
