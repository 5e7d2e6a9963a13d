//===- CpuObject.cpp - Kernel modules to ELF shared objects ---------------===//
//
// The object step of serialization (CpuObject.h): an LLVM-dialect kernel
// module becomes LLVM IR, is optimised at O3 with the new pass manager,
// compiled by llvm::TargetMachine for the cpu target and linked by lld, as a
// library in this process, into one ELF shared object; then its dynamic
// symbol table is checked: the object may need nothing but the libc memory
// functions LLVM itself emits.
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/CPU/CpuObject.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Threading.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "lld/Common/Driver.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>

LLD_HAS_DRIVER(elf)

using namespace mlir;
using namespace mlir::fuel;

namespace {

/// Undefined symbols a kernel object may keep: the memory functions LLVM
/// emits for large copies and fills, which every process has from libc.
constexpr llvm::StringLiteral kAllowedUndefined[] = {"memcpy", "memmove",
                                                     "memset"};

bool isAllowedUndefined(StringRef name) {
  return llvm::is_contained(kAllowedUndefined, name);
}

/// One timed step of the object step: a timer nested in the caller's (when
/// it gave one) and its wall seconds added to a counter (when it asked).
class Step {
public:
  Step(Timer &parent, StringRef name, double *seconds)
      : scope(parent.nest(name)), seconds(seconds),
        start(std::chrono::steady_clock::now()) {}
  ~Step() {
    if (seconds)
      *seconds += std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  }

private:
  TimingScope scope;
  double *seconds;
  std::chrono::steady_clock::time_point start;
};

/// The counter of a step in `times`, or null.
double *counter(CpuObjectTimes *times, double CpuObjectTimes::*field) {
  return times ? &(times->*field) : nullptr;
}

/// `module` as optimised LLVM IR for `target`, with the target machine that
/// compiles it; errors at the module.
struct CompiledModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::TargetMachine> machine;
  std::unique_ptr<llvm::Module> module;
};

/// A target machine for `target`, or an error message.
FailureOr<std::unique_ptr<llvm::TargetMachine>>
createMachine(const CpuTargetSpec &target, std::string &error) {
  llvm::Triple triple(target.triple);
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget) {
    error = "cpu target '" + target.triple + "': " + error;
    return failure();
  }
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      triple, target.cpu, target.features, options, llvm::Reloc::PIC_,
      llvm::CodeModel::Small, llvm::CodeGenOptLevel::Aggressive));
  if (!machine) {
    error = "no target machine for '" + target.cpu + "'";
    return failure();
  }
  return machine;
}

/// `module` as LLVM IR for `target`, not optimised yet, with the target
/// machine that compiles it; errors at the module.
FailureOr<CompiledModule> translate(ModuleOp module,
                                    const CpuTargetSpec &target, Timer &timing,
                                    CpuObjectTimes *times) {
  initializeNativeCpuTarget();
  CompiledModule result;
  std::string error;
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createMachine(target, error);
  if (failed(machine))
    return module.emitError() << error;
  result.machine = std::move(*machine);

  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  module->getContext()->appendDialectRegistry(registry);

  Step translating(timing, "translate to LLVM IR",
                   counter(times, &CpuObjectTimes::translate));
  result.context = std::make_unique<llvm::LLVMContext>();
  // A copy without the fuel attributes the translation does not know.
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone());
  copy->walk([](Operation *op) {
    SmallVector<StringAttr> drop;
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (attr.getName().getValue().starts_with("fuel."))
        drop.push_back(attr.getName());
    for (StringAttr name : drop)
      op->removeAttr(name);
  });
  result.module =
      translateModuleToLLVMIR(copy.get(), *result.context, "fuel_kernels");
  if (!result.module)
    return module.emitError("translation of the kernels to LLVM IR failed");
  result.module->setTargetTriple(llvm::Triple(target.triple));
  result.module->setDataLayout(result.machine->createDataLayout());
  return result;
}

