//===- Renamed.td - A banner naming another file -----------*- tablegen -*-===//

def Other;
