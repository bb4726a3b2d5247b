import json,sys
ev=[]
for l in open(sys.argv[1]):
  try: ev.append(json.loads(l))
  except: pass
size=None; marks=[60,120,300,600]; out={}
for e in ev:
  if 'size' in e and e['type'] in ('start',): size=e['size']
  if e['type']=='improved':
    for m in marks:
      if e['t']/1000<=m: out[m]=e['size']
for m in marks: out.setdefault(m,None)
# size at minute m = last improved before m
res=[]
for m in marks:
  last=size
  for e in ev:
    if e['type']=='improved' and e['t']/1000<=m: last=e['size']
  res.append((m,last))
print(res)
