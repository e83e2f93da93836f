/*
 * replay_script: DIR/replay.py, the stand-alone Python script tl-replay
 * writes: share/tl/replay.py.in with its @OPS@ line replaced by the chosen
 * ops (name, count, and the profiler's Input type / Dims / Strides /
 * Concrete Inputs, nothing else of the trace).  The script resolves each
 * schema in the torch that runs it (tl-replay(1)).
 *
 *	struct pystr ops = {0};
 *	replay_script_add(&ops, "aten::mm", 3, &ir);    per op, in order
 *	replay_script_write("DIR/replay.py", &ops);     0, or -1: message printed
 */
#ifndef TL_REPLAY_SCRIPT_H
#define TL_REPLAY_SCRIPT_H

#include "py_repr.h"
#include "replay_ir.h"

void replay_script_add(struct pystr *ops, const char *name, long count,
		       const struct replay_ir *ir);
int replay_script_write(const char *path, const struct pystr *ops);

#endif
