#!/usr/bin/python3
"""Compile-and-run check of the CPU schedules in kernels/schedules/cpu/.

For every op kind, kernels of several static shapes (primes and sizes below
the vector width among them) are written in the kernel form of
docs/CPU-CODEGEN.md (memref bindings, body on tensors), scheduled with the
kind's schedule file by mlir-opt's transform interpreter, bufferized and
lowered with the CPU-CODEGEN pipelines, compiled with clang into a shared
object, called through ctypes, and compared with a reference numpy computes
from the same inputs. Checks besides the values: no linalg op left after the
schedule, vector ops present, no heap allocation after bufferization, and no
undefined symbol in the shared object but memcpy/memset (LLVM turns
copy and fill loops into those calls; the product's object step decides
whether it links them).

This drives Debian's mlir-opt/mlir-translate/clang (development tools), not
fuel's in-process lowering; the workgroup split (the outermost scf.forall)
runs sequentially here (scf-forall-to-for).

  check_schedules.py [--quick] [--isa avx2|avx512|generic] [--only KIND] [-v]
"""
import argparse, ctypes, os, re, subprocess, sys, tempfile, time
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEDULES = os.path.join(HERE, "..", "..", "kernels", "schedules", "cpu")
LLVM = os.environ.get("FUEL_LLVM_BIN", "/usr/lib/llvm-22/bin")
CLANG = os.environ.get("FUEL_CLANG", "clang-22")

PRE = ("transform-preload-library{{transform-library-paths={s}}},"
       "transform-interpreter{{entry-point={e}}},canonicalize,cse")
BUF = ("test-math-polynomial-approximation,eliminate-empty-tensors,one-shot-bufferize,canonicalize,cse,"
       "func.func(buffer-hoisting,buffer-loop-hoisting,"
       "promote-buffers-to-stack{max-alloc-size-in-bytes=131072}),"
       "buffer-deallocation-pipeline")
LOW = ("scf-forall-to-for,convert-vector-to-scf{full-unroll=true},convert-linalg-to-loops,"
       "fold-memref-alias-ops,convert-scf-to-cf,expand-strided-metadata,lower-affine,"
       "convert-vector-to-llvm{reassociate-fp-reductions=true},"
       "convert-func-to-llvm{use-bare-ptr-memref-call-conv=true},convert-to-llvm,"
       "reconcile-unrealized-casts")
MARCH = {"avx2": "haswell", "avx512": "skylake-avx512", "generic": "x86-64-v2"}
ALLOWED_UNDEFINED = ("memcpy", "memset")


def sh(cmd, stdin=None):
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                       timeout=600)
    if r.returncode:
        raise RuntimeError(" ".join(cmd[:2]) + "\n" + r.stderr[-3000:])
    return r.stdout


# Entry sequences for the schedules whose ISA sequences take driver
# parameters (fuel.param): the unpacked form (`packed()` = 0; fuel's driver
# alone makes the packed-B form, which FuelCpuCodegenTests and
# test/Integration/cpu check), the split and K tile unused there.
# The sequence is added to a copy of the schedule file (an include must name
# a sequence of its own module).
PARAM_ENTRY = """  transform.named_sequence @check_entry(%k: !transform.any_op {{transform.readonly}}) {{
    %split = transform.param.constant 0 : i64 -> !transform.any_param
    %kt = transform.param.constant 1 : i64 -> !transform.param<i64>
    %pk = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.include @{isa} failures(propagate) (%k, %split, %kt, %pk) : (!transform.any_op, !transform.any_param, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }}
}}
"""
PARAM_SCHEDULES = ("batch_matmul.mlir",)


