#!/usr/bin/env python3
"""pyxplane.py FILE.xplane.pb -- an independent reading of a JAX/XLA XSpace
with nothing but the standard library (its own protobuf wire decoder), by
the rules of tl-cat(1)/tl-stream(5): the events of xprof's trace-viewer
conversion and each HLO module's text.  Prints NDJSON like tl-cat --ndjson
(events, then {"top": KEY, "value": ...} lines for the hlo_module.* keys);
tests compare the two as parsed JSON.
"""
import json
import struct
import sys

def varint(b, i):
    v = 0; s = 0
    while True:
        c = b[i]; i += 1
        v |= (c & 0x7f) << s; s += 7
        if not c & 0x80: return v, i
def fields(b):
    i = 0; n = len(b)
    while i < n:
        tag, i = varint(b, i)
        f, wt = tag >> 3, tag & 7
        if wt == 0: v, i = varint(b, i)
        elif wt == 1: v = b[i:i+8]; i += 8
        elif wt == 2:
            l, i = varint(b, i); v = b[i:i+l]; i += l
        elif wt == 5: v = b[i:i+4]; i += 4
        else: raise ValueError(wt)
        yield f, wt, v
def sint(v):
    return v - (1 << 64) if v >= 1 << 63 else v
def stat(b):
    d = {}
    for f, wt, v in fields(b):
        if f == 1: d['mid'] = sint(v)
        elif f == 2: d['double'] = struct.unpack('<d', v)[0]
        elif f == 3: d['uint'] = v
        elif f == 4: d['int'] = sint(v)
        elif f == 5: d['str'] = v.decode('utf-8', 'replace')
        elif f == 6: d['bytes'] = v
        elif f == 7: d['ref'] = v
    return d
def event(b):
    d = {'mid': 0, 'off': 0, 'dur': 0, 'stats': []}
    for f, wt, v in fields(b):
        if f == 1: d['mid'] = sint(v)
        elif f == 2: d['off'] = sint(v)
        elif f == 5: d['occ'] = sint(v)
        elif f == 3: d['dur'] = sint(v)
        elif f == 4: d['stats'].append(stat(v))
    return d
def line(b):
    d = {'id': 0, 'display_id': 0, 'name': '', 'display_name': '', 'ts': 0, 'dur': 0, 'events': []}
    for f, wt, v in fields(b):
        if f == 1: d['id'] = sint(v)
        elif f == 10: d['display_id'] = sint(v)
        elif f == 2: d['name'] = v.decode()
        elif f == 11: d['display_name'] = v.decode()
        elif f == 3: d['ts'] = sint(v)
        elif f == 9: d['dur'] = sint(v)
        elif f == 4: d['events'].append(event(v))
    return d
def evmeta(b):
    d = {'id': 0, 'name': '', 'display_name': '', 'stats': [], 'child': []}
    for f, wt, v in fields(b):
        if f == 1: d['id'] = sint(v)
        elif f == 2: d['name'] = v.decode('utf-8', 'replace')
        elif f == 4: d['display_name'] = v.decode('utf-8', 'replace')
        elif f == 3: d['metadata'] = v
        elif f == 5: d['stats'].append(stat(v))
        elif f == 6: d['child'].append(v)
    return d
def stmeta(b):
    d = {'id': 0, 'name': '', 'desc': ''}
    for f, wt, v in fields(b):
        if f == 1: d['id'] = sint(v)
        elif f == 2: d['name'] = v.decode('utf-8', 'replace')
        elif f == 3: d['desc'] = v.decode()
    return d
def mapentry(b, valfn):
    k = 0; val = None
    for f, wt, v in fields(b):
        if f == 1: k = sint(v)
        elif f == 2: val = valfn(v)
    return k, val
def plane(b):
    d = {'id': 0, 'name': '', 'lines': [], 'em': {}, 'sm': {}, 'stats': []}
    for f, wt, v in fields(b):
        if f == 1: d['id'] = sint(v)
        elif f == 2: d['name'] = v.decode()
        elif f == 3: d['lines'].append(line(v))
        elif f == 4:
            k, val = mapentry(v, evmeta); d['em'][k] = val if val else evmeta(b'')
        elif f == 5:
            k, val = mapentry(v, stmeta); d['sm'][k] = val if val else stmeta(b'')
        elif f == 6: d['stats'].append(stat(v))
    return d
