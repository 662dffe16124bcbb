// SPDX-License-Identifier: MIT
#pragma once

// One use of a layer inside a whole model (catalog/models/model_use.hpp) built in LibTorch at the model's
// own shapes, for the model's layer sum (catalog/models/layer_sum.hpp): the one place where a use becomes
// torch.

#include "bench/detail/builder.hpp"
#include "catalog/models/model_use.hpp"

namespace layerbench::bench::models {

// One use's module and a batch of its input on `device`. Its call dispatches the operators the model's
// forward runs for it, except that an op the model runs in place (torchvision's relu_ and residual add_)
// runs out of place where the input needs its gradient (train corners), since autograd refuses an
// in-place op on a leaf that requires it.
detail::Instance build_use(const UseShape& shape, int64_t batch_size, torch::Device device);

} // namespace layerbench::bench::models
