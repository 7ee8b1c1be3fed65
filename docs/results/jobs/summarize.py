import json,sys,os,collections
d=sys.argv[1]
def lines(f): return [json.loads(l) for l in open(os.path.join(d,f)) if l.strip()]
def strip(r): return {k:v for k,v in r.items() if 'seconds' not in k}
def recs(f): return [r for r in lines(f) if not r.get('summary') and 'meta' not in r]
def summ(f): return [r for r in lines(f) if r.get('summary')][0]
local=recs('local.jsonl')
print("local", summ('local.jsonl'))
print(open(os.path.join(d,'time-local.txt')).read().strip(), open(os.path.join(d,'load-local.txt')).read().replace('\n',' | '))
for n in ['1','2','4','kill']:
    f='nats-%s.jsonl'%n
    if not os.path.exists(os.path.join(d,f)): continue
    r=recs(f); s=summ(f)
    boards=collections.Counter(x['board'] for x in r)
    same=[strip(a)==strip(b) for a,b in zip(local,r)]
    print(n, 'boards',len(r),'distinct',len(boards),'dups',sum(1 for v in boards.values() if v>1),
          'identical-to-local(minus times)',sum(same),'of',len(local),
          'clicks', s['total'], 'wall', round(s['seconds'],1), 'cpu', round(s['cpu_seconds'],1))
    print('  ', open(os.path.join(d,'time-%s.txt'%('n'+n if n!='kill' else 'kill'))).read().strip(), '| load', open(os.path.join(d,'load-%s.txt'%('n'+n if n!='kill' else 'kill'))).read().replace('\n',' | '))
if os.path.exists(os.path.join(d,'jobs-list.jsonl')):
    js=lines('jobs-list.jsonl')
    c=collections.Counter((j['kind'],j['state']) for j in js)
    att=collections.Counter(j.get('attempts',0) for j in js if j['kind']=='bench.samegame')
    print('jobs', dict(c), 'attempts', dict(att))
