#!/usr/bin/python3
"""Drives libFuelCAPI.so from Python ctypes, as a frontend would: the one
library loaded gives fuel's compiler C API (fuel-c/Compiler.h), the MLIR C
API and, through its dependency libfuelrt.so, the runtime's C API.

  capi_test.py --capi libFuelCAPI.so --program two-layer.mlir
      --topology cpu-only.json --fuel-compile fuel-compile --work DIR

Checks:
  (a) fuelCompileText on the two-layer program gives an executable that
      libfuelrt loads and runs (fuelRuntimeCreate, fuelExecutableLoadBytes,
      fuelSessionCreate, bind, run, read), matching numpy within the
      integration tests' default tolerance; the same call gives the same
      bytes again, and the bytes fuel-compile writes for the same input;
      a stage gives fuel-compile --emit's IR text; four threads compiling
      at once get the same bytes;
  (b) IR that does not parse or verify gives an error status whose message
      holds `name:line:col: error:` with the parser's message (and notes);
      an error at a node is located and holds no op text; a bad option
      gives a status naming it; the diagnostic handler sees remarks;
  (c) a module parsed through the exported MLIR C API (a context with
      fuel's dialects, mlirModuleCreateParse) compiled by fuelCompileModule
      gives the same bytes as (a), and stays unchanged; planned first by
      fuel-plan in an MLIR C API pass manager, it compiles to them too;
  (d) NULL arguments give error statuses, never a crash.
Prints one line per check and exits 1 on the first failure.
"""

import argparse
import ctypes
import os
import subprocess
import sys
import threading

import numpy as np

c_void_p, c_char_p, c_size_t = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t
c_int, c_uint32, c_uint64 = ctypes.c_int, ctypes.c_uint32, ctypes.c_uint64
c_int64, c_bool = ctypes.c_int64, ctypes.c_bool

DIAGNOSTIC_HANDLER = ctypes.CFUNCTYPE(None, c_int, c_char_p, c_void_p)

# fuelStatusCode and fuelCompileStage values (fuel-c/Runtime.h, Compiler.h).
INVALID_ARGUMENT = 1
STAGE_PLANNED = 1
STAGE_PTX = 8
DIAGNOSTIC_REMARK = 3
DTYPE_F32 = 0

# fuel-compile's environment: this one less the shared ASan runtime in
# LD_PRELOAD. Under the sanitizer suite this process preloads it for the
# instrumented library, and fuel-compile, linked with the static one, refuses
# a second.
TOOL_ENV = dict(os.environ)
if "LD_PRELOAD" in TOOL_ENV:
    TOOL_ENV["LD_PRELOAD"] = ":".join(
        p for p in TOOL_ENV["LD_PRELOAD"].split(":")
        if p and "libclang_rt.asan" not in p)


class CompileOptions(ctypes.Structure):
    _fields_ = [("topology", c_char_p), ("planOptions", c_char_p),
                ("stage", c_int), ("diagnosticHandler", DIAGNOSTIC_HANDLER),
                ("diagnosticUserData", c_void_p), ("cudaToolkit", c_char_p)]


class RuntimeOptions(ctypes.Structure):
    _fields_ = [("threads", c_uint32), ("cpuMemoryLimit", c_uint64),
                ("shimDirectory", c_char_p)]


class TensorInfo(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("dtype", c_int), ("rank", c_size_t),
                ("shape", ctypes.POINTER(c_int64)), ("byteSize", c_size_t)]


class Handle(ctypes.Structure):
    """An MLIR C API handle: MlirContext, MlirModule, ... ({void *ptr})."""
    _fields_ = [("ptr", c_void_p)]


class StringRef(ctypes.Structure):
    _fields_ = [("data", c_void_p), ("length", c_size_t)]


