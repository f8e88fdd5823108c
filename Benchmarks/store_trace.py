#!/usr/bin/env python3
"""Reads the SQLite store's timeline (the file PARLEY_STORE_TRACE named, see
Sources/ParleyStore/Statistics/StoreTrace.swift) and, optionally, the slow-fsync shim's log of every
fsync/fdatasync (SLOW_FSYNC_LOG, see Benchmarks/c/slow_fsync.c), and prints:

- a summary: commits, operations, the log syncer's fsyncs, fsyncs the writer made itself inside
  COMMIT, background checkpoint passes, the writer's own checkpoints, log restarts;
- the worst stalls: the commits whose oldest operation waited longest from being queued to
  being answered, split into where the time went, with what overlapped them as the cause;
- with --window, the raw timeline around the worst stall.

    Benchmarks/store_trace.py TRACE [--fsync-log FILE] [--from-ns N --to-ns N] [--worst 10] [--window 1]
"""
import argparse
import bisect
import collections
import sys


def read_trace(path, start=None, end=None):
    events = []
    with open(path) as handle:
        for line in handle:
            parts = line.split()
            if len(parts) != 4:
                continue
            at = int(parts[0])
            if (start is not None and at < start) or (end is not None and at > end):
                continue
            events.append((at, parts[1], int(parts[2]), int(parts[3])))
    events.sort(key=lambda event: event[0])
    return events


def read_fsync_log(path, start=None, end=None):
    calls = []
    with open(path) as handle:
        for line in handle:
            parts = line.split()
            if len(parts) < 4:
                continue
            begin, finish = int(parts[0]), int(parts[1])
            if (start is not None and finish < start) or (end is not None and begin > end):
                continue
            calls.append((begin, finish, parts[3], parts[4] if len(parts) > 4 else "?"))
    calls.sort()
    return calls


def ms(ns):
    return ns / 1e6


def quantile(values, q):
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.999999) - 1))]


class Commit:
    def __init__(self, ident):
        self.id = ident
        self.oldest = None      # when its oldest operation was queued
        self.taken = None       # when the writer took its first operations
        self.operations = 0
        self.commit = None      # COMMIT started
        self.committed = None   # COMMIT returned
        self.writer_syncs = 0   # log fsyncs inside COMMIT (a log restart's header)
        self.sync_begin = None  # the syncer's fsync that covered it
        self.sync_end = None
        self.answered = None


def intervals(events, begin_kind, end_kind):
    """Pairs of (start, end, begin_a, end_a) for a begin/end event kind on one thread."""
    spans, open_at = [], None
    for at, kind, a, b in events:
        if kind == begin_kind:
            open_at = (at, a)
        elif kind == end_kind and open_at is not None:
            spans.append((open_at[0], at, open_at[1], a))
            open_at = None
    return spans


def build_commits(events):
    commits = {}
    pending_take = None
    syncs = []  # (begin, end, up_to)
    sync_open = None
    answered = []  # (at, up_to)
    for at, kind, a, b in events:
        if kind == "take":
            pending_take = (at, b, a)
        elif kind == "join" and pending_take is not None:
            pending_take = (pending_take[0], pending_take[1], pending_take[2] + a)
        elif kind == "commit":
            commit = commits.setdefault(a, Commit(a))
            commit.commit = at
            commit.operations = b
            if pending_take is not None:
                commit.taken, commit.oldest = pending_take[0], pending_take[1]
            pending_take = None
        elif kind == "committed" and a in commits:
            commits[a].committed = at
            commits[a].writer_syncs = b
        elif kind == "sync-begin":
            sync_open = (at, a)
        elif kind == "sync-end" and sync_open is not None:
            syncs.append((sync_open[0], at, sync_open[1]))
            sync_open = None
        elif kind == "answered":
            answered.append((at, a))
    # Each commit is covered by the first fsync whose range reaches it, answered right after.
    ordered = sorted(commits.values(), key=lambda commit: commit.id)
    sync_index = answer_index = 0
    for commit in ordered:
        while sync_index < len(syncs) and syncs[sync_index][2] < commit.id:
            sync_index += 1
        if sync_index < len(syncs):
            commit.sync_begin, commit.sync_end = syncs[sync_index][0], syncs[sync_index][1]
        while answer_index < len(answered) and answered[answer_index][1] < commit.id:
            answer_index += 1
        if answer_index < len(answered):
            commit.answered = answered[answer_index][0]
    return ordered, syncs


