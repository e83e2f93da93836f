/*
 * replay_input: a node stream, or a trace run through tl-cat | tl-tree
 * (see replay_input.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "replay_input.h"
#include "banned.h"

/* Does the file start as a tl stream does?  -1: cannot be read */
static int is_stream(const char *path)
{
	char head[4];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		tl_warn_errno("%s", path);
		return -1;
	}
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	return n == 4 && !memcmp(head, "#tl-", 4);
}

/* exec PROG from this program's folder, else from PATH; never returns */
static _Noreturn void run(const char *prog, char *const argv[])
{
	char exe[PATH_MAX], path[PATH_MAX + 32], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/'))) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/%s", exe, prog);
			if (access(path, X_OK) == 0)
				execv(path, argv);
		}
	}
	execvp(prog, argv);
	tl_warn_errno("cannot run %s", prog);
	_exit(127);
}

static pid_t spawn(const char *prog, char *const argv[], int in, int out, int closefd)
{
	pid_t pid = fork();

	if (pid < 0)
		tl_die_errno("fork");
	if (pid == 0) {
		if (in >= 0 && dup2(in, 0) < 0)
			_exit(127);
		if (dup2(out, 1) < 0)
			_exit(127);
		if (in >= 0)
			close(in);
		close(out);
		if (closefd >= 0)
			close(closefd);
		run(prog, argv);
	}
	return pid;
}

static int waited_ok(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

struct tree_nodes *replay_input_read(const char *path)
{
	int a[2], b[2], r;
	char fdpath[32];
	char *cat_argv[] = { "tl-cat", "--", (char *)path, NULL };
	char *tree_argv[] = { "tl-tree", NULL };
	struct tree_nodes *ns;
	pid_t cat, tree;

	if (!path || !strcmp(path, "-"))
		return tree_nodes_read(path);
	if ((r = is_stream(path)) != 0)
		return r > 0 ? tree_nodes_read(path) : NULL;
	if (pipe(a) < 0 || pipe(b) < 0)
		tl_die_errno("pipe");
	fflush(NULL);
	cat = spawn("tl-cat", cat_argv, -1, a[1], a[0]);
	close(a[1]);
	tree = spawn("tl-tree", tree_argv, a[0], b[1], b[0]);
	close(a[0]);
	close(b[1]);
	snprintf(fdpath, sizeof(fdpath), "/dev/fd/%d", b[0]);
	ns = tree_nodes_read(fdpath);
	close(b[0]);
	/* both must have succeeded: a cut trace ends tl-cat with 1 after
	 * tl-tree read a well-formed prefix */
	r = waited_ok(cat);
	r = waited_ok(tree) && r;
	if (!r && ns) {
		tree_nodes_free(ns);
		ns = NULL;
	}
	return ns;
}