/// LLVM's O3 pipeline over `module` for `machine`.
void runO3(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder pb(&machine, tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm =
      pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(module, mam);
}

/// The first call in `modules` to a function none of them defines, as an
/// error message naming the kernel (entry) that makes it (the body is
/// inlined into its entry at O3); empty when there is none.
std::string undefinedCall(llvm::ArrayRef<llvm::Module *> modules) {
  llvm::StringSet<> defined;
  for (llvm::Module *m : modules)
    for (llvm::Function &fn : *m)
      if (!fn.isDeclaration())
        defined.insert(fn.getName());
  for (llvm::Module *m : modules)
    for (llvm::Function &fn : *m) {
      if (!fn.isDeclaration() || fn.isIntrinsic() ||
          isAllowedUndefined(fn.getName()) || fn.use_empty() ||
          defined.contains(fn.getName()))
        continue;
      std::string user = "?";
      for (llvm::User *u : fn.users())
        if (auto *inst = llvm::dyn_cast<llvm::Instruction>(u)) {
          user = inst->getFunction()->getName().str();
          break;
        }
      return "kernel @" + user + " needs the undefined symbol '" +
             fn.getName().str() +
             "'; kernels may only need memcpy, memmove and memset";
    }
  return "";
}

/// Runs O3 on a translated module as one part and checks that it calls
/// nothing outside itself; errors at `module`.
LogicalResult optimizeWhole(ModuleOp module, CompiledModule &compiled,
                            Timer &timing, CpuObjectTimes *times) {
  {
    Step optimizing(timing, "LLVM O3",
                    counter(times, &CpuObjectTimes::optimize));
    runO3(*compiled.module, *compiled.machine);
  }
  std::string undefined = undefinedCall({compiled.module.get()});
  if (!undefined.empty())
    return module.emitError() << undefined;
  return success();
}

/// `module` as optimised LLVM IR for `target`, with the target machine that
/// compiles it; errors at the module.
FailureOr<CompiledModule> optimize(ModuleOp module, const CpuTargetSpec &target,
                                   Timer &timing, CpuObjectTimes *times) {
  FailureOr<CompiledModule> result = translate(module, target, timing, times);
  if (failed(result) || failed(optimizeWhole(module, *result, timing, times)))
    return failure();
  return result;
}

/// The kernels' object files, compiled in parallel parts: the module is
/// split into `parts` modules (llvm::SplitModule, each internal function
/// kept with the functions that use it), each one optimised and compiled in
/// its own LLVM context on the MLIR context's threads. The number of parts
/// depends on the module alone, so the bytes do not depend on the threads.
FailureOr<std::vector<SmallString<0>>>
compileInParts(ModuleOp module, const CpuTargetSpec &target,
               CompiledModule &whole, unsigned parts, Timer &timing,
               CpuObjectTimes *times) {
  // Each part travels to its thread as bitcode: an LLVM context is not
  // shared between threads.
  std::vector<SmallString<0>> bitcode;
  {
    Step splitting(timing, "translate to LLVM IR",
                   counter(times, &CpuObjectTimes::translate));
    llvm::SplitModule(
        *whole.module, parts,
        [&](std::unique_ptr<llvm::Module> part) {
          SmallString<0> &bytes = bitcode.emplace_back();
          llvm::raw_svector_ostream os(bytes);
          llvm::WriteBitcodeToFile(*part, os);
        },
        /*PreserveLocals=*/true);
    whole.module.reset();
  }
  struct Part {
    std::unique_ptr<llvm::LLVMContext> context;
    std::unique_ptr<llvm::TargetMachine> machine;
    std::unique_ptr<llvm::Module> module;
    std::string error;
    SmallString<0> object;
  };
  std::vector<Part> compiled(bitcode.size());
  MLIRContext *ctx = module.getContext();
  {
    Step optimizing(timing, "LLVM O3",
                    counter(times, &CpuObjectTimes::optimize));
    parallelFor(ctx, 0, compiled.size(), [&](size_t i) {
      Part &p = compiled[i];
      p.context = std::make_unique<llvm::LLVMContext>();
      llvm::MemoryBufferRef ref(StringRef(bitcode[i].data(), bitcode[i].size()),
                                "fuel_kernels");
      llvm::Expected<std::unique_ptr<llvm::Module>> parsed =
          llvm::parseBitcodeFile(ref, *p.context);
      if (!parsed) {
        p.error = "reading a kernel part back failed: " +
                  llvm::toString(parsed.takeError());
        return;
      }
      p.module = std::move(*parsed);
      FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
          createMachine(target, p.error);
      if (failed(machine))
        return;
      p.machine = std::move(*machine);
      runO3(*p.module, *p.machine);
    });
  }
  std::vector<llvm::Module *> modules;
  for (Part &p : compiled) {
    if (!p.error.empty())
      return module.emitError() << p.error;
    modules.push_back(p.module.get());
  }
  std::string undefined = undefinedCall(modules);
  if (!undefined.empty())
    return module.emitError() << undefined;
  {
    Step generating(timing, "LLVM code generation",
                    counter(times, &CpuObjectTimes::codegen));
    parallelFor(ctx, 0, compiled.size(), [&](size_t i) {
      Part &p = compiled[i];
      llvm::raw_svector_ostream os(p.object);
      llvm::legacy::PassManager pm;
      if (p.machine->addPassesToEmitFile(pm, os, nullptr,
                                         llvm::CodeGenFileType::ObjectFile)) {
        p.error = "the target cannot emit object files";
        return;
      }
      pm.run(*p.module);
    });
  }
  std::vector<SmallString<0>> objects;
  for (Part &p : compiled) {
    if (!p.error.empty())
      return module.emitError() << p.error;
    objects.push_back(std::move(p.object));
  }
  return objects;
}

/// The number of parts the kernels of `module` are compiled in: one per
/// kParallelKernels defined functions, at most kMaxParts.
unsigned partsFor(const llvm::Module &module) {
  constexpr unsigned kParallelKernels = 4, kMaxParts = 8;
  unsigned defined = 0;
  for (const llvm::Function &fn : module)
    if (!fn.isDeclaration() && !fn.hasLocalLinkage())
      ++defined;
  return std::clamp(defined / kParallelKernels, 1u, kMaxParts);
}

FailureOr<SmallString<0>> emitFile(ModuleOp module, CompiledModule &compiled,
                                   llvm::CodeGenFileType kind, Timer &timing,
                                   CpuObjectTimes *times) {
  Step step(timing, "LLVM code generation",
            counter(times, &CpuObjectTimes::codegen));
  SmallString<0> bytes;
  llvm::raw_svector_ostream os(bytes);
  llvm::legacy::PassManager pm;
  if (compiled.machine->addPassesToEmitFile(pm, os, nullptr, kind))
    return module.emitError("the target cannot emit this file type");
  pm.run(*compiled.module);
  return bytes;
}

/// Removes a directory and what is in it when it goes out of scope.
struct TempDir {
  SmallString<128> path;
  ~TempDir() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
};
} // namespace

