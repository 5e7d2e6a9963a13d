// GPU schedule of the host kernels fuel makes on a GPU (a materialised
// strided tensor.extract_slice, docs/LOWERING.md "Host ops as CPU kernels"),
// sequence @gpu, shared by the GPU backends (Vulkan and CUDA). The first
// argument is the kernel func.func.
//
// No transformation: without a workgroup scf.forall the kernel runs as one
// invocation (thread) of one workgroup (block), which copies the slice
// element by element.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @gpu(
      %kernel: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}
