#include <string.h>

#include "path.h"
#include "xalloc.h"
#include "banned.h"

char *path_join(const char *dir, const char *name, const char *suffix)
{
	size_t ld = strlen(dir), ln = strlen(name), ls = strlen(suffix);
	char *p = xmalloc(st_add(st_add(ld, ln), ls + 2));

	tl_memcpy(p, dir, ld);
	p[ld] = '/';
	tl_memcpy(p + ld + 1, name, ln);
	tl_memcpy(p + ld + 1 + ln, suffix, ls + 1);
	return p;
}
