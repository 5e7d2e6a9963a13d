// Vulkan schedule of the host kernels fuel makes on a Vulkan device (a
// materialised strided tensor.extract_slice, docs/LOWERING.md "Host ops as
// CPU kernels"), sequence @vulkan; the first argument is the kernel
// func.func.
//
// No transformation: without a workgroup scf.forall the kernel runs as one
// invocation of one workgroup (convert-fuel-to-spirv), which copies the
// slice element by element.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @vulkan(
      %kernel: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}