def space(b):
    d = {'planes': [], 'hostnames': [], 'errors': [], 'warnings': []}
    for f, wt, v in fields(b):
        if f == 1: d['planes'].append(plane(v))
        elif f == 2: d['errors'].append(v.decode())
        elif f == 3: d['warnings'].append(v.decode())
        elif f == 4: d['hostnames'].append(v.decode())
    return d


# ---- the trace viewer's events ----------------------------------------------

INTERNAL_EVENTS = {"MemoryAllocation", "MemoryDeallocation", "PrefetchProduce", "PrefetchConsume",
    "ParallelInterleaveProduce", "ParallelInterleaveConsume", "ParallelInterleaveInitializedInput",
    "ParallelMapProduce", "ParallelMapConsume", "MapAndBatchProduce", "MapAndBatchConsume",
    "ParseExampleProduce", "ParseExampleConsume"}
INTERNAL_STATS = {"kernel_details", "_pt", "_p", "_ct", "_c", "_r", "flops", "bytes_accessed",
                  "program_id", "symbol_id"}

def g17(x):
    """xprof writes doubles with %.17g: what a JSON reader gets back (an
    integral value comes back as an int)."""
    return json.loads('%.17g' % x)

CONTEXT = ['', '', 'tf_exec', 'tfrt_exec', 'batch_sched', 'PjRt', 'as_batch_sched', 'tfrt_rt',
           'tpu_embed', 'gpu_launch', 'batcher', 'tpu_stream', 'tpu_launch', 'pathways_exec',
           'pjrt_library_call', 'threadpool_event', 'jax_serving', 'sparsecore_offload']


def context(v):
    t = v >> 58
    return CONTEXT[t] if t < len(CONTEXT) else ''


def last_by_id(d):
    return d   # plane() keeps the last map entry of an id already


