// What is flushed and what is lost (docs/instrumentation.md): _exit, abort
// and SIGSEGV lose the counts; SIGTERM loses them unless
// ROOFLINE_FLUSH_ON_SIGNAL=1; fork then exec writes the parent's only; a
// thread still running at exit is counted up to that point; many processes
// writing one file name leave one whole profile and no temporary files.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %roofline_clangxx -O1 %s -o %t/a -pthread
// RUN: env ROOFLINE_PROFILE=%t/underscore-exit.json %t/a _exit; test $? = 3
// RUN: not ls %t/underscore-exit.json
// RUN: env ROOFLINE_PROFILE=%t/abort.json not --crash %t/a abort
// RUN: not ls %t/abort.json
// RUN: env ROOFLINE_PROFILE=%t/segv.json not --crash %t/a segv
// RUN: not ls %t/segv.json
// RUN: env ROOFLINE_PROFILE=%t/term.json not --crash %t/a term
// RUN: not ls %t/term.json
// RUN: env ROOFLINE_PROFILE=%t/term-flushed.json ROOFLINE_FLUSH_ON_SIGNAL=1 not --crash %t/a term
// RUN: FileCheck %s --check-prefix=TERM --input-file=%t/term-flushed.json
// TERM: "display_name": "work(int, float*)",
// TERM: "calls": 2,
// RUN: env ROOFLINE_PROFILE=%t/exec-%%p.json %t/a exec
// RUN: ls %t | grep -c '^exec-.*json$' | FileCheck %s --check-prefix=ONE
// ONE: 1
// RUN: env ROOFLINE_PROFILE=%t/running.json %t/a thread
// RUN: FileCheck %s --check-prefix=RUNNING --input-file=%t/running.json
// RUNNING: "display_name": "work(int, float*)",
// RUNNING: "calls": {{[1-9][0-9]*}},
// RUN: for i in 1 2 3 4 5 6 7 8; do env ROOFLINE_PROFILE=%t/same.json %t/a & done; wait
// RUN: python3 -c "import json; d = json.load(open('%t/same.json')); assert d['kernels'][0]['calls'] == 2, d"
// RUN: not ls %t/same.json.tmp.*
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <unistd.h>

// 64 adds per call.
__attribute__((noinline)) void work(int n, float *x) {
  for (int i = 0; i < n; ++i)
    x[i] += 1.0f;
}

int main(int argc, char **argv) {
  static float x[64];
  const char *Mode = argc > 1 ? argv[1] : "";
  work(64, x);
  work(64, x);
  if (!std::strcmp(Mode, "_exit"))
    _exit(3);
  if (!std::strcmp(Mode, "abort"))
    std::abort();
  if (!std::strcmp(Mode, "segv"))
    std::raise(SIGSEGV);
  if (!std::strcmp(Mode, "term"))
    std::raise(SIGTERM);
  if (!std::strcmp(Mode, "exec") && fork() == 0) {
    execl("/bin/true", "true", (char *)nullptr);
    _exit(127);
  }
  if (!std::strcmp(Mode, "thread")) {
    std::thread([] {
      static float y[64];
      for (;;)
        work(64, y);
    }).detach();
    usleep(20000);
  }
  return 0;
}
