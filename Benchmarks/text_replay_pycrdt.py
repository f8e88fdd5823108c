"""Replays the automerge-paper editing trace through pycrdt (Yrs), one transaction per edit,
and prints replay time, memory growth, encoded size and load time (see ParleyTextBench).

    /work/venv/bin/python Benchmarks/text_replay_pycrdt.py [--trace PATH] [--json]

The trace is ASCII, so pycrdt's UTF-8 byte positions equal the trace's code-point positions.
"""
import argparse
import gzip
import json
import os
import sys
import time

from pycrdt import Doc, Text


def status_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return -1


def reset_peak():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def main():
    default = os.path.join(os.environ.get("PARLEY_TRACES_DIR", "../shared/data/editing-traces"),
                           "automerge-paper.json.gz")
    parser = argparse.ArgumentParser()
    parser.add_argument("--trace", default=default)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if not os.path.exists(args.trace):
        print(f"automerge-paper trace not found at {args.trace}: set PARLEY_TRACES_DIR", file=sys.stderr)
        sys.exit(2)
    with gzip.open(args.trace, "rt", encoding="utf-8") as f:
        trace = json.load(f)
    patches = [tuple(p) for txn in trace["txns"] for p in txn["patches"]]
    end = trace["endContent"]
    del trace

    reset_peak()
    rss_before = status_kb("VmRSS")
    doc = Doc(client_id=1)
    doc["text"] = text = Text()
    start = time.perf_counter()
    for pos, delete, insert in patches:
        if delete:
            del text[pos:pos + delete]
        if insert:
            text.insert(pos, insert)
    replay_s = time.perf_counter() - start
    memory_growth_mb = (status_kb("VmHWM") - rss_before) / 1024
    assert str(text) == end, "pycrdt replay does not give endContent"

    encoded = doc.get_update()
    start = time.perf_counter()
    loaded = Doc()
    loaded.apply_update(encoded)
    loaded["text"] = loaded_text = Text()
    load_s = time.perf_counter() - start
    assert str(loaded_text) == end

    result = {"edits": len(patches), "replay_s": replay_s, "memory_growth_mb": memory_growth_mb,
              "encoded_bytes": len(encoded), "load_s": load_s}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"pycrdt replay: {replay_s * 1000:.0f} ms for {len(patches)} edits")
        print(f"memory growth (peak RSS over baseline): {memory_growth_mb:.1f} MB")
        print(f"encoded final document: {len(encoded)} bytes")
        print(f"load (apply_update): {load_s * 1000:.2f} ms")


if __name__ == "__main__":
    main()
