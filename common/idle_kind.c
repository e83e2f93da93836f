#include <string.h>

#include "idle_kind.h"
#include "banned.h"

static int starts(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);
	return n >= k && !memcmp(s, p, k);
}

/* Length of the first line: ".*" in a Python regex stops at a newline. */
static size_t first_line(const char *s, size_t n)
{
	const char *nl = memchr(s, '\n', n);
	return nl ? (size_t)(nl - s) : n;
}

/* Does p occur in s[from..n)? */
static int has_from(const char *s, size_t n, size_t from, const char *p)
{
	size_t k = strlen(p);
	for (size_t i = from; i + k <= n; i++)
		if (s[i] == p[0] && !memcmp(s + i, p, k))
			return 1;
	return 0;
}

int idle_is_comm(const char *s, size_t n)
{
	return starts(s, n, "nccl") || starts(s, n, "hip") || starts(s, n, "hccl") ||
	       has_from(s, first_line(s, n), 0, "ncclKernel");
}

int idle_is_memory(const char *s, size_t n)
{
	return starts(s, n, "Memcpy") || starts(s, n, "hipMemcpy") ||
	       starts(s, n, "Memset") || starts(s, n, "hipMemset") || starts(s, n, "dma");
}

/* ComputeKernelGroupingPattern, which HTA applies inverted. */
static int not_compute(const char *s, size_t n)
{
	static const char *const prefixes[] = {
		"nccl", "Stream Wait Event", "runFunction", "hip", "job_exe", "packet",
		"pe_exe", "cpum_exe_subgraph", "hccl", "collective_subgraph_execution",
	};
	size_t line = first_line(s, n);

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (starts(s, n, prefixes[i]))
			return 1;
	if (has_from(s, line, 0, "Memcpy") || has_from(s, line, 0, "Memset") ||
	    has_from(s, line, 0, "dma") || has_from(s, line, 0, "Sync"))
		return 1;
	/* (cuda.*LaunchKernel): "cuda" at 0, LaunchKernel later on that line */
	return starts(s, n, "cuda") && has_from(s, line, 4, "LaunchKernel");
}

enum idle_ktype idle_kernel_type(const char *s, size_t n)
{
	if (idle_is_comm(s, n))
		return IDLE_COMM;
	if (idle_is_memory(s, n))
		return IDLE_MEMORY;
	if (!not_compute(s, n))
		return IDLE_COMPUTE;
	return IDLE_OTHER;
}

const char *idle_ktype_name(enum idle_ktype t)
{
	switch (t) {
	case IDLE_COMM: return "COMMUNICATION";
	case IDLE_MEMORY: return "MEMORY";
	case IDLE_COMPUTE: return "COMPUTATION";
	default: return "OTHER";
	}
}

int idle_is_profiler_step(const char *s, size_t n)
{
	return n > 13 && starts(s, n, "ProfilerStep#") && s[13] >= '0' && s[13] <= '9';
}

size_t idle_shorten_name(const char *s, size_t n, char *out)
{
	size_t top = 0, i, start;

	if (idle_is_memory(s, n) || (!memchr(s, '<', n) && !memchr(s, '(', n))) {
		memcpy(out, s, n);
		return n;
	}
	/* out is the stack; "->" is removed before the scan */
	for (i = 0; i < n; i++) {
		char c = s[i];
		if (c == '-' && i + 1 < n && s[i + 1] == '>') {
			i++;
			continue;
		}
		if (c == '>' || c == ')') {
			char open = c == '>' ? '<' : '(';
			while (top && out[top - 1] != open)
				top--;
			if (top)
				top--;
		} else {
			out[top++] = c;
		}
	}
	/* "".join(stack).split(" ")[-1] */
	for (start = top; start > 0 && out[start - 1] != ' '; start--)
		;
	memmove(out, out + start, top - start);
	return top - start;
}
