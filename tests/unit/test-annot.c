/*
 * Unit tests for common/annot: the iteration-annotation label formats of
 * spec perf_model §9 (vLLM, SGLang, ATOM; detailed and native), with the
 * statistics read off the labels by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_annot.h"
#include "tap.h"

static void stats(const char *label, const double want[8], const char *what)
{
	struct perf_annot_stats st;
	int got = perf_annot_chunk_stats(label, &st);
	double v[8] = { st.c_sq, st.c_sk, st.c_sqsq, st.c_sqsk,
			st.g_sq, st.g_sk, st.g_sqsq, st.g_sqsk };
	int same = got == 1;

	for (int i = 0; i < 8; i++)
		same = same && v[i] == want[i];
	tap_ok(same, what);
	if (!same)
		printf("#   got %d: %g %g %g %g | %g %g %g %g\n", got, v[0], v[1], v[2], v[3],
		       v[4], v[5], v[6], v[7]);
}

static void none(const char *label, const char *what)
{
	struct perf_annot_stats st;
	int got = perf_annot_chunk_stats(label, &st);

	tap_ok(got == 0 && st.c_sq == 0 && st.g_sq == 0, what);
}

/* every prefix of a label, in a buffer of exactly its size (ASan catches
 * a read past the end): only the whole label has stats */
static void prefixes(const char *label)
{
	size_t n = strlen(label);
	int bad = 0;
	char w[200];

	for (size_t i = 0; i <= n; i++) {
		char *p = malloc(i + 1);
		struct perf_annot_stats st;
		memcpy(p, label, i);
		p[i] = '\0';
		int got = perf_annot_chunk_stats(p, &st);
		bad += got != (i == n);	/* the labels' last character is needed */
		free(p);
	}
	snprintf(w, sizeof(w), "only the whole of '%.40s...' parses", label);
	tap_ok(!bad, w);
}

int main(void)
{
	(void)tap_str;	/* shared helper this test does not need */
	/* spec §9's examples */
	stats("execute_6147_context_2(sq6144sk7144sqsq20971520sqsk23019520)"
	      "_generation_3(sq3sk6144sqsq3sqsk6144)",
	      (double[]){ 6144, 7144, 20971520, 23019520, 3, 6144, 3, 6144 }, "vllm detailed");
	stats("execute_1_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk55086sqsq32sqsk55086)_tail",
	      (double[]){ 0, 0, 0, 0, 32, 55086, 32, 55086 }, "vllm detailed, decode, text after");
	none("execute_context_2(6144)_generation_3(3)", "vllm native: no stats");
	none("execute_6147_context_2(sq6144sk7144sqsq1)_generation_3(sq3sk1sqsq3sqsk1)",
	     "vllm detailed with a missing field: no stats");
	stats("step[MIXED bs=4 c_sq=100 c_sk=300 c_sqsq=5000 c_sqsk=9000 g_sq=3 g_sk=600 "
	      "g_sqsq=3 g_sqsk=600]",
	      (double[]){ 100, 300, 5000, 9000, 3, 600, 3, 600 }, "sglang detailed, mixed");
	stats("step[DECODE bs=2 g_sq=2 g_sk=40 g_sqsq=2 g_sqsk=40]",
	      (double[]){ 0, 0, 0, 0, 2, 40, 2, 40 }, "sglang detailed, missing c_* are 0");
	none("step[EXTEND bs=4 toks=100]", "sglang native: no stats");
	none("step[EXTENDED c_sqsq=1]", "sglang: \\b after the mode");
	none("step[DECODE bs=2] g_sqsq=2]", "sglang: sqsq= after the first ] does not count");
	stats("decode[bs=32 tok=128 d=32 spec=3 sqsq=512 sqsk=262144 sk=65536]",
	      (double[]){ 0, 0, 0, 0, 128, 65536, 512, 262144 }, "atom decode");
	stats("prefill[bs=2 tok=10 lens=[4, 6]...+2 sqsq=52 sqsk=60 sk=12]",
	      (double[]){ 10, 12, 52, 60, 0, 0, 0, 0 }, "atom prefill with a list value");
	none("decode[bs=32 tok=128 sqsq=512 sk=65536]", "atom without sqsk: no stats");
	none("prefill[bs=1 tok=8]", "atom native: no stats");
	none("execute_diffusion_3_512x512", "diffusion: no stats");
	none("NA", "no annotation");
	none("None", "annotation absent (str(None))");
	none(NULL, "NULL label");
	prefixes("execute_6147_context_2(sq6144sk7144sqsq20971520sqsk23019520)"
		 "_generation_3(sq3sk6144sqsq3sqsk6144)");
	prefixes("step[MIXED bs=4 c_sq=100 c_sk=300 c_sqsq=5000 c_sqsk=9000 g_sq=3]");
	prefixes("decode[bs=32 tok=128 lens=[1, 2]...+3 sqsq=512 sqsk=262144 sk=65536]");
	return tap_done();
}