def overlapping(spans, start, end):
    return [span for span in spans if span[0] < end and span[1] > start]


def describe(commit, spans, fsyncs, syncs):
    """Where the commit's oldest operation spent its time, and what overlapped that."""
    parts = []
    def part(name, begin, finish):
        if begin is not None and finish is not None and finish >= begin:
            parts.append((name, finish - begin))
    part("queued until taken", commit.oldest, commit.taken)
    part("run, waiting for the syncer", commit.taken, commit.commit)
    part("COMMIT", commit.commit, commit.committed)
    part("waiting for an fsync in flight", commit.committed, commit.sync_begin)
    part("own fsync", commit.sync_begin, commit.sync_end)
    part("answering", commit.sync_end, commit.answered)
    window = (commit.oldest or commit.taken, commit.answered)
    causes = []
    for name, found in spans.items():
        for begin, finish, a, _ in overlapping(found, *window):
            causes.append(f"{name} {ms(finish - begin):.1f} ms" + (f" ({a} frames)" if name.startswith("writer") else ""))
    if commit.writer_syncs:
        causes.append(f"{commit.writer_syncs} log fsync(s) inside COMMIT (log restart header)")
    earlier = [s for s in syncs if s[0] < window[1] and s[1] > window[0]]
    if len(earlier) > 1:
        causes.append(f"{len(earlier)} log fsyncs of the syncer in the window")
    if fsyncs:
        by_thread = collections.Counter(name for begin, finish, kind, name in fsyncs
                                        if begin < window[1] and finish > window[0])
        if by_thread:
            causes.append("fsync calls in the window by thread: " + ", ".join(f"{n} {c}" for n, c in by_thread.most_common()))
    return parts, causes


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace")
    parser.add_argument("--fsync-log")
    parser.add_argument("--from-ns", type=int)
    parser.add_argument("--to-ns", type=int)
    parser.add_argument("--worst", type=int, default=8)
    parser.add_argument("--window", type=float, default=0, help="print the timeline +- this many ms around the worst stall")
    parser.add_argument("--restart", type=int, default=0,
                        help="print the timeline of the Nth log restart: from the writer's copy before it to the answers after it")
    options = parser.parse_args()

    events = read_trace(options.trace, options.from_ns, options.to_ns)
    if not events:
        print("store trace: no events")
        return
    fsyncs = read_fsync_log(options.fsync_log, options.from_ns, options.to_ns) if options.fsync_log else []
    commits, syncs = build_commits(events)
    counts = collections.Counter(kind for _, kind, _, _ in events)
    duration = events[-1][0] - events[0][0]
    spans = {
        "writer catch-up checkpoint": intervals(events, "catchup-begin", "catchup-end"),
        "writer limit checkpoint": intervals(events, "limit-begin", "limit-end"),
        "background pass": intervals(events, "pass-begin", "pass-end"),
        "writer COMMIT held for the file fsync": intervals(events, "hold-begin", "hold-end"),
        "file fsync before a restart (checkpointer)": intervals(events, "file-sync-begin", "file-sync-end"),
    }
    complete = [c for c in commits if c.oldest is not None and c.answered is not None]
    waits = [c.answered - c.oldest for c in complete]
    sync_times = [end - begin for begin, end, _ in syncs]
    commit_times = [c.committed - c.commit for c in commits if c.commit and c.committed]
    print(f"store trace: {ms(duration) / 1000:.1f} s, {len(commits)} commits, "
          f"{sum(c.operations for c in commits)} operations, {len(syncs)} log fsyncs by the syncer")
    print(f"  log fsync (syncer) ms: p50 {ms(quantile(sync_times, .5)):.1f}  p99 {ms(quantile(sync_times, .99)):.1f}  "
          f"max {ms(max(sync_times, default=0)):.1f}")
    print(f"  COMMIT ms: p50 {ms(quantile(commit_times, .5)):.2f}  p99 {ms(quantile(commit_times, .99)):.1f}  "
          f"max {ms(max(commit_times, default=0)):.1f}; log fsyncs inside COMMIT on the writer: "
          f"{sum(c.writer_syncs for c in commits)}")
    print(f"  oldest operation of a commit, queued to answered, ms: p50 {ms(quantile(waits, .5)):.1f}  "
          f"p90 {ms(quantile(waits, .9)):.1f}  p99 {ms(quantile(waits, .99)):.1f}  max {ms(max(waits, default=0)):.1f}")
    for name, found in spans.items():
        if found or name.startswith("writer"):
            times = [finish - begin for begin, finish, _, _ in found]
            print(f"  {name}: {len(found)}" + (f", ms p50 {ms(quantile(times, .5)):.1f} max {ms(max(times)):.1f}" if times else ""))
    print(f"  log restarts: {counts['restart']}; file fsyncs for a restart: {counts['file-sync-end']}")
    if fsyncs:
        by_thread = collections.defaultdict(list)
        for begin, finish, kind, name in fsyncs:
            by_thread[name].append(finish - begin)
        print("  fsync/fdatasync calls by thread (shim log): " + "; ".join(
            f"{name} {len(times)} (p50 {ms(quantile(times, .5)):.1f} ms)" for name, times in sorted(by_thread.items())))

    worst = sorted(complete, key=lambda c: c.answered - c.oldest, reverse=True)[:options.worst]
    if worst:
        print(f"\nworst stalls (a commit's oldest operation, queued to answered):")
    for commit in worst:
        parts, causes = describe(commit, spans, fsyncs, syncs)
        at = ms(commit.oldest - events[0][0]) / 1000
        print(f"  {ms(commit.answered - commit.oldest):6.1f} ms  commit {commit.id} at +{at:.3f} s, {commit.operations} ops: "
              + ", ".join(f"{name} {ms(ns):.1f}" for name, ns in parts if ns > 200_000))
        if causes:
            print("           overlapping: " + "; ".join(causes))

    if options.restart:
        print_restart(events, fsyncs, options.restart)

    if options.window and worst:
        center = worst[0]
        lo, hi = center.oldest - int(options.window * 1e6), center.answered + int(options.window * 1e6)
        print(f"\ntimeline around the worst stall (ms from its oldest operation queued):")
        merged = [(at, f"{kind} {a} {b}") for at, kind, a, b in events if lo <= at <= hi and kind not in ("join",)]
        merged += [(begin, f"  [{name}] {kind} {ms(finish - begin):.1f} ms") for begin, finish, kind, name in fsyncs if lo <= begin <= hi]
        for at, text in sorted(merged):
            print(f"  {ms(at - center.oldest):8.2f}  {text}")


