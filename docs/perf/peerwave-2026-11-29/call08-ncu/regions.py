import csv, sys, re
rows = list(csv.reader(open(sys.argv[1])))
hdr = rows[1]; data = [r for r in rows[2:] if len(r) >= len(hdr)]
ix = {h: i for i, h in enumerate(hdr)}
# segment by markers: track region label by last seen 'marker' opcode class
out = []
cur = None; acc = 0; kinds = {}
def flush(label, start, end, acc, kinds, execd):
    print(f'{start}-{end} samples {acc:6d} exec {execd:8d} ' + ' '.join(f'{k}:{v}' for k, v in sorted(kinds.items(), key=lambda x: -x[1])[:6]))
bucket = int(sys.argv[2], 16) if len(sys.argv) > 2 else 0x400
start = None; acc = 0; kinds = {}; execd = 0
for r in data:
    a = int(r[ix['Address']], 16)
    if start is None: base = a; start = a
    if a - start >= bucket:
        flush('', hex(start - base), hex(a - base), acc, kinds, execd); start = a; acc = 0; kinds = {}; execd = 0
    op = r[ix['Source']].split()[0] if r[ix['Source']].split() else ''
    if op.startswith('@'): op = r[ix['Source']].split()[1]
    op = op.split('.')[0]
    n = int(r[ix['Warp Stall Sampling (All Samples)']] or 0); acc += n
    execd += int(r[ix['Instructions Executed']] or 0)
    if op in ('LDG', 'STG', 'STS', 'LDS', 'SHFL', 'LDGSTS', 'MEMBAR', 'ATOM', 'ATOMG', 'DADD', 'DMUL', 'BAR', 'LDGDEPBAR', 'DEPBAR', 'RED'): kinds[op] = kinds.get(op, 0) + 1
flush('', hex(start - base), 'end', acc, kinds, execd)