# MlirStringCallback: void (*)(MlirStringRef, void *).
STRING_CALLBACK = ctypes.CFUNCTYPE(None, StringRef, c_void_p)


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def bind(lib):
    """Declares the signatures used here."""
    sig = {
        "fuelCompilerCApiVersion": (c_uint32, []),
        "fuelCompileText": (c_void_p, [c_char_p, c_size_t, c_char_p,
                                       ctypes.POINTER(CompileOptions),
                                       ctypes.POINTER(c_void_p)]),
        "fuelCompileModule": (c_void_p, [Handle,
                                         ctypes.POINTER(CompileOptions),
                                         ctypes.POINTER(c_void_p)]),
        "fuelBufferData": (c_void_p, [c_void_p]),
        "fuelBufferSize": (c_size_t, [c_void_p]),
        "fuelBufferDestroy": (None, [c_void_p]),
        "fuelRegisterCompilerDialects": (None, [Handle]),
        "fuelRegisterCompilerPasses": (None, []),
        "fuelStatusIsOk": (c_int, [c_void_p]),
        "fuelStatusGetCode": (c_int, [c_void_p]),
        "fuelStatusMessage": (c_char_p, [c_void_p]),
        "fuelStatusFree": (None, [c_void_p]),
        "fuelRuntimeCreate": (c_void_p, [ctypes.POINTER(RuntimeOptions),
                                         ctypes.POINTER(c_void_p)]),
        "fuelRuntimeDestroy": (None, [c_void_p]),
        "fuelExecutableLoadBytes": (c_void_p, [c_void_p, c_void_p, c_size_t,
                                               ctypes.POINTER(c_void_p)]),
        "fuelExecutableDestroy": (None, [c_void_p]),
        "fuelExecutableInputCount": (c_void_p, [c_void_p,
                                                ctypes.POINTER(c_size_t)]),
        "fuelExecutableInputInfo": (c_void_p, [c_void_p, c_size_t,
                                               ctypes.POINTER(TensorInfo)]),
        "fuelExecutableOutputInfo": (c_void_p, [c_void_p, c_size_t,
                                                ctypes.POINTER(TensorInfo)]),
        "fuelSessionCreate": (c_void_p, [c_void_p, ctypes.POINTER(c_void_p)]),
        "fuelSessionDestroy": (None, [c_void_p]),
        "fuelSessionBindInput": (c_void_p, [c_void_p, c_size_t, c_int,
                                            ctypes.POINTER(c_int64), c_size_t,
                                            c_void_p, c_size_t]),
        "fuelSessionRun": (c_void_p, [c_void_p]),
        "fuelSessionReadOutput": (c_void_p, [c_void_p, c_size_t, c_void_p,
                                             c_size_t]),
        "mlirDialectRegistryCreate": (Handle, []),
        "mlirDialectRegistryDestroy": (None, [Handle]),
        "mlirContextCreateWithRegistry": (Handle, [Handle, c_bool]),
        "mlirContextDestroy": (None, [Handle]),
        "mlirModuleCreateParse": (Handle, [Handle, StringRef]),
        "mlirModuleDestroy": (None, [Handle]),
        "mlirModuleGetOperation": (Handle, [Handle]),
        "mlirOperationPrint": (None, [Handle, STRING_CALLBACK, c_void_p]),
        "mlirGetDialectHandle__fuel__": (Handle, []),
        "mlirGetDialectHandle__func__": (Handle, []),
        "mlirGetDialectHandle__linalg__": (Handle, []),
        "mlirDialectHandleGetNamespace": (StringRef, [Handle]),
        "mlirPassManagerCreate": (Handle, [Handle]),
        "mlirPassManagerDestroy": (None, [Handle]),
        "mlirPassManagerGetAsOpPassManager": (Handle, [Handle]),
        "mlirParsePassPipeline": (ctypes.c_int8, [Handle, StringRef,
                                                  STRING_CALLBACK, c_void_p]),
        "mlirPassManagerRunOnOp": (ctypes.c_int8, [Handle, Handle]),
    }
    for name, (restype, argtypes) in sig.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes


class Api:
    def __init__(self, lib):
        self.lib = lib

    def take(self, status):
        """(code, message) of a status, freed; (0, "") for success."""
        if not status:
            return 0, ""
        code = self.lib.fuelStatusGetCode(status)
        message = self.lib.fuelStatusMessage(status).decode()
        self.lib.fuelStatusFree(status)
        return code, message

    def ok(self, status, what):
        code, message = self.take(status)
        check(code == 0, f"{what} failed: {message}")

    def bytes_of(self, buffer):
        size = self.lib.fuelBufferSize(buffer)
        data = ctypes.string_at(self.lib.fuelBufferData(buffer), size)
        self.lib.fuelBufferDestroy(buffer)
        return data

    def compile_text(self, text, name, options):
        """(bytes or None, code, message)."""
        out = c_void_p()
        raw = text.encode()
        status = self.lib.fuelCompileText(raw, len(raw), name.encode(),
                                          ctypes.byref(options)
                                          if options else None,
                                          ctypes.byref(out))
        code, message = self.take(status)
        if code:
            check(not out.value, "an error left a buffer")
            return None, code, message
        return self.bytes_of(out), 0, ""

    def run(self, executable, inputs):
        """Runs `executable` (bytes) on `inputs`; returns output 0."""
        lib = self.lib
        options = RuntimeOptions(threads=2)
        runtime, exe, session = c_void_p(), c_void_p(), c_void_p()
        self.ok(lib.fuelRuntimeCreate(ctypes.byref(options),
                                      ctypes.byref(runtime)),
                "fuelRuntimeCreate")
        try:
            self.ok(lib.fuelExecutableLoadBytes(runtime, executable,
                                                len(executable),
                                                ctypes.byref(exe)),
                    "fuelExecutableLoadBytes")
            count = c_size_t()
            self.ok(lib.fuelExecutableInputCount(exe, ctypes.byref(count)),
                    "fuelExecutableInputCount")
            check(count.value == len(inputs),
                  f"{count.value} inputs, expected {len(inputs)}")
            self.ok(lib.fuelSessionCreate(exe, ctypes.byref(session)),
                    "fuelSessionCreate")
            for i, array in enumerate(inputs):
                info = TensorInfo()
                self.ok(lib.fuelExecutableInputInfo(exe, i,
                                                    ctypes.byref(info)),
                        "fuelExecutableInputInfo")
                shape = tuple(info.shape[d] for d in range(info.rank))
                check(shape == array.shape and info.dtype == DTYPE_F32,
                      f"input {i} is {shape}, expected {array.shape}")
                dims = (c_int64 * array.ndim)(*array.shape)
                self.ok(lib.fuelSessionBindInput(
                    session, i, DTYPE_F32, dims, array.ndim,
                    array.ctypes.data, array.nbytes), "fuelSessionBindInput")
            self.ok(lib.fuelSessionRun(session), "fuelSessionRun")
            info = TensorInfo()
            self.ok(lib.fuelExecutableOutputInfo(exe, 0, ctypes.byref(info)),
                    "fuelExecutableOutputInfo")
            shape = tuple(info.shape[d] for d in range(info.rank))
            out = np.zeros(shape, dtype=np.float32)
            self.ok(lib.fuelSessionReadOutput(session, 0, out.ctypes.data,
                                              out.nbytes),
                    "fuelSessionReadOutput")
            return out
        finally:
            lib.fuelSessionDestroy(session)
            lib.fuelExecutableDestroy(exe)
            lib.fuelRuntimeDestroy(runtime)


def reference(x, w1, b1, w2, b2):
    """The two-layer program in float64, by numpy."""
    x, w1, b1, w2, b2 = (a.astype(np.float64) for a in (x, w1, b1, w2, b2))
    return np.maximum(x @ w1 + b1, 0.0) @ w2 + b2


