/*
 * tl-tree: the event stream in, TraceLens's call tree out — as the node
 * stream (every event row plus the tree's columns, common/nodewrite.c) or
 * as text views (common/tree_view.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "opt.h"
#include "outbuf.h"
#include "stream.h"
#include "tree.h"
#include "tree_graft_io.h"
#include "tree_io.h"
#include "tree_view.h"
#include "xalloc.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-tree [-v] [--python] [FILE]\n"
	"       tl-tree [-v] [--python] [--columns LIST] [--tree-rows] [FILE]\n"
	"       tl-tree [-v] [--python] --lean [FILE]\n"
	"       tl-tree [-v] [--python] [--capture FILE [--details FILE]] [--pseudo-ops] [FILE]\n"
	"       tl-tree --print [--root UID | --ext EXT_ID,PID,TID] [--depth N]\n"
	"               [--prune-non-gpu] [--src N] [--python] [FILE]\n"
	"       tl-tree --up UID | --node UID [--src N] [--python] [FILE]\n"
	"\n"
	"  -h, --help             print this help and exit\n"
	"  -v                     print each source's node, root, drop and link counts\n"
	"      --python           add python_function frames to the tree\n"
	"      --columns LIST     write only these columns (comma-separated; uid always)\n"
	"      --tree-rows        write only the rows with tree 1 (the tree's nodes)\n"
	"      --lean             the rows no report sheet reads as short \"#dropped\" lines\n"
	"      --print            print subtrees as TraceLens does, not the node stream\n"
	"      --root UID         --print: the subtree of this uid\n"
	"      --ext EXT,PID,TID  --print: the subtree of the event with this External id\n"
	"      --depth N          --print: only N levels below the start node\n"
	"      --prune-non-gpu    --print: leave out children that cause no GPU work\n"
	"      --up UID           print the chain from this node up to its root\n"
	"      --node UID         print one node's fields\n"
	"      --src N            the source the views are about (default: the first)\n"
	"      --capture FILE     merge the graph-capture traces of this event stream\n"
	"      --details FILE     the captures' execution_details.json\n"
	"      --pseudo-ops       add TraceLens's pseudo ops (a tl-nodes 2 stream)";

enum mode { M_NODES, M_PRINT, M_UP, M_NODE };

struct opts {
	enum mode mode;
	int python, verbose, prune, pseudo, tree_rows, lean;
	long depth;
	const char *root, *ext, *src, *uid, *capture, *details, *columns;
};

static uint32_t find_uid(const struct tree *t, const char *arg, const char *name)
{
	char *end;
	unsigned long uid = strtoul(arg, &end, 10);
	uint32_t i = *arg >= '0' && *arg <= '9' && !*end ? tree_find(t, uid) : TREE_NONE;

	if (i == TREE_NONE)
		tl_warn("%s: no tree node with uid '%s'", name, arg);
	return i;
}

/* --ext EXT_ID,PID,TID: TraceLens's get_node_by_ext_id_pid_tid. */
static uint32_t find_ext(const struct tree *t, const char *arg, const char *name)
{
	char *a = xstrdup(arg), *pid = strchr(a, ','), *tid = pid ? strchr(pid + 1, ',') : NULL;
	uint32_t i = TREE_NONE;

	if (tid) {
		*pid++ = '\0';
		*tid++ = '\0';
		i = tree_find_ext(t, a, pid, tid);
	}
	if (i == TREE_NONE)
		tl_warn("%s: no event with External id, pid, tid '%s'", name, arg);
	free(a);
	return i;
}

static int print_roots(struct outbuf *ob, struct tree *t, const struct opts *o,
		       const char *name)
{
	struct tree_view_opts v = { o->depth, o->prune };
	uint32_t i;
	size_t n;
	const uint32_t *roots;

	if (o->root || o->ext) {
		i = o->root ? find_uid(t, o->root, name) : find_ext(t, o->ext, name);
		if (i == TREE_NONE)
			return 1;
		tree_view_subtree(ob, t, i, &v);
		return 0;
	}
	/* with pruning, roots without GPU work are left out like children */
	roots = tree_roots(t, &n);
	for (size_t k = 0; k < n; k++)
		if (!o->prune || tree_at(t, roots[k])->gpu_n)
			tree_view_subtree(ob, t, roots[k], &v);
	return 0;
}

