"""The map-and-array workload of ParleyDocBench, on the pycrdt (Yrs) side.

    python Benchmarks/map_array_pycrdt.py --generate FILE [--ops 100000] [--seed 1]
    python Benchmarks/map_array_pycrdt.py --apply FILE [--runs 3]

--generate: three pycrdt replicas make random edits (map sets of numbers, strings and small
objects under 1,000 keys, array inserts at random positions, array deletes), each edit one
transaction, exchanging updates every 50 edits so that edits are concurrent; every update is
written to FILE in the order a server would relay them (length-prefixed: 4 bytes big-endian,
then the update).
--apply: applies every update of FILE to a fresh pycrdt Doc and prints one JSON object: the
best and median time of the runs, the final sizes and the encoded state's size.
"""
import argparse
import json
import random
import statistics
import struct
import time

from pycrdt import Array, Doc, Map


def random_value(rng):
    roll = rng.random()
    if roll < 0.4:
        return rng.randint(-100_000, 100_000)
    if roll < 0.7:
        return f"value-{rng.randint(0, 1_000_000)}"
    if roll < 0.9:
        return {"n": rng.random(), "tag": rng.choice(["a", "b", "c"]), "ok": rng.random() < 0.5}
    return [rng.randint(0, 9) for _ in range(rng.randint(0, 4))]


def generate(path, ops, seed):
    rng = random.Random(seed)
    docs = [Doc(client_id=1000 + i) for i in range(3)]
    relayed = []
    pending = [[] for _ in docs]
    for index, doc in enumerate(docs):
        doc["map"] = Map()
        doc["array"] = Array()
        doc.observe(lambda event, index=index: pending[index].append(event.update))
    for op in range(ops):
        who = rng.randrange(len(docs))
        doc = docs[who]
        roll = rng.random()
        array = doc["array"]
        if roll < 0.5:
            doc["map"][f"k{rng.randrange(1000)}"] = random_value(rng)
        elif roll < 0.8 or len(array) == 0:
            array.insert(rng.randint(0, len(array)), random_value(rng))
        else:
            del array[rng.randrange(len(array))]
        if op % 50 == 49 or op == ops - 1:
            # Relay what each replica made to the others, as a server would; applying them
            # fires the observers too, and those are not new edits.
            batches = [list(updates) for updates in pending]
            for source, updates in enumerate(batches):
                for update in updates:
                    relayed.append(update)
                    for target, other in enumerate(docs):
                        if target != source:
                            other.apply_update(update)
            for updates in pending:
                updates.clear()
    with open(path, "wb") as f:
        for update in relayed:
            f.write(struct.pack(">I", len(update)))
            f.write(update)
    final = docs[0]
    print(json.dumps({"updates": len(relayed), "map_keys": len(final["map"]), "array_length": len(final["array"])}))


def read_updates(path):
    with open(path, "rb") as f:
        data = f.read()
    updates, offset = [], 0
    while offset < len(data):
        (length,) = struct.unpack_from(">I", data, offset)
        updates.append(data[offset + 4:offset + 4 + length])
        offset += 4 + length
    return updates


def apply(path, runs):
    updates = read_updates(path)
    times = []
    for _ in range(runs):
        doc = Doc()
        started = time.perf_counter()
        for update in updates:
            doc.apply_update(update)
        times.append((time.perf_counter() - started) * 1000)
    print(json.dumps({"updates": len(updates), "best_ms": min(times), "median_ms": statistics.median(times),
                      "map_keys": len(doc.get("map", type=Map)), "array_length": len(doc.get("array", type=Array)),
                      "encoded_bytes": len(doc.get_update())}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--generate")
    parser.add_argument("--apply")
    parser.add_argument("--ops", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if args.generate:
        generate(args.generate, args.ops, args.seed)
    if args.apply:
        apply(args.apply, args.runs)


if __name__ == "__main__":
    main()
