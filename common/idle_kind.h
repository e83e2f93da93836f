/*
 * idle_kind: HTA's rules on kernel and event names (hta/common/types.py,
 * hta/utils/utils.py), as the regular expressions there match with
 * Python's re.match: anchored at the start, and "." not crossing a
 * newline, so ".*X" means "X in the first line".
 *
 *	enum idle_ktype t = idle_kernel_type(name, len);
 *	if (idle_is_comm(name, len)) ...
 *	n = idle_shorten_name(name, len, out);      out has room for len bytes
 *
 * Kernel types (get_kernel_type), first match wins:
 *   COMMUNICATION  ^nccl, ^hip, ^hccl, or "ncclKernel" in the first line
 *   MEMORY         ^Memcpy, ^hipMemcpy, ^Memset, ^hipMemset, ^dma
 *                  (so "hipMemcpy..." is COMMUNICATION, as in HTA)
 *   COMPUTATION    none of: ^nccl, Memcpy/Memset/dma/Sync in the first
 *                  line, ^Stream Wait Event, ^cuda…LaunchKernel,
 *                  ^runFunction, ^hip, ^job_exe, ^packet, ^pe_exe,
 *                  ^cpum_exe_subgraph, ^hccl, ^collective_subgraph_execution
 *   OTHER          the rest (e.g. "Event Sync")
 */
#ifndef TL_IDLE_KIND_H
#define TL_IDLE_KIND_H

#include <stddef.h>

/* Values are HTA's KernelType enum values. */
enum idle_ktype { IDLE_COMM = 0, IDLE_MEMORY = 1, IDLE_COMPUTE = 2, IDLE_OTHER = 3 };

enum idle_ktype idle_kernel_type(const char *name, size_t len);
/* HTA's KernelType names: "COMMUNICATION", "MEMORY", ... */
const char *idle_ktype_name(enum idle_ktype t);
int idle_is_comm(const char *name, size_t len);
int idle_is_memory(const char *name, size_t len);
/* "ProfilerStep#" followed by a digit (HTA's ProfilerStepGroupingPattern). */
int idle_is_profiler_step(const char *name, size_t len);
/*
 * HTA's shorten_name(): template arguments <...> and argument lists (...)
 * removed with its stack rule, "->" dropped, then the last space-separated
 * word; memory kernels and names without '<' or '(' unchanged.  Writes at
 * most len bytes to out and returns the length.
 */
size_t idle_shorten_name(const char *name, size_t len, char *out);

#endif
