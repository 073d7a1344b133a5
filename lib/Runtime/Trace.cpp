//===- Trace.cpp - Call records for fusion analysis (ROOFLINE_TRACE) ------===//
#include "Trace.h"
#include "DescriptorText.h"

#include "roofline/Runtime/ProfileKeys.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <pthread.h>
#include <vector>

extern "C" int __roofline_tracing = 0;

namespace roofline {
namespace rt {

namespace {

/// A traced function or CUDA kernel: its name and parameter types.
struct Callee {
  std::string Name;
  std::vector<std::string> Types;
  bool Device = false; // its calls also record their threads
};

struct Call {
  uint32_t Callee;
  size_t FirstArg; // in TraceLog::Args: the arguments, then threads
};

struct TraceLog {
  std::mutex M;
  std::vector<Callee> Callees;
  std::map<std::string, uint32_t> ByName;
  std::vector<Call> Calls;
  std::vector<uint64_t> Args;
  uint64_t Limit = 100000;
  uint64_t NotKept = 0;
};

uint32_t calleeIndex(TraceLog &T, const std::string &Name,
                     const std::vector<std::string> &Types, bool Device) {
  auto [It, New] = T.ByName.try_emplace(Name, uint32_t(T.Callees.size()));
  if (New)
    T.Callees.push_back({Name, Types, Device});
  return It->second;
}

TraceLog &traceLog() {
  static TraceLog *T = new TraceLog; // leaked: written from atexit
  return *T;
}

/// The parameter types of \p K.
std::vector<std::string> types(const roofline_kernel *K) {
  std::vector<std::string> Out;
  for (const ParamText &P : parseParams(K->Params))
    Out.push_back(P.Type);
  return Out;
}

} // namespace

void startTrace() {
  const char *On = std::getenv("ROOFLINE_TRACE");
  if (!On || !*On || *On == '0')
    return;
  if (const char *Env = std::getenv("ROOFLINE_TRACE_RECORDS")) {
    char *End = nullptr;
    unsigned long long N = std::strtoull(Env, &End, 10);
    if (End != Env && !*End)
      traceLog().Limit = N;
    else
      std::fprintf(stderr,
                   "roofline: ROOFLINE_TRACE_RECORDS='%s' is not a number; "
                   "keeping up to %llu calls\n",
                   Env, (unsigned long long)traceLog().Limit);
  }
  __roofline_tracing = 1;
  // A forked child keeps only its own calls.
  pthread_atfork([] { traceLog().M.lock(); }, [] { traceLog().M.unlock(); },
                 [] {
                   TraceLog &T = traceLog();
                   T.Calls.clear();
                   T.Args.clear();
                   T.NotKept = 0;
                   T.M.unlock();
                 });
}

void resetTrace() {
  TraceLog &T = traceLog();
  std::lock_guard<std::mutex> L(T.M);
  T.Calls.clear();
  T.Args.clear();
  T.NotKept = 0;
}

std::string argumentText(const std::string &Type, uint64_t Bits) {
  char Buf[40];
  if (Type == "ptr") {
    std::snprintf(Buf, sizeof(Buf), "%" PRIu64, Bits);
  } else if (Type == "f16" || Type == "f32" || Type == "f64") {
    double D;
    std::memcpy(&D, &Bits, sizeof(D));
    if (D != D || D - D != 0) // NaN or infinite: not JSON numbers
      return "null";
    std::snprintf(Buf, sizeof(Buf), "%.17g", D);
  } else if (Type.size() > 1 && Type[0] == 'i') {
    std::snprintf(Buf, sizeof(Buf), "%" PRId64, int64_t(Bits));
  } else {
    return "null";
  }
  return Buf;
}

void appendTrace(std::string &J) {
  if (!__roofline_tracing)
    return;
  TraceLog &T = traceLog();
  std::lock_guard<std::mutex> L(T.M);
  J += ",\n  " + field(key::Trace) + "{\n    " + field(key::CallsNotKept) +
       std::to_string(T.NotKept) + ",\n    " + field(key::Calls) + "[";
  for (size_t I = 0; I < T.Calls.size(); ++I) {
    const Call &C = T.Calls[I];
    const Callee &K = T.Callees[C.Callee];
    J += I ? ",\n      [\"" : "\n      [\"";
    J += K.Name; // mangled names need no escaping
    J += "\"";
    for (size_t A = 0; A < K.Types.size(); ++A)
      J += ", " + argumentText(K.Types[A], T.Args[C.FirstArg + A]);
    if (K.Device) // a CUDA launch: its threads last
      J += ", " + std::to_string(T.Args[C.FirstArg + K.Types.size()]);
    J += "]";
  }
  J += T.Calls.empty() ? "]\n  }" : "\n    ]\n  }";
}

} // namespace rt
} // namespace roofline

using namespace roofline::rt;

void roofline::rt::traceDeviceLaunch(const std::string &Name,
                                     const std::vector<std::string> &Types,
                                     const uint64_t *Bits, uint64_t Threads) {
  TraceLog &T = traceLog();
  std::lock_guard<std::mutex> L(T.M);
  if (T.Calls.size() >= T.Limit) {
    ++T.NotKept;
    return;
  }
  T.Calls.push_back({calleeIndex(T, Name, Types, true), T.Args.size()});
  for (size_t A = 0; A < Types.size(); ++A)
    T.Args.push_back(Bits ? Bits[A] : 0);
  T.Args.push_back(Threads);
}

extern "C" void __roofline_trace(const roofline_kernel *K, const uint64_t *Args) {
  // Called from the cold block of the sampled calls too (ArgumentTrace.h).
  if (!__roofline_tracing || K->Id < 0)
    return;
  TraceLog &T = traceLog();
  std::lock_guard<std::mutex> L(T.M);
  if (T.Calls.size() >= T.Limit) {
    ++T.NotKept;
    return;
  }
  auto It = T.ByName.find(K->Name);
  uint32_t Index = It != T.ByName.end()
                       ? It->second
                       : calleeIndex(T, K->Name, types(K), false);
  T.Calls.push_back({Index, T.Args.size()});
  T.Args.insert(T.Args.end(), Args, Args + T.Callees[Index].Types.size());
}