FailureOr<std::string>
mlir::fuel::emitCpuAssembly(ModuleOp llvmModule, const CpuTargetSpec &target) {
  Timer noTiming;
  FailureOr<CompiledModule> compiled =
      optimize(llvmModule, target, noTiming, nullptr);
  if (failed(compiled))
    return failure();
  FailureOr<SmallString<0>> text =
      emitFile(llvmModule, *compiled, llvm::CodeGenFileType::AssemblyFile,
               noTiming, nullptr);
  if (failed(text))
    return failure();
  return std::string(text->str());
}

FailureOr<std::vector<uint8_t>>
mlir::fuel::emitCpuSharedObject(ModuleOp llvmModule,
                                const CpuTargetSpec &target, Timer timing,
                                CpuObjectTimes *times) {
  FailureOr<CompiledModule> whole =
      translate(llvmModule, target, timing, times);
  if (failed(whole))
    return failure();
  std::vector<SmallString<0>> objects;
  unsigned parts = partsFor(*whole->module);
  if (times)
    times->parts += parts;
  if (parts > 1) {
    FailureOr<std::vector<SmallString<0>>> compiled =
        compileInParts(llvmModule, target, *whole, parts, timing, times);
    if (failed(compiled))
      return failure();
    objects = std::move(*compiled);
  } else {
    if (failed(optimizeWhole(llvmModule, *whole, timing, times)))
      return failure();
    FailureOr<SmallString<0>> object = emitFile(
        llvmModule, *whole, llvm::CodeGenFileType::ObjectFile, timing, times);
    if (failed(object))
      return failure();
    objects.push_back(std::move(*object));
  }
  // The IR is no longer needed: free it before linking.
  whole->module.reset();

  Step linking(timing, "link", counter(times, &CpuObjectTimes::link));
  // lld links files: a private directory, removed afterwards.
  TempDir dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("fuel-link", dir.path))
    return llvmModule.emitError()
           << "cannot create a directory to link in: " << ec.message();
  SmallString<128> soPath(dir.path);
  llvm::sys::path::append(soPath, "kernels.so");
  // The objects in part order, so the link is the same every time.
  std::vector<std::string> objPaths;
  for (auto [i, object] : llvm::enumerate(objects)) {
    SmallString<128> objPath(dir.path);
    llvm::sys::path::append(objPath, "kernels" + std::to_string(i) + ".o");
    std::error_code ec;
    llvm::raw_fd_ostream out(objPath, ec);
    if (ec)
      return llvmModule.emitError()
             << "cannot write the object: " << ec.message();
    out << object;
    objPaths.push_back(objPath.str().str());
  }
  std::string linkLog;
  llvm::raw_string_ostream log(linkLog);
  std::vector<const char *> args = {
      "ld.lld",      "-shared",         "--no-undefined-version", "-z",
      "noexecstack", "--build-id=none", "--hash-style=gnu",       "-O2",
      "-o",          soPath.c_str()};
  for (const std::string &path : objPaths)
    args.push_back(path.c_str());
  lld::Result linked;
  {
    // lld keeps global state (its context and error handler; it registers
    // every LLVM target again, which initializeNativeCpuTarget did before):
    // one link at a time in the process.
    static std::mutex linkMutex;
    std::lock_guard<std::mutex> lock(linkMutex);
    linked = lld::lldMain(args, log, log, {{lld::Gnu, &lld::elf::link}});
  }
  if (linked.retCode != 0)
    return llvmModule.emitError() << "linking the kernels failed: " << linkLog;
  auto buffer = llvm::MemoryBuffer::getFile(soPath);
  if (!buffer)
    return llvmModule.emitError()
           << "cannot read the linked object: " << buffer.getError().message();
  std::vector<uint8_t> bytes((*buffer)->getBufferStart(),
                             (*buffer)->getBufferEnd());

  // The guard after linking: no undefined dynamic symbol outside the ABI.
  auto file =
      llvm::object::ObjectFile::createObjectFile((*buffer)->getMemBufferRef());
  if (!file)
    return llvmModule.emitError() << "the linked object is no ELF file: "
                                  << llvm::toString(file.takeError());
  auto *elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(file->get());
  if (!elf)
    return llvmModule.emitError("the linked object is no ELF file");
  for (const llvm::object::ELFSymbolRef &symbol :
       elf->getDynamicSymbolIterators()) {
    llvm::Expected<uint32_t> flags = symbol.getFlags();
    llvm::Expected<StringRef> name = symbol.getName();
    if (!flags || !name) {
      llvm::consumeError(flags.takeError());
      llvm::consumeError(name.takeError());
      continue;
    }
    if ((*flags & llvm::object::SymbolRef::SF_Undefined) && !name->empty() &&
        !isAllowedUndefined(*name))
      return llvmModule.emitError()
             << "the kernels' shared object needs the undefined symbol '"
             << *name << "'";
  }
  return bytes;
}
