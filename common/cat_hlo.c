#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo.pb-c.h"
#include "cat_hlo.h"
#include "py_repr.h"
#include "xalloc.h"
#include "sort.h"
#include "banned.h"

/* xla::PrimitiveType → primitive_util::LowercasePrimitiveTypeName */
static const char *type_name(int t)
{
	static const char *const names[] = {
		[1] = "pred", [2] = "s8", [3] = "s16", [4] = "s32", [5] = "s64",
		[6] = "u8", [7] = "u16", [8] = "u32", [9] = "u64", [10] = "f16",
		[11] = "f32", [12] = "f64", [13] = "tuple", [14] = "opaque",
		[15] = "c64", [16] = "bf16", [17] = "token", [18] = "c128",
		[19] = "f8e5m2", [20] = "f8e4m3fn", [21] = "s4", [22] = "u4",
		[23] = "f8e4m3b11fnuz", [24] = "f8e5m2fnuz", [25] = "f8e4m3fnuz",
		[26] = "s2", [27] = "u2", [28] = "f8e4m3", [29] = "f8e3m4",
		[30] = "s1", [31] = "u1", [32] = "f4e2m1fn", [33] = "f8e8m0fnu",
		[34] = "buffer",
	};
	if (t > 0 && (size_t)t < sizeof(names) / sizeof(names[0]) && names[t])
		return names[t];
	return "invalid";
}

static void add_i64(struct pystr *o, int64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%" PRId64, v);
	pystr_adds(o, b);
}

static void add_list(struct pystr *o, const int64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			pystr_addc(o, ',');
		add_i64(o, v[i]);
	}
}

/* Layout::Print: {minor_to_major[:T(tile)...L(n)E(n)S(n)]} */
static void add_layout(struct pystr *o, const Xla__LayoutProto *l)
{
	int colon = 0;

	pystr_addc(o, '{');
	add_list(o, l->minor_to_major, l->n_minor_to_major);
	if (l->n_tiles) {
		pystr_adds(o, colon++ ? "" : ":");
		pystr_addc(o, 'T');
		for (size_t t = 0; t < l->n_tiles; t++) {
			pystr_addc(o, '(');
			add_list(o, l->tiles[t]->dimensions, l->tiles[t]->n_dimensions);
			pystr_addc(o, ')');
		}
	}
	if (l->tail_padding_alignment_in_elements > 1) {
		pystr_adds(o, colon++ ? "L(" : ":L(");
		add_i64(o, l->tail_padding_alignment_in_elements);
		pystr_addc(o, ')');
	}
	if (l->element_size_in_bits) {
		pystr_adds(o, colon++ ? "E(" : ":E(");
		add_i64(o, l->element_size_in_bits);
		pystr_addc(o, ')');
	}
	if (l->memory_space) {
		pystr_adds(o, colon++ ? "S(" : ":S(");
		add_i64(o, l->memory_space);
		pystr_addc(o, ')');
	}
	pystr_addc(o, '}');
}

/* ShapeUtil::HumanString[WithLayout] */
static void add_shape(struct pystr *o, const Xla__ShapeProto *s, int layout, int depth)
{
	if (!s) {
		pystr_adds(o, "invalid[]");
		return;
	}
	if (s->element_type == 13) {
		pystr_addc(o, '(');
		for (size_t i = 0; i < s->n_tuple_shapes; i++) {
			if (i)
				pystr_adds(o, ", ");
			if (depth < 64)
				add_shape(o, s->tuple_shapes[i], layout, depth + 1);
		}
		pystr_addc(o, ')');
		return;
	}
	pystr_adds(o, type_name(s->element_type));
	pystr_addc(o, '[');
	for (size_t i = 0; i < s->n_dimensions; i++) {
		if (i)
			pystr_addc(o, ',');
		if (i < s->n_is_dynamic_dimension && s->is_dynamic_dimension[i])
			pystr_adds(o, "<=");
		add_i64(o, s->dimensions[i]);
	}
	pystr_addc(o, ']');
	if (layout && s->layout && s->n_dimensions && s->element_type != 14 &&
	    s->element_type != 17)
		add_layout(o, s->layout);
}

