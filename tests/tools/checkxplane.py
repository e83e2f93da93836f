#!/usr/bin/env python3
"""checkxplane.py TLCAT.ndjson PYXPLANE.ndjson -- tl-cat's NDJSON of an
XSpace against tests/tools/pyxplane.py's reading of it: the same events in
the same order (uids 0..n-1), equal as parsed JSON (numbers as values), and
the same hlo_module.* #top texts.  Prints what differs, exits 1; or a
summary, exit 0."""
import json
import sys


def load(path):
    events, tops = [], {}
    for line in open(path, encoding='utf-8'):
        o = json.loads(line)
        if 'top' in o:
            if o['top'].startswith('hlo_module.'):
                tops[o['top']] = o['value']
        elif 'uid' in o or 'src' not in o:
            if 'uid' in o and o['uid'] != len(events):
                raise SystemExit('uid %s out of order' % o['uid'])
            events.append({k: v for k, v in o.items() if k not in ('uid', 'src')})
    return events, tops


def main():
    (ea, ta), (eb, tb) = load(sys.argv[1]), load(sys.argv[2])
    errs = []
    if len(ea) != len(eb):
        errs.append('tl-cat wrote %d events, pyxplane %d' % (len(ea), len(eb)))
    for i, (x, y) in enumerate(zip(ea, eb)):
        if json.dumps(x, sort_keys=True) != json.dumps(y, sort_keys=True) or list(x) != list(y):
            errs.append('event %d: tl-cat %s\n  pyxplane %s' % (i, x, y))
            if len(errs) > 5:
                break
    if sorted(ta) != sorted(tb):
        errs.append('hlo modules differ: %s vs %s' % (sorted(ta), sorted(tb)))
    for k in ta:
        if k in tb and ta[k] != tb[k]:
            errs.append('%s: module text differs' % k)
    for e in errs:
        print(e)
    if errs:
        return 1
    print('%d events, %d modules agree' % (len(ea), len(ta)))
    return 0


sys.exit(main())
