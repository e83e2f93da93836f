/* report_idle: the "Why the GPU waits" table's columns (report_idle.h). */
#include "report_idle.h"

const struct report_idle_col report_idle_cols[REPORT_IDLE_NCOLS] = {
	{ "rank", "rank", 0, 0 },
	{ "idle_pct", "GPU idle %", 0, 2 },
	{ "host_wait_us", "stream idle: waiting on the host (ms)", 1e-3, 3 },
	{ "kernel_wait_us", "between kernels (ms)", 1e-3, 3 },
	{ "other_wait_us", "other (ms)", 1e-3, 3 },
	{ "comm_comp_overlap_pct", "comm overlapped by compute %", 0, 2 },
	{ "launches", "launches", 0, 0 },
	{ "short_kernels", "short kernels behind longer launch calls", 0, 0 },
	{ "launch_delay_p50_us", "launch delay p50 (\xc2\xb5s)", 1, 3 },
	{ "launch_delay_p99_us", "launch delay p99 (\xc2\xb5s)", 1, 3 },
	{ "max_queue_length", "longest launch queue", 0, 0 },
};
