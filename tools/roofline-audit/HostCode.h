//===- HostCode.h - Kernel launches as the host code makes them -*- C++ -*-===//
//
// What the Clang front end (LaunchFinder) reads out of a host function, with
// no Clang types: the launches of counted kernels with their arguments as
// polynomials in the host's names and their buffers, and, in source order,
// every event that matters for fusing two launches: host synchronisation,
// memcpy, and host code that reads, writes or frees a buffer.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TOOLS_AUDIT_HOSTCODE_H
#define ROOFLINE_TOOLS_AUDIT_HOSTCODE_H

#include "Summaries.h"

#include "roofline/Model/Polynomial.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct SourceLoc {
  std::string File;
  unsigned Line = 0, Column = 0;
  /// "file.cu:12:3" with the file's base name.
  std::string str() const;
};

/// A buffer as the host code names it.
struct Buffer {
  std::string Key;      ///< identity: the variable's declaration, or the text
  std::string Name;     ///< as written: "a", "s.ptr"
  bool Tracked = false; ///< host uses of it are followed (a local variable)
  std::string Caveat;   ///< e.g. it is a parameter that callers may read
};

/// A CUDA launch's grid and block, x y z.
struct LaunchShape {
  Polynomial Grid[3], Block[3];
  Polynomial threads() const;
  bool operator==(const LaunchShape &O) const;
  std::string str() const; ///< "grid (floor((n + 255)/256), 1, 1) x block (256, 1, 1)"
};

struct Launch {
  const AuditKernel *Kernel = nullptr;
  std::string Callee; ///< the kernel as the call names it
  SourceLoc Loc;
  /// The kernel's formula variables (its parameter names, blockDim.x ...)
  /// as polynomials in the host's names.
  std::map<std::string, Polynomial> Bindings;
  std::map<unsigned, Buffer> Pointers; ///< parameter index -> buffer
  std::optional<LaunchShape> Shape;    ///< CUDA launches
  /// The host variables the shape reads (their keys, "var:..."), by name:
  /// one assigned between two launches makes their shapes differ.
  std::map<std::string, std::string> ShapeVariables;
  /// The branches and loops around the launch (an opaque path): two
  /// launches under different ones do not always run back to back.
  std::string Scope;
  std::vector<size_t> Loops; ///< the enclosing loops (HostFunction::Loops)
};

struct HostEvent {
  enum Kind {
    LaunchEvent, ///< Launches[LaunchIndex]
    Sync,        ///< host synchronisation or memcpy: nothing fuses across it
    Read,        ///< host code reads BufferKey (or might: passed elsewhere)
    Write,       ///< host code overwrites BufferKey
    Release,     ///< freed or reallocated
    Assign       ///< a host integer or dim3 (BufferKey) gets a new value
  } K;
  size_t LaunchIndex = 0;
  std::string BufferKey;
  SourceLoc Loc;
  std::string What; ///< "cudaDeviceSynchronize()", "'a[0]'"
};

/// The events [Begin, End) of one loop body: what runs again in the next
/// iteration.
struct LoopSpan {
  size_t Begin = 0, End = 0;
};

struct HostFunction {
  std::string Name;
  SourceLoc Loc;
  std::vector<Launch> Launches;
  std::vector<HostEvent> Events; ///< source order
  std::vector<LoopSpan> Loops;
  /// Host variables whose value the source fixes (const int n = 1 << 20).
  std::map<std::string, double> KnownValues;
  /// Formula variables that stand for host expressions with no simple name.
  std::map<std::string, std::string> Opaque;
};

} // namespace roofline

#endif
