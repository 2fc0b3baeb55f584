/* Tests of the intrusive AVL tree (lib/avl_tree.h): random insertions and
 * removals checked against a sorted reference array, with every invariant
 * (order, parent links, heights, balance, subtree summaries) verified
 * after each change. */
#include <stdint.h>
#include <stdlib.h>

#include "lib/avl_tree.h"
#include "lib/test.h"

#define ITEMS 2000

struct item {
  struct avl_node node;
  unsigned key;
  unsigned long long sum; /* keys of the subtree: the summary under test */
  bool in_tree;
};

static struct item items[ITEMS];

static struct item *item_of(struct avl_node *n) {
  return n ? avl_entry(n, struct item, node) : NULL;
}

static void update_sum(struct avl_node *n) {
  struct item *it = item_of(n);
  it->sum =
      it->key + (n->left ? item_of(n->left)->sum : 0) + (n->right ? item_of(n->right)->sum : 0);
}

static void insert(struct avl_tree *t, struct item *it) {
  struct avl_node *parent = NULL, **link = &t->root;
  while (*link) {
    parent = *link;
    link = it->key < item_of(parent)->key ? &parent->left : &parent->right;
  }
  avl_insert(t, parent, link, &it->node);
  it->in_tree = true;
}

/* Checks the subtree under n; returns its height, or -1 (and says why). */
static int check(const struct avl_node *n, const struct avl_node *parent, unsigned lo, unsigned hi,
                 const char **why) {
  if (!n) return 0;
  const struct item *it = avl_entry(n, struct item, node);
  if (n->parent != parent) return *why = "parent link", -1;
  if (it->key < lo || it->key > hi) return *why = "order", -1;
  int l = check(n->left, n, lo, it->key, why);
  if (l < 0) return -1;
  int r = check(n->right, n, it->key, hi, why);
  if (r < 0) return -1;
  if (l - r > 1 || r - l > 1) return *why = "balance", -1;
  if (n->height != 1 + (l > r ? l : r)) return *why = "height", -1;
  unsigned long long sum = it->key + (n->left ? avl_entry(n->left, struct item, node)->sum : 0) +
                           (n->right ? avl_entry(n->right, struct item, node)->sum : 0);
  if (it->sum != sum) return *why = "summary", -1;
  return n->height;
}

static int compare_keys(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return x < y ? -1 : x > y;
}

/* The in-order walk, both ways, gives exactly the reference keys. */
static void assert_walk_matches(const struct avl_tree *t) {
  static unsigned want[ITEMS];
  int n = 0;
  for (int i = 0; i < ITEMS; i++)
    if (items[i].in_tree) want[n++] = items[i].key;
  qsort(want, (size_t)n, sizeof want[0], compare_keys);
  int i = 0;
  const struct avl_node *last = NULL;
  for (struct avl_node *p = avl_first(t); p; p = avl_next(p), i++) {
    ASSERT_LT(i, n);
    ASSERT_EQ(avl_entry(p, struct item, node)->key, want[i]);
    last = p;
  }
  ASSERT_EQ(i, n);
  for (const struct avl_node *p = last; p; p = avl_prev(p))
    ASSERT_EQ(avl_entry(p, struct item, node)->key, want[--i]);
  ASSERT_EQ(i, 0);
}

TEST(avl_tree_random_inserts_and_removals_keep_every_invariant) {
  struct avl_tree t = {NULL, update_sum};
  srand(12345);
  for (int i = 0; i < ITEMS; i++)
    items[i] = (struct item){.key = (unsigned)rand() % 500}; /* duplicates too */
  const char *why = "";
  for (int round = 0; round < 6 * ITEMS; round++) {
    struct item *it = &items[rand() % ITEMS];
    if (it->in_tree) {
      avl_remove(&t, &it->node);
      it->in_tree = false;
    } else {
      insert(&t, it);
    }
    if (check(t.root, NULL, 0, UINT32_MAX, &why) < 0)
      FAIL("after round %d: %s", round, why);
    if (round % 500 == 0) assert_walk_matches(&t);
  }
  assert_walk_matches(&t);
  /* Balanced: a tree of n nodes is at most 1.44 log2(n + 2) high. */
  int n = 0;
  for (int i = 0; i < ITEMS; i++) n += items[i].in_tree;
  int log2n = 0;
  while ((1 << log2n) < n + 2) log2n++;
  ASSERT_LE(avl_height(t.root) * 100, 144 * log2n);
  /* Emptied one by one from the root, the hardest removal. */
  while (t.root) {
    struct item *it = item_of(t.root);
    avl_remove(&t, t.root);
    it->in_tree = false;
    if (check(t.root, NULL, 0, UINT32_MAX, &why) < 0)
      FAIL("emptying: %s", why);
  }
  ASSERT_NULL(avl_first(&t));
}

TEST(avl_tree_sorted_insertions_stay_logarithmic) {
  struct avl_tree t = {NULL, NULL};
  for (int i = 0; i < ITEMS; i++) {
    items[i] = (struct item){.key = (unsigned)i};
    insert(&t, &items[i]);
  }
  ASSERT_LE(avl_height(t.root), 16); /* 1.44 log2(2002) < 16; a list would be 2000 */
  /* A summary changed in place is carried up by avl_update_path. */
  t.update = update_sum;
  for (int i = 0; i < ITEMS; i++) avl_update_path(&t, &items[i].node);
  const char *why = "";
  ASSERT_GT(check(t.root, NULL, 0, UINT32_MAX, &why), 0);
  items[7].key = 7; /* same order */
  items[7].sum += 1000;
  avl_update_path(&t, &items[7].node); /* recomputes 7's own sum from its children too */
  ASSERT_GT(check(t.root, NULL, 0, UINT32_MAX, &why), 0);
  assert_walk_matches(&t);
}
