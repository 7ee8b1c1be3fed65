#!/usr/bin/env python3
# Usage: python3 docs/notes/web-owners-attacks.py PATH/TO/tessera PICTURE.png
# (any PNG of at least 64x64 pixels; a temporary database and job store).
# Replays issue 38's attacks on the web app (items 2-4) against a running
# `tessera serve`, from two clients (two cookie jars) and cookieless ones.
import http.cookiejar, json, os, re, subprocess, sys, tempfile, threading, time, urllib.request, urllib.error

BIN = sys.argv[1]
tmp = tempfile.mkdtemp()
HARD = "3 23 2 12 24/10 0 16 8 9/1 18 11 22 4/5 6 21 13 17/14 15 20 19 7"

def start(extra=()):
    p = subprocess.Popen([BIN, "serve", "-q", "-addr", "127.0.0.1:0", "-db", tmp + "/t.db", "-store", tmp + "/nats", "-workers", "2", *extra],
                         stderr=subprocess.PIPE, text=True)
    line = ""
    while "serving on" not in line:
        line = p.stderr.readline()
        if not line: sys.exit("serve died")
    url = re.search(r"serving on (http://\S+)", line).group(1)
    threading.Thread(target=lambda: [None for _ in p.stderr], daemon=True).start()
    return p, url

def client(jar=True):
    if not jar:
        return urllib.request.build_opener()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

def req(op, method, url, body=None, ctype="application/json"):
    data = None
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
    r = urllib.request.Request(url, data=data, method=method)
    if data is not None: r.add_header("Content-Type", ctype)
    try:
        with op.open(r, timeout=60) as res:
            b = res.read()
            return res.status, (json.loads(b) if b and res.headers.get("Content-Type","").startswith("application/json") else b)
    except urllib.error.HTTPError as e:
        return e.code, e.read()

p, U = start()
A, B = client(), client()
req(A, "GET", U + "/npuzzle"); req(B, "GET", U + "/npuzzle")
long = {"kind": "npuzzle.solve", "spec": {"board": HARD, "solver": "idastar", "timeout_ms": 600000}}
s, job = req(A, "POST", U + "/api/jobs", long); jid = job["id"]
print("A submits:", s, "id", jid)
print("B GET A's job:", req(B, "GET", U + "/api/jobs/" + jid)[0],
      "| DELETE:", req(B, "DELETE", U + "/api/jobs/" + jid)[0],
      "| events:", req(B, "GET", U + "/api/jobs/" + jid + "/events")[0])
print("A's job after:", req(A, "GET", U + "/api/jobs/" + jid)[1]["state"])
req(A, "DELETE", U + "/api/jobs/" + jid)
save = {"start": "1 2 3/4 0 6/7 5 8", "history": "U", "picture": "sunset", "elapsed_ms": 5000}
print("A saves:", req(A, "PUT", U + "/api/npuzzle/saves/lunch", save)[0])
print("B lists:", req(B, "GET", U + "/api/npuzzle/saves")[1], "| B GET:", req(B, "GET", U + "/api/npuzzle/saves/lunch")[0],
      "| B DELETE:", req(B, "DELETE", U + "/api/npuzzle/saves/lunch")[0])
print("B PUT same name:", req(B, "PUT", U + "/api/npuzzle/saves/lunch", dict(save, history="", start="1 2 3/4 5 6/7 8 0"))[0],
      "| A's save board:", req(A, "GET", U + "/api/npuzzle/saves/lunch")[1]["board"])
png = open(sys.argv[2], "rb").read()
s, pic = req(A, "POST", U + "/api/pictures?name=a", png, "image/png")
print("A uploads:", s, pic["id"])
print("B GET picture:", req(B, "GET", U + pic["url"])[0], "| B DELETE:", req(B, "DELETE", U + "/api/pictures/" + pic["id"])[0],
      "| B lists", len(req(B, "GET", U + "/api/pictures")[1]["pictures"]), "pictures, A", len(req(A, "GET", U + "/api/pictures")[1]["pictures"]))
print("B cuts a jigsaw of A's picture:", req(B, "POST", U + "/api/jigsaw/new", {"ref": {"pictures": [pic["id"]], "piece": 60, "seed": 1}})[0])

def burst(op_for):
    codes = []
    lock = threading.Lock()
    def one(i):
        c = req(op_for(i), "POST", U + "/api/jobs", long)
        with lock: codes.append(c)
    ts = [threading.Thread(target=one, args=(i,)) for i in range(32)]
    [t.start() for t in ts]; [t.join() for t in ts]
    ids = [b["id"] for s, b in codes if s == 202]
    return ids
accepted = []
for trial in range(10):
    ids = burst(lambda i: A)
    accepted.append(len(ids))
    for i in ids: req(A, "DELETE", U + "/api/jobs/" + i)
print("32 simultaneous from one client, accepted in 10 trials:", accepted)
ops = [client() for _ in range(32)]
ids = burst(lambda i: ops[i])
print("32 simultaneous from 32 fresh identities of one address: accepted", len(ids))
# Leave 4 of A's running, restart, try a fifth.
for o in ops:
    for i in ids: req(o, "DELETE", U + "/api/jobs/" + i)
mine = [req(A, "POST", U + "/api/jobs", long)[1]["id"] for _ in range(4)]
p.terminate(); p.wait()
p, U = start()
print("after a restart, A's 4 jobs:", [req(A, "GET", U + "/api/jobs/" + i)[1]["state"] for i in mine])
s, b = req(A, "POST", U + "/api/jobs", long)
print("after a restart, A's fifth job:", s, b)
for i in mine: req(A, "DELETE", U + "/api/jobs/" + i)
codes = [req(A, "PUT", U + "/api/npuzzle/saves/s%d" % i, save)[0] for i in range(101)]
print("101 saves from one client:", {c: codes.count(c) for c in set(codes)}, "the 101st:", codes[-1])
print("list page:", {k: v for k, v in req(A, "GET", U + "/api/npuzzle/saves?limit=50")[1].items() if k != "saves"})
p.terminate(); p.wait()
p, U = start(["-addr", "0.0.0.0:0"])
U = U.replace("[::]", "127.0.0.1").replace("0.0.0.0", "127.0.0.1")
print("beyond loopback, no token:", req(client(), "GET", U + "/api/pictures")[0], req(client(), "GET", U + "/npuzzle")[0])
p.terminate(); p.wait()
