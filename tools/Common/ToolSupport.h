//===- ToolSupport.h - What the command-line tools share --------*- C++ -*-===//
#ifndef ROOFLINE_TOOLS_TOOLSUPPORT_H
#define ROOFLINE_TOOLS_TOOLSUPPORT_H

#include <string>
#include <vector>

namespace roofline {

/// Where platforms are looked up: $ROOFLINE_PLATFORMS, the repository's
/// platforms/ beside the tool's build directory, then \p BuiltIn.
std::vector<std::string> platformDirectories(const char *Argv0,
                                             const char *BuiltIn);

/// `TOOL --version`: the tool's name and Roofline's version, then the LLVM
/// it was built with (instead of LLVM's own version text). Call before
/// parsing the command line.
void setVersionPrinter(const char *ToolName);

/// Writes \p Text to \p Path ("" or "-": standard output); on failure
/// returns the one-line reason ("cannot write 'PATH': ..."), else "".
std::string writeText(const std::string &Path, const std::string &Text);

} // namespace roofline

#endif
