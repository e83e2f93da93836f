#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat_json.h"
#include "cat_rocprof.h"
#include "cat_event.h"
#include "err.h"
#include "json.h"
#include "json_pull.h"
#include "py_repr.h"
#include "strpool.h"
#include "xalloc.h"
#include "banned.h"

#define TOOL_KEY "rocprofiler-sdk-tool"

/* Raw JSON text of a value: a string token's text with its quotes back. */
struct raw {
	const char *s;
	size_t n;
};

struct opnames {		/* strings.buffer_records[kind].operations */
	struct raw *op;
	size_t nop;
};

struct agent {
	char *handle;		/* compact text of id.handle */
	long gpu;		/* GPU index, -1 for other agents */
};

struct rp {
	struct cat_event_out *w;
	const char *name;
	unsigned src;
	struct json j;		/* the value being looked at */
	struct json ev;		/* the event built from a record */
	struct pystr out;	/* its text */
	char *pid;		/* metadata.pid, compact JSON, or NULL */
	struct agent *agent;
	size_t nagent;
	struct strpool *kid;	/* kernel_id text → index into kname */
	char **kname;		/* raw JSON string text, quotes included */
	size_t nkname, kname_alloc;
	struct opnames *kind;
	size_t nkind;
	char *kbuf;		/* scratch for decoded keys */
	size_t kbuf_alloc;
};

/* ---- small helpers over json.h tokens ------------------------------- */

static struct raw tok_raw(const struct json *j, unsigned i)
{
	struct raw r;

	if (j->tok[i].type == JSON_STRING) {
		r.s = j->text + j->tok[i].start - 1;
		r.n = (size_t)(j->tok[i].end - j->tok[i].start) + 2;
	} else {
		r.s = j->text + j->tok[i].start;
		r.n = (size_t)(j->tok[i].end - j->tok[i].start);
	}
	return r;
}

/* Is key token k, decoded, equal to the NUL-terminated s? */
static int key_is(struct rp *r, const struct json *j, unsigned k, const char *s)
{
	const char *t = j->text + j->tok[k].start;
	size_t n = (size_t)(j->tok[k].end - j->tok[k].start);

	if (memchr(t, '\\', n)) {
		xgrow((void **)&r->kbuf, &r->kbuf_alloc, n + 1, 1);
		n = json_decode_string(t, n, r->kbuf);
		t = r->kbuf;
	}
	return n == strlen(s) && !memcmp(t, s, n);
}

/* Value token of the last member called key in object o, or 0. */
static unsigned member(struct rp *r, const struct json *j, unsigned o, const char *key)
{
	unsigned found = 0, i = o + 1;

	if (j->tok[o].type != JSON_OBJECT)
		return 0;
	for (int m = 0; m < j->tok[o].size; m++) {
		if (key_is(r, j, i, key))
			found = i + 1;
		i = json_skip(j, i + 1);
	}
	return found;
}

