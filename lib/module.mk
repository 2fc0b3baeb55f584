# lib/: interfaces and helpers every layer may use (no platform code here).
LIB_SRCS      :=
LIB_TEST_SRCS := lib/test_runner.c
