/*
 * annot: TraceLens's per-iteration annotation labels (IterationAnnotation,
 * TraceLens/TraceUtils/annotation_utils.py; spec perf_model §9), parsed into
 * the chunk statistics InferenceAttention models need: for the context
 * (prefill) and generation (decode) requests of one iteration, Σsq, Σsk,
 * Σsq² and Σsq·sk.
 *
 *	struct perf_annot_stats st;
 *	if (perf_annot_chunk_stats("execute_6147_context_2(sq6144sk...)...", &st))
 *		st.c_sq, st.g_sqsk, ...
 *	else	label without sq/sk (TraceLens raises: no perf estimate)
 *
 * Labels: vLLM "execute_<n>_context_<r>(sq..sk..sqsq..sqsk..)_generation_<r>(...)",
 * SGLang "step[EXTEND|DECODE|MIXED ... c_sq=.. g_sqsk=..]", ATOM
 * "prefill[tok=.. sk=.. sqsq=.. sqsk=..]" / "decode[...]".  Native labels
 * (no sq/sk), diffusion labels and anything else give 0.
 */
#ifndef TL_PERF_ANNOT_H
#define TL_PERF_ANNOT_H

struct perf_annot_stats {
	double c_sq, c_sk, c_sqsq, c_sqsk;
	double g_sq, g_sk, g_sqsq, g_sqsk;
};

/* 1 with *st filled, 0 (st zeroed) when the label has no sq/sk stats */
int perf_annot_chunk_stats(const char *label, struct perf_annot_stats *st);

#endif