def compare(out, ref, rtol=1e-5, atol=1e-6):
    """run-and-check.py's default tolerance: |out-ref| <= atol+rtol*|ref|."""
    want = ref.astype(np.float32).astype(np.float64)
    diff = np.abs(out.astype(np.float64) - want)
    bad = ~(diff <= atol + rtol * np.abs(want))
    check(out.shape == ref.shape, f"shape {out.shape}, expected {ref.shape}")
    check(not bad.any(), f"{int(bad.sum())} of {out.size} elements outside "
          f"tolerance; max abs error {diff.max():.3e}")
    return float(diff.max())


def test_compile_and_run(api, args, program):
    """(a): compile from text, run, compare; determinism; fuel-compile."""
    options = CompileOptions(topology=args.topology.encode())
    exe, code, message = api.compile_text(program, args.program, options)
    check(code == 0, f"fuelCompileText failed: {message}")
    check(len(exe) > 0, "empty executable")
    rng = np.random.default_rng(7)
    shapes = [(8, 16), (16, 32), (32,), (32, 4), (4,)]
    inputs = [rng.uniform(-1, 1, size=s).astype(np.float32) for s in shapes]
    out = api.run(exe, inputs)
    error = compare(out, reference(*inputs))
    print(f"(a) fuelCompileText: {len(exe)} bytes; output 8x4 matches numpy "
          f"(max abs error {error:.2e})")

    again, code, message = api.compile_text(program, args.program, options)
    check(again == exe, "a second fuelCompileText gave other bytes")
    tool_exe = os.path.join(args.work, "two-layer.fuelx")
    subprocess.run([args.fuel_compile, args.program, "--topology",
                    args.topology, "-o", tool_exe], check=True, env=TOOL_ENV)
    with open(tool_exe, "rb") as f:
        check(f.read() == exe, "fuel-compile wrote other bytes than "
              "fuelCompileText for the same input and topology")
    print("(a) the same bytes again, and the bytes of fuel-compile")

    # fuel-plan option text reads as fuel-compile --plan reads it.
    plan = ("pinned-device='cpu' keep-per-device=2 price-transfers=false "
            "placement-algorithm=greedy kernel-sources=generated,openblas")
    options.planOptions = plan.encode()
    planned_exe, code, message = api.compile_text(program, args.program,
                                                  options)
    check(code == 0, f"--plan options failed: {message}")
    subprocess.run([args.fuel_compile, args.program, "--topology",
                    args.topology, "--plan", plan, "-o", tool_exe],
                   check=True, env=TOOL_ENV)
    with open(tool_exe, "rb") as f:
        check(f.read() == planned_exe, f"planOptions {plan!r} give other "
              "bytes than fuel-compile --plan")
    options.planOptions = None
    print(f"(a) planOptions {plan!r}: the bytes of fuel-compile --plan")

    options.stage = STAGE_PLANNED
    ir, code, message = api.compile_text(program, args.program, options)
    check(code == 0, f"stage planned failed: {message}")
    tool_ir = subprocess.run([args.fuel_compile, args.program, "--topology",
                              args.topology, "--emit=planned", "-o", "-"],
                             check=True, capture_output=True,
                             env=TOOL_ENV).stdout
    check(ir == tool_ir, "stage planned differs from fuel-compile "
          "--emit=planned")
    print("(a) stage planned: the IR of fuel-compile --emit=planned")
    return exe