/* absl::CEscape: \n \r \t \" \' \\ and octal for other bytes outside 0x20..0x7e */
static void add_cescape(struct pystr *o, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		char b[8];
		switch (*p) {
		case '\n': pystr_adds(o, "\\n"); break;
		case '\r': pystr_adds(o, "\\r"); break;
		case '\t': pystr_adds(o, "\\t"); break;
		case '"': pystr_adds(o, "\\\""); break;
		case '\'': pystr_adds(o, "\\'"); break;
		case '\\': pystr_adds(o, "\\\\"); break;
		default:
			if (*p < 0x20 || *p >= 0x7f) {
				snprintf(b, sizeof(b), "\\%03o", *p);
				pystr_adds(o, b);
			} else {
				pystr_addc(o, (char)*p);
			}
		}
	}
}

/* OpMetadataToString: the fields XLA prints, space-separated */
static int add_metadata(struct pystr *o, const Xla__OpMetadata *m)
{
	static const char *const keys[] = { "op_type", "op_name", "source_file" };
	const char *vals[3];
	int n = 0;

	if (!m)
		return 0;
	vals[0] = m->op_type;
	vals[1] = m->op_name;
	vals[2] = m->source_file;
	for (int i = 0; i < 3; i++) {
		if (!vals[i] || !*vals[i])
			continue;
		pystr_adds(o, n++ ? " " : ", metadata={");
		pystr_adds(o, keys[i]);
		pystr_adds(o, "=\"");
		add_cescape(o, vals[i]);
		pystr_addc(o, '"');
	}
	if (m->source_line) {
		pystr_adds(o, n++ ? " " : ", metadata={");
		pystr_adds(o, "source_line=");
		add_i64(o, m->source_line);
	}
	if (n)
		pystr_addc(o, '}');
	return n;
}

/* The instruction with this id, by binary search over the sorted index. */
struct idx {
	int64_t id;
	const void *p;
};