def compile_kernel(kernel, sched, isa, wd):
    src = os.path.join(wd, "k.mlir")
    with open(src, "w") as f:
        f.write(kernel)
    problems = []
    libraries, entry = sched, isa
    if os.path.basename(sched) in PARAM_SCHEDULES:
        with open(sched) as f:
            text = f.read().rstrip()
        assert text.endswith("}")
        libraries = os.path.join(wd, "schedule.mlir")
        with open(libraries, "w") as f:
            f.write(text[:-1] + PARAM_ENTRY.format(isa=isa))
        entry = "check_entry"
    scheduled = sh([os.path.join(LLVM, "mlir-opt"), src,
                    "--pass-pipeline=builtin.module(" + PRE.format(s=libraries, e=entry) + ")"])
    if re.search(r"\blinalg\.", scheduled):
        problems.append("a linalg op is left after the schedule")
    vector_ops = len(re.findall(r"vector\.(transfer_read|transfer_write|load|store|"
                                r"fma|outerproduct|reduction|broadcast|gather|"
                                r"from_elements|extract_strided_slice)", scheduled))
    # Without FMA (the generic class, here x86-64-v2), the polynomials'
    # math.fma would become fmaf calls: expand it into a multiply and add.
    buf = BUF.replace("test-math-polynomial-approximation,",
                      "test-math-polynomial-approximation,math-expand-ops{ops=fma},"
                      if isa == "generic" else "test-math-polynomial-approximation,")
    buffered = sh([os.path.join(LLVM, "mlir-opt"),
                   "--pass-pipeline=builtin.module(" + buf + ")"], scheduled)
    if re.search(r"memref\.alloc\(", buffered):
        problems.append("a heap allocation is left after bufferization")
    lowered = sh([os.path.join(LLVM, "mlir-opt"),
                  "--pass-pipeline=builtin.module(" + LOW + ")"], buffered)
    ir = sh([os.path.join(LLVM, "mlir-translate"), "--mlir-to-llvmir"], lowered)
    so = os.path.join(wd, "k.so")
    sh([CLANG, "-Wno-override-module", "-O3", "-march=" + MARCH[isa], "-fPIC",
        "-shared", "-nostdlib", "-x", "ir", "-", "-o", so], ir)
    undefined = [s for s in sh([os.path.join(LLVM, "llvm-nm"), "-D", "--undefined-only", so]).split()
                 if s not in ("U", "w") and s.split("@")[0] not in ALLOWED_UNDEFINED]
    if undefined:
        problems.append("undefined symbols: " + ", ".join(undefined))
    return so, problems, vector_ops


def host_runs(isa):
    flags = open("/proc/cpuinfo").read()
    need = {"avx2": ["avx2", "fma"], "avx512": ["avx512f"], "generic": []}[isa]
    return all(re.search(r"\b%s\b" % n, flags) for n in need)

def T(shape): return "tensor<%sxf32>"%"x".join(map(str,shape)) if shape else "tensor<f32>"
def M(shape): return "memref<%sxf32>"%"x".join(map(str,shape)) if shape else "memref<f32>"
def wrap(ins, outs, body, resname="%r"):
    """ins/outs: list of shapes. body uses %i0.. (input tensors) and %o0.. (output tensors). returns kernel text."""
    args=[f"%im{i}: {M(s)}" for i,s in enumerate(ins)]+[f"%om{i}: {M(s)}" for i,s in enumerate(outs)]
    pre=[f"  %i{i} = bufferization.to_tensor %im{i} restrict : {M(s)} to {T(s)}" for i,s in enumerate(ins)]
    pre+=[f"  %o{i} = bufferization.to_tensor %om{i} restrict writable : {M(s)} to {T(s)}" for i,s in enumerate(outs)]
    rn = resname if isinstance(resname,list) else [resname]
    post=[f"  bufferization.materialize_in_destination {rn[i]} in restrict writable %om{i} : ({T(s)}, {M(s)}) -> ()" for i,s in enumerate(outs)]
    return "func.func @k("+", ".join(args)+") {\n"+"\n".join(pre)+"\n"+body+"\n"+"\n".join(post)+"\n  return\n}\n"
def reduce_last(shape):
    out=shape[:-1]; r=len(shape)-1
    body=f'''  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%o0 : {T(out)}) -> {T(out)}
  %r = linalg.reduce ins(%i0 : {T(shape)}) outs(%f : {T(out)}) dimensions = [{r}]
    (%x: f32, %y: f32) {{ %s = arith.addf %x, %y : f32
      linalg.yield %s : f32 }}'''
    return wrap([shape],[out],body), lambda a: a.sum(axis=r)
