#!/usr/bin/env python3
"""Write the header-only GGUF and safetensors fixtures from the JSON descriptions beside this script.

Usage (from anywhere, offline, stdlib only):
    python3 tests/golden/headers/tools/make_headers.py            # write every fixture
    python3 tests/golden/headers/tools/make_headers.py --check    # fail if a written file differs

Every value comes from the JSON descriptions (`*.json` in this folder); their sources are cited in
../SOURCES.md. This script only lays the bytes out, by the formats' own rules:

GGUF (version 3, little endian; ggml's docs/gguf.md):
    magic "GGUF", u32 version, u64 tensor_count, u64 kv_count,
    kv_count x (string key, u32 value type, value),
    tensor_count x (string name, u32 n_dims, n_dims x u64 ne, u32 ggml type, u64 offset),
    zero padding to `general.alignment` (32 when the key is absent).
    A string is u64 length + UTF-8 bytes; an array is u32 element type + u64 count + elements.
    Tensor offsets are relative to the start of the data section and are laid out as gguf-py's
    GGUFWriter lays them out: in tensor-info order, each tensor's size rounded up to the alignment.
    The file stops at the start of the data section: no tensor data is written.

A description with "split_of" (the id of another description) writes that description's GGUF as
llama.cpp's gguf-split --split writes it (tools/gguf-split/gguf-split.cpp): "split_max_tensors"
tensors per file in the source's order, files named <split_prefix>-0000i-of-0000n.gguf. The first
file keeps every key of the source and then gets split.no (u16), split.tensors.count (i32) and
split.count (u16), in the order gguf_set_val_* leaves them (each call removes the key and appends
it; split.count is set last); the other files hold those three keys only.

safetensors (the format's README): u64 little-endian N, then N bytes of UTF-8 JSON
    {"__metadata__": {...}, name: {"dtype", "shape", "data_offsets": [begin, end]}, ...}.
    Offsets are relative to the byte after the header; tensors are laid out in the order the
    safetensors library serialises them (by dtype size, larger first, then by name). The header
    is padded with spaces to a multiple of 8 bytes, as the library does. No tensor data is written.
"""

import argparse
import json
import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent  # tests/golden/headers

# ggml type ids and (block size in elements, bytes per block), as ggml's ggml.h / ggml.c
# type_traits and gguf-py's GGML_QUANT_SIZES state them.
GGML_TYPES = {
    "F32": (0, 1, 4), "F16": (1, 1, 2), "Q4_0": (2, 32, 18), "Q4_1": (3, 32, 20),
    "Q5_0": (6, 32, 22), "Q5_1": (7, 32, 24), "Q8_0": (8, 32, 34), "Q8_1": (9, 32, 36),
    "Q2_K": (10, 256, 84), "Q3_K": (11, 256, 110), "Q4_K": (12, 256, 144),
    "Q5_K": (13, 256, 176), "Q6_K": (14, 256, 210), "Q8_K": (15, 256, 292),
    "IQ2_XXS": (16, 256, 66), "IQ2_XS": (17, 256, 74), "IQ3_XXS": (18, 256, 98),
    "IQ1_S": (19, 256, 50), "IQ4_NL": (20, 32, 18), "IQ3_S": (21, 256, 110),
    "IQ2_S": (22, 256, 82), "IQ4_XS": (23, 256, 136), "I8": (24, 1, 1), "I16": (25, 1, 2),
    "I32": (26, 1, 4), "I64": (27, 1, 8), "F64": (28, 1, 8), "IQ1_M": (29, 256, 56),
    "BF16": (30, 1, 2), "TQ1_0": (34, 256, 54), "TQ2_0": (35, 256, 66), "MXFP4": (39, 32, 17),
}

# GGUF metadata value types (ggml docs/gguf.md, gguf_type).
GGUF_VT = {
    "uint8": (0, "<B"), "int8": (1, "<b"), "uint16": (2, "<H"), "int16": (3, "<h"),
    "uint32": (4, "<I"), "int32": (5, "<i"), "float32": (6, "<f"), "bool": (7, "<?"),
    "string": (8, None), "array": (9, None), "uint64": (10, "<Q"), "int64": (11, "<q"),
    "float64": (12, "<d"),
}

# safetensors dtypes and their sizes in bytes (safetensors README).
ST_DTYPES = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "I16": 2, "U16": 2,
             "F16": 2, "BF16": 2, "I32": 4, "U32": 4, "F32": 4, "I64": 8, "U64": 8, "F64": 8}


def ggml_nbytes(type_name, shape):
    _, blck, size = GGML_TYPES[type_name]
    n = 1
    for d in shape:
        n *= d
    if shape[0] % blck:
        raise ValueError(f"row of {shape[0]} is not a multiple of {type_name}'s block {blck}")
    return n // blck * size


