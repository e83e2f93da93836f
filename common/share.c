#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "path.h"
#include "share.h"
#include "xalloc.h"
#include "banned.h"

#ifndef TL_SHAREDIR
#define TL_SHAREDIR "/usr/local/share/tl"
#endif

static char *try_path(const char *dir, const char *name)
{
	char *p = path_join(dir, name, "");

	if (access(p, R_OK) == 0)
		return p;
	free(p);
	return NULL;
}

char *tl_share_path(const char *name)
{
	char exe[PATH_MAX], dir[PATH_MAX + 16];
	const char *env = getenv("TL_SHARE");
	char *p;
	ssize_t n;

	if (env && *env && (p = try_path(env, name)))
		return p;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(dir, sizeof(dir), "%s/../share/tl", exe);
			if ((p = try_path(dir, name)))
				return p;
		}
	}
	return try_path(TL_SHAREDIR, name);
}
