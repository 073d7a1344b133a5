#!/usr/bin/env python3
"""Per-layer and whole-network counts of VGG16 / MobileNet-v1 from the plugin.

USAGE: layers.py REPORT OUTDIR     (scripts/examples.sh cnn runs it)

OUTDIR holds what scripts/examples.sh made: one static summary per fp32
layer kernel (KERNEL.json, compiled with -roofline-kernels), the forward
functions' summaries (nets.json: fp32, nets-int8.json: int8 storage), each
network's layer table (NET.layers, printed by `cnn layers NET`) and the
profiles of the instrumented runs (NET.profile.json).

Nothing here is a result constant. Every FLOP and byte is a formula of the
plugin evaluated at the layer's shapes, by roofline-report --assume (FLOPs,
counted bytes, bound, time) or, for the footprint of each pointer parameter
(summary `pointer_params[].footprint`, which the report does not evaluate),
by `evaluate` below: the note's weights + output maps are the layer
kernels' own footprints of their weights and output maps. Whole networks: the plugin's static count of each forward
function (the calls with their constant shapes, summed by the plugin).

Writes OUTDIR/nets-traffic.json and nets-int8-traffic.json: the forward
functions' entries with their bytes replaced by sums of their
pointer-parameter bytes (the note's weights + output maps, the footprint,
the Edge TPU's host-link traffic), so roofline-report charts them.
"""
import copy
import json
import os
import re
import subprocess
import sys

REPORT, OUT = sys.argv[1], sys.argv[2]
NETS = ("vgg16", "mobilenet")
GPU = "gtx1080ti"


def counted(k):
    """A report row's counted bytes in DRAM spaces (its "bytes" are the
    DRAM traffic of the roofline: the footprint)."""
    return k["bytes_load"] + k["bytes_store"]


def evaluate(formula, env):
    """A summary formula (integers, names, + - * / ^, parentheses) at env."""
    if not re.fullmatch(r"[0-9A-Za-z_ +\-*/^()]*", formula):
        raise ValueError("unexpected formula " + formula)
    return eval(formula.replace("^", "**"), {"__builtins__": {}}, dict(env))


def run(args):
    return subprocess.run([REPORT] + args, capture_output=True, text=True,
                          check=True).stdout


def report(args):
    # Every layer's kernel, pooling (no FLOPs) included.
    return json.loads(run(args + ["--format", "json", "--all-kernels"]))


def show(title, args):
    print("== %s ==" % title)
    print("$ roofline-report " + " ".join(
        os.path.basename(a) if a.endswith(".json") else a for a in args))
    print(run(args))


def si(x, unit=""):
    for p, s in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1, ""),
                 (1e-3, "m"), (1e-6, "u"), (1e-9, "n")):
        if abs(x) >= p:
            return "%.4g %s%s" % (x / p, s, unit)
    return "0 %s" % unit


def short(k):
    return re.sub(r"^void |\(.*", "", k["display_name"])


