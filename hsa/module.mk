# hsa/: the HSA runtime (built into the image and into the host library).
# hsa/loader/module.mk adds the code object loader's files to HSA_SRCS.
HSA_SRCS += hsa/runtime.c hsa/agent.c hsa/isa.c hsa/cpu_agent.c hsa/cpu_agent_queue.c hsa/cpu_info.c \
            hsa/cpu_kernel.c hsa/cl_program.c hsa/memory.c hsa/memory_async.c hsa/signal.c hsa/signal_event.c \
            hsa/signal_group.c hsa/signal_handler.c hsa/queue.c hsa/executable.c hsa/executable_symbol.c \
            hsa/amd_ext.c hsa/system_event.c hsa/image_ext.c \
            hsa/event.c hsa/object_set.c \
            hsa/gpu_agent.c hsa/gpu_agent_fault.c hsa/gpu_agent_queue.c \
            hsa/placement.c hsa/placement_model.c
