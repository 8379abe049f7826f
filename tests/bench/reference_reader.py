#!/usr/bin/python3
"""A reference trace reader built the way LMCache's own reader works.

Frame by frame: read the 4-byte big-endian length, read the body, decode it with one
msgpack.unpackb() call (LMCache uses msgspec; Debian ships python3-msgpack), count records per
qualname and track the largest t_mono, like `lmcache trace info`. Used by bench_vs_reference.sh
to compare lmct's speed on the same file.

    /usr/bin/python3 tests/bench/reference_reader.py FILE
"""
import struct
import sys

import msgpack


def main(path):
    counts = {}
    duration = 0.0
    records = 0
    with open(path, "rb") as f:
        n0 = struct.unpack(">I", f.read(4))[0]
        header = msgpack.unpackb(f.read(n0), raw=False)
        while True:
            prefix = f.read(4)
            if len(prefix) < 4:
                break
            body = f.read(struct.unpack(">I", prefix)[0])
            rec = msgpack.unpackb(body, raw=False)
            q = rec["qualname"]
            counts[q] = counts.get(q, 0) + 1
            duration = max(duration, float(rec["t_mono"]))
            records += 1
    print("level", header.get("level"))
    print("total records", records)
    print("duration", duration)
    for q, n in sorted(counts.items()):
        print(n, q)


if __name__ == "__main__":
    main(sys.argv[1])
