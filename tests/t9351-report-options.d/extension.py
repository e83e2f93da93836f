# TraceLens --extension_file used to make reference-extension/ (see its COMMAND):
# aten::gelu gets TraceLens's unary elementwise model, aten::index_select a
# category of its own.  extension.tsv says the same to tl.
from TraceLens.PerfModel.perf_model import aten_unary_elementwise

perf_model_extension = {"aten::gelu": aten_unary_elementwise}
op_category_extension = {"aten::index_select": "gather"}
