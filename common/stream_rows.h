/*
 * stream_rows: rows of an event stream kept in memory, looked up by source
 * and uid — for the few rows a program must read again after the stream
 * has passed (tl-tree's grafts copy rows of capture traces, and fields of
 * the graph trace's own rows, into the node stream they write).
 *
 *	struct stream_rows *r = stream_rows_new(s);        the stream's columns
 *	stream_rows_add(r, s, src);                        the current row
 *	const char *v = stream_rows_get(r, src, uid, "dims");  NULL: no such row
 *	stream_rows_free(r);
 *
 * Sources are small integers chosen by the caller (one per #source).
 * Fields are stored unescaped and NUL-terminated; a column the stream
 * lacks reads as "".
 */
#ifndef TL_STREAM_ROWS_H
#define TL_STREAM_ROWS_H

#include <stddef.h>
#include <stdint.h>

struct stream;
struct stream_rows;

struct stream_rows *stream_rows_new(const struct stream *s);
void stream_rows_free(struct stream_rows *r);
/* Keeps the current row of s under (src, its uid); a later row with the
 * same key replaces it.  Returns -1 for a row without a numeric uid. */
int stream_rows_add(struct stream_rows *r, const struct stream *s, uint32_t src);
/* The same from fields already split and unescaped, in column order. */
void stream_rows_add_fields(struct stream_rows *r, uint32_t src, uint32_t uid,
			    const char *const *field, const size_t *len);
int stream_rows_has(const struct stream_rows *r, uint32_t src, uint32_t uid);
/* Field col (a column name) of the row, or NULL if the row was not kept. */
const char *stream_rows_get(const struct stream_rows *r, uint32_t src, uint32_t uid,
			    const char *col);
/* The same by column index (stream_rows_col), for loops over many rows. */
int stream_rows_col(const struct stream_rows *r, const char *col);
const char *stream_rows_field(const struct stream_rows *r, uint32_t src, uint32_t uid, int col);

#endif
