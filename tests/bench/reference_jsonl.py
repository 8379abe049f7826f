#!/usr/bin/python3
"""A Python baseline for `lmct dump --jsonl`: a trace's records as JSON Lines, the short way.

Frame by frame: read the 4-byte big-endian length, decode the body, write one JSON object
(index, t_mono, t_wall, qualname, args) per line. Uses msgspec (LMCache's own codec library;
it writes bytes as base64) when it is importable, else msgpack + json (what Debian ships; bytes
as hex, as lmct writes them); the first line on standard error names the one that ran. Used by
bench_export.sh.

    /usr/bin/python3 tests/bench/reference_jsonl.py FILE OUT
"""
import struct
import sys


def frames(f):
    n0 = struct.unpack(">I", f.read(4))[0]
    f.read(n0)  # the header
    while True:
        prefix = f.read(4)
        if len(prefix) < 4:
            return
        yield f.read(struct.unpack(">I", prefix)[0])


def main(path, out_path):
    with open(path, "rb") as f, open(out_path, "wb") as out:
        try:
            import msgspec

            print("reference_jsonl: msgspec", msgspec.__version__, file=sys.stderr)
            decode = msgspec.msgpack.Decoder().decode
            encode = msgspec.json.Encoder().encode
            for i, body in enumerate(frames(f)):
                rec = decode(body)
                out.write(encode({"index": i, "t_mono": rec["t_mono"], "t_wall": rec["t_wall"],
                                  "qualname": rec["qualname"], "args": rec.get("args")}))
                out.write(b"\n")
        except ImportError:
            import json

            import msgpack

            print("reference_jsonl: msgpack", msgpack.version, "+ json", file=sys.stderr)
            dumps = json.JSONEncoder(default=lambda b: b.hex(), separators=(",", ":"),
                                     check_circular=False).encode
            for i, body in enumerate(frames(f)):
                rec = msgpack.unpackb(body, raw=False, strict_map_key=False)
                out.write(dumps({"index": i, "t_mono": rec["t_mono"], "t_wall": rec["t_wall"],
                                 "qualname": rec["qualname"], "args": rec.get("args")}).encode())
                out.write(b"\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
