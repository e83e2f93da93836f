/*
 * dtype: element types as PyTorch profiler traces name them ("c10::BFloat16",
 * "float", "c10::Float8_e4m3fn", ...), from the table share/tl/dtypes.tsv.
 *
 *	double b = perf_dtype_bpe("c10::BFloat16");        2, TraceLens name2bpe
 *	const char *p = perf_dtype_precision("float");     "fp32", or NULL
 *
 * The table is read on first use (tl_share_path("dtypes.tsv")), or from an
 * explicit path with perf_dtype_init(); a missing or malformed table dies with
 * "FILE:LINE: what".  Names match case-insensitively, as in TraceLens.
 */
#ifndef TL_PERF_DTYPE_H
#define TL_PERF_DTYPE_H

/* Loads the table at path (NULL: share/tl/dtypes.tsv); once per process. */
void perf_dtype_init(const char *path);

/* TraceLens name2bpe(): bytes per element, or -1 where TraceLens returns
 * None (unknown name, bool, NULL, ...). */
double perf_dtype_bpe(const char *name);

/* Real storage bytes per element (0.5 for packed fp4), or -1 if unknown. */
double perf_dtype_bytes(const char *name);

/* TraceLens torch_dtype_map(): "fp32", "bf16", "fp8", ... or NULL. */
const char *perf_dtype_precision(const char *name);

#endif