def reduce_dim(shape, d, kind="add"):
    out=shape[:d]+shape[d+1:]
    init = "0.0" if kind=="add" else "0xFF800000"
    op = "arith.addf" if kind=="add" else "arith.maximumf"
    body=f'''  %z = arith.constant {init} : f32
  %f = linalg.fill ins(%z : f32) outs(%o0 : {T(out)}) -> {T(out)}
  %r = linalg.reduce ins(%i0 : {T(shape)}) outs(%f : {T(out)}) dimensions = [{d}]
    (%x: f32, %y: f32) {{ %s = {op} %x, %y : f32
      linalg.yield %s : f32 }}'''
    return wrap([shape],[out],body), (lambda a: a.sum(axis=d)) if kind=="add" else (lambda a: a.max(axis=d))
def softmax(shape, d):
    body=f'''  %e = tensor.empty() : {T(shape)}
  %r = linalg.softmax dimension({d}) ins(%i0 : {T(shape)}) outs(%e : {T(shape)}) -> {T(shape)}'''
    def ref(a):
        m=a.max(axis=d,keepdims=True); e=np.exp(a-m); return e/e.sum(axis=d,keepdims=True)
    return wrap([shape],[shape],body), ref
def transpose(shape, perm):
    out=[shape[p] for p in perm]
    body=f'''  %r = linalg.transpose ins(%i0 : {T(shape)}) outs(%o0 : {T(out)}) permutation = [{", ".join(map(str,perm))}]'''
    return wrap([shape],[out],body), lambda a: np.transpose(a,perm)
def generic_bcast_mul(shape):
    # out[i,j] = a[i,j] * b[j] + tanh(a) ; generic with broadcast + math
    R,C=shape
    body=f'''  %r = linalg.generic {{indexing_maps = [affine_map<(i,j)->(i,j)>, affine_map<(i,j)->(j)>, affine_map<(i,j)->(i,j)>], iterator_types=["parallel","parallel"]}}
      ins(%i0, %i1 : {T(shape)}, {T([C])}) outs(%o0 : {T(shape)}) {{
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = arith.mulf %a, %b : f32
      %t = math.tanh %a : f32
      %s = arith.addf %m, %t : f32
      linalg.yield %s : f32 }} -> {T(shape)}'''
    return wrap([shape,[C]],[shape],body), lambda a,b: a*b+np.tanh(a)
def generic_colsum_t(shape):
    # out[j] = sum_i a[i,j]  (generic, reduction outer)
    R,C=shape
    body=f'''  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%o0 : {T([C])}) -> {T([C])}
  %r = linalg.generic {{indexing_maps = [affine_map<(i,j)->(i,j)>, affine_map<(i,j)->(j)>], iterator_types=["reduction","parallel"]}}
      ins(%i0 : {T(shape)}) outs(%f : {T([C])}) {{
    ^bb0(%a: f32, %c: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32 }} -> {T([C])}'''
    return wrap([shape],[[C]],body), lambda a: a.sum(axis=0)
def generic_transpose_like(shape):
    R,C=shape
    body=f'''  %r = linalg.generic {{indexing_maps = [affine_map<(i,j)->(j,i)>, affine_map<(i,j)->(i,j)>], iterator_types=["parallel","parallel"]}}
      ins(%i0 : {T([C,R])}) outs(%o0 : {T(shape)}) {{
    ^bb0(%a: f32, %c: f32):
      %s = arith.addf %a, %a : f32
      linalg.yield %s : f32 }} -> {T(shape)}'''
    return wrap([[C,R]],[shape],body), lambda a: (a+a).T
