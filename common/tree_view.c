/*
 * tree_view: the printing half of TraceLens's TraceToTree, with its exact
 * line formats (spec §2.8), so that its users can diff our output against
 * theirs.
 */
#include <stdlib.h>
#include <string.h>

#include "display.h"
#include "outbuf.h"
#include "py_fmt.h"
#include "tree.h"
#include "tree_view.h"
#include "xalloc.h"
#include "banned.h"

/*
 * name[:64] + ".." in code points; a missing name prints as "Unknown".  A
 * mangled C++ name (_ZN5aiter...) is shown demangled, then cut, and control
 * characters are escaped (display.h): this is text for a terminal.
 */
static void put_name(struct outbuf *ob, const char *name)
{
	char *d = display_demangle(name);
	const char *s = d ? d : name;
	size_t i = 0, cp = 0;

	if (!*s) {
		outbuf_puts(ob, "Unknown");
		return;
	}
	while (s[i] && cp < 64) {
		i++;
		while (((unsigned char)s[i] & 0xC0) == 0x80)
			i++;
		cp++;
	}
	display_escape(ob, s, i, DISPLAY_TERMINAL);
	if (s[i])
		outbuf_puts(ob, "..");
	free(d);
}

static void put_escaped(struct outbuf *ob, const char *s)
{
	display_escape(ob, s, strlen(s), DISPLAY_TERMINAL);
}

static void put_dur(struct outbuf *ob, const struct tree_node *n)
{
	char buf[PY_FLOAT_MAX];

	if (!(n->flags & TN_HAS_DUR))
		outbuf_puts(ob, "None");
	else if (n->flags & TN_DUR_INT)
		outbuf_printf(ob, "%.0f", n->dur);
	else
		outbuf_put(ob, buf, py_float_repr(n->dur, buf));
}

/* "UID: u, Category: c, Name: n" and the Duration of GPU events */
static void put_line(struct outbuf *ob, struct tree *t, const struct tree_node *n,
		     int dur_if_none)
{
	const char *cat = tree_str(t, n->cat);

	outbuf_printf(ob, "UID: %u, Category: ", n->uid);
	put_escaped(ob, *cat ? cat : "None");
	outbuf_puts(ob, ", Name: ");
	put_name(ob, tree_str(t, n->name));
	if (tree_is_gpu(n) && (dur_if_none || (n->flags & TN_HAS_DUR))) {
		outbuf_puts(ob, ", Duration: ");
		put_dur(ob, n);
	}
	outbuf_putc(ob, '\n');
}

struct prefix {
	char *s;
	size_t len, alloc;
};

static int pruned(const struct tree_node *c)
{
	return !tree_is_gpu(c) && c->gpu_n == 0;
}

/* A node still to print: its prefix is p->s[0..plen). */
struct todo {
	uint32_t i;
	int last;
	long depth;
	size_t plen;
};

/*
 * Depth first with a stack of its own, not the C stack: a chain of a
 * million nested ops is a trace (TraceLens's recursion stops near 1000).
 * Children are pushed last first so that they come off in order; a node's
 * prefix bytes are written when it is printed, and no node printed before
 * its younger siblings writes below their prefix length.
 */
void tree_view_subtree(struct outbuf *ob, struct tree *t, uint32_t i,
		      const struct tree_view_opts *o)
{
	struct prefix p = { NULL, 0, 0 };
	struct todo *st = NULL;
	uint32_t *kids = NULL, c;
	size_t n = 0, alloc = 0, nk, kalloc = 0;

	xgrow((void **)&st, &alloc, 1, sizeof(*st));
	st[n++] = (struct todo){ i, 1, 0, 0 };
	while (n) {
		struct todo f = st[--n];
		const struct tree_node *nd = tree_at(t, f.i);

		outbuf_put(ob, p.s, f.plen);
		outbuf_puts(ob, f.last ? "\u2514\u2500\u2500 " : "\u251c\u2500\u2500 ");
		put_line(ob, t, nd, 1);
		if (o->depth >= 0 && f.depth >= o->depth)
			continue;
		xgrow((void **)&p.s, &p.alloc, f.plen + 8, 1);
		tl_memcpy(p.s + f.plen, f.last ? "    " : "\u2502   ", f.last ? 4 : 6);
		nk = 0;
		for (c = nd->first_child; c != TREE_NONE; c = tree_at(t, c)->next_sibling) {
			if (o->prune && pruned(tree_at(t, c)))
				continue;
			xgrow((void **)&kids, &kalloc, nk + 1, sizeof(*kids));
			kids[nk++] = c;
		}
		xgrow((void **)&st, &alloc, n + nk, sizeof(*st));
		for (size_t k = nk; k-- > 0;)
			st[n++] = (struct todo){ kids[k], k + 1 == nk, f.depth + 1,
						 f.plen + (f.last ? 4 : 6) };
	}
	free(st);
	free(kids);
	free(p.s);
}