/* An integer JSON number (no fraction, no exponent) that fits int64. */
static int tok_int64(const struct json *j, unsigned i, int64_t *v)
{
	const char *s = j->text + j->tok[i].start;
	size_t n = (size_t)(j->tok[i].end - j->tok[i].start);
	char tmp[24];
	char *end;

	if (j->tok[i].type != JSON_PRIMITIVE || !json_tok_is_number(j, i) ||
	    n >= sizeof(tmp) || memchr(s, '.', n) || memchr(s, 'e', n) ||
	    memchr(s, 'E', n))
		return -1;
	tl_memcpy(tmp, s, n);
	tmp[n] = '\0';
	errno = 0;
	long long x = strtoll(tmp, &end, 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

/* {"handle": V}, exactly: V's token, else 0. */
static unsigned handle_of(struct rp *r, const struct json *j, unsigned o)
{
	if (j->tok[o].type != JSON_OBJECT || j->tok[o].size != 1 ||
	    !key_is(r, j, o + 1, "handle"))
		return 0;
	return o + 2;
}

size_t cat_ns_to_us(int64_t ns, char *out)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	unsigned frac = (unsigned)(a % 1000);
	int n = snprintf(out, 32, "%s%" PRIu64, ns < 0 ? "-" : "", a / 1000);

	if (frac) {
		char d[4] = { (char)('0' + frac / 100), (char)('0' + frac / 10 % 10),
			      (char)('0' + frac % 10), 0 };
		int k = 3;
		while (d[k - 1] == '0')
			k--;
		out[n++] = '.';
		tl_memcpy(out + n, d, (size_t)k);
		n += k;
		out[n] = '\0';
	}
	return (size_t)n;
}

int cat_rocprof_sniff(const char *s, size_t n)
{
	static const char want[] = "\"" TOOL_KEY "\"";
	size_t i = 0, k;

	if (n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	if (i == n)
		return -1;
	if (s[i++] != '{')
		return 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	for (k = 0; k < sizeof(want) - 1; k++, i++) {
		if (i == n)
			return -1;
		if (s[i] != want[k])
			return 0;
	}
	return 1;
}

/* ---- building the event --------------------------------------------- */

static void add_raw(struct pystr *o, struct raw v)
{
	pystr_add(o, v.s, v.n);
}

/* ,"key": (the comma unless the object was just opened) */
static void add_key(struct pystr *o, const char *key)
{
	if (o->buf[o->len - 1] != '{')
		pystr_addc(o, ',');
	pystr_addc(o, '"');
	pystr_adds(o, key);
	pystr_adds(o, "\":");
}

/* A member's key as raw JSON text (escapes kept), with the comma. */
static void add_key_tok(struct pystr *o, const struct json *j, unsigned k)
{
	if (o->buf[o->len - 1] != '{')
		pystr_addc(o, ',');
	add_raw(o, tok_raw(j, k));
	pystr_addc(o, ':');
}

/* [x,y,z] of a grid/workgroup object, 1 for a missing member (TraceLens). */
static void add_dims(struct rp *r, const struct json *j, unsigned o)
{
	static const char *const xyz[] = { "x", "y", "z" };

	pystr_addc(&r->out, '[');
	for (int d = 0; d < 3; d++) {
		unsigned v = member(r, j, o, xyz[d]);
		if (d)
			pystr_addc(&r->out, ',');
		if (v)
			add_raw(&r->out, tok_raw(j, v));
		else
			pystr_addc(&r->out, '1');
	}
	pystr_addc(&r->out, ']');
}

/* The members of dispatch_info, flattened into args (its "size" dropped). */
static void add_dispatch_info(struct rp *r, const struct json *j, unsigned o)
{
	unsigned i = o + 1, h;

	for (int m = 0; m < j->tok[o].size; m++, i = json_skip(j, i + 1)) {
		unsigned v = i + 1;
		if (key_is(r, j, i, "size"))
			continue;
		if (key_is(r, j, i, "workgroup_size") && j->tok[v].type == JSON_OBJECT) {
			add_key(&r->out, "block");
			add_dims(r, j, v);
		} else if (key_is(r, j, i, "grid_size") && j->tok[v].type == JSON_OBJECT) {
			add_key(&r->out, "grid");
			add_dims(r, j, v);
		} else {
			add_key_tok(&r->out, j, i);
			h = handle_of(r, j, v);
			add_raw(&r->out, tok_raw(j, h ? h : v));
		}
	}
}

/* The record's members into args, in order, as tl-stream(5) says. */
static void add_args(struct rp *r, const struct json *j, long device)
{
	unsigned i = 1, h;

	pystr_adds(&r->out, ",\"args\":{");
	if (device >= 0) {
		add_key(&r->out, "device");
		char num[24];
		snprintf(num, sizeof(num), "%ld", device);
		pystr_adds(&r->out, num);
	}
	for (int m = 0; m < j->tok[0].size; m++, i = json_skip(j, i + 1)) {
		unsigned v = i + 1;
		if (key_is(r, j, i, "start_timestamp") || key_is(r, j, i, "end_timestamp"))
			continue;
		if (key_is(r, j, i, "correlation_id") && j->tok[v].type == JSON_OBJECT) {
			unsigned k = v + 1;
			for (int c = 0; c < j->tok[v].size; c++, k = json_skip(j, k + 1)) {
				if (key_is(r, j, k, "internal"))
					add_key(&r->out, "correlation");
				else if (key_is(r, j, k, "external"))
					add_key(&r->out, "external_correlation");
				else
					add_key_tok(&r->out, j, k);
				add_raw(&r->out, tok_raw(j, k + 1));
			}
		} else if (key_is(r, j, i, "dispatch_info") && j->tok[v].type == JSON_OBJECT) {
			add_dispatch_info(r, j, v);
		} else if (key_is(r, j, i, "stream_id") && (h = handle_of(r, j, v))) {
			add_key(&r->out, "stream");
			add_raw(&r->out, tok_raw(j, h));
		} else {
			add_key_tok(&r->out, j, i);
			h = handle_of(r, j, v);
			add_raw(&r->out, tok_raw(j, h ? h : v));
		}
	}
	pystr_addc(&r->out, '}');
}

/* GPU index of the agent whose handle is token v, or -1. */
static long agent_gpu(struct rp *r, const struct json *j, unsigned v)
{
	struct raw h = tok_raw(j, v);

	for (size_t a = 0; a < r->nagent; a++)
		if (strlen(r->agent[a].handle) == h.n && !memcmp(r->agent[a].handle, h.s, h.n))
			return r->agent[a].gpu;
	return -1;
}

/*
 * Kernel name as TraceLens picks it (util.py RocprofParser): the symbol's
 * name, else f"unknown_kernel_{kernel_id}" (str() of the id: True, None,
 * 1e3 as 1000.0).  An object or array id is refused, -1 with *msg: the
 * kernel_symbols lookup raises TypeError (unhashable) there.
 */
static int add_kernel_name(struct rp *r, const struct json *j, unsigned di, const char **msg)
{
	unsigned kid = di ? member(r, j, di, "kernel_id") : 0;
	uint32_t id;
	struct raw t;

	if (!kid) {
		pystr_adds(&r->out, "\"unknown_kernel_None\"");
		return 0;
	}
	if (j->tok[kid].type == JSON_OBJECT || j->tok[kid].type == JSON_ARRAY) {
		*msg = "dispatch_info.kernel_id is an object or array (unhashable in TraceLens)";
		return -1;
	}
	t = tok_raw(j, kid);
	id = strpool_find(r->kid, t.s, t.n);
	if (id != UINT32_MAX && id < r->nkname && r->kname[id]) {
		pystr_adds(&r->out, r->kname[id]);
		return 0;
	}
	pystr_adds(&r->out, "\"unknown_kernel_");
	if (j->tok[kid].type == JSON_STRING)
		pystr_add(&r->out, t.s + 1, t.n - 2);	/* its escapes kept: still JSON */
	else if (py_repr_json(&r->out, t.s, t.n, 0) < 0)	/* True, None, 1000.0 */
		add_raw(&r->out, t);
	pystr_addc(&r->out, '"');
	return 0;
}

/* strings.buffer_records[kind].operations[operation], or the array name. */
static void add_op_name(struct rp *r, const struct json *j, const char *arr)
{
	unsigned k = member(r, j, 0, "kind"), o = member(r, j, 0, "operation");
	int64_t kind, op;

	if (k && o && !tok_int64(j, k, &kind) && !tok_int64(j, o, &op) &&
	    kind >= 0 && (uint64_t)kind < r->nkind && op >= 0 &&
	    (uint64_t)op < r->kind[kind].nop) {
		add_raw(&r->out, r->kind[kind].op[op]);
		return;
	}
	cat_json_string(&r->out, arr);	/* decoded: quotes, controls escaped again */
}

static const char *category(const char *arr)
{
	if (!strcmp(arr, "kernel_dispatch"))
		return "kernel";
	if (!strcmp(arr, "memory_copy"))
		return "gpu_memcpy";
	if (!strcmp(arr, "hip_api"))
		return "cuda_runtime";
	return arr;
}

/* A timestamp member: its value, 0 when missing (as TraceLens reads it). */
static int timestamp(struct rp *r, const struct json *j, const char *key, int64_t *ns,
		     const char **msg)
{
	unsigned v = member(r, j, 0, key);

	*ns = 0;
	if (v && tok_int64(j, v, ns) < 0) {
		*msg = !strcmp(key, "start_timestamp") ? "start_timestamp is not an integer"
			: "end_timestamp is not an integer";
		return -1;
	}
	return 0;
}

/*
 * The device of a record: the dispatch's agent for a kernel, the GPU end
 * of a memory copy.  *handle gets the agent's handle token (0: none).
 */
static long record_device(struct rp *r, const struct json *j, const char *arr,
			  unsigned *handle)
{
	unsigned di, a;

	*handle = 0;
	if (!strcmp(arr, "kernel_dispatch")) {
		di = member(r, j, 0, "dispatch_info");
		a = di ? member(r, j, di, "agent_id") : 0;
		*handle = a ? handle_of(r, j, a) : 0;
	} else if (!strcmp(arr, "memory_copy")) {
		a = member(r, j, 0, "dst_agent_id");
		*handle = a ? handle_of(r, j, a) : 0;
		if (!*handle || agent_gpu(r, j, *handle) < 0) {
			a = member(r, j, 0, "src_agent_id");
			unsigned s = a ? handle_of(r, j, a) : 0;
			if (s && (agent_gpu(r, j, s) >= 0 || !*handle))
				*handle = s;
		}
	}
	return *handle ? agent_gpu(r, j, *handle) : -1;
}

/* Builds the event of record j (an object) from array arr into r->out. */
static int build_event(struct rp *r, const struct json *j, const char *arr, const char **msg)
{
	int64_t start, end, dur;
	unsigned handle, v;
	char num[32];
	long dev;

	if (timestamp(r, j, "start_timestamp", &start, msg) < 0 ||
	    timestamp(r, j, "end_timestamp", &end, msg) < 0)
		return -1;
	if (__builtin_sub_overflow(end, start, &dur)) {
		*msg = "end_timestamp - start_timestamp overflows";
		return -1;
	}
	dev = record_device(r, j, arr, &handle);
	pystr_reset(&r->out);
	pystr_adds(&r->out, "{\"ph\":\"X\",\"cat\":");
	cat_json_string(&r->out, category(arr));
	pystr_adds(&r->out, ",\"name\":");
	if (!strcmp(arr, "kernel_dispatch")) {
		if (add_kernel_name(r, j, member(r, j, 0, "dispatch_info"), msg) < 0)
			return -1;
	} else {
		add_op_name(r, j, arr);
	}
	if (handle) {
		pystr_adds(&r->out, ",\"pid\":");
		if (dev >= 0) {
			snprintf(num, sizeof(num), "%ld", dev);
			pystr_adds(&r->out, num);
		} else {
			add_raw(&r->out, tok_raw(j, handle));
		}
		pystr_adds(&r->out, ",\"tid\":");
		v = member(r, j, 0, "stream_id");
		unsigned h = v ? handle_of(r, j, v) : 0;
		if (h)
			add_raw(&r->out, tok_raw(j, h));
		else
			pystr_addc(&r->out, '0');
	} else {
		if (r->pid) {
			pystr_adds(&r->out, ",\"pid\":");
			pystr_adds(&r->out, r->pid);
		}
		if ((v = member(r, j, 0, "thread_id"))) {
			pystr_adds(&r->out, ",\"tid\":");
			add_raw(&r->out, tok_raw(j, v));
		}
	}
	cat_ns_to_us(start, num);
	pystr_adds(&r->out, ",\"ts\":");
	pystr_adds(&r->out, num);
	cat_ns_to_us(dur, num);
	pystr_adds(&r->out, ",\"dur\":");
	pystr_adds(&r->out, num);
	add_args(r, j, handle ? dev : -1);
	pystr_addc(&r->out, '}');
	return 0;
}

/* ---- what the tool object's other members tell ----------------------- */

static void learn_metadata(struct rp *r)
{
	unsigned v = member(r, &r->j, 0, "pid");

	free(r->pid);
	r->pid = NULL;
	if (v && r->j.tok[v].type == JSON_PRIMITIVE) {
		struct raw t = tok_raw(&r->j, v);
		r->pid = xstrndup(t.s, t.n);
	}
}

static void learn_agents(struct rp *r)
{
	const struct json *j = &r->j;
	unsigned i = 1;
	long ngpu = 0;

	for (size_t a = 0; a < r->nagent; a++)
		free(r->agent[a].handle);
	free(r->agent);
	r->agent = NULL;
	r->nagent = 0;
	if (j->tok[0].type != JSON_ARRAY)
		return;
	r->agent = xcalloc((size_t)j->tok[0].size + 1, sizeof(*r->agent));
	for (int e = 0; e < j->tok[0].size; e++, i = json_skip(j, i)) {
		unsigned id = member(r, j, i, "id"), h = id ? handle_of(r, j, id) : 0;
		unsigned type = member(r, j, i, "type"), lt;
		int64_t t, idx;
		if (!h)
			continue;
		struct agent *ag = &r->agent[r->nagent++];
		struct raw hr = tok_raw(j, h);
		ag->handle = xstrndup(hr.s, hr.n);
		ag->gpu = -1;
		if (type && !tok_int64(j, type, &t) && t == 2) {
			lt = member(r, j, i, "logical_node_type_id");
			ag->gpu = lt && !tok_int64(j, lt, &idx) && idx >= 0 ? (long)idx : ngpu;
			ngpu++;
		}
	}
}

/* #top deviceProperties: Kineto's GPU list, from the GPU agents */
static void device_properties(struct rp *r)
{
	static const char *const keys[][2] = {
		{ "name", "product_name" }, { "gcnArchName", "name" },
		{ "numSms", "cu_count" }, { "warpSize", "wave_front_size" },
	};
	const struct json *j = &r->j;
	unsigned i = 1;
	size_t g = 0;
	char num[24];

	pystr_reset(&r->out);
	pystr_addc(&r->out, '[');
	for (int e = 0; e < j->tok[0].size; e++, i = json_skip(j, i)) {
		unsigned id = member(r, j, i, "id"), h = id ? handle_of(r, j, id) : 0;
		long gpu;
		if (!h || (gpu = agent_gpu(r, j, h)) < 0)
			continue;
		pystr_adds(&r->out, g++ ? ",{" : "{");
		snprintf(num, sizeof(num), "%ld", gpu);
		add_key(&r->out, "id");
		pystr_adds(&r->out, num);
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			unsigned v = member(r, j, i, keys[k][1]);
			if (!v)
				continue;
			add_key(&r->out, keys[k][0]);
			add_raw(&r->out, tok_raw(j, v));
		}
		pystr_addc(&r->out, '}');
	}
	pystr_addc(&r->out, ']');
	if (!g)
		return;
	if (json_parse(&r->ev, r->out.buf, r->out.len) == 0)
		cat_event_top(r->w, r->src, "deviceProperties", 16, &r->ev);
}

static void learn_kernel_symbols(struct rp *r)
{
	const struct json *j = &r->j;
	static const char *const pick[] = { "truncated_kernel_name", "formatted_kernel_name" };
	unsigned i = 1;

	if (j->tok[0].type != JSON_ARRAY)
		return;
	for (int e = 0; e < j->tok[0].size; e++, i = json_skip(j, i)) {
		unsigned kid = member(r, j, i, "kernel_id"), v = 0;
		struct raw t;
		if (!kid)
			continue;
		/* truncated or formatted name when non-empty, else kernel_name */
		for (int p = 0; p < 2 && !v; p++) {
			v = member(r, j, i, pick[p]);
			if (v && (j->tok[v].type != JSON_STRING || j->tok[v].end == j->tok[v].start))
				v = 0;
		}
		if (!v && (v = member(r, j, i, "kernel_name")) && j->tok[v].type != JSON_STRING)
			v = 0;
		t = tok_raw(j, kid);
		uint32_t id = strpool_intern(r->kid, t.s, t.n);
		if (id >= r->nkname) {
			xgrow((void **)&r->kname, &r->kname_alloc, (size_t)id + 1, sizeof(*r->kname));
			memset(r->kname + r->nkname, 0, ((size_t)id + 1 - r->nkname) * sizeof(*r->kname));
			r->nkname = (size_t)id + 1;
		}
		free(r->kname[id]);
		r->kname[id] = NULL;
		if (v) {
			t = tok_raw(j, v);
			r->kname[id] = xstrndup(t.s, t.n);
		} else {
			/* the symbol has no name: "unknown_kernel_<id>" */
			struct pystr s = { 0 };
			pystr_adds(&s, "\"unknown_kernel_");
			t = tok_raw(j, kid);
			if (j->tok[kid].type == JSON_STRING)
				pystr_add(&s, t.s + 1, t.n - 2);
			else
				pystr_add(&s, t.s, t.n);
			pystr_addc(&s, '"');
			r->kname[id] = s.buf;
		}
	}
}

static void free_kinds(struct rp *r)
{
	for (size_t k = 0; k < r->nkind; k++) {
		for (size_t o = 0; o < r->kind[k].nop; o++)
			free((char *)r->kind[k].op[o].s);
		free(r->kind[k].op);
	}
	free(r->kind);
	r->kind = NULL;
	r->nkind = 0;
}

static void learn_strings(struct rp *r)
{
	const struct json *j = &r->j;
	unsigned br = member(r, j, 0, "buffer_records"), i;

	free_kinds(r);
	if (!br || j->tok[br].type != JSON_ARRAY)
		return;
	r->kind = xcalloc((size_t)j->tok[br].size + 1, sizeof(*r->kind));
	r->nkind = (size_t)j->tok[br].size;
	i = br + 1;
	for (size_t k = 0; k < r->nkind; k++, i = json_skip(j, i)) {
		unsigned ops = member(r, j, i, "operations"), o;
		if (!ops || j->tok[ops].type != JSON_ARRAY)
			continue;
		r->kind[k].op = xcalloc((size_t)j->tok[ops].size + 1, sizeof(struct raw));
		o = ops + 1;
		for (int n = 0; n < j->tok[ops].size; n++, o = json_skip(j, o)) {
			struct raw t = tok_raw(j, o);
			if (j->tok[o].type != JSON_STRING)
				continue;
			r->kind[k].op[n].s = xstrndup(t.s, t.n);
			r->kind[k].op[n].n = t.n;
			r->kind[k].nop = (size_t)n + 1;
		}
	}
}

/* ---- the walk --------------------------------------------------------- */

static int pull_fail(struct rp *r, struct json_pull *p)
{
	tl_warn("%s: byte %" PRIu64 ": %s", r->name, p->err_off, p->err_msg);
	return -1;
}

/* One whole value into r->j, checked; -1 reported. */
static int take(struct rp *r, struct json_pull *p)
{
	const char *t;
	size_t n;
	uint64_t off;

	if (json_pull_peek(p) < 0)
		return pull_fail(r, p);
	off = json_pull_offset(p);
	if (json_pull_value(p, &t, &n) < 0)
		return pull_fail(r, p);
	if (json_parse(&r->j, t, n) < 0) {
		tl_warn("%s: byte %" PRIu64 ": %s", r->name, off + r->j.err_off, r->j.err_msg);
		return -1;
	}
	return 0;
}

static void top(struct rp *r, const char *prefix, const char *key)
{
	struct pystr k = { 0 };

	pystr_adds(&k, prefix);
	pystr_adds(&k, key);
	cat_event_top(r->w, r->src, k.buf, k.len, &r->j);
	pystr_release(&k);
}

/* One record of buffer_records[arr]; -1 fatal (reported). */
static int record(struct rp *r, struct json_pull *p, const char *arr, int keep_going,
		  uint64_t *elements, uint64_t *skipped)
{
	uint64_t uid = (*elements)++, off;
	const char *t, *msg = NULL;
	size_t n;

	if (json_pull_peek(p) < 0)
		return pull_fail(r, p);
	off = json_pull_offset(p);
	if (json_pull_value(p, &t, &n) < 0)
		return pull_fail(r, p);
	if (json_parse(&r->j, t, n) < 0) {
		off += r->j.err_off;
		msg = r->j.err_msg;
	} else if (r->j.tok[0].type != JSON_OBJECT) {
		msg = "record is not an object";
	} else if (build_event(r, &r->j, arr, &msg) == 0) {
		if (json_parse(&r->ev, r->out.buf, r->out.len) < 0)
			tl_die("%s: record %" PRIu64 ": internal error: %s", r->name, uid,
			       r->ev.err_msg);
		cat_event_row(r->w, r->src, uid, &r->ev, NULL);
		return 0;
	}
	tl_warn("%s: byte %" PRIu64 ": record %" PRIu64 " (%s): %s", r->name, off, uid, arr, msg);
	if (!keep_going)
		return -1;
	(*skipped)++;
	return 0;
}

static int buffer_records(struct rp *r, struct json_pull *p, int keep_going,
			  uint64_t *elements, uint64_t *skipped)
{
	int m, e;

	if ((m = json_pull_begin(p, '{')) < 0)
		return pull_fail(r, p);
	while (m > 0) {
		if (json_pull_key(p) < 0)
			return pull_fail(r, p);
		char *arr = xstrdup(p->key);
		int c = json_pull_peek(p);
		if (c < 0) {
			free(arr);
			return pull_fail(r, p);
		}
		if (c != '[') {
			/* not a record array: passed through like the other members */
			int rc = take(r, p);
			if (rc == 0)
				top(r, TOOL_KEY ".buffer_records.", arr);
			free(arr);
			if (rc < 0)
				return -1;
		} else {
			if ((e = json_pull_begin(p, '[')) < 0) {
				free(arr);
				return pull_fail(r, p);
			}
			while (e > 0) {
				if (record(r, p, arr, keep_going, elements, skipped) < 0) {
					free(arr);
					return -1;
				}
				if ((e = json_pull_next(p, ']')) < 0) {
					free(arr);
					return pull_fail(r, p);
				}
			}
			free(arr);
		}
		if ((m = json_pull_next(p, '}')) < 0)
			return pull_fail(r, p);
	}
	return 0;
}

static int tool_object(struct rp *r, struct json_pull *p, int keep_going,
		       uint64_t *elements, uint64_t *skipped)
{
	int m;

	if ((m = json_pull_begin(p, '{')) < 0)
		return pull_fail(r, p);
	while (m > 0) {
		if (json_pull_key(p) < 0)
			return pull_fail(r, p);
		int c = json_pull_peek(p);
		if (c < 0)
			return pull_fail(r, p);
		if (!strcmp(p->key, "buffer_records") && c == '{') {
			if (buffer_records(r, p, keep_going, elements, skipped) < 0)
				return -1;
		} else {
			char *key = xstrdup(p->key);
			int rc = take(r, p);
			if (rc == 0) {
				top(r, TOOL_KEY ".", key);
				if (!strcmp(key, "metadata"))
					learn_metadata(r);
				else if (!strcmp(key, "strings"))
					learn_strings(r);
				else if (!strcmp(key, "kernel_symbols"))
					learn_kernel_symbols(r);
				else if (!strcmp(key, "agents")) {
					learn_agents(r);
					device_properties(r);
				}
			}
			free(key);
			if (rc < 0)
				return -1;
		}
		if ((m = json_pull_next(p, '}')) < 0)
			return pull_fail(r, p);
	}
	return 0;
}

static int tool_array(struct rp *r, struct json_pull *p, int keep_going,
		      uint64_t *elements, uint64_t *skipped)
{
	uint64_t off = json_pull_offset(p), more = 0;
	int e, c;

	if ((e = json_pull_begin(p, '[')) < 0)
		return pull_fail(r, p);
	if (e == 0) {
		tl_warn("%s: byte %" PRIu64 ": \"" TOOL_KEY "\" is empty", r->name, off);
		return -1;
	}
	if ((c = json_pull_peek(p)) < 0)
		return pull_fail(r, p);
	if (c != '{') {
		tl_warn("%s: byte %" PRIu64 ": \"" TOOL_KEY "\"[0] is not an object",
			r->name, json_pull_offset(p));
		return -1;
	}
	if (tool_object(r, p, keep_going, elements, skipped) < 0)
		return -1;
	while ((e = json_pull_next(p, ']')) > 0) {
		if (take(r, p) < 0)
			return -1;
		more++;
	}
	if (e < 0)
		return pull_fail(r, p);
	if (more)
		tl_warn("%s: %" PRIu64 " more \"" TOOL_KEY "\" record(s) not read "
			"(only the first is, as in TraceLens)", r->name, more);
	return 0;
}

static void rp_release(struct rp *r)
{
	json_release(&r->j);
	json_release(&r->ev);
	pystr_release(&r->out);
	free(r->pid);
	for (size_t a = 0; a < r->nagent; a++)
		free(r->agent[a].handle);
	free(r->agent);
	strpool_free(r->kid);
	for (size_t k = 0; k < r->nkname; k++)
		free(r->kname[k]);
	free(r->kname);
	free_kinds(r);
	free(r->kbuf);
}

int cat_rocprof(struct cat_event_out *w, struct json_pull *p, const char *name,
		unsigned src, int keep_going, uint64_t *elements, uint64_t *skipped)
{
	struct rp r;
	int m, rc = 0, seen = 0;

	memset(&r, 0, sizeof(r));
	r.w = w;
	r.name = name;
	r.src = src;
	json_init(&r.j);
	json_init(&r.ev);
	r.kid = strpool_new();
	if ((m = json_pull_begin(p, '{')) < 0)
		rc = pull_fail(&r, p);
	while (rc == 0 && m > 0) {
		if (json_pull_key(p) < 0) {
			rc = pull_fail(&r, p);
			break;
		}
		if (!seen && !strcmp(p->key, TOOL_KEY)) {
			seen = 1;
			rc = tool_array(&r, p, keep_going, elements, skipped);
		} else {
			char *key = xstrdup(p->key);
			rc = take(&r, p);
			if (rc == 0)
				cat_event_top(w, src, key, strlen(key), &r.j);
			free(key);
		}
		if (rc == 0 && (m = json_pull_next(p, '}')) < 0)
			rc = pull_fail(&r, p);
	}
	if (rc == 0 && json_pull_end(p) < 0)
		rc = pull_fail(&r, p);
	rp_release(&r);
	return rc;
}
