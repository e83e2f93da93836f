/*
 * event: writes the tl-events 1 stream of tl-stream(5), or its --ndjson
 * form, from trace elements already tokenised by json.h.
 *
 *	struct cat_event_out *w = cat_event_out_new(ob, ndjson);
 *	cat_event_header(w);                          once, before all sources
 *	cat_event_source(w, src, "trace.json.gz");
 *	cat_event_row(w, src, uid, &j, &cn);          j: json_parse()d object
 *	cat_event_row_text(w, src, uid, text, len, &cn);   or untokenised
 *	cat_event_top(w, src, key, keylen, &j);       a top-level key's value
 *	cat_event_end(w, src, elements, skipped);
 *	cat_event_out_free(w);                        the outbuf stays the caller's
 *
 * Row columns (TSV): uid src ph cat name pid tid ts dur id corr ext seq
 * stream device dims types strides concrete args extra.  The rules of
 * which value goes to which column are tl-stream(5)'s; in short ph, cat,
 * name decoded when non-empty strings; pid, tid, id compact JSON unless
 * objects or arrays; ts, dur and the five args numbers as written when
 * numbers; the four shape args compact JSON; other args and other keys
 * compact JSON objects.
 *
 * --ndjson rows: {"uid":N,"src":N,<the event's members, compact>}.
 * Directives: {"src":N,"source":"NAME"}, {"src":N,"top":"KEY","value":V},
 * {"src":N,"end":ELEMENTS,"skipped":K}.
 */
#ifndef TL_CAT_EVENT_H
#define TL_CAT_EVENT_H

#include <stddef.h>
#include <stdint.h>

struct outbuf;
struct json;
struct cat_number;

struct cat_event_out;

struct cat_event_out *cat_event_out_new(struct outbuf *ob, int ndjson);
/*
 * A lean stream (tl-cat --lean, for tl-tree --lean): a row the tree keeps
 * nothing of (tree_nodes_thin, python frames out of the tree), written
 * without escapes, becomes "#dropped" and its first nine columns.  Not
 * for --ndjson.
 */
void cat_event_lean(struct cat_event_out *w);
void cat_event_out_free(struct cat_event_out *w);
void cat_event_header(struct cat_event_out *w);
void cat_event_source(struct cat_event_out *w, unsigned src, const char *name);
/*
 * j's first token must be an object.  cn, unless NULL, takes the check of
 * the event's ts and dur numbers (cat_number_check), made on the way.
 */
void cat_event_row(struct cat_event_out *w, unsigned src, uint64_t uid,
	       const struct json *j, struct cat_number *cn);
/*
 * The same row from the event's compact text (json_scan_item.ctext), which
 * must hold no backslash (json_scan_item.escapes 0), without tokenising it:
 * 0, or -1 with nothing written and cn untouched where the text is not a
 * plain object the one-pass tokeniser takes, nesting aside (or the stream
 * is --ndjson): then tokenise it and call cat_event_row.
 */
int cat_event_row_text(struct cat_event_out *w, unsigned src, uint64_t uid, const char *text,
		       size_t len, struct cat_number *cn);
void cat_event_top(struct cat_event_out *w, unsigned src, const char *key,
	       size_t keylen, const struct json *j);
void cat_event_end(struct cat_event_out *w, unsigned src, uint64_t elements,
	       uint64_t skipped);

/* Write s[0..n) as a JSON string, quotes included (for names and keys). */
void cat_event_put_json_string(struct outbuf *ob, const char *s, size_t n);

#endif
