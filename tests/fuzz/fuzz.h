/*
 * fuzz.h: what every libFuzzer harness in tests/fuzz/ shares.
 *
 * A harness is one file, fuzz-NAME.c, that defines
 *
 *	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
 *
 * and feeds the bytes to one input surface of tl through the same library
 * calls its program makes.  The programs read files by name, so the bytes
 * go to a memory file first (fuzz_file) and its /proc/self/fd path is
 * what the reader opens.  Built with clang and -fsanitize=fuzzer it is a
 * fuzzer (make fuzz); built with tests/fuzz/replay.c instead of libFuzzer's
 * main it replays committed inputs in make check (tests/t0200-fuzz-replay.sh).
 *
 * Rules for a harness: never exit() on bad input (libFuzzer counts that as
 * a crash: the readers return errors, and so must the harness); free all
 * it allocates (LeakSanitizer runs too); write output to /dev/null through
 * fd 1, which fuzz_init points there.
 */
#ifndef TL_FUZZ_H
#define TL_FUZZ_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Once per process: the program name for messages, stdout to /dev/null
 * (every writer in tl writes to fd 1 or a named file), and TL_SHARE
 * pointing into the source tree so that ops.tsv and the arch tables load.
 */
static inline void fuzz_init(const char *prog)
{
	static int done;
	int fd;

	if (done++)
		return;
	tl_set_progname(prog);
	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0 && fd != 1) {
		dup2(fd, 1);
		close(fd);
	}
#ifdef FUZZ_SHARE
	setenv("TL_SHARE", FUZZ_SHARE, 0);
#endif
}

/*
 * The bytes as a file: returns its descriptor (close it when done) and
 * puts its name ("/proc/self/fd/N") in path.  -1 if no memory file could
 * be made, which the harness treats as "nothing to do".
 */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t n)
{
	int fd = memfd_create("fuzz", 0);
	size_t off = 0;

	if (fd < 0)
		return -1;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	lseek(fd, 0, SEEK_SET);
	snprintf(path, n, "/proc/self/fd/%d", fd);
	return fd;
}

/* A small deterministic choice from the input, for harnesses that try
 * options: the same bytes always take the same path. */
static inline unsigned fuzz_pick(const uint8_t *data, size_t size)
{
	unsigned h = (unsigned)size;

	for (size_t i = 0; i < size && i < 64; i++)
		h = h * 31 + data[i];
	return h;
}

#endif
