# A decoder-shaped function: N chunks, each a data-dependent branch and a
# short loop over its own bytes, all in one function (as stb_image is once
# inlined): thousands of blocks, hundreds of loops.
import sys
n = int(sys.argv[1])
print("void decode(const unsigned char *in, float *out, int len) {")
print("  int p = 0;")
for i in range(n):
    print(f"  if (in[{i}] > {i % 251}) {{")
    print(f"    for (int k = 0; k < (in[{i + 1}] & 15); ++k) out[p + k] += {1.0 + i / 1000:.3f}f;")
    print(f"    p += {i % 7 + 1};")
    print("  } else {")
    print(f"    out[p] = {0.5 + i / 3000:.4f}f; p += 3;")
    print("  }")
print("}")
if len(sys.argv) > 2 and sys.argv[2] == "--main":
    print("int main(void) {")
    print(f"  static unsigned char in[{n + 2}]; static float out[{8 * n + 32}];")
    print(f"  for (int i = 0; i < {n + 2}; ++i) in[i] = (unsigned char)(i * 97 + 13);")
    print(f"  decode(in, out, {8 * n + 32});")
    print("  return 0;")
    print("}")
