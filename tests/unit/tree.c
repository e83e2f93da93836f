/*
 * Unit tests of common/tree through its interface only, the way tl-diff
 * or tl-perf would call it: events in, tree_build, queries out.
 */
#include <string.h>

#include "tree.h"
#include "tap.h"
#include "banned.h"

static void ev(struct tree_event *e, unsigned long uid, const char *cat,
	       const char *name, const char *pid, const char *tid, const char *ts,
	       const char *dur, const char *corr)
{
	memset(e, 0, sizeof(*e));
	e->uid = uid;
	e->ph = "X";
	e->cat = cat;
	e->name = name;
	e->pid = pid;
	e->tid = tid;
	e->ts = ts;
	e->dur = dur;
	e->id = e->ext = e->seq = "";
	e->corr = corr;
	e->has_args = 1;
	e->args = "{}";	/* a correlation comes in its column */
}

static void flow(struct tree_event *e, unsigned long uid, const char *ph,
		 const char *id, const char *pid, const char *tid)
{
	ev(e, uid, "ac2g", "ac2g", pid, tid, "0", "", "");
	e->ph = ph;
	e->id = id;
	e->has_args = 0;
}

int main(void)
{
	struct tree *t = tree_new(0);
	struct tree_event e;
	uint32_t n, op, rt;
	double d;

	ev(&e, 0, "cpu_op", "aten::mm", "1", "1", "0", "100", "");
	tap_ok(tree_add(t, &e) == 0, "add a cpu_op");
	ev(&e, 1, "cuda_runtime", "cudaGraphLaunch", "1", "1", "10", "5", "9");
	tree_add(t, &e);
	/* touching intervals merge: [1000,1004) [1004,1006) [1010,1011) */
	ev(&e, 2, "kernel", "k1", "0", "7", "1000", "4", "9");
	tree_add(t, &e);
	ev(&e, 3, "kernel", "k2", "0", "8", "1004", "2", "9");
	tree_add(t, &e);
	ev(&e, 4, "kernel", "ncclKernel", "0", "7", "1010", "1", "9");
	tree_add(t, &e);
	flow(&e, 5, "s", "9", "1", "1");
	tree_add(t, &e);
	ev(&e, 5, "cpu_op", "aten::x", "1", "1", "200", "1", "");
	tap_ok(tree_add(t, &e) < 0, "a repeated uid is refused");
	ev(&e, 7, "python_function", "f", "1", "1", "0", "1000", "");
	tap_ok(tree_add(t, &e) == 0, "python frames are accepted and ignored");
	tree_build(t);

	op = tree_find(t, 0);
	rt = tree_find(t, 1);
	tap_ok(op != TREE_NONE && rt != TREE_NONE, "find nodes by uid");
	tap_ok(tree_find(t, 5) == TREE_NONE, "flows are not nodes");
	tap_ok(tree_find(t, 7) == TREE_NONE, "python frames are not kept without TREE_PYTHON");
	tap_ok(tree_at(t, rt)->parent == op, "the launch nests in the op");
	tap_ok(tree_at(t, rt)->link == TLK_GRAPH, "a graph launch links by correlation");
	tap_str(tree_link_word(tree_at(t, rt)->link), "graph", "its link word");
	tap_ok(tree_at(t, op)->gpu_n == 3, "gpu_n counts every GPU event below");
	tap_ok(tree_gpu_busy(t, op) == 7.0, "busy time merges touching intervals");
	d = tree_kernel_direct(t, op, &n);
	tap_ok(d == 6.0 && n == 2, "direct time leaves the NCCL kernel out");
	d = tree_kernel_direct(t, rt, &n);
	tap_ok(d < 0 && n == 0, "the runtime event is no launcher here");
	tap_ok(tree_at(t, tree_find(t, 4))->launcher == TREE_NONE, "NCCL kernels have no launcher");
	tap_ok(tree_at(t, tree_find(t, 2))->launcher == op, "kernels go to the nearest cpu_op");
	tap_str(tree_stats(t).key, "correlation", "the linking key");
	tree_free(t);
	return tap_done();
}
