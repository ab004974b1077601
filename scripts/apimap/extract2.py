import re, json
def ext(fn, tag, strict, prefix):
    lines=open(fn).read().split('\n')
    out=[]; cls=None; outer=None; nested=False; prev=None; seen=set()
    for i,l in enumerate(lines):
        l2=l.rstrip()
        m=re.match(r'^class ([\w.]+)(\(.*\))?(\[source\])?(¶(:.*)?)?$',l2)
        if m:
            name=m.group(1)
            if not name.startswith('pyflink'):
                # nested class
                name=outer+'.'+name; nested=True
            else:
                outer=name; nested=False
            cls=name; prev=None
            out.append((cls,None,'class',f'{tag}:{i+1}'))
            continue
        m=re.match(r'^pyflink\.table\.expressions\.([a-z_][\w]*)(\(.*\))?.*\[source\]¶(:.*)?$',l2)
        if m:
            out.append(('pyflink.table.expressions',m.group(1),'function',f'{tag}:{i+1}')); continue
        m=re.match(r'^pyflink\.table\.expressions\.([A-Z_]+)',l2)
        if m:
            out.append(('pyflink.table.expressions',m.group(1),'constant',f'{tag}:{i+1}')); continue
        if cls is None: continue
        if strict:
            m=re.match(r'^(static |classmethod |property |abstract )*([A-Za-z_][\w]*)(\(.*\))?( →.*)?(\[source\])?¶(:.*)?$',l2)
        else:
            m=re.match(r'^(static |classmethod |property |abstract )*([A-Za-z_][\w]*)(\(.*\))( →.*)?$',l2)
        if not m: continue
        name=m.group(2)
        if nested and prev is not None and name < prev and cls!=outer:
            # alphabetical reset: back to the outer class
            cls=outer
        prev=name
        key=(cls,name)
        if key in seen: continue
        seen.add(key)
        kind='property' if (m.group(1) or '').strip()=='property' else 'method'
        out.append((cls,name,kind,f'{tag}:{i+1}'))
    return out
a=ext('/work/shared/seeds/000_5939371be351016d.txt','T',True,'pyflink.table')
b=ext('/work/shared/seeds/002_b41519e205bd7c33.txt','C',False,'pyflink.common')
allm=a+b
json.dump(allm,open('/tmp/api/members2.json','w'),indent=0)
# members3.json: the two attribution fixes the text layout needs. The
# RestartStrategies methods follow the nested NoRestartStrategyConfiguration
# class in the seed, but belong to RestartStrategies; Row's example line
# "Row(...)" is not a method.
fixed=[]
for cls,name,kind,loc in allm:
    if cls=='pyflink.common.RestartStrategies.NoRestartStrategyConfiguration' and name is not None:
        cls='pyflink.common.RestartStrategies'
    if cls=='pyflink.common.Row' and name=='Row':
        continue
    fixed.append([cls,name,kind,loc])
json.dump(fixed,open('/tmp/api/members3.json','w'),indent=0)
from collections import Counter
c=Counter(x[0] for x in allm if x[2]!='class')
tot=0
for k,v in sorted(c.items()): print(v,k); tot+=v
print('total members',tot,'classes',sum(1 for x in allm if x[2]=='class'))
