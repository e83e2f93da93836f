# TraceLens --extension_file used to make formula/ (see COMMANDS): a perf
# model TraceLens does not have (an embedding row gather, a category and a
# sheet of its own), written as a formula row in formula.tsv for tl.
from TraceLens.PerfModel.utils import name2bpe, torch_dtype_map


class IndexSelect:
    category = "Gather"
    bwd_category = None

    def __init__(self, event, arch=None, python_path=None):
        self.param_details = self.get_param_details(event)

    @staticmethod
    def get_param_details(event):
        dims = event["args"]["Input Dims"]
        types = event["args"]["Input type"]
        return {"num_rows": dims[2][0], "row_width": dims[0][-1], "dtype": types[0]}

    def flops(self):
        return self.param_details["num_rows"] * self.param_details["row_width"]

    def bytes(self):
        p = self.param_details
        return 2 * p["num_rows"] * p["row_width"] * name2bpe(p["dtype"]) + 8 * p["num_rows"]

    def get_maf_type(self):
        return "vector"

    def get_compute_precision(self):
        return torch_dtype_map(self.param_details["dtype"])


perf_model_extension = {"aten::index_select": IndexSelect}
