/*
 * cat_number: an event's ts and dur that no double can hold, or that no
 * event can have, told on stderr with a count (issue 13, finding 5).  tl-cat
 * still passes them on byte for byte; what the later stages do with them
 * is in tl-cat(1): tl-tree and tl-timeline leave such events out, tl-perf
 * leaves such GPU events out of its sheets, so that no report shows inf or
 * a negative time.
 *
 *	struct cat_number cn = { 0 };
 *	cat_number_check(&cn, &j, uid);       each event (j holds its object)
 *	cat_number_report(&cn, "trace.json"); at the end of a source
 *
 * The classes: a number that overflows a double (1e400 reads as inf); a
 * negative dur; an integer beyond 2^53, which a double rounds (TraceLens's
 * pandas columns are doubles too, so tl rounds it the same way, but says so).
 */
#ifndef TL_CAT_NUMBER_H
#define TL_CAT_NUMBER_H

#include <stddef.h>
#include <stdint.h>

struct json;

enum { CN_INF, CN_NEGATIVE, CN_BIG, CN_CLASSES };

struct cat_number {
	uint64_t count[CN_CLASSES];
	uint64_t first_uid[CN_CLASSES];
	char first[CN_CLASSES][48];	/* "dur 1e400", cut */
};

/* Checks the ts and dur members of the object at token 0 of j. */
void cat_number_check(struct cat_number *cn, const struct json *j, uint64_t uid);
/*
 * Checks one number, the text s[0..n) of a JSON number, the value of ts
 * or (is_dur) dur; JSON_TEXT_SLACK bytes after it must be readable, as
 * after every text json.h indexes.
 */
void cat_number_value(struct cat_number *cn, uint64_t uid, int is_dur, const char *s, size_t n);
/* One line per class seen; then cn is cleared for the next source. */
void cat_number_report(struct cat_number *cn, const char *name);

#endif
