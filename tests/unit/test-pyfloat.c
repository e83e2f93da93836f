/*
 * py_float_repr() against Python's own repr(): reads "HEX<TAB>REPR" lines
 * (tests/t1235-common-pyfloat.tsv, made by its .gen.py with Python 3) and
 * checks every double, the microsecond values tl's CSVs are made of, any
 * bit pattern, powers of two and their neighbours, and the edges of the
 * fixed/scientific switch.  One TAP line per input line that differs, and
 * one for the whole file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "py_fmt.h"
#include "tap.h"

int main(int argc, char **argv)
{
	char line[256], buf[PY_FLOAT_MAX], what[300];
	FILE *f;
	int n = 0, bad = 0;

	if (argc != 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: test-pyfloat FILE.tsv\n");
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), *nl;

		if (!tab)
			continue;
		*tab++ = '\0';
		if ((nl = strchr(tab, '\n')))
			*nl = '\0';
		py_float_repr(strtod(line, NULL), buf);
		n++;
		if (strcmp(buf, tab)) {
			bad++;
			snprintf(what, sizeof(what), "repr(%s)", line);
			tap_str(buf, tab, what);
		}
	}
	fclose(f);
	snprintf(what, sizeof(what), "%d of %d doubles written as Python's repr", n - bad, n);
	tap_ok(n > 6000 && bad == 0, what);
	return tap_done();
}
