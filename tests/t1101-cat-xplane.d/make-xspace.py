#!/usr/bin/env python3
"""make-xspace.py OUT -- writes synthetic.xplane.pb, a small XSpace that
reaches the rules tl-cat(1) follows for XPlane files: two host planes
(sorted by name), two GPU planes and a custom plane, display names and
ids, negative and 64-bit line ids, a counters line, flows (complete and
async), group_id, step_name, hidden stats and events, stats of every value
type (64-bit integers beyond 2^53, NaN, refs), duplicate metadata ids, and
an HLO module with a tuple-shaped custom call, a fusion, tiles and escapes.
Plain protobuf wire format, written by hand (no protobuf module)."""
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


def hlo_module():
    bf = lambda dims, m2m: shape(16, dims, m2m)
    fused = (ld(1, 'fused_add') + vi(5, 7) + vi(6, 12) + vi(7, 1) +
             ld(2, instr(10, 'param_0', 'parameter', bf([4, 8], [1, 0]), pnum=0)) +
             ld(2, instr(11, 'param_1', 'parameter', bf([4, 8], [1, 0]), pnum=1)) +
             ld(2, instr(12, 'add.1', 'add', bf([4, 8], [1, 0]), (10, 11))))
    tup = shape(13, [], tup=[bf([4, 16], [1, 0]), shape(6, [1024], [0])])
    entry = (ld(1, 'main.9') + vi(5, 8) + vi(6, 26) +
             ld(2, instr(20, 'p.0', 'parameter', bf([4, 8], [1, 0]), pnum=0,
                         meta=[(2, 'x')])) +
             ld(2, instr(21, 'p.1', 'parameter', shape(11, [8, 16], [0, 1], tiles=[[8, 128], [2, 1]]),
                         pnum=1)) +
             ld(2, instr(22, 'add_fusion', 'fusion', bf([4, 8], [1, 0]), (20, 20), kind='kLoop',
                         called=[7], meta=[(2, 'jit(f)/add'), (3, '/src/f.py'), (4, 12),
                                           (15, 3)])) +
             ld(2, instr(23, 'custom-call.2', 'custom-call', tup, (22, 21),
                         target='__cublas$gemm',
                         meta=[(1, 'dot'), (2, 'jit(f)/dot "q"\tx\u00e9'), (3, '/src/f.py'),
                               (4, 20)],
                         config='{"gemm_backend_config":{"beta":0,"epilogue":"DEFAULT"}}')) +
             ld(2, instr(24, 'get-tuple-element.3', 'get-tuple-element', bf([4, 16], [1, 0]), (23,),
                         index=0)) +
             ld(2, instr(25, 's.4', 'constant', shape(11, []))) +
             ld(2, instr(26, 'tuple.5', 'tuple', shape(13, [], tup=[bf([4, 16], [1, 0])]), (24,))))
    mod = ld(1, 'jit_f') + ld(2, 'main.9') + ld(3, fused) + ld(3, entry)
    return ld(1, mod)