def test_cuda_toolkit(api, args, program):
    """cudaToolkit reads as fuel-compile --cuda-toolkit: a directory without
    libdevice is an error naming it; "" (no toolkit) lowers the cuda
    kernels to the PTX fuel-compile --cuda-toolkit= prints."""
    topology = os.path.join(os.path.dirname(args.topology), "cpu-cuda.json")
    plan = b"pinned-device=cuda:0"
    options = CompileOptions(topology=topology.encode(), planOptions=plan,
                             stage=STAGE_PTX,
                             cudaToolkit=b"/nonexistent-cuda-toolkit")
    out, code, message = api.compile_text(program, args.program, options)
    expected = ("convert-fuel-to-nvvm: option "
                "cuda-toolkit='/nonexistent-cuda-toolkit' has no libdevice")
    check(code == INVALID_ARGUMENT and expected in message,
          f"cudaToolkit without libdevice: code {code}, message {message!r}")
    print(f"(e) cudaToolkit without libdevice: "
          f"{message.splitlines()[0][:100]}")
    options.cudaToolkit = b""
    ir, code, message = api.compile_text(program, args.program, options)
    check(code == 0, f"cudaToolkit '': {message}")
    check(b"gpu.binary" in ir, "stage ptx holds no gpu.binary")
    tool_ir = subprocess.run([args.fuel_compile, args.program, "--topology",
                              topology, "--plan", plan.decode(),
                              "--cuda-toolkit=", "--emit=ptx", "-o", "-"],
                             check=True, capture_output=True,
                             env=TOOL_ENV).stdout
    check(ir == tool_ir, "cudaToolkit '' differs from fuel-compile "
          "--cuda-toolkit=")
    print("(e) cudaToolkit '': the PTX stage of fuel-compile --cuda-toolkit=")


def test_threads(api, args, program, expected):
    """Compiles on four threads at once (ctypes drops the GIL in calls):
    each call has its own context, and every one gives the same bytes."""
    results = [None] * 4

    def work(i):
        options = CompileOptions(topology=args.topology.encode())
        results[i] = api.compile_text(program, args.program, options)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for exe, code, message in results:
        check(code == 0, f"a concurrent compile failed: {message}")
        check(exe == expected, "a concurrent compile gave other bytes")
    print("(a) four concurrent fuelCompileText calls: the same bytes")


def test_errors(api, args, program):
    """(b): diagnostics with locations; bad options named."""
    bad = ("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
           "  return %y : tensor<4xf32>\n}\n")
    out, code, message = api.compile_text(bad, "bad.mlir", None)
    check(code == INVALID_ARGUMENT, f"bad IR: code {code}: {message}")
    check("bad.mlir:2:10: error: use of undeclared SSA value name" in message,
          f"bad IR: message is {message!r}")
    print(f"(b) bad IR: {message.splitlines()[0]}")

    twice = ("func.func @f() {\n  return\n}\n"
             "func.func @f() {\n  return\n}\n")
    out, code, message = api.compile_text(twice, "twice.mlir", None)
    check(code == INVALID_ARGUMENT and
          "twice.mlir:4:1: error: redefinition of symbol named 'f'" in message
          and "twice.mlir:1:1: note: see existing symbol definition here"
          in message, f"redefinition: {message!r}")
    print("(b) a verifier error carries its note, both located")

    pinned = ("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
              "  %e = tensor.empty() : tensor<4xf32>\n"
              "  %y = linalg.exp {fuel.pin = #fuel.device<cuda:3>}\n"
              "      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>)"
              " -> tensor<4xf32>\n"
              "  return %y : tensor<4xf32>\n}\n")
    options = CompileOptions(topology=args.topology.encode())
    out, code, message = api.compile_text(pinned, "pinned.mlir", options)
    check(code == INVALID_ARGUMENT and
          "pinned.mlir:3:8: error: node 0 (elementwise): decision device "
          "'cuda:3' is not in the topology" in message and
          "see current operation" not in message,
          f"an error at a node: {message!r}")
    print("(b) an error at a node: located, without the op's text")

    cases = [
        (dict(planOptions=b"keep-per-device=lots"),
         "fuel-plan option 'keep-per-device': 'lots' is not an unsigned "
         "integer"),
        (dict(planOptions=b"explain=maybe"),
         "fuel-plan option 'explain': 'maybe' is not a boolean"),
        (dict(planOptions=b"precision=none no-such-option=1"),
         "unknown fuel-plan option 'no-such-option'"),
        (dict(planOptions=b"precision"),
         "fuel-plan option 'precision' needs a value"),
        (dict(planOptions=b"topology=x.json"),
         "fuel-plan option 'topology' is not read from option text"),
        (dict(planOptions=b"precision='bit-stable"), "unterminated quote"),
        (dict(stage=99), "fuelCompileOptions.stage 99 is not a "
         "fuelCompileStage"),
        (dict(topology=b"/nonexistent/topology.json"),
         "/nonexistent/topology.json"),
    ]
    for fields, expected in cases:
        options = CompileOptions(**fields)
        out, code, message = api.compile_text(program, args.program, options)
        check(code == INVALID_ARGUMENT and expected in message,
              f"options {fields}: code {code}, message {message!r}, "
              f"expected {expected!r}")
        print(f"(b) {fields}: {message.splitlines()[0][:110]}")

    # Quoted values and bare flags parse; remarks reach the handler.
    seen = []

    def handler(severity, text, user_data):
        seen.append((severity, text.decode()))

    callback = DIAGNOSTIC_HANDLER(handler)
    options = CompileOptions(topology=args.topology.encode(),
                             planOptions=b"precision='none' explain "
                                         b"keep-per-device=4",
                             diagnosticHandler=callback)
    exe, code, message = api.compile_text(program, args.program, options)
    check(code == 0, f"a bare explain failed: {message}")
    remarks = [t for s, t in seen if s == DIAGNOSTIC_REMARK]
    check(remarks and all(args.program + ":" in t for t in remarks),
          f"no located remark reached the handler: {seen[:3]}")
    print(f"(b) explain (a bare flag): {len(remarks)} remarks to the handler, e.g. "
          f"{remarks[0].splitlines()[0][:90]}")