void tree_view_parents(struct outbuf *ob, struct tree *t, uint32_t i)
{
	for (unsigned long d = 0; i != TREE_NONE; d++) {
		const struct tree_node *n = tree_at(t, i);
		if (d)
			outbuf_printf(ob, "%lu-up:\n", d);
		else
			outbuf_puts(ob, "Node:\n");
		outbuf_puts(ob, "  ");
		put_line(ob, t, n, 0);
		i = n->parent;
	}
}

static void put_uid(struct outbuf *ob, struct tree *t, const char *key, uint32_t i)
{
	outbuf_printf(ob, "%s: ", key);
	if (i != TREE_NONE)
		outbuf_u64(ob, tree_at(t, i)->uid);
	outbuf_putc(ob, '\n');
}

static void put_float(struct outbuf *ob, const char *key, double v, int have)
{
	char buf[PY_FLOAT_MAX];

	outbuf_printf(ob, "%s: ", key);
	if (have)
		outbuf_put(ob, buf, py_float_repr(v, buf));
	outbuf_putc(ob, '\n');
}

void tree_view_node(struct outbuf *ob, struct tree *t, uint32_t i)
{
	const struct tree_node *n = tree_at(t, i);
	struct tree_walk *w;
	uint32_t c, cnt;
	double direct;
	int host = (n->flags & TN_HOST) && (n->flags & TN_TREE);
	char *d = display_demangle(tree_str(t, n->name));

	outbuf_printf(ob, "uid: %u\ncat: ", n->uid);
	put_escaped(ob, tree_str(t, n->cat));
	outbuf_puts(ob, "\nname: ");
	put_escaped(ob, tree_str(t, n->name));
	outbuf_putc(ob, '\n');
	if (d) {
		outbuf_puts(ob, "demangled: ");
		put_escaped(ob, d);
		outbuf_putc(ob, '\n');
		free(d);
	}
	put_uid(ob, t, "parent", n->parent);
	outbuf_puts(ob, "children:");
	for (c = n->first_child; c != TREE_NONE; c = tree_at(t, c)->next_sibling)
		outbuf_printf(ob, " %u", tree_at(t, c)->uid);
	outbuf_printf(ob, "\ndepth: %u\ntree: %d\nroot: %d\ndrop: %d\nlink: %s\n",
		      n->depth, !!(n->flags & TN_TREE), !!(n->flags & TN_ROOT),
		      !!(n->flags & TN_DROP), tree_link_word(n->link));
	put_uid(ob, t, "fwd", n->flags & TN_FWD ? n->fwd_bwd : TREE_NONE);
	put_uid(ob, t, "bwd", n->flags & TN_BWD ? n->fwd_bwd : TREE_NONE);
	outbuf_printf(ob, "gpu_n: %u\n", n->gpu_n);
	w = tree_walk_new();
	direct = tree_kernel_direct(t, w, i, &cnt);
	put_float(ob, "kernel_direct_us", direct, direct >= 0);
	put_float(ob, "gpu_busy_us", host ? tree_gpu_busy(t, w, i) : 0, host);
	tree_walk_free(w);
	put_uid(ob, t, "launcher", n->launcher);
	outbuf_printf(ob, "kernel_direct_n: %u\n", cnt);
}
