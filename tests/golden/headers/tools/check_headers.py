#!/usr/bin/env python3
"""Read every fixture under tests/golden/headers back and print what an importer must find.

Usage (offline, stdlib only):
    python3 tests/golden/headers/tools/check_headers.py

For each .gguf: architecture, tensor count, parameter count (sum of the products of the shapes)
and tensor data bytes (sum of each tensor's size from its shape and its ggml type's block size).
For each .safetensors: the same from the JSON header (bytes from data_offsets).
It parses the files with its own reader, written from the formats' specifications, and checks
that every GGUF tensor offset is where gguf-py's writer would put it. Each line also gives the size
the file has with its tensor data ("B with its data"), the size the offline Hub server reports
when the published size is not known.

Then, for each JSON description, it compares the "expect" figures (tensor counts, parameter counts,
type counts, byte totals, published shard sizes: values stated by the fixture's sources, see
../SOURCES.md) with the files written, and checks that a model.safetensors.index.json names only
tensors its shards hold and that its total_size is their tensor data bytes. It exits 1 on any
difference.

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
from make_headers import GGML_TYPES, ST_DTYPES, build, load_descriptions, pad  # noqa: E402

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


def gguf_line(path, i):
    kv = i["kv"]
    split = ""
    if "split.count" in kv:
        split = f", split {kv['split.no'] + 1}/{kv['split.count']} of {kv['split.tensors.count']} tensors"
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} B, GGUF v{i['version']}, "
          f"arch {kv.get('general.architecture')}, {len(i['tensors'])} tensors, "
          f"{i['params']:,} params, {i['bytes']:,} tensor data bytes, "
          f"{i['data_start'] + i['data_size']:,} B with its data{split}")


def read_all(args):
    """Reads and prints every fixture file; returns {relative path: facts}."""
    facts, ok = {}, True
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT).as_posix()
        if path.suffix == ".gguf":
            i = read_gguf(path)
            gguf_line(path, i)
            if args.gguf_py:
                ok &= gguf_py_check(path, i, args.gguf_py)
            facts[rel] = {"tensors": len(i["tensors"]), "params": i["params"], "bytes": i["bytes"],
                          "full_size": i["data_start"] + i["data_size"], "kv": i["kv"],
                          "types": type_counts(t[2] for t in i["tensors"])}
        elif path.suffix == ".safetensors":
            i = read_safetensors(path)
            print(f"{rel}: {path.stat().st_size:,} B, safetensors, {len(i['tensors'])} tensors, "
                  f"{i['params']:,} params, {i['bytes']:,} tensor data bytes, "
                  f"{path.stat().st_size + i['bytes']:,} B with its data")
            facts[rel] = {"tensors": len(i["tensors"]), "params": i["params"], "bytes": i["bytes"],
                          "full_size": path.stat().st_size + i["bytes"], "names": set(i["tensors"])}
        elif path.name.endswith(".safetensors.index.json"):
            idx = json.loads(path.read_text())
            print(f"{rel}: index, {len(idx['weight_map'])} tensors, "
                  f"total_size {idx['metadata'].get('total_size'):,}")
            facts[rel] = {"index": idx}
    return facts, ok


def type_counts(type_ids):
    counts = {}
    for tid in type_ids:
        name = TYPE_BY_ID[tid][0]
        counts[name] = counts.get(name, 0) + 1
    return counts


def described_files(desc, by_id):
    """The relative paths a description writes, in order."""
    return list(build(desc, by_id))


def check_index(files, facts):
    """A sharded safetensors set: every weight_map entry is in the shard it names, total_size adds up."""
    problems = []
    for rel in files:
        if not rel.endswith(".safetensors.index.json"):
            continue
        idx, base = facts[rel]["index"], rel.rsplit("/", 1)[0] + "/"
        for name, shard in idx["weight_map"].items():
            if name not in facts.get(base + shard, {}).get("names", ()):
                problems.append(f"{name} is not in {shard}")
        shards = {base + s for s in idx["weight_map"].values()}
        total = sum(facts[s]["bytes"] for s in shards)
        if total != idx["metadata"]["total_size"]:
            problems.append(f"total_size {idx['metadata']['total_size']} != {total}")
    return problems


def check_expect(desc, files, facts):
    """Compares a description's "expect" (figures its sources state) with the written files."""
    exp, got = desc.get("expect", {}), [facts[f] for f in files if "tensors" in facts.get(f, {})]
    params = sum(g["params"] for g in got)
    checks = {
        "tensor_count": lambda v: v == sum(g["tensors"] for g in got),
        "params": lambda v: v == params,
        "params_sum": lambda v: v == params,
        "params_rounded_b": lambda v: v == round(params / 1e9, 2),
        "type_counts": lambda v: v == got[0]["types"],
        "log_model_size_mib": lambda v: v == round(got[0]["bytes"] / 2**20, 2),
        "total_size": lambda v: v == sum(g["bytes"] for g in got),
        "shards": lambda v: v == len(got),
        "shard_sizes": lambda v: all(facts[f]["full_size"] == v[f.rsplit("/", 1)[1]]
                                     for f in files if f.endswith(".safetensors")),
    }
    problems = [f"expect.{k} = {v}" for k, v in exp.items() if k in checks and not checks[k](v)]
    return problems + check_index(files, facts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gguf-py", type=Path, help="path of a gguf-py folder to cross-check with")
    args = ap.parse_args()
    facts, ok = read_all(args)
    descs, by_id = load_descriptions()
    for desc in descs:
        problems = check_expect(desc, described_files(desc, by_id), facts)
        print(f"{'ok  ' if not problems else 'FAIL'} {desc['id']}: "
              f"{'; '.join(problems) if problems else 'the figures its sources state'}")
        ok &= not problems
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