def pool(kind, layout, N, C, H, W, k, s):
    OH=(H-k)//s+1; OW=(W-k)//s+1
    ish=[N,C,H,W] if layout=="nchw" else [N,H,W,C]
    osh=[N,C,OH,OW] if layout=="nchw" else [N,OH,OW,C]
    init="0xFF800000" if kind=="max" else "0.0"
    body=f'''  %z = arith.constant {init} : f32
  %f = linalg.fill ins(%z : f32) outs(%o0 : {T(osh)}) -> {T(osh)}
  %w = tensor.empty() : {T([k,k])}
  %r = linalg.pooling_{layout}_{kind} {{dilations = dense<1> : tensor<2xi64>, strides = dense<{s}> : tensor<2xi64>}}
     ins(%i0, %w : {T(ish)}, {T([k,k])}) outs(%f : {T(osh)}) -> {T(osh)}'''
    def ref(a):
        x=a if layout=="nchw" else a.transpose(0,3,1,2)
        o=np.full((N,C,OH,OW), -np.inf if kind=="max" else 0, np.float32)
        for i in range(k):
            for j in range(k):
                sl=x[:,:,i:i+s*(OH-1)+1:s, j:j+s*(OW-1)+1:s]
                o=np.maximum(o,sl) if kind=="max" else o+sl
        return o if layout=="nchw" else o.transpose(0,2,3,1)
    return wrap([ish],[osh],body), ref, [ish]
def conv(layout, N, C, H, W, F, k, s):
    OH=(H-k)//s+1; OW=(W-k)//s+1
    if layout=="nchw": ish=[N,C,H,W]; fsh=[F,C,k,k]; osh=[N,F,OH,OW]; op="conv_2d_nchw_fchw"
    else: ish=[N,H,W,C]; fsh=[k,k,C,F]; osh=[N,OH,OW,F]; op="conv_2d_nhwc_hwcf"
    body=f'''  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%o0 : {T(osh)}) -> {T(osh)}
  %r = linalg.{op} {{dilations = dense<1> : tensor<2xi64>, strides = dense<{s}> : tensor<2xi64>}}
     ins(%i0, %i1 : {T(ish)}, {T(fsh)}) outs(%f : {T(osh)}) -> {T(osh)}'''
    def ref(a, w):
        x=a.astype(np.float64) if layout=="nchw" else a.transpose(0,3,1,2).astype(np.float64)
        wf=w.astype(np.float64) if layout=="nchw" else w.transpose(3,2,0,1).astype(np.float64)
        o=np.zeros((N,F,OH,OW))
        for i in range(k):
            for j in range(k):
                sl=x[:,:,i:i+s*(OH-1)+1:s, j:j+s*(OW-1)+1:s]
                o+=np.einsum('nchw,fc->nfhw',sl,wf[:,:,i,j])
        return o if layout=="nchw" else o.transpose(0,2,3,1)
    return wrap([ish,fsh],[osh],body), ref, [ish,fsh]
def bmm(B,M,N,K):
    body=f'''  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%o0 : {T([B,M,N])}) -> {T([B,M,N])}
  %r = linalg.batch_matmul ins(%i0, %i1 : {T([B,M,K])}, {T([B,K,N])}) outs(%f : {T([B,M,N])}) -> {T([B,M,N])}'''
    return wrap([[B,M,K],[B,K,N]],[[B,M,N]],body), lambda a,b: np.matmul(a.astype(np.float64),b.astype(np.float64)), [[B,M,K],[B,K,N]]
def h_pad(shape, lo, hi, val=0.5):
    out=[s+a+b for s,a,b in zip(shape,lo,hi)]
    body=f'''  %cst = arith.constant {val} : f32
  %r = tensor.pad %i0 low[{", ".join(map(str,lo))}] high[{", ".join(map(str,hi))}] {{
  ^bb0({", ".join("%%a%d: index"%i for i in range(len(shape)))}):
    tensor.yield %cst : f32
  }} : {T(shape)} to {T(out)}'''
    return wrap([shape],[out],body), lambda a: np.pad(a,list(zip(lo,hi)),constant_values=val), [shape]
