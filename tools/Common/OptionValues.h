//===- OptionValues.h - Enumerated options that name their values -*- C++ -*-===//
//
// cl::values for an option with a fixed set of values, as LLVM's tools
// declare them, with an error that says what the values are: cl::parser's
// own says "Cannot find option named 'pdf'!".
//
//   static cl::opt<Format, false, NamedValues<Format>> F("format",
//       cl::values(clEnumValN(Format::Table, "table", "..."), ...));
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_TOOLS_OPTIONVALUES_H
#define ROOFLINE_TOOLS_OPTIONVALUES_H

#include "llvm/Support/CommandLine.h"

#include <string>

namespace roofline {

template <class T> class NamedValues : public llvm::cl::parser<T> {
public:
  explicit NamedValues(llvm::cl::Option &O) : llvm::cl::parser<T>(O) {}

  bool parse(llvm::cl::Option &O, llvm::StringRef Name, llvm::StringRef Arg,
             T &Value) {
    unsigned N = this->getNumOptions();
    std::string Expected;
    for (unsigned I = 0; I < N; ++I) {
      if (Arg == this->getOption(I)) {
        Value = this->Values[I].V.getValue();
        return false;
      }
      Expected += std::string(I == 0 ? "" : I + 1 == N ? " or " : ", ") +
                  this->getOption(I).str();
    }
    return O.error("unknown value '" + Arg + "' (expected " + Expected + ")");
  }
};

} // namespace roofline

#endif
