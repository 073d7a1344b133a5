//===- ProfileFile.cpp - Where the profile goes, written atomically -------===//
//
// The profile's name (ROOFLINE_PROFILE's %p, %h and %r) and its writing:
// into a temporary file next to the target, then renamed, so a reader never
// sees half a profile under the final name; a device or pipe in place.
//
//===----------------------------------------------------------------------===//
#include "ProfileWriter.h"

#include "roofline/Runtime/roofline_rt.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace roofline {
namespace rt {

namespace {

int fail(const std::string &Path, int Err) {
  std::fprintf(stderr, "roofline: cannot write profile '%s': %s\n",
               Path.c_str(), std::strerror(Err));
  return Err;
}

} // namespace

int launcherRank() {
  // Open MPI, PMIx (Open MPI 5, prrte), MPICH and Intel MPI (PMI), Slurm.
  for (const char *Var : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                          "SLURM_PROCID"})
    if (const char *V = std::getenv(Var)) {
      char *End = nullptr;
      long R = std::strtol(V, &End, 10);
      if (End != V && !*End && R >= 0 && R < (1L << 30))
        return int(R);
    }
  return -1;
}

std::string expandProfilePattern(const std::string &Pattern,
                                 std::string &Error) {
  std::string Out;
  for (size_t I = 0; I < Pattern.size(); ++I) {
    if (Pattern[I] != '%') {
      Out += Pattern[I];
      continue;
    }
    char C = I + 1 < Pattern.size() ? Pattern[I + 1] : '\0';
    ++I;
    if (C == 'p') {
      Out += std::to_string(getpid());
    } else if (C == 'h') {
      char Host[256] = "";
      gethostname(Host, sizeof(Host) - 1);
      Out += Host;
    } else if (C == 'r') {
      int Rank = launcherRank();
      if (Rank < 0) {
        Error = "%r: no MPI rank in the environment (OMPI_COMM_WORLD_RANK, "
                "PMIX_RANK, PMI_RANK or SLURM_PROCID: run under mpirun, "
                "mpiexec or srun)";
        return "";
      }
      Out += std::to_string(Rank);
    } else if (C == '%') {
      Out += '%';
    } else {
      Error = std::string("unknown pattern '%") + (C ? std::string(1, C) : "") +
              "' (use %p, %h, %r or %%)";
      return "";
    }
  }
  if (Out.empty())
    Error = "empty file name";
  return Out;
}

int writeProfile(const char *Requested) {
  std::string Pattern = Requested ? Requested : "";
  if (!Requested) {
    const char *Env = std::getenv("ROOFLINE_PROFILE");
    Pattern = Env && *Env ? Env : "roofline-%p.json";
  }
  std::string Error;
  std::string Path = expandProfilePattern(Pattern, Error);
  if (Path.empty()) {
    std::string Fallback = "roofline-" + std::to_string(getpid()) + ".json";
    std::fprintf(stderr, "roofline: profile name '%s': %s; writing '%s'\n",
                 Pattern.c_str(), Error.c_str(), Fallback.c_str());
    Path = Fallback;
  }
  std::string Text = profileJSON();
  // A device, FIFO or socket (/dev/stdout, /dev/full, a pipe) is written in
  // place: renaming a file over it would replace the device node. A
  // directory is an error; anything else gets a temporary file and a rename.
  struct stat St;
  bool Exists = stat(Path.c_str(), &St) == 0;
  if (Exists && S_ISDIR(St.st_mode))
    return fail(Path, EISDIR);
  bool InPlace = Exists && !S_ISREG(St.st_mode);
  std::string Temp =
      InPlace ? Path : Path + ".tmp." + std::to_string(getpid());
  int FD = InPlace ? open(Path.c_str(), O_WRONLY | O_CLOEXEC)
                   : open(Temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                          0644);
  if (FD < 0)
    return fail(Path, errno);
  auto Discard = [&] {
    if (!InPlace)
      unlink(Temp.c_str());
  };
  size_t Done = 0;
  while (Done < Text.size()) {
    ssize_t N = write(FD, Text.data() + Done, Text.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      int Err = N < 0 ? errno : EIO;
      close(FD);
      Discard();
      return fail(Path, Err);
    }
    Done += size_t(N);
  }
  if (close(FD) != 0) {
    int Err = errno;
    Discard();
    return fail(Path, Err);
  }
  if (InPlace)
    return 0;
  // Fault injection for the tests: die between writing and renaming, as a
  // run killed mid-write would.
  if (const char *Fault = std::getenv("ROOFLINE_FAULT"))
    if (!std::strcmp(Fault, "kill-before-rename"))
      raise(SIGKILL);
  if (rename(Temp.c_str(), Path.c_str()) != 0) {
    int Err = errno;
    unlink(Temp.c_str());
    return fail(Path, Err);
  }
  return 0;
}

} // namespace rt
} // namespace roofline

extern "C" int roofline_write_profile(const char *Path) {
  return roofline::rt::writeProfile(Path);
}
