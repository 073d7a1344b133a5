#!/usr/bin/env python3
"""What the CUDA and HIP device instrumentation adds to the code, without a GPU.

Usage (from the repository root, after scripts/build.sh):
    python3 bench/device_code.py [SOURCE.cu] [--arch sm_90]
    python3 bench/device_code.py --arch gfx90a [SOURCE.hip]
With a gfx target, SOURCE (default test/HIP/Inputs/launches.hip) is HIP,
compiled to gfx machine code (Debian's ROCm flags, docs/hip.md), and the
registers are the code object's VGPRs and SGPRs per kernel.
Compiles SOURCE (default test/CUDA/Inputs/launches.cu) for the device at -O2,
plain and with -roofline-instrument, and prints per kernel: PTX
instructions in all and inside loops (between a label and the branch back
to it), and the registers ptxas allocates (registers decide occupancy: at
most 32 per thread keep 2048 threads on an sm_90 SM). A static proxy: the
measured kernel-time overhead comes from scripts/gpu-check.sh on a GPU."""
import re
import subprocess
import sys

CLANG = "/usr/lib/llvm-22/bin/clang++"
PTXAS = "/usr/local/cuda/bin/ptxas"
PLUGIN = "build/lib/RooflinePass.so"


def compile_ptx(src, arch, instrumented):
    cmd = [CLANG, "-x", "cuda", "--cuda-path=/usr/local/cuda", "-Wno-unknown-cuda-version",
           "--cuda-device-only", "--cuda-gpu-arch=" + arch, "-O2", "-S", src, "-o", "-"]
    if instrumented:
        cmd[1:1] = ["-fpass-plugin=" + PLUGIN, "-mllvm", "-roofline-instrument"]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


HIP_FLAGS = ["-x", "hip", "--rocm-path=/usr",
             "--rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
             "-mcode-object-version=4",
             "-Wno-unused-value"]


def count_lines(body, comment, label, branch):
    """(instructions, instructions inside loops) of a function's text:
    lines that are not labels, directives or braces; a loop runs from a
    label to a branch back to it."""
    lines, labels = [], {}
    for l in body:
        l = l.split(comment)[0].strip()
        if re.match(label, l):
            labels[l[:-1]] = len(lines)
            continue
        if not l or l.startswith(".") or l in ("{", "}"):
            continue
        lines.append(l)
    in_loop = set()
    for i, l in enumerate(lines):
        b = re.search(branch, l)
        if b and b.group(1) in labels and labels[b.group(1)] <= i:
            in_loop.update(range(labels[b.group(1)], i + 1))
    return len(lines), len(in_loop)


def compile_gcn(src, arch, instrumented):
    wave = 32 if arch.startswith("gfx1") else 64  # RDNA's default wavefront
    cmd = [CLANG] + HIP_FLAGS + ["-D__AMDGCN_WAVEFRONT_SIZE=%d" % wave,
                                 "--cuda-device-only", "--offload-arch=" + arch,
                                 "-O2", "-S", src, "-o", "-"]
    if instrumented:
        cmd[1:1] = ["-fpass-plugin=" + PLUGIN, "-mllvm", "-roofline-instrument"]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def gcn_kernels(asm):
    """Per kernel: (instructions, instructions inside loops, "VGPRs/SGPRs")."""
    out = {}
    for m in re.finditer(r"^(_Z\w+):[^\n]*\n(.*?)^\.Lfunc_end", asm, re.M | re.S):
        name, body = m.group(1), m.group(2)
        n, loops = count_lines(body.split("\n"), ";", r"^[.\w]+:$",
                               r"^s_(?:cbranch_\w+|branch)\s+([.\w]+)")
        # The comments after the function: "; TotalNumSgprs: N", "; TotalNumVgprs: N".
        tail = asm[m.end():]
        v = re.search(r"; TotalNumSgprs: (\d+).*?; TotalNumVgprs: (\d+)", tail, re.S)
        out[name] = (n, loops, "%s/%s" % (v.group(2), v.group(1)) if v else "?")
    return out


def main_gcn(src, arch):
    plain, instr = gcn_kernels(compile_gcn(src, arch, False)), gcn_kernels(compile_gcn(src, arch, True))
    print("| kernel | %s instructions | in loops | VGPRs/SGPRs |" % arch)
    print("|---|---|---|---|")
    for k in plain:
        p, i = plain[k], instr.get(k, ("?", "?", "?"))
        print("| `%s` | %s -> %s | %s -> %s | %s -> %s |" % (k, p[0], i[0], p[1], i[1], p[2], i[2]))


def registers(ptx, arch):
    out = subprocess.run([PTXAS, "-arch=" + arch, "-v", "-", "-o", "/dev/null"],
                         input=ptx, capture_output=True, text=True).stderr
    regs, name = {}, None
    for line in out.splitlines():
        m = re.search(r"entry function '(\w+)'", line)
        if m:
            name = m.group(1)
        m = re.search(r"Used (\d+) registers", line)
        if m and name:
            regs[name] = int(m.group(1))
    return regs


def instructions(ptx):
    """Per entry: (all instructions, instructions inside loops)."""
    out = {}
    for chunk in ptx.split(".entry ")[1:]:
        name = chunk.split("(", 1)[0]
        body = chunk.split("// -- End function")[0].split("\n")
        out[name] = count_lines(body, "//", r"^\$?\w+:$", r"bra(?:\.uni)?\s+(\$?\w+);")
    return out


def main():
    args = sys.argv[1:]
    arch = "sm_90"
    if "--arch" in args:
        arch = args[args.index("--arch") + 1]
        del args[args.index("--arch"):args.index("--arch") + 2]
    if arch.startswith("gfx"):
        return main_gcn(args[0] if args else "test/HIP/Inputs/launches.hip", arch)
    src = args[0] if args else "test/CUDA/Inputs/launches.cu"
    plain, instr = compile_ptx(src, arch, False), compile_ptx(src, arch, True)
    ip, ii = instructions(plain), instructions(instr)
    rp, ri = registers(plain, arch), registers(instr, arch)
    print("| kernel | PTX instructions | in loops | registers (%s) |" % arch)
    print("|---|---|---|---|")
    for k in ip:
        print("| `%s` | %d -> %d | %d -> %d | %s -> %s |" % (
            k, ip[k][0], ii[k][0], ip[k][1], ii[k][1], rp.get(k, "?"), ri.get(k, "?")))


if __name__ == "__main__":
    main()
