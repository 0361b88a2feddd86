"""sim_batch_dtw.py - the step order of src/cuda/device/batch_dtw_proc.cuh (a warp a pair: 32 lanes of
R = 4 query rows, segments of 128 rows, the record a column a step, shuffles up and the bottom row)
played out in Python against the textbook DTW matrix, bit for bit; a check of the kernel's indexing
that needs no GPU (docs/BATCH.md).  python3 tools/sim_batch_dtw.py -> "bad 0"."""
import random, math
INF=float('inf')
R=4
def step(a,b,sq,up,left,diag):
    d=a-b; c=d*d if sq else abs(d)
    m=left if left<diag else diag
    m=up if up<m else m
    return c+m
def textbook(a,b,sq):
    n,m=len(a),len(b); D=[[0]*m for _ in range(n)]
    for i in range(n):
        for j in range(m):
            d=a[i]-b[j]; c=d*d if sq else abs(d)
            best=0 if i==0 and j==0 else INF
            if i>0: best=min(best,D[i-1][j])
            if j>0: best=min(best,D[i][j-1])
            if i>0 and j>0: best=min(best,D[i-1][j-1])
            D[i][j]=c+best
    return D[n-1][m-1]
def warp(a,b,sq):
    n,m=len(a),len(b); bottom=[None]*m; out=None
    for r0 in range(0,n,32*R):
        first=r0==0; last=r0+32*R>=n
        av=[[a[r0+k*R+q] if r0+k*R+q<n else 0.0 for q in range(R)] for k in range(32)]
        left=[[INF]*R for k in range(32)]
        diag_in=[(0.0 if first and k==0 else INF) for k in range(32)]
        last_out=[INF]*32
        for s in range(m+31):
            from_above=[last_out[k-1] if k>0 else last_out[0] for k in range(32)]  # shfl_up: lane0 gets own
            new_last=list(last_out)
            reads=[]; writes=[]
            for k in range(32):
                j=s-k
                if j<0 or j>=m: continue
                up_in = from_above[k] if k>0 else (INF if first else bottom[j])
                bj=b[j]; up=up_in; dg=diag_in[k]
                for q in range(R):
                    d=step(av[k][q],bj,sq,up,left[k][q],dg)
                    dg=left[k][q]; left[k][q]=d; up=d
                diag_in[k]=up_in
                new_last[k]=left[k][R-1]
                if not last:
                    if k==31: writes.append((j,new_last[k]))
                elif j==m-1:
                    row=n-1-r0
                    if row//R==k: out=left[k][row%R]
            last_out=new_last
            for j,v in writes: bottom[j]=v
    return out
random.seed(1)
bad=0
for trial in range(300):
    n=random.randint(1,400); m=random.randint(1,60); sq=random.random()<0.5
    ints=random.random()<0.3
    a=[float(random.randint(0,3)) if ints else random.uniform(-100,100) for _ in range(n)]
    b=[float(random.randint(0,3)) if ints else random.uniform(-100,100) for _ in range(m)]
    x=warp(a,b,sq); y=textbook(a,b,sq)
    if x!=y: bad+=1; print("MISMATCH",n,m,sq,x,y) if bad<5 else None
print("bad",bad)
