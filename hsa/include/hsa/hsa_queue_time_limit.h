/*
 * hsa_queue_time_limit.h - a time limit for a GPU queue's packets (an
 * hsa-metal extension; not part of ROCr).
 *
 * A dispatch that runs away (an endless loop in a kernel) holds its queue
 * forever. With a limit, a GPU queue whose oldest packet has not finished
 * within `limit_ns` nanoseconds while packets wait is stopped: its waves
 * are killed and its error callback runs with HSA_STATUS_ERROR_EXCEPTION
 * (the packet's completion signal is never decremented). The runtime
 * notices within a few milliseconds while a thread waits on a signal
 * (hsa_signal_wait_*), which is what a program waiting for the runaway
 * dispatch does.
 *
 *   hsa_queue_set_time_limit(queue, 2000000000ull);   // 2 s
 *
 * The boot option / HSAR_OPTIONS key gpu_dispatch_timeout_ms gives every
 * new GPU queue a limit (default none). `limit_ns` 0 removes it.
 * Returns HSA_STATUS_SUCCESS, HSA_STATUS_ERROR_INVALID_QUEUE (not a live
 * queue), or HSA_STATUS_ERROR_INVALID_ARGUMENT (a queue no GPU agent
 * runs: CPU agents and soft queues have no limit).
 */
#ifndef HSA_QUEUE_TIME_LIMIT_H
#define HSA_QUEUE_TIME_LIMIT_H

#include "hsa.h"

#ifdef __cplusplus
extern "C" {
#endif

hsa_status_t HSA_API hsa_queue_set_time_limit(hsa_queue_t *queue, uint64_t limit_ns);

#ifdef __cplusplus
}
#endif

#endif