static int cmp_idx(const void *a, const void *b)
{
	const struct idx *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

static const void *find(const struct idx *v, size_t n, int64_t id)
{
	struct idx key = { id, NULL };
	const struct idx *r = bsearch(&key, v, n, sizeof(*v), cmp_idx);
	return r ? r->p : NULL;
}

struct module {
	const Xla__HloModuleProto *m;
	struct idx *ins, *comp;
	size_t nins, ncomp;
};

static void add_called(struct pystr *o, const struct module *md, const char *key,
		       const Xla__HloInstructionProto *in)
{
	if (!in->n_called_computation_ids)
		return;
	pystr_adds(o, ", ");
	pystr_adds(o, key);
	pystr_addc(o, '=');
	if (in->n_called_computation_ids > 1)
		pystr_addc(o, '{');
	for (size_t i = 0; i < in->n_called_computation_ids; i++) {
		const Xla__HloComputationProto *c = find(md->comp, md->ncomp,
							 in->called_computation_ids[i]);
		if (i)
			pystr_adds(o, ", ");
		pystr_addc(o, '%');
		pystr_adds(o, c ? c->name : "unknown");
	}
	if (in->n_called_computation_ids > 1)
		pystr_addc(o, '}');
}

static void add_instruction(struct pystr *o, const struct module *md,
			    const Xla__HloInstructionProto *in, int root)
{
	const char *op = in->opcode ? in->opcode : "";

	pystr_adds(o, root ? "  ROOT %" : "  %");
	pystr_adds(o, in->name);
	pystr_adds(o, " = ");
	add_shape(o, in->shape, 1, 0);
	pystr_addc(o, ' ');
	pystr_adds(o, op);
	pystr_addc(o, '(');
	if (!strcmp(op, "parameter")) {
		add_i64(o, in->parameter_number);
	} else {
		for (size_t i = 0; i < in->n_operand_ids; i++) {
			const Xla__HloInstructionProto *x = find(md->ins, md->nins,
								 in->operand_ids[i]);
			if (i)
				pystr_adds(o, ", ");
			if (x) {
				add_shape(o, x->shape, 1, 0);
				pystr_adds(o, " %");
				pystr_adds(o, x->name);
			}
		}
	}
	pystr_addc(o, ')');
	if (!strcmp(op, "get-tuple-element")) {
		pystr_adds(o, ", index=");
		add_i64(o, in->tuple_index);
	}
	if (in->n_dimensions) {
		pystr_adds(o, ", dimensions={");
		add_list(o, in->dimensions, in->n_dimensions);
		pystr_addc(o, '}');
	}
	if (!strcmp(op, "fusion")) {
		pystr_adds(o, ", kind=");
		pystr_adds(o, in->fusion_kind);
		add_called(o, md, "calls", in);
	} else {
		add_called(o, md, "to_apply", in);
	}
	if (in->custom_call_target && *in->custom_call_target) {
		pystr_adds(o, ", custom_call_target=\"");
		add_cescape(o, in->custom_call_target);
		pystr_addc(o, '"');
	}
	add_metadata(o, in->metadata);
	if (in->backend_config.len) {
		pystr_adds(o, ", backend_config=");
		/* the raw config (JSON); NUL bytes would end the line's text */
		for (size_t i = 0; i < in->backend_config.len; i++)
			if (in->backend_config.data[i])
				pystr_addc(o, (char)in->backend_config.data[i]);
	}
	pystr_addc(o, '\n');
}

static const Xla__HloInstructionProto *param(const Xla__HloComputationProto *c, int64_t k)
{
	for (size_t i = 0; i < c->n_instructions; i++)
		if (c->instructions[i]->opcode && !strcmp(c->instructions[i]->opcode, "parameter") &&
		    c->instructions[i]->parameter_number == k)
			return c->instructions[i];
	return NULL;
}

/* %name (p: shape, ...) -> shape { ; ENTRY first for the entry */
static void add_header(struct pystr *o, const struct module *md,
		       const Xla__HloComputationProto *c, int entry)
{
	const Xla__HloInstructionProto *root = find(md->ins, md->nins, c->root_id);
	const Xla__HloInstructionProto *p;
	int64_t k = 0;

	pystr_adds(o, entry ? "ENTRY %" : "%");
	pystr_adds(o, c->name);
	pystr_adds(o, " (");
	for (; (p = param(c, k)); k++) {
		if (k)
			pystr_adds(o, ", ");
		pystr_adds(o, p->name);
		pystr_adds(o, ": ");
		add_shape(o, p->shape, 0, 0);
	}
	pystr_adds(o, ") -> ");
	add_shape(o, root ? root->shape : NULL, 0, 0);
	pystr_adds(o, " {\n");
}

static void index_module(struct module *md)
{
	const Xla__HloModuleProto *m = md->m;
	size_t n = 0;

	for (size_t c = 0; c < m->n_computations; c++)
		n += m->computations[c]->n_instructions;
	md->ins = xmalloc(st_mult(n + 1, sizeof(*md->ins)));
	md->comp = xmalloc(st_mult(m->n_computations + 1, sizeof(*md->comp)));
	for (size_t c = 0; c < m->n_computations; c++) {
		const Xla__HloComputationProto *cp = m->computations[c];
		md->comp[md->ncomp].id = cp->id;
		md->comp[md->ncomp++].p = cp;
		for (size_t i = 0; i < cp->n_instructions; i++) {
			md->ins[md->nins].id = cp->instructions[i]->id;
			md->ins[md->nins++].p = cp->instructions[i];
		}
	}
	tl_qsort(md->ins, md->nins, sizeof(*md->ins), cmp_idx);
	tl_qsort(md->comp, md->ncomp, sizeof(*md->comp), cmp_idx);
}

char *cat_hlo_text(const uint8_t *proto, size_t n, const char **err)
{
	Xla__HloProto *h = xla__hlo_proto__unpack(NULL, n, proto);
	struct module md = { 0 };
	struct pystr o = { 0 };

	if (!h) {
		*err = "not a valid HloProto";
		return NULL;
	}
	if (!h->hlo_module) {
		xla__hlo_proto__free_unpacked(h, NULL);
		*err = "HloProto without a module";
		return NULL;
	}
	md.m = h->hlo_module;
	index_module(&md);
	pystr_adds(&o, "HloModule ");
	pystr_adds(&o, md.m->name);
	pystr_adds(&o, "\n");
	for (size_t c = 0; c < md.m->n_computations; c++) {
		const Xla__HloComputationProto *cp = md.m->computations[c];
		int entry = md.m->entry_computation_id ? cp->id == md.m->entry_computation_id
			: !strcmp(cp->name, md.m->entry_computation_name);
		pystr_addc(&o, '\n');
		add_header(&o, &md, cp, entry);
		for (size_t i = 0; i < cp->n_instructions; i++)
			add_instruction(&o, &md, cp->instructions[i],
					cp->instructions[i]->id == cp->root_id);
		pystr_adds(&o, "}\n");
	}
	free(md.ins);
	free(md.comp);
	xla__hlo_proto__free_unpacked(h, NULL);
	return o.buf;
}

char *cat_hlo_module_name(const uint8_t *proto, size_t n)
{
	Xla__HloProto *h = xla__hlo_proto__unpack(NULL, n, proto);
	char *name = NULL;

	if (h && h->hlo_module && h->hlo_module->name)
		name = xstrdup(h->hlo_module->name);
	if (h)
		xla__hlo_proto__free_unpacked(h, NULL);
	return name;
}
