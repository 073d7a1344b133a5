//===- ResourceNames.cpp - Scheduler resources, said in words -------------===//
#include "roofline/Model/ResourceNames.h"

#include <algorithm>
#include <map>
#include <vector>

namespace roofline {

namespace {

/// Zen 3 and Zen 4 (znver5 uses Zen 4's model): X86ScheduleZnver4.td's
/// comments, after AMD's Software Optimization Guide.
const std::map<std::string, std::string> &zen() {
  static const std::map<std::string, std::string> Words = {
      {"ALU0", "integer ALU 0 (divide, branch)"},
      {"ALU1", "integer ALU 1 (multiply)"},
      {"ALU2", "integer ALU 2"},
      {"ALU3", "integer ALU 3"},
      {"ALU03", "integer ALUs 0 and 3 (conditional moves, setcc)"},
      {"ALU12", "integer ALUs 1 and 2 (shifts, bit operations)"},
      {"ALU0123", "the four integer ALUs"},
      {"AGU0", "address-generation unit 0"},
      {"AGU1", "address-generation unit 1"},
      {"AGU2", "address-generation unit 2"},
      {"AGU012", "the address-generation units"},
      {"BRU1", "branch unit 1"},
      {"BRU01", "the branch units"},
      {"FP0", "FP pipe 0 (multiply, FMA)"},
      {"FP1", "FP pipe 1 (multiply, FMA, divide, shuffles)"},
      {"FP2", "FP pipe 2 (add, convert)"},
      {"FP3", "FP pipe 3 (add, convert)"},
      {"FP45", "the FP load, store and FP-to-integer pipes"},
      {"FPSt", "the FP store pipe"},
      {"FPFMul01", "the FP multiply and FMA pipes"},
      {"FPFAdd01", "the FP add pipes"},
      {"FPFCvt01", "the FP convert pipes"},
      {"FPFMisc01", "the FP move and logic pipes 0 and 1"},
      {"FPFMisc12", "the FP move and logic pipes 1 and 2"},
      {"FPFMisc23", "the FP move and logic pipes 2 and 3"},
      {"FPFMisc123", "the FP move and logic pipes 1 to 3"},
      {"FPFMisc0123", "the four FP move and logic pipes"},
      {"FPU0123", "the four FP pipes"},
      {"FPVAdd01", "the vector integer add pipes 0 and 1"},
      {"FPVAdd12", "the vector integer add pipes 1 and 2"},
      {"FPVAdd0123", "the four vector integer add pipes"},
      {"FPVMul01", "the vector integer multiply pipes"},
      {"FPVShuf01", "the shuffle pipes"},
      {"FPVShift01", "the vector shift pipes"},
      {"FPVMisc0123", "the four vector move and logic pipes"},
      {"FPAES01", "FP pipes 0 and 1 (multiply, FMA, AES)"},
      {"FPCLM01", "the carry-less multiply pipes"},
      {"FPOpMask01", "the AVX-512 mask pipes 2 and 3"},
      {"FPOpMask4", "the AVX-512 mask pipes 4 and 5"},
      {"FP", "the FP schedulers"},
      {"Int", "the integer schedulers"},
      {"LSU", "the load/store pipes"},
      {"Load", "the load pipes"},
      {"Store", "the store pipes"},
  };
  return Words;
}

/// Intel's port groups, by what the ports do: Haswell, Broadwell,
/// Skylake, Skylake-SP and Ice Lake (one digit a port).
const std::map<std::string, std::string> &skylake() {
  static const std::map<std::string, std::string> Words = {
      {"0", "the FP multiply, FMA and divide port"},
      {"1", "the FP add, FMA and integer multiply port"},
      {"5", "the shuffle port"},
      {"6", "the branch and integer ALU port"},
      {"01", "the FP add, multiply and FMA ports"},
      {"015", "the vector ALU ports"},
      {"0156", "the integer ALU ports"},
      {"06", "the branch ports"},
      {"23", "the load ports"},
      {"237", "the load and store-address ports"},
      {"4", "the store-data port"},
      {"49", "the store-data ports"},
      {"78", "the store-address ports"},
      {"Any", "every port"},
  };
  return Words;
}

/// Alder Lake and Sapphire Rapids (Golden Cove; two digits a port, joined
/// by '_').
const std::map<std::string, std::string> &goldenCove() {
  static const std::map<std::string, std::string> Words = {
      {"00", "the divide, FP multiply and FMA port"},
      {"00_01", "the FMA ports"},
      {"01_05", "the FP add ports"},
      {"00_01_05", "the vector ALU ports"},
      {"00_01_05_06", "four of the integer ALU ports"},
      {"00_01_05_06_11", "the integer ALU ports"},
      {"00_06", "the branch ports"},
      {"05", "the shuffle port"},
      {"02_03_10", "the load ports"},
      {"02_03_11", "the load ports"},
      {"02_03_07_08_10", "the load and store-address ports"},
      {"07_08", "the store-address ports"},
      {"04_09", "the store-data ports"},
      {"Any", "every port"},
      {"Invalid", "no port (instructions the model does not cover)"},
  };
  return Words;
}

/// Generic x86-64 (LLVM's Sandy Bridge model) where its ports differ.
const std::map<std::string, std::string> &sandyBridge() {
  static const std::map<std::string, std::string> Words = {
      {"0", "the FP multiply and divide port"},
      {"1", "the FP add port"},
      {"5", "the shuffle and branch port"},
      {"01", "the FP add and multiply ports"},
      {"015", "the ALU ports"},
  };
  return Words;
}

/// "ports 0, 1 and 5" from "015" (one digit a port) or, \p TwoDigits,
/// from "00_01_05".
std::string portList(const std::string &Ports, bool TwoDigits) {
  std::vector<std::string> Each;
  if (TwoDigits) {
    for (size_t At = 0; At <= Ports.size();) {
      size_t End = std::min(Ports.find('_', At), Ports.size());
      std::string P = Ports.substr(At, End - At);
      Each.push_back(P.size() > 1 && P[0] == '0' ? P.substr(1) : P);
      At = End + 1;
    }
  } else {
    for (char C : Ports)
      Each.push_back(std::string(1, C));
  }
  std::string S = Each.size() == 1 ? "port " : "ports ";
  for (size_t I = 0; I < Each.size(); ++I)
    S += (I == 0 ? "" : I + 1 == Each.size() ? " and " : ", ") + Each[I];
  return S;
}

bool digitsOrUnderscores(const std::string &S) {
  if (S.empty())
    return false;
  for (char C : S)
    if (!(C == '_' || (C >= '0' && C <= '9')))
      return false;
  return true;
}

std::string words(const std::string &Name) {
  for (const char *Zen : {"Zn4", "Zn3"})
    if (Name.rfind(Zen, 0) == 0) {
      auto It = zen().find(Name.substr(3));
      return It == zen().end() ? "" : It->second;
    }
  for (const char *Intel : {"ADLP", "SPR", "SKX", "SKL", "ICX", "HW", "BW", "SB"}) {
    std::string P = Intel;
    if (Name.rfind(P, 0) != 0)
      continue;
    std::string Rest = Name.substr(P.size());
    if (Rest == "Divider")
      return "the integer divider";
    if (Rest == "FPDivider")
      return "the FP divider";
    if (Rest.rfind("Port", 0) != 0)
      return "";
    std::string Ports = Rest.substr(4);
    bool TwoDigits = P == "ADLP" || P == "SPR";
    const auto &Table = TwoDigits ? goldenCove() : P == "SB" ? sandyBridge() : skylake();
    if (auto It = Table.find(Ports); It != Table.end())
      return It->second;
    if (P == "SB")
      if (auto It = skylake().find(Ports); It != skylake().end())
        return It->second;
    if (digitsOrUnderscores(Ports))
      return portList(Ports, TwoDigits);
    return "";
  }
  return "";
}

} // namespace

std::string resourceWords(const std::string &Name) {
  std::string W = words(Name);
  if (W.empty())
    return "the scheduling model's resource " + Name;
  return W + " (" + Name + ")";
}

} // namespace roofline
