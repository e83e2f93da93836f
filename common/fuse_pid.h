/*
 * fuse_pid: the process ids of a fused trace (tl-fuse, TraceFusion).  Each
 * rank's processes get ids in a range of their own, [rank*M, (rank+1)*M),
 * so that no two ranks ever share one, and every id stays below 2^31
 * (Perfetto reads pids as 32-bit numbers):
 *
 *	M = the largest power of ten with nranks * M <= 2^31 - 1
 *
 * (10^8 for up to 21 ranks, 10^7 up to 214: every Linux pid, which is
 * below 2^22, then keeps its digits).  An integer pid p in [0, M) becomes
 * rank*M + p, as TraceLens's rank*offset + p; any other pid (a string such
 * as Kineto's "Spans", a negative or too large number), or one whose slot
 * another pid of the rank took already, gets the next free slot counted
 * down from rank*M + M - 1.  The table holds one entry per distinct
 * (rank, pid): memory is the number of processes, not of events.
 *
 *	struct fuse_pids *p = fuse_pids_new(nranks);
 *	long e = fuse_pids_map(p, rank, tok_text, tok_len, is_string);
 *	fuse_pids_pid(p, e)               the new id
 *	fuse_pids_note(p, e, is_gpu)      a non-metadata event of it was kept
 *	fuse_pids_write_names(p, ob, n)   process_name/_sort_index events
 *	fuse_pids_free(p);
 */
#ifndef TL_FUSE_PID_H
#define TL_FUSE_PID_H

#include <stddef.h>
#include <stdint.h>

struct fuse_pids;
struct outbuf;

struct fuse_pids *fuse_pids_new(unsigned nranks);
void fuse_pids_free(struct fuse_pids *p);
/* M above, for messages and tests. */
int64_t fuse_pids_stride(const struct fuse_pids *p);
/*
 * The entry of rank's pid whose JSON text (a number, or a string's
 * inner text with is_string set) is text[0..n); -1 when the rank has no
 * free slot left (M distinct processes).
 */
long fuse_pids_map(struct fuse_pids *p, unsigned rank, const char *text,
		   size_t n, int is_string);
int64_t fuse_pids_pid(const struct fuse_pids *p, long e);
void fuse_pids_note(struct fuse_pids *p, long e, int is_gpu);
/*
 * Writes, for every pid with a kept non-metadata event, sorted by new
 * pid (so by rank, then pid), TraceFusion's two metadata events: name
 * "RANK r - GPU" when a kernel, gpu_memcpy or gpu_memset event has that
 * pid, "RANK r - CPU" otherwise ("RANK r - NAME" for a pid that was the
 * non-empty string NAME), and sort index 2r (+1 for GPU), one per line.  written is
 * the number of events already in the array (each event after the first
 * is preceded by ",\n"); returns the number of events it wrote.
 */
uint64_t fuse_pids_write_names(struct fuse_pids *p, struct outbuf *ob,
			       uint64_t written);

#endif
