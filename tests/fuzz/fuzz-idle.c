/*
 * fuzz-idle: tl-idle's stream reader (idle_set_read: the event or node
 * stream, HTA's row rules, ns rounding, correlation and ProfilerStep
 * filter) and what it computes from it: every breakdown and sheet of
 * idle_report_write (temporal, idle time, overlap, kernel types, launch
 * statistics, queue length, api_kernel_summary), and, when the input
 * names a "ProfilerStep", HTA's critical path of that annotation.  The sheets go to a
 * scratch folder of this process, removed at exit.
 *
 * Dictionary: tsv
 */
#include <ftw.h>
#include <stdio.h>
#include <string.h>

#include "critpath_graph.h"
#include "critpath_path.h"
#include "fuzz.h"
#include "idle_report.h"
#include "idle_trace.h"
#include "outbuf.h"

static char dir[64];

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(p);
}

static void rm_dir(void)
{
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

static void breakdowns(const char *path, unsigned pick)
{
	struct idle_set set;
	struct idle_opts o = IDLE_OPTS_INIT;

	if (pick & 4)
		idle_ranks_parse(&o, "all");
	idle_set_init(&set, 0);
	if (idle_set_read(&set, path) == 0 && idle_set_finish(&set) == 0)
		idle_report_write(&set, &o, dir);
	idle_set_release(&set);
	idle_opts_release(&o);
}

static void critical_path(const char *path, unsigned pick)
{
	struct idle_set set;
	struct critpath g;
	char *load[] = { "DataLoader" };

	idle_set_init(&set, 1);
	if (idle_set_read(&set, path) == 0 && idle_set_finish(&set) == 0 && set.n) {
		if (critpath_build(&g, &set, &set.t[0], "ProfilerStep", 0, pick & 4 ? 1 : 0,
				   load, 1) == 0) {
			if (critpath_solve(&g) == 0) {
				struct outbuf *ob = outbuf_open_fd(1);
				critpath_write_summary(&g, ob);
				critpath_write_breakdown(&g, ob);
				outbuf_close(ob);
			}
		}
		critpath_release(&g);
	}
	idle_set_release(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	unsigned pick = fuzz_pick(data, size);
	int fd;

	fuzz_init("tl-idle");
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/tl-fuzz-idle.%d", (int)getpid());
		atexit(rm_dir);
	}
	if ((fd = fuzz_file(data, size, path, sizeof(path))) < 0)
		return 0;
	breakdowns(path, pick);
	if (memmem(data, size, "ProfilerStep", 12))
		critical_path(path, pick);
	close(fd);
	return 0;
}
