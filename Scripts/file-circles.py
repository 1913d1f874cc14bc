#!/usr/bin/env python3
# Lists circles between the files of Sources/CalcCLI and Sources/CalcCore: file A uses file B when
# A names a type that B declares at its top level (comments and string literals left out). Prints each two-file
# circle, every group of files that reach each other (a cycle of any length), and any file of
# the core that uses a file of CalcCLI. With -v, also which file uses which. Run from the root.
import re,glob,os,sys
files=sorted(glob.glob('Sources/CalcCLI/*.swift')+glob.glob('Sources/CalcCore/*.swift'))
decl={}
strip=lambda s: re.sub(r'"(?:[^"\\\n]|\\.)*"','""',re.sub(r'//.*','',s))
for f in files:
    src=strip(open(f).read())
    for m in re.finditer(r'^(?:@\w+\s+)*(?:public |package |private |fileprivate |final |indirect )*(?:struct|enum|class|protocol|actor|typealias)\s+(\w+)',src,re.M):
        # only top-level and nested type names
        decl.setdefault(m.group(1),os.path.relpath(f,'Sources'))
uses={}
for f in files:
    src=strip(open(f).read())
    b=os.path.relpath(f,'Sources')
    uses[b]=set(df for name,df in decl.items() if df!=b and re.search(r'\b'+name+r'\b',src))
if '-v' in sys.argv:
    for b in sorted(uses): print(b,'->',', '.join(sorted(uses[b])))
circ=[(a,b) for a in uses for b in uses[a] if a in uses.get(b,()) and a<b]
print('two-file circles:',circ or 'none')
# longer cycles via SCC
idx={};low={};st=[];on=set();sccs=[];c=[0]
def sc(v):
    idx[v]=low[v]=c[0];c[0]+=1;st.append(v);on.add(v)
    for w in uses[v]:
        if w not in idx: sc(w);low[v]=min(low[v],low[w])
        elif w in on: low[v]=min(low[v],idx[w])
    if low[v]==idx[v]:
        comp=[]
        while True:
            w=st.pop();on.discard(w);comp.append(w)
            if w==v:break
        if len(comp)>1: sccs.append(sorted(comp))
import sys; sys.setrecursionlimit(10000)
for v in uses:
    if v not in idx: sc(v)
print('strongly connected groups (cycles of any length):',sccs or 'none')
core=[b for b in uses if b.startswith('CalcCore')]
print('core files using CalcCLI files:',[(b,sorted(x for x in uses[b] if x.startswith('CalcCLI'))) for b in core if any(x.startswith('CalcCLI') for x in uses[b])] or 'none')
