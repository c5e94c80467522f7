#!/usr/bin/env python3
"""Read every fixture under tests/golden/headers back and print what an importer must find.

Usage (offline, stdlib only):
    python3 tests/golden/headers/tools/check_headers.py

For each .gguf: architecture, tensor count, parameter count (sum of the products of the shapes)
and tensor data bytes (sum of each tensor's size from its shape and its ggml type's block size).
For each .safetensors: the same from the JSON header (bytes from data_offsets).
It parses the files with its own reader, written from the formats' specifications, and checks
that every GGUF tensor offset is where gguf-py's writer would put it.

With --gguf-py DIR (a checkout's gguf-py folder, not part of this repository) it also reads each
GGUF with llama.cpp's GGUFReader: the header-only file is copied to a sparse temporary file
extended to its full size, because GGUFReader maps the tensor data too.
"""

import argparse
import json
import os
import shutil
import struct
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from make_headers import GGML_TYPES, ST_DTYPES, pad  # noqa: E402

TYPE_BY_ID = {v[0]: (k, v[1], v[2]) for k, v in GGML_TYPES.items()}
SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?",
           10: "<Q", 11: "<q", 12: "<d"}


class Reader:
    def __init__(self, data):
        self.d, self.p = data, 0

    def take(self, fmt):
        v = struct.unpack_from(fmt, self.d, self.p)
        self.p += struct.calcsize(fmt)
        return v[0] if len(v) == 1 else v

    def string(self):
        n = self.take("<Q")
        s = self.d[self.p:self.p + n].decode("utf-8")
        self.p += n
        return s

    def value(self, vt):
        if vt == 8:
            return self.string()
        if vt == 9:
            et, n = self.take("<I"), self.take("<Q")
            return [self.value(et) for _ in range(n)]
        return self.take(SCALARS[vt])


def read_gguf(path):
    r = Reader(path.read_bytes())
    assert r.d[:4] == b"GGUF", "bad magic"
    r.p = 4
    version, n_tensors, n_kv = r.take("<I"), r.take("<Q"), r.take("<Q")
    kv = {}
    for _ in range(n_kv):
        k = r.string()
        kv[k] = r.value(r.take("<I"))
    align = kv.get("general.alignment", 32)
    tensors = []
    for _ in range(n_tensors):
        name = r.string()
        nd = r.take("<I")
        shape = [r.take("<Q") for _ in range(nd)]
        tid, off = r.take("<I"), r.take("<Q")
        tensors.append((name, shape, tid, off))
    data_start = pad(r.p, align)
    assert len(r.d) == data_start, f"file is {len(r.d)} bytes, data section starts at {data_start}"
    expect, params, nbytes = 0, 0, 0
    for name, shape, tid, off in tensors:
        tname, blck, size = TYPE_BY_ID[tid]
        n = 1
        for x in shape:
            n *= x
        b = n // blck * size
        assert off == expect, f"{name}: offset {off}, expected {expect}"
        expect += pad(b, align)
        params += n
        nbytes += b
    return {"version": version, "kv": kv, "tensors": tensors, "params": params, "bytes": nbytes,
            "data_start": data_start, "data_size": expect}


def read_safetensors(path):
    d = path.read_bytes()
    n = struct.unpack_from("<Q", d, 0)[0]
    assert len(d) == 8 + n, "file holds more than the header"
    h = json.loads(d[8:8 + n])
    meta = h.pop("__metadata__", None)
    params, nbytes, end = 0, 0, 0
    for name, t in h.items():
        c = 1
        for x in t["shape"]:
            c *= x
        b0, b1 = t["data_offsets"]
        assert b1 - b0 == c * ST_DTYPES[t["dtype"]], name
        params += c
        nbytes += b1 - b0
        end = max(end, b1)
    assert end == nbytes, "data offsets leave gaps"
    return {"meta": meta, "tensors": h, "params": params, "bytes": nbytes}


def gguf_py_check(path, info, gguf_py):
    sys.path.insert(0, str(gguf_py))
    from gguf import GGUFReader  # noqa: E402
    with tempfile.TemporaryDirectory() as tmp:
        full = Path(tmp) / path.name
        shutil.copyfile(path, full)
        os.truncate(full, info["data_start"] + info["data_size"])
        rd = GGUFReader(full)
        arch = rd.fields["general.architecture"]
        arch = bytes(arch.parts[arch.data[0]]).decode()
        n = len(rd.tensors)
        b = sum(int(t.n_bytes) for t in rd.tensors)
        p = sum(int(t.n_elements) for t in rd.tensors)
        ok = (arch == info["kv"].get("general.architecture") and n == len(info["tensors"])
              and b == info["bytes"] and p == info["params"])
        print(f"    gguf-py GGUFReader: arch {arch}, {n} tensors, {p:,} params, {b:,} bytes "
              f"-> {'agrees' if ok else 'DISAGREES'}")
        return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gguf-py", type=Path, help="path of a gguf-py folder to cross-check with")
    args = ap.parse_args()
    ok = True
    for path in sorted(ROOT.rglob("*")):
        if path.suffix == ".gguf":
            i = read_gguf(path)
            kv = i["kv"]
            split = ""
            if "split.count" in kv:
                split = f", split {kv['split.no'] + 1}/{kv['split.count']}"
            print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} B, GGUF v{i['version']}, "
                  f"arch {kv.get('general.architecture')}, {len(i['tensors'])} tensors, "
                  f"{i['params']:,} params, {i['bytes']:,} tensor data bytes{split}")
            if args.gguf_py:
                ok &= gguf_py_check(path, i, args.gguf_py)
        elif path.suffix == ".safetensors":
            i = read_safetensors(path)
            print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} B, safetensors, "
                  f"{len(i['tensors'])} tensors, {i['params']:,} params, "
                  f"{i['bytes']:,} tensor data bytes")
        elif path.name.endswith(".safetensors.index.json"):
            idx = json.loads(path.read_text())
            print(f"{path.relative_to(ROOT)}: index, {len(idx['weight_map'])} tensors, "
                  f"total_size {idx['metadata'].get('total_size'):,}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
