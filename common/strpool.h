/*
 * strpool: interned strings.  Each distinct byte string is stored once in
 * a bump arena and named by a small integer id; equal strings get equal
 * ids, so callers compare and hash ids instead of text.
 *
 *	struct strpool *sp = strpool_new();
 *	uint32_t id = strpool_intern(sp, name, len);
 *	const char *s = strpool_str(sp, id);     NUL-terminated, stable
 *	strpool_free(sp);
 *
 * Id 0 is always the empty string.  Strings may contain NUL bytes; use
 * strpool_len() for their length.
 */
#ifndef TL_STRPOOL_H
#define TL_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

struct strpool;

struct strpool *strpool_new(void);
void strpool_free(struct strpool *sp);
uint32_t strpool_intern(struct strpool *sp, const char *s, size_t len);
/* Returns the id of s if interned, else UINT32_MAX; never adds. */
uint32_t strpool_find(const struct strpool *sp, const char *s, size_t len);
const char *strpool_str(const struct strpool *sp, uint32_t id);
size_t strpool_len(const struct strpool *sp, uint32_t id);
uint32_t strpool_count(const struct strpool *sp);
/* Bytes held by the pool, for -v reports and benchmarks. */
size_t strpool_bytes(const struct strpool *sp);

/* FNV-1a, exposed because other hash tables in tl use the same one. */
uint64_t tl_hash(const void *p, size_t len);

#endif
