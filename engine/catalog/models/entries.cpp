// SPDX-License-Identifier: MIT
#include "catalog/models/entries.hpp"

#include "catalog/models/inventory.hpp"

#include "util/error.hpp"

#include <variant>

namespace layerbench::bench::models {

namespace {

// The parts every model entry shares: its FLOPs from its inventory, its parameters from its
// architecture, the formulas that say so.
LayerSpec model_spec(const std::string& name, std::vector<dataset::LayerUse> inventory, int64_t params)
{
  LayerSpec spec;
  spec.name = name;
  spec.kind = dataset::LayerKind::model;
  const double matmul = matmul_flops(inventory);
  const double elementwise = elementwise_flops(inventory);
  spec.matmul_flops = [matmul] { return matmul; };
  spec.elementwise_flops = [elementwise] { return elementwise; };
  spec.flops_formula = "the sum over the model's layers of count x FLOPs per sample (layers[].contains)";
  spec.flops_values = flops_values(inventory);
  spec.contains = std::move(inventory);
  spec.params = [params] { return params; };
  spec.params_formula = "from the architecture: every weight and bias tensor once (a test checks it against the "
                        "built model's count)";
  return spec;
}

// A model family is the type of its architecture, with one overload each of entry and uses (below) and of
// build (bench/detail/builders.cpp): a family that lacks one does not compile, and nothing asks a model's
// name which family it is.
LayerSpec entry(const std::string& name, const ResNetOptions& options, const std::string& config)
{
  auto spec = model_spec(name, resnet_inventory(options, k_image_size), resnet_parameters(options));
  spec.module = "torchvision.models.resnet50";
  spec.config = config;
  spec.input_shape = "B x 3 x 224 x 224";
  spec.rank = InputRank::four_d;
  spec.dispatch = "the ATen operators of torchvision's resnet50 (docs/models.md compares the profiles)";
  spec.train_step = "zero_grad (set to none); cross-entropy of the logits against random class labels; backward; "
                    "torch.optim.SGD(lr=1e-3, momentum=0.9, weight_decay=1e-4) step";
  return spec;
}

LayerSpec entry(const std::string& name, const BertConfig& config, const std::string& description)
{
  auto spec = model_spec(name, bert_inventory(config, k_sequence_length), bert_parameters(config));
  spec.module = "transformers.BertModel";
  spec.config = description + ", sequence length 128";
  spec.input_shape = "B x 128 token ids";
  spec.dispatch = "the ATen operators of transformers' BertModel with its default \"sdpa\" attention "
                  "(docs/models.md compares the profiles)";
  spec.train_step = "zero_grad (set to none); BertForPreTraining's pretraining loss (masked-LM cross-entropy on "
                    "15% of the tokens plus next-sentence cross-entropy); backward; "
                    "torch.optim.AdamW(lr=1e-4, weight_decay=0.01) step";
  return spec;
}

std::vector<ModelUse> uses(const ResNetOptions& options) { return resnet_uses(options, k_image_size); }

std::vector<ModelUse> uses(const BertConfig& config) { return bert_uses(config, k_sequence_length); }

BertConfig bert_tiny()
{
  auto config = bert_base_cased();
  config.num_hidden_layers = 2;
  config.hidden_size = 128;
  config.num_attention_heads = 2;
  config.intermediate_size = 512;
  return config;
}

struct Model
{
  const char* name;
  std::variant<ResNetOptions, BertConfig> architecture;
  const char* description;
};

const std::vector<Model>& models()
{
  static const std::vector<Model> table = {
    {"ResNet50", ResNetOptions{}, "ResNet-50 v1.5 (torchvision), 224x224 images, 1000 classes"},
    {"BertBase", bert_base_cased(), "BERT base cased: 12 layers, 768 wide, 12 heads"},
    {"BertLarge", bert_large_cased(), "BERT large cased: 24 layers, 1024 wide, 16 heads"},
    {"ResNetTiny", ResNetOptions{{1, 1, 1, 1}, 1000}, "ResNet-50's stages with one bottleneck each, 224x224 images (for tests)"},
    {"BertTiny", bert_tiny(), "BERT base cased's vocabulary, 2 layers, 128 wide, 2 heads (for tests)"},
  };
  return table;
}

const Model* find_model(const std::string& name)
{
  for (const auto& model : models()) {
    if (model.name == name) {
      return &model;
    }
  }
  return nullptr;
}

template<typename Architecture>
const Architecture* architecture_of(const std::string& name)
{
  const auto* model = find_model(name);
  return model ? std::get_if<Architecture>(&model->architecture) : nullptr;
}

} // namespace

std::vector<LayerSpec> model_entries()
{
  std::vector<LayerSpec> entries;
  for (const auto& model : models()) {
    entries.push_back(std::visit(
      [&](const auto& architecture) {
        auto spec = entry(model.name, architecture, model.description);
        spec.shape = architecture;
        return spec;
      },
      model.architecture));
  }
  return entries;
}

const ResNetOptions* resnet_options(const std::string& name) { return architecture_of<ResNetOptions>(name); }

const BertConfig* bert_config(const std::string& name) { return architecture_of<BertConfig>(name); }

std::vector<ModelUse> model_uses(const std::string& model)
{
  if (const auto* found = find_model(model)) {
    return std::visit([](const auto& architecture) { return uses(architecture); }, found->architecture);
  }
  throw Error("no model named '" + model + "' has an inventory");
}

} // namespace layerbench::bench::models