def h_concat(shapes, d):
    out=list(shapes[0]); out[d]=sum(s[d] for s in shapes)
    names=", ".join("%%i%d"%i for i in range(len(shapes)))
    body=f'''  %r = tensor.concat dim({d}) {names} : ({", ".join(T(s) for s in shapes)}) -> {T(out)}'''
    return wrap(shapes,[out],body), lambda *a: np.concatenate(a,axis=d), shapes
def h_insert(dshape, sshape, off):
    body=f'''  %r = tensor.insert_slice %i1 into %i0[{", ".join(map(str,off))}] [{", ".join(map(str,sshape))}] [{", ".join(["1"]*len(sshape))}] : {T(sshape)} into {T(dshape)}'''
    def ref(d,s):
        o=d.copy(); o[tuple(slice(a,a+b) for a,b in zip(off,sshape))]=s; return o
    return wrap([dshape,sshape],[dshape],body), ref, [dshape,sshape]
def h_generate(shape):
    n=len(shape)
    idx=", ".join("%%x%d"%i for i in range(n))
    body=f'''  %r = tensor.generate {{
  ^bb0({", ".join("%%x%d: index"%i for i in range(n))}):
    %s = arith.addi %x0, %x{n-1} : index
    %t = arith.index_cast %s : index to i32
    %f = arith.sitofp %t : i32 to f32
    %e = tensor.extract %i0[{", ".join("%%x%d"%i for i in range(n))}] : {T(shape)}
    %y = arith.mulf %f, %e : f32
    tensor.yield %y : f32
  }} : {T(shape)}'''
    def ref(a):
        ii=np.indices(shape); return ((ii[0]+ii[n-1]).astype(np.float32)*a)
    return wrap([shape],[shape],body), ref, [shape]
def h_from_elements(n):
    body="  %c0 = arith.constant 0 : index\n"+"\n".join(f"  %e{i} = tensor.extract %i0[%c{i}] : tensor<{n}xf32>" for i in range(0)) 
    lines=["  %cst = arith.constant 2.0 : f32"]
    for i in range(n):
        lines.append(f"  %x{i} = arith.constant {float(i)+0.25} : f32")
    lines.append(f"  %r = tensor.from_elements {', '.join('%%x%d'%i for i in range(n))} : tensor<1x{n}xf32>")
    return wrap([],[[1,n]],"\n".join(lines)), lambda : np.array([[i+0.25 for i in range(n)]],np.float32), []
def h_slice(shape, off, sizes, strides):
    body=f'''  %r = tensor.extract_slice %i0[{", ".join(map(str,off))}] [{", ".join(map(str,sizes))}] [{", ".join(map(str,strides))}] : {T(shape)} to {T(sizes)}'''
    return wrap([shape],[sizes],body), lambda a: a[tuple(slice(o,o+st*(s-1)+1,st) for o,s,st in zip(off,sizes,strides))], [shape]


