/*
 * json_scan: a resumable push scanner that finds, in a trace document fed in
 * pieces, the extent of each element of "traceEvents" and of each other
 * top-level value, without building anything.  It tracks only depth,
 * brackets and string/escape state, so it runs at memory speed; each
 * extent is then tokenised on its own (json.h).  Memory is the caller's
 * window, which need only hold the largest single element.
 *
 * The document is either an object with a "traceEvents" array (other keys
 * before or after it) or, as Chrome also writes, a bare array of events.
 *
 * HowTo (after jq's jv_parser_set_buf / jv_parser_next):
 *
 *	struct json_scan s; struct json_scan_item it;
 *	json_scan_init(&s);
 *	for (;;) {
 *		read more bytes to the end of buf (eof: partial = 0);
 *		json_scan_set_buf(&s, buf, len, partial);
 *		while ((r = json_scan_next(&s, &it)) > JSON_SCAN_MORE)
 *			use it (r is JSON_SCAN_EVENT, JSON_SCAN_TOP or JSON_SCAN_DONE);
 *		if (r == JSON_SCAN_ERROR) report s.err_msg at byte s.err_off;
 *		drop the first json_scan_consumed(&s) bytes of buf;
 *	}
 *	json_scan_release(&s);
 *
 * Contract: every set_buf passes the bytes not yet consumed, i.e. the
 * previous buffer minus its first json_scan_consumed() bytes, followed by new
 * data.  Items point into the current buffer and stay valid until the
 * next set_buf.  Offsets in messages count from the document's start.
 */
#ifndef TL_JSON_SCAN_H
#define TL_JSON_SCAN_H

#include <stddef.h>
#include <stdint.h>

enum {
	JSON_SCAN_ERROR = -1,	/* s.err_msg, s.err_off; scanning cannot go on */
	JSON_SCAN_MORE = 0,		/* need more input */
	JSON_SCAN_EVENT = 1,	/* it.text/len: one traceEvents element */
	JSON_SCAN_TOP = 2,		/* it.key/keylen (decoded), it.text/len: a value */
	JSON_SCAN_DONE = 3		/* the document ended cleanly */
};

struct json_scan_item {
	const char *text;	/* the element's text, no surrounding blanks */
	size_t len;
	/* the same without white space outside strings (NUL-terminated,
	 * JSON_TEXT_SLACK readable bytes after): valid until the next
	 * json_scan_next */
	const char *ctext;
	size_t clen;
	int escapes;		/* the element holds a backslash */
	uint64_t off;		/* document offset of text[0] */
	const char *key;	/* JSON_SCAN_TOP: the key, escapes decoded */
	size_t keylen;
	/*
	 * Set when the element's extent is sound but its strings are not:
	 * a raw control character.  The caller may skip just this element.
	 */
	const char *bad_msg;
	uint64_t bad_off;
};

struct json_scan {
	const char *buf;
	size_t len;
	int partial;
	uint64_t base;		/* document offset of buf[0] */
	size_t pos;		/* next byte to look at */
	size_t mark;		/* first byte still needed */
	int state;
	int object;		/* the document is an object, not a bare array */
	/* inside an element */
	int in_elem;
	int in_str;
	size_t depth;
	char *stack;		/* open brackets of the element */
	size_t stack_alloc;
	int elem_kind;
	char *out;		/* the element's compact copy */
	size_t olen, out_alloc;
	int space;		/* white space after a primitive byte */
	int escapes;
	const char *bad_msg;
	uint64_t bad_off;
	/* the current top-level key */
	char *key;
	size_t keylen, key_alloc;
	int seen_events;
	int is_events;
	/* set with JSON_SCAN_ERROR */
	const char *err_msg;
	uint64_t err_off;
};

void json_scan_init(struct json_scan *s);
void json_scan_release(struct json_scan *s);
void json_scan_set_buf(struct json_scan *s, const char *buf, size_t len, int partial);
int json_scan_next(struct json_scan *s, struct json_scan_item *it);
size_t json_scan_consumed(const struct json_scan *s);
/* Document offset of the next byte the scanner will read. */
uint64_t json_scan_offset(const struct json_scan *s);

#endif
