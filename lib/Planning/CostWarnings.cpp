//===- CostWarnings.cpp - What fuel-annotate-costs warns of ---------------===//
//
// The warnings of SEMANTICS §3 steps 6 and 7 (CostWarnings.h): their
// wording, their merging across functions, and the `fuel.cost_warnings`
// attribute that carries them from fuel-annotate-costs to fuel-warn-costs.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/CostWarnings.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::fuel;

void CostWarnings::addPrior(StringRef warning, LocationAttr at) {
  if (!llvm::any_of(priors,
                    [&](const Prior &p) { return p.warning == warning; }))
    priors.push_back({warning.str(), at});
}

void CostWarnings::addMisses(const ProfileMisses &found) {
  auto it = llvm::find_if(misses, [&](const ProfileMisses &m) {
    return m.profile == found.profile &&
           m.profileThreads == found.profileThreads;
  });
  if (it == misses.end()) {
    misses.push_back(found);
    return;
  }
  it->nodes += found.nodes;
  for (const auto &[threads, n] : found.nodesPerPoolSize)
    it->nodesPerPoolSize[threads] += n;
}

void CostWarnings::merge(const CostWarnings &other) {
  for (const Prior &p : other.priors)
    addPrior(p.warning, p.at);
  for (const ProfileMisses &m : other.misses)
    addMisses(m);
}

void CostWarnings::warnPriors() const {
  for (const Prior &p : priors)
    mlir::emitWarning(p.at) << p.warning;
}

void CostWarnings::warnMisses() const {
  for (const ProfileMisses &m : misses) {
    int64_t best = m.nodesPerPoolSize.begin()->first;
    for (const auto &[threads, n] : m.nodesPerPoolSize)
      if (n > m.nodesPerPoolSize.at(best))
        best = threads;
    InFlightDiagnostic diag = mlir::emitWarning(m.at);
    diag << "the profile '" << m.profile << "' holds measurements for "
         << m.nodes << " node(s) only under cpu threads ";
    llvm::interleave(
        m.nodesPerPoolSize, [&](const auto &e) { diag << e.first; },
        [&] { diag << ", "; });
    diag << ", not under the " << m.profileThreads
         << " this plan is priced for (profile-threads=" << m.profileThreads
         << "); plan with profile-threads=" << best
         << " for executables run with fuel-run --threads=" << best
         << ", or measure with fuel-judge --cpu-threads=" << m.profileThreads;
  }
}

unsigned CostWarnings::warn() const {
  warnPriors();
  warnMisses();
  return priors.size() + misses.size();
}

DictionaryAttr CostWarnings::toAttr(MLIRContext *ctx) const {
  Builder b(ctx);
  SmallVector<NamedAttribute> fields;
  if (!priors.empty()) {
    SmallVector<Attribute> list;
    for (const Prior &p : priors)
      list.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("at", p.at),
           b.getNamedAttr("warning", b.getStringAttr(p.warning))}));
    fields.push_back(b.getNamedAttr("priors", b.getArrayAttr(list)));
  }
  if (!misses.empty()) {
    SmallVector<Attribute> list;
    for (const ProfileMisses &m : misses) {
      SmallVector<int64_t> sizes, nodes;
      for (const auto &[threads, n] : m.nodesPerPoolSize) {
        sizes.push_back(threads);
        nodes.push_back(static_cast<int64_t>(n));
      }
      list.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("at", m.at),
           b.getNamedAttr("nodes",
                          b.getI64IntegerAttr(static_cast<int64_t>(m.nodes))),
           b.getNamedAttr("nodes_per_pool_size", b.getDenseI64ArrayAttr(nodes)),
           b.getNamedAttr("pool_sizes", b.getDenseI64ArrayAttr(sizes)),
           b.getNamedAttr("profile", b.getStringAttr(m.profile)),
           b.getNamedAttr("profile_threads",
                          b.getI64IntegerAttr(m.profileThreads))}));
    }
    fields.push_back(b.getNamedAttr("profile_misses", b.getArrayAttr(list)));
  }
  return b.getDictionaryAttr(fields);
}

/// Whether `dict` has exactly the keys `names`.
static bool hasExactly(DictionaryAttr dict, ArrayRef<StringRef> names) {
  return dict.size() == names.size() &&
         llvm::all_of(names, [&](StringRef n) { return dict.contains(n); });
}