def pad(n, align):
    return (n + align - 1) // align * align


def gguf_string(s):
    b = s.encode("utf-8")
    return struct.pack("<Q", len(b)) + b


def gguf_scalar(vtype, value):
    if vtype == "string":
        return gguf_string(value)
    return struct.pack(GGUF_VT[vtype][1], value)


def gguf_kv(entry):
    key, vtype, value = entry["key"], entry["type"], entry["value"]
    out = gguf_string(key)
    if vtype.startswith("array:"):
        etype = vtype.split(":", 1)[1]
        out += struct.pack("<I", GGUF_VT["array"][0])
        out += struct.pack("<IQ", GGUF_VT[etype][0], len(value))
        for v in value:
            out += gguf_scalar(etype, v)
    else:
        out += struct.pack("<I", GGUF_VT[vtype][0]) + gguf_scalar(vtype, value)
    return out


def gguf_bytes(f):
    align = f.get("alignment", 32)
    kvs = f["metadata"]
    tensors = f["tensors"]
    out = b"GGUF" + struct.pack("<IQQ", f.get("gguf_version", 3), len(tensors), len(kvs))
    for kv in kvs:
        out += gguf_kv(kv)
    offset = 0
    for t in tensors:
        _, _, _ = GGML_TYPES[t["type"]]
        out += gguf_string(t["name"])
        out += struct.pack("<I", len(t["shape"]))
        for d in t["shape"]:
            out += struct.pack("<Q", d)
        out += struct.pack("<IQ", GGML_TYPES[t["type"]][0], offset)
        offset += pad(ggml_nbytes(t["type"], t["shape"]), align)
    out += b"\x00" * (pad(len(out), align) - len(out))
    return out


def split_kvs(i, n_files, n_tensors):
    return [{"key": "split.no", "type": "uint16", "value": i},
            {"key": "split.tensors.count", "type": "int32", "value": n_tensors},
            {"key": "split.count", "type": "uint16", "value": n_files}]


def gguf_split(desc, source):
    """The files gguf-split writes from the source description's single GGUF file."""
    src = source["files"][0]
    per = desc["split_max_tensors"]
    groups = [src["tensors"][i:i + per] for i in range(0, len(src["tensors"]), per)]
    files = {}
    for i, group in enumerate(groups):
        meta = (list(src["metadata"]) if i == 0 else []) + split_kvs(i, len(groups), len(src["tensors"]))
        path = f"{desc['split_prefix']}-{i + 1:05d}-of-{len(groups):05d}.gguf"
        files[path] = gguf_bytes({**src, "metadata": meta, "tensors": group})
    return files


def safetensors_bytes(f):
    tensors = f["tensors"]
    order = sorted(tensors, key=lambda t: (-ST_DTYPES[t["dtype"]], t["name"]))
    header = {}
    if "metadata" in f:
        header["__metadata__"] = f["metadata"]
    offset = 0
    entries = {}
    for t in order:
        n = ST_DTYPES[t["dtype"]]
        for d in t["shape"]:
            n *= d
        entries[t["name"]] = {"dtype": t["dtype"], "shape": t["shape"],
                              "data_offsets": [offset, offset + n]}
        offset += n
    for name in sorted(entries):
        header[name] = entries[name]
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (pad(len(text), 8) - len(text))
    return struct.pack("<Q", len(text)) + text


def build(desc, by_id=None):
    if "split_of" in desc:
        return gguf_split(desc, by_id[desc["split_of"]])
    files = {}
    for f in desc["files"]:
        if f.get("format", desc["format"]) == "gguf":
            files[f["path"]] = gguf_bytes(f)
        elif f.get("format", desc["format"]) == "safetensors":
            files[f["path"]] = safetensors_bytes(f)
        elif f.get("format") == "json":
            files[f["path"]] = (json.dumps(f["content"], indent=2, ensure_ascii=False) + "\n").encode()
        else:
            raise ValueError(f"unknown format in {desc['id']}")
    return files


def load_descriptions():
    descs = [json.loads(jf.read_text(encoding="utf-8")) for jf in sorted(HERE.glob("*.json"))]
    return descs, {d["id"]: d for d in descs}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    args = ap.parse_args()
    bad = 0
    descs, by_id = load_descriptions()
    for desc in descs:
        for rel, data in build(desc, by_id).items():
            path = ROOT / rel
            if args.check:
                same = path.exists() and path.read_bytes() == data
                print(f"{'ok  ' if same else 'DIFF'} {rel}")
                bad += not same
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
                print(f"wrote {rel} ({len(data):,} bytes)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
