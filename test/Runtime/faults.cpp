// Faults: an unwritable profile directory is one "roofline:" line and the
// exit status is unchanged; exit() from inside a kernel still writes the
// profile (the call in progress is not counted); a forked child writes its
// own profile under its own pid with only its own counts; a bad pattern
// falls back to roofline-<pid>.json. No temporary file is left behind.
// (Tests run as root, whom permissions do not stop: the unwritable place
// is a directory that is really a file.)
// RUN: rm -rf %t && mkdir -p %t/run && touch %t/notadir
// RUN: %roofline_clangxx -O2 %s -o %t/a
// RUN: env ROOFLINE_PROFILE=%t/notadir/p.json %t/a 3 2> %t/ro.err; test $? = 3
// RUN: FileCheck %s --check-prefix=RO --input-file=%t/ro.err
// RO: roofline: cannot write profile '{{.*}}/notadir/p.json': Not a directory
// RO-NOT: roofline:
// A full device: one line, the exit status unchanged, /dev/full untouched.
// RUN: env ROOFLINE_PROFILE=/dev/full %t/a 4 2> %t/full.err; test $? = 4
// RUN: FileCheck %s --check-prefix=FULL --input-file=%t/full.err
// FULL: roofline: cannot write profile '/dev/full': No space left on device
// RUN: test -c /dev/full
// A device is written in place (a profile on standard output), and a
// directory is refused.
// RUN: env ROOFLINE_PROFILE=/dev/stdout %t/a 0 | FileCheck %s --check-prefix=STDOUT
// STDOUT: "schema": "roofline-profile",
// RUN: env ROOFLINE_PROFILE=%t %t/a 0 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: roofline: cannot write profile '{{.*}}': Is a directory
// RUN: env ROOFLINE_PROFILE=%t/exit.json %t/a exit; test $? = 7
// RUN: FileCheck %s --check-prefix=EXIT --input-file=%t/exit.json
// The kernel ran twice before the third call exited from inside it:
// EXIT: "display_name": "step(int, int, float*)"
// EXIT: "calls": 2,
// EXIT: "total": 200,
// RUN: cd %t/run && env ROOFLINE_PROFILE=%t/run/fork-%%p.json %t/a fork
// RUN: ls %t/run | grep -c 'fork-.*json$' | FileCheck %s --check-prefix=TWO
// TWO: 2
// RUN: cat %t/run/fork-*.json | FileCheck %s --check-prefix=FORK
// Parent: 1 call before the fork + 1 after; child: 3 calls after the fork.
// FORK-DAG: "calls": 2,
// FORK-DAG: "calls": 3,
// RUN: cd %t/run && env ROOFLINE_PROFILE='bad-%%q.json' %t/a 0 2> %t/bad.err
// RUN: FileCheck %s --check-prefix=BAD --input-file=%t/bad.err
// BAD: roofline: profile name 'bad-%q.json': unknown pattern '%q' (use %p, %h, %r or %%); writing 'roofline-{{[0-9]+}}.json'
// RUN: ls %t/run | grep -c 'roofline-[0-9]*.json$' | FileCheck %s --check-prefix=ONE
// ONE: 1
// RUN: not ls %t/run/*.tmp.* %t/*.tmp.*
// A run killed while writing (between the write and the rename) leaves
// no file under the final name: only the temporary one.
// RUN: env ROOFLINE_PROFILE=%t/killed.json ROOFLINE_FAULT=kill-before-rename %t/a 0; test $? = 137
// RUN: not ls %t/killed.json
// RUN: ls %t/killed.json.tmp.*
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

// 100 adds per call.
__attribute__((noinline)) void step(int n, int stop, float *x) {
  for (int i = 0; i < n; ++i)
    x[i] += 1.0f;
  if (stop)
    std::exit(7);
}

int main(int argc, char **argv) {
  static float x[100];
  const char *Mode = argc > 1 ? argv[1] : "0";
  if (!std::strcmp(Mode, "exit")) {
    step(100, 0, x);
    step(100, 0, x);
    step(100, 1, x);
  }
  if (!std::strcmp(Mode, "fork")) {
    step(100, 0, x);
    pid_t P = fork();
    if (P == 0) {
      for (int r = 0; r < 3; ++r)
        step(100, 0, x);
      return 0;
    }
    step(100, 0, x);
    waitpid(P, nullptr, 0);
    return 0;
  }
  step(100, 0, x);
  return std::atoi(Mode);
}
