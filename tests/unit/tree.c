/*
 * Unit tests of common/tree through its interface only, the way tl-diff
 * or tl-perf would call it: events in, tree_build, queries out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree.h"
#include "tap.h"
#include "xorshift.h"
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

/*
 * Host ops in any file order nest by time: a random balanced bracket
 * sequence of 3000 pairs on one thread (each pair an op from its opening
 * to its closing position, all ends distinct), the ops given uids in a
 * shuffled order, so that build_stacks meets its events in many runs of
 * ts order (a trace has a few).  Each op's parent must be the pair that
 * encloses it, known from the sequence itself.
 */
enum { NEST = 3000 };

static int nest_shuffled(void)
{
	static int open_at[NEST], close_at[NEST], parent[NEST], order[NEST], uid_of[NEST];
	int stack[NEST], depth = 0, opened = 0, bad = 0;
	struct tree *t = tree_new(0);
	struct tree_event e;

	for (int pos = 0; pos < 2 * NEST; pos++) {
		if (opened < NEST && (depth == 0 || rnd(2))) {
			parent[opened] = depth ? stack[depth - 1] : -1;
			open_at[opened] = pos;
			stack[depth++] = opened++;
		} else {
			close_at[stack[--depth]] = pos;
		}
	}
	for (int i = 0; i < NEST; i++)
		order[i] = i;
	for (int i = NEST - 1; i > 0; i--) {
		int j = (int)rnd((unsigned)i + 1), x = order[i];
		order[i] = order[j];
		order[j] = x;
	}
	for (int u = 0; u < NEST; u++) {
		char ts[16], dur[16];
		int k = order[u];
		uid_of[k] = u;
		snprintf(ts, sizeof(ts), "%d", 10 * open_at[k]);
		snprintf(dur, sizeof(dur), "%d", 10 * (close_at[k] - open_at[k]));
		ev(&e, (unsigned long)u, "cpu_op", "op", "1", "1", ts, dur, "");
		if (tree_add(t, &e) < 0)
			bad++;
	}
	tree_build(t);
	for (int k = 0; k < NEST; k++) {
		uint32_t want = parent[k] < 0 ? TREE_NONE : tree_find(t, (unsigned long)uid_of[parent[k]]);
		if (tree_at(t, tree_find(t, (unsigned long)uid_of[k]))->parent != want && bad++ < 3)
			printf("# op at %d..%d: parent %u, want %u\n", open_at[k], close_at[k],
			       tree_at(t, tree_find(t, (unsigned long)uid_of[k]))->parent, want);
	}
	tree_free(t);
	return bad == 0;
}

int main(void)
{
	struct tree *t = tree_new(0);
	struct tree_event e;
	uint32_t n, op, rt;
	double d;
	struct tree_walk *w;

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
	w = tree_walk_new();
	tap_ok(tree_gpu_busy(t, w, op) == 7.0, "busy time merges touching intervals");
	d = tree_kernel_direct(t, w, op, &n);
	tap_ok(d == 6.0 && n == 2, "direct time leaves the NCCL kernel out");
	d = tree_kernel_direct(t, w, rt, &n);
	tap_ok(d < 0 && n == 0, "the runtime event is no launcher here");
	tap_ok(tree_at(t, tree_find(t, 4))->launcher == TREE_NONE, "NCCL kernels have no launcher");
	tap_ok(tree_at(t, tree_find(t, 2))->launcher == op, "kernels go to the nearest cpu_op");
	tap_str(tree_stats(t).key, "correlation", "the linking key");
	tree_walk_free(w);
	tree_free(t);
	tap_ok(nest_shuffled(), "3000 ops added in shuffled order nest by time, as their brackets do");
	return tap_done();
}
