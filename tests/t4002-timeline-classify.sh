#!/bin/sh
# Classification (tracelens-core §3.1): communication by name, ROCm's
# legacy copy kernels as memcpy, memsets and fill kernels as computation.
# Each event gets a power-of-two length so each bucket's sum tells which
# events went into it.
. "$TL_SRC/tests/lib.sh"
. "$TL_SRC/tests/t4001-timeline-link.d/events.sh"

{
	ev_header
	ev 0 X kernel plain_kernel 0 7 0 1 - - - 7
	ev 1 X gpu_memset "Memset (Device)" 0 7 10 2 - - - 7
	ev 2 X kernel __amd_rocclr_fillBufferAligned.kd 0 7 20 4 - - - 7
	ev 3 X kernel "ncclDevKernel_Generic(x)" 0 7 30 8 - - - 7
	ev 4 X kernel rcclKernelFoo 0 7 40 16 - - - 7
	ev 5 X kernel vllm_Cross_Device_Reduce_2stage 0 7 60 32 - - - 7
	ev 6 X kernel MEMORY_COPY_HOST_TO_DEVICE 0 7 100 64 - - - 7
	ev 7 X gpu_memcpy "Memcpy HtoD (Pinned -> Device)" 0 7 200 128 - - - 7
	ev 8 X cpu_op aten::nccl_all_reduce 100 100 400 600 - - - -
	ev 9 X gpu_user_annotation step 0 7 0 1000 - - - 7
	ev 10 X cuda_runtime ncclLaunch 100 100 400 1 - - - -
} >events.tsv

# computation 1+2+4 = 7, communication 8+16+32 = 56, memcpy 64+128 = 192,
# busy 255, total 328 - 0, idle 73.
cat >expect.csv <<'EOT'
type,time ms,percent
computation_time,0.007,2.1341463414634148
exposed_comm_time,0.056,17.073170731707318
exposed_memcpy_time,0.192,58.536585365853654
busy_time,0.255,77.7439024390244
idle_time,0.073,22.25609756097561
total_time,0.328,100.0
total_comm_time,0.056,17.073170731707318
total_memcpy_time,0.192,58.536585365853654
EOT

test_expect_success 'buckets follow TraceLens classification' '
	tl-timeline --all-gpu --csv events.tsv >out.csv &&
	test_cmp expect.csv out.csv
'

# comp [0,100) overlaps comm [50,150) and memcpy [140,200): exposed comm is
# comm - comp = 50, exposed memcpy is memcpy - comp - comm = 50.
test_expect_success 'exposed times subtract computation, then communication' '
	{
		ev_header
		ev 0 X kernel gemm 0 7 0 100 - - - 7
		ev 1 X kernel ncclAllReduce 0 8 50 100 - - - 8
		ev 2 X gpu_memcpy "Memcpy DtoD" 0 9 140 60 - - - 9
	} >overlap.tsv &&
	tl-timeline --all-gpu --csv overlap.tsv >out.csv &&
	grep "^exposed_comm_time,0.05,25.0$" out.csv &&
	grep "^exposed_memcpy_time,0.05,25.0$" out.csv &&
	grep "^total_comm_time,0.1,50.0$" out.csv &&
	grep "^total_memcpy_time,0.06,30.0$" out.csv &&
	grep "^busy_time,0.2,100.0$" out.csv &&
	grep "^idle_time,0.0,0.0$" out.csv
'

# ts + dur is computed once in doubles: near 1.4e12 us the length of
# [ts, ts+dur) is 39.419921875 (quantised to 2^-12 us), not 39.42.
test_expect_success 'lengths are t_end - ts in doubles, never dur' '
	{
		ev_header
		ev 0 X kernel k 0 7 1419247333894.317 39.42 - - - 7
	} >big.tsv &&
	tl-timeline --all-gpu --csv big.tsv >out.csv &&
	grep "^computation_time,0.039419921875,100.0$" out.csv
'
test_done
