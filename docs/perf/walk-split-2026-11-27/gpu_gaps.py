import sys
recs=open(sys.argv[1]).read().split("\n\n")
tasks=[]
for r in recs:
    d={}
    for line in r.splitlines():
        if ": " in line:
            k,v=line.split(": ",1); d[k]=v
    if "StartTime" in d and d.get("WorkerId")=="0":
        tasks.append((float(d["StartTime"]),float(d["EndTime"]),d.get("Model"),d.get("Name"), float(d.get("SubmitTime",0))))
tasks.sort()
t0=float(sys.argv[2]) if len(sys.argv)>2 else 0
tasks=[t for t in tasks if t[0]>=t0]
busy=sum(e-s for s,e,*_ in tasks)
span=tasks[-1][1]-tasks[0][0]
gaps=[tasks[i+1][0]-tasks[i][1] for i in range(len(tasks)-1)]
print(f"{len(tasks)} tasks from {tasks[0][0]:.1f} to {tasks[-1][1]:.1f}: span {span:.1f} ms busy {busy:.1f} gaps sum {sum(gaps):.1f}")
import statistics
durs=[e-s for s,e,*_ in tasks]
print("task ms median", statistics.median(durs), "max", max(durs))
big=sorted(range(len(gaps)), key=lambda i:-gaps[i])[:8]
for i in sorted(big): print(f"gap {gaps[i]:.2f} ms after task {i} at {tasks[i][1]:.1f} ({tasks[i][2]}) next submitted {tasks[i+1][4]:.1f}")
# busy per 25 ms bucket
