/*
 * share: where tl's data files (share/tl: ops.tsv, the arch tables, ...) live.
 *
 * tl_share_path("ops.tsv") returns a malloc'd path to the first of
 *   $TL_SHARE/ops.tsv,
 *   <dir of the running program>/../share/tl/ops.tsv  (the source tree's
 *     bin/ and an installed PREFIX/bin alike),
 *   TL_SHAREDIR/ops.tsv (compiled in from the Makefile's SHAREDIR)
 * that exists, or NULL if none does.
 */
#ifndef TL_SHARE_H
#define TL_SHARE_H

char *tl_share_path(const char *name);

#endif
