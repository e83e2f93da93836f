#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "heap_pages.h"
#include "banned.h"

static const char tunables[] = "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=16777216";

void heap_pages_huge(char **argv)
{
	char self[PATH_MAX];
	ssize_t n;

	if (getenv("GLIBC_TUNABLES") || setenv("GLIBC_TUNABLES", tunables, 1) != 0)
		return;
	/* the file's name, not /proc/self/exe: under valgrind that is valgrind */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return;	/* 4 kB pages here; what it starts still gets the setting */
	self[n] = '\0';
	execv(self, argv);
}