def test_module(api, args, program, expected):
    """(c): a module from the MLIR C API compiles to the bytes of (a)."""
    lib = api.lib
    namespace = lib.mlirDialectHandleGetNamespace
    for dialect in ("fuel", "func", "linalg"):
        ref = namespace(getattr(lib, f"mlirGetDialectHandle__{dialect}__")())
        check(ctypes.string_at(ref.data, ref.length).decode() == dialect,
              f"the {dialect} dialect handle")
    registry = lib.mlirDialectRegistryCreate()
    lib.fuelRegisterCompilerDialects(registry)
    context = lib.mlirContextCreateWithRegistry(registry, False)
    lib.mlirDialectRegistryDestroy(registry)
    try:
        raw = ctypes.create_string_buffer(program.encode())
        module = lib.mlirModuleCreateParse(
            context, StringRef(ctypes.addressof(raw), len(raw) - 1))
        check(module.ptr, "mlirModuleCreateParse failed")

        def text_of():
            chunks = []
            callback = STRING_CALLBACK(
                lambda s, _: chunks.append(ctypes.string_at(s.data,
                                                            s.length)))
            lib.mlirOperationPrint(lib.mlirModuleGetOperation(module),
                                   callback, None)
            return b"".join(chunks)

        before = text_of()
        check(b"func.func @two_layer" in before, "mlirOperationPrint")
        options = CompileOptions(topology=args.topology.encode())
        out = c_void_p()
        api.ok(lib.fuelCompileModule(module, ctypes.byref(options),
                                     ctypes.byref(out)), "fuelCompileModule")
        got = api.bytes_of(out)
        check(got == expected, "fuelCompileModule gave other bytes than "
              "fuelCompileText")
        check(text_of() == before, "fuelCompileModule changed the module")
        print("(c) fuelCompileModule on a module parsed through the MLIR C "
              "API: the bytes of (a); the module unchanged")

        # Planned by the frontend's own pass manager through the MLIR C API
        # (fuel-plan, registered by fuelRegisterCompilerPasses), then
        # compiled: lowered as it is, to the same bytes.
        pm = lib.mlirPassManagerCreate(context)
        errors = []
        pipeline = f"builtin.module(fuel-plan{{topology={args.topology}}})"
        pipeline_text = ctypes.create_string_buffer(pipeline.encode())
        parsed = lib.mlirParsePassPipeline(
            lib.mlirPassManagerGetAsOpPassManager(pm),
            StringRef(ctypes.addressof(pipeline_text), len(pipeline)),
            STRING_CALLBACK(lambda s, _: errors.append(
                ctypes.string_at(s.data, s.length))), None)
        check(parsed == 1, f"mlirParsePassPipeline: {errors}")
        check(lib.mlirPassManagerRunOnOp(
            pm, lib.mlirModuleGetOperation(module)) == 1, "fuel-plan failed")
        lib.mlirPassManagerDestroy(pm)
        planned = text_of()
        check(b"fuel.node" in planned and b"fuel.topology" in planned,
              "fuel-plan left no nodes")
        api.ok(lib.fuelCompileModule(module, ctypes.byref(options),
                                     ctypes.byref(out)),
               "fuelCompileModule (planned)")
        check(api.bytes_of(out) == expected, "the module planned through "
              "the C API pass manager compiles to other bytes")
        print("(c) planned by fuel-plan in an MLIR C API pass manager, then "
              "fuelCompileModule: the bytes of (a)")

        # Planning options do not apply to a planned module.
        options.planOptions = b"explain=true"
        code, message = api.take(lib.fuelCompileModule(
            module, ctypes.byref(options), ctypes.byref(out)))
        check(code == INVALID_ARGUMENT and not out.value, message)
        print(f"(c) plan options on a planned module: "
              f"{message.splitlines()[0][:100]}")

        # A bad option through the module entry point too.
        options.planOptions = b"placement-algorithm=fastest"
        code, message = api.take(lib.fuelCompileModule(
            module, ctypes.byref(options), ctypes.byref(out)))
        check(code == INVALID_ARGUMENT and
              "'placement-algorithm': 'fastest'" in message, message)
        lib.mlirModuleDestroy(module)
    finally:
        lib.mlirContextDestroy(context)


