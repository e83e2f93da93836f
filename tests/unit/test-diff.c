/*
 * Unit tests for tl-diff's modules: align (Wagner-Fischer with TraceDiff's
 * greedy backtrack), opname, the same-name disambiguation pass, the merged
 * tree formatter and the repr of arg cells.  Expectations are TraceLens's own unit-test
 * vectors (tests/test_tracediff*.py, spec tracelens-diff-collectives.md
 * §1.15) and values worked out by hand from the algorithm.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diff_align.h"
#include "py_repr.h"
#include "tree_read.h"
#include "opname.h"
#include "outbuf.h"
#include "strpool.h"
#include "diff_merge.h"
#include "tap.h"

/* ops as text: "m0,0 d1 i1" */
static void ops_text(const struct diff_align *al, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (size_t k = 0; k < al->nr && len < n; k++) {
		const struct diff_align_op *o = &al->ops[k];
		if (o->op == DIFF_ALIGN_MATCH)
			len += (size_t)snprintf(buf + len, n - len, "%sm%d,%d", k ? " " : "", o->i, o->j);
		else if (o->op == DIFF_ALIGN_DELETE)
			len += (size_t)snprintf(buf + len, n - len, "%sd%d", k ? " " : "", o->i);
		else
			len += (size_t)snprintf(buf + len, n - len, "%si%d", k ? " " : "", o->j);
	}
}

/* one letter per name */
static void wf(const char *a, const char *b, const char *want, const char *what)
{
	uint32_t x[32], y[32];
	struct diff_align al;
	char got[256];
	size_t m = strlen(a), n = strlen(b);

	for (size_t k = 0; k < m; k++)
		x[k] = (uint32_t)a[k];
	for (size_t k = 0; k < n; k++)
		y[k] = (uint32_t)b[k];
	diff_align_init(&al);
	diff_align_wf(&al, x, m, y, n);
	ops_text(&al, got, sizeof(got));
	tap_str(got, want, what);
	diff_align_release(&al);
}

static void test_wf(void)
{
	wf("ab", "ac", "m0,0 d1 i1", "WF [a,b] vs [a,c]: match(0,0), delete(1), insert(1)");
	wf("abc", "axc", "m0,0 d1 i1 m2,2", "WF [A,B,C] vs [A,X,C]: no substitution");
	wf("hhhhh", "c", "d0 i0 d1 d2 d3 d4", "WF [h,h,h,h,h] vs [c]: greedy backtrack order");
	wf("", "", "", "WF of two empty lists is empty");
	wf("ab", "", "d0 d1", "WF against nothing deletes all");
	wf("", "ab", "i0 i1", "WF from nothing inserts all");
	wf("aab", "ab", "d0 m1,0 m2,1", "WF matches equal names greedily from the end");
	wf("abab", "ab", "d0 d1 m2,0 m3,1", "WF: a common suffix is matched, the rest deleted");
	wf("xaab", "aab", "d0 m1,0 m2,1 m3,2", "WF: one extra name in front");
	wf("acb", "abcb", "m0,0 i1 m1,2 m2,3", "WF: one name inserted in the middle");
}

static void norm(const char *in, int strip, const char *want)
{
	struct opname on;
	char what[256];

	opname_init(&on);
	snprintf(what, sizeof(what), "norm(%s, strip=%d)", in, strip);
	tap_str(opname_norm(&on, in, strlen(in), strip), want, what);
	opname_release(&on);
}

static void test_norm(void)
{
	norm("/src/train.py(128): forward", 0, "/src/train.py: forward");
	norm("/home/user/proj/layer.py(99): matmul : detail", 1, "/home/user/proj/layer.py: matmul ");
	norm("/proj/layer.py(1): matmul : a", 1, "/proj/layer.py: matmul ");
	norm("<built-in method at 0x7fe640752310>", 0, "<built-in method at 0xXXXX>");
	norm("hipModuleLaunchKernel", 0, "__kernel_launch__");
	norm("cuLaunchKernel", 0, "__kernel_launch__");
	norm("hipLaunchKernel", 0, "hipLaunchKernel");
	norm("torch/nn/modules/linear.py", 1, "linear.py");
	norm("aten::mm", 1, "aten::mm");
	norm("a: b: c", 1, "a: b");
}

struct trees {
	struct strpool *sp;
	struct tree_read *t1, *t2;
	struct diff_merge *tm;
};

/* "name>child1|child2" per uid, children as kernels; uid = position */
static void add_ops(struct tree_read *t, const char *const *ops, uint32_t n, uint32_t *next)
{
	for (uint32_t k = 0; k < n; k++) {
		char name[64], *gt;
		uint32_t op = (*next)++;
		snprintf(name, sizeof(name), "%s", ops[k]);
		gt = strchr(name, '>');
		if (gt)
			*gt++ = '\0';
		tree_read_add(t, op, "cpu_op", name, "1.0", "1.0", NT_NONE, 1);
		while (gt && *gt) {
			char *bar = strchr(gt, '|');
			if (bar)
				*bar = '\0';
			tree_read_add(t, (*next)++, "kernel", gt, "1.5", "0.5", op, 0);
			gt = bar ? bar + 1 : gt + strlen(gt);
		}
	}
}

