#!/bin/sh
# The "Adding an op" rows of tl-ops(5) work as written: appended to a copy
# of ops.tsv, they model their ops (hand-computed expectations below).
. "$TL_SRC/tests/lib.sh"

T='	'
test_expect_success 'the man page example rows load and compute' '
	cp "$TL_SRC/share/tl/ops.tsv" ops.tsv &&
	sed -n "/^\.Bd -literal/,/^\.Ed/p" "$TL_SRC/man/tl-ops.5" | grep "^mylib::" >rows &&
	test $(wc -l <rows) = 3 &&
	cat rows >>ops.tsv &&
	{
		printf "mylib::gelu_mul$T[[4,8],[4,8]]$T[\"c10::BFloat16\",\"c10::BFloat16\"]$T[[8,1],[8,1]]$T[\"\",\"\"]${T}0$T\n"
		printf "mylib::linear$T[[2,3],[5,3],[5]]$T[\"float\",\"float\",\"float\"]$T[[3,1],[3,1],[1]]$T[\"\",\"\",\"\"]${T}0$T\n"
		printf "mylib::rope$T[[10]]$T[\"c10::Half\"]$T$T[\"\"]${T}0$T\n"
	} >in.tsv &&
	"$TL_UNIT/pm-eval" ops.tsv <in.tsv >out.tsv &&
	cut -f1-4 out.tsv >got &&
	# gelu_mul: 8·32 FLOPs, 2·32·2 + 32·2 bytes; linear: 2·2·5·3 + 2·5,
	# (6 + 15 + 10 + 5)·4; rope: 3·10, 2·10·2
	printf "ok${T}256.0${T}192.0${T}vector_bf16\nok${T}70.0${T}144.0${T}matrix_fp32\nok${T}30.0${T}40.0${T}vector_fp16\n" >want &&
	test_cmp want got
'
test_expect_code 1 'a malformed row is reported with its line' '
	printf "mylib::bad\tgemm\tGEMM\n" >bad.tsv &&
	"$TL_UNIT/pm-eval" bad.tsv </dev/null 2>err; rc=$?
	grep -q "bad.tsv:1: 3 fields" err && exit $rc
'
test_done
