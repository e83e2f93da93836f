/*
 * cat_hlo: the text of an HLO module, as XLA prints it (HloModule::ToString
 * with metadata: what xprof's graph viewer returns as "long_txt", which
 * TraceLens parses for each kernel's operands, custom-call target and
 * source metadata), from the HloProto the profiler stores in an XSpace.
 *
 *	char *text = cat_hlo_text(bytes, n, &err);   NULL: err says why
 *	free(text);
 *
 * What is printed, per computation (callees first, as stored):
 *	%name (param: shape, ...) -> shape {          ENTRY before the entry's
 *	  [ROOT ]%inst = SHAPE opcode(SHAPE %operand, ...)[, attributes]
 *	}
 * SHAPE is XLA's human string with layout (bf16[1,16,32]{2,1,0}, tuples
 * in parentheses, scalars without a layout).  Attributes: parameter and
 * tuple indices, fusion kind and called computations, custom_call_target,
 * dimensions, metadata={op_type op_name source_file source_line} (XLA's
 * CEscape'd strings) and backend_config.  Constants print their shape
 * only: literals are not read.
 */
#ifndef TL_CAT_HLO_H
#define TL_CAT_HLO_H

#include <stddef.h>
#include <stdint.h>

char *cat_hlo_text(const uint8_t *proto, size_t n, const char **err);
/* The module's name, or NULL; malloc'd. */
char *cat_hlo_module_name(const uint8_t *proto, size_t n);

#endif
