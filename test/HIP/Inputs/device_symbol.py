"""Prints the bytes of a symbol of an AMDGPU code object (an ELF64 shared
object), up to its first NUL: the meta string the pass put there.

Usage: device_symbol.py CODE_OBJECT SYMBOL [--fatbin] > FILE
With --fatbin, CODE_OBJECT is a host object: its .hip_fatbin section's
offload bundle is searched for the first amdgcn code object.
"""
import struct
import sys


def sections(elf):
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    out = []
    for i in range(shnum):
        name, typ, _flags, addr, off, size, link = struct.unpack_from(
            "<IIQQQQI", elf, shoff + i * shentsize)
        out.append({"name": name, "type": typ, "addr": addr, "off": off,
                    "size": size, "link": link})
    names = out[shstrndx]
    for s in out:
        end = elf.index(b"\0", names["off"] + s["name"])
        s["name"] = elf[names["off"] + s["name"]:end].decode()
    return out


def code_object(host):
    """The first amdgcn code object in a host object's .hip_fatbin."""
    sec = next(s for s in sections(host) if s["name"] == ".hip_fatbin")
    bundle = host[sec["off"]:sec["off"] + sec["size"]]
    assert bundle.startswith(b"__CLANG_OFFLOAD_BUNDLE__"), "not an offload bundle"
    count, = struct.unpack_from("<Q", bundle, 24)
    pos = 32
    for _ in range(count):
        off, size, idlen = struct.unpack_from("<QQQ", bundle, pos)
        ident = bundle[pos + 24:pos + 24 + idlen].decode()
        pos += 24 + idlen
        if "amdgcn" in ident and size:
            return bundle[off:off + size]
    sys.exit("no amdgcn code object in the bundle")


def symbol_bytes(elf, name):
    secs = sections(elf)
    dynsym = next(s for s in secs if s["name"] == ".dynsym")
    strtab = secs[dynsym["link"]]
    for i in range(dynsym["size"] // 24):
        st_name, _info, _other, shndx, value, size = struct.unpack_from(
            "<IBBHQQ", elf, dynsym["off"] + i * 24)
        end = elf.index(b"\0", strtab["off"] + st_name)
        if elf[strtab["off"] + st_name:end].decode() == name:
            sec = secs[shndx]
            start = sec["off"] + value - sec["addr"]
            return elf[start:start + size]
    sys.exit("no symbol " + name)


def main():
    data = open(sys.argv[1], "rb").read()
    if "--fatbin" in sys.argv:
        data = code_object(data)
    raw = symbol_bytes(data, sys.argv[2])
    sys.stdout.buffer.write(raw.split(b"\0")[0])


if __name__ == "__main__":
    main()