static void trees_make(struct trees *tr, const char *const *a, uint32_t na,
		       const char *const *b, uint32_t nb, uint32_t *c1, uint32_t *c2)
{
	uint32_t u = 0;

	tr->sp = strpool_new();
	tr->t1 = tree_read_new(tr->sp);
	tr->t2 = tree_read_new(tr->sp);
	add_ops(tr->t1, a, na, &u);
	u = 0;
	add_ops(tr->t2, b, nb, &u);
	tree_read_finish(tr->t1);
	tree_read_finish(tr->t2);
	for (uint32_t k = 0; k < tr->t1->nroots; k++)
		c1[k] = tr->t1->roots[k];
	for (uint32_t k = 0; k < tr->t2->nroots; k++)
		c2[k] = tr->t2->roots[k];
	tr->tm = diff_merge_new(tr->t1, tr->t2);
}

static void trees_free(struct trees *tr)
{
	diff_merge_free(tr->tm);
	tree_read_free(tr->t1);
	tree_read_free(tr->t2);
	strpool_free(tr->sp);
}

/* ops given as "m0,0 i1" are disambiguated; result compared as text */
static void disamb(const char *const *a, uint32_t na, const char *const *b, uint32_t nb,
		   const char *ops, const char *want, const char *what)
{
	struct trees tr;
	uint32_t c1[8], c2[8];
	struct diff_align al;
	char got[256];
	const char *p = ops;

	trees_make(&tr, a, na, b, nb, c1, c2);
	diff_align_init(&al);
	while (*p) {
		int i = -1, j = -1, used = 0;
		if (*p == 'm')
			sscanf(p, "m%d,%d%n", &i, &j, &used), diff_align_push(&al, DIFF_ALIGN_MATCH, i, j);
		else if (*p == 'd')
			sscanf(p, "d%d%n", &i, &used), diff_align_push(&al, DIFF_ALIGN_DELETE, i, -1);
		else
			sscanf(p, "i%d%n", &j, &used), diff_align_push(&al, DIFF_ALIGN_INSERT, -1, j);
		p += used;
		while (*p == ' ')
			p++;
	}
	diff_merge_disambiguate(tr.tm, &al, c1, na, c2, nb);
	ops_text(&al, got, sizeof(got));
	tap_str(got, want, what);
	diff_align_release(&al);
	trees_free(&tr);
}

static void test_disambiguate(void)
{
	static const char *const us1[] = { "opA>kernel_X" };
	static const char *const us2[] = { "opA>kernel_Y", "opA>kernel_X" };
	static const char *const tie1[] = { "opA" };
	static const char *const tie2[] = { "opA", "opA" };
	static const char *const sw1[] = { "opA>kX", "opA>kY" };
	static const char *const sw2[] = { "opA>kY", "opA>kX" };
	static const char *const po1[] = { "opA>P", "opA>P|Q" };
	static const char *const po2[] = { "opA>P|Q|S" };

	disamb(us1, 1, us2, 2, "m0,0 i1", "m0,1 i0",
	       "disambiguation: the unique survivor is matched (0,1)");
	disamb(tie1, 1, tie2, 2, "m0,0 i1", "m0,0 i1",
	       "disambiguation: a tie keeps the Wagner-Fischer match");
	disamb(sw1, 2, sw2, 2, "m0,0 m1,1", "m0,1 m1,0",
	       "disambiguation: swapped matches are corrected");
	disamb(po1, 2, po2, 1, "m0,0 d1", "m1,0 d0",
	       "disambiguation: deeper partial overlap wins (1,0)");
}

