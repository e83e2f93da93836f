/*
 * cat: tl-cat's work: every trace in a file argument, through cat_input.h
 * (containers), json_scan.h (element extents), json.h (tokens) and cat_event.h
 * (rows), into one event stream.
 *
 *	struct cat_opts o = { .ndjson = 0, .keep_going = 1, .verbose = 0 };
 *	struct cat *c = cat_new(ob, &o);          writes the stream header
 *	for each FILE: rval |= cat_file(c, FILE);  0 ok, 1 bad (reported)
 *	cat_free(c);
 *
 * Every trace read gets the next source number (#source).  A trace with
 * an error ends without #end; the message is "tl-x: NAME: byte N: what"
 * with N counted in the decompressed JSON from 0.  With keep_going, an
 * element whose extent is sound but whose content is not (not an object,
 * a bad token, a raw control character) is reported, counted as skipped,
 * and keeps its uid.
 */
#ifndef TL_CAT_H
#define TL_CAT_H

struct outbuf;

struct cat_opts {
	int ndjson;
	int keep_going;
	int verbose;
	int format;		/* only print "NAME<TAB>FORMAT" per trace */
	int lean;		/* rows the tree keeps nothing of as "#dropped" lines */
};

struct cat;

struct cat *cat_new(struct outbuf *ob, const struct cat_opts *o);
int cat_file(struct cat *c, const char *path);
void cat_free(struct cat *c);

#endif