def convert(space, hostname=None):
    """xprof's trace viewer: devices, threads, events in ForAllEvents order."""
    hostname = space['hostnames'][0] if space['hostnames'] else ''
    devices = []
    hosts = sorted([p for p in space['planes'] if p['name'].startswith('/host:CPU')],
                   key=lambda p: p['name'].encode())
    for i, p in enumerate(hosts):
        devices.append((701 + i, p))
    prefix = '/device:GPU:'
    if not any(p['name'].startswith(prefix) for p in space['planes']):
        prefix = '/device:TPU:'
    for p in space['planes']:
        if p['name'].startswith(prefix):
            d = 1 + p['id']
            devices.append((d if 1 <= d <= 500 else 1, p))
    for p in space['planes']:
        if p['name'].startswith('/device:CUSTOM:'):
            devices.append((501 + p['id'], p))
    devnames, resnames, evs = {}, {}, []
    order = 0
    for dev, p in devices:
        if not p['lines']:
            continue
        devnames[dev] = hostname + ' ' + p['name']
        for l in p['lines']:
            if not l['events'] or l['name'].startswith('counters_'):
                continue
            counters = l['name'] == '_counters_'
            res = (l['display_id'] or l['id']) & 0xffffffff
            if not counters:
                resnames[(dev, res)] = l['display_name'] or l['name']
            for e in l['events']:
                em = p['em'].get(e['mid'], {'name': '', 'display_name': '', 'stats': []})
                if em['name'] in INTERNAL_EVENTS:
                    continue
                args, group, flow, is_async, step = [], None, None, False, None
                name = em['name']
                if em['display_name'] and not counters:
                    name = em['display_name']
                if em['display_name']:
                    args.append(('long_name', em['name']))
                for st in em['stats'] + e['stats']:
                    sname = p['sm'].get(st['mid'], {'name': ''})['name']
                    if sname in INTERNAL_STATS:
                        continue
                    iv = st.get('int', st.get('uint'))
                    if sname == 'flow' and iv is not None:
                        flow = iv & 0xffffffffffffffff
                        continue
                    if sname == 'group_id' and iv is not None:
                        group = iv
                        continue
                    if sname == '_a':
                        is_async = True
                        continue
                    if iv is not None:
                        args.append((sname, iv if abs(iv) <= 2 ** 53 else str(iv)))
                    elif 'double' in st:
                        x = st['double']
                        args.append((sname, g17(x) if x == x and abs(x) != float('inf') else
                                     ('NaN' if x != x else 'Infinity' if x > 0 else '-Infinity')))
                    elif 'str' in st or 'ref' in st:
                        v = st['str'] if 'str' in st else p['sm'].get(st['ref'], {'name': ''})['name']
                        if sname == 'step_name':
                            step = v
                        args.append((sname, v))
                if step:
                    name = step
                ts_ps = l['ts'] * 1000 + e['off']
                kind = 'C' if counters else 'A' if (flow is not None and is_async and flow & 3) else 'X'
                ev = {'pid': dev}
                if kind == 'X':
                    ev['tid'] = res
                ev['name'] = name
                ev['ts'] = g17(ts_ps / 1e6)
                if kind == 'X':
                    ev['dur'] = g17(max(e['dur'], 1) / 1e6)
                    if flow is not None and flow & 3:
                        ev['bind_id'] = (flow >> 2) & ((1 << 56) - 1)
                        if context(flow):
                            ev['cat'] = context(flow)
                        if flow & 3 == 2:
                            ev['flow_out'] = True
                        elif flow & 3 == 1:
                            ev['flow_in'] = True
                        else:
                            ev['flow_in'] = True
                            ev['flow_out'] = True
                    ev['ph'] = 'X'
                elif kind == 'A':
                    ev['id'] = (flow >> 2) & ((1 << 56) - 1)
                    ev['cat'] = context(flow)
                    ev['ph'] = 'e' if flow & 3 == 1 else 'b'
                else:
                    ev['ph'] = 'C'
                if group is not None or args:
                    a = {}
                    if group is not None:
                        a['group_id'] = group
                    for k, v in args:
                        a[k] = v
                    ev['args'] = a
                key = (dev, kind == 'X', name.encode() if kind != 'X' else b'',
                       res if kind == 'X' else 0, ts_ps, -e['dur'], name.encode(), order)
                order += 1
                evs.append((key, ev, flow if kind == 'A' else None, ts_ps + e['dur']))
    out = []
    for dev in sorted(devnames):
        out.append({'args': {'name': devnames[dev]}, 'name': 'process_name', 'ph': 'M', 'pid': dev})
        out.append({'args': {'sort_index': dev}, 'name': 'process_sort_index', 'ph': 'M', 'pid': dev})
        for (d, r) in sorted(k for k in resnames if k[0] == dev):
            out.append({'args': {'name': resnames[(d, r)]}, 'name': 'thread_name', 'ph': 'M',
                        'pid': dev, 'tid': r})
            out.append({'args': {'sort_index': r}, 'name': 'thread_sort_index', 'ph': 'M',
                        'pid': dev, 'tid': r})
    for key, ev, flow, end in sorted(evs, key=lambda x: x[0]):
        out.append(ev)
        if flow is not None and flow & 3 == 3:
            out.append({'pid': ev['pid'], 'name': ev['name'], 'ts': g17(end / 1e6),
                        'id': ev['id'], 'cat': ev['cat'], 'ph': 'e'})
    return {'traceEvents': out}


# ---- HLO module text ------------------------------------------------------------
PT = {1: 'pred', 2: 's8', 3: 's16', 4: 's32', 5: 's64', 6: 'u8', 7: 'u16', 8: 'u32', 9: 'u64',
      10: 'f16', 11: 'f32', 12: 'f64', 13: 'tuple', 14: 'opaque', 15: 'c64', 16: 'bf16',
      17: 'token', 18: 'c128', 19: 'f8e5m2', 20: 'f8e4m3fn', 21: 's4', 22: 'u4',
      23: 'f8e4m3b11fnuz', 24: 'f8e5m2fnuz', 25: 'f8e4m3fnuz', 26: 's2', 27: 'u2',
      28: 'f8e4m3', 29: 'f8e3m4', 30: 's1', 31: 'u1', 32: 'f4e2m1fn', 33: 'f8e8m0fnu',
      34: 'buffer'}


def packed(v, wt):
    if wt == 0:
        return [sint(v)]
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i)
        out.append(sint(x))
    return out


