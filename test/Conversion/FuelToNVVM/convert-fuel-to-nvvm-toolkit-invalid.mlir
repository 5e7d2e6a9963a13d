// RUN: fuel-opt %s --verify-diagnostics --convert-fuel-to-nvvm="cuda-toolkit=%t.no-such-toolkit"

// Tests that a cuda-toolkit without libdevice is an error at the module,
// naming the option and the file it looked for.

// expected-error @+1 {{convert-fuel-to-nvvm: option cuda-toolkit='}}
module {
  fuel.executable @cuda_0 on cuda:0 {
    builtin.module {
    }
  }
}