def main():
    gpu_sm = [stmeta(1, 'correlation_id'), stmeta(2, 'hlo_op'), stmeta(3, 'hlo_module'),
              stmeta(4, 'kernel_details'), stmeta(5, 'flow'), stmeta(6, 'group_id'),
              stmeta(7, 'occupancy'), stmeta(8, 'big'), stmeta(9, 'neg'), stmeta(10, 'ref'),
              stmeta(11, 'add_fusion'), stmeta(12, 'nan'), stmeta(13, 'blob'), stmeta(4, 'program_id')]
    gpu_em = [evmeta(1, 'fusion_kernel_long_mangled_name', display='fusion_kernel',
                     stats=[stat(3, s='jit_f')]),
              evmeta(2, 'Cijk_gemm_kernel'), evmeta(3, 'CopyDeviceToDevice')]
    k1 = [event(1, 1000, 5000, [stat(1, u=11), stat(2, r=11), stat(4, s='hidden'),
                                stat(5, u=flow(77, 1, 9)), stat(6, i=3)]),
          event(2, 7000, 9000, [stat(1, u=12), stat(2, s='custom-call.2'), stat(3, s='jit_f'),
                                stat(7, d=0.125), stat(8, u=(1 << 60) + 1), stat(9, i=-(1 << 62)),
                                stat(12, d=float('nan')), stat(13, b=b'\x00\x01')]),
          event(2, 7000, 12000, [stat(1, u=13)]),
          event(1, 500, 0, [stat(1, u=10)])]
    k2 = [event(3, 2000, 1500, [stat(1, u=21)])]
    counters = [event(1, 100, 0, [stat(7, d=1.5)]), event(1, 50, 0, [stat(7, d=2.5)])]
    gpu0 = plane(0, '/device:GPU:0', [line(5, 'Stream #5(Kernel)', 1000, k1),
                                      line(2, 'Stream #2(MemcpyD2D)', 1000, k2),
                                      line(9, '_counters_', 1000, counters),
                                      line(11, 'counters_hidden', 1000, k2),
                                      line(12, 'empty line', 1000, [])],
                 gpu_em, gpu_sm, [stat(7, d=3.0)])
    gpu1 = plane(3, '/device:GPU:3', [line(1, 'Stream #1(Kernel)', 2000,
                                            [event(2, 10, 20, [stat(1, u=31)])])], gpu_em, gpu_sm)
    host_sm = [stmeta(1, 'correlation_id'), stmeta(2, 'step_name'), stmeta(3, '_a'),
               stmeta(4, 'flow'), stmeta(5, 'group_id'), stmeta(6, '_pt'), stmeta(7, 'Step 7'),
               stmeta(8, 'tf_op')]
    host_em = [evmeta(1, 'hipLaunchKernel'), evmeta(2, 'MemoryAllocation'),
               evmeta(3, 'StepMarker'), evmeta(4, 'AsyncOp'), evmeta(5, 'fusion_kernel'),
               evmeta(6, 'PjitFunction(f)', stats=[stat(8, s='jit(f)')])]
    host = plane(0, '/host:CPU', [
        line((1 << 63) - 5 - (1 << 64) + (1 << 64), 'python', 500,
             [event(6, 100, 9000, [stat(5, i=3)]), event(3, 200, 100, [stat(2, r=7), stat(6, u=1)]),
              event(2, 300, 10, [stat(1, u=99)])], display_name='python'),
        line(-42, 'py_xla_execute/-42', 500,
             [event(5, 400, 300, [stat(1, u=11), stat(4, u=flow(77, 2, 9))]),
              event(5, 800, 300, [stat(1, u=12)]), event(5, 900, 50, [stat(1, u=13)]),
              event(4, 1000, 400, [stat(3, u=1), stat(4, u=flow(5, 3, 5))]),
              event(4, 1200, 100, [stat(3, u=1), stat(4, u=flow(6, 2, 0))])],
             display_id=7)])
    host2 = plane(0, '/host:CPU:1', [line(3, 'other', 0, [event(1, 1, 1, [stat(1, u=31)])])],
                  host_em, host_sm)
    host = plane(0, '/host:CPU', [], host_em, host_sm) if False else host + b''.join(host_em) + b''.join(host_sm)
    custom = plane(2, '/device:CUSTOM:test', [line(1, 'custom line', 0, [event(1, 5, 5)])],
                   [evmeta(1, 'custom event')])
    meta = plane(0, '/host:metadata', [], [evmeta(1, 'jit_f(1)', stats=[stat(1, b=hlo_module())]),
                                           evmeta(2, 'broken(2)', stats=[stat(1, b=b'\x0a\xff')])],
                 [stmeta(1, 'Hlo Proto')])
    space = b''.join(ld(1, p) for p in (meta, gpu0, host2, gpu1, host, custom,
                                         plane(0, 'Task Environment', [], [], [stmeta(1, 'x')],
                                               [stat(1, u=5)])))
    space += ld(4, 'test-host')
    open(sys.argv[1], 'wb').write(space)


main()
