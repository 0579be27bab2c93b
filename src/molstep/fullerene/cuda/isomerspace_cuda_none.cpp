// SPDX-License-Identifier: MIT
// The GPU isomer pipeline in a build without the CUDA toolkit.
#include "molstep/core/error.hpp"
#include "molstep/fullerene/cuda/isomerspace_cuda.hpp"

namespace molstep::fullerene::cuda {

struct IsomerPipeline::Impl {
  PipelineTimes times;
};

int pipeline_devices() { return 0; }

IsomerPipeline::IsomerPipeline(int, const OptimizeOptions&, const GpuOptions&, int, int) {
  throw Error("this molstep was built without CUDA: --device cuda is not available (use --device cpu)");
}
IsomerPipeline::~IsomerPipeline() = default;

void IsomerPipeline::run(const Todo&, std::vector<OptimizedIsomer>&) {}
std::uint64_t IsomerPipeline::submit(const Todo&, std::vector<OptimizedIsomer>&) { return 0; }
void IsomerPipeline::drive(std::uint64_t) {}

const PipelineTimes& IsomerPipeline::times() const { return impl_->times; }

}  // namespace molstep::fullerene::cuda
