#include <stdlib.h>
#include <string.h>

#include "coll_frame.h"
#include "py_fmt.h"
#include "sheet.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

void coll_frame_init(struct coll_frame *f, struct strpool *sp)
{
	struct hmap h = HMAP_INIT;

	memset(f, 0, sizeof(*f));
	f->sp = sp;
	f->index = h;
}

void coll_frame_release(struct coll_frame *f)
{
	for (size_t c = 0; c < f->ncols; c++)
		free(f->col[c].v);
	free(f->col);
	hmap_release(&f->index);
	memset(f, 0, sizeof(*f));
}

static void reindex(struct coll_frame *f)
{
	hmap_clear(&f->index);
	for (size_t c = 0; c < f->ncols; c++) {
		const char *n = f->col[c].name;
		hmap_put(&f->index, (uint64_t)strpool_intern(f->sp, n, strlen(n)) + 1,
			 (uint32_t)c);
	}
}

long coll_frame_find(const struct coll_frame *f, const char *name)
{
	uint32_t id = strpool_find(f->sp, name, strlen(name)), c;

	if (id == UINT32_MAX || !hmap_get(&f->index, (uint64_t)id + 1, &c))
		return -1;
	return (long)c;
}

/* Grows column c to hold nrows cells, the new ones missing (NaN). */
static void fill(struct coll_frame *f, size_t c)
{
	struct coll_frame_col *col = &f->col[c];
	size_t have = col->alloc;

	if (have >= f->nrows)
		return;
	xgrow((void **)&col->v, &col->alloc, f->nrows, sizeof(*col->v));
	for (size_t r = have; r < col->alloc; r++)
		col->v[r] = cv_nan();
}

static size_t add_col(struct coll_frame *f, const char *name)
{
	uint32_t id = strpool_intern(f->sp, name, strlen(name));
	struct coll_frame_col *col;

	xgrow((void **)&f->col, &f->acols, f->ncols + 1, sizeof(*f->col));
	col = &f->col[f->ncols];
	memset(col, 0, sizeof(*col));
	col->name = strpool_str(f->sp, id);
	col->dt = DT_OBJ;
	hmap_put(&f->index, (uint64_t)id + 1, (uint32_t)f->ncols);
	fill(f, f->ncols);
	return f->ncols++;
}

void coll_frame_addrow(struct coll_frame *f)
{
	f->nrows++;
	for (size_t c = 0; c < f->ncols; c++)
		fill(f, c);
}

void coll_frame_set(struct coll_frame *f, const char *name, struct cv v)
{
	long c = coll_frame_find(f, name);

	if (c < 0)
		c = (long)add_col(f, name);
	fill(f, (size_t)c);
	f->col[c].v[f->nrows - 1] = v;
}

void coll_frame_put_col(struct coll_frame *f, const char *name, const struct cv *v)
{
	long c = coll_frame_find(f, name);

	if (c < 0)
		c = (long)add_col(f, name);
	fill(f, (size_t)c);
	if (f->nrows)
		memcpy(f->col[c].v, v, f->nrows * sizeof(*v));
	f->col[c].dt = cv_infer(v, f->nrows);
	cv_cast(f->col[c].v, f->nrows, f->col[c].dt);
}

void coll_frame_infer(struct coll_frame *f)
{
	for (size_t c = 0; c < f->ncols; c++) {
		fill(f, c);
		f->col[c].dt = cv_infer(f->col[c].v, f->nrows);
		cv_cast(f->col[c].v, f->nrows, f->col[c].dt);
	}
}

void coll_frame_copy(struct coll_frame *dst, const struct coll_frame *src)
{
	dst->nrows = src->nrows;
	for (size_t c = 0; c < src->ncols; c++) {
		coll_frame_put_col(dst, src->col[c].name, src->col[c].v);
		dst->col[c].dt = src->col[c].dt;
	}
}

void coll_frame_select(struct coll_frame *f, const char *const *names, size_t n)
{
	struct coll_frame_col *keep = xcalloc(n ? n : 1, sizeof(*keep));
	char *used = xcalloc(f->ncols ? f->ncols : 1, 1);
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		long c = coll_frame_find(f, names[i]);
		if (c < 0 || used[c])
			continue;
		used[c] = 1;
		keep[k++] = f->col[c];
	}
	for (size_t c = 0; c < f->ncols; c++)
		if (!used[c])
			free(f->col[c].v);
	free(f->col);
	free(used);
	f->col = keep;
	f->ncols = k;
	f->acols = n ? n : 1;
	reindex(f);
}

void coll_frame_filter_prefix(struct coll_frame *f, const char *prefix, int keep)
{
	size_t k = 0, plen = strlen(prefix);

	for (size_t c = 0; c < f->ncols; c++) {
		int match = !strncmp(f->col[c].name, prefix, plen);
		if (match == !!keep)
			f->col[k++] = f->col[c];
		else
			free(f->col[c].v);
	}
	f->ncols = k;
	reindex(f);
}

void coll_frame_take(struct coll_frame *f, const size_t *rows, size_t n)
{
	for (size_t c = 0; c < f->ncols; c++) {
		struct cv *v = xmalloc(st_mult(n ? n : 1, sizeof(*v)));
		fill(f, c);
		for (size_t i = 0; i < n; i++)
			v[i] = f->col[c].v[rows[i]];
		free(f->col[c].v);
		f->col[c].v = v;
		f->col[c].alloc = n ? n : 1;
	}
	f->nrows = n;
}

int coll_frame_write_csv(const struct coll_frame *f, const char *path)
{
	struct sheet *sh = sheet_open(path, SHEET_CSV);
	struct pystr ps = { 0 };

	if (!sh)
		return -1;
	for (size_t c = 0; c < f->ncols; c++)
		sheet_str(sh, f->col[c].name);
	sheet_endrow(sh);
	for (size_t r = 0; r < f->nrows; r++) {
		for (size_t c = 0; c < f->ncols; c++) {
			pystr_reset(&ps);
			cv_print(&ps, &f->col[c].v[r], f->col[c].dt);
			sheet_strn(sh, ps.buf ? ps.buf : "", ps.len);
		}
		sheet_endrow(sh);
	}
	pystr_release(&ps);
	sheet_close(sh);
	return 0;
}
