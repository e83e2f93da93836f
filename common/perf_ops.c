#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "perf_ops.h"
#include "share.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

struct perf_ops {
	struct perf_ops_entry *e;
	size_t n, alloc;
	/* open-addressing hash of exact names: slot holds index + 1, 0 = free */
	size_t *slot;
	size_t nslot;
	size_t *prefix;		/* indexes of '*' rows, table order */
	size_t nprefix;
	char **text;		/* the files, cut into fields in place */
	size_t ntext;
	/* ops-args.tsv: class name -> PM_REQ_* */
	struct { const char *cls; unsigned req; } *args;
	size_t nargs;
};

static const char *const kinds[] = {
	"gemm", "grouped_gemm", "conv", "sdpa", "infer_attn", "unary",
	"binary", "reduce", "norm", "moe", "operand_sum", "expr", "triton",
	"ssd", "gquant", "none", NULL
};

static int known_kind(const char *k)
{
	for (int i = 0; kinds[i]; i++)
		if (!strcmp(kinds[i], k))
			return 1;
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, alloc = 0, got;

	if (!f)
		tl_die_errno("%s", path);
	do {
		xgrow((void **)&buf, &alloc, len + 65536, 1);
		got = fread(buf + len, 1, alloc - len - 1, f);
		len += got;
	} while (got > 0);
	if (ferror(f))
		tl_die_errno("%s", path);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static size_t *find_slot(const struct perf_ops *db, const char *name)
{
	size_t h = tl_hash(name, strlen(name)) & (db->nslot - 1);

	while (db->slot[h] && strcmp(db->e[db->slot[h] - 1].name, name))
		h = (h + 1) & (db->nslot - 1);
	return &db->slot[h];
}

static void index_names(struct perf_ops *db, const char *path)
{
	free(db->slot);
	free(db->prefix);
	db->nprefix = 0;
	db->nslot = 16;
	while (db->nslot < 2 * db->n)
		db->nslot *= 2;
	db->slot = xcalloc(db->nslot, sizeof(*db->slot));
	db->prefix = xcalloc(db->n + 1, sizeof(*db->prefix));
	for (size_t i = 0; i < db->n; i++) {
		const char *nm = db->e[i].name;
		size_t len = strlen(nm);
		size_t *s;

		if (len > 1 && nm[len - 1] == '*') {
			db->prefix[db->nprefix++] = i;
			continue;
		}
		s = find_slot(db, nm);
		if (*s)
			tl_die("%s: duplicate op name '%s'", path, nm);
		*s = i + 1;
	}
}

/* Splits one line into exactly six tab-separated fields. */
static void parse_row(struct perf_ops *db, char *line, const char *path, long lineno, int merge)
{
	char *f[6];
	int nf = 0;
	char *p = line;
	struct perf_ops_entry *e;

	for (;;) {
		char *tab = strchr(p, '\t');
		if (nf == 6)
			tl_die("%s:%ld: more than 6 fields", path, lineno);
		f[nf++] = p;
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	if (nf != 6)
		tl_die("%s:%ld: %d fields, want 6 (name kind category bwd_category sheet options)",
		       path, lineno, nf);
	for (int i = 0; i < 6; i++)
		if (!*f[i])
			tl_die("%s:%ld: empty field %d (use '-')", path, lineno, i + 1);
	if (!known_kind(f[1]))
		tl_die("%s:%ld: unknown model kind '%s'", path, lineno, f[1]);
	e = NULL;
	if (merge)
		for (size_t i = 0; i < db->n && !e; i++)
			if (!strcmp(db->e[i].name, f[0]))
				e = &db->e[i];
	if (!e) {
		xgrow((void **)&db->e, &db->alloc, db->n + 1, sizeof(*db->e));
		e = &db->e[db->n++];
	}
	e->name = f[0];
	e->kind = f[1];
	e->category = f[2];
	e->bwd_category = f[3];
	e->sheet = f[4];
	e->options = f[5];
	e->req = 0;
}

/* Reads one table's rows into db (merge: names already there replaced). */
static void load_rows(struct perf_ops *db, const char *path, int merge)
{
	char *p, *nl, *text = slurp(path);
	long lineno = 0;

	db->text = xrealloc(db->text, st_mult(db->ntext + 1, sizeof(*db->text)));
	db->text[db->ntext++] = text;
	for (p = text; *p; p = nl) {
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = '\0';
		else
			nl = p + strlen(p);
		lineno++;
		if (*p && p[strlen(p) - 1] == '\r')
			p[strlen(p) - 1] = '\0';
		if (*p == '#' || *p == '\0')
			continue;
		parse_row(db, p, path, lineno, merge);
	}
}

/* ops-args.tsv: "class<TAB>dims,types,strides,concrete" (or '-') */
static void load_args(struct perf_ops *db, const char *path)
{
	static const char *const key[] = { "dims", "types", "strides", "concrete" };
	char *p, *nl, *text;
	size_t alloc = 0;

	if (!path)
		return;
	text = slurp(path);
	db->text = xrealloc(db->text, st_mult(db->ntext + 1, sizeof(*db->text)));
	db->text[db->ntext++] = text;
	for (p = text; *p; p = nl) {
		char *tab;
		unsigned req = 0;
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = '\0';
		else
			nl = p + strlen(p);
		if (*p == '#' || !*p || !(tab = strchr(p, '\t')))
			continue;
		*tab++ = '\0';
		for (int i = 0; i < 4; i++)
			if (strstr(tab, key[i]))
				req |= 1u << i;
		xgrow((void **)&db->args, &alloc, db->nargs + 1, sizeof(*db->args));
		db->args[db->nargs].cls = p;
		db->args[db->nargs++].req = req;
	}
}

/* each row's req from its class= option */
static void apply_args(struct perf_ops *db)
{
	for (size_t i = 0; i < db->n; i++) {
		size_t len;
		const char *c = perf_ops_opt(db->e[i].options, "class", &len);
		db->e[i].req = 0;
		for (size_t j = 0; c && j < db->nargs; j++)
			if (strlen(db->args[j].cls) == len && !strncmp(db->args[j].cls, c, len))
				db->e[i].req = db->args[j].req;
	}
}

/* ops-args.tsv beside the table at path, else share/tl's; NULL if none */
static char *args_path(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	size_t n = slash ? (size_t)(slash - path) + 1 : 0;
	char *p = xmalloc(n + 16);
	FILE *f;

	memcpy(p, path ? path : "", n);
	memcpy(p + n, "ops-args.tsv", 13);
	if ((f = fopen(p, "r"))) {
		fclose(f);
		return p;
	}
	free(p);
	return tl_share_path("ops-args.tsv");
}

struct perf_ops *perf_ops_load(const char *path)
{
	struct perf_ops *db = xcalloc(1, sizeof(*db));
	char *found = NULL, *ap;

	if (!path) {
		found = tl_share_path("ops.tsv");
		if (!found)
			tl_die("ops.tsv not found (set TL_SHARE to the share/tl folder)");
		path = found;
	}
	load_rows(db, path, 0);
	index_names(db, path);
	ap = args_path(path);
	load_args(db, ap);
	apply_args(db);
	free(ap);
	free(found);
	return db;
}

void perf_ops_extend(struct perf_ops *db, const char *path)
{
	load_rows(db, path, 1);
	index_names(db, path);
	apply_args(db);
}

void perf_ops_free(struct perf_ops *db)
{
	if (!db)
		return;
	free(db->e);
	free(db->slot);
	free(db->prefix);
	for (size_t i = 0; i < db->ntext; i++)
		free(db->text[i]);
	free(db->text);
	free(db->args);
	free(db);
}

static const struct perf_ops_entry *lookup_exact(const struct perf_ops *db, const char *name)
{
	size_t *s = find_slot(db, name);

	return *s ? &db->e[*s - 1] : NULL;
}

const struct perf_ops_entry *perf_ops_lookup(const struct perf_ops *db, const char *name)
{
	const struct perf_ops_entry *e = lookup_exact(db, name);

	if (e)
		return e;
	for (size_t i = 0; i < db->nprefix; i++) {
		const struct perf_ops_entry *pe = &db->e[db->prefix[i]];
		size_t plen = strlen(pe->name) - 1;

		if (!strncmp(name, pe->name, plen))
			return pe;
	}
	return NULL;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

const char *perf_ops_categorize(const struct perf_ops *db, const char *op_name,
			    const char *first_kernel_name)
{
	/* the registry holds exact names only; the Triton matcher is not in it */
	const struct perf_ops_entry *e = lookup_exact(db, op_name);
	const char *k = first_kernel_name;

	if (e)
		return e->category;
	if (starts(op_name, "triton"))
		return "triton";
	if (starts(op_name, "record_param_comms"))
		return "record_param_comms";
	if (k && starts(k, "void at::native")) {
		if (strstr(k, "elementwise"))
			return "elementwise";
		if (strstr(k, "reduce"))
			return "reduce";
		if (strstr(k, "multi_tensor_apply"))
			return "multi_tensor_apply";
	}
	return "other";
}

size_t perf_ops_count(const struct perf_ops *db)
{
	return db->n;
}

const struct perf_ops_entry *perf_ops_at(const struct perf_ops *db, size_t i)
{
	return i < db->n ? &db->e[i] : NULL;
}

const char *perf_ops_opt(const char *options, const char *key, size_t *len)
{
	size_t klen = strlen(key);
	const char *p = options;

	while (p && *p) {
		const char *end;

		while (*p == ' ')
			p++;
		end = strchr(p, ' ');
		if (!end)
			end = p + strlen(p);
		if ((size_t)(end - p) > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			*len = (size_t)(end - p) - klen - 1;
			return p + klen + 1;
		}
		p = end;
	}
	return NULL;
}
