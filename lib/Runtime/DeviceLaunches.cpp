//===- DeviceLaunches.cpp - CUDA kernels' launches, as recorded -----------===//
#include "DeviceLaunches.h"
#include "Counters.h"
#include "DescriptorText.h"
#include "Trace.h"

#include "roofline/Runtime/Descriptor.h"
#include "roofline/Runtime/DeviceLaunch.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <pthread.h>

namespace roofline {
namespace rt {

namespace {

struct DeviceRegistry {
  std::mutex M;
  std::vector<DeviceKernel> Kernels;
  void (*Drain)(void) = nullptr;
  uint64_t RecordLimit = 1000000;
  uint64_t Recorded = 0;
};

void resetLocked(DeviceRegistry &R);

DeviceRegistry &deviceRegistry() {
  static DeviceRegistry *R = [] {
    auto *R = new DeviceRegistry; // leaked: used from atexit handlers
    // A forked child starts its own profile: none of the parent's launches.
    pthread_atfork([] { deviceRegistry().M.lock(); },
                   [] { deviceRegistry().M.unlock(); },
                   [] {
                     resetLocked(deviceRegistry());
                     deviceRegistry().M.unlock();
                   });
    if (const char *Env = std::getenv("ROOFLINE_LAUNCH_RECORDS")) {
      char *End = nullptr;
      unsigned long long N = std::strtoull(Env, &End, 10);
      if (End != Env && !*End)
        R->RecordLimit = N;
      else
        std::fprintf(stderr,
                     "roofline: ROOFLINE_LAUNCH_RECORDS='%s' is not a number; "
                     "recording up to %llu launches\n",
                     Env, (unsigned long long)R->RecordLimit);
    }
    return R;
  }();
  return *R;
}

} // namespace

void visitDeviceKernels(void (*Visit)(const DeviceKernel &, void *),
                        void *Context) {
  DeviceRegistry &R = deviceRegistry();
  void (*Drain)(void) = nullptr;
  {
    std::lock_guard<std::mutex> L(R.M);
    Drain = R.Drain;
  }
  if (Drain)
    Drain(); // records the launches in flight (takes the lock itself)
  std::lock_guard<std::mutex> L(R.M);
  for (const DeviceKernel &K : R.Kernels)
    Visit(K, Context);
}

namespace {

void resetLocked(DeviceRegistry &R) {
  for (DeviceKernel &K : R.Kernels) {
    K.Launches = K.Threads = K.Dropped = 0;
    K.Seconds = 0;
    std::memset(K.Slots, 0, sizeof(K.Slots));
    K.Records.clear();
    K.Args.clear();
  }
  R.Recorded = 0;
}

} // namespace

void resetDeviceLaunches() {
  DeviceRegistry &R = deviceRegistry();
  std::lock_guard<std::mutex> L(R.M);
  resetLocked(R);
}

} // namespace rt
} // namespace roofline

using namespace roofline;
using namespace roofline::rt;

