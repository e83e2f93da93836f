# oracle-ir.py: TraceLens's own EventReplayer (~/tl-oracle/TraceLens, with
# Debian's python3-torch) on events of a trace, by uid (index in traceEvents):
#	/usr/bin/python3 oracle-ir.py TRACE[.gz] UIDS_FILE > IR.json 2> FAILED
# writes json.dump([get_repro_info(), ...], indent=4) of the events it can
# replay, and "uid N" on stderr for each it cannot.  The TraceLens package's
# __init__ imports pandas; only the EventReplay modules are loaded here.
import gzip, importlib.util, json, os, sys, types, warnings

root = os.path.expanduser("~/tl-oracle/TraceLens/TraceLens")
pkg = types.ModuleType("TraceLens"); pkg.__path__ = [root]
sub = types.ModuleType("TraceLens.EventReplay"); sub.__path__ = [root + "/EventReplay"]
sys.modules["TraceLens"] = pkg; sys.modules["TraceLens.EventReplay"] = sub
for m in ("utils", "event_replay"):
    spec = importlib.util.spec_from_file_location("TraceLens.EventReplay." + m,
                                                  root + "/EventReplay/" + m + ".py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
EventReplayer = sys.modules["TraceLens.EventReplay.event_replay"].EventReplayer
warnings.simplefilter("ignore")

path = sys.argv[1]
op = gzip.open if path.endswith(".gz") else open
with op(path, "rt") as f:
    events = json.load(f)["traceEvents"]
out = []
for uid in [int(x) for x in open(sys.argv[2]).read().split()]:
    try:
        out.append(EventReplayer(events[uid], lazy=True).get_repro_info())
    except Exception as e:
        print("uid %d: %s: %s" % (uid, type(e).__name__, e), file=sys.stderr)
json.dump(out, sys.stdout, indent=4)
