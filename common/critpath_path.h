/*
 * critpath_path: the longest path of a critpath_graph and HTA's two tables
 * of it (CPGraph.critical_path, get_critical_path_breakdown, summary).
 *
 *	if (critpath_solve(&g) < 0) ...            message printed
 *	critpath_write_breakdown(&g, ob);          critical_path_breakdown.csv
 *	critpath_write_summary(&g, ob);            critical_path_summary.csv
 *
 * critpath_solve validates the graph as HTA does (weights of -1 or less
 * become 0 in the graph, the edge keeps its own; a sync between two rows
 * of one stream, or a cycle, fails) and runs networkx 2.8's
 * dag_longest_path: Kahn's topological order by generations in the
 * graph's insertion order, each node's best predecessor the first of
 * maximal distance, the path ending at the first node of maximal distance.
 *
 * The breakdown has one row per edge of the path, in path order (HTA
 * iterates a Python set of edges: its order changes from run to run), with
 * the attributed event's shortened name (HTA's shorten_name), category,
 * pid, tid, stream and index, and bound_by: cpu_bound (a CPU event),
 * gpu_communication_bound (an NCCL/RCCL kernel), gpu_compute_bound (other
 * GPU rows), gpu_kernel_kernel_overhead, gpu_kernel_launch_overhead, or
 * empty for dependencies and syncs.  cat is the category's symbol number:
 * HTA numbers symbols in Python's set order, which changes from run to
 * run; tl numbers them in order of first appearance in the trace.
 */
#ifndef TL_CRITPATH_PATH_H
#define TL_CRITPATH_PATH_H

struct critpath;
struct outbuf;

int critpath_solve(struct critpath *g);
void critpath_write_breakdown(const struct critpath *g, struct outbuf *ob);
void critpath_write_summary(const struct critpath *g, struct outbuf *ob);

#endif
