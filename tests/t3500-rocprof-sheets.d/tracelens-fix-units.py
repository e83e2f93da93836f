"""The reference for tl-rocprof --fix-units: TraceLens's own rocprof sheets
with its (never called) RocprofAnalyzer._convert_timestamps_to_microseconds
applied first, except gpu_timeline, which TraceLens computes from the
nanoseconds either way.  Run with TraceLens on PYTHONPATH:

  PYTHONPATH=~/tl-oracle/TraceLens /usr/bin/python3 tracelens-fix-units.py \
      mixed_results.json ref-mixed-fix-units
"""
import os
import sys

from TraceLens.util import RocprofParser
from TraceLens.Reporting.rocprof_analysis import RocprofAnalyzer

path, out = sys.argv[1:3]
data = RocprofParser.load_rocprof_data(path)
args = (RocprofParser.extract_kernel_events(data), RocprofParser.extract_memory_events(data),
        RocprofParser.extract_api_events(data), RocprofParser.get_metadata(data))
sheets = {"gpu_timeline": RocprofAnalyzer(*args).get_df_gpu_timeline()}
a = RocprofAnalyzer(*args)
a._convert_timestamps_to_microseconds()
sheets["kernel_summary"] = a.get_df_kernel_summary()
sheets["kernel_summary_by_category"] = a.get_df_kernel_summary_by_category()
sheets["kernel_details"] = a.get_df_kernel_details()
sheets["short_kernels_summary"] = a.get_df_short_kernels(10)
sheets["short_kernel_histogram"] = a.get_df_short_kernel_histogram(10, 100)
os.makedirs(out, exist_ok=True)
for name, df in sheets.items():
    df.to_csv(os.path.join(out, name + ".csv"), index=False)
