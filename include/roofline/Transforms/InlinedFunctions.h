//===- InlinedFunctions.h - Source functions after inlining -----*- C++ -*-===//
//
// At -O2 the inliner folds small and static functions into their callers,
// and the code as it runs no longer has them. Two things let the
// instrumentation still count each one as its own kernel:
//   - before any inlining, EntryMarkerPass puts an entry marker (an
//     llvm.pseudoprobe, which optimisations keep in place, duplicate with
//     the code and replicate per vector lane) into every function that may
//     be a kernel, and before each of its top-level loops, and lists those
//     functions in the module;
//   - after optimisation, each instruction's debug location says, through
//     its inlinedAt chain, which source function it came from, and each
//     marker left in a caller counts one entry into an inlined body.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TRANSFORMS_INLINEDFUNCTIONS_H
#define ROOFLINE_TRANSFORMS_INLINEDFUNCTIONS_H

#include "roofline/Analysis/RooflineAnalysis.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PassManager.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class DILocation;
class DISubprogram;
class DbgVariableRecord;
class Instruction;
class Value;
} // namespace llvm

namespace roofline {

/// PipelineStartEP: marks the entry, and the entry of each top-level loop,
/// of every function defined with debug information, outside system
/// headers, that is a kernel by its own code (KernelSelector, with the
/// analysis's options). A helper without loops is not marked: inlined, its
/// code counts for its caller's loop, as a macro's would.
///
/// For a compile that does not instrument (\p ForInstrumentation false)
/// only the entry is marked, with a bare pseudo probe, which the optimiser
/// treats as no code: the static summary needs no more, and the code is
/// then the code a compile without the plugin makes
/// (test/Plugin/unchanged-code.test). Instrumentation also needs the loop
/// markers, the arguments' values at each entry, and a side effect beside
/// each marker that keeps a block holding only markers from being folded
/// away with them (which changes the code a little).
class EntryMarkerPass : public llvm::PassInfoMixin<EntryMarkerPass> {
public:
  explicit EntryMarkerPass(RooflineAnalysis::Options Opts,
                           bool ForInstrumentation = true)
      : Opts(std::move(Opts)), ForInstrumentation(ForInstrumentation) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  RooflineAnalysis::Options Opts;
  bool ForInstrumentation;
};

/// ScalarOptimizerLateEP (inside the inliner's walk, which visits callees
/// first): a marked function's own static summary, once its simplification
/// is done and before any caller inlines it, attached to its entry marker
/// (roofline/Analysis/InlinedSummaries.h). Only for functions that may be
/// discarded once inlined (local or linkonce linkage): the others keep
/// their own summary at the summary pass.
class SourceSummaryPass : public llvm::PassInfoMixin<SourceSummaryPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

/// After the summary pass, in a compile that is not instrumented: the
/// markers have served (the summaries of inlined kernels are written) and
/// must not reach the vectoriser or code generation.
class MarkerRemovalPass : public llvm::PassInfoMixin<MarkerRemovalPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// A function EntryMarkerPass marked, as the source knows it.
/// (EntryMarkerPass also gives the function's integer arguments debug
/// values of variables of its own at the entry marker, which
/// InlinedFunctions::entryArguments reads.)
struct SourceFunction {
  unsigned Id;
  std::string Name; ///< mangled
  std::string File;
  unsigned Line;
  const llvm::DISubprogram *Subprogram;
};

/// The marked source functions of a module, after optimisation.
class InlinedFunctions {
public:
  explicit InlinedFunctions(const llvm::Module &M);

  /// The marked function whose code \p DL is: its innermost inlined frame
  /// that is marked; null when that is the function it is in (or there is
  /// no location).
  const SourceFunction *sourceOf(const llvm::DILocation *DL,
                                 const llvm::Function &In) const;
  /// Every marked function whose code \p DL is, innermost first: the
  /// marked inlined frames, up to the function it is in.
  std::vector<const SourceFunction *> sourcesOf(const llvm::DILocation *DL,
                                                const llvm::Function &In) const;
  /// The function whose entry marker \p I is, or null.
  const SourceFunction *markerOf(const llvm::Instruction &I) const;
  /// The source loop (its location) whose entry marker \p I is, or null.
  const llvm::DILocation *loopMarkerOf(const llvm::Instruction &I) const;
  /// The same source position in the same inlined frames (discriminators,
  /// which unrolling changes, aside).
  /// \p Columns false: the same line is enough in the innermost frame (the
  /// loops the vectoriser makes of one source loop start at different
  /// columns of its line); inlined call sites must match exactly.
  static bool sameLocation(const llvm::DILocation *A, const llvm::DILocation *B,
                           bool Columns = true);
  bool empty() const { return Sources.empty(); }

  /// The integer arguments (by argument number) the function whose entry
  /// marker \p Marker is (a copy, maybe inlined) was entered with: the
  /// debug records that hold them there (their values, through a DWARF
  /// expression where the optimiser salvaged one, are before \p Use).
  struct EntryArguments {
    llvm::Instruction *Use = nullptr;
    std::map<unsigned, llvm::DbgVariableRecord *> ByNumber;
  };
  static EntryArguments entryArguments(llvm::Instruction &Marker);
  /// The value an argument record holds, as i64 code at \p B; null when
  /// its expression is not plain arithmetic (a fragment, a memory read).
  static llvm::Value *argumentValue(llvm::IRBuilder<> &B,
                                    llvm::DbgVariableRecord &R);
  /// Whether argumentValue can compute \p R's value.
  static bool readableArgument(const llvm::DbgVariableRecord &R);
  /// \p F's own entry marker (not one inlined into it), or null.
  static llvm::Instruction *ownEntryMarker(llvm::Function &F);
  /// Removes the markers (after instrumentation: code generation must not
  /// see them); the functions they were in into \p From when given.
  static bool eraseMarkers(llvm::Module &M,
                           std::set<const llvm::Function *> *From = nullptr);
  /// \p File, under \p Directory when it is relative (a debug location's
  /// path).
  static std::string sourcePath(llvm::StringRef Directory, llvm::StringRef File);

private:
  std::vector<SourceFunction> Sources;
  llvm::DenseMap<const llvm::DISubprogram *, unsigned> BySubprogram;
};

} // namespace roofline

#endif