static void test_format(void)
{
	struct strpool *sp = strpool_new();
	struct tree_read *t1 = tree_read_new(sp), *t2 = tree_read_new(sp);
	struct diff_merge *tm;
	struct diff_merge_node m[5] = {
		{ 0, 0, 0, 3, TM_COMBINED }, { 1, NT_NONE, 3, 0, TM_TRACE1 },
		{ NT_NONE, 1, 3, 0, TM_TRACE2 }, { 0, 0, 3, 0, TM_COMBINED },
		{ 2, 2, 3, 0, TM_COMBINED },
	};
	uint32_t kids[3] = { 1, 2, 4 }, root = 0;
	char buf[512] = { 0 };
	FILE *f = tmpfile();
	struct outbuf *ob = outbuf_open_fd(fileno(f));

	tree_read_add(t1, 0, "cpu_op", "same", "1", "1", NT_NONE, 1);
	tree_read_add(t1, 1, "cpu_op", "only1", "1", "1", NT_NONE, 0);
	tree_read_add(t1, 2, "cpu_op", "left", "1", "1", NT_NONE, 0);
	tree_read_add(t2, 0, "cpu_op", "same", "1", "1", NT_NONE, 1);
	tree_read_add(t2, 1, "cpu_op", "only2", "1", "1", NT_NONE, 0);
	tree_read_add(t2, 2, "cpu_op", "right", "1", "1", NT_NONE, 0);
	tree_read_finish(t1);
	tree_read_finish(t2);
	tm = diff_merge_new(t1, t2);
	tm->m = m;
	tm->nr = 5;
	tm->kids = kids;
	tm->roots = &root;
	tm->nroots = 1;
	diff_merge_write_tree(tm, ob, 0);
	outbuf_flush(ob);
	rewind(f);
	if (fread(buf, 1, sizeof(buf) - 1, f) == 0)
		buf[0] = '\0';
	tap_str(buf, "└── same\n    ├── combined: left | right\n"
		"    ├── >> trace1: only1\n    └── << trace2: only2\n",
		"formatter: combined children first, then trace1, then trace2");
	tm->m = NULL, tm->kids = NULL, tm->roots = NULL;
	free(ob->buf);
	free(ob);
	fclose(f);
	diff_merge_free(tm);
	tree_read_free(t1);
	tree_read_free(t2);
	strpool_free(sp);
}

/* the arg cells of diff_stats.csv, through py_repr (lists as tuples) */
static void repr(const char *json, const char *want)
{
	struct pystr ps = { 0 };
	char what[128];
	int rc = py_repr_json(&ps, json, strlen(json), PY_REPR_TUPLE);
	snprintf(what, sizeof(what), "repr of %s", json);
	tap_str(rc == 0 && ps.buf ? ps.buf : "(null)", want, what);
	pystr_release(&ps);
}

static void test_repr(void)
{
	repr("[[1,128,3,224,224],[1,128,3,224,224],[]]",
	     "((1, 128, 3, 224, 224), (1, 128, 3, 224, 224), ())");
	repr("[\"c10::BFloat16\",\"Scalar\"]", "('c10::BFloat16', 'Scalar')");
	repr("[5]", "(5,)");
	repr("[\"\",\"-1\",\"False\"]", "('', '-1', 'False')");
	repr("[\"it's\"]", "(\"it's\",)");
	repr("[1.5,1e-05,2.0,-3]", "(1.5, 1e-05, 2.0, -3)");
	repr("{\"a\":[true,null]}", "{'a': (True, None)}");
	repr("[\"tab\\there\",\"\\u00e9\"]", "('tab\\there', '\xc3\xa9')");
	{
		struct pystr ps = { 0 };
		tap_ok(py_repr_json(&ps, "[1,", 3, PY_REPR_TUPLE) < 0, "repr refuses broken JSON");
		pystr_release(&ps);
	}
}

/* expected orders printed by CPython 3.11 for set.add() of the same pairs */
static void pyset(const uint32_t *in, size_t n, const uint32_t *want, const char *what)
{
	uint32_t buf[64];
	memcpy(buf, in, 2 * n * sizeof(*in));
	diff_merge_pyset_order(buf, n);
	tap_ok(!memcmp(buf, want, 2 * n * sizeof(*in)), what);
}

static void test_pyset(void)
{
	static const uint32_t a[] = { 0, 1, 1, 0, 2, 2, 3, 1, 1, 3 };
	static const uint32_t wa[] = { 0, 1, 3, 1, 2, 2, 1, 0, 1, 3 };
	static const uint32_t b[] = { 5, 0, 0, 5, 3, 3, 1, 2, 2, 1, 4, 4, 6, 2, 2, 6, 7, 7 };
	static const uint32_t wb[] = { 4, 4, 6, 2, 1, 2, 2, 1, 7, 7, 3, 3, 5, 0, 2, 6, 0, 5 };
	static const uint32_t wc[] = { 12, 7, 7, 5, 4, 6, 3, 10, 14, 10, 17, 9, 9, 8, 5, 2,
				       0, 0, 8, 1, 10, 4, 11, 0, 19, 1, 2, 3, 13, 3, 1, 7,
				       15, 6, 16, 2, 18, 5, 6, 9 };
	uint32_t c[40];

	for (uint32_t i = 0; i < 20; i++)
		c[2 * i] = i, c[2 * i + 1] = (i * 7) % 11;
	pyset(a, 5, wa, "set order of 5 pairs is CPython's");
	pyset(b, 9, wb, "set order of 9 pairs (one resize) is CPython's");
	pyset(c, 20, wc, "set order of 20 pairs (two resizes) is CPython's");
}

int main(void)
{
	test_pyset();
	test_wf();
	test_norm();
	test_disambiguate();
	test_format();
	test_repr();
	return tap_done();
}