extern "C" int __roofline_device_kernel(const char *Name, const char *Meta) {
  startRuntime();
  if (metaField(Meta, ROOFLINE_META_KEY_Version) != std::to_string(ROOFLINE_DEVICE_META_VERSION) ||
      metaField(Meta, ROOFLINE_META_KEY_Slots) != std::to_string(NumRunSlots)) {
    std::fprintf(stderr,
                 "roofline: %s kernel %s was instrumented by another version "
                 "of Roofline; its counts are not recorded\n",
                 metaField(Meta, ROOFLINE_META_KEY_Device) == "hip" ? "HIP" : "CUDA",
                 Name);
    return -1;
  }
  DeviceRegistry &R = deviceRegistry();
  std::lock_guard<std::mutex> L(R.M);
  for (size_t I = 0; I < R.Kernels.size(); ++I)
    if (R.Kernels[I].Name == Name)
      return int(I);
  DeviceKernel K;
  K.Name = Name;
  K.Device = metaField(Meta, ROOFLINE_META_KEY_Device) == "hip" ? "hip" : "cuda";
  K.File = metaField(Meta, ROOFLINE_META_KEY_File);
  K.Line = uint32_t(std::strtoul(metaField(Meta, ROOFLINE_META_KEY_Line).c_str(), nullptr, 10));
  K.Flops = metaField(Meta, ROOFLINE_META_KEY_Flops);
  K.Load = metaField(Meta, ROOFLINE_META_KEY_Load);
  K.Store = metaField(Meta, ROOFLINE_META_KEY_Store);
  K.Exact = metaField(Meta, ROOFLINE_META_KEY_Exact) == "1";
  K.Params = parseParams(metaField(Meta, ROOFLINE_META_KEY_Params).c_str());
  K.PointerLines = metaFields(Meta, ROOFLINE_META_KEY_Pointer);
  K.Footprint = metaField(Meta, ROOFLINE_META_KEY_Footprint);
  R.Kernels.push_back(std::move(K));
  return int(R.Kernels.size() - 1);
}

extern "C" void __roofline_device_launch(int Id, const roofline_launch *L) {
  DeviceRegistry &R = deviceRegistry();
  std::lock_guard<std::mutex> Lock(R.M);
  if (Id < 0 || size_t(Id) >= R.Kernels.size())
    return;
  DeviceKernel &K = R.Kernels[size_t(Id)];
  const uint64_t *Slots = L->Counts + ROOFLINE_DEVICE_SLOTS;
  ++K.Launches;
  K.Threads += L->Counts[ROOFLINE_DEVICE_THREADS];
  K.Seconds += L->Seconds;
  for (unsigned S = 0; S < NumRunSlots; ++S)
    K.Slots[S] += Slots[S];
  if (R.Recorded >= R.RecordLimit) {
    ++K.Dropped;
    return;
  }
  ++R.Recorded;
  LaunchRecord Rec;
  std::memcpy(Rec.Grid, L->Grid, sizeof(Rec.Grid));
  std::memcpy(Rec.Block, L->Block, sizeof(Rec.Block));
  Rec.Stream = L->Stream;
  Rec.SharedBytes = L->SharedBytes;
  Rec.Start = L->Start;
  Rec.Seconds = L->Seconds;
  Rec.Threads = L->Counts[ROOFLINE_DEVICE_THREADS];
  Rec.Flops = flopsOf(Slots);
  Rec.Load = dramBytesOf(Slots, Access::Load);
  Rec.Store = dramBytesOf(Slots, Access::Store);
  Rec.FirstArg = uint32_t(K.Args.size());
  for (size_t A = 0; A < K.Params.size(); ++A)
    K.Args.push_back(A < L->NumArgs ? L->Args[A] : __builtin_nan(""));
  K.Records.push_back(Rec);
}

extern "C" void __roofline_device_trace(int Id, const uint32_t *Grid,
                                        const uint32_t *Block,
                                        const uint64_t *ArgBits) {
  DeviceRegistry &R = deviceRegistry();
  std::string Name;
  std::vector<std::string> Types;
  {
    std::lock_guard<std::mutex> Lock(R.M);
    if (Id < 0 || size_t(Id) >= R.Kernels.size())
      return;
    Name = R.Kernels[size_t(Id)].Name;
    for (const ParamText &P : R.Kernels[size_t(Id)].Params)
      Types.push_back(P.Type);
  }
  traceDeviceLaunch(Name, Types, ArgBits,
                    uint64_t(Grid[0]) * Grid[1] * Grid[2] * Block[0] *
                        Block[1] * Block[2]);
}

extern "C" void __roofline_set_device_drain(void (*Drain)(void)) {
  DeviceRegistry &R = deviceRegistry();
  std::lock_guard<std::mutex> L(R.M);
  R.Drain = Drain;
}
