/*
 * fuzz-xlsx: tl-xlsx's CSV input (csv_read with its RFC 4180 and UTF-8
 * checks) and the worksheet writer (cell typing, XML escaping, Excel's
 * limits), one CSV as one sheet of a workbook written to stdout, whose
 * name is cut from the input's first bytes so that sheet-name rules run.
 *
 * Dictionary: csv
 */
#include <string.h>

#include "csv.h"
#include "fuzz.h"
#include "xlsx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], name[40];
	struct xlsx *x;
	struct csv c;
	size_t n = 0;
	int fd;

	fuzz_init("tl-xlsx");
	while (n < size && n < sizeof(name) - 1 && data[n] != '\n' && data[n])
		name[n] = (char)data[n], n++;
	name[n] = '\0';
	if ((fd = fuzz_file(data, size, path, sizeof(path))) < 0)
		return 0;
	if (csv_read(&c, path) == 0) {
		if ((x = xlsx_open("-"))) {
			xlsx_add_csv(x, n ? name : "sheet", &c);
			xlsx_add_csv(x, n ? name : "sheet", &c);	/* a clash: "~2" */
			xlsx_close(x);
		}
		csv_release(&c);
	}
	close(fd);
	return 0;
}
