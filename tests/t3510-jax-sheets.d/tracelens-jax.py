"""The references of t3510: TraceLens's own JAX report code
(generate_perf_report_jax) run on tl-cat's reading of an .xplane.pb in
place of xprof's (this machine has no xprof): DataLoader.load_data returns
the events of `tl-cat --ndjson`, process_protobuf_file parses the
#top hlo_module.* text with TraceLens's own process_line.  Usage:

  tl-cat --ndjson X.xplane.pb >X.nd
  PYTHONPATH=~/tl-oracle/TraceLens /usr/bin/python3 tracelens-jax.py X.xplane.pb X.nd OUTDIR
"""
import json, sys
from TraceLens import util
from TraceLens.util import JaxProfileProcessor

pbpath, ndpath, out = sys.argv[1], sys.argv[2], sys.argv[3]
events, modules = [], {}
for line in open(ndpath):
    o = json.loads(line)
    if 'uid' in o:
        events.append({k: v for k, v in o.items() if k not in ('uid', 'src')})
    elif o.get('top', '').startswith('hlo_module.'):
        v = o['value']
        modules.setdefault(v['module'], v['text'])
orig = util.DataLoader.load_data
util.DataLoader.load_data = staticmethod(lambda fn, save_preprocessed=False:
    {'traceEvents': json.loads(json.dumps(events))} if fn.endswith('pb') else orig(fn))
def process_protobuf_file(fn, module_name):
    hlo_ops = {}
    for line in modules.get(module_name, '').split('\n'):
        JaxProfileProcessor.process_line(hlo_ops, line)
    JaxProfileProcessor._resolve_operand_references(hlo_ops)
    return hlo_ops
JaxProfileProcessor.process_protobuf_file = staticmethod(process_protobuf_file)
from TraceLens.Reporting.generate_perf_report_jax import generate_perf_report_jax
generate_perf_report_jax(pbpath, output_csvs_dir=out)