def layout(b):
    d = {'m2m': [], 'tiles': [], 'esize': 0, 'mspace': 0, 'tail': 0}
    for f, wt, v in fields(b):
        if f == 1:
            d['m2m'] += packed(v, wt)
        elif f == 6:
            t = []
            for f2, wt2, v2 in fields(v):
                if f2 == 1:
                    t += packed(v2, wt2)
            d['tiles'].append(t)
        elif f == 7:
            d['esize'] = sint(v)
        elif f == 8:
            d['mspace'] = sint(v)
        elif f == 16:
            d['tail'] = sint(v)
    return d


def shape(b):
    d = {'et': 0, 'dims': [], 'tuple': [], 'layout': None, 'dyn': []}
    for f, wt, v in fields(b):
        if f == 2:
            d['et'] = v
        elif f == 3:
            d['dims'] += packed(v, wt)
        elif f == 4:
            d['tuple'].append(shape(v))
        elif f == 5:
            d['layout'] = layout(v)
        elif f == 6:
            d['dyn'] += packed(v, wt)
    return d


def instr(b):
    d = {'name': '', 'op': '', 'shape': None, 'meta': {}, 'cct': '', 'id': 0, 'ops': [],
         'called': [], 'bc': b'', 'fk': '', 'pnum': 0, 'tidx': 0, 'dims': []}
    for f, wt, v in fields(b):
        if f == 1:
            d['name'] = v.decode('utf-8', 'replace')
        elif f == 2:
            d['op'] = v.decode('utf-8', 'replace')
        elif f == 3:
            d['shape'] = shape(v)
        elif f == 7:
            for f2, wt2, v2 in fields(v):
                d['meta'][f2] = v2.decode('utf-8', 'replace') if wt2 == 2 else sint(v2)
        elif f == 9:
            d['pnum'] = sint(v)
        elif f == 11:
            d['fk'] = v.decode('utf-8', 'replace')
        elif f == 13:
            d['tidx'] = sint(v)
        elif f == 14:
            d['dims'] += packed(v, wt)
        elif f == 28:
            d['cct'] = v.decode('utf-8', 'replace')
        elif f == 35:
            d['id'] = sint(v)
        elif f == 36:
            d['ops'] += packed(v, wt)
        elif f == 38:
            d['called'] += packed(v, wt)
        elif f == 43:
            d['bc'] = v
    return d


def comp(b):
    d = {'name': '', 'ins': [], 'id': 0, 'root': 0}
    for f, wt, v in fields(b):
        if f == 1:
            d['name'] = v.decode('utf-8', 'replace')
        elif f == 2:
            d['ins'].append(instr(v))
        elif f == 5:
            d['id'] = sint(v)
        elif f == 6:
            d['root'] = sint(v)
    return d


def module(hloproto):
    for f, wt, v in fields(hloproto):
        if f == 1:
            d = {'name': '', 'entry': '', 'entry_id': 0, 'comps': []}
            for f2, wt2, v2 in fields(v):
                if f2 == 1:
                    d['name'] = v2.decode('utf-8', 'replace')
                elif f2 == 2:
                    d['entry'] = v2.decode('utf-8', 'replace')
                elif f2 == 6:
                    d['entry_id'] = sint(v2)
                elif f2 == 3:
                    d['comps'].append(comp(v2))
            return d
    return None


def layout_str(l):
    s = '{' + ','.join(str(x) for x in l['m2m'])
    extra = ''
    if l['tiles']:
        extra += 'T' + ''.join('(' + ','.join(str(x) for x in t) + ')' for t in l['tiles'])
    if l['tail'] > 1:
        extra += 'L(%d)' % l['tail']
    if l['esize']:
        extra += 'E(%d)' % l['esize']
    if l['mspace']:
        extra += 'S(%d)' % l['mspace']
    return s + (':' + extra if extra else '') + '}'


def shape_str(s, with_layout=True):
    if s is None:
        return 'invalid[]'
    if s['et'] == 13:
        return '(' + ', '.join(shape_str(t, with_layout) for t in s['tuple']) + ')'
    t = PT.get(s['et'], 'invalid')
    dims = [('<=' if i < len(s['dyn']) and s['dyn'][i] else '') + str(d)
            for i, d in enumerate(s['dims'])]
    out = t + '[' + ','.join(dims) + ']'
    if with_layout and s['layout'] is not None and s['dims'] and s['et'] not in (14, 17):
        out += layout_str(s['layout'])
    return out