FailureOr<CostWarnings>
CostWarnings::fromAttr(Attribute attr,
                       function_ref<InFlightDiagnostic()> emitError) {
  auto fail = [&]() {
    InFlightDiagnostic diag = emitError();
    diag << "'" << kCostWarningsAttrName << "' ";
    return diag;
  };
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict) {
    (void)(fail() << "must be a dictionary of 'priors' and 'profile_misses', "
                     "got "
                  << attr);
    return failure();
  }
  CostWarnings out;
  for (NamedAttribute field : dict) {
    StringRef key = field.getName().getValue();
    auto list = dyn_cast<ArrayAttr>(field.getValue());
    if (key == "priors") {
      static constexpr StringLiteral kShape =
          "{at = loc(...), warning = \"...\"}";
      if (!list) {
        (void)(fail() << "'priors' must be a list of " << kShape << ", got "
                      << field.getValue());
        return failure();
      }
      for (auto [index, entry] : llvm::enumerate(list)) {
        auto prior = dyn_cast<DictionaryAttr>(entry);
        LocationAttr at;
        StringAttr warning;
        if (prior && hasExactly(prior, {"at", "warning"})) {
          at = dyn_cast<LocationAttr>(prior.get("at"));
          warning = dyn_cast<StringAttr>(prior.get("warning"));
        }
        if (!at || !warning || warning.getValue().empty()) {
          (void)(fail() << "'priors' entry #" << index << " must be " << kShape
                        << " with a non-empty warning, got " << entry);
          return failure();
        }
        out.addPrior(warning.getValue(), at);
      }
      continue;
    }
    if (key == "profile_misses") {
      static constexpr StringLiteral kShape =
          "{at = loc(...), nodes = N : i64, nodes_per_pool_size = "
          "array<i64: ...>, pool_sizes = array<i64: ...>, profile = \"...\", "
          "profile_threads = N : i64}";
      if (!list) {
        (void)(fail() << "'profile_misses' must be a list of " << kShape
                      << ", got " << field.getValue());
        return failure();
      }
      for (auto item : llvm::enumerate(list)) {
        size_t index = item.index();
        Attribute entry = item.value();
        auto entryFail = [&]() {
          InFlightDiagnostic diag = fail();
          diag << "'profile_misses' entry #" << index << " ";
          return diag;
        };
        auto misses = dyn_cast<DictionaryAttr>(entry);
        LocationAttr at;
        IntegerAttr nodes, threads;
        DenseI64ArrayAttr perSize, sizes;
        StringAttr profile;
        if (misses &&
            hasExactly(misses, {"at", "nodes", "nodes_per_pool_size",
                                "pool_sizes", "profile", "profile_threads"})) {
          at = dyn_cast<LocationAttr>(misses.get("at"));
          nodes = dyn_cast<IntegerAttr>(misses.get("nodes"));
          perSize =
              dyn_cast<DenseI64ArrayAttr>(misses.get("nodes_per_pool_size"));
          sizes = dyn_cast<DenseI64ArrayAttr>(misses.get("pool_sizes"));
          profile = dyn_cast<StringAttr>(misses.get("profile"));
          threads = dyn_cast<IntegerAttr>(misses.get("profile_threads"));
        }
        auto isI64 = [](IntegerAttr i) {
          return i && i.getType().isSignlessInteger(64);
        };
        if (!at || !isI64(nodes) || !perSize || !sizes || !profile ||
            !isI64(threads)) {
          (void)(entryFail() << "must be " << kShape << ", got " << entry);
          return failure();
        }
        ProfileMisses m;
        m.profile = profile.getValue().str();
        m.profileThreads = threads.getValue().getSExtValue();
        m.at = at;
        int64_t count = nodes.getValue().getSExtValue();
        if (count < 1 || m.profileThreads < 1) {
          (void)(entryFail() << "needs 'nodes' and 'profile_threads' of at "
                                "least 1, got "
                             << count << " and " << m.profileThreads);
          return failure();
        }
        m.nodes = static_cast<uint64_t>(count);
        ArrayRef<int64_t> poolSizes = sizes.asArrayRef();
        ArrayRef<int64_t> perPoolSize = perSize.asArrayRef();
        if (poolSizes.empty() || poolSizes.size() != perPoolSize.size()) {
          (void)(entryFail()
                 << "needs as many 'nodes_per_pool_size' as "
                    "'pool_sizes', and at least one, got "
                 << perPoolSize.size() << " and " << poolSizes.size());
          return failure();
        }
        for (auto [i, size] : llvm::enumerate(poolSizes)) {
          if (size < 1 || size == m.profileThreads ||
              (i > 0 && size <= poolSizes[i - 1])) {
            (void)(entryFail()
                   << "'pool_sizes' must ascend, each at least 1 and other "
                      "than 'profile_threads' ("
                   << m.profileThreads << "), got " << sizes);
            return failure();
          }
          if (perPoolSize[i] < 1 || perPoolSize[i] > count) {
            (void)(entryFail() << "'nodes_per_pool_size' must each be "
                                  "between 1 and 'nodes' ("
                               << count << "), got " << perSize);
            return failure();
          }
          m.nodesPerPoolSize[size] = static_cast<uint64_t>(perPoolSize[i]);
        }
        out.addMisses(m);
      }
      continue;
    }
    (void)(fail() << "has an unknown entry '" << key
                  << "' (expected 'priors' and 'profile_misses')");
    return failure();
  }
  return out;
}
