# Roofline's compiler and tool tests. Substitutions:
#   %roofline_plugin  the pass plugin (RooflinePass.so)
#   %opt_roofline     opt with the plugin loaded
#   %clangxx_roofline clang++-22 with the plugin in its pipeline
#   %cuda_device      clang++-22 compiling CUDA device code for sm_90
#   %roofline_audit   roofline-audit (fusion candidates in host code)
#   %hip_device       clang++-22 compiling HIP device code (add --offload-arch)
#   %hip_flags        the flags HIP needs on Debian 12 (docs/hip.md)
# Features: cuda (CUDA toolkit with ptxas present), gpu (a usable NVIDIA GPU),
# hip (HIP headers and ROCm device libraries present), hip-link (and lld-22,
# for whole HIP compiles).
import os
import shutil
import subprocess

import lit.formats

config.name = "Roofline"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".ll", ".c", ".cpp", ".cu", ".hip", ".test"]
config.excludes = ["Inputs", "Unit", "CMakeLists.txt", "lit.cfg.py", "README.md", "probe.test.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.roofline_obj_root, "test")

# A CPU profile without --platform is placed on this machine's probed roofs
# (cached under XDG_CACHE_HOME): the tests pin the datasheet platform so
# their output does not depend on the machine, except those that unset it.
config.environment["ROOFLINE_PLATFORM"] = "intel-xeon-8480"
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root, "xdg-cache")
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
for var in ("HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

plugin = config.roofline_plugin
config.substitutions.append(("%roofline_plugin", plugin))
config.substitutions.append(
    ("%opt_roofline", "opt -load-pass-plugin=%s" % plugin))
config.substitutions.append(
    ("%clangxx_roofline", "clang++ -fpass-plugin=%s" % plugin))
config.substitutions.append(("%clang_roofline", "clang -fpass-plugin=%s" % plugin))
cuda_flags = ("-x cuda --cuda-path=%s -Wno-unknown-cuda-version"
              % config.cuda_path)
config.substitutions.append(
    ("%cuda_device", "clang++ %s --cuda-device-only --cuda-gpu-arch=sm_90 -fpass-plugin=%s"
     % (cuda_flags, plugin)))
config.substitutions.append(("%cuda_flags", cuda_flags))
# HIP device code against Debian's ROCm 5.2 headers and device libraries
# (scripts/setup.sh installs them; docs/hip.md says why these flags).
hip_bitcode = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
hip_flags = ("-x hip --rocm-path=/usr --rocm-device-lib-path=%s "
             "-mcode-object-version=4 -D__AMDGCN_WAVEFRONT_SIZE=64 "
             "-Wno-unused-value" % hip_bitcode)
config.substitutions.append(("%hip_flags", hip_flags))
config.substitutions.append(
    ("%hip_device", "clang++ %s --cuda-device-only -S -o /dev/null "
     "-fpass-plugin=%s" % (hip_flags, plugin)))
if os.path.exists("/usr/include/hip/hip_runtime.h") and \
        os.path.exists(os.path.join(hip_bitcode, "ocml.bc")):
    config.available_features.add("hip")
    # A whole HIP compile links the device code object with lld-22.
    if os.path.exists("/usr/lib/llvm-22/bin/ld.lld"):
        config.available_features.add("hip-link")
config.substitutions.append(("%src_root", config.roofline_src_root))
config.substitutions.append(
    ("%roofline_report", os.path.join(config.roofline_obj_root, "bin", "roofline-report")))
config.substitutions.append(
    ("%platforms", os.path.join(config.roofline_src_root, "platforms")))

bindir = os.path.join(config.roofline_obj_root, "bin")
config.substitutions.append(("%roofline_incore", os.path.join(bindir, "roofline-incore")))
config.substitutions.append(("%roofline_clangxx", os.path.join(bindir, "roofline-clang++")))
config.substitutions.append(("%roofline_clang", os.path.join(bindir, "roofline-clang")))
config.substitutions.append(("%roofline_libdir", os.path.join(config.roofline_obj_root, "lib")))
config.substitutions.append(("%roofline_objroot", config.roofline_obj_root))
config.substitutions.append(("%roofline_probe", os.path.join(bindir, "roofline-probe")))
config.substitutions.append(("%roofline_audit", os.path.join(bindir, "roofline-audit")))
config.substitutions.append(("%fuzz", os.path.join(config.roofline_obj_root, "fuzz")))
import platform
if platform.machine() == "x86_64":
    config.available_features.add("x86_64")
if os.path.exists("/usr/lib/llvm-22/lib/libomp.so"):
    config.available_features.add("openmp")

# cachegrind: the reference the cache model is checked against.
if shutil.which("valgrind"):
    config.available_features.add("valgrind")

# Open MPI: mpicc and mpirun, for the test of MPI ranks.
if shutil.which("mpicc") and shutil.which("mpirun"):
    config.available_features.add("mpi")

chromium = shutil.which("chromium")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(
        ("%chromium", chromium + " --headless --no-sandbox --disable-gpu "
         "--disable-quic --no-first-run --disable-background-networking "
         "--disable-component-update --disable-sync"))

if os.path.exists(os.path.join(config.cuda_path, "bin", "ptxas")):
    config.available_features.add("cuda")
    config.environment["PATH"] += os.pathsep + os.path.join(config.cuda_path, "bin")


def have_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        return subprocess.run([smi, "-L"], capture_output=True,
                              timeout=20).returncode == 0
    except Exception:
        return False


# The ASan + UBSan build (scripts/sanitize.sh): the plugin and the runtime
# are sanitized, so every process that loads them gets the ASan runtime first.
if config.roofline_sanitize in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("asan")
    config.environment["LD_PRELOAD"] = subprocess.run(
        ["clang", "-print-file-name=libclang_rt.asan-x86_64.so"],
        capture_output=True, text=True, env=config.environment).stdout.strip()
    # Fatal signals are the programs' own (the fault tests expect them).
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=0:verify_asan_link_order=0:handle_segv=0:"
        "handle_sigbus=0:handle_sigfpe=0:handle_abort=0")
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"

if have_gpu():
    config.available_features.add("gpu")
else:
    lit_config.note("no NVIDIA GPU here: tests that need one are reported "
                    "UNSUPPORTED (skipped)")
