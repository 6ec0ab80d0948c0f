#!/usr/bin/env python3
"""Writes the MSCCL algorithm files of tests/data/msccl (docs/schedules.md):
written for collsim's tests from the format's description (algo > gpu > tb >
step), each step on one line as MSCCL's own parser reads it.  Run it from
this folder to write them again: python3 generate.py"""

N = 8


def step(s, kind, srcbuf, srcoff, dstbuf, dstoff, cnt=1, depid=-1, deps=-1, hasdep=0):
    return (f'      <step s="{s}" type="{kind}" srcbuf="{srcbuf}" srcoff="{srcoff}" dstbuf="{dstbuf}" '
            f'dstoff="{dstoff}" cnt="{cnt}" depid="{depid}" deps="{deps}" hasdep="{hasdep}"/>')


def algo(name, coll, nchannels, loop, inplace, gpus, comment):
    lines = [f'<!-- {comment} -->',
             f'<algo name="{name}" proto="Simple" nchannels="{nchannels}" nchunksperloop="{loop}" ngpus="{len(gpus)}" '
             f'coll="{coll}" inplace="{int(inplace)}" outofplace="{int(not inplace)}" minBytes="0" maxBytes="0">']
    for gid, (chunks, tbs) in enumerate(gpus):
        lines.append(f'  <gpu id="{gid}" i_chunks="{chunks[0]}" o_chunks="{chunks[1]}" s_chunks="{chunks[2]}">')
        for tid, (send, recv, chan, steps) in enumerate(tbs):
            lines.append(f'    <tb id="{tid}" send="{send}" recv="{recv}" chan="{chan}">')
            lines += [step(i, *st[0:5], **(st[5] if len(st) > 5 else {})) for i, st in enumerate(steps)]
            lines.append('    </tb>')
        lines.append('  </gpu>')
    lines.append('</algo>')
    return '\n'.join(lines) + '\n'


def ring_steps(n, q, chunk):
    """Ring all-reduce on a ring of n, position q: reduce-scatter then all-gather, fused steps."""
    c = lambda j: chunk((q + j) % n)
    steps = [('s', 'i', c(-1), 'i', c(-1))]
    steps += [('rrs', 'i', c(-k - 2), 'i', c(-k - 2)) for k in range(n - 2)]
    steps += [('rrcs', 'i', c(0), 'i', c(0))]
    steps += [('rcs', 'i', c(-k - 1), 'i', c(-k - 1)) for k in range(n - 2)]
    steps += [('r', 'i', c(1), 'i', c(1))]
    return steps


def ring_allreduce_8_channels():
    gpus = []
    for r in range(N):
        tbs = [((r + 1) % N, (r - 1) % N, ch, ring_steps(N, r, lambda j, ch=ch: ch * N + j)) for ch in range(N)]
        gpus.append(((N * N, N * N, 0), tbs))
    return algo('ring_allreduce_8ch', 'allreduce', N, N * N, True, gpus,
                'ring all-reduce, 8 GPUs, 8 channels: channel c reduces and gathers chunks 8c..8c+7')


def allpairs_allreduce():
    gpus = []
    for r in range(N):
        peers = [p for p in range(N) if p != r]
        reducer = len(peers)
        tbs = []
        for k, p in enumerate(peers):
            tbs.append((p, p, 0, [('s', 'i', p, 's', k),
                                  ('r', 'i', r, 's', k, dict(hasdep=1)),
                                  ('s', 'i', r, 'i', r, dict(depid=reducer, deps=len(peers) - 1)),
                                  ('r', 'i', p, 'i', p)]))
        tbs.append((-1, -1, 0, [('re', 's', k, 'i', r, dict(depid=k, deps=1, hasdep=int(k == len(peers) - 1)))
                                for k in range(len(peers))]))
        gpus.append(((N, N, N - 1), tbs))
    return algo('allpairs_allreduce', 'allreduce', 1, N, True, gpus,
                'all-pairs all-reduce: chunk j gathered into scratch on GPU j, reduced there (re), sent back to all')


def hierarchical_allreduce(d=4):
    gpus = []
    for r in range(N):
        g, q = divmod(r, d)
        nxt, prv, peer = g * d + (q + 1) % d, g * d + (q - 1) % d, (1 - g) * d + q
        c = lambda j: (q + j) % d
        ring = [('s', 'i', c(-1), 'i', c(-1))]
        ring += [('rrs', 'i', c(-k - 2), 'i', c(-k - 2)) for k in range(d - 2)]
        ring += [('rrc', 'i', c(0), 'i', c(0), dict(hasdep=1))]
        ring += [('s', 'i', c(0), 'i', c(0), dict(depid=1, deps=1))]
        ring += [('rcs', 'i', c(-k - 1), 'i', c(-k - 1)) for k in range(d - 2)]
        ring += [('r', 'i', c(1), 'i', c(1))]
        across = [('s', 'i', q, 'i', q, dict(depid=0, deps=d - 1)), ('rrc', 'i', q, 'i', q, dict(hasdep=1))]
        gpus.append(((d, d, 0), [(nxt, prv, 0, ring), (peer, peer, 0, across)]))
    return algo('hierarchical_allreduce', 'allreduce', 1, d, True, gpus,
                'two nodes of 4 GPUs: ring reduce-scatter in each node, all-reduce of chunk q between the nodes, '
                'ring all-gather in each node')


def alltoall(wrong=False):
    gpus = []
    for r in range(N):
        tbs = []
        for p in range(N):
            if p == r:
                continue
            block = (p + 1) % N if wrong and r == 0 and p == 1 else p  # the wrong file: rank 0 sends rank 2's block to 1
            tbs.append((p, p, 0, [('s', 'i', block, 'o', r), ('r', 'i', r, 'o', p)]))
        tbs.append((-1, -1, 0, [('cpy', 'i', r, 'o', r)]))
        gpus.append(((N, N, 0), tbs))
    name = 'alltoall_wrong' if wrong else 'alltoall_direct'
    note = ('WRONG on purpose: rank 0 sends its block for rank 2 to rank 1' if wrong
            else 'all-to-all: every block sent straight to its destination, the own block copied')
    return algo(name, 'alltoall', 1, N, False, gpus, note)


for name, text in [('ring_allreduce_8ch', ring_allreduce_8_channels()), ('allpairs_allreduce', allpairs_allreduce()),
                   ('hier_allreduce', hierarchical_allreduce()), ('alltoall_direct', alltoall()),
                   ('alltoall_wrong', alltoall(wrong=True))]:
    with open(f'{name}.xml', 'w') as f:
        f.write(text)
