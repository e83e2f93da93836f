/*
 * critpath_overlay: HTA's overlay_critical_path_analysis with its
 * defaults (only_show_critical_events): the trace again, with
 *   - every event on the path marked args.critical = 1,
 *   - only the events that are not complete ("X") events, user
 *     annotations, Python functions or marked critical kept,
 *   - a flow ("s"/"f", cat and name "critical_path") for each dependency,
 *     launch-delay and sync edge of the path, args {weight, critical,
 *     type}, at the start of a start node's event and at the end of an end
 *     node's (1 µs earlier on a GPU), ids in path order.
 * The events are rebuilt from the node stream's columns (tl-stream(5):
 * nothing was lost), one per line, top-level keys where they stood; the
 * file is gzip when its name ends in .gz.  Perfetto and chrome://tracing
 * open it.
 *
 *	rval = critpath_overlay(&g, nodes_path, dir);    0, or -1 with a message
 *
 * The file is DIR/overlaid_critical_path_NAME, NAME the trace's file name
 * (its member name inside an archive; "trace.json" for standard input).
 */
#ifndef TL_CRITPATH_OVERLAY_H
#define TL_CRITPATH_OVERLAY_H

struct critpath;

int critpath_overlay(const struct critpath *g, const char *nodes_path, const char *dir);

#endif
