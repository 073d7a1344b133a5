"""Times one compile with plain clang and one with roofline-clang and fails
when the instrumented one takes more than LIMIT times as long.

usage: build-time.py LIMIT SOURCE PLAIN_CLANG ROOFLINE_CLANG [FLAGS...]"""
import subprocess
import sys
import time

limit, source, plain, roofline = float(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
flags = sys.argv[5:]


def seconds(compiler, extra):
    start = time.monotonic()
    r = subprocess.run([compiler] + flags + extra + ["-c", source, "-o", "/dev/null"],
                       capture_output=True, text=True, timeout=600)
    if r.returncode:
        sys.exit("build-time: %s failed:\n%s" % (compiler, r.stderr[-2000:]))
    sys.stderr.write(r.stderr)
    return time.monotonic() - start


base = seconds(plain, [])
instrumented = seconds(roofline, ["-Rremark-backend-plugin"])
ratio = instrumented / base
print("build-time: plain %.2f s, instrumented %.2f s: %.1fx (limit %gx)"
      % (base, instrumented, ratio, limit))
sys.exit(0 if ratio <= limit else 1)
