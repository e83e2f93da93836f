#ifndef TL_TEXT_MEMO_H
#define TL_TEXT_MEMO_H
/*
 * text_memo: the last text a column held.  Rows come in runs (of one
 * source, thread, category): a reader that works something out of a field
 * (its kind, its number, its id in a string pool) keeps the text beside
 * the answer and skips the work while the text repeats.
 *
 *	static struct text_memo m;	// zeroed: no text yet
 *	if (!text_memo_same(&m, v, n))
 *		answer = work_out(v, n);
 */
#include <stddef.h>
#include <string.h>

struct text_memo {
	char text[24];
	size_t len;
	int have;	/* 0 until a text short enough to keep */
};

/* 1 if v (n bytes) is m's last text; else 0, and v is the last text now. */
static inline int text_memo_same(struct text_memo *m, const char *v, size_t n)
{
	if (m->have && m->len == n && !memcmp(m->text, v, n))
		return 1;
	m->have = n < sizeof(m->text);
	if (m->have && n)
		memcpy(m->text, v, n);
	m->len = n;
	return 0;
}

#endif
