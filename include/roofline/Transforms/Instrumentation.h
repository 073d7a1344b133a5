//===- Instrumentation.h - Exact dynamic counts -----------------*- C++ -*-===//
//
// roofline-instrument: makes every counted function record, per call, how
// often each of its blocks ran; the runtime (libroofline_rt) turns that into
// exact FLOPs and bytes with the same cost model as the static pass. In CUDA
// device code each warp adds its threads' counts to a per-kernel device
// buffer at kernel exit; in host code, launches go through the runtime's
// CUDA shim, which reads that buffer back per launch.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TRANSFORMS_INSTRUMENTATION_H
#define ROOFLINE_TRANSFORMS_INSTRUMENTATION_H

#include "roofline/Analysis/RooflineAnalysis.h"
#include "roofline/Model/Condition.h"

#include "llvm/IR/PassManager.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// What the static analysis said about a function, for its descriptor.
struct StaticFormulas {
  std::string Flops, Load, Store;
  bool Exact = false;
  std::vector<std::string> Params; ///< the formulas' names, per parameter
  /// Per pointer parameter with traffic: its index, bytes read and
  /// written; its array's footprint when exact, and the byte ranges
  /// [Lo, Hi) from the pointer it reads and writes when known ("-" not).
  struct PointerBytes {
    unsigned Index;
    std::string Read, Written;
    std::string FootprintRead = "-", FootprintWritten = "-";
    std::string ReadLo = "-", ReadHi = "-", WrittenLo = "-", WrittenHi = "-";
  };
  std::vector<PointerBytes> Pointers;
  /// The footprint per call (lower bounds when not exact; empty: none).
  std::string FootprintRead, FootprintWritten;
  bool FootprintExact = false;
  /// The same footprint typed, for the code that counts the footprint at
  /// each call (FormulaCode.h): the polynomials (read, written; unset:
  /// none), and what they hold under (the kernel's assumptions and the
  /// footprint's own), which each call tests: one that breaks one counts 0
  /// (unset: one assumption is not a condition the calls can test).
  std::optional<Polynomial> FootprintFormula[2];
  std::optional<std::vector<Condition>> FootprintTests;
  /// The footprint has assumptions of its own (rows that do not overlap):
  /// equal to the counted bytes only while they hold.
  bool FootprintAssumes = false;
};

/// Host code: every cudaLaunchKernel and hipLaunchKernel goes through the
/// runtime's shim, and HIP's kernel registrations tell the HIP shim
/// (CudaModules.cpp). True when a call changed.
bool redirectLaunches(llvm::Module &M);

class InstrumentationPass : public llvm::PassInfoMixin<InstrumentationPass> {
public:
  /// The kernels are those RooflineAnalysis selects with \p Opts, and any
  /// it reported whose loops the optimiser has since removed.
  explicit InstrumentationPass(RooflineAnalysis::Options Opts)
      : Opts(std::move(Opts)) {}

  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  using KernelPredicate = std::function<bool(llvm::Function &)>;
  using StaticLookup = std::function<StaticFormulas(const llvm::Function &)>;

  llvm::PreservedAnalyses instrumentDevice(llvm::Module &M,
                                           llvm::ModuleAnalysisManager &AM);

  RooflineAnalysis::Options Opts;
  KernelPredicate IsKernel;
  StaticLookup Static;
};

} // namespace roofline

#endif
