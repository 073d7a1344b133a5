"""Writes the CUDA launch-row edge cases of launch-rows.test into a folder.

Each case is one profile with one CUDA kernel, k(int n, float a, float* x),
whose "launches" (and "launch_columns") are written as raw text, so that
what a JSON library would not write (trailing commas, -0, 1e-400, numbers
beyond 64 bits, a cut-off file, keys given twice) can be. The report and
merge read these rows with their own reader (lib/Model/LaunchRows.cpp);
the test checks what they make of each.

    python3 launch_rows.py OUTDIR
"""
import json
import os
import sys

COLUMNS = ["grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z",
           "shared", "stream", "start", "seconds", "threads", "flops",
           "bytes_load", "bytes_store", "n", "a", "x"]

# The kernel's totals: 8 launches, of which 6 recorded (rows below) and 2
# not; 256 FLOPs, 1024 B loaded and 512 B stored per launch; the seconds
# are powers of two, so that their sums are exact.
KERNEL = {
    "name": "_Z1kifPf", "display_name": "k(int, float, float*)",
    "device": "cuda", "file": "/src/k.cu", "line": 3,
    "calls": 8, "seconds": 0.0078125, "threads": 1024,
    "flops": {"fp32": 2048, "total": 2048},
    "flop_classes": {"fp32": {"fma": 1024}},
    "bytes": {"load": 8192, "store": 4096,
              "global": {"load": 8192, "store": 4096}},
    "static": {"flops": "2", "bytes_load": "8", "bytes_store": "4",
               "exact": True, "per": "thread", "params": ["n", "a", "x"],
               "footprint": {"read": "4*n", "written": "4*n",
                             "exact": True}},
    "launches_not_recorded": 2,
}

# The recorded launches: the fixed columns, then n, a, x.
MIXED = """[
  [4,1,1,32,1,1,0,0,0.0,0.0009765625,128,256,1024,512,100,2.5,null],
  [4,1,1,32,1,1,0,1,0.1,0.001953125,128,256,1024,512,100,2.5,"s"],
  [4,1,1,32,1,1,0,0,0.2,0.00048828125,128,256,1024,512,-0,1e-400,[1,"]",2]],
  [2,1,1,64,1,1,16,0,0.3,0.0009765625,12345678901234567890,256,1024,512,64,18446744073709551616,{"a":"["}],
  [2,1,1,64,1,1,16,0,0.4,0.0009765625,128,256,1024,512,64,1.8446744073709552e19,null],
  [ 4 , 1 , 1 , 32 , 1 , 1 , 0 , 0 , 0.5 , 9.765625E-4 ,
    128 , 256 , 1024 , 512 , 100.0000000001 , 2.5 , null ]
]"""
ROW = "[4,1,1,32,1,1,0,0,0.0,0.0009765625,128,256,1024,512,100,2.5,null]"


def cols(names=COLUMNS):
    return json.dumps(names)


def profile(members):
    """The profile, with the kernel's last members given as raw text."""
    kernel = json.dumps(KERNEL, indent=1)
    kernel = kernel[:kernel.rindex("}")].rstrip() + ",\n " + ",\n ".join(
        '"%s": %s' % (k, v) for k, v in members) + "\n}"
    return ('{"schema": "roofline-profile", "version": 1, "pid": 1, '
            '"host": "h", "kernels": [\n' + kernel + "\n]}\n")


renamed = COLUMNS[:14] + ["m", "b", "y"]
CASES = {
    # Strings, nested values, -0, 1e-400, integers beyond 64 bits, spaces.
    "mixed": [("launch_columns", cols()), ("launches", MIXED)],
    # The rows before their columns.
    "before": [("launches", MIXED), ("launch_columns", cols())],
    # "launches" twice: the last one counts, as in any JSON object.
    "dupl": [("launch_columns", cols()), ("launches", "[%s]" % ROW),
             ("launches", "[%s]" % ROW.replace("[4,", "[8,", 1))],
    # launch_columns twice: the same, differently after the rows (an
    # error), differently both after the rows (the last one counts).
    "twice-same": [("launch_columns", cols()), ("launches", "[%s]" % ROW),
                   ("launch_columns", cols())],
    "twice-diff": [("launch_columns", cols()), ("launches", "[%s]" % ROW),
                   ("launch_columns", cols(renamed))],
    "twice-after": [("launches", "[%s]" % ROW), ("launch_columns", cols()),
                    ("launch_columns", cols(renamed))],
    # Not JSON: trailing commas, a leading zero, 1e999, a misspelt null,
    # the file cut off in a row.
    "comma-array": [("launch_columns", cols()), ("launches", "[%s,]" % ROW)],
    "comma-row": [("launch_columns", cols()),
                  ("launches", "[%s]" % ROW.replace("null]", "null,]"))],
    "leading-zero": [("launch_columns", cols()),
                     ("launches", "[%s]" % ROW.replace("[4,", "[04,", 1))],
    "huge": [("launch_columns", cols()),
             ("launches", "[%s]" % ROW.replace("0.0009765625", "1e999"))],
    "nul": [("launch_columns", cols()),
            ("launches", "[%s]" % ROW.replace("null", "nul"))],
    # JSON, but not launch rows.
    "bad-column": [("launch_columns", cols(["gx"] + COLUMNS[1:])),
                   ("launches", "[%s]" % ROW)],
    "negative": [("launch_columns", cols()),
                 ("launches", "[%s]" % ROW.replace(",0,0,0.0,", ",-1,0,0.0,"))],
    "zero-grid": [("launch_columns", cols()),
                  ("launches", "[%s]" % ROW.replace("[4,", "[0,", 1))],
    "zero-block": [("launch_columns", cols()),
                   ("launches", "[%s]" % ROW.replace(",32,", ",0,", 1))],
    "short-row": [("launch_columns", cols()),
                  ("launches", "[%s, [4,1,1]]" % ROW)],
    "string-row": [("launch_columns", cols()),
                   ("launches", '[%s, "x]"]' % ROW)],
    "true-seconds": [("launch_columns", cols()),
                     ("launches", "[%s]" % ROW.replace("0.0009765625", "true"))],
    # Not an array of rows: the kernel is one record, its totals.
    "object": [("launch_columns", cols()), ("launches", '{"a": [1]}')],
    "empty": [("launch_columns", cols()), ("launches", "[]")],
    # true and false as arguments: not numbers, so no argument.
    "bool-args": [("launch_columns", cols()),
                  ("launches", "[%s]" % ROW.replace("100,2.5,null",
                                                    "true,2.5,false"))],
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, members in CASES.items():
        with open(os.path.join(out, name + ".json"), "w") as f:
            f.write(profile(members))
    # The file cut off inside a row.
    text = profile(CASES["mixed"])
    with open(os.path.join(out, "cut.json"), "w") as f:
        f.write(text[:text.index("12345678901234567890") + 5])


if __name__ == "__main__":
    main()
