#!/usr/bin/env python3
"""Counts, from an execution trace of one loadcheck pair phase, how long the
dispatcher's goroutines waited for a processor and what held it.

Usage:
    go tool trace -d=parsed phase2-servebench-trace.out > phase2.txt
    python3 scripts/trace-dispatch-latency.py phase2.txt

It reads the text form of the trace (`go tool trace -d=parsed`) and prints:
- every goroutine's wait from runnable to running (p50, p99, max);
- the runnable goroutines over time (mean, p99, max);
- for the requests the dispatcher starts (goroutines created by servebench's
  dispatcher.runOpen, or by the lean client's run loop), the wait from their
  creation to their first run, split by what the dispatcher did next: parked
  (on its timer or alarm), entered a system call, or started another request
  first;
- the system calls by the caller that made them: count, total time in the
  kernel, p50 and p99, and how many came back without their processor.
Percentiles are nearest-rank. Nothing here is a target; it is evidence of
where the time went.
"""
import collections
import math
import re
import sys

EVENT = re.compile(r'^M=(-?\d+) P=(-?\d+) G=(-?\d+) (\w+) Time=(\d+)(.*)$')
TRANSITION = re.compile(r'GoID=(\d+) (\w+)->(\w+)')
DISPATCH_CREATORS = ('dispatcher).runOpen.func1', 'leanClient).run.func1')


def read_transitions(path):
    """Returns the goroutine state transitions, sorted by time, as
    [time, goroutine, from, to, the event's goroutine, its P, transition stack]."""
    out, cur, in_stack = [], None, False
    with open(path) as f:
        for line in f:
            if line.startswith('M='):
                if cur:
                    out.append(cur)
                cur, in_stack = None, False
                m = EVENT.match(line)
                if m and m.group(4) == 'StateTransition':
                    t = TRANSITION.search(m.group(6))
                    if t:
                        cur = [int(m.group(5)), int(t.group(1)), t.group(2), t.group(3),
                               int(m.group(3)), int(m.group(2)), []]
            elif cur is not None:
                if line.startswith('TransitionStack='):
                    in_stack = True
                elif line.startswith('Stack='):
                    in_stack = False
                elif in_stack and line.startswith('\t') and not line.startswith('\t\t'):
                    cur[6].append(line.strip().split(' @')[0])
    if cur:
        out.append(cur)
    out.sort(key=lambda e: e[0])
    return out


def pct(xs, p):
    xs = sorted(xs)
    return xs[max(0, math.ceil(p / 100 * len(xs)) - 1)] if xs else float('nan')


def line(name, ns):
    if not ns:
        print(f'{name}: none')
        return
    ms = [x / 1e6 for x in ns]
    print(f'{name}: n={len(ms)} p50={pct(ms, 50):.3f} p99={pct(ms, 99):.3f} max={max(ms):.3f} ms')


def caller(stack):
    for f in stack:
        if 'servebench' in f or f.startswith('main.'):
            return f
    return stack[-1] if stack else '?'


def main(path):
    evs = read_transitions(path)
    created, creators = {}, collections.Counter()
    for t, g, frm, to, evg, p, stk in evs:
        if frm == 'NotExist' and stk and any(c in stk[0] for c in DISPATCH_CREATORS):
            created[g] = t
            creators[evg] += 1
    dispatcher = creators.most_common(1)[0][0] if creators else None
    print(f'dispatcher goroutine {dispatcher}, {len(created)} requests started')

    last, waits, runnable, samples = {}, [], 0, []
    first_run = {}
    for t, g, frm, to, evg, p, stk in evs:
        runnable += (to == 'Runnable') - (frm == 'Runnable')
        samples.append(runnable)
        if frm == 'Runnable' and to == 'Running' and g in last and last[g][1] == 'Runnable':
            waits.append(t - last[g][0])
            if g in created and g not in first_run:
                first_run[g] = t - created[g]
        last[g] = (t, to)
    line('every goroutine, runnable -> running', waits)
    print(f'runnable goroutines: mean {sum(samples) / max(len(samples), 1):.1f} '
          f'p99 {pct(samples, 99)} max {max(samples, default=0)}')

    next_step, pending = {}, []
    for t, g, frm, to, evg, p, stk in evs:
        if frm == 'NotExist' and g in created:
            for q in pending:
                next_step.setdefault(q, 'another request started first')
            pending = [g]
        elif g == dispatcher and to in ('Waiting', 'Syscall'):
            for q in pending:
                next_step.setdefault(q, f'the dispatcher then {to} in {stk[0] if stk else "?"}')
            pending = []
    by_step = collections.defaultdict(list)
    for g, d in first_run.items():
        by_step[next_step.get(g, '?')].append(d)
    line('a started request, created -> first run', list(first_run.values()))
    for k, v in sorted(by_step.items(), key=lambda kv: -len(kv[1])):
        line(f'  when {k}', v)

    entered, spent, lost = {}, collections.defaultdict(list), collections.Counter()
    for t, g, frm, to, evg, p, stk in evs:
        if to == 'Syscall':
            entered[g] = (t, (stk[0] if stk else '?', caller(stk)))
        elif frm == 'Syscall' and g in entered:
            t0, key = entered.pop(g)
            spent[key].append(t - t0)
            lost[key] += p < 0
    print('system calls (count, total, p50, p99, max, back without a processor):')
    for key, v in sorted(spent.items(), key=lambda kv: -sum(kv[1]))[:12]:
        print(f'  {len(v):7d} {sum(v) / 1e6:9.1f} ms  p50 {pct(v, 50) / 1e3:8.1f} us  p99 {pct(v, 99) / 1e3:8.1f} us'
              f'  max {max(v) / 1e3:8.1f} us  lost {lost[key]:4d}  {key[0]} <- {key[1]}')


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit('usage: trace-dispatch-latency.py TRACE.txt (from go tool trace -d=parsed)')
    main(sys.argv[1])
