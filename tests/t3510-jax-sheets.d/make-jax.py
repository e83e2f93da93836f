#!/usr/bin/env python3
"""make-jax.py OUT -- a small JAX-like XSpace for tl-jax's tests: four GPU
planes (ids 0, 7, 8, 15: pids 1, 8, 9, 16, whose Python set order is not
numeric), "Stream #" threads with fusions, conv forward and backward
custom calls, an nccl kernel, a copy and a memset, kernels launched from a
py_xla_execute thread (correlation ids) and some not, a kernel whose hlo_op
is a module's ROOT, integer and fractional durations, two HLO modules (one
named by no kernel).  Plain protobuf wire format, written by hand."""
import struct
import sys


def varint(v):
    v &= (1 << 64) - 1
    out = b''
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def key(f, wt):
    return varint(f << 3 | wt)


def vi(f, v):
    return key(f, 0) + varint(v)


def ld(f, b):
    if isinstance(b, str):
        b = b.encode()
    return key(f, 2) + varint(len(b)) + b


def dbl(f, x):
    return key(f, 1) + struct.pack('<d', x)


def stat(mid, **kw):
    b = vi(1, mid)
    if 'd' in kw:
        b += dbl(2, kw['d'])
    if 'u' in kw:
        b += vi(3, kw['u'])
    if 'i' in kw:
        b += vi(4, kw['i'])
    if 's' in kw:
        b += ld(5, kw['s'])
    if 'b' in kw:
        b += ld(6, kw['b'])
    if 'r' in kw:
        b += vi(7, kw['r'])
    return b


def event(mid, off, dur, stats=()):
    return vi(1, mid) + vi(2, off) + vi(3, dur) + b''.join(ld(4, s) for s in stats)


def line(lid, name, ts_ns, events, display_id=None, display_name=None):
    b = vi(1, lid) + ld(2, name) + vi(3, ts_ns)
    if display_id is not None:
        b += vi(10, display_id)
    if display_name is not None:
        b += ld(11, display_name)
    return b + b''.join(ld(4, e) for e in events)


def evmeta(mid, name, display=None, stats=()):
    b = vi(1, mid) + ld(2, name)
    if display:
        b += ld(4, display)
    return ld(4, vi(1, mid) + ld(2, b + b''.join(ld(5, s) for s in stats)))


def stmeta(mid, name):
    return ld(5, vi(1, mid) + ld(2, vi(1, mid) + ld(2, name)))


def plane(pid, name, lines=(), evmetas=(), stmetas=(), stats=()):
    b = (vi(1, pid) if pid else b'') + ld(2, name)
    b += b''.join(ld(3, l) for l in lines) + b''.join(evmetas) + b''.join(stmetas)
    return b + b''.join(ld(6, s) for s in stats)


def flow(fid, direction, category=0):
    return direction | fid << 2 | category << 58


def shape(et, dims, m2m=None, tiles=None, tup=None):
    b = vi(2, et) + b''.join(vi(3, d) for d in dims)
    for t in tup or ():
        b += ld(4, t)
    if m2m is not None:
        lay = b''.join(vi(1, x) for x in m2m)
        for t in tiles or ():
            lay += ld(6, b''.join(vi(1, x) for x in t))
        b += ld(5, lay)
    return b


def instr(iid, name, op, shp, operands=(), meta=None, **kw):
    b = ld(1, name) + ld(2, op) + ld(3, shp) + vi(35, iid)
    if meta:
        m = b''
        for f, v in meta:
            m += ld(f, v) if isinstance(v, str) else vi(f, v)
        b += ld(7, m)
    if 'pnum' in kw:
        b += vi(9, kw['pnum'])
    if 'kind' in kw:
        b += ld(11, kw['kind'])
    if 'target' in kw:
        b += ld(28, kw['target'])
    if 'called' in kw:
        b += b''.join(vi(38, c) for c in kw['called'])
    if 'config' in kw:
        b += ld(43, kw['config'])
    if 'index' in kw:
        b += vi(13, kw['index'])
    return b + b''.join(vi(36, o) for o in operands)



BF16, F32, U8 = 16, 11, 6


def bf(dims):
    return shape(BF16, dims, list(range(len(dims) - 1, -1, -1)))


