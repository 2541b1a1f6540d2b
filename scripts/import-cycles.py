#!/usr/bin/env python3
"""Lists the import circles among the files of each crate (`use crate::`, `super::`, `self::`
paths outside comments and tests), which docs/ARCHITECTURE.md says there are none of.
Run from the repository root; prints each circle and the count."""
import os, re, sys
roots=[]
for base in ['crates','crates/games','tools']:
    for d in sorted(os.listdir(base)):
        if os.path.isdir(f'{base}/{d}/src'): roots.append(f'{base}/{d}/src')
def modpath(root,f):
    rel=os.path.relpath(f,root)[:-3].split('/')
    if rel[-1] in('mod','lib','main'): rel=rel[:-1]
    return rel
total=0
for root in roots:
    files={}
    for dp,_,fs in os.walk(root):
        for f in fs:
            if f.endswith('.rs'): files[tuple(modpath(root,os.path.join(dp,f)))]=os.path.join(dp,f)
    edges={k:set() for k in files}
    for k,f in files.items():
        src=open(f).read()
        # strip test modules
        src=src.split("#[cfg(test)]")[0]; src=re.sub(r"//[^\n]*","",src)
        for m in re.finditer(r'\b(crate|super|self)((?:::\w+)+)',src):
            kind=m.group(1); parts=m.group(2).split('::')[1:]
            if kind=='crate': base=[]
            elif kind=='super':
                isdir=os.path.basename(f) in('mod.rs','lib.rs','main.rs')
                base=list(k) if isdir else list(k[:-1])
                base=base[:-1]
                while parts and parts[0]=='super': parts=parts[1:]; base=base[:-1]
            else:
                isdir=os.path.basename(f) in('mod.rs','lib.rs','main.rs')
                base=list(k) if isdir else list(k[:-1])
            # longest prefix that is a file
            best=None
            for i in range(len(parts),-1,-1):
                t=tuple(base+parts[:i])
                if t in files: best=t;break
            if best is not None and best!=k: edges[k].add(best)
    # find cycles via tarjan
    idx={};low={};st=[];on=set();sccs=[];c=[0]
    def sc(v):
        idx[v]=low[v]=c[0];c[0]+=1;st.append(v);on.add(v)
        for w in edges[v]:
            if w not in idx: sc(w);low[v]=min(low[v],low[w])
            elif w in on: low[v]=min(low[v],idx[w])
        if low[v]==idx[v]:
            comp=[]
            while True:
                w=st.pop();on.discard(w);comp.append(w)
                if w==v:break
            if len(comp)>1: sccs.append(comp)
    sys.setrecursionlimit(10000)
    for v in files:
        if v not in idx: sc(v)
    for comp in sccs:
        # ignore parent-module <-> child cycles (mod.rs declares children)
        names=['/'.join(x) or 'lib' for x in comp]
        print(root, names); total+=1
print('cycles', total)
sys.exit(1 if total else 0)
