/*
 * json_pull: walk the outer structure of a JSON document that is too big
 * to hold, taking whole values out of it one at a time.  The caller knows
 * the shape it expects (an object of arrays of records, as a rocprofv3
 * results file is) and pulls it piece by piece; every value it does not
 * walk into is taken whole (json_pull_value) and can be tokenised with
 * json.h, which also checks it strictly.  Memory is the largest value
 * taken plus one read.
 *
 * HowTo:
 *
 *	struct json_pull p;
 *	json_pull_init(&p, prefix, n, read_fn, ctx);  prefix: bytes read already
 *	if ((r = json_pull_begin(&p, '{')) > 0)       1: members follow, 0: {}
 *		do {
 *			json_pull_key(&p);                 p.key, p.keylen (decoded)
 *			json_pull_value(&p, &text, &len);  or descend with begin
 *		} while ((r = json_pull_next(&p, '}')) > 0);
 *	if (r < 0) report p.err_msg at byte p.err_off;
 *	json_pull_end(&p);                            only white space after
 *	json_pull_release(&p);
 *
 * Every function returns -1 on error with err_msg and err_off (document
 * offset) set; after an error every call fails the same way.  A value's
 * text stays valid until the next call.
 */
#ifndef TL_JSON_PULL_H
#define TL_JSON_PULL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Reads up to n bytes: count, 0 at the end, -1 on error (msg set). */
typedef ssize_t (*json_pull_read_fn)(void *ctx, char *buf, size_t n,
				     const char **msg);

struct json_pull {
	char *buf;		/* window: buf[pos..len) not yet looked at */
	size_t len, cap, pos;
	uint64_t base;		/* document offset of buf[0] */
	int eof;
	json_pull_read_fn read;
	void *ctx;
	char *key;		/* the last key read, escapes decoded, NUL-ended */
	size_t keylen, key_alloc;
	const char *err_msg;
	uint64_t err_off;
};

void json_pull_init(struct json_pull *p, const char *prefix, size_t n,
		    json_pull_read_fn read, void *ctx);
void json_pull_release(struct json_pull *p);
/* Document offset of the next byte to look at. */
uint64_t json_pull_offset(const struct json_pull *p);
/*
 * The next byte that is not white space, not consumed: a byte, 0 at the
 * end of the input, or -1 on a read error.
 */
int json_pull_peek(struct json_pull *p);
/*
 * Consume the opening bracket (open is a brace or a square bracket): 1 when it has
 * members, 0 when it is empty (its closing bracket consumed too).
 */
int json_pull_begin(struct json_pull *p, char open);
/* After a member: 1 on ',' (another follows), 0 on the closing bracket. */
int json_pull_next(struct json_pull *p, char close);
/* An object member's key and its ':'; the key goes to p->key. */
int json_pull_key(struct json_pull *p);
/*
 * One whole value (any type): text and len point to its source text, valid
 * until the next call.  Only its extent is checked here; tokenise it with
 * json_parse to check it.
 */
int json_pull_value(struct json_pull *p, const char **text, size_t *len);
/* Only white space may follow: 0, or -1. */
int json_pull_end(struct json_pull *p);

#endif
