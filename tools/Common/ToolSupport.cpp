//===- ToolSupport.cpp - What the command-line tools share ----------------===//
#include "ToolSupport.h"

#include "roofline/Model/Platform.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace roofline {

std::vector<std::string> platformDirectories(const char *Argv0,
                                             const char *BuiltIn) {
  std::string Exe =
      sys::fs::getMainExecutable(Argv0, (void *)&platformDirectories);
  // An installed tree: <prefix>/bin/x -> <prefix>/share/roofline/platforms.
  SmallString<256> Installed(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Installed, "share", "roofline", "platforms");
  // The build tree: build/bin/x -> <repo>/platforms.
  SmallString<256> Rel(sys::path::parent_path(
      sys::path::parent_path(sys::path::parent_path(Exe))));
  sys::path::append(Rel, "platforms");
  std::vector<std::string> Dirs = platformSearchPath(BuiltIn);
  Dirs.insert(Dirs.end() - 1, std::string(Installed));
  Dirs.insert(Dirs.end() - 1, std::string(Rel));
  return Dirs;
}

void setVersionPrinter(const char *ToolName) {
  static const char *Name = ToolName;
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << Name << " (Roofline) " << ROOFLINE_VERSION << "\n  built with LLVM "
       << LLVM_VERSION_STRING << "\n";
  });
}

std::string writeText(const std::string &Path, const std::string &Text) {
  if (Path.empty() || Path == "-") {
    outs() << Text;
    return "";
  }
  std::error_code EC;
  ToolOutputFile Out(Path, EC, sys::fs::OF_None);
  if (EC)
    return "cannot write '" + Path + "': " + EC.message();
  Out.os() << Text;
  Out.os().close();
  if (Out.os().has_error())
    return "cannot write '" + Path + "': " + Out.os().error().message();
  Out.keep();
  return "";
}

} // namespace roofline
