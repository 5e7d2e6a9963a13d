//===- AttrParsing.h - Helpers the attribute parsers share ------*- C++ -*-===//
//
// The keyed field-list parser and the small parsing and printing helpers that
// the plan attributes (PlanAttrs.cpp) and the machine attributes
// (MachineAttrs.cpp) share. Private to the dialect library.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_LIB_DIALECT_FUEL_IR_ATTRPARSING_H
#define FUEL_LIB_DIALECT_FUEL_IR_ATTRPARSING_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::fuel::detail {

/// Parses a comma-separated list of `key` or `key = value` fields (the
/// callback consumes `= value` itself). Rejects unknown and duplicate keys,
/// naming them and listing the known ones.
class FieldListParser {
public:
  FieldListParser(AsmParser &parser, StringRef what, ArrayRef<StringRef> keys)
      : parser(parser), what(what), keys(keys.begin(), keys.end()) {}

  ParseResult parse(function_ref<ParseResult(StringRef key)> parseField) {
    return parser.parseCommaSeparatedList([&]() -> ParseResult {
      SMLoc keyLoc = parser.getCurrentLocation();
      StringRef key;
      if (parser.parseKeyword(&key))
        return failure();
      if (!llvm::is_contained(keys, key)) {
        InFlightDiagnostic diag = parser.emitError(keyLoc)
                                  << "unknown " << what << " field '" << key
                                  << "'; expected one of: ";
        llvm::interleaveComma(keys, diag);
        return diag;
      }
      if (!seen.insert(key).second)
        return parser.emitError(keyLoc)
               << "duplicate " << what << " field '" << key << "'";
      return parseField(key);
    });
  }

  /// Parses the field list only when a comma follows.
  ParseResult parseAfterComma(function_ref<ParseResult(StringRef)> fn) {
    if (failed(parser.parseOptionalComma()))
      return success();
    return parse(fn);
  }

  bool has(StringRef key) const { return seen.contains(key); }

  /// Emits an error at `loc` for the first required key not seen.
  ParseResult require(SMLoc loc, ArrayRef<StringRef> required) {
    for (StringRef key : required)
      if (!has(key))
        return parser.emitError(loc)
               << what << " is missing field '" << key << "'";
    return success();
  }

private:
  AsmParser &parser;
  StringRef what;
  SmallVector<StringRef> keys;
  llvm::StringSet<> seen;
};

/// Parses `= <integer>` into a signed 64-bit value.
inline ParseResult parseEqInt(AsmParser &parser, int64_t &value) {
  return failure(parser.parseEqual() || parser.parseInteger(value));
}

/// Parses `= <integer>` into an unsigned 64-bit value (hex allowed). A
/// minus sign is refused here: AsmParser would read `-1` as 2^64 - 1.
inline ParseResult parseEqUInt(AsmParser &parser, uint64_t &value) {
  if (parser.parseEqual())
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalMinus()))
    return parser.emitError(loc, "expected a non-negative integer");
  return parser.parseInteger(value);
}

/// An f64 FloatAttr.
inline FloatAttr getF64(MLIRContext *ctx, double value) {
  return FloatAttr::get(Float64Type::get(ctx), value);
}

/// Prints a float without its type as a decimal literal that reads back as
/// the same float. MLIR's printer falls back to a hexadecimal bit pattern for
/// whole numbers of 7 or more significant digits (1000001.0, 2147483648.0),
/// which a dictionary entry reads back as an integer; those print here in
/// APFloat's shortest exact form with a `.0` the lexer needs.
inline void printFloatLiteral(AsmPrinter &printer, Attribute attr) {
  auto f = dyn_cast<FloatAttr>(attr);
  if (!f || !f.getValue().isFinite()) {
    printer.printAttributeWithoutType(attr);
    return;
  }
  const llvm::APFloat &v = f.getValue();
  SmallString<32> text;
  v.toString(text, /*FormatPrecision=*/6, /*FormatMaxPadding=*/0,
             /*TruncateZero=*/false);
  if (llvm::APFloat(v.getSemantics(), text).bitwiseIsEqual(v)) {
    printer << text;
    return;
  }
  text.clear();
  v.toString(text);
  if (!StringRef(text).contains('.')) {
    size_t exponent = StringRef(text).find_first_of("eE");
    text.insert(exponent == StringRef::npos ? text.end()
                                            : text.begin() + exponent,
                {'.', '0'});
  }
  printer << text;
}

} // namespace mlir::fuel::detail

#endif // FUEL_LIB_DIALECT_FUEL_IR_ATTRPARSING_H
