/*
 * opname: the name rewriting TraceLens's TraceDiff does before it compares
 * op names across two traces (TraceDiff/util.py,
 * _normalize_name_for_comparison), and the "(N)" stripping of its
 * lowest-common-ancestor labels.
 *
 *	struct opname on;  opname_init(&on);
 *	const char *s = opname_norm(&on, name, len, strip_details);
 *	... s is valid until the next call on the same struct ...
 *	opname_release(&on);
 *
 * opname_norm rewrites, in this order:
 *   0x<hex digits>        -> 0xXXXX           (object addresses)
 *   .py(<digits>):        -> .py:             (python line numbers)
 * and with strip_details also
 *   ":<white space><non-white>" at the end     -> removed
 *   "<dirs>/<base>.py" (the whole string)      -> <base>.py
 * then maps hipModuleLaunchKernel and cuLaunchKernel to
 * "__kernel_launch__" (the only two launch APIs TraceDiff unifies).
 */
#ifndef TL_OPNAME_H
#define TL_OPNAME_H

#include <stddef.h>

struct opname {
	char *buf;
	size_t len, alloc;
};

void opname_init(struct opname *on);
void opname_release(struct opname *on);
const char *opname_norm(struct opname *on, const char *s, size_t n, int strip_details);
/* s with every "(<digits>)" removed (re.sub(r"\(\d+\)", "", s)). */
const char *opname_unparen(struct opname *on, const char *s, size_t n);

#endif
