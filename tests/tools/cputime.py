#!/usr/bin/env python3
"""cputime.py CMD [ARG...]: run CMD (a shell command line when one argument),
then print the CPU seconds (user + system) it and all its children used, from
getrusage(RUSAGE_CHILDREN), to stdout.  The command's own output goes to
/dev/null; its exit status becomes ours (a failed run is not a timing).

Used by the complexity tests, which compare the CPU time of two input sizes
in the same run (never a wall-clock limit): CPU time does not count the
waiting that a shared machine adds."""
import resource, subprocess, sys

def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

args = sys.argv[1:]
t0 = cpu()
p = subprocess.run(args[0] if len(args) == 1 else args, shell=len(args) == 1,
                   stdout=subprocess.DEVNULL)
t = cpu() - t0
if p.returncode:
    sys.stderr.write("cputime: %s: exit %d\n" % (" ".join(args), p.returncode))
    sys.exit(p.returncode)
print("%.6f" % t)
