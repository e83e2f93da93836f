/*
 * jax_hlo: TraceLens's reading of an HLO module's text
 * (JaxProfileProcessor.process_line / get_dict / get_operands,
 * _resolve_operand_references, util.py), which the JAX report uses to give
 * each kernel its operands, custom-call target and source metadata.  The
 * text is XLA's (cat_hlo.h, from tl-cat).  Python's regular expressions are
 * followed exactly, quirks included:
 *
 *	lines kept: not empty, not "HloModule ...", not "ROOT ...", and either
 *	holding "metadata" without ending in ")" or one of get-tuple-element,
 *	bf16, f8, f16, f32, f64, s32, s64, u32, u64, pred
 *	after "),"→")", ", "→",", " %"→"%": key = first word, output = third,
 *	operands = the dtype[dims]{layout} strings inside the fourth word's
 *	first parentheses (else that text split at commas); metadata,
 *	backend_config and custom_call_target = the prefixes their character
 *	classes allow; a custom call whose target holds matmul or cublas is a
 *	"gemm" computation (type fp8 when the target holds f8, else the
 *	operands' type); replica_groups as its regex reads them.
 *	A later line with the same key replaces an earlier one.
 *
 *	struct jax_hlo *h = jax_hlo_parse(text);
 *	const struct jax_hlo_op *op = jax_hlo_lookup(h, "%fusion.1");
 *	jax_hlo_free(h);
 */
#ifndef TL_JAX_HLO_H
#define TL_JAX_HLO_H

#include <stddef.h>

struct jax_hlo_op {
	char *key;		/* "%name" */
	char *output;
	char **operands;
	size_t noperands;
	const char *computation;	/* "rest" or "gemm" (static) */
	char *metadata;		/* NULL: absent */
	char *backend_config;
	char *custom_call_target;
	char *type;		/* gemm only */
	char *replica_groups;
};

struct jax_hlo;

struct jax_hlo *jax_hlo_parse(const char *text);
void jax_hlo_free(struct jax_hlo *h);
const struct jax_hlo_op *jax_hlo_lookup(const struct jax_hlo *h, const char *key);
/*
 * resolve_hlo_op_key: "%op" itself, or the alias TraceLens gives numbered
 * runtime collectives (all-to-all.12 → the *-start op), else NULL.
 * hlo_op is the kernel's args.hlo_op without the "%".
 */
const struct jax_hlo_op *jax_hlo_resolve(const struct jax_hlo *h, const char *hlo_op);
/*
 * build_collective_hlo_aliases: the module's hlo_op names seen in the
 * trace ("%name", each once); numbered collectives not in the module get
 * aliases, in number order, to its sorted *-start (else *-done) ops.
 */
void jax_hlo_set_trace_ops(struct jax_hlo *h, char *const *ops, size_t nops);

#endif
