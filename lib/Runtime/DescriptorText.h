//===- DescriptorText.h - Reading the descriptors' text fields --*- C++ -*-===//
//
// The pass writes a kernel's parameters as "name:type\tname:type...", its
// pointer byte formulas as "index\tread\twritten\n" lines and a CUDA
// kernel's meta data as "key\tvalue\n" lines (roofline/Runtime/Descriptor.h).
// One reading of each, shared by the runtime and the CUDA shim.
//
//===----------------------------------------------------------------------===//
#ifndef ROOFLINE_RUNTIME_DESCRIPTORTEXT_H
#define ROOFLINE_RUNTIME_DESCRIPTORTEXT_H

#include <string>
#include <vector>

namespace roofline {
namespace rt {

/// \p Text split at each \p Sep (nothing for an empty or null text).
inline std::vector<std::string> splitText(const char *Text, char Sep) {
  std::vector<std::string> Out;
  std::string S = Text ? Text : "";
  for (size_t Begin = 0; Begin < S.size();) {
    size_t End = S.find(Sep, Begin);
    if (End == std::string::npos)
      End = S.size();
    Out.push_back(S.substr(Begin, End - Begin));
    Begin = End + 1;
  }
  return Out;
}

struct ParamText {
  std::string Name, Type; ///< type: i8..i64, f16, f32, f64, ptr or other
};

/// "name:type\t..." as names and types.
inline std::vector<ParamText> parseParams(const char *List) {
  std::vector<ParamText> Out;
  for (const std::string &Item : splitText(List, '\t')) {
    size_t Colon = Item.rfind(':');
    if (Colon == std::string::npos)
      Out.push_back({Item, "other"});
    else
      Out.push_back({Item.substr(0, Colon), Item.substr(Colon + 1)});
  }
  return Out;
}

/// The values of the "key\tvalue" lines of \p Meta whose key is \p Key.
inline std::vector<std::string> metaFields(const char *Meta, const std::string &Key) {
  std::vector<std::string> Out;
  for (const std::string &Line : splitText(Meta, '\n'))
    if (Line.size() > Key.size() && Line.compare(0, Key.size(), Key) == 0 &&
        Line[Key.size()] == '\t')
      Out.push_back(Line.substr(Key.size() + 1));
  return Out;
}

/// The value of the first "key\tvalue" line of \p Meta with key \p Key.
inline std::string metaField(const char *Meta, const std::string &Key) {
  std::vector<std::string> All = metaFields(Meta, Key);
  return All.empty() ? "" : All.front();
}

} // namespace rt
} // namespace roofline

#endif