def cases(quick):
    """(schedule, label, (kernel, reference, input shapes), needs vectors)"""
    c = []
    def add(sched, label, made, vec=True):
        c.append((sched, label, made, vec))
    for s in ([[5, 37], [17, 129], [2, 3, 61], [1, 1]] if quick else
              [[1, 1], [3, 7], [5, 37], [17, 129], [61, 17], [2, 3, 61]]):
        k, r = reduce_last(s)
        add("reduce", "reduce sum last %s" % s, (k, r, [s]))
    for s, d in ([([37, 17], 0), ([7, 3, 17], 1)] if quick else
                 [([37, 17], 0), ([7, 3, 17], 1), ([1, 9], 1), ([129, 7], 0)]):
        for kind in ("add", "max"):
            k, r = reduce_dim(s, d, kind)
            add("reduce", "reduce %s dim %d %s" % (kind, d, s), (k, r, [s]))
    for s, d in ([([5, 37], 1), ([2, 3, 61], 2), ([7, 17], 0)] if quick else
                 [([3, 7], 1), ([5, 37], 1), ([17, 129], 1), ([2, 3, 61], 2), ([7, 17], 0), ([1, 1], 1)]):
        k, r = softmax(s, d)
        add("softmax", "softmax dim %d %s" % (d, s), (k, r, [s]))
    for s, p in ([([37, 61], [1, 0]), ([3, 5, 7], [1, 0, 2]), ([2, 17, 9], [2, 1, 0])] if quick else
                 [([7, 3], [1, 0]), ([37, 61], [1, 0]), ([17, 129], [1, 0]), ([3, 5, 7], [1, 0, 2]),
                  ([2, 17, 9], [2, 1, 0]), ([4, 3, 5, 7], [0, 2, 1, 3]), ([1, 1], [1, 0])]):
        k, r = transpose(s, p)
        # A permutation that keeps the innermost dimension is a row copy.
        add("transpose", "transpose %s %s" % (s, p), (k, r, [s]), p[-1] != len(p) - 1)
    for s in ([[37, 61]] if quick else [[3, 7], [37, 61], [1, 129]]):
        k, r = generic_bcast_mul(s)
        add("generic", "generic broadcast-mul-tanh %s" % s, (k, r, [s, [s[1]]]))
        k, r = generic_colsum_t(s)
        add("generic", "generic column sum %s" % s, (k, r, [s]))
        k, r = generic_transpose_like(s)
        add("generic", "generic permuted read %s" % s, (k, r, [[s[1], s[0]]]))
    for a in ([(4, 37, 61, 17), (1, 1, 1, 1)] if quick else
              [(2, 3, 7, 5), (4, 37, 61, 17), (1, 1, 1, 1), (3, 16, 32, 64), (2, 129, 17, 3)]):
        add("batch_matmul", "batch_matmul %s" % (a,), bmm(*a))
    for kind in ("max", "sum"):
        for lay in ("nchw", "nhwc"):
            for a in ([(2, 3, 34, 34, 2, 2), (3, 37, 8, 8, 2, 2)] if quick else
                      [(2, 3, 34, 34, 2, 2), (1, 17, 7, 9, 3, 1), (1, 1, 1, 1, 1, 1), (3, 37, 8, 8, 2, 2)]):
                add("pool", "pool %s %s %s" % (kind, lay, a), pool(kind, lay, *a))
    for lay in ("nchw", "nhwc"):
        for a in ([(1, 17, 9, 19, 7, 3, 1), (2, 3, 11, 13, 17, 3, 2), (1, 5, 9, 31, 9, 5, 1)] if quick else
                  [(2, 3, 12, 12, 5, 3, 1), (1, 17, 9, 19, 7, 3, 1), (1, 1, 1, 1, 1, 1, 1),
                   (2, 3, 11, 13, 17, 3, 2), (1, 8, 6, 37, 16, 1, 1),
                   # Remainders of every register-tile dimension (lanes
                   # 16 + 8 + 3 and 16 + 7 on AVX2), 5x5 with stride 2.
                   (1, 5, 9, 31, 9, 5, 1), (1, 7, 9, 12, 23, 3, 1), (2, 5, 13, 13, 3, 5, 2)]):
            add("conv2d", "conv2d %s %s" % (lay, a), conv(lay, *a))
    pads = [([3, 7], [1, 2], [0, 3]), ([2, 3, 17, 17], [0, 0, 1, 1], [0, 0, 1, 1]), ([1, 1], [0, 0], [0, 0]), ([37, 5], [2, 0], [2, 9])]
    concats = [([[3, 7], [3, 9]], 1), ([[2, 5], [7, 5], [1, 5]], 0), ([[2, 3, 17], [2, 3, 4]], 2)]
    inserts = [([7, 9], [3, 4], [2, 5]), ([37, 61], [17, 30], [1, 3]), ([1, 3], [1, 3], [0, 0])]
    slices = [([8, 17], [0, 1], [4, 8], [2, 2]), ([5, 37], [1, 0], [3, 7], [1, 5]), ([3, 4, 61], [0, 1, 0], [3, 2, 20], [1, 2, 3])]
    if quick:
        pads, concats, inserts, slices = pads[1:2] + pads[3:], concats[:2], inserts[1:2], slices[::2]
    for a in pads:
        add("host", "host pad %s" % (a,), h_pad(*a))
    for a in concats:
        add("host", "host concat %s" % (a,), h_concat(*a))
    for a in inserts:
        add("host", "host insert_slice %s" % (a,), h_insert(*a))
    for a in ([[17, 37]] if quick else [[3, 7], [17, 37]]):
        add("host", "host generate %s" % (a,), h_generate(a))
    for n in ([7] if quick else [1, 3, 7]):
        # A handful of scalars: element stores, below the vector width.
        add("host", "host from_elements %d" % n, h_from_elements(n), False)
    for a in slices:
        add("host", "host strided extract_slice %s" % (a,), h_slice(*a))
    # The node shapes of examples/convnet.mlir and examples/transformer.mlir.
    if not quick:
        add("conv2d", "convnet conv 1", conv("nchw", 8, 3, 32, 32, 16, 5, 1))
        add("conv2d", "convnet conv 2", conv("nchw", 8, 16, 14, 14, 32, 3, 1))
        add("pool", "convnet pool 1", pool("max", "nchw", 8, 16, 28, 28, 2, 2))
        add("pool", "convnet pool 2", pool("max", "nchw", 8, 32, 12, 12, 2, 2))
        for s_, p_ in (([128, 4, 64], [1, 0, 2]), ([128, 4, 64], [1, 2, 0]), ([4, 128, 64], [1, 0, 2])):
            k, r = transpose(s_, p_)
            add("transpose", "transformer transpose %s %s" % (s_, p_), (k, r, [s_]), p_[-1] != len(p_) - 1)
        add("batch_matmul", "transformer scores", bmm(4, 128, 128, 64))
        add("batch_matmul", "transformer context", bmm(4, 128, 64, 128))
        k, r = softmax([4, 128, 128], 2)
        add("softmax", "transformer softmax", (k, r, [[4, 128, 128]]))
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="a subset (the ctest)")
    ap.add_argument("--isa", default="avx2", choices=sorted(MARCH))
    ap.add_argument("--only", default=None, help="one schedule (op kind)")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    if not host_runs(args.isa):
        print("skipped: this CPU cannot run %s code" % args.isa)
        return 0
    rng = np.random.default_rng(12)
    failed = 0
    todo = [c for c in cases(args.quick) if args.only in (None, c[0])]
    for sched, label, (kernel, ref, shapes), vec in todo:
        inputs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        outs = [[int(x) for x in m.group(1).split("x")] for m in
                re.finditer(r"%om\d+: memref<([0-9x]*)xf32>", kernel.split("\n")[0])]
        start = time.time()
        with tempfile.TemporaryDirectory() as wd:
            try:
                so, problems, nvec = compile_kernel(
                    kernel, os.path.join(SCHEDULES, sched + ".mlir"), args.isa, wd)
            except RuntimeError as e:
                print("FAIL %s: %s" % (label, e))
                failed += 1
                continue
            if vec and nvec == 0 and sum(int(np.prod(o)) for o in outs) > 1:
                problems.append("no vector ops after the schedule")
            lib = ctypes.CDLL(so)
            results = [np.full(s, np.nan, dtype=np.float32) for s in outs]
            fn = lib.k
            fn.restype = None
            fn(*[a.ctypes.data_as(ctypes.c_void_p) for a in inputs + results])
            expected = ref(*inputs)
            if not isinstance(expected, (list, tuple)):
                expected = [expected]
            for got, want in zip(results, expected):
                # Tolerance: 2e-4 relative to max(1, |reference|): float32
                # sums of up to a few hundred terms and polynomial exp/tanh.
                err = float(np.max(np.abs(got - want) / (np.abs(want) + 1))) if got.size else 0.0
                if not np.isfinite(err) or err > 2e-4:
                    problems.append("max relative error %g" % err)
            if problems:
                failed += 1
                print("FAIL %s: %s" % (label, "; ".join(problems)))
            elif args.v:
                print("ok   %s (%d vector ops, %.1f s)" % (label, nvec, time.time() - start))
    print("%d of %d kernels passed (%s)" % (len(todo) - failed, len(todo), args.isa))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
