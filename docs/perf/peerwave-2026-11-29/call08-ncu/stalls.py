import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr = rows[1]; data = rows[2:]
ix = {h: i for i, h in enumerate(hdr)}
stalls = [h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
tot = {s: 0 for s in stalls}
allsum = 0
per = []
for r in data:
    if len(r) < len(hdr): continue
    n = int(r[ix['Warp Stall Sampling (All Samples)']] or 0)
    allsum += n
    for s in stalls: tot[s] += int(r[ix[s]] or 0)
    per.append((n, r[ix['Address']][-5:], r[ix['Source']].strip()[:60], {s: int(r[ix[s]] or 0) for s in stalls}))
print('total samples', allsum)
for s, v in sorted(tot.items(), key=lambda x: -x[1])[:8]: print(f'  {s:22s} {v:8d} {v/allsum:.2%}')
print('top instructions:')
for n, a, src, st in sorted(per, key=lambda x: -x[0])[:int(sys.argv[2]) if len(sys.argv) > 2 else 25]:
    top = sorted(st.items(), key=lambda x: -x[1])[:2]
    print(f'{n:7d} {n/allsum:6.2%} {a} {src:60s} ' + ' '.join(f'{k[6:]}={v}' for k, v in top))