def conv_module():
    x, w, o = [2, 8, 16, 16], [32, 8, 3, 3], [2, 32, 14, 14]
    tup = shape(13, [], tup=[bf(o), shape(U8, [4096], [0])])
    meta = [(2, "jit(step)/conv_general_dilated"), (3, "/src/model.py"), (4, 41)]
    fused = (ld(1, 'fused_add') + vi(5, 2) + vi(6, 12) + vi(7, 1) +
             ld(2, instr(10, 'param_0', 'parameter', bf(o), pnum=0)) +
             ld(2, instr(11, 'param_1', 'parameter', bf(o), pnum=1)) +
             ld(2, instr(12, 'add.3', 'add', bf(o), (10, 11))))
    entry = (ld(1, 'main.7') + vi(5, 1) + vi(6, 29) +
             ld(2, instr(20, 'x.1', 'parameter', bf(x), pnum=0, meta=[(2, 'x')])) +
             ld(2, instr(21, 'w.1', 'parameter', bf(w), pnum=1, meta=[(2, 'w')])) +
             ld(2, instr(22, 'cudnn-conv.4', 'custom-call', tup, (20, 21),
                         target='__cudnn$convForward', meta=meta,
                         config='{"cudnn_conv_backend_config":{"activation_mode":"kNone"}}')) +
             ld(2, instr(23, 'get-tuple-element.5', 'get-tuple-element', bf(o), (22,), index=0)) +
             ld(2, instr(24, 'cudnn-conv-bw-filter.6', 'custom-call',
                         shape(13, [], tup=[bf(w), shape(U8, [512], [0])]), (20, 23),
                         target='__cudnn$convBackwardFilter',
                         meta=[(2, "jit(step)/transpose(conv)")])) +
             ld(2, instr(25, 'loop_add_fusion', 'fusion', bf(o), (23, 23), kind='kLoop',
                         called=[2], meta=[(2, "jit(step)/add"), (3, "/src/model.py"),
                                           (4, 44)])) +
             ld(2, instr(26, 'all-reduce.9', 'all-reduce', bf(o), (25,),
                         meta=[(2, "jit(step)/psum")])) +
             ld(2, instr(27, 'copy.2', 'copy', bf(o), (26,))) +
             ld(2, instr(28, 's.11', 'constant', shape(F32, []))) +
             ld(2, instr(29, 'root_fusion', 'fusion', bf(o), (27,), kind='kLoop', called=[2],
                         meta=[(2, "jit(step)/final")])))
    return ld(1, ld(1, 'jit_step') + ld(2, 'main.7') + ld(3, fused) + ld(3, entry))


def other_module():
    entry = (ld(1, 'main.1') + vi(5, 1) + vi(6, 2) +
             ld(2, instr(1, 'p', 'parameter', shape(F32, [4], [0]), pnum=0)) +
             ld(2, instr(2, 'neg.1', 'negate', shape(F32, [4], [0]), (1,))))
    return ld(1, ld(1, 'jit_other') + ld(2, 'main.1') + ld(3, entry))


def main():
    sm = [stmeta(1, 'correlation_id'), stmeta(2, 'hlo_op'), stmeta(3, 'hlo_module'),
          stmeta(4, 'program_id'), stmeta(5, 'tf_op')]
    em = [evmeta(1, 'Im2Col', stats=[stat(3, s='jit_step')]),
          evmeta(2, 'Cijk_Ailk_Bljk_HHS_BH_MT64x64x16'), evmeta(3, 'loop_add_fusion'),
          evmeta(4, 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL'), evmeta(5, 'CopyDeviceToDevice'),
          evmeta(6, 'Memset (Device)'), evmeta(7, 'root_fusion'), evmeta(8, 'wgrad_kernel')]

    def k(mid, off, dur, corr, op=None, module='jit_step'):
        st = [stat(1, u=corr)]
        if op:
            st += [stat(2, s=op), stat(3, s=module), stat(4, i=7)]
        return event(mid, off, dur, st)

    gpus = []
    for n, (pid, base) in enumerate(((0, 0), (7, 100), (8, 200), (15, 300))):
        c = base
        ev = [k(1, 1000, 12000, c + 1, 'cudnn-conv.4'),
              k(2, 14000, 250500, c + 2, 'cudnn-conv.4'),
              k(3, 270000, 5000 + 1000 * n, c + 3, 'loop_add_fusion'),
              k(1, 280000, 12500, c + 4, 'cudnn-conv.4'),
              k(2, 300000, 251000, c + 5, 'cudnn-conv.4'),
              k(8, 560000, 40000, c + 6, 'cudnn-conv-bw-filter.6'),
              k(7, 610000, 3000, c + 7, 'root_fusion'),
              k(3, 615000, 4500, c + 99, 'loop_add_fusion')]
        comm = [k(4, 320000, 90000, c + 8, 'all-reduce.9')]
        mem = [k(5, 700000, 8000, c + 9), k(6, 710000, 2000, c + 10)]
        lines = [line(3, 'Stream #3(Kernel)', 1000000, ev),
                 line(5, 'Stream #5(Communication)', 1000000, comm),
                 line(9, 'Stream #9(MemcpyD2D)', 1000000, mem)]
        gpus.append(plane(pid, '/device:GPU:%d' % pid, lines, em, sm))
    hsm = [stmeta(1, 'correlation_id')]
    hem = [evmeta(1, 'hipModuleLaunchKernel'), evmeta(2, 'hipMemcpyDtoDAsync'),
           evmeta(3, 'PjitFunction(step)')]
    launch = []
    for base in (0, 100, 200, 300):
        for i, off in enumerate((900, 13000, 269000, 279000, 299000, 559000, 609000)):
            launch.append(event(1, off - 40 + base, 30, [stat(1, u=base + i + 1)]))
        launch.append(event(1, 319000 + base, 30, [stat(1, u=base + 8)]))
        launch.append(event(2, 699000 + base, 25, [stat(1, u=base + 9)]))
    launch.sort(key=lambda e: 0)
    host = plane(0, '/host:CPU', [line(11, 'py_xla_execute/11', 1000000, launch),
                                  line(12, 'python', 1000000, [event(3, 500, 900000)])],
                 hem, hsm)
    meta = plane(0, '/host:metadata', [], [evmeta(1, 'jit_step(7)', stats=[stat(1, b=conv_module())]),
                                           evmeta(2, 'jit_other(3)', stats=[stat(1, b=other_module())])],
                 [stmeta(1, 'Hlo Proto')])
    space = b''.join(ld(1, p) for p in [meta] + gpus + [host]) + ld(4, 'jax-host')
    open(sys.argv[1], 'wb').write(space)


main()