def cescape(x):
    out = []
    for c in x.encode('utf-8', 'surrogateescape'):
        ch = chr(c)
        if ch in '\n\r\t"\'\\':
            out.append({'\n': '\\n', '\r': '\\r', '\t': '\\t', '"': '\\"', "'": "\\'",
                        '\\': '\\\\'}[ch])
        elif c < 0x20 or c >= 0x7f:
            out.append('\\%03o' % c)
        else:
            out.append(ch)
    return ''.join(out)


def meta_str(m):
    r = []
    for key, f in (('op_type', 1), ('op_name', 2), ('source_file', 3)):
        if m.get(f):
            r.append('%s="%s"' % (key, cescape(m[f])))
    if m.get(4):
        r.append('source_line=%d' % m[4])
    return ' '.join(r)


def module_text(mod):
    byid = {}
    for c in mod['comps']:
        for i in c['ins']:
            byid.setdefault(i['id'], i)
    cname = {}
    for c in mod['comps']:
        cname.setdefault(c['id'], c['name'])
    out = ['HloModule ' + mod['name'], '']
    for n, c in enumerate(mod['comps']):
        entry = c['id'] == mod['entry_id'] if mod['entry_id'] else c['name'] == mod['entry']
        params = []
        k = 0
        while True:
            p = [i for i in c['ins'] if i['op'] == 'parameter' and i['pnum'] == k]
            if not p:
                break
            params.append('%s: %s' % (p[0]['name'], shape_str(p[0]['shape'], False)))
            k += 1
        root = byid.get(c['root'])
        if n:
            out.append('')
        out.append('%s%%%s (%s) -> %s {' % ('ENTRY ' if entry else '', c['name'], ', '.join(params),
                                            shape_str(root['shape'] if root else None, False)))
        for i in c['ins']:
            if i['op'] == 'parameter':
                ops = str(i['pnum'])
            else:
                ops = ', '.join(shape_str(byid[o]['shape']) + ' %' + byid[o]['name']
                                if o in byid else '' for o in i['ops'])
            attrs = []
            if i['op'] == 'get-tuple-element':
                attrs.append('index=%d' % i['tidx'])
            if i['dims']:
                attrs.append('dimensions={' + ','.join(str(x) for x in i['dims']) + '}')
            if i['called']:
                names = ['%' + cname.get(x, 'unknown') for x in i['called']]
                v = names[0] if len(names) == 1 else '{' + ', '.join(names) + '}'
                if i['op'] == 'fusion':
                    attrs.append('kind=' + i['fk'])
                    attrs.append('calls=' + v)
                else:
                    attrs.append('to_apply=' + v)
            elif i['op'] == 'fusion':
                attrs.append('kind=' + i['fk'])
            if i['cct']:
                attrs.append('custom_call_target="%s"' % cescape(i['cct']))
            m = meta_str(i['meta'])
            if m:
                attrs.append('metadata={' + m + '}')
            if i['bc']:
                attrs.append('backend_config=' + i['bc'].replace(b'\0', b'').decode('utf-8', 'surrogateescape'))
            line = '  %s%%%s = %s %s(%s)' % ('ROOT ' if i['id'] == c['root'] else '', i['name'],
                                            shape_str(i['shape']), i['op'], ops)
            out.append(line + ''.join(', ' + a for a in attrs))
        out.append('}')
    return '\n'.join(out) + '\n'


def main():
    space_ = space(open(sys.argv[1], 'rb').read())
    for e in convert(space_)['traceEvents']:
        print(json.dumps(e, ensure_ascii=False))
    for p in space_['planes']:
        if p['name'] != '/host:metadata':
            continue
        for k, em in p['em'].items():
            for st in em['stats']:
                if 'bytes' in st and p['sm'].get(st['mid'], {}).get('name') == 'Hlo Proto':
                    try:
                        mod = module(st['bytes'])
                        text = module_text(mod)
                    except (IndexError, KeyError, ValueError, UnicodeDecodeError, TypeError):
                        continue    # tl-cat reports it and goes on
                    print(json.dumps({'top': 'hlo_module.' + em['name'],
                                      'value': {'module': mod['name'], 'program': em['name'],
                                                'text': text}}, ensure_ascii=False))


if __name__ == '__main__':
    main()
