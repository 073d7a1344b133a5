//===- TrafficJoin.cpp - Time from one run, traffic from another ----------===//
#include "roofline/Model/TrafficJoin.h"
#include "roofline/Model/JSONAccess.h"
#include "roofline/Runtime/ProfileKeys.h"

#include <cmath>
#include <map>

using nlohmann::json;

namespace roofline {

namespace {

/// The counts two runs of the same binary on the same input agree on.
std::string countsDiffer(const json &A, const json &B) {
  auto Num = [](const json &K, const char *Group, const char *Key) {
    if (!Group)
      return numberOr(K, Key, 0);
    return K.contains(Group) && K[Group].is_object() ? numberOr(K[Group], Key, 0)
                                                     : 0.0;
  };
  struct Field {
    const char *Group, *Key, *What;
  };
  for (Field F : {Field{nullptr, key::Calls, "calls"},
                  Field{key::Flops, key::Total, "FLOPs"},
                  Field{key::Bytes, key::Load, "bytes loaded"},
                  Field{key::Bytes, key::Store, "bytes stored"}}) {
    double X = Num(A, F.Group, F.Key), Y = Num(B, F.Group, F.Key);
    if (X != Y) {
      char Buf[160];
      std::snprintf(Buf, sizeof(Buf), "%.17g %s in one, %.17g in the other", X,
                    F.What, Y);
      return Buf;
    }
  }
  return "";
}

std::string loopKey(const json &L) {
  return stringOr(L, key::File, "") + ":" +
         std::to_string(numberOr(L, key::Line, 0));
}

} // namespace

Result<json> joinTraffic(const json &Time, const std::string &TimePath,
                         const json &Traffic, const std::string &TrafficPath) {
  std::map<std::string, const json *> ByName;
  bool AnyTraffic = false;
  json Kernels = arrayOr(Traffic, key::Kernels);
  for (const json &K : Kernels) {
    if (!K.is_object())
      continue;
    ByName[stringOr(K, key::Name, "")] = &K; // Kernels outlives the map's use
    AnyTraffic |= K.contains(key::Traffic);
  }
  if (!AnyTraffic)
    return Failure{TrafficPath + ": no kernel has cache traffic: --traffic takes "
                   "a profile of a ROOFLINE_CACHE run"};
  json Out = Time;
  if (!Out.contains(key::Kernels) || !Out[key::Kernels].is_array())
    return Out;
  for (json &K : Out[key::Kernels]) {
    if (!K.is_object())
      continue;
    std::string Name = stringOr(K, key::Name, "");
    K.erase(
        key::Traffic); // a cache-model run as TIME: its own traffic is replaced
    auto It = ByName.find(Name);
    if (It == ByName.end())
      continue; // the traced run did not reach it
    const json &T = *It->second;
    if (std::string Why = countsDiffer(K, T); !Why.empty())
      return Failure{
          TrafficPath + ": kernel '" + stringOr(K, key::DisplayName, Name) +
          "' differs from " + TimePath + " (" + Why +
          "): --traffic needs a run of the same binary on the same input"};
    if (!T.contains(key::Traffic))
      continue;
    K[key::Traffic] = T[key::Traffic];
    K[key::TrafficFrom] = TrafficPath;
    if (!K.contains(key::Loops) || !K[key::Loops].is_array() ||
        !T.contains(key::Loops) || !T[key::Loops].is_array())
      continue;
    std::map<std::string, const json *> Loops;
    for (const json &L : T[key::Loops])
      if (L.is_object())
        Loops[loopKey(L)] = &L;
    for (json &L : K[key::Loops]) {
      if (!L.is_object())
        continue;
      L.erase(key::Traffic);
      auto LT = Loops.find(loopKey(L));
      if (LT != Loops.end() && LT->second->contains(key::Traffic))
        L[key::Traffic] = (*LT->second)[key::Traffic];
    }
  }
  return Out;
}

} // namespace roofline
