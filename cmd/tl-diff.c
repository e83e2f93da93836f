/*
 * tl-diff: TraceLens's TraceDiff - align the call trees of a baseline and
 * a variant trace and report where they differ.
 */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "heap_pages.h"
#include "tree_read.h"
#include "opt.h"
#include "outbuf.h"
#include "strpool.h"
#include "diff_report.h"
#include "diff_merge.h"
#include "banned.h"

static const char usage[] =
	"usage: tl-diff [-hps] [-n N] [--no-html] [-o DIR] [--prune-non-gpu] [--python]\n"
	"               BASELINE VARIANT\n"
	"\n"
	"  -h, --help           print this help and exit\n"
	"  -n, --top N          lines of the --summary table (10; 0 for all)\n"
	"  -o, --output DIR     write TraceDiff's six files into DIR\n"
	"  -p, --print          write the merged tree to standard output\n"
	"  -s, --summary        print where the two differ most (the default)\n"
	"      --no-html        with -o, do not draw DIR/report.html\n"
	"      --prune-non-gpu  leave out roots with no GPU work on either side\n"
	"      --python         build trace operands' trees with python frames";

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "no-html", no_argument, NULL, 'H' },
	{ "output", required_argument, NULL, 'o' },
	{ "print", no_argument, NULL, 'p' },
	{ "prune-non-gpu", no_argument, NULL, 'P' },
	{ "python", no_argument, NULL, 'y' },
	{ "summary", no_argument, NULL, 's' },
	{ "top", required_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 },
};

/* The program next to our own executable, else the name for a PATH search. */
static void sibling(const char *prog, char *out, size_t n)
{
	char self[PATH_MAX];
	ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	snprintf(out, n, "%s", prog);
	if (k <= 0)
		return;
	self[k] = '\0';
	if (!(slash = strrchr(self, '/')))
		return;
	*slash = '\0';
	if (strlen(self) + strlen(prog) + 2 > n)
		return;
	tl_memcpy(out, self, strlen(self));
	out[strlen(self)] = '/';
	tl_memcpy(out + strlen(self) + 1, prog, strlen(prog) + 1);
	if (access(out, X_OK) != 0)
		snprintf(out, n, "%s", prog);
}

/* Runs argv (argv[0] the program) with in/out as its stdin/stdout. */
static pid_t spawn(char *const argv[], int in, int out, int *close_fds, int nclose)
{
	pid_t pid = fork();

	if (pid < 0)
		tl_die_errno("fork");
	if (pid)
		return pid;
	if (in >= 0)
		dup2(in, 0);
	dup2(out, 1);
	for (int k = 0; k < nclose; k++)
		close(close_fds[k]);
	execvp(argv[0], argv);
	tl_warn_errno("cannot run %s", argv[0]);
	_exit(127);
}