static int views(struct stream *s, const struct opts *o)
{
	char *src = NULL;
	struct tree *t = tree_io_read_source(s, o->src, o->python ? TREE_PYTHON : 0, o->verbose,
					     &src);
	struct outbuf *ob;
	uint32_t i;
	int rval = 0;

	if (!t)
		return 1;
	ob = outbuf_open_fd(1);
	if (o->mode == M_PRINT) {
		rval = print_roots(ob, t, o, stream_name(s));
	} else if ((i = find_uid(t, o->uid, stream_name(s))) == TREE_NONE) {
		rval = 1;
	} else if (o->mode == M_UP) {
		tree_view_parents(ob, t, i);
	} else {
		tree_view_node(ob, t, i);
	}
	outbuf_close(ob);
	tree_free(t);
	free(src);
	return rval;
}

static void set_mode(struct opts *o, enum mode m, const char *uid)
{
	if (o->mode != M_NODES && o->mode != m) {
		tl_warn("--print, --up and --node exclude each other");
		tl_usage(usage, TL_EXIT_USAGE);
	}
	o->mode = m;
	o->uid = uid;
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "capture", required_argument, NULL, 'c' },
		{ "columns", required_argument, NULL, 'C' },
		{ "depth", required_argument, NULL, 'd' },
		{ "details", required_argument, NULL, 'D' },
		{ "ext", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ "lean", no_argument, NULL, 'L' },
		{ "node", required_argument, NULL, 'n' },
		{ "print", no_argument, NULL, 'p' },
		{ "prune-non-gpu", no_argument, NULL, 'P' },
		{ "pseudo-ops", no_argument, NULL, 'S' },
		{ "python", no_argument, NULL, 'y' },
		{ "root", required_argument, NULL, 'r' },
		{ "src", required_argument, NULL, 's' },
		{ "tree-rows", no_argument, NULL, 'T' },
		{ "up", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = tl_getopt(argc, argv, "hv", longopts, usage)) != -1) {
		switch (c) {
		case 'c': o->capture = optarg; break;
		case 'C': o->columns = optarg; break;
		case 'd': o->depth = tl_opt_long("--depth", optarg); break;
		case 'D': o->details = optarg; break;
		case 'e': o->ext = optarg; break;
		case 'L': o->lean = 1; break;
		case 'n': set_mode(o, M_NODE, optarg); break;
		case 'p': set_mode(o, M_PRINT, NULL); break;
		case 'P': o->prune = 1; break;
		case 'S': o->pseudo = 1; break;
		case 'y': o->python = 1; break;
		case 'r': o->root = optarg; break;
		case 's': o->src = optarg; break;
		case 'T': o->tree_rows = 1; break;
		case 'u': set_mode(o, M_UP, optarg); break;
		case 'v': o->verbose = 1; break;
		default: tl_usage(usage, TL_EXIT_USAGE);
		}
	}
	if (argc - optind > 1 || (o->root && o->ext) ||
	    (o->mode != M_PRINT && (o->root || o->ext || o->prune || o->depth >= 0)) ||
	    (o->mode != M_NODES && (o->capture || o->pseudo)) || (o->details && !o->capture) ||
	    ((o->columns || o->tree_rows) && (o->mode != M_NODES || o->capture || o->pseudo)) ||
	    (o->lean && (o->mode != M_NODES || o->capture || o->pseudo || o->columns || o->tree_rows)))
		tl_usage(usage, TL_EXIT_USAGE);
	/* TraceLens builds graph-replay trees with python frames to merge them */
	if (o->capture)
		o->python = 1;
}

int main(int argc, char **argv)
{
	struct opts o = { M_NODES, 0, 0, 0, 0, 0, 0, -1, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
	struct stream *s;
	const char *path;
	int rval;

	tl_init(argv[0]);
	parse_opts(argc, argv, &o);
	path = optind < argc ? argv[optind] : NULL;
	s = stream_open(path, "events");
	if (!s)
		return TL_EXIT_BAD;
	if (o.mode == M_NODES && (o.capture || o.pseudo)) {
		struct graft_opts go = { o.python ? TREE_PYTHON : 0, o.capture, o.details,
					 o.pseudo, o.verbose };
		rval = tree_graft_write(s, path, &go);
	} else {
		struct tree_io_subset sub = { o.columns, o.tree_rows, o.lean };
		rval = o.mode == M_NODES ? tree_io_write_subset(s, path, o.python ? TREE_PYTHON : 0,
								 o.verbose, &sub) :
					   views(s, &o);
	}
	stream_close(s);
	return rval ? TL_EXIT_BAD : TL_EXIT_OK;
}
