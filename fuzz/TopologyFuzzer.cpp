//===- TopologyFuzzer.cpp - libFuzzer target for the topology reader ------===//
//
// Feeds arbitrary bytes to parseTopology. A refusal must carry a message. An
// accepted topology must survive both of its printed forms: the JSON that
// printTopologyJSON writes reads back equal and prints the same, and the
// #fuel.topology attribute built from it prints as IR that parses back to
// the same attribute, whose topology equals the one read.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"
#include "MlirRoundTrip.h"

#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Target/TopologyFile.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;
using ::fuel::fuzz::fuzzFail;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<::fuel::plan::Topology> topology =
      ::fuel::target::parseTopology(text, "input.json");
  if (!topology) {
    std::string message = llvm::toString(topology.takeError());
    if (message.empty())
      fuzzFail("topology", "a refusal without a message");
    ::fuel::fuzz::fuzzNoteRefusal("topology", message);
    return 0;
  }

  // JSON → topology → JSON.
  std::string json = ::fuel::target::printTopologyJSON(*topology);
  llvm::Expected<::fuel::plan::Topology> reread =
      ::fuel::target::parseTopology(json, "printed.json");
  if (!reread)
    fuzzFail("topology",
             "the printed JSON is refused: " +
                 llvm::toString(reread.takeError()),
             json);
  if (!::fuel::target::topologiesEqual(*topology, *reread))
    fuzzFail("topology", "the printed JSON reads back another topology", json);
  std::string json2 = ::fuel::target::printTopologyJSON(*reread);
  if (json2 != json)
    fuzzFail("topology", "the printed JSON prints differently once read", json,
             json2);

  // topology → #fuel.topology → printed IR → parsed attribute.
  MLIRContext ctx(MLIRContext::Threading::DISABLED);
  ctx.loadDialect<mlir::fuel::FuelDialect>();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return success();
  });
  mlir::fuel::TopologyAttr attr =
      mlir::fuel::TopologyAttr::fromPlan(&ctx, *topology);
  std::string printed;
  llvm::raw_string_ostream os(printed);
  os << Attribute(attr);
  os.flush();
  size_t consumed = 0;
  Attribute parsed = parseAttribute(printed, &ctx, Type(), &consumed);
  if (!parsed)
    fuzzFail("topology", "the printed attribute does not parse: " + diagnostics,
             printed);
  if (consumed != printed.size())
    fuzzFail("topology", "the printed attribute parses only in part", printed);
  if (parsed != attr) {
    std::string again;
    llvm::raw_string_ostream(again) << parsed;
    fuzzFail("topology", "the printed attribute parses to another one", printed,
             again);
  }
  if (!::fuel::target::topologiesEqual(attr.toPlan(), *topology))
    fuzzFail("topology", "the attribute holds another topology", json,
             ::fuel::target::printTopologyJSON(attr.toPlan()));
  return 0;
}
