#!/usr/bin/env python3
"""pm-corpus.py PM_EVAL OPS_TSV REF_CSV... -- check common/perfmodel against
TraceLens reference per-category sheets: for every row, feed the row's raw
args (Input Dims_first, ...) to pm-eval and compare GFLOPS_first,
Data Moved (MB)_first, Compute Spec and every 'param: ' column.
Prints one line per mismatch and a summary; exit 1 on any mismatch."""
import ast, csv, json, math, subprocess, sys

def norm(v):
    v = v.strip()
    if v in ('', 'None', 'nan', 'NaN'):
        return None
    try:
        x = ast.literal_eval(v)
    except Exception:
        return v
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return float(x)
    return x

def main():
    pm, ops, refs = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = total = 0
    for ref in refs:
        rows = list(csv.DictReader(open(ref, encoding='utf-8')))
        bwd = '1' if ref.endswith('_bwd.csv') else '0'
        lines = []
        for r in rows:
            dims = json.dumps(ast.literal_eval(r['Input Dims_first']))
            types = json.dumps(ast.literal_eval(r['Input type_first']))
            strides = json.dumps(ast.literal_eval(r['Input Strides_first']))
            conc = json.dumps(ast.literal_eval(r['Concrete Inputs_first']))
            kd = r.get('kernel_details__summarize_kernel_stats', '') or '[]'
            kd = kd.replace('np.float64(', '(')
            try:
                kn = [k['name'] for k in ast.literal_eval(kd)]
            except Exception:
                kn = []
            lines.append('\t'.join([r['name'], dims, types, strides, conc, bwd,
                                    '\x1f'.join(kn)]))
        out = subprocess.run([pm, ops], input='\n'.join(lines) + '\n',
                             capture_output=True, text=True, check=True).stdout
        for i, (r, o) in enumerate(zip(rows, out.splitlines())):
            total += 1
            st, fl, by, spec, params, why = (o.split('\t') + [''] * 6)[:6]
            where = f'{ref}:{i + 2} {r["name"]}'
            if st != 'ok':
                print(f'{where}: status {st} ({why})'); bad += 1; continue
            got = {'GFLOPS_first': float(fl) / 1e9,
                   'Data Moved (MB)_first': None if by == 'None' else float(by) / 1048576,
                   'Compute Spec': spec or None}
            d = ast.literal_eval(params) if params != 'None' else {}
            for k, v in d.items():
                got['param: ' + k] = v
            for col, want in r.items():
                if col not in got and not col.startswith('param: '):
                    continue
                w = norm(want)
                g = got.get(col)
                if isinstance(g, (int, float)) and not isinstance(g, bool) and isinstance(w, float):
                    ok = abs(g - w) <= 1e-9 * max(1.0, abs(w))
                elif isinstance(g, str) and col.startswith('param: '):
                    ok = g == want or norm(g) == w
                else:
                    ok = g == w or (w is None and g is None)
                if not ok:
                    print(f'{where}: {col}: want {want!r} got {g!r}'); bad += 1
    print(f'{total} rows, {bad} mismatches')
    return 1 if bad else 0

sys.exit(main())
