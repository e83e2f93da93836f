/*
 * tl-replay: TraceLens's event replay.  For the chosen cpu_ops of a trace
 * (or its node stream), DIR/event_replay_ir.json (EventReplayer.get_repro_info() of each,
 * as json.dump(indent=4) writes the list) and DIR/replay.py, a stand-alone
 * script that rebuilds and times each op with PyTorch.  See tl-replay(1);
 * the work is in common/replay_*.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "opt.h"
#include "outbuf.h"
#include "path.h"
#include "replay_input.h"
#include "replay_ir.h"
#include "replay_schema.h"
#include "replay_script.h"
#include "replay_select.h"
#include "tree_nodes.h"
#include "xalloc.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-replay [-h] [--uid U,... | --name OP | --top N] [--schemas FILE] -o DIR\n"
	"                 [TRACE]\n"
	"\n"
	"  -h, --help           print this help and exit\n"
	"  -o, --output DIR     the folder to write, made if needed\n"
	"      --name OP        every unique-args group of the cpu_op named OP\n"
	"      --schemas FILE   the schema table (share/tl/aten-schemas.txt)\n"
	"      --top N          the first N rows of ops_unique_args (10)\n"
	"      --uid U,...      these cpu_ops, by uid";

enum { OPT_NAME = 256, OPT_SCHEMAS, OPT_TOP, OPT_UID };

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "output", required_argument, NULL, 'o' },
	{ "schemas", required_argument, NULL, OPT_SCHEMAS },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "uid", required_argument, NULL, OPT_UID },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	const char *dir, *uids, *name, *schemas;
	long top;
	int nsel;
};

static int pick(struct replay_pick *p, const struct tree_nodes *ns, const struct opts *o)
{
	if (o->uids)
		return replay_select_uids(p, ns, o->uids);
	if (o->name)
		return replay_select_name(p, ns, o->name);
	return replay_select_top(p, ns, o->top);
}

/* the IR of every op picked; the ones TraceLens cannot replay named */
static int extract(const struct tree_nodes *ns, const struct replay_schemas *rs,
		   const struct replay_pick *p, struct pystr *json, struct pystr *ops)
{
	size_t nok = 0;

	pystr_addc(json, '[');
	for (size_t i = 0; i < p->n; i++) {
		const struct node *n = &ns->node[p->uid[i]];
		struct replay_event ev = { tree_nodes_str(ns, n->name), tree_nodes_str(ns, n->dims),
			tree_nodes_str(ns, n->types), tree_nodes_str(ns, n->strides),
			tree_nodes_str(ns, n->concrete) };
		struct replay_ir ir;
		if (replay_ir_build(&ir, rs, &ev) < 0) {
			tl_warn("%s: uid %u: %s: cannot replay: %s", ns->source, p->uid[i],
				ev.name, ir.why);
		} else {
			pystr_adds(json, nok++ ? ",\n    " : "\n    ");
			replay_ir_write(&ir, json, ev.name, p->count[i]);
			replay_script_add(ops, ev.name, p->count[i], &ir);
		}
		replay_ir_release(&ir);
	}
	pystr_adds(json, nok ? "\n]" : "]");
	if (nok < p->n)
		tl_warn("%zu of %zu ops cannot be replayed (named above); %zu written",
			p->n - nok, p->n, nok);
	return nok ? 0 : -1;
}

static int run(const char *path, const struct opts *o)
{
	struct tree_nodes *ns = replay_input_read(path);
	struct replay_schemas *rs = NULL;
	struct replay_pick p = {0};
	struct pystr json = {0}, ops = {0};
	int rval = 1;

	if (!ns || !(rs = replay_schemas_load(o->schemas)) || pick(&p, ns, o) < 0)
		goto out;
	if (extract(ns, rs, &p, &json, &ops) < 0) {
		tl_warn("%s: nothing to replay", ns->source);
		goto out;
	}
	char *ir = path_join(o->dir, "event_replay_ir.json", ""),
	     *py = path_join(o->dir, "replay.py", "");
	struct outbuf *ob = outbuf_open_path(ir);
	outbuf_put(ob, json.buf, json.len);
	outbuf_close(ob);
	rval = replay_script_write(py, &ops) < 0;
	free(ir);
	free(py);
out:
	pystr_release(&json);
	pystr_release(&ops);
	replay_pick_release(&p);
	replay_schemas_free(rs);
	tree_nodes_free(ns);
	return rval;
}

int main(int argc, char **argv)
{
	struct opts o = { .top = 10 };
	int c;

	tl_init(argv[0]);
	while ((c = tl_getopt(argc, argv, "ho:", longopts, usage)) != -1) {
		switch (c) {
		case 'o': o.dir = optarg; break;
		case OPT_NAME: o.name = optarg; o.nsel++; break;
		case OPT_SCHEMAS: o.schemas = optarg; break;
		case OPT_TOP: o.top = tl_opt_long("--top", optarg); o.nsel++; break;
		case OPT_UID: o.uids = optarg; o.nsel++; break;
		default: tl_usage(usage, 2);
		}
	}
	if (!o.dir || o.nsel > 1 || argc - optind > 1) {
		if (o.nsel > 1)
			tl_warn("give one of --uid, --name and --top");
		tl_usage(usage, 2);
	}
	if (mkdir(o.dir, 0777) && errno != EEXIST)
		tl_die_errno("%s", o.dir);
	return run(optind < argc ? argv[optind] : NULL, &o);
}
