//===- SourceFiles.h - Whose code a source file is --------------*- C++ -*-===//
//
// Functions from system headers (libstdc++'s algorithms, CUDA's headers)
// are nobody's kernels: the plugin does not select them, and the report
// does not show (or fail on) them from older summaries, unless asked to
// (-roofline-all-functions, --all-kernels).
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_MODEL_SOURCEFILES_H
#define ROOFLINE_MODEL_SOURCEFILES_H

#include <string>

namespace roofline {

/// True for a path in the system's, the compiler's or CUDA's headers.
bool isSystemFile(const std::string &Path);

} // namespace roofline

#endif
