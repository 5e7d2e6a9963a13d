//===- Mode.h - A header banner without its editor mode -------------------===//

int noMode;
