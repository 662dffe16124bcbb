// SPDX-License-Identifier: MIT
#include "bench/detail/models/resnet.hpp"

#include "bench/detail/models/python_calls.hpp"

#include "util/error.hpp"

#include <string>

namespace layerbench::bench::models {

namespace nn = torch::nn;

namespace {

// torchvision's conv1x1 and conv3x3: no bias, as a BatchNorm follows each.
nn::Conv2d conv(int64_t in_channels, int64_t out_channels, int64_t kernel, int64_t stride)
{
  return nn::Conv2d(nn::Conv2dOptions(in_channels, out_channels, kernel).stride(stride).padding(kernel / 2).bias(false));
}

// torchvision's ResNet.__init__ loop over self.modules(): Kaiming-normal convolutions (fan_out, ReLU),
// BatchNorm at scale 1 and shift 0. Linear keeps its default, as torchvision's does.
void init_like_torchvision(nn::Module& model)
{
  torch::NoGradGuard no_grad;
  for (const auto& module : model.modules(/*include_self=*/false)) {
    if (auto* conv2d = module->as<nn::Conv2d>()) {
      nn::init::kaiming_normal_(conv2d->weight, 0.0, torch::kFanOut, torch::kReLU);
    } else if (auto* batch_norm = module->as<nn::BatchNorm2d>()) {
      nn::init::ones_(batch_norm->weight);
      nn::init::zeros_(batch_norm->bias);
    }
  }
}

} // namespace

BottleneckImpl::BottleneckImpl(int64_t in_channels, int64_t planes, int64_t stride)
{
  const int64_t out_channels = planes * k_expansion;
  m_conv1 = register_module("conv1", conv(in_channels, planes, 1, 1));
  m_bn1 = register_module("bn1", nn::BatchNorm2d(planes));
  // v1.5: the stride is here, on the 3x3, where v1 put it on conv1.
  m_conv2 = register_module("conv2", conv(planes, planes, 3, stride));
  m_bn2 = register_module("bn2", nn::BatchNorm2d(planes));
  m_conv3 = register_module("conv3", conv(planes, out_channels, 1, 1));
  m_bn3 = register_module("bn3", nn::BatchNorm2d(out_channels));
  if (stride != 1 || in_channels != out_channels) {
    m_downsample = register_module("downsample", nn::Sequential(conv(in_channels, out_channels, 1, stride), nn::BatchNorm2d(out_channels)));
  }
}

torch::Tensor BottleneckImpl::forward(torch::Tensor x)
{
  // torchvision's nn.ReLU(inplace=True) and `out += identity`: aten::relu_ and aten::add_.
  auto out = m_bn1(m_conv1(x)).relu_();
  out = m_bn2(m_conv2(out)).relu_();
  out = m_bn3(m_conv3(out));
  out += m_downsample ? m_downsample->forward(x) : x;
  return out.relu_();
}

ResNetImpl::ResNetImpl(const ResNetOptions& options)
{
  for (const int64_t blocks : options.blocks) {
    // torchvision would quietly build one block where asked for none.
    if (blocks < 1) {
      throw Error("ResNet: every stage needs at least one bottleneck block, not " + std::to_string(blocks));
    }
  }
  m_conv1 = register_module("conv1", nn::Conv2d(nn::Conv2dOptions(3, 64, 7).stride(2).padding(3).bias(false)));
  m_bn1 = register_module("bn1", nn::BatchNorm2d(64));
  m_maxpool = register_module("maxpool", nn::MaxPool2d(nn::MaxPool2dOptions(3).stride(2).padding(1)));
  int64_t in_channels = 64;
  for (size_t stage = 0; stage < m_layers.size(); ++stage) {
    const int64_t planes = int64_t{64} << stage;
    nn::Sequential layer;
    for (int64_t block = 0; block < options.blocks[stage]; ++block) {
      const int64_t stride = stage > 0 && block == 0 ? 2 : 1;
      layer->push_back(Bottleneck(in_channels, planes, stride));
      in_channels = planes * BottleneckImpl::k_expansion;
    }
    m_layers[stage] = register_module("layer" + std::to_string(stage + 1), layer);
  }
  m_avgpool = register_module("avgpool", nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({1, 1})));
  m_fc = register_module("fc", nn::Linear(in_channels, options.num_classes));
  init_like_torchvision(*this);
}

torch::Tensor ResNetImpl::forward(torch::Tensor images)
{
  auto x = m_maxpool(m_bn1(m_conv1(images)).relu_());
  for (auto& layer : m_layers) {
    x = layer->forward(x);
  }
  x = torch::flatten(m_avgpool(x), 1);
  return linear(m_fc, x);
}

} // namespace layerbench::bench::models
