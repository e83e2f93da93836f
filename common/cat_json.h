/*
 * cat_json: an event row of a tl-events stream written back as the JSON
 * object it came from — the inverse of common/cat_event.h, for programs
 * that write traces (tl-split).  Every value keeps its text (numbers as
 * written, strings with their escapes); the members come in a fixed order
 * (ph, cat, name, pid, tid, ts, dur, id, the event's other keys, then
 * args with correlation, External id, Sequence number, stream, device,
 * Input Dims, Input type, Input Strides, Concrete Inputs and the rest), so
 * the object equals the original as JSON, not byte for byte.
 *
 *	struct cat_json_cols c;
 *	cat_json_cols_init(&c, names, ncols);      the stream's column names
 *	cat_json_event(&ps, &c, fields, NULL);     fields[i]: column i, unescaped
 */
#ifndef TL_CAT_JSON_H
#define TL_CAT_JSON_H

struct pystr;

struct cat_json_cols {
	int ph, cat, name, pid, tid, ts, dur, id;
	int corr, ext, seq, stream, device, dims, types, strides, concrete, args, extra;
};

void cat_json_cols_init(struct cat_json_cols *c, const char *const *names, int ncols);
/* more: members (JSON text) to append to args, which the event has, or NULL */
void cat_json_event(struct pystr *out, const struct cat_json_cols *c, const char *const *field,
		    const char *more);
/* s as a JSON string, quotes included */
void cat_json_string(struct pystr *out, const char *s);

#endif
