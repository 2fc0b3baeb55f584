# cl/: the OpenCL C side of the CPU agents, linked by tools/hsacc into the
# CPU part of every file it builds (cl/cpu_abi.h): the work-item functions,
# barriers and work-group scheduler (CL_WORKITEM_SRCS, C for x86-64) and
# the OpenCL C built-in library (CL_BUILTIN_SRCS).
CL_WORKITEM_SRCS := cl/workitem.c
# The built-in library (cl/builtins/clb.h says what it defines and imports);
# printf.c is C (OpenCL C cannot define a variadic function).
CL_BUILTIN_SRCS := cl/builtins/half.cl cl/builtins/math.cl cl/builtins/integer.cl \
                   cl/builtins/common.cl cl/builtins/relational.cl cl/builtins/vload.cl \
                   cl/builtins/convert.cl cl/builtins/atomic.cl cl/builtins/shuffle.cl \
                   cl/builtins/async.cl cl/builtins/printf.c
