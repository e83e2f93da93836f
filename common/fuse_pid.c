#include <stdlib.h>
#include <string.h>

#include "fuse_pid.h"
#include "hmap.h"
#include "outbuf.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

struct entry {
	unsigned rank;
	uint32_t text;		/* strpool id of 'n'/'s' + the pid's text */
	int64_t pid;
	int kept, gpu;
};

struct fuse_pids {
	unsigned nranks;
	int64_t stride;		/* M */
	struct strpool *sp;
	struct hmap index;	/* (rank, text) + 1 -> entry */
	struct hmap used;	/* new pid + 1 -> 1 */
	int64_t *next;		/* per rank: the next fallback slot to try */
	struct entry *e;
	size_t n, alloc;
	char *key;		/* scratch for the interned key */
	size_t key_alloc;
};

struct fuse_pids *fuse_pids_new(unsigned nranks)
{
	struct fuse_pids *p = xcalloc(1, sizeof(*p));
	int64_t limit = INT32_MAX;

	if (!nranks)
		nranks = 1;
	p->nranks = nranks;
	p->stride = 1;
	while (p->stride <= limit / 10 / nranks)
		p->stride *= 10;
	p->sp = strpool_new();
	p->next = xmalloc(st_mult(nranks, sizeof(*p->next)));
	for (unsigned r = 0; r < nranks; r++)
		p->next[r] = p->stride - 1;
	return p;
}

void fuse_pids_free(struct fuse_pids *p)
{
	if (!p)
		return;
	strpool_free(p->sp);
	hmap_release(&p->index);
	hmap_release(&p->used);
	free(p->next);
	free(p->e);
	free(p->key);
	free(p);
}

int64_t fuse_pids_stride(const struct fuse_pids *p)
{
	return p->stride;
}

/* A JSON integer below M, as TraceLens's type(value) is int: 1, else 0. */
static int small_int(const char *s, size_t n, int64_t m, int64_t *v)
{
	int64_t x = 0;

	if (!n || n > 18)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		x = x * 10 + (s[i] - '0');
	}
	if (x >= m)
		return 0;
	*v = x;
	return 1;
}

static int slot_free(const struct fuse_pids *p, int64_t pid)
{
	uint32_t dummy;
	return !hmap_get(&p->used, (uint64_t)pid + 1, &dummy);
}

/* The new pid for a pid first seen in rank: -1 if none is free. */
static int64_t new_pid(struct fuse_pids *p, unsigned rank, const char *text,
		       size_t n, int is_string)
{
	int64_t base = (int64_t)rank * p->stride, v;

	if (!is_string && small_int(text, n, p->stride, &v) && slot_free(p, base + v))
		return base + v;
	while (p->next[rank] >= 0 && !slot_free(p, base + p->next[rank]))
		p->next[rank]--;
	if (p->next[rank] < 0)
		return -1;
	return base + p->next[rank]--;
}

long fuse_pids_map(struct fuse_pids *p, unsigned rank, const char *text,
		   size_t n, int is_string)
{
	uint32_t id, e;
	uint64_t key;
	int64_t pid;

	xgrow((void **)&p->key, &p->key_alloc, st_add(n, 1), 1);
	p->key[0] = is_string ? 's' : 'n';
	memcpy(p->key + 1, text, n);
	id = strpool_intern(p->sp, p->key, n + 1);
	key = ((uint64_t)rank << 32 | id) + 1;
	if (hmap_get(&p->index, key, &e))
		return (long)e;
	pid = new_pid(p, rank, text, n, is_string);
	if (pid < 0)
		return -1;
	xgrow((void **)&p->e, &p->alloc, p->n + 1, sizeof(*p->e));
	p->e[p->n] = (struct entry){ rank, id, pid, 0, 0 };
	hmap_put(&p->index, key, (uint32_t)p->n);
	hmap_put(&p->used, (uint64_t)pid + 1, 1);
	return (long)p->n++;
}

int64_t fuse_pids_pid(const struct fuse_pids *p, long e)
{
	return p->e[e].pid;
}

void fuse_pids_note(struct fuse_pids *p, long e, int is_gpu)
{
	p->e[e].kept = 1;
	if (is_gpu)
		p->e[e].gpu = 1;
}

static int by_pid(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static void write_one(struct fuse_pids *p, const struct entry *e,
		      struct outbuf *ob, uint64_t *written)
{
	const char *text = strpool_str(p->sp, e->text);
	size_t len = strpool_len(p->sp, e->text);

	for (int k = 0; k < 2; k++) {
		if ((*written)++)
			outbuf_put(ob, ",\n", 2);
		outbuf_printf(ob, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%lld,\"tid\":0,\"args\":{",
			      k ? "process_sort_index" : "process_name", (long long)e->pid);
		if (k) {
			outbuf_printf(ob, "\"sort_index\":%lld}}",
				      2 * (long long)e->rank + (e->gpu ? 1 : 0));
			continue;
		}
		outbuf_printf(ob, "\"name\":\"RANK %u - ", e->rank);
		if (e->gpu)
			outbuf_puts(ob, "GPU");
		else if (text[0] == 's' && len > 1)	/* the string's JSON text, escapes kept */
			outbuf_put(ob, text + 1, len - 1);
		else
			outbuf_puts(ob, "CPU");
		outbuf_puts(ob, "\"}}");
	}
}

uint64_t fuse_pids_write_names(struct fuse_pids *p, struct outbuf *ob,
			       uint64_t written)
{
	uint64_t start = written;

	qsort(p->e, p->n, sizeof(*p->e), by_pid);
	for (size_t i = 0; i < p->n; i++)
		if (p->e[i].kept)
			write_one(p, &p->e[i], ob, &written);
	/* entries moved: the index no longer holds; nothing maps after this */
	hmap_clear(&p->index);
	return written - start;
}