static int waited_ok(pid_t pid)
{
	int st;
	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/*
 * The node stream's columns TraceDiff reads (common/tree_read.c): tl-tree
 * writes only these, and only the tree's rows, so that the args text,
 * flows, instants and (without --python) python frames are neither
 * written nor parsed back.
 */
static char diff_columns[] = "uid,src,cat,name,ts,dur,dims,types,strides,concrete,parent,root";

/*
 * A trace file: run "tl-cat FILE | tl-tree" and read its node stream.  The
 * pipes are close-on-exec so that the other operand's pipeline, started
 * from another thread, does not hold them open.
 */
static struct tree_read *read_trace(const char *path, struct strpool *sp, int python)
{
	char cat[PATH_MAX], tree[PATH_MAX], fdpath[32];
	/*
	 * tl-tree reads the pipe with read(2): tl-cat may lend it its pages;
	 * without --python the rows out of the tree come lean (tl-cat --lean),
	 * which --tree-rows counts and leaves out
	 */
	char *cat_argv[] = { cat, "--lend-pages", python ? (char *)path : "--lean",
			     python ? NULL : (char *)path, NULL };
	char *tree_argv[] = { tree, "--columns", diff_columns, "--tree-rows",
			      python ? "--python" : NULL, NULL };
	int a[2], b[2], fds[4];
	struct tree_read *t;
	pid_t pc, pt;
	int ok;

	sibling("tl-cat", cat, sizeof(cat));
	sibling("tl-tree", tree, sizeof(tree));
	if (pipe2(a, O_CLOEXEC) < 0 || pipe2(b, O_CLOEXEC) < 0)
		tl_die_errno("pipe");
	fds[0] = a[0], fds[1] = a[1], fds[2] = b[0], fds[3] = b[1];
	pc = spawn(cat_argv, -1, a[1], fds, 4);
	pt = spawn(tree_argv, a[0], b[1], fds, 4);
	close(a[0]), close(a[1]), close(b[1]);
	snprintf(fdpath, sizeof(fdpath), "/dev/fd/%d", b[0]);
	t = tree_read_read(fdpath, sp);
	close(b[0]);
	ok = waited_ok(pc);
	ok &= waited_ok(pt);
	if (!ok || !t) {
		tl_warn("%s: could not build its call tree with %s | %s", path, cat, tree);
		tree_read_free(t);
		return NULL;
	}
	t->path = path;
	return t;
}

/* A node stream starts with "#tl-"; anything else is taken for a trace. */
static struct tree_read *load(const char *path, struct strpool *sp, int python)
{
	char head[4] = { 0 };
	int fd;

	if (!strcmp(path, "-"))
		return tree_read_read(path, sp);
	if ((fd = open(path, O_RDONLY)) < 0) {
		tl_warn_errno("%s", path);
		return NULL;
	}
	if (read(fd, head, sizeof(head)) < 0)
		head[0] = 0;
	close(fd);
	if (!memcmp(head, "#tl-", 4))
		return tree_read_read(path, sp);
	return read_trace(path, sp, python);
}

/* One operand, loaded in its own thread with its own string pool. */
struct job {
	const char *path;
	int python;
	struct strpool *sp;
	struct tree_read *t;
};

static void *load_job(void *arg)
{
	struct job *j = arg;
	j->t = load(j->path, j->sp, j->python);
	return NULL;
}

/*
 * Both operands at once: building a tree (tl-cat | tl-tree) is most of
 * the time, and the two are independent.  Trace 2's strings then move
 * into trace 1's pool so that names compare by id.
 */
static int load_both(const char *p1, const char *p2, int python, struct strpool *sp,
		     struct tree_read **t1, struct tree_read **t2)
{
	struct job a = { p1, python, sp, NULL }, b = { p2, python, strpool_new(), NULL };
	pthread_t th;
	int threaded = pthread_create(&th, NULL, load_job, &a) == 0;

	if (!threaded)
		load_job(&a);
	load_job(&b);
	if (threaded)
		pthread_join(th, NULL);
	if (b.t)
		tree_read_repool(b.t, sp);
	strpool_free(b.sp);
	*t1 = a.t;
	*t2 = b.t;
	return a.t && b.t;
}

struct opts {
	const char *dir;
	int print, summary, prune, top, python, html;
};

/*
 * -o DIR: report.html, drawn by tl-html from DIR/diff_stats.csv, which is
 * all it reads: it runs while the summary and the maps are written.
 */
static pid_t page_start(const char *dir)
{
	char html[PATH_MAX];
	char *argv[] = { html, (char *)dir, NULL };

	sibling("tl-html", html, sizeof(html));
	return spawn(argv, -1, 1, NULL, 0);
}

static int page_wait(pid_t pid, const char *dir)
{
	char html[PATH_MAX];

	if (waited_ok(pid))
		return 0;
	sibling("tl-html", html, sizeof(html));
	tl_warn("%s: %s could not draw report.html (--no-html skips it)", dir, html);
	return 1;
}

/* The six files (and the page) of -o DIR: 0, or 1 on failure. */
static int write_dir(struct diff_report *td, const struct opts *o)
{
	int k = diff_report_write_stats(td, o->dir, o->prune), rc = k < 0;
	pid_t page = k > 0 && o->html ? page_start(o->dir) : -1;

	if (k > 0)
		diff_report_write_rest(td, o->dir);
	if (page > 0)
		rc |= page_wait(page, o->dir);
	return rc;
}

static int report(struct tree_read *t1, struct tree_read *t2, const struct opts *o)
{
	struct diff_merge *tm = diff_merge_new(t1, t2);
	struct diff_report *td;
	struct outbuf *ob;
	int rc = 0;

	diff_merge_run(tm);
	td = diff_report_new(tm);
	if (o->dir)
		rc = write_dir(td, o);
	ob = outbuf_open_fd(1);
	if (o->print)
		diff_merge_print_tree(tm, ob, o->prune);
	if (o->summary)
		diff_report_write_summary(td, ob, o->top);
	outbuf_close(ob);
	diff_report_free(td);
	diff_merge_free(tm);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = { NULL, 0, 0, 0, 10, 0, 1 };
	struct strpool *sp;
	struct tree_read *t1, *t2;
	int c, rc;

	heap_pages_huge(argv);	/* two trees: most of the memory is touched once */
	tl_init(argv[0]);
	while ((c = tl_getopt(argc, argv, "hn:o:ps", longopts, usage)) != -1)
		switch (c) {
		case 'H': o.html = 0; break;
		case 'n': o.top = (int)tl_opt_long("-n", optarg); break;
		case 'o': o.dir = optarg; break;
		case 'p': o.print = 1; break;
		case 'P': o.prune = 1; break;
		case 's': o.summary = 1; break;
		case 'y': o.python = 1; break;
		default: tl_usage(usage, TL_EXIT_USAGE);
		}
	if (argc - optind != 2)
		tl_usage(usage, TL_EXIT_USAGE);
	if (!strcmp(argv[optind], "-") && !strcmp(argv[optind + 1], "-")) {
		tl_warn("only one operand can be standard input");
		tl_usage(usage, TL_EXIT_USAGE);
	}
	if (!o.dir && !o.print)
		o.summary = 1;
	sp = strpool_new();
	rc = load_both(argv[optind], argv[optind + 1], o.python, sp, &t1, &t2) ?
	     report(t1, t2, &o) : TL_EXIT_BAD;
	tree_read_free(t1);
	tree_read_free(t2);
	strpool_free(sp);
	return rc;
}
