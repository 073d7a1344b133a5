//===- HostCode.cpp - Kernel launches as the host code makes them ---------===//
#include "HostCode.h"

namespace roofline {

std::string SourceLoc::str() const {
  size_t Slash = File.find_last_of('/');
  std::string Base = Slash == std::string::npos ? File : File.substr(Slash + 1);
  return Base + ":" + std::to_string(Line) + ":" + std::to_string(Column);
}

Polynomial LaunchShape::threads() const {
  Polynomial T(1);
  for (int I = 0; I < 3; ++I)
    T = T * Grid[I] * Block[I];
  return T;
}

bool LaunchShape::operator==(const LaunchShape &O) const {
  for (int I = 0; I < 3; ++I)
    if (Grid[I] != O.Grid[I] || Block[I] != O.Block[I])
      return false;
  return true;
}

std::string LaunchShape::str() const {
  auto Dims = [](const Polynomial *D) {
    return "(" + D[0].str() + ", " + D[1].str() + ", " + D[2].str() + ")";
  };
  return "grid " + Dims(Grid) + " x block " + Dims(Block);
}

} // namespace roofline
