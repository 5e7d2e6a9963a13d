// RUN: fuel-opt %s --split-input-file --fuel-warn-costs -verify-diagnostics

// Tests that a record that is not a dictionary is refused where the IR is
// verified, at its function.

// expected-error @+1 {{'fuel.cost_warnings' must be a dictionary on a function, got "device 'cpu' has no peak f32 rate"}}
func.func @not_a_dictionary() attributes {fuel.cost_warnings = "device 'cpu' has no peak f32 rate"} {
  return
}

// -----

// Tests that an entry other than priors and profile_misses is refused at
// its function, and that nothing is warned of then.

// expected-error @+1 {{'fuel.cost_warnings' has an unknown entry 'prior' (expected 'priors' and 'profile_misses')}}
func.func @unknown_entry() attributes {fuel.cost_warnings = {prior = []}} {
  return
}
func.func @fine() attributes {fuel.cost_warnings = {priors = [
    {at = loc("a.mlir":1:1), warning = "device 'cpu' has no peak f32 rate; using the CPU prior of 1 flop/ns"}]}} {
  return
}

// -----

// Tests that priors must be a list.

// expected-error @+1 {{'fuel.cost_warnings' 'priors' must be a list of {at = loc(...), warning = "..."}, got "device 'cpu'"}}
func.func @priors_not_a_list() attributes {fuel.cost_warnings = {priors = "device 'cpu'"}} {
  return
}

// -----

// Tests that a prior needs a location.

// expected-error @+1 {{'fuel.cost_warnings' 'priors' entry #1 must be {at = loc(...), warning = "..."} with a non-empty warning, got {at = "a.mlir", warning = "w"}}}
func.func @prior_without_location() attributes {fuel.cost_warnings = {priors = [
    {at = loc("a.mlir":1:1), warning = "v"}, {at = "a.mlir", warning = "w"}]}} {
  return
}

// -----

// Tests that a prior needs a warning.

// expected-error @+1 {{'fuel.cost_warnings' 'priors' entry #0 must be {at = loc(...), warning = "..."} with a non-empty warning}}
func.func @prior_without_warning() attributes {fuel.cost_warnings = {priors = [
    {at = loc("a.mlir":1:1), warning = ""}]}} {
  return
}

// -----

// Tests that profile misses need every field.

// expected-error @+1 {{'fuel.cost_warnings' 'profile_misses' entry #0 must be {at = loc(...), nodes = N : i64, nodes_per_pool_size = array<i64: ...>, pool_sizes = array<i64: ...>, profile = "...", profile_threads = N : i64}}}
func.func @misses_without_profile() attributes {fuel.cost_warnings = {profile_misses = [
    {at = loc("a.mlir":1:1), nodes = 1, nodes_per_pool_size = array<i64: 1>,
     pool_sizes = array<i64: 2>, profile_threads = 1}]}} {
  return
}

// -----

// Tests that profile misses count at least one node.

// expected-error @+1 {{'fuel.cost_warnings' 'profile_misses' entry #0 needs 'nodes' and 'profile_threads' of at least 1, got 0 and 1}}
func.func @misses_without_nodes() attributes {fuel.cost_warnings = {profile_misses = [
    {at = loc("a.mlir":1:1), nodes = 0, nodes_per_pool_size = array<i64: 1>,
     pool_sizes = array<i64: 2>, profile = "p.db", profile_threads = 1}]}} {
  return
}

// -----

// Tests that the pool sizes ascend and leave out the one planned for.

// expected-error @+1 {{'fuel.cost_warnings' 'profile_misses' entry #0 'pool_sizes' must ascend, each at least 1 and other than 'profile_threads' (2), got array<i64: 1, 2>}}
func.func @misses_under_the_planned_pool_size() attributes {fuel.cost_warnings = {profile_misses = [
    {at = loc("a.mlir":1:1), nodes = 2, nodes_per_pool_size = array<i64: 1, 1>,
     pool_sizes = array<i64: 1, 2>, profile = "p.db", profile_threads = 2}]}} {
  return
}

// -----

// Tests that each pool size has a node count, between 1 and the nodes.

// expected-error @+1 {{'fuel.cost_warnings' 'profile_misses' entry #0 needs as many 'nodes_per_pool_size' as 'pool_sizes', and at least one, got 1 and 2}}
func.func @misses_counts_missing() attributes {fuel.cost_warnings = {profile_misses = [
    {at = loc("a.mlir":1:1), nodes = 2, nodes_per_pool_size = array<i64: 1>,
     pool_sizes = array<i64: 2, 4>, profile = "p.db", profile_threads = 1}]}} {
  return
}
// expected-error @+1 {{'fuel.cost_warnings' 'profile_misses' entry #0 'nodes_per_pool_size' must each be between 1 and 'nodes' (2), got array<i64: 3>}}
func.func @misses_counts_over() attributes {fuel.cost_warnings = {profile_misses = [
    {at = loc("a.mlir":1:1), nodes = 2, nodes_per_pool_size = array<i64: 3>,
     pool_sizes = array<i64: 2>, profile = "p.db", profile_threads = 1}]}} {
  return
}
