//===- LocalPlatform.cpp - This machine's probed roofs, cached ------------===//
#include "LocalPlatform.h"
#include "CacheTopology.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/LockFileManager.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <unistd.h>

using namespace llvm;

namespace roofline {

std::string localPlatformCachePath() {
  // One name for the runtime's cache model and the tools.
  return topology::probedPlatformPath();
}

/// The cached roofs, if there are any that load; else, a warning when a
/// file is there but unreadable.
std::optional<Platform> cachedPlatform(const std::string &Path,
                                       std::string &Note) {
  if (!sys::fs::exists(Path))
    return std::nullopt;
  Result<Platform> P = loadPlatform(Path);
  if (!P) {
    WithColor::warning(errs(), "roofline-report")
        << P.error() << ": probing again\n";
    return std::nullopt;
  }
  Note = "this machine, probed once by roofline-probe (cached in " + Path +
         "); choose another with --platform";
  return std::move(*P);
}

Result<Platform> localPlatform(const char *Argv0, std::string &Note) {
  std::string Path = localPlatformCachePath();
  if (std::optional<Platform> P = cachedPlatform(Path, Note))
    return std::move(*P);
  std::string Exe = sys::fs::getMainExecutable(Argv0, (void *)&localPlatform);
  SmallString<256> Probe(sys::path::parent_path(Exe));
  sys::path::append(Probe, "roofline-probe");
  if (!sys::fs::can_execute(Probe))
    return Failure{"no roofline-probe beside " + Exe + " to measure this machine"};
  std::error_code EC = sys::fs::create_directories(sys::path::parent_path(Path));
  std::string Target = Path;
  if (EC) {
    // No cache directory: measure into a temporary file, use it this once.
    SmallString<128> Tmp;
    sys::fs::createTemporaryFile("roofline-local", "json", Tmp);
    Target = std::string(Tmp);
  }
  // One probe at a time: reports started together on a machine with no
  // cache (a CI job's parallel steps) wait for the first one's roofs
  // instead of each measuring a machine the others keep busy. The lock is
  // PATH.lock (host and pid); one whose process died is taken over.
  std::optional<LockFileManager> Lock;
  if (!EC) {
    Lock.emplace(Path);
    Expected<bool> Owned = Lock->tryLock();
    if (!Owned) {
      consumeError(Owned.takeError()); // no lock to be had: probe anyway
    } else if (*Owned) {
      // Another report may have finished between our look and the lock.
      if (std::optional<Platform> P = cachedPlatform(Path, Note))
        return std::move(*P);
    } else {
      WithColor::note(errs(), "roofline-report")
          << "waiting for another roofline-report's probe of this machine ("
          << Path << ".lock)\n";
      if (Lock->waitForUnlockFor(std::chrono::seconds(660)) ==
          WaitForUnlockResult::Success)
        if (std::optional<Platform> P = cachedPlatform(Path, Note))
          return std::move(*P);
      // It died or gave up: measure here.
    }
  }
  std::string Partial = Target + ".partial." + std::to_string(getpid());
  WithColor::note(errs(), "roofline-report")
      << "measuring this machine's roofs once (roofline-probe --quick, about "
         "a minute); kept in "
      << Path << "\n";
  std::string Error;
  std::vector<StringRef> Args = {Probe, "--quick", "--no-gpu", "--name", "local",
                                 "-o", Partial};
  std::optional<StringRef> Quiet[] = {std::nullopt, StringRef("/dev/null"),
                                      StringRef("/dev/null")};
  int RC = sys::ExecuteAndWait(Probe, Args, std::nullopt, Quiet, 600, 0, &Error);
  if (RC != 0) {
    sys::fs::remove(Partial);
    return Failure{"roofline-probe failed" + (Error.empty() ? "" : ": " + Error) +
                   " (run it yourself: roofline-probe --quick -o " + Path + ")"};
  }
  sys::fs::rename(Partial, Target);
  Result<Platform> P = loadPlatform(Target);
  if (P)
    Note = "this machine, measured now by roofline-probe --quick (cached in " +
           Target + "); choose another with --platform";
  return P;
}

} // namespace roofline