def test_null_arguments(api, program):
    """(d): NULL arguments are error statuses."""
    lib = api.lib
    out = c_void_p()
    raw = program.encode()
    cases = [
        (lib.fuelCompileText(None, 0, None, None, ctypes.byref(out)),
         "fuelCompileText: text is null"),
        (lib.fuelCompileText(raw, len(raw), None, None, None),
         "fuelCompileText: outBuffer is null"),
        (lib.fuelCompileModule(Handle(None), None, ctypes.byref(out)),
         "fuelCompileModule: module is null"),
        (lib.fuelCompileModule(Handle(None), None, None),
         "fuelCompileModule: outBuffer is null"),
    ]
    for status, expected in cases:
        code, message = api.take(status)
        check(code == INVALID_ARGUMENT and message == expected,
              f"expected {expected!r}, got {code} {message!r}")
        check(not out.value, "a NULL argument left a buffer")
    check(lib.fuelBufferData(None) is None and lib.fuelBufferSize(None) == 0,
          "a NULL buffer")
    lib.fuelBufferDestroy(None)
    # No bytes at all: an empty module, a result or a message either way.
    exe, code, message = api.compile_text("", "empty.mlir", None)
    check(exe is not None or message, "an empty input: no result, no message")
    print("(d) NULL arguments: error statuses naming the argument")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--capi", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--topology", required=True)
    parser.add_argument("--fuel-compile", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)

    # One library: the runtime's entry points resolve through its
    # dependency libfuelrt.so.
    lib = ctypes.CDLL(args.capi)
    bind(lib)
    api = Api(lib)
    with open(args.program) as f:
        program = f.read()
    try:
        version = lib.fuelCompilerCApiVersion()
        check(version == 2000, f"fuelCompilerCApiVersion() is {version}")
        lib.fuelRegisterCompilerPasses()
        exe = test_compile_and_run(api, args, program)
        test_threads(api, args, program, exe)
        test_errors(api, args, program)
        test_module(api, args, program, exe)
        test_null_arguments(api, program)
        test_cuda_toolkit(api, args, program)
    except CheckFailed as e:
        print(f"capi_test: FAILED: {e}")
        return 1
    print("capi_test: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
