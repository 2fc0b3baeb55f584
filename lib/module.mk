# lib/: interfaces and helpers every layer may use (no platform code here).
LIB_SRCS      := lib/avl_tree.c lib/options.c lib/log_levels.c lib/lock.c
LIB_TEST_SRCS := lib/test_runner.c
