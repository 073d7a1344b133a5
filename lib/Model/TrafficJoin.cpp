//===- TrafficJoin.cpp - Time from one run, traffic from another ----------===//
#include "roofline/Model/TrafficJoin.h"
#include "roofline/Model/JSONAccess.h"

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
  for (Field F : {Field{nullptr, "calls", "calls"}, Field{"flops", "total", "FLOPs"},
                  Field{"bytes", "load", "bytes loaded"},
                  Field{"bytes", "store", "bytes stored"}}) {
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
  return stringOr(L, "file", "") + ":" + std::to_string(numberOr(L, "line", 0));
}

} // namespace

Result<json> joinTraffic(const json &Time, const std::string &TimePath,
                         const json &Traffic, const std::string &TrafficPath) {
  std::map<std::string, const json *> ByName;
  bool AnyTraffic = false;
  json Kernels = arrayOr(Traffic, "kernels");
  for (const json &K : Kernels) {
    if (!K.is_object())
      continue;
    ByName[stringOr(K, "name", "")] = &K; // Kernels outlives the map's use
    AnyTraffic |= K.contains("traffic");
  }
  if (!AnyTraffic)
    return Failure{TrafficPath + ": no kernel has cache traffic: --traffic takes "
                   "a profile of a ROOFLINE_CACHE run"};
  json Out = Time;
  if (!Out.contains("kernels") || !Out["kernels"].is_array())
    return Out;
  for (json &K : Out["kernels"]) {
    if (!K.is_object())
      continue;
    std::string Name = stringOr(K, "name", "");
    K.erase("traffic"); // a cache-model run as TIME: its own traffic is replaced
    auto It = ByName.find(Name);
    if (It == ByName.end())
      continue; // the traced run did not reach it
    const json &T = *It->second;
    if (std::string Why = countsDiffer(K, T); !Why.empty())
      return Failure{TrafficPath + ": kernel '" +
                     stringOr(K, "display_name", Name) + "' differs from " +
                     TimePath + " (" + Why +
                     "): --traffic needs a run of the same binary on the same input"};
    if (!T.contains("traffic"))
      continue;
    K["traffic"] = T["traffic"];
    K["traffic_from"] = TrafficPath;
    if (!K.contains("loops") || !K["loops"].is_array() || !T.contains("loops") ||
        !T["loops"].is_array())
      continue;
    std::map<std::string, const json *> Loops;
    for (const json &L : T["loops"])
      if (L.is_object())
        Loops[loopKey(L)] = &L;
    for (json &L : K["loops"]) {
      if (!L.is_object())
        continue;
      L.erase("traffic");
      auto LT = Loops.find(loopKey(L));
      if (LT != Loops.end() && LT->second->contains("traffic"))
        L["traffic"] = (*LT->second)["traffic"];
    }
  }
  return Out;
}

} // namespace roofline
