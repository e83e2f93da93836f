/*
 * coll_name: TraceLens's is_communication_string (util.py:551-565): a
 * kernel name is communication when re.search finds "rccl", "nccl" or
 * "cross_device_reduce" in it under re.IGNORECASE.  One definition for
 * every stage that asks (tl-tree's launcher links, tl-perf, tl-timeline,
 * tl-coll), so they cannot disagree on a name.
 *
 *	if (coll_name_match(name, strlen(name))) ...
 *	if (coll_name_search(name, len, "cross_device_reduce")) ...
 */
#ifndef TL_COLL_NAME_H
#define TL_COLL_NAME_H

#include <stddef.h>

/* Does a kernel name match TraceLens's communication patterns? */
int coll_name_match(const char *name, size_t len);
/*
 * coll_name_match remembered in *memo (0: not asked yet, 1: no, 2: yes),
 * for callers that keep a byte per pooled name: kernel names are long and
 * few, and each is asked about for every kernel that bears it.
 */
int coll_name_match_memo(unsigned char *memo, const char *name, size_t len);
/* re.search(pat, name, re.IGNORECASE) for a lower-case ASCII pat */
int coll_name_search(const char *name, size_t len, const char *pat);

#endif
