"""pyrocprof -- an independent reading of a rocprofv3 results document
(rocprofiler-sdk JSON), written from tl-cat(1)/tl-stream(5) with Python's
json module, for tests/tools/pycat.py and checkcat.py.

rocprof_doc(doc) takes the document parsed with numbers kept as text
(Num) and object members as ordered pairs (lists of (key, value)), and
returns (events, tops): the events tl-cat writes, in uid order, as
ordered-pair lists, and the #top directives as (key, value) pairs.
"""
from decimal import Decimal

TOOL = "rocprofiler-sdk-tool"


def get(pairs, key, default=None):
    """The last member called key (Python's dict keeps the last)."""
    if not isinstance(pairs, list) or (pairs and not isinstance(pairs[0], tuple)):
        return default
    out = default
    for k, v in pairs:
        if k == key:
            out = v
    return out


def is_obj(v):
    return isinstance(v, list) and all(isinstance(x, tuple) for x in v) and \
        (v == [] or isinstance(v[0], tuple))


def handle(v):
    if is_obj(v) and len(v) == 1 and v[0][0] == "handle":
        return v[0][1]
    return None


def us(ns, num):
    """ns as exact decimal microseconds, the way tl-cat writes them."""
    d = Decimal(ns) / 1000
    s = format(d, "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return num(s)


def as_int(v):
    s = str(v)
    if type(v).__name__ != "Num" or any(c in s for c in ".eE"):
        raise ValueError("not an integer")
    return int(s)


def rocprof_doc(doc, num):
    tops, events = [], []
    tool = None
    for k, v in doc:
        if k == TOOL and tool is None:
            tool = v
        else:
            tops.append((k, v))
    obj = tool[0]
    pid, agents, kinds, names = None, {}, [], {}
    for k, v in obj:
        if k == "buffer_records" and is_obj(v):
            for arr, recs in v:
                if not isinstance(recs, list) or is_obj(recs) and recs:
                    tops.append((TOOL + ".buffer_records." + arr, recs))
                    continue
                for rec in recs:
                    events.append(event(arr, rec, pid, agents, kinds, names, num))
            continue
        tops.append((TOOL + "." + k, v))
        if k == "metadata":
            p = get(v, "pid")
            pid = p if type(p).__name__ == "Num" else None
        elif k == "agents":
            agents, props = read_agents(v, num)
            if props:
                tops.append(("deviceProperties", props))
        elif k == "strings":
            kinds = []
            for ent in get(v, "buffer_records", []) or []:
                ops = get(ent, "operations")
                kinds.append(ops if isinstance(ops, list) else [])
        elif k == "kernel_symbols":
            for sym in v:
                kid = get(sym, "kernel_id")
                if kid is None:
                    continue
                name = None
                for key in ("truncated_kernel_name", "formatted_kernel_name"):
                    x = get(sym, key)
                    if isinstance(x, str) and type(x).__name__ != "Num" and x:
                        name = x
                        break
                if name is None:
                    x = get(sym, "kernel_name")
                    if isinstance(x, str) and type(x).__name__ != "Num":
                        name = x
                    else:
                        name = "unknown_kernel_" + str(kid)
                names[str(kid)] = name
    return events, tops


def read_agents(agents, num):
    out, props, ngpu = {}, [], 0
    for a in agents:
        h = handle(get(a, "id"))
        if h is None:
            continue
        gpu = -1
        t = get(a, "type")
        if type(t).__name__ == "Num" and str(t) == "2":
            lt = get(a, "logical_node_type_id")
            try:
                gpu = as_int(lt)
                if gpu < 0:
                    gpu = ngpu
            except (ValueError, TypeError):
                gpu = ngpu
            ngpu += 1
        out[str(h)] = gpu
    for a in agents:
        h = handle(get(a, "id"))
        if h is None or out.get(str(h), -1) < 0:
            continue
        p = [("id", num(str(out[str(h)])))]
        for key, src in (("name", "product_name"), ("gcnArchName", "name"),
                         ("numSms", "cu_count"), ("warpSize", "wave_front_size")):
            if any(k == src for k, _ in a):
                p.append((key, get(a, src)))
        props.append(p)
    return out, props


def event(arr, rec, pid, agents, kinds, names, num):
    start = as_int(get(rec, "start_timestamp", num("0")))
    end = as_int(get(rec, "end_timestamp", num("0")))
    cat = {"kernel_dispatch": "kernel", "memory_copy": "gpu_memcpy",
           "hip_api": "cuda_runtime"}.get(arr, arr)
    dev_handle = None
    di = get(rec, "dispatch_info")
    if arr == "kernel_dispatch":
        dev_handle = handle(get(di, "agent_id")) if is_obj(di) else None
    elif arr == "memory_copy":
        d, s = handle(get(rec, "dst_agent_id")), handle(get(rec, "src_agent_id"))
        dev_handle = d
        if d is None or agents.get(str(d), -1) < 0:
            if s is not None and (agents.get(str(s), -1) >= 0 or d is None):
                dev_handle = s
    if arr == "kernel_dispatch":
        kid = get(di, "kernel_id") if is_obj(di) else None
        if kid is None:
            name = "unknown_kernel_None"
        else:
            name = names.get(str(kid), "unknown_kernel_" + str(kid))
    else:
        name = arr
        try:
            k, o = as_int(get(rec, "kind")), as_int(get(rec, "operation"))
            if 0 <= k < len(kinds) and 0 <= o < len(kinds[k]) and \
                    isinstance(kinds[k][o], str):
                name = kinds[k][o]
        except (ValueError, TypeError):
            pass
    ev = [("ph", "X"), ("cat", cat), ("name", name)]
    dev = -1
    if dev_handle is not None:
        dev = agents.get(str(dev_handle), -1)
        ev.append(("pid", num(str(dev)) if dev >= 0 else dev_handle))
        sh = handle(get(rec, "stream_id"))
        ev.append(("tid", sh if sh is not None else num("0")))
    else:
        if pid is not None:
            ev.append(("pid", pid))
        if any(k == "thread_id" for k, _ in rec):
            ev.append(("tid", get(rec, "thread_id")))
    ev.append(("ts", us(start, num)))
    ev.append(("dur", us(end - start, num)))
    args = []
    if dev_handle is not None and dev >= 0:
        args.append(("device", num(str(dev))))
    for k, v in rec:
        if k in ("start_timestamp", "end_timestamp"):
            continue
        if k == "correlation_id" and is_obj(v):
            for ck, cv in v:
                args.append(({"internal": "correlation",
                              "external": "external_correlation"}.get(ck, ck), cv))
        elif k == "dispatch_info" and is_obj(v):
            for dk, dv in v:
                if dk == "size":
                    continue
                if dk in ("workgroup_size", "grid_size") and is_obj(dv):
                    args.append(("block" if dk == "workgroup_size" else "grid",
                                 [get(dv, c, num("1")) for c in "xyz"]))
                else:
                    h = handle(dv)
                    args.append((dk, h if h is not None else dv))
        elif k == "stream_id" and handle(v) is not None:
            args.append(("stream", handle(v)))
        else:
            h = handle(v)
            args.append((k, h if h is not None else v))
    ev.append(("args", args))
    return ev