# ---- CUDA: `layers.py REPORT OUTDIR cuda` (scripts/examples.sh cnn-cuda) ------
# cnn.cu's kernels, one thread per output element: the plugin's per-thread
# formulas at the layer's shapes times the launch's threads (= outputs, by
# roofline-report --assume threads=N), beside cnn.cpp's per-call counts.
def cuda():
    src = json.load(open(os.path.join(OUT, "cuda.json")))
    cu = {short(k): k for k in src["kernels"]}
    for name, k in cu.items():  # one summary per kernel, for --assume
        json.dump(dict(src, kernels=[k]),
                  open(os.path.join(OUT, "cuda-%s.json" % name), "w"))
    print("== cnn.cu: the plugin's per-thread formulas (sm_90; FLOPs, global "
          "and shared bytes) ==")
    for name, k in cu.items():
        f, sp = k["formula"], k["formula"]["bytes_by_space"]
        print("%-14s FLOPs %-8s global load %-9s store %-3s%s" % (
            name, f["flops"], sp["global"]["load"], sp["global"]["store"],
            "  shared load %s, store %s" % (sp["shared"]["load"],
                                            sp["shared"]["store"])
            if "shared" in sp else ""))
    tile, co = (int(re.search(r"#define %s (\d+)" % d, open(os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "cnn.cu")).read()).group(1))
                for d in ("TILE", "CO"))
    print("\n(threads = output elements; tiled: (Cout/%d)*%d^2*ceil(M/%d)^2 "
          "threads load and compute, the Cout*M^2/%d inside the map store)\n"
          % (co, tile, tile, co))

    def at(kernel, env, threads):
        ps = cu[kernel]["formula"]["params"]
        a = ",".join("%s=%d" % (p, env[p]) for p in ps if p != "threads")
        return report([os.path.join(OUT, "cuda-%s.json" % kernel), "--platform",
                       GPU, "--assume", (a + "," if a else "") +
                       "threads=%d" % threads])["kernels"][0]

    nets = {short(k).replace("_forward", ""): k for k in
            json.load(open(os.path.join(OUT, "nets.json")))["kernels"]}
    entries = []
    for net in NETS:
        rows = [l.split() for l in open(os.path.join(OUT, net + ".layers"))]
        first = dict(kv.split("=") for kv in rows[0][2].split(","))
        res = int(first["P"]) - int(first["K"]) + 1
        rows.insert(0, ["image", "load_image", "R=%d" % res])
        print("== %s per layer: cnn.cpp (per call) and cnn.cu (per thread x "
              "threads); cnn.cu on %s ==" % (net, GPU))
        print("%-10s %-13s %8s | %9s %9s | %9s %9s %5s %6s %-7s %9s | %9s" % (
            "layer", "cuda kernel", "threads", "C++ FLOPs", "CUDA", "C++ B",
            "CUDA B", "x", "FLOP/B", "bound", "min time", "tiled B"))
        tot = dict(cf=0, gf=0, cb=0, gb=0, tb=0, t=0, st=0, tst=0, tf=0)
        classes = {}
        for name, kern, assume in rows:
            env = {kv.split("=")[0]: int(kv.split("=")[1])
                   for kv in assume.split(",")}
            cpp = report([os.path.join(OUT, kern + ".json"), "--platform", GPU,
                          "--assume", assume])["kernels"][0]
            out = {"conv2d": ("Cout", "M", "M"), "dwconv2d": ("C", "M", "M"),
                   "maxpool2": ("C", "M", "M"), "avgpool": ("C",),
                   "fc": ("Out",), "load_image": ("R", "R")}[kern]
            threads = 1
            for v in out:
                threads *= env[v]
            if kern == "load_image":
                threads *= 3
            ck = "pwconv2d" if kern == "conv2d" and env["K"] == 1 else kern
            g = at(ck, env, threads)
            for c, n in cu[ck]["formula"]["classes"].get("fp32", {}).items():
                classes[c] = classes.get(c, 0) + evaluate(n, env) * threads
            store = evaluate(cu[ck]["formula"]["bytes_store"], env) * threads
            tiled = ""
            if kern == "conv2d" and env["K"] == 3 and env["S"] == 1 and \
                    env["Cout"] % co == 0:
                gl = cu["conv3x3_tiled"]["formula"]["bytes_by_space"]["global"]
                launched = env["Cout"] // co * tile ** 2 * \
                    (-(-env["M"] // tile)) ** 2
                tst = evaluate(gl["store"], env) * threads // co
                tiled = evaluate(gl["load"], env) * launched + tst
                tot["tf"] += evaluate(cu["conv3x3_tiled"]["formula"]["flops"],
                                      env) * launched
                tot["tb"] += tiled
                tot["tst"] += tst
            else:
                tot["tb"] += counted(g)
                tot["tst"] += store
                tot["tf"] += g["flops"]
            print("%-10s %-13s %8d | %9s %9s | %9s %9s %5.3g %6.3g %-7s %9s | %9s"
                  % (name, ck, threads, si(cpp["flops"]),
                     "=" if g["flops"] == cpp["flops"] else si(g["flops"]),
                     si(counted(cpp), "B"), si(counted(g), "B"),
                     counted(g) / counted(cpp), g["intensity"] or float("inf"), g["bound"],
                     si(g["min_seconds"], "s"), si(tiled, "B") if tiled else ""))
            for key, v in (("cf", cpp["flops"]), ("gf", g["flops"]),
                           ("cb", counted(cpp)), ("gb", counted(g)),
                           ("t", g["min_seconds"]), ("st", store)):
                tot[key] += v
        print("%-10s %-13s %8s | %9s %9s | %9s %9s %5.3g %6.3g %-7s %9s | %9s\n"
              % ("sum", "", "", si(tot["cf"]), si(tot["gf"]),
                 si(tot["cb"], "B"), si(tot["gb"], "B"), tot["gb"] / tot["cb"],
                 tot["gf"] / tot["gb"], "", si(tot["t"], "s"),
                 si(tot["tb"], "B")))
        s = nets[net]
        sf, sb = s["flops"]["total"], s["bytes"]["load"] + s["bytes"]["store"]
        print("%s: C++ layers %d FLOPs, %d B; static %s_forward(): %d FLOPs, "
              "%d B: %s" % (net, tot["cf"], tot["cb"], net, sf, sb,
                            "equal" if (tot["cf"], tot["cb"]) == (sf, sb)
                            else "DIFFERENT"))
        print("%s: CUDA launches %d FLOPs (%s), %d B global (%.2fx the C++ "
              "bytes)" % (net, tot["gf"], "equal to C++" if tot["gf"] == sf
                          else "%d fewer than C++: avgpool's 1/HW is computed "
                          "on the host" % (sf - tot["gf"]), tot["gb"],
                          tot["gb"] / sb))
        if tot["tb"] != tot["gb"]:
            print("%s: with the tiled 3x3 convolutions %d B global (%.2fx the "
                  "C++ bytes); its launched threads execute %d FLOPs (%d more "
                  "than the outputs need: edge tiles)" % (
                      net, tot["tb"], tot["tb"] / sb, tot["tf"],
                      tot["tf"] - tot["gf"]))
        print()
        for label, b, st in (
                ("CUDA, thread per output", tot["gb"], tot["st"]),
                ("CUDA, tiled 3x3 convolutions", tot["tb"], tot["tst"])):
            if label.endswith("tiled 3x3 convolutions") and tot["tb"] == \
                    tot["gb"]:
                continue
            e = copy.deepcopy(cu["conv2d"])
            e["name"] = e["display_name"] = "%s: %s" % (net, label)
            e["per"] = "call"
            e["flops"] = dict(e["flops"], fp32=tot["gf"], total=tot["gf"])
            e["formula"].update(flops=str(tot["gf"]), params=[],
                                classes={"fp32": {c: str(n) for c, n in
                                                  classes.items()}},
                                bytes_load=str(b - st), bytes_store=str(st),
                                bytes_by_space={"global": {
                                    "load": str(b - st), "store": str(st)}})
            e["bytes"] = {"load": b - st, "store": st,
                          "global": {"load": b - st, "store": st}}
            e["assumptions"], e["loops"], e["pointer_params"] = [], [], []
            e.pop("footprint", None)  # these rows carry counted bytes
            entries.append(e)
    path = os.path.join(OUT, "cuda-nets.json")
    json.dump(dict(src, kernels=entries), open(path, "w"), indent=1)
    for plat in (GPU, "h100-sxm"):
        show("whole networks on %s: cnn.cpp's forward functions (counted "
             "bytes) and cnn.cu's launches summed" % plat,
             [os.path.join(OUT, "nets.json"), path, "--platform", plat])


if sys.argv[3:] == ["cuda"]:
    cuda()
    sys.exit(0)


# ---- per layer ---------------------------------------------------------------
def layer_traffic(kernel, env):
    """A layer kernel's weights read and output map written: their exact
    footprints (summary pointer_params[].footprint) at the layer's shapes."""
    w = maps = 0
    for p in kernel["pointer_params"]:
        f = p.get("footprint")
        key = "read" if p["name"] == "w" else "written"
        if evaluate(p["bytes_read" if key == "read" else "bytes_written"],
                    env) == 0:
            continue  # the input map: read, not written
        if not f or not f.get("exact"):
            raise SystemExit("layers.py: %s: no exact footprint of '%s'"
                             % (kernel["display_name"], p["name"]))
        if key == "read":
            w += evaluate(f["read"], env)
        else:
            maps += evaluate(f["written"], env)
    return w, maps


layer_totals = {}  # network -> (weights, output maps) from the layers
summary = {k: os.path.join(OUT, k + ".json")
           for k in ("conv2d", "dwconv2d", "maxpool2", "avgpool", "fc")}
for net in NETS:
    rows = [l.split() for l in open(os.path.join(OUT, net + ".layers"))]
    print("== %s per layer: the kernel's formulas at the layer's shapes; note's "
          "convention (MACs, weights + output map) on %s ==" % (net, GPU))
    print("%-10s %-8s %9s %10s %8s %-7s %9s | %9s %10s %7s" %
          ("layer", "kernel", "MACs", "w+out B", "MAC/B", "bound", "min time",
           "FLOPs", "counted B", "FLOP/B"))
    tot = dict(mac=0, flops=0, counted=0, note=0, time=0, w=0, maps=0)
    for name, kern, assume in rows:
        env = {kv.split("=")[0]: int(kv.split("=")[1])
               for kv in assume.split(",")}
        s = summary[kern]
        tool = report([s, "--platform", GPU, "--assume", assume])["kernels"][0]
        mac = report([s, "--platform", GPU, "--assume", assume,
                      "--convention", "mac"])["kernels"][0]["flops"]
        kernel = json.load(open(s))["kernels"][0]
        # The note's traffic: the kernel's own footprints (each byte once)
        # of its weights (read) and its output map (written).
        w, maps = layer_traffic(kernel, env)
        note = w + maps
        calc = report(["--platform", GPU, "--convention", "mac",
                       "--flops", str(mac), "--bytes", str(note)])
        print("%-10s %-8s %9s %10s %8.3g %-7s %9s | %9s %10s %7.3g" %
              (name, kern, si(mac), si(note, "B"), mac / note, calc["bound"],
               si(calc["min_seconds"], "s"), si(tool["flops"]),
               si(counted(tool), "B"), tool["intensity"]))
        for key, v in (("mac", mac), ("flops", tool["flops"]),
                       ("counted", counted(tool)), ("note", note),
                       ("time", calc["min_seconds"]), ("w", w),
                       ("maps", maps)):
            tot[key] += v
    print("%-10s %-8s %9s %10s %8.3g %-7s %9s | %9s %10s %7.3g\n" %
          ("sum", "", si(tot["mac"]), si(tot["note"], "B"),
           tot["mac"] / tot["note"], "", si(tot["time"], "s"),
           si(tot["flops"]), si(tot["counted"], "B"),
           tot["flops"] / tot["counted"]))
    layer_totals[net] = (tot["w"], tot["maps"])

# ---- the run against the static totals ---------------------------------------
nets = json.load(open(os.path.join(OUT, "nets.json")))
static = {short(k).replace("_forward", ""): k for k in nets["kernels"]}
for net in NETS:
    prof = os.path.join(OUT, net + ".profile.json")
    if not os.path.exists(prof):
        continue
    ks = json.load(open(prof))["kernels"]
    fl = sum(k["flops"]["total"] for k in ks)
    by = sum(k["bytes"]["load"] + k["bytes"]["store"] for k in ks)
    s = static[net]
    sf, sb = s["flops"]["total"], s["bytes"]["load"] + s["bytes"]["store"]
    print("run of %s: %d FLOPs, %d B in %d kernel calls; static %s_forward(): "
          "%d FLOPs, %d B: %s" %
          (net, fl, by, sum(k["calls"] for k in ks), net, sf, sb,
           "equal" if (fl, by) == (sf, sb) else "DIFFERENT"))
print()


# ---- whole networks: pointer-parameter traffic --------------------------------
def traffic(k):
    t = {p["name"]: (int(p["bytes_read"]), int(p["bytes_written"]))
         for p in k["pointer_params"]}
    maps = t["act"][1] + t["logits"][1]
    net = short(k).replace("_forward", "").replace("_int8", "")
    w, layer_maps = layer_totals.get(net, (t["weights"][0], maps))
    if "int8" not in short(k) and (w, layer_maps) != (
            t["weights"][0], maps):
        raise SystemExit("layers.py: %s: the layers' footprints (%d B of "
                         "weights, %d B of maps) differ from the forward "
                         "function's pointer bytes (%d, %d)" % (
                             short(k), w, layer_maps, t["weights"][0], maps))
    return {
        # The note's: fp32 weights + output maps (the padded copy of the
        # image is not an output map), the sum of the layer kernels' own
        # footprints at the layers' shapes (checked above against the bytes
        # through the forward function's pointers).
        "weights + output maps": (w, layer_maps),
        # Every buffer once: image, its padded copy, weights, maps.
        "footprint": (t["image"][0] + t["weights"][0],
                      t["padded"][1] + maps),
        # An accelerator holding weights and maps on chip moves only the
        # image in and the logits out (the Edge TPU when the model fits its
        # 8 MB; see platforms/edge-tpu.json).
        "host link, weights on chip": (t["image"][0], t["logits"][1]),
        # ... and when the weights do not fit, they stream in too.
        "host link, weights streamed": (t["image"][0] + t["weights"][0],
                                        t["logits"][1]),
    }, t


def derive(summary_path, out_path, labels):
    src = json.load(open(summary_path))
    out = {"schema": src["schema"], "version": src["version"], "kernels": []}
    for k in src["kernels"]:
        tr, t = traffic(k)
        if "int8" not in short(k):
            net = short(k).replace("_forward", "")
            print("%s: weights + output maps from the layers' footprints: "
                  "%d + %d B; through the forward function's pointers: %d + "
                  "%d B: equal" % (net, layer_totals[net][0],
                                   layer_totals[net][1], t["weights"][0],
                                   t["act"][1] + t["logits"][1]))
        print("%-24s FLOPs %9s  counted %9s | image rd %8s  weights rd %9s  "
              "padded wr %8s  maps wr %9s  logits wr %6s" %
              (short(k), si(k["flops"]["total"]),
               si(k["bytes"]["load"] + k["bytes"]["store"], "B"),
               si(t["image"][0], "B"), si(t["weights"][0], "B"),
               si(t["padded"][1], "B"), si(t["act"][1], "B"),
               si(t["logits"][1], "B")))
        for label in labels:
            load, store = tr[label]
            e = copy.deepcopy(k)
            e.pop("footprint", None)  # the traffic model replaces it
            e["name"] = e["display_name"] = "%s: %s" % (short(k), label)
            e["bytes"] = {"load": load, "store": store,
                          "memory": {"load": load, "store": store}}
            e["formula"]["bytes_load"] = str(load)
            e["formula"]["bytes_store"] = str(store)
            e["formula"]["bytes_by_space"] = {
                "memory": {"load": str(load), "store": str(store)}}
            out["kernels"].append(e)
    json.dump(out, open(out_path, "w"), indent=1)
    # One file per traffic model too, for charts with one point per network.
    for label in labels:
        one = dict(out, kernels=[k for k in out["kernels"]
                                 if k["name"].endswith(": " + label)])
        json.dump(one, open(out_path.replace(
            "traffic", label.replace(" ", "-").replace(",", "")
            .replace("+-", "")), "w"), indent=1)
    print()


print("== whole networks: the forward functions' static counts and the bytes "
      "through each pointer parameter ==")
nets_json = os.path.join(OUT, "nets.json")
traffic_json = os.path.join(OUT, "nets-traffic.json")
derive(nets_json, traffic_json, ("weights + output maps", "footprint"))
int8_json = os.path.join(OUT, "nets-int8.json")
int8_traffic_json = os.path.join(OUT, "nets-int8-traffic.json")
derive(int8_json, int8_traffic_json,
       ("footprint", "host link, weights on chip", "host link, weights streamed"))

macs = {short(k): k["flops"] for k in report(
    [nets_json, "--platform", GPU, "--convention", "mac"])["kernels"]}


def ratio(kernels, what):
    """How much faster MobileNet is than VGG16 at the roofline's bound."""
    t = {short(k).split("_")[0]: k["min_seconds"] for k in kernels
         if what in k["display_name"]}
    print("%s: VGG16 / MobileNet minimum time %.1fx (MACs %.1fx)" %
          (what, t["vgg16"] / t["mobilenet"],
           macs["vgg16_forward"] / macs["mobilenet_forward"]))


# A: what the note does: MACs as "FLOPs" against the FMA-quoted 11.3 TFLOP/s.
print("== the note's numbers as the note computes them: MACs and fp32 weights"
      " + output maps, against the 11.3 TFLOP/s roof ==")
ks = []
for k in json.load(open(traffic_json))["kernels"]:
    if "output maps" not in k["name"]:
        continue
    n = short(k).split(":")[0]
    args = ["--platform", GPU, "--flops", str(macs[n]),
            "--bytes", str(k["bytes"]["load"] + k["bytes"]["store"])]
    print("$ roofline-report " + " ".join(args) + "    # " + n)
    print(run(args))
    ks.append(dict(report(args), display_name=n))
ratio(ks, "forward")
print()

# B: the same traffic with consistent units (--convention mac halves the roof).
args = [traffic_json, "--platform", GPU, "--convention", "mac"]
show("the note's convention with consistent units (one MAC = one operation, "
     "FMA-quoted peak halved)", args)
ratio(report(args)["kernels"], "output maps")
print()

# C: the tool's convention: FMA = 2 FLOPs, counted bytes and footprint.
args = [nets_json, traffic_json, "--platform", GPU]
show("the tool's convention: FMA = 2 FLOPs; counted bytes (every load and "
     "store of the kernels), weights + output maps, footprint", args)
for what in ("forward(", "footprint"):
    ratio(report(args)["kernels"], what)
print()

# D: edge platforms.
show("on jetson-agx-orin (fp32)",
     [nets_json, traffic_json, "--platform", "jetson-agx-orin"])
show("on edge-tpu (int8 storage; the fp32 FLOPs are the MACs the int8 units do)",
     [int8_json, int8_traffic_json, "--platform", "edge-tpu"])
