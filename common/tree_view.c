/*
 * tree_view: the printing half of TraceLens's TraceToTree, with its exact
 * line formats (spec §2.8), so that its users can diff our output against
 * theirs.
 */
#include <stdlib.h>
#include <string.h>

#include "outbuf.h"
#include "py_fmt.h"
#include "tree.h"
#include "tree_view.h"
#include "xalloc.h"
#include "banned.h"

/* name[:64] + ".." in code points; a missing name prints as "Unknown" */
static void put_name(struct outbuf *ob, const char *s)
{
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
	outbuf_put(ob, s, i);
	if (s[i])
		outbuf_puts(ob, "..");
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

	outbuf_printf(ob, "UID: %u, Category: %s, Name: ", n->uid, *cat ? cat : "None");
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

static void subtree(struct outbuf *ob, struct tree *t, uint32_t i, int last,
		    struct prefix *p, long depth, const struct tree_view_opts *o)
{
	const struct tree_node *n = tree_at(t, i);
	size_t keep = p->len;
	uint32_t c, next;

	outbuf_put(ob, p->s, p->len);
	outbuf_puts(ob, last ? "\u2514\u2500\u2500 " : "\u251c\u2500\u2500 ");
	put_line(ob, t, n, 1);
	if (o->depth >= 0 && depth >= o->depth)
		return;
	xgrow((void **)&p->s, &p->alloc, p->len + 8, 1);
	memcpy(p->s + p->len, last ? "    " : "\u2502   ", last ? 4 : 6);
	p->len += last ? 4 : 6;
	for (c = n->first_child; c != TREE_NONE; c = next) {
		next = tree_at(t, c)->next_sibling;
		if (o->prune && pruned(tree_at(t, c)))
			continue;
		while (o->prune && next != TREE_NONE && pruned(tree_at(t, next)))
			next = tree_at(t, next)->next_sibling;
		subtree(ob, t, c, next == TREE_NONE, p, depth + 1, o);
	}
	p->len = keep;
}

void tree_view_subtree(struct outbuf *ob, struct tree *t, uint32_t i,
		      const struct tree_view_opts *o)
{
	struct prefix p = { NULL, 0, 0 };

	subtree(ob, t, i, 1, &p, 0, o);
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
	uint32_t c, cnt;
	double direct;
	int host = (n->flags & TN_HOST) && (n->flags & TN_TREE);

	outbuf_printf(ob, "uid: %u\ncat: %s\nname: %s\n", n->uid, tree_str(t, n->cat),
		      tree_str(t, n->name));
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
	direct = tree_kernel_direct(t, i, &cnt);
	put_float(ob, "kernel_direct_us", direct, direct >= 0);
	put_float(ob, "gpu_busy_us", host ? tree_gpu_busy(t, i) : 0, host);
	put_uid(ob, t, "launcher", n->launcher);
	outbuf_printf(ob, "kernel_direct_n: %u\n", cnt);
}
