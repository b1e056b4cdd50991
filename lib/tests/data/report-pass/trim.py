# trim.py SRC DST: copies a checks dir for lib/tests/data/report-pass, keeping
# of each check's details only the fields bg-report reads (report_data.c).
import json, os, shutil, sys
KEEP = {"matrix", "ratio", "interval", "band", "median_base", "median_head", "metric",
        "exists_verdict", "exists_count", "iterations", "test", "cause", "host_limit",
        "action", "fix", "known"}
src, dst = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(src)):
    p = os.path.join(src, name)
    if name.endswith(".jsonl"):
        out = []
        for line in open(p):
            if not line.strip():
                continue
            o = json.loads(line)
            d = o.get("details")
            if isinstance(d, dict):
                o["details"] = {k: v for k, v in d.items() if k in KEEP}
            out.append(json.dumps(o, ensure_ascii=False, separators=(",", ":")))
        open(os.path.join(dst, name), "w").write("\n".join(out) + "\n")
    elif name in sys.argv[3:]:
        shutil.copy(p, os.path.join(dst, name))
