/*
 * replay_input: tl-replay's input, a node stream or a trace.  A file whose
 * first bytes are not a tl stream's "#tl-" is taken for a trace (any kind
 * tl-cat reads) and turned into its node stream here, by running
 * "tl-cat FILE | tl-tree" (the programs beside this one, else on PATH), so
 * that "tl-replay -o DIR trace.json.gz" works as the pipeline does.
 *
 *	struct tree_nodes *ns = replay_input_read(path);   NULL: message printed
 *
 * path NULL or "-": standard input, which must be a node stream.
 */
#ifndef TL_REPLAY_INPUT_H
#define TL_REPLAY_INPUT_H

#include "tree_nodes.h"

struct tree_nodes *replay_input_read(const char *path);

#endif
