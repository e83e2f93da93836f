/*
 * py-set: replays "a KEY" (add) and "d KEY" (discard) lines from stdin on
 * a py_set and prints its iteration order after each "p" line, for
 * t3300 to compare with python3's own set.
 */
#include <stdio.h>
#include <stdlib.h>

#include "py_set.h"

int main(void)
{
	struct py_set s;
	char op;
	long long key;

	py_set_init(&s);
	while (scanf(" %c", &op) == 1) {
		if (op == 'p') {
			size_t pos = 0;
			int64_t v;
			const char *sep = "";
			while (py_set_next(&s, &pos, &v)) {
				printf("%s%lld", sep, (long long)v);
				sep = " ";
			}
			printf("\n");
			continue;
		}
		if (scanf("%lld", &key) != 1)
			return 1;
		if (op == 'a')
			py_set_add(&s, key);
		else
			py_set_discard(&s, key);
	}
	py_set_release(&s);
	return 0;
}
