#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "stream.h"
#include "stream_rows.h"
#include "xalloc.h"
#include "banned.h"

/*
 * All fields live in one growing arena, each NUL-terminated; a row is the
 * arena offset of its first field, the others following in column order,
 * with each field's offset from the row's start kept in fo[] (a field may
 * hold a NUL byte of its own).  The (src, uid) → row map is an hmap.
 */
struct stream_rows {
	int ncols;
	char **cols;
	char *arena;
	size_t len, alloc;
	size_t *rows;		/* row k's first field */
	size_t nrows, arows;
	uint32_t *fo;		/* row k's field i: rows[k] + fo[k * ncols + i] */
	size_t afo;
	struct hmap map;	/* key (src << 32 | uid) + 1 → row */
};

struct stream_rows *stream_rows_new(const struct stream *s)
{
	struct stream_rows *r = xcalloc(1, sizeof(*r));

	r->ncols = stream_ncols(s);
	r->cols = xcalloc((size_t)r->ncols + 1, sizeof(*r->cols));
	for (int i = 0; i < r->ncols; i++)
		r->cols[i] = xstrdup(stream_colname(s, i));
	return r;
}

void stream_rows_free(struct stream_rows *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->ncols; i++)
		free(r->cols[i]);
	free(r->cols);
	free(r->arena);
	free(r->rows);
	free(r->fo);
	hmap_release(&r->map);
	free(r);
}

static uint64_t key(uint32_t src, uint32_t uid)
{
	return ((uint64_t)src << 32 | uid) + 1;
}

static int add(struct stream_rows *r, uint32_t src, uint32_t uid, const char *const *field,
	       const size_t *len)
{
	size_t need = 0;

	for (int i = 0; i < r->ncols; i++)
		need = st_add(need, len[i] + 1);
	if (need > UINT32_MAX)
		return -1;
	xgrow((void **)&r->arena, &r->alloc, st_add(r->len, need), 1);
	xgrow((void **)&r->rows, &r->arows, r->nrows + 1, sizeof(*r->rows));
	xgrow((void **)&r->fo, &r->afo, st_mult(r->nrows + 1, (size_t)r->ncols), sizeof(*r->fo));
	r->rows[r->nrows] = r->len;
	for (int i = 0; i < r->ncols; i++) {
		r->fo[r->nrows * (size_t)r->ncols + (size_t)i] = (uint32_t)(r->len - r->rows[r->nrows]);
		if (len[i])
			tl_memcpy(r->arena + r->len, field[i], len[i]);
		r->arena[r->len + len[i]] = '\0';
		r->len += len[i] + 1;
	}
	hmap_put(&r->map, key(src, uid), (uint32_t)r->nrows++);
	return 0;
}

int stream_rows_add(struct stream_rows *r, const struct stream *s, uint32_t src)
{
	const char *u = stream_field(s, stream_col(s, "uid"));
	const char **field = xmalloc(st_mult((size_t)r->ncols + 1, sizeof(*field)));
	size_t *len = xmalloc(st_mult((size_t)r->ncols + 1, sizeof(*len)));
	char *end;
	unsigned long uid;
	int rval = -1;

	if (*u >= '0' && *u <= '9' && (uid = strtoul(u, &end, 10), !*end) && uid < UINT32_MAX) {
		for (int i = 0; i < r->ncols; i++) {
			field[i] = stream_field(s, i);
			len[i] = stream_field_len(s, i);
		}
		rval = add(r, src, (uint32_t)uid, field, len);
	}
	free(field);
	free(len);
	return rval;
}

void stream_rows_add_fields(struct stream_rows *r, uint32_t src, uint32_t uid,
			    const char *const *field, const size_t *len)
{
	if (add(r, src, uid, field, len) < 0)
		return;
}

int stream_rows_has(const struct stream_rows *r, uint32_t src, uint32_t uid)
{
	uint32_t k;

	return hmap_get(&r->map, key(src, uid), &k);
}

int stream_rows_col(const struct stream_rows *r, const char *col)
{
	for (int i = 0; i < r->ncols; i++)
		if (!strcmp(r->cols[i], col))
			return i;
	return -1;
}

const char *stream_rows_field(const struct stream_rows *r, uint32_t src, uint32_t uid, int col)
{
	uint32_t k;

	if (!hmap_get(&r->map, key(src, uid), &k))
		return NULL;
	if (col < 0 || col >= r->ncols)
		return "";
	return r->arena + r->rows[k] + r->fo[(size_t)k * (size_t)r->ncols + (size_t)col];
}

const char *stream_rows_get(const struct stream_rows *r, uint32_t src, uint32_t uid,
			    const char *col)
{
	return stream_rows_field(r, src, uid, stream_rows_col(r, col));
}
