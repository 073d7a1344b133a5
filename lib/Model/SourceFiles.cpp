//===- SourceFiles.cpp - Whose code a source file is ----------------------===//
#include "roofline/Model/SourceFiles.h"

namespace roofline {

bool isSystemFile(const std::string &File) {
  for (const char *Prefix : {"/usr/include/", "/usr/lib/", "/usr/local/include/",
                             "/usr/local/cuda"})
    if (File.rfind(Prefix, 0) == 0)
      return true;
  return File.find("/include/c++/") != std::string::npos ||
         File.find("/lib/clang/") != std::string::npos;
}

} // namespace roofline