def print_restart(events, fsyncs, number):
    """The writer's side of one log restart, step by step, in ms from the copy's start."""
    begins = [at for at, kind, _, _ in events if kind == "catchup-begin"]
    restarts = [at for at, kind, _, _ in events if kind == "restart"]
    if len(restarts) < number:
        print(f"\nno restart {number} in this window ({len(restarts)} found)")
        return
    restart_at = restarts[number - 1]
    start = max((at for at in begins if at < restart_at), default=restart_at) - 2_000_000
    # Up to the second answer after the restart: the restarting commit's and the next one's.
    answers_after = [at for at, kind, _, _ in events if kind == "answered" and at > restart_at]
    end = answers_after[1] if len(answers_after) > 1 else restart_at + 100_000_000
    origin = start + 2_000_000
    print(f"\nlog restart {number}: the writer's side, ms from its copy's start")
    merged = [(at, label(at, kind, a, b)) for at, kind, a, b in events if start <= at <= end and kind not in ("join",)]
    merged += [(begin, f"  [{name}] {kind} {ms(finish - begin):.1f} ms") for begin, finish, kind, name in fsyncs if start <= begin <= end]
    for at, text in sorted(merged):
        print(f"  {ms(at - origin):8.2f}  {text}")


def label(at, kind, a, b):
    """An event as a line of the timeline."""
    if kind == "take":
        return f"take {a} ops (oldest queued {ms(at - b):.1f} ms ago)"
    if kind == "commit":
        return f"commit {a} ({b} ops)"
    if kind == "committed":
        return f"committed {a}" + (f" ({b} log fsync inside COMMIT)" if b else "")
    if kind in ("sync-begin", "sync-end", "answered"):
        return f"{kind} {a}" + (f" ({b} ops)" if kind == "answered" else "")
    return f"{kind} {a} {b}"


if __name__ == "__main__":
    sys.exit(main())
