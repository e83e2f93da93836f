/*
 * coll_value: the Python values NcclAnalyser holds in its DataFrames, and
 * pandas' typing of a column of them, for the collective report.
 *
 * A trace's collective args arrive as JSON (json.loads then list_to_tuple
 * in TraceLens): null is None, true/false bool, a number an int (written
 * without '.', 'e' or 'E') or a float, a string str, an array a tuple
 * (printed as Python's repr, "(0, 1)"), an object a dict.  NaN is pandas'
 * missing value, which is not None: a column's missing cells are one or
 * the other depending on how the frame was built.
 *
 *	struct strpool *sp = strpool_new();
 *	struct cv v;
 *	if (cv_from_json(sp, "\"Float\"", 7, &v) < 0) ...   not JSON
 *	enum cv_dtype dt = cv_infer(cells, n);     DataFrame's dtype for them
 *	cv_cast(cells, n, dt);                      ints of a float column → float
 *	cv_print(&ps, &cells[i], dt);               the CSV text of a cell
 *
 * Typing follows pandas.DataFrame(list_of_dicts) (maybe_convert_objects):
 * ints only → int64; ints/floats with NaN or None → float64 (None becomes
 * NaN); bools only → bool; anything holding a str, tuple or dict, a bool
 * mixed with anything, or only None → object.
 *
 * Equality (cv_same) is that of pandas' unique(): numbers by value (4 ==
 * 4.0 == True... within a column of one dtype only numbers of one kind
 * meet), NaN equals NaN, None equals None, strings and containers by text.
 * Order (cv_cmp) is that of a sorted groupby key: numbers by value, then
 * tuples (elementwise, as Python compares them), then strings (by code
 * point, which is UTF-8 byte order); missing values last.
 */
#ifndef TL_COLL_VALUE_H
#define TL_COLL_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "py_repr.h"

struct strpool;
struct sheet;

enum cv_kind { CV_NONE, CV_NAN, CV_BOOL, CV_INT, CV_FLOAT, CV_STR, CV_OBJ };
enum cv_dtype { DT_INT, DT_FLOAT, DT_BOOL, DT_OBJ };

struct cv {
	unsigned char kind;	/* enum cv_kind */
	int64_t i;		/* CV_INT, CV_BOOL (0/1) */
	double d;		/* CV_FLOAT */
	const char *s;		/* CV_STR: the text; CV_OBJ: its Python repr */
	const char *json;	/* CV_OBJ: compact JSON, for ordering */
};

static inline struct cv cv_none(void) { struct cv v = { CV_NONE, 0, 0, 0, 0 }; return v; }
static inline struct cv cv_nan(void) { struct cv v = { CV_NAN, 0, 0, 0, 0 }; return v; }
static inline struct cv cv_int(int64_t i) { struct cv v = { CV_INT, i, 0, 0, 0 }; return v; }
static inline struct cv cv_float(double d) { struct cv v = { CV_FLOAT, 0, d, 0, 0 }; return v; }
/* A float that is NaN is stored as CV_NAN (what pandas sees). */
struct cv cv_number(double d);
/* s[0..n) interned in sp */
struct cv cv_str(struct strpool *sp, const char *s, size_t n);

/*
 * The value of a JSON text (empty text: None).  0, or -1 if it is not
 * valid JSON.  Integers beyond int64 become floats.
 */
int cv_from_json(struct strpool *sp, const char *json, size_t len, struct cv *out);

static inline int cv_isna(const struct cv *v) { return v->kind <= CV_NAN; }
static inline int cv_isnum(const struct cv *v)
{
	return v->kind == CV_INT || v->kind == CV_FLOAT || v->kind == CV_BOOL;
}
/* The value of a number as a double (NaN for anything else). */
double cv_num(const struct cv *v);

int cv_same(const struct cv *a, const struct cv *b);
int cv_cmp(const struct cv *a, const struct cv *b);

enum cv_dtype cv_infer(const struct cv *v, size_t n);
void cv_cast(struct cv *v, size_t n, enum cv_dtype dt);

/* str() of the value as pandas writes it in a column of dtype dt (NA: ""). */
void cv_print(struct pystr *ps, const struct cv *v, enum cv_dtype dt);
/*
 * A text that is equal for two values exactly when cv_same says so, for
 * hashing and grouping (kind-tagged: "n:4", "s:Float", "o:(0, 1)").
 */
void cv_key(struct pystr *ps, const struct cv *v);
/* repr() of the value, for messages (None, 'Float', 4, (0, 1)) */
void cv_repr(struct pystr *ps, const struct cv *v);

#endif
